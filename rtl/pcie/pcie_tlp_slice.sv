// SPDX-License-Identifier: Apache-2.0
//
// pcie_tlp_slice: a register slice (rtl/lib/skid_buf) for the TLP stream. Full
// throughput, every output registered, s_ready registered as well, so it cuts
// all combinational paths between its two sides. Used at the NIC's m_tlp edge
// so the vendor layer sees flop outputs that obey the AXI-Stream rules even
// though the arbiter in front of it is combinational.

`default_nettype none

module pcie_tlp_slice #(
  parameter int DATA_W = 128,          // beat width in bits
  parameter int KEEP_W = DATA_W / 32   // keep bits (one per dword)
) (
  // ---------------- clock and reset ----------------
  input  wire logic              clk,
  input  wire logic              rst,      // synchronous, active high

  // ---------------- input stream ----------------
  input  wire logic [DATA_W-1:0] s_data,
  input  wire logic [KEEP_W-1:0] s_keep,
  input  wire logic              s_sop,
  input  wire logic              s_eop,
  input  wire logic              s_valid,
  output      logic              s_ready,

  // ---------------- output stream ----------------
  output      logic [DATA_W-1:0] m_data,
  output      logic [KEEP_W-1:0] m_keep,
  output      logic              m_sop,
  output      logic              m_eop,
  output      logic              m_valid,
  input  wire logic              m_ready
);

  // the register stage itself: rtl/lib/skid_buf, beat, keep, sop and eop as one word
  skid_buf #(.W (DATA_W + KEEP_W + 2)) u_skid (
    .clk, .rst,
    .s_data ({s_data, s_keep, s_sop, s_eop}), .s_valid, .s_ready,
    .m_data ({m_data, m_keep, m_sop, m_eop}), .m_valid, .m_ready
  );

endmodule

`default_nettype wire
