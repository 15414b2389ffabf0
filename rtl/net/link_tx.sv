// SPDX-License-Identifier: Apache-2.0
//
// link_tx: sending half of a link port (docs/network.md).
//
// Takes the flits a router output sends to a link, computes the packet's
// CRC-32C over all its flits (one 128-bit flit per cycle, combinational fold)
// and registers flit and CRC onto the link; the CRC travels in a side band
// with the last flit (on a serial PHY: a 32-bit trailer word). Credits coming
// back over the link are handed, registered, to the router output, which owns
// the credit counters for the far receiver's buffers. Packets are never
// interleaved on a link (the router guarantees it), so one running CRC does.
// Retransmission (sequence numbers, replay buffer, ack/nack) is a later step.

`default_nettype none

module link_tx (
  // ---- clock and reset (synchronous, active high)
  input  wire logic                       clk,
  input  wire logic                       rst,
  // ---- from the router output port
  input  wire logic                       s_valid,
  input  wire logic [net_pkg::FLIT_W-1:0] s_data,
  input  wire logic                       s_last,
  input  wire logic                       s_vc,
  output logic [net_pkg::NVC-1:0]         m_credit,     // to the router's s_out_credit
  // ---- link (towards the far link_rx)
  output logic                            m_phy_valid,
  output logic [net_pkg::FLIT_W-1:0]      m_phy_data,
  output logic                            m_phy_last,
  output logic                            m_phy_vc,
  output logic [31:0]                     m_phy_crc,    // valid with m_phy_last
  input  wire logic [net_pkg::NVC-1:0]    s_phy_credit, // credit returns from the far side
  // ---- status
  output logic [31:0]                     m_pkt_cnt     // packets sent
);

  logic [31:0] crc_run, crc_next;
  // Folded only for valid flits (idle costs no CRC work in a Verilated model).
  always_comb begin
    crc_next = crc_run;
    if (s_valid) crc_next = net_pkg::crc32c_flit(crc_run, s_data);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      crc_run     <= net_pkg::CRC32C_INIT;
      m_phy_valid <= 1'b0;
      m_credit    <= '0;
      m_pkt_cnt   <= '0;
    end else begin
      m_phy_valid <= s_valid;
      m_credit    <= s_phy_credit;
      if (s_valid) begin
        crc_run <= s_last ? net_pkg::CRC32C_INIT : crc_next;
        if (s_last) m_pkt_cnt <= m_pkt_cnt + 1'b1;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (s_valid) begin
      m_phy_data <= s_data;
      m_phy_last <= s_last;
      m_phy_vc   <= s_vc;
      m_phy_crc  <= s_last ? ~crc_next : 32'd0;
    end
  end

endmodule

`default_nettype wire
