// SPDX-License-Identifier: Apache-2.0
//
// nic_core: what both roles of the NIC share (docs/nic.md), wiring only:
// the register file and its cpuif arbiter, the PCIe backdoor, the network
// (net_node: router + 7 link ports) with the RRA / backdoor unit on local
// port 0, the hardware side of the registers (nic_reg_hw), the node's holder
// (nic_own), its check on the SMFU requests (nic_smfu_gate) and the register
// field hookups (nic_reg_map). The role's side module
// (nic_ep_side or nic_rp_side, chosen by extoll_nic) connects to it with
// one port list:
//
//   side --BAR0 cpuif--> nic_cpuif_arb (0 BAR0 bridge | 1 RRA responder) -> extoll_regs
//                        (m_src: the node each access comes from -> nic_own claims)
//   side <--bd_tx-- pcie_backdoor --bd_rx--> (RX filter on completions from below)
//   side <--rec_tlp-- completion-record MWr (nic_rra_unit / nic_host_wr)
//   side <--l1_out/l1_in--> router local port 1 (the role's SMFU)
//   side --pcie state, events, smfu status--> register file;
//        <--smfu / notify configuration, irq_pending-- register file
//
//   net_node local port 0 <--> nic_rra_unit (RRA requester / responder,
//                              TLP_RAW inject -> backdoor, backdoor forward -> TLP_RAW)
//   rma_port: local inport 0 <-- rma_unit (SMFU_RD / SMFU_WR pass-through: reads on VC 0
//             from a reserve, the rest on VC 1; the RRA unit's VC 0 packets first);
//             local outport 1 --> SMFU_CPL with tag bit 7 to rma_unit, the rest to the side
//
// Two reset domains (docs/network.md "Reset domains"): rst resets the node,
// fn_rst (a PCIe hot reset, a host reboot) only the function: everything here
// but net_node (router, routing tables, link layer), the node id / dateline in
// use (nic_reg_hw) and nic_net_fence between net_node's local ports and the
// units (rma_port, nic_rra_unit, the side's SMFU), which holds the function's
// reset m_fn_rst until the boundary is clean.
//
// Synchronous to clk, reset rst / m_fn_rst (sync, high).

`default_nettype none
`include "cpuif_port.svh"
`include "net_local_port.svh"
`include "tlp_stream.svh"
`include "backdoor_port.svh"
`include "nic_ports.svh"

// Package items are referenced by qualified name (extoll_regs_pkg::..., net_pkg::...):
// Yosys does not read package imports inside modules.

