// SPDX-License-Identifier: Apache-2.0
//
// link_rx: receiving half of a link port (docs/network.md).
//
// Folds the CRC-32C over the flits of each arriving packet and compares it with
// the CRC that arrives with the last flit. Flits pass straight (combinationally)
// into the router's input buffer, which is store-and-forward on link ports: a
// mismatch raises m_drop with the last flit, the buffer discards the packet and
// returns its credits, and m_crc_err_cnt counts it. A corrupted packet is thus
// never delivered and never leaks buffer space. Credits freed by the router's
// buffer go back over the link registered.

`default_nettype none

module link_rx (
  // ---- clock and reset (synchronous, active high)
  input  wire logic                       clk,
  input  wire logic                       rst,
  // ---- link (from the far link_tx)
  input  wire logic                       s_phy_valid,
  input  wire logic [net_pkg::FLIT_W-1:0] s_phy_data,
  input  wire logic                       s_phy_last,
  input  wire logic                       s_phy_vc,
  input  wire logic [31:0]                s_phy_crc,    // valid with s_phy_last
  output logic [net_pkg::NVC-1:0]         m_phy_credit, // credit returns to the far side
  // ---- to the router input port
  output logic                            m_valid,
  output logic [net_pkg::FLIT_W-1:0]      m_data,
  output logic                            m_last,
  output logic                            m_vc,
  output logic                            m_drop,       // with m_valid && m_last: CRC error
  input  wire logic [net_pkg::NVC-1:0]    s_credit,     // from the router's m_in_credit
  // ---- status
  output logic [31:0]                     m_pkt_cnt,    // good packets received
  output logic [31:0]                     m_crc_err_cnt // packets dropped for CRC errors
);

  logic [31:0] crc_run;
  logic        bad;

  // The CRC is folded only for valid flits (an idle link costs no CRC work in a
  // Verilated model); bad is meaningful only with s_phy_valid && s_phy_last.
  always_comb begin
    bad = 1'b0;
    if (s_phy_valid && s_phy_last) bad = ~net_pkg::crc32c_flit(crc_run, s_phy_data) != s_phy_crc;
  end

  assign m_valid = s_phy_valid;
  assign m_data  = s_phy_data;
  assign m_last  = s_phy_last;
  assign m_vc    = s_phy_vc;
  assign m_drop  = bad;

  always_ff @(posedge clk) begin
    if (rst) begin
      crc_run       <= net_pkg::CRC32C_INIT;
      m_phy_credit  <= '0;
      m_pkt_cnt     <= '0;
      m_crc_err_cnt <= '0;
    end else begin
      m_phy_credit <= s_credit;
      if (s_phy_valid) begin
        if (s_phy_last) crc_run <= net_pkg::CRC32C_INIT;
        else            crc_run <= net_pkg::crc32c_flit(crc_run, s_phy_data);
        if (s_phy_last && bad)  m_crc_err_cnt <= m_crc_err_cnt + 1'b1;
        if (s_phy_last && !bad) m_pkt_cnt     <= m_pkt_cnt + 1'b1;
      end
    end
  end

endmodule

`default_nettype wire
