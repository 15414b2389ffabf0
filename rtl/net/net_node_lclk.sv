// SPDX-License-Identifier: Apache-2.0
//
// net_node_lclk: net_node with a clock per link side (docs/network.md "Link
// clocking"). The router and the link ports (link_tx, link_rx) run on the
// core clock clk; each link's PHY side runs on its own transmit clock
// (phy_tx_clk[l]: m_phy_* of link l) and receive clock (phy_rx_clk[l]:
// s_phy_* of link l, the far transmitter's clock as a transceiver recovers
// it), all unrelated. net_phy_cdc crosses between them with asynchronous
// FIFOs that delete and insert IDLE symbols only; net_node's link_tx leaves an
// IDLE at least every LINK_IDLE_GAP symbols so that the far core, running a
// few hundred ppm faster, never outruns this one (link_phy_cdc's header:
// the rates it needs). Everything but the phy ports is synchronous to clk and
// the same as net_node's (docs/network.md "Module ports").

`default_nettype none

module net_node_lclk #(
  // --------------------------------------------------------------------------
  // Parameters (net_node's; LINK_IDLE_GAP on by default; the crossing's)
  // --------------------------------------------------------------------------
  parameter int          N_LOCAL         = 2,
  parameter int          LINK_BUF_DEPTH  = 64,
  parameter int          LOCAL_BUF_DEPTH = 32,
  parameter int          TBL_AW          = 6,
  parameter int          LOCAL_CREDITS   = 32,
  parameter logic [63:0] EJECT_MAP       = 64'h0000_0001_1110_0000,
  parameter int          DEAD_TIME       = 8192,
  parameter int          KEEPALIVE       = 63,
  parameter int          INIT_GAP        = 7,
  parameter int          LINK_IDLE_GAP   = 256,  // an IDLE at least every 256 symbols: core clocks may
                                                 // differ by up to 1/256 (3900 ppm)
  parameter int          CDC_DEPTH_LOG2  = 4,    // link_phy_cdc FIFO entries, log2
  localparam int         NL              = net_pkg::NLINK,
  localparam int         NCLS            = net_pkg::NCLS,
  localparam int         FW              = net_pkg::FLIT_W
) (
  // --------------------------------------------------------------------------
  // Core clock and reset (synchronous, active high)
  // --------------------------------------------------------------------------
  input  wire logic                          clk,
  input  wire logic                          rst,
  // --------------------------------------------------------------------------
  // Configuration and routing tables
  // --------------------------------------------------------------------------
  input  wire logic [NL-1:0]                 cfg_dateline,
  input  wire logic                          s_tbl_we,
  input  wire logic [TBL_AW+3:0]             s_tbl_addr,
  input  wire logic [5:0]                    s_tbl_wdata,
  input  wire logic [TBL_AW+3:0]             s_tbl_raddr,
  output      logic [5:0]                    m_tbl_rdata,
  // --------------------------------------------------------------------------
  // Link PHY clocks and resets (per link; resets synchronous to their clock)
  // --------------------------------------------------------------------------
  input  wire logic [NL-1:0]                 phy_tx_clk,
  input  wire logic [NL-1:0]                 phy_tx_rst,
  input  wire logic [NL-1:0]                 phy_rx_clk,
  input  wire logic [NL-1:0]                 phy_rx_rst,
  // --------------------------------------------------------------------------
  // Links, outgoing (link l on phy_tx_clk[l]) and incoming (on phy_rx_clk[l])
  // --------------------------------------------------------------------------
  output      logic [NL-1:0][FW-1:0]         m_phy_data,
  output      logic [NL-1:0][15:0]           m_phy_frm,
  output      logic [NL-1:0][31:0]           m_phy_crc,
  input  wire logic [NL-1:0][FW-1:0]         s_phy_data,
  input  wire logic [NL-1:0][15:0]           s_phy_frm,
  input  wire logic [NL-1:0][31:0]           s_phy_crc,
  // --------------------------------------------------------------------------
  // Local unit ports
  // --------------------------------------------------------------------------
  input  wire logic [N_LOCAL-1:0]            s_loc_valid,
  input  wire logic [N_LOCAL-1:0][FW-1:0]    s_loc_data,
  input  wire logic [N_LOCAL-1:0]            s_loc_last,
  input  wire logic [N_LOCAL-1:0]            s_loc_vc,
  output      logic [N_LOCAL-1:0][NCLS-1:0]  m_loc_credit,
  output      logic [N_LOCAL-1:0]            m_loc_valid,
  output      logic [N_LOCAL-1:0][FW-1:0]    m_loc_data,
  output      logic [N_LOCAL-1:0]            m_loc_last,
  output      logic [N_LOCAL-1:0]            m_loc_vc,
  input  wire logic [N_LOCAL-1:0][NCLS-1:0]  s_loc_credit,
  // --------------------------------------------------------------------------
  // Status (net_node's, and the crossings' sticky overflow flags)
  // --------------------------------------------------------------------------
  output      logic [NL-1:0][31:0]           m_crc_err_cnt,
  output      logic [NL-1:0][31:0]           m_rx_pkt_cnt,
  output      logic [NL-1:0][31:0]           m_tx_pkt_cnt,
  output      logic [NL-1:0][31:0]           m_replay_cnt,
  output      logic [NL-1:0][31:0]           m_nak_tx_cnt,
  output      logic [NL-1:0][31:0]           m_nak_rx_cnt,
  output      logic [NL-1:0][31:0]           m_down_cnt,
  output      logic [NL-1:0][1:0]            m_link_state,
  output      logic [31:0]                   m_noroute_cnt,
  output      logic [31:0]                   m_malformed_cnt,
  output      logic                          m_ovf,
  output      logic [NL-1:0]                 m_cdc_tx_ovf,  // link_phy_cdc: transmit FIFO overflowed
  output      logic [NL-1:0]                 m_cdc_rx_ovf   // link_phy_cdc: receive FIFO overflowed
);

  logic [NL-1:0][FW-1:0] core_tx_data, core_rx_data;
  logic [NL-1:0][15:0]   core_tx_frm, core_rx_frm;
  logic [NL-1:0][31:0]   core_tx_crc, core_rx_crc;

  net_node #(
    .N_LOCAL (N_LOCAL), .LINK_BUF_DEPTH (LINK_BUF_DEPTH), .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
    .TBL_AW (TBL_AW), .LOCAL_CREDITS (LOCAL_CREDITS), .EJECT_MAP (EJECT_MAP), .DEAD_TIME (DEAD_TIME),
    .KEEPALIVE (KEEPALIVE), .INIT_GAP (INIT_GAP), .LINK_IDLE_GAP (LINK_IDLE_GAP)
  ) u_node (
    .clk, .rst, .cfg_dateline,
    .s_tbl_we, .s_tbl_addr, .s_tbl_wdata, .s_tbl_raddr, .m_tbl_rdata,
    .m_phy_data (core_tx_data), .m_phy_frm (core_tx_frm), .m_phy_crc (core_tx_crc),
    .s_phy_data (core_rx_data), .s_phy_frm (core_rx_frm), .s_phy_crc (core_rx_crc),
    .s_loc_valid, .s_loc_data, .s_loc_last, .s_loc_vc, .m_loc_credit,
    .m_loc_valid, .m_loc_data, .m_loc_last, .m_loc_vc, .s_loc_credit,
    .m_crc_err_cnt, .m_rx_pkt_cnt, .m_tx_pkt_cnt, .m_replay_cnt, .m_nak_tx_cnt, .m_nak_rx_cnt,
    .m_down_cnt, .m_link_state, .m_noroute_cnt, .m_malformed_cnt, .m_ovf
  );

  net_phy_cdc #(.NL (NL), .DEPTH_LOG2 (CDC_DEPTH_LOG2)) u_cdc (
    .core_clk (clk), .core_rst (rst),
    .s_core_data (core_tx_data), .s_core_frm (core_tx_frm), .s_core_crc (core_tx_crc),
    .m_core_data (core_rx_data), .m_core_frm (core_rx_frm), .m_core_crc (core_rx_crc),
    .tx_clk (phy_tx_clk), .tx_rst (phy_tx_rst),
    .m_tx_data (m_phy_data), .m_tx_frm (m_phy_frm), .m_tx_crc (m_phy_crc),
    .rx_clk (phy_rx_clk), .rx_rst (phy_rx_rst),
    .s_rx_data (s_phy_data), .s_rx_frm (s_phy_frm), .s_rx_crc (s_phy_crc),
    .m_tx_ovf (m_cdc_tx_ovf), .m_rx_ovf (m_cdc_rx_ovf)
  );

endmodule

`default_nettype wire