module nic_core #(
  parameter int          ROLE            = 0,        // 0 endpoint, 1 root port
  parameter logic [15:0] NODE_ID         = 16'd0,    // ORed with the cfg_node_id strap
  parameter int          TBL_AW          = 6,        // routing table index bits
  parameter int          LINK_BUF_DEPTH  = 64,       // flits per VC of a link inport buffer (4 VCs; 64: a 256-B stream is not credit bound)
  parameter int          LOCAL_BUF_DEPTH = 32,       // flits per VC of a local inport buffer
  parameter int          LOCAL_CREDITS   = 32,       // credits per VC of a local outport
  parameter int          LINK_IDLE_GAP   = 0,        // net_node: an IDLE at least every that many link symbols
                                                     // (links through link_phy_cdc: 256; 0 = off)
  parameter int          NIVL            = 16,       // SMFU intervals (the register file has 16)
  parameter logic [15:0] RTL_MAJOR       = 16'd0,
  parameter logic [15:0] RTL_MINOR       = 16'd1,
  parameter logic [15:0] RTL_PATCH       = 16'd0,
  parameter logic [31:0] BUILD_DATE      = 32'h0000_0000,
  parameter logic [31:0] BUILD_COMMIT    = 32'h0000_0000,
  parameter int          REG_ADDR_W      = extoll_regs_pkg::EXTOLL_REGS_MIN_ADDR_WIDTH,
  parameter int          REG_MAP_BYTES   = extoll_regs_pkg::EXTOLL_REGS_SIZE  // beyond: RRA status 1
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // the node's reset (network and function), sync, high
  input  wire logic                  fn_rst,         // the function's reset request (PCIe hot reset), sync, high
  output      logic                  m_fn_rst,       // the function's reset (nic_net_fence): for the side too

  // ---------------- straps ----------------
  input  wire logic [15:0]           cfg_node_id,
  input  wire logic [6:0]            cfg_dateline,
  output      logic [15:0]           node_id,        // in use (nic_reg_hw: router.node or straps)

  // ---------------- network links (extoll_nic ports) ----------------
  `NET_PHY_PORTS(7),
  output      logic                  net_ovf,

  // ---------------- configuration flash and boot identity (nic_ports.svh: NIC_FLASH_PORTS) ----------------
  `NIC_FLASH_PORTS(output, input wire),

  // ---------------- BAR0 cpuif (master 0 of the arbiter) ----------------
  `CPUIF_S_PORTS(bar, REG_ADDR_W),

  // ---------------- backdoor TX (raw TLPs toward the PCIe side) ----------------
  `TLP_M_PORTS(bd_tx),

  // ---------------- backdoor RX (completions from the PCIe side) ----------------
  `TLP_S_PORTS(bd_rx),
  output      logic                  bd_pass_valid,  // completion the filter did not extract
  output      logic                  bd_pass_sop,    // (sunk here; counted by the root port)

  // ---------------- completion-record MWr toward the host ----------------
  `TLP_M_PORTS(rec_tlp),

  // ---------------- PCIe state and events (pcie.*; nic_ports.svh) ----------------
  `NIC_PCIE_STATE_PORTS(input wire, output),
  input  wire logic                  intx,
  output      logic                  irq_pending,    // any enabled interrupt cause

  // ---------------- SMFU / notify configuration and status (nic_ports.svh) ----------------
  `NIC_SMFU_CFG_PORTS(output),
  `NIC_SMFU_ST_PORTS(input wire),

  // ---------------- router local port 1 (the role's SMFU) ----------------
  `NET_ROUTER_PORTS(l1_out, l1_in)  // router -> SMFU: l1_out; SMFU -> router: l1_in
);

  localparam int NL      = net_pkg::NLINK;
  localparam int N_LOCAL = 2;                        // 0 RRA/backdoor, 1 SMFU/INTR

  // ------------------------------------------------------------------
  // Register file and its cpuif arbiter (0 BAR0 bridge, 1 RRA responder)
  // ------------------------------------------------------------------
  logic                  rr_req, rr_req_is_wr, rr_stall, rr_rd_ack, rr_rd_err, rr_wr_ack, rr_wr_err;
  logic [REG_ADDR_W-1:0] rr_addr;
  logic [63:0]           rr_wr_data, rr_wr_biten, rr_rd_data;
  logic [15:0]           rr_src, cpuif_src;   // node an RRA access / the presented access comes from
  `REGBLK_WIRES(cpuif, REG_ADDR_W);

  nic_cpuif_arb #(.ADDR_W(REG_ADDR_W)) u_arb (
    .clk, .rst (m_fn_rst),
    `CPUIF_CONNECT(s0, bar),
    `CPUIF_CONNECT(s1, rr),
    .s0_src (node_id),
    .s1_src (rr_src),
    `REGBLK_CONNECT(m, cpuif),
    .m_src  (cpuif_src)
  );

  extoll_regs_pkg::extoll_nic__in_t  hwif_in;
  // Not every register is used here: blocks whose units are not part of
  // this top yet only store what software writes.
  /* verilator lint_off UNUSEDSIGNAL */
  extoll_regs_pkg::extoll_nic__out_t hwif_out;
  /* verilator lint_on UNUSEDSIGNAL */

  extoll_regs u_regs (
    .clk, .rst (m_fn_rst),
    `REGBLK_CONNECT(s_cpuif, cpuif),
    .hwif_in,
    .hwif_out
  );

  // ------------------------------------------------------------------
  // Backdoor (both roles): TX toward the PCIe side, RX filter on the
  // completions that come up from it (root port role)
  // ------------------------------------------------------------------
  `BD_INJ_WIRES(inj);
  `BD_FWD_WIRES(fwd);

  logic         bd_rx_valid_st;
  logic [1:0]   bd_rx_data_dw;
  logic [15:0]  bd_rx_dropped;
  logic [63:0]  bd_rx_hdr0, bd_rx_hdr1, bd_rx_dat;
  logic [127:0] bd_pass_data;
  logic [3:0]   bd_pass_keep;
  logic         bd_pass_eop;
  logic         bd_ev_tx, bd_ev_tx_busy, bd_ev_rx_extract, bd_ev_rx_drop, bd_tx_busy;

  pcie_backdoor u_backdoor (
    .clk, .rst (m_fn_rst),
    .tx_hdr0            (hwif_out.backdoor.tx_hdr0.data.value),
    .tx_hdr1            (hwif_out.backdoor.tx_hdr1.data.value),
    .tx_data            (hwif_out.backdoor.tx_data.data.value),
    .tx_hdr_dw          (hwif_out.backdoor.tx_ctrl.hdr_dw.value),
    .tx_data_dw         (hwif_out.backdoor.tx_ctrl.data_dw.value),
    .tx_send            (hwif_out.backdoor.tx_ctrl.send.value),
    .tx_busy            (bd_tx_busy),
    `BD_INJ_CONNECT(s_inj, inj),
    `TLP_CONNECT(m_tx, bd_tx),
    .rx_filter_tag      (hwif_out.backdoor.rx_filter.tag.value),
    .rx_filter_enable   (hwif_out.backdoor.rx_filter.enable.value),
    .rx_filter_fwd      (hwif_out.backdoor.rx_filter.fwd.value),
    .rx_filter_fwd_node (hwif_out.backdoor.rx_filter.fwd_node.value),
    .rx_fwd_addr        (hwif_out.backdoor.rx_fwd_addr.addr.value),
    `TLP_CONNECT(s_rx, bd_rx),
    .m_rx_data          (bd_pass_data),
    .m_rx_keep          (bd_pass_keep),
    .m_rx_sop           (bd_pass_sop),
    .m_rx_eop           (bd_pass_eop),
    .m_rx_valid         (bd_pass_valid),
    .m_rx_ready         (1'b1),              // SMFU completions: not implemented yet, sunk
    .rx_valid           (bd_rx_valid_st),
    .rx_data_dw         (bd_rx_data_dw),
    .rx_dropped         (bd_rx_dropped),
    .rx_hdr0            (bd_rx_hdr0),
    .rx_hdr1            (bd_rx_hdr1),
    .rx_data            (bd_rx_dat),
    .rx_pop             (hwif_out.backdoor.rx_pop.pop.value),
    `BD_FWD_CONNECT(m_fwd, fwd),
    .ev_tx              (bd_ev_tx),
    .ev_tx_busy         (bd_ev_tx_busy),
    .ev_rx_extract      (bd_ev_rx_extract),
    .ev_rx_drop         (bd_ev_rx_drop)
  );

  // ------------------------------------------------------------------
  // Network: net_node, local port 0 = RRA / backdoor unit, 1 = SMFU/INTR
  // ------------------------------------------------------------------
  logic [N_LOCAL-1:0]        loc_in_valid, loc_in_last, loc_in_vc;
  logic [N_LOCAL-1:0][127:0] loc_in_data;
  logic [N_LOCAL-1:0][1:0]   loc_in_credit;
  logic [N_LOCAL-1:0]        loc_out_valid, loc_out_last, loc_out_vc;
  logic [N_LOCAL-1:0][127:0] loc_out_data;
  logic [N_LOCAL-1:0][1:0]   loc_out_credit;

  // the same at net_node's ports, the network side of nic_net_fence
  logic [N_LOCAL-1:0]        nl_in_valid, nl_in_last, nl_in_vc;
  logic [N_LOCAL-1:0][127:0] nl_in_data;
  logic [N_LOCAL-1:0][1:0]   nl_in_credit;
  logic [N_LOCAL-1:0]        nl_out_valid, nl_out_last, nl_out_vc;
  logic [N_LOCAL-1:0][127:0] nl_out_data;
  logic [N_LOCAL-1:0][1:0]   nl_out_credit;
  logic [31:0]               fence_drop_cnt, fence_cut_cnt;
  logic                      fence_clean;

  logic                      tbl_we;
  logic [TBL_AW+3:0]         tbl_addr;
  logic [5:0]                tbl_wdata, tbl_rdata;
  logic [NL-1:0][31:0]       crc_err_cnt, rx_pkt_cnt, tx_pkt_cnt;
  logic [NL-1:0][31:0]       replay_cnt, nak_tx_cnt, nak_rx_cnt, down_cnt;
  logic [NL-1:0][1:0]        link_state;
  logic [31:0]               noroute_cnt, malformed_cnt;
  logic                      node_ovf, rx_ovf;
  logic [6:0]                dateline;

  net_node #(
    .N_LOCAL         (N_LOCAL),
    .LINK_BUF_DEPTH  (LINK_BUF_DEPTH),
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
    .TBL_AW          (TBL_AW),
    .LOCAL_CREDITS   (LOCAL_CREDITS),
    .LINK_IDLE_GAP   (LINK_IDLE_GAP)
  ) u_net (
    .clk, .rst,
    .cfg_dateline  (dateline),
    .s_tbl_we      (tbl_we),
    .s_tbl_addr    (tbl_addr),
    .s_tbl_wdata   (tbl_wdata),
    .s_tbl_raddr   (tbl_addr),
    .m_tbl_rdata   (tbl_rdata),
    .m_phy_data, .m_phy_frm, .m_phy_crc,
    .s_phy_data, .s_phy_frm, .s_phy_crc,
    `NET_LOCAL_CONNECT(s_loc, m_loc, nl_in, nl_out),
    .m_crc_err_cnt (crc_err_cnt),
    .m_rx_pkt_cnt  (rx_pkt_cnt),
    .m_tx_pkt_cnt  (tx_pkt_cnt),
    .m_replay_cnt  (replay_cnt),
    .m_nak_tx_cnt  (nak_tx_cnt),
    .m_nak_rx_cnt  (nak_rx_cnt),
    .m_down_cnt    (down_cnt),
    .m_link_state  (link_state),
    .m_noroute_cnt (noroute_cnt),
    .m_malformed_cnt (malformed_cnt),
    .m_ovf         (node_ovf)
  );

  // ---- the boundary between the network's reset domain and the function's:
  // while the function is in reset (m_fn_rst) the fence drops what the router
  // sends to the units, returns its credits and ends packets the units had
  // begun; the function leaves reset once nothing is left in between
  nic_net_fence #(
    .N_LOCAL         (N_LOCAL),
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
    .LOCAL_CREDITS   (LOCAL_CREDITS)
  ) u_fence (
    .clk, .rst, .fn_rst, .m_fn_rst,
    .m_net_valid  (nl_in_valid),
    .m_net_data   (nl_in_data),
    .m_net_last   (nl_in_last),
    .m_net_vc     (nl_in_vc),
    .s_net_credit (nl_in_credit),
    .s_net_valid  (nl_out_valid),
    .s_net_data   (nl_out_data),
    .s_net_last   (nl_out_last),
    .s_net_vc     (nl_out_vc),
    .m_net_credit (nl_out_credit),
    .s_fn_valid   (loc_in_valid),
    .s_fn_data    (loc_in_data),
    .s_fn_last    (loc_in_last),
    .s_fn_vc      (loc_in_vc),
    .m_fn_credit  (loc_in_credit),
    .m_fn_valid   (loc_out_valid),
    .m_fn_data    (loc_out_data),
    .m_fn_last    (loc_out_last),
    .m_fn_vc      (loc_out_vc),
    .s_fn_credit  (loc_out_credit),
    .m_drop_cnt   (fence_drop_cnt),
    .m_cut_cnt    (fence_cut_cnt),
    .m_clean      (fence_clean)
  );

  // ---- local port 1 (SMFU / INTR): the side's smfu_host / smfu_naa; the
  // outport passes rma_port, which takes the RMA unit's completions out
  assign loc_in_valid[1]   = l1_in_valid;
  assign loc_in_data[1]    = l1_in_data;
  assign loc_in_last[1]    = l1_in_last;
  assign loc_in_vc[1]      = l1_in_vc;
  assign l1_in_credit      = loc_in_credit[1];

  // ---- the RMA unit (docs/rma.md): transmits on local inport 0 beside the RRA
  // unit, each packet on its message class (reads on class 0 from a reserve of
  // RMA_CREDITS0, writes and records on class 1 from RMA_CREDITS1), receives its
  // SMFU_CPL (tag bit 7) from local outport 1 (the RRA unit needs 3 of each
  // class for its longest packet: a small synthesis buffer keeps them)
  localparam int RMA_CREDITS0 = (LOCAL_BUF_DEPTH >= 8) ? 4 : 1;
  localparam int RMA_CREDITS1 = (LOCAL_BUF_DEPTH >= 32) ? LOCAL_BUF_DEPTH - 8 : LOCAL_BUF_DEPTH - 3;
  logic [1:0]   ra_hold;                        // rma_port: an RMA packet is open on the class
  logic         ra_valid, ra_last, ra_vc;       // the RRA unit's packets
  logic [127:0] ra_data;
  logic [1:0]   ra_credit;
  logic         rt_valid, rt_last, rt_vc, rt_ready;  // the RMA unit's packets
  logic [127:0] rt_data;
  logic         rc_valid, rc_last;              // its completions
  logic [127:0] rc_data;

  logic         sm_valid, sm_last, sm_vc;      // the SMFU's packets (-> nic_smfu_gate)
  logic [127:0] sm_data;

  rma_port #(
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
    .LOCAL_CREDITS   (LOCAL_CREDITS),
    .RMA_CREDITS0    (RMA_CREDITS0),
    .RMA_CREDITS1    (RMA_CREDITS1)
  ) u_rma_port (
    .clk, .rst (m_fn_rst),
    .o1_valid   (loc_out_valid[1]),
    .o1_data    (loc_out_data[1]),
    .o1_last    (loc_out_last[1]),
    .o1_vc      (loc_out_vc[1]),
    .o1_credit  (loc_out_credit[1]),
    .sm_valid   (sm_valid),
    .sm_data    (sm_data),
    .sm_last    (sm_last),
    .sm_vc      (sm_vc),
    .sm_credit  (l1_out_credit),
    .m_rc_valid (rc_valid),
    .m_rc_data  (rc_data),
    .m_rc_last  (rc_last),
    .i0_valid   (loc_in_valid[0]),
    .i0_data    (loc_in_data[0]),
    .i0_last    (loc_in_last[0]),
    .i0_vc      (loc_in_vc[0]),
    .i0_credit  (loc_in_credit[0]),
    .ra_valid, .ra_data, .ra_last, .ra_vc, .ra_credit, .ra_hold,
    .s_rt_data  (rt_data),
    .s_rt_last  (rt_last),
    .s_rt_vc    (rt_vc),
    .s_rt_valid (rt_valid),
    .s_rt_ready (rt_ready)
  );

  logic [7:0]       rma_free, rma_inflight, rma_hwm;
  logic             rma_busy;
  logic [5:0][31:0] rma_cnt;
  logic [63:0]      rma_bytes;

  rma_unit u_rma (
    .clk, .rst (m_fn_rst),
    .cfg_node_id (node_id),
    .cfg_max_rd  (hwif_out.rma.ctrl.max_rd.value),
    .cfg_timeout (hwif_out.rma.ctrl.timeout.value),
    .post        (hwif_out.rma.post.go.value),
    .d_src       ({hwif_out.rma.d_src.node.value, hwif_out.rma.d_src.addr.value}),
    .d_dst       ({hwif_out.rma.d_dst.node.value, hwif_out.rma.d_dst.addr.value}),
    .d_len       ({hwif_out.rma.d_len.noti_cmp.value, hwif_out.rma.d_len.noti_req.value,
                   hwif_out.rma.d_len.cookie.value, 11'd0, hwif_out.rma.d_len.len.value}),
    .d_rnoti     (hwif_out.rma.d_rnoti.addr.value),
    .d_cnoti     (hwif_out.rma.d_cnoti.addr.value),
    .m_pkt_data  (rt_data),
    .m_pkt_last  (rt_last),
    .m_pkt_vc    (rt_vc),
    .m_pkt_valid (rt_valid),
    .m_pkt_ready (rt_ready),
    .s_cpl_data  (rc_data),
    .s_cpl_last  (rc_last),
    .s_cpl_valid (rc_valid),
    .st_free     (rma_free),
    .st_busy     (rma_busy),
    .st_inflight (rma_inflight),
    .st_refused  (rma_cnt[0]),
    .st_done     (rma_cnt[1]),
    .st_rd_err   (rma_cnt[2]),
    .st_bad_desc (rma_cnt[3]),
    .st_wr_err   (rma_cnt[4]),
    .st_notis    (rma_cnt[5]),
    .st_bytes    (rma_bytes),
    .st_rd_hwm   (rma_hwm)
  );

  // ---- local port 0: RRA requester / responder, TLP_RAW, completion records
  logic ev_sent, ev_served, ev_completed, ev_dropped;
  // the node's holder (nic_own, below): the RRA unit refuses other nodes' writes
  logic [15:0]      own_owner, own_last_src;
  logic             own_held, own_last_refused;
  logic [31:0]      own_lease_left;
  logic [3:0][15:0] own_events;
  logic [2:0][31:0] own_denied;           // {smfu, tunnel, writes}
  logic             ev_wr_denied, ev_inj_denied, ev_smfu_denied;

  // the SMFU's packets from rma_port, through the holder check (SMFU requests
  // of other nodes refused while held) to the side
  // (host role: also the other nodes' RMA requests into host memory, only inside the
  // windows of the dma block this host exposed; its refusals are dma.refused / dma.last)
  logic [1:0][31:0] gate_refused;          // {writes, reads}
  logic             gate_last_valid, gate_last_wr;
  logic [63:2]      gate_last_addr;
  logic [1:0][31:0] dma_refused_m;         // dma.refused, dma.last: the role's source
  logic [63:2]      dma_last_addr_m;
  logic [1:0]       dma_last_kind_m;

  nic_smfu_gate #(
    .EXPOSE    (ROLE == 0)
  ) u_smfu_gate (
    .clk, .rst (m_fn_rst),
    .node_id, .own_held, .own_owner,
    .peer_en   (hwif_out.own.peer.en.value),
    .peer_node (hwif_out.own.peer.node.value),
    .win_enforce   (dma_enforce),
    .win_base      (dma_base),
    .win_limit     (dma_limit),
    .win_perm      (dma_perm),
    .st_rd_refused (gate_refused[0]),
    .st_wr_refused (gate_refused[1]),
    .st_last_valid (gate_last_valid),
    .st_last_wr    (gate_last_wr),
    .st_last_addr  (gate_last_addr),
    .s_valid   (sm_valid),
    .s_data    (sm_data),
    .s_last    (sm_last),
    .s_vc      (sm_vc),
    .m_valid   (l1_out_valid),
    .m_data    (l1_out_data),
    .m_last    (l1_out_last),
    .m_vc      (l1_out_vc),
    .ev_denied (ev_smfu_denied)
  );

  // endpoint role: the side has no DMA window table (its st_dma_* read 0): the gate's
  assign dma_refused_m   = ROLE == 0 ? gate_refused : st_dma_refused;
  assign dma_last_addr_m = ROLE == 0 ? gate_last_addr : st_dma_last_addr;
  assign dma_last_kind_m = ROLE == 0 ? {gate_last_wr, gate_last_valid} : st_dma_last_kind;

  nic_rra_unit #(
    .ENDPOINT        (ROLE == 0),
    .REG_ADDR_W      (REG_ADDR_W),
    .REG_MAP_BYTES   (REG_MAP_BYTES),
    .LOCAL_CREDITS   (LOCAL_CREDITS),
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH - RMA_CREDITS0),  // the rest: the RMA unit's (rma_port)
    .RSP_BUF_DEPTH   (LOCAL_BUF_DEPTH - RMA_CREDITS1)
  ) u_rra (
    .clk, .rst (m_fn_rst),
    .node_id, .bus_master, .cpl_id,
    .s_net_valid     (loc_out_valid[0]),
    .s_net_data      (loc_out_data[0]),
    .s_net_last      (loc_out_last[0]),
    .s_net_vc        (loc_out_vc[0]),
    .m_net_credit    (loc_out_credit[0]),
    .tx_hold         (ra_hold),
    .m_net_valid     (ra_valid),          // through rma_port (VC 0 of local inport 0)
    .m_net_data      (ra_data),
    .m_net_last      (ra_last),
    .m_net_vc        (ra_vc),
    .s_net_credit    (ra_credit),
    `CPUIF_CONNECT(cpuif, rr),
    .cpuif_src       (rr_src),
    .own_held, .own_owner, .ev_wr_denied, .ev_inj_denied,
    .mgmt_valid      (hwif_out.own.mgmt.valid.value),
    .mgmt_node       (hwif_out.own.mgmt.node.value),
    // requester: launch on the write of rra.req.seq, with the value being written
    .req_launch      (hwif_out.rra.req.seq.swmod),
    .req_q           ({hwif_out.rra.req.seq.value, 2'b00, hwif_out.rra.req.tlp_len.value,
                       hwif_out.rra.req.srcroute.value, hwif_out.rra.req.op.value,
                       hwif_out.rra.req.addr.value, hwif_out.rra.req.node.value}),
    .req_wr_data     (cpuif_wr_data),
    .req_wr_biten    (cpuif_wr_biten),
    .req_wdata       (hwif_out.rra.wdata.data.value),
    .req_tlp_hdr0    (hwif_out.rra.tlp_hdr0.data.value),
    .req_tlp_hdr1    (hwif_out.rra.tlp_hdr1.data.value),
    .req_route       (hwif_out.rra.route.hops.value),
    .req_cmp_addr    (hwif_out.rra.cmp_addr.addr.value),
    `BD_INJ_CONNECT(m_inj, inj),
    `BD_FWD_CONNECT(s_fwd, fwd),
    `TLP_CONNECT(m_tlp, rec_tlp),
    .ev_sent, .ev_served, .ev_completed, .ev_dropped,
    .rx_ovf
  );

  // ------------------------------------------------------------------
  // Hardware side of the registers (nic_reg_hw) and the field hookups
  // between the register file and the units (nic_reg_map)
  // ------------------------------------------------------------------
  logic [63:0]   cycles;
  logic [31:0]   crc_sum, replay_sum;
  logic [NL-1:0] link_up;
  logic [4:0][31:0] link_cnt;

  nic_reg_hw #(.NODE_ID(NODE_ID), .TBL_AW(TBL_AW), .NL(NL)) u_hw (
    .clk, .rst (m_fn_rst), .net_rst (rst),
    .cfg_node_id, .cfg_dateline,
    .node_wr     (hwif_out.router.node.valid.swmod),
    .node_valid  (hwif_out.router.node.valid.value),
    .node_reg_id (hwif_out.router.node.id.value),
    .node_reg_dl (hwif_out.router.node.dateline.value),
    .node_id, .dateline,
    .cycles,
    .rt_commit   (hwif_out.router.rt_entry.commit.swmod),
    .rt_inport   (hwif_out.router.rt_entry.inport.value),
    .rt_dest     (hwif_out.router.rt_entry.dest.value[TBL_AW-1:0]),
    .rt_valid    (hwif_out.router.rt_entry.valid.value),
    .rt_vcrule   (hwif_out.router.rt_entry.vcrule.value),
    .rt_outport  (hwif_out.router.rt_entry.outport.value[2:0]),
    .tbl_we, .tbl_addr, .tbl_wdata,
    .crc_err_cnt, .replay_cnt, .nak_tx_cnt, .nak_rx_cnt, .down_cnt, .link_state,
    .link_sel    (hwif_out.router.link_sel.link.value),
    .crc_sum, .replay_sum, .link_up, .sel_cnt (link_cnt),
    .node_ovf, .rx_ovf, .net_ovf,
    .irq_status  ({hwif_out.info.irq_status.notify.value, hwif_out.info.irq_status.test.value}),
    .irq_enable  ({hwif_out.info.irq_enable.notify.value, hwif_out.info.irq_enable.test.value}),
    .irq_pending
  );

  // ownership (own block): claims decided for the node each write comes from

  nic_own u_own (
    .clk, .rst (m_fn_rst),
    .claim_wr     (hwif_out.own.claim.op.swmod),
    .claim_src    (cpuif_src),
    .claim_op     (hwif_out.own.claim.op.value),
    .lease_units  (hwif_out.own.lease.units.value),
    .node_id,
    .mgmt_valid   (hwif_out.own.mgmt.valid.value),
    .mgmt_node    (hwif_out.own.mgmt.node.value),
    .ev_wr_denied, .ev_inj_denied, .ev_smfu_denied,
    .owner        (own_owner),
    .held         (own_held),
    .last_src     (own_last_src),
    .last_refused (own_last_refused),
    .lease_left   (own_lease_left),
    .won          (own_events[0]),
    .refused      (own_events[1]),
    .expired      (own_events[2]),
    .forced       (own_events[3]),
    .denied_writes (own_denied[0]),
    .denied_tunnel (own_denied[1]),
    .denied_smfu   (own_denied[2])
  );

  // a change of holder (claim of a free node, release, forced release, lease
  // expiry, a claim by another node): clears every DMA window's permissions
  // (dma.win_base*.read/.write hwclr), so no grant outlives its holder
  logic        own_change, own_held_q;
  logic [15:0] own_owner_q;
  always_ff @(posedge clk) begin
    if (m_fn_rst) begin
      own_held_q  <= 1'b0;
      own_owner_q <= '0;
    end else begin
      own_held_q  <= own_held;
      own_owner_q <= own_owner;
    end
  end
  assign own_change = own_held != own_held_q || (own_held && own_owner != own_owner_q);

  // Configuration flash controller (the flash block) and the boot identity
  extoll_regs_pkg::extoll_nic__in_t flash_hwif;
  logic [47:0] id_version;
  logic [63:0] id_build;
  logic        id_boot;

  nic_flash u_flash (
    .clk, .rst (m_fn_rst),
    .hwif_out, .flash_hwif,
    .flash_sck, .flash_cs_n, .flash_dq0, .flash_dq1,
    .reload_req, .reload_addr,
    .boot_slot, .boot_version, .boot_build,
    .id_boot, .id_version, .id_build
  );

  nic_reg_map #(
    .ROLE(ROLE), .NIVL(NIVL), .NL(NL), .RTL_MAJOR(RTL_MAJOR), .RTL_MINOR(RTL_MINOR),
    .RTL_PATCH(RTL_PATCH), .BUILD_DATE(BUILD_DATE), .BUILD_COMMIT(BUILD_COMMIT)
  ) u_map (
    .hwif_out, .hwif_in,
    .node_id, .cycles,
    .cpl_id, .mem_en, .bus_master, .intx_disable, .intx,
    .ev_rx_tlp, .ev_tx_tlp, .ev_ur, .ev_drop, .ev_aperture, .pcie_ev, .pcie_st,
    .msix_addr, .msix_data, .msix_mask,
    .rra_ev       ({ev_dropped, ev_completed, ev_served, ev_sent}),
    .bd_rx_status ({bd_rx_dropped, bd_rx_data_dw, bd_rx_valid_st}),
    .bd_rx_qw     ({bd_rx_dat, bd_rx_hdr1, bd_rx_hdr0}),
    .sm_timeout, .sm_passthru, .sm_up_node, .sm_eg_start, .sm_eg_end, .sm_eg_valid,
    .sm_eg_node, .sm_in_base,
    .nq_win_base, .nq_win_size, .nq_ring_base, .nq_enable, .nq_log2, .nq_cons, .rma_win_en, .rma_win_base,
    .dma_enforce, .dma_base, .dma_limit, .dma_perm,
    .st_eg_hits, .st_eg_misses, .st_timeouts, .st_up_reqs, .st_in_reqs,
    .st_nq_prod, .st_nq_full_stalls, .st_nq_events, .irq_notify,
    .st_dma_refused (dma_refused_m), .st_dma_last_addr (dma_last_addr_m),
    .st_dma_last_kind (dma_last_kind_m), .own_change,
    .crc_sum, .replay_sum, .link_up, .link_state, .link_cnt, .noroute_cnt,
    .malformed_cnt, .fence_drop_cnt, .fence_cut_cnt,
    .own_owner, .own_held, .own_last_src, .own_last_refused, .own_lease_left, .own_events,
    .own_denied,
    .rma_free, .rma_busy, .rma_inflight, .rma_hwm, .rma_cnt, .rma_bytes,
    .flash_hwif, .id_boot, .id_version, .id_build
  );

  logic unused;
  assign unused = ^{tbl_rdata, fence_clean, rx_pkt_cnt, tx_pkt_cnt, bd_pass_data, bd_pass_keep, bd_pass_eop,
                    bd_tx_busy, bd_ev_tx, bd_ev_tx_busy, bd_ev_rx_extract, bd_ev_rx_drop,
                    hwif_out.router.rt_entry.commit.value,
                    hwif_out.router.rt_entry.outport.value[3],
                    hwif_out.router.rt_entry.dest.value[15:TBL_AW]};

endmodule

`default_nettype wire
