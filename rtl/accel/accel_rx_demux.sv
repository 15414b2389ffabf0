// SPDX-License-Identifier: Apache-2.0
//
// accel_rx_demux: splits the accelerator's received TLP stream by type.
// Completions (Cpl, CplD, CplLk, CplDLk: 3-DW header, type 0101x) go to the
// job engine, everything else to the request target. The decision is made
// on the header beat and held for the rest of the TLP. Completions are never
// stalled (the job engine always takes them), so they can always pass the
// request path. Data, keep, sop and eop fan out to both sinks unchanged;
// only the valids are steered.

`default_nettype none

// Package items are referenced by qualified name (accel_pkg::...): Yosys reads
// no package imports inside modules.

module accel_rx_demux (

  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic         clk,
  input  wire logic         rst,

  // ---------------- received TLP stream (handshake and header dword 0) ----------------
  input  wire logic [31:0]  s_hdr_dw0,    // dword 0 of the beat (the header on sop)
  input  wire logic         s_sop,
  input  wire logic         s_valid,
  output      logic         s_ready,

  // ---------------- requests (to accel_target) ----------------
  output      logic         m_req_valid,
  input  wire logic         m_req_ready,

  // ---------------- completions (to accel_job, always ready) ----------------
  output      logic         m_cpl_valid
);

  logic cpl_q, is_cpl, to_cpl;

  /* verilator lint_off UNUSEDSIGNAL */  // Length and the other fields of dword 0
  logic [31:0] dw0;
  /* verilator lint_on UNUSEDSIGNAL */
  assign dw0 = s_hdr_dw0;

  assign is_cpl      = (dw0[31:29] == accel_pkg::FMT_3DW || dw0[31:29] == accel_pkg::FMT_3DW_D) &&
                       dw0[28:25] == accel_pkg::TYPE_CPL[4:1];
  assign to_cpl      = s_sop ? is_cpl : cpl_q;
  assign s_ready     = to_cpl ? 1'b1 : m_req_ready;
  assign m_req_valid = s_valid && !to_cpl;
  assign m_cpl_valid = s_valid && to_cpl;

  always_ff @(posedge clk) begin
    if (rst) cpl_q <= 1'b0;
    else if (s_valid && s_ready && s_sop) cpl_q <= is_cpl;
  end

endmodule

`default_nettype wire
