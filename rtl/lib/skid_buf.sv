// SPDX-License-Identifier: Apache-2.0
//
// skid_buf: a two-entry register stage for a valid/ready stream that cuts
// every path through it: m_data and m_valid come from flip-flops, and
// s_ready is "entry 1 free", a flip-flop too (not m_ready). Full throughput:
// entry 0 is the output; a word arriving while entry 0 is held goes to entry 1
// and moves up when entry 0 leaves. One cycle of latency.
//
// Used by pcie_tlp_slice (the TLP stream) and on the SMFU's request and
// completion paths (smfu_net_if's receive
// buffer output, smfu_in's input stage, smfu_rd_cpl's input), where a block
// RAM's clock-to-output or a decode must not run into the logic behind.

`default_nettype none

module skid_buf #(
  // --------------------------------------------------------------------------
  // Parameters
  // --------------------------------------------------------------------------
  parameter int W = 8   // bits per word
) (
  input  wire logic         clk,
  input  wire logic         rst,   // synchronous, active high: both entries empty

  // --------------------------------------------------------------------------
  // Input
  // --------------------------------------------------------------------------
  input  wire logic [W-1:0] s_data,
  input  wire logic         s_valid,
  output      logic         s_ready,

  // --------------------------------------------------------------------------
  // Output
  // --------------------------------------------------------------------------
  output      logic [W-1:0] m_data,
  output      logic         m_valid,
  input  wire logic         m_ready
);

  logic [W-1:0] d0_q, d1_q;
  logic         v0_q, v1_q;
  logic         ld0;                 // entry 0 empty or leaving

  assign s_ready = !v1_q;
  assign m_data  = d0_q;
  assign m_valid = v0_q;
  assign ld0     = !v0_q || m_ready;

  always_ff @(posedge clk) begin
    if (rst) begin
      v0_q <= 1'b0;
      v1_q <= 1'b0;
    end else if (ld0) begin
      v0_q <= v1_q || s_valid;
      v1_q <= 1'b0;
    end else if (!v1_q) begin
      v1_q <= s_valid;
    end
  end

  always_ff @(posedge clk) begin
    if (ld0) d0_q <= v1_q ? d1_q : s_data;
    if (!v1_q) d1_q <= s_data;
  end

endmodule

`default_nettype wire
