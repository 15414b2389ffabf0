// SPDX-License-Identifier: Apache-2.0
//
// accel_tx_arb: merges the accelerator's two TLP sources onto the m_tlp stream
// (docs/tlp-interface.md).
//
// Input a: completions (accel_target); input b: the job engine's requests
// (DMA reads/writes, MSI/MSI-X writes). Whole TLPs, round robin when both
// wait. Once a beat is presented the choice holds until that TLP's last beat
// is taken, so the output obeys the stream rules (stable while not ready).

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (accel_pkg::...): Yosys reads
// no package imports inside modules.

module accel_tx_arb
(
  // ------------------------------------------------------------------------
  // Clock and synchronous active-high reset
  // ------------------------------------------------------------------------
  input  wire logic  clk,
  input  wire logic  rst,
  // ------------------------------------------------------------------------
  // Input a (completions)
  // ------------------------------------------------------------------------
  input  wire logic  a_valid,
  input  wire accel_pkg::beat_t a_beat,
  output      logic  a_ready,
  // ------------------------------------------------------------------------
  // Input b (requests)
  // ------------------------------------------------------------------------
  input  wire logic  b_valid,
  input  wire accel_pkg::beat_t b_beat,
  output      logic  b_ready,
  // ------------------------------------------------------------------------
  // Output: the device's TLP stream
  // ------------------------------------------------------------------------
  `TLP_M_PORTS(m_tlp)
);

  accel_pkg::beat_t m_beat;
  assign m_tlp_data = m_beat.data;
  assign m_tlp_keep = m_beat.keep;
  assign m_tlp_sop  = m_beat.sop;
  assign m_tlp_eop  = m_beat.eop;


  logic locked, owner, last, sel;

  always_comb begin
    if (locked) sel = owner;
    else if (a_valid && b_valid) sel = !last;   // alternate: the one not served last
    else sel = b_valid;
    m_tlp_valid = sel ? b_valid : a_valid;
    m_beat  = sel ? b_beat : a_beat;
    a_ready = !sel && m_tlp_ready;
    b_ready = sel && m_tlp_ready;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      locked <= 1'b0;
      owner  <= 1'b0;
      last   <= 1'b0;
    end else if (m_tlp_valid) begin
      if (m_tlp_ready && m_beat.eop) begin
        locked <= 1'b0;
        last   <= sel;
      end else begin
        locked <= 1'b1;
        owner  <= sel;
      end
    end
  end

endmodule
