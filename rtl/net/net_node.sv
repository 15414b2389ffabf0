// SPDX-License-Identifier: Apache-2.0
//
// net_node: the network part of one NIC: the router with a reliable link
// port (link_tx + link_rx, docs/network.md "Link layer") on each of its 7 links. The NIC connects its units to
// the local ports and its register file to the table and configuration ports;
// a board wrapper (or the co-simulation harness) connects the phy ports.

`default_nettype none

module net_node #(
  parameter int          N_LOCAL       = 2,   // local unit ports
  parameter int          LINK_BUF_DEPTH  = 64, // flits per VC buffer of a link inport (and far link credits;
                                               // 4 VCs: 256 flits per link, the replay buffer's size; 64
                                               // covers the credit round trip of a 256-B packet stream)
  parameter int          LOCAL_BUF_DEPTH = 32, // flits per class buffer of a local inport
  parameter int          TBL_AW        = 6,   // routing table index bits
  parameter int          LOCAL_CREDITS = 32,  // unit receive buffer per class, flits
  parameter logic [63:0] EJECT_MAP     = 64'h0000_0001_1110_0000, // local port per type
  parameter int          DEAD_TIME     = 8192, // cycles out of UP after which packets into a link that was up are dropped
  // link_tx sends a keep-alive (an INIT word while training) once KEEPALIVE
  // (INIT_GAP) cycles have passed since its last control word, i.e. KEEPALIVE
  // + 1 (INIT_GAP + 1) cycles apart: 63 and 7 make an idle link's symbols
  // repeat every 64 (8) cycles, divisors of the NIC's prescaler periods (256,
  // 1024), so an idle NIC's state repeats every 1024 cycles (the
  // co-simulation skips such nodes: docs/cosim.md "Skipping idle nodes")
  parameter int          KEEPALIVE     = 63,
  parameter int          INIT_GAP      = 7,
  // at least one IDLE symbol in any LINK_IDLE_GAP consecutive cycles on every
  // link (link_tx IDLE_GAP): needed when the links cross into PHY clocks
  // (link_phy_cdc, net_node_lclk: 256); 0 = off (a single-clock harness)
  parameter int          LINK_IDLE_GAP = 0,
  localparam int         NL            = net_pkg::NLINK,
  localparam int         NVC           = net_pkg::NVC,   // link VCs {class, dateline VC}
  localparam int         NCLS          = net_pkg::NCLS,  // local ports: one VC per message class
  localparam int         VW            = net_pkg::VC_W,
  localparam int         FW            = net_pkg::FLIT_W
) (
  // ---- clock and reset (synchronous, active high)
  input  wire logic                          clk,
  input  wire logic                          rst,
  // ---- configuration and routing tables (NIC register file)
  input  wire logic [NL-1:0]                 cfg_dateline,
  input  wire logic                          s_tbl_we,
  input  wire logic [TBL_AW+3:0]             s_tbl_addr,
  input  wire logic [5:0]                    s_tbl_wdata,
  input  wire logic [TBL_AW+3:0]             s_tbl_raddr,
  output logic [5:0]                         m_tbl_rdata,
  // ---- links, outgoing (port order X+ X- Y+ Y- Z+ Z- spare)
  // one symbol per cycle and direction: data, framing word (net_lfrm_t), CRC
  output logic [NL-1:0][FW-1:0]              m_phy_data,
  output logic [NL-1:0][15:0]                m_phy_frm,
  output logic [NL-1:0][31:0]                m_phy_crc,
  // ---- links, incoming
  input  wire logic [NL-1:0][FW-1:0]         s_phy_data,
  input  wire logic [NL-1:0][15:0]           s_phy_frm,
  input  wire logic [NL-1:0][31:0]           s_phy_crc,
  // ---- local unit ports, into the network (unit holds LOCAL_BUF_DEPTH credits per class);
  // the VC of a local port is the packet's message class (net_pkg::net_class)
  input  wire logic [N_LOCAL-1:0]            s_loc_valid,
  input  wire logic [N_LOCAL-1:0][FW-1:0]    s_loc_data,
  input  wire logic [N_LOCAL-1:0]            s_loc_last,
  input  wire logic [N_LOCAL-1:0]            s_loc_vc,
  output logic [N_LOCAL-1:0][NCLS-1:0]       m_loc_credit,
  // ---- local unit ports, out of the network (unit returns credits per class)
  output logic [N_LOCAL-1:0]                 m_loc_valid,
  output logic [N_LOCAL-1:0][FW-1:0]         m_loc_data,
  output logic [N_LOCAL-1:0]                 m_loc_last,
  output logic [N_LOCAL-1:0]                 m_loc_vc,
  input  wire logic [N_LOCAL-1:0][NCLS-1:0]  s_loc_credit,
  // ---- status
  output logic [NL-1:0][31:0]                m_crc_err_cnt, // bad symbols per incoming link (while up)
  output logic [NL-1:0][31:0]                m_rx_pkt_cnt,  // packets accepted per incoming link
  output logic [NL-1:0][31:0]                m_tx_pkt_cnt,  // packets per outgoing link (first transmissions)
  output logic [NL-1:0][31:0]                m_replay_cnt,  // replays per outgoing link
  output logic [NL-1:0][31:0]                m_nak_tx_cnt,  // NAKs sent per link
  output logic [NL-1:0][31:0]                m_nak_rx_cnt,  // NAKs received per link
  output logic [NL-1:0][31:0]                m_down_cnt,    // link-down events (UP -> RETRAIN) per link
  output logic [NL-1:0][1:0]                 m_link_state,  // net_lstate_e per link
  output logic [31:0]                        m_noroute_cnt, // packets dropped: no route, dead link, partner reset
  output logic [31:0]                        m_malformed_cnt, // malformed packets discarded, all links
  output logic                               m_ovf
);
  localparam int NP = NL + N_LOCAL;

  logic [NP-1:0]          in_valid, in_last, in_drop;
  logic [NP-1:0][VW-1:0]  in_vc, out_vc;
  logic [NP-1:0][FW-1:0]  in_data;
  logic [NP-1:0][NVC-1:0] in_credit, out_credit;
  logic [NP-1:0]          out_valid, out_last;
  logic [NP-1:0][FW-1:0]  out_data;
  logic [NL-1:0]          dead;
  logic [NL-1:0][31:0]    malformed_cnt;
  logic [NL-1:0][31:0]    flush_cnt;
  logic [31:0]            noroute_cnt;

  router #(
    .N_LOCAL(N_LOCAL), .LINK_BUF_DEPTH(LINK_BUF_DEPTH), .LOCAL_BUF_DEPTH(LOCAL_BUF_DEPTH), .TBL_AW(TBL_AW),
    .LINK_CREDITS(LINK_BUF_DEPTH), .LOCAL_CREDITS(LOCAL_CREDITS), .EJECT_MAP(EJECT_MAP)
  ) u_router (
    .clk, .rst, .cfg_dateline, .s_dead(dead),
    .s_tbl_we, .s_tbl_addr, .s_tbl_wdata, .s_tbl_raddr, .m_tbl_rdata,
    .s_in_valid(in_valid), .s_in_data(in_data), .s_in_last(in_last), .s_in_vc(in_vc),
    .s_in_drop(in_drop), .m_in_credit(in_credit),
    .m_out_valid(out_valid), .m_out_data(out_data), .m_out_last(out_last), .m_out_vc(out_vc),
    .s_out_credit(out_credit),
    .m_noroute_cnt(noroute_cnt), .m_ovf
  );

  // Malformed packets of every link, one counter for the register file;
  // packets a link dropped at a partner reset count with the router's drops
  // (no route, dead link).
  always_comb begin
    m_malformed_cnt = '0;
    m_noroute_cnt   = noroute_cnt;
    for (int l = 0; l < NL; l++) begin
      m_malformed_cnt = m_malformed_cnt + malformed_cnt[l];
      m_noroute_cnt   = m_noroute_cnt + flush_cnt[l];
    end
  end

  for (genvar l = 0; l < NL; l++) begin : g_link
    // between the two halves of the port: link state, what the local receiver
    // reports to the far side, and the far side's control words
    logic                 up, peer, ack_force, nak, ctl_valid, fresh, fack, reinit;
    logic [7:0]           ack;
    logic [NVC-1:0][15:0] cred;
    logic [FW-1:0]        ctl;
    link_tx #(.LINK_CREDITS(LINK_BUF_DEPTH), .RPL_DEPTH(NVC * LINK_BUF_DEPTH), .KEEPALIVE(KEEPALIVE),
              .INIT_GAP(INIT_GAP), .IDLE_GAP(LINK_IDLE_GAP)) u_tx (
      .clk, .rst,
      .s_valid(out_valid[l]), .s_data(out_data[l]), .s_last(out_last[l]), .s_vc(out_vc[l]),
      .m_credit(out_credit[l]),
      .m_phy_data(m_phy_data[l]), .m_phy_frm(m_phy_frm[l]), .m_phy_crc(m_phy_crc[l]),
      .s_up(up), .s_peer(peer), .s_rx_ack(ack), .s_rx_ack_force(ack_force), .s_rx_nak(nak),
      .s_rx_cred(cred), .s_ctl_valid(ctl_valid), .s_ctl(ctl),
      .s_fresh(fresh), .s_fack(fack), .s_reinit(reinit),
      .m_pkt_cnt(m_tx_pkt_cnt[l]), .m_replay_cnt(m_replay_cnt[l]),
      .m_nak_tx_cnt(m_nak_tx_cnt[l]), .m_nak_rx_cnt(m_nak_rx_cnt[l]), .m_flush_cnt(flush_cnt[l])
    );
    link_rx #(.CREDITS(LINK_BUF_DEPTH), .DEAD_TIME(DEAD_TIME)) u_rx (
      .clk, .rst,
      .s_phy_data(s_phy_data[l]), .s_phy_frm(s_phy_frm[l]), .s_phy_crc(s_phy_crc[l]),
      .m_valid(in_valid[l]), .m_data(in_data[l]), .m_last(in_last[l]), .m_vc(in_vc[l]),
      .m_drop(in_drop[l]), .s_credit(in_credit[l]),
      .m_up(up), .m_peer(peer), .m_ack(ack), .m_ack_force(ack_force), .m_nak(nak),
      .m_cred(cred), .m_ctl_valid(ctl_valid), .m_ctl(ctl),
      .m_fresh(fresh), .m_fack(fack), .m_reinit(reinit),
      .m_state(m_link_state[l]), .m_pkt_cnt(m_rx_pkt_cnt[l]), .m_crc_err_cnt(m_crc_err_cnt[l]),
      .m_down_cnt(m_down_cnt[l]), .m_malformed_cnt(malformed_cnt[l]), .m_dead(dead[l])
    );
  end

  for (genvar u = 0; u < N_LOCAL; u++) begin : g_loc
    assign in_valid[NL+u]   = s_loc_valid[u];
    assign in_data[NL+u]    = s_loc_data[u];
    assign in_last[NL+u]    = s_loc_last[u];
    // class c of a unit port <-> router VC {c, dateline VC 0}
    assign in_vc[NL+u]      = {s_loc_vc[u], 1'b0};
    assign in_drop[NL+u]    = 1'b0;
    assign m_loc_valid[u]   = out_valid[NL+u];
    assign m_loc_data[u]    = out_data[NL+u];
    assign m_loc_last[u]    = out_last[NL+u];
    assign m_loc_vc[u]      = out_vc[NL+u][VW-1];
    for (genvar c = 0; c < NCLS; c++) begin : g_cls
      assign m_loc_credit[u][c]           = in_credit[NL+u][c * 2];
      assign out_credit[NL+u][c * 2]      = s_loc_credit[u][c];
      assign out_credit[NL+u][c * 2 + 1]  = 1'b0;
    end
  end

endmodule

`default_nettype wire
