// SPDX-License-Identifier: Apache-2.0
//
// net_phy_cdc: the clock-domain crossings of a node's NL link ports, one
// link_phy_cdc each (docs/network.md "Link clocking"): between the core
// clock of net_node (its m_phy_* / s_phy_* ports) and each link's own PHY
// transmit clock and receive clock. Wiring only; net_node_lclk and the board
// tops (extoll_nic_usp) use it. The node's links must send an IDLE at least
// every LINK_IDLE_GAP symbols (net_node / nic_core LINK_IDLE_GAP) for the
// rate matching to hold: link_phy_cdc's header.

`default_nettype none

module net_phy_cdc #(
  // --------------------------------------------------------------------------
  // Parameters
  // --------------------------------------------------------------------------
  parameter int  NL          = net_pkg::NLINK,  // link ports
  parameter int  DEPTH_LOG2  = 4,               // entries per FIFO, log2
  parameter int  SYNC_STAGES = 2,               // flip-flops per synchroniser
  localparam int FW          = net_pkg::FLIT_W
) (
  // --------------------------------------------------------------------------
  // Core clock and reset
  // --------------------------------------------------------------------------
  input  wire logic                  core_clk,
  input  wire logic                  core_rst,
  // --------------------------------------------------------------------------
  // Core side: net_node's phy ports (core_clk)
  // --------------------------------------------------------------------------
  input  wire logic [NL-1:0][FW-1:0] s_core_data,   // net_node m_phy_*
  input  wire logic [NL-1:0][15:0]   s_core_frm,
  input  wire logic [NL-1:0][31:0]   s_core_crc,
  output      logic [NL-1:0][FW-1:0] m_core_data,   // net_node s_phy_*
  output      logic [NL-1:0][15:0]   m_core_frm,
  output      logic [NL-1:0][31:0]   m_core_crc,
  // --------------------------------------------------------------------------
  // PHY transmit sides: link l on tx_clk[l]
  // --------------------------------------------------------------------------
  input  wire logic [NL-1:0]         tx_clk,
  input  wire logic [NL-1:0]         tx_rst,
  output      logic [NL-1:0][FW-1:0] m_tx_data,
  output      logic [NL-1:0][15:0]   m_tx_frm,
  output      logic [NL-1:0][31:0]   m_tx_crc,
  // --------------------------------------------------------------------------
  // PHY receive sides: link l on rx_clk[l]
  // --------------------------------------------------------------------------
  input  wire logic [NL-1:0]         rx_clk,
  input  wire logic [NL-1:0]         rx_rst,
  input  wire logic [NL-1:0][FW-1:0] s_rx_data,
  input  wire logic [NL-1:0][15:0]   s_rx_frm,
  input  wire logic [NL-1:0][31:0]   s_rx_crc,
  // --------------------------------------------------------------------------
  // Status (core domain, sticky until core_rst)
  // --------------------------------------------------------------------------
  output      logic [NL-1:0]         m_tx_ovf,
  output      logic [NL-1:0]         m_rx_ovf
);

  for (genvar l = 0; l < NL; l++) begin : g_link
    link_phy_cdc #(.DEPTH_LOG2 (DEPTH_LOG2), .SYNC_STAGES (SYNC_STAGES)) u_cdc (
      .core_clk, .core_rst,
      .s_core_data (s_core_data[l]), .s_core_frm (s_core_frm[l]), .s_core_crc (s_core_crc[l]),
      .m_core_data (m_core_data[l]), .m_core_frm (m_core_frm[l]), .m_core_crc (m_core_crc[l]),
      .tx_clk (tx_clk[l]), .tx_rst (tx_rst[l]),
      .m_tx_data (m_tx_data[l]), .m_tx_frm (m_tx_frm[l]), .m_tx_crc (m_tx_crc[l]),
      .rx_clk (rx_clk[l]), .rx_rst (rx_rst[l]),
      .s_rx_data (s_rx_data[l]), .s_rx_frm (s_rx_frm[l]), .s_rx_crc (s_rx_crc[l]),
      .m_tx_ovf (m_tx_ovf[l]), .m_rx_ovf (m_rx_ovf[l])
    );
  end

endmodule

`default_nettype wire
