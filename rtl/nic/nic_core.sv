// SPDX-License-Identifier: Apache-2.0
//
// nic_core: what both roles of the NIC share (docs/nic.md), wiring only:
// the register file and its cpuif arbiter, the PCIe backdoor, the network
// (net_node: router + 7 link ports) with the RRA / backdoor unit on local
// port 0, and the hardware side of the registers. The role's side module
// (nic_ep_side or nic_rp_side, chosen by extoll_nic) connects to it with
// one port list:
//
//   side --BAR0 cpuif--> nic_cpuif_arb (0 BAR0 bridge | 1 RRA responder) -> extoll_regs
//   side <--bd_tx-- pcie_backdoor --bd_rx--> (RX filter on completions from below)
//   side <--rec_tlp-- completion-record MWr (nic_rra_unit / nic_host_wr)
//   side <--l1_out/l1_in--> router local port 1 (the role's SMFU)
//   side --pcie state, events, smfu status--> register file;
//        <--smfu / notify configuration, irq_pending-- register file
//
//   net_node local port 0 <--> nic_rra_unit (RRA requester / responder,
//                              TLP_RAW inject -> backdoor, backdoor forward -> TLP_RAW)
//
// Synchronous to clk, reset rst (sync, high).

`default_nettype none
`include "cpuif_port.svh"
`include "net_local_port.svh"
`include "tlp_stream.svh"
`include "backdoor_port.svh"

// Package items are referenced by qualified name (extoll_regs_pkg::..., net_pkg::...):
// Yosys does not read package imports inside modules.

module nic_core #(
  parameter int          ROLE            = 0,        // 0 endpoint, 1 root port
  parameter logic [15:0] NODE_ID         = 16'd0,    // ORed with the cfg_node_id strap
  parameter int          TBL_AW          = 6,        // routing table index bits
  parameter int          LINK_BUF_DEPTH  = 64,       // flits per VC of a link inport buffer
  parameter int          LOCAL_BUF_DEPTH = 32,       // flits per VC of a local inport buffer
  parameter int          LOCAL_CREDITS   = 32,       // credits per VC of a local outport
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
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- straps ----------------
  input  wire logic [15:0]           cfg_node_id,
  input  wire logic [6:0]            cfg_dateline,
  output      logic [15:0]           node_id,        // cfg_node_id (registered) | NODE_ID

  // ---------------- network links (extoll_nic ports) ----------------
  `NET_PHY_PORTS(7),
  output      logic                  net_ovf,

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

  // ---------------- PCIe state and events (pcie.*) ----------------
  input  wire logic [15:0]           cpl_id,         // captured bus/dev/fn
  input  wire logic                  mem_en,
  input  wire logic                  bus_master,
  input  wire logic                  intx_disable,
  input  wire logic                  intx,
  input  wire logic                  ev_rx_tlp,
  input  wire logic                  ev_tx_tlp,
  input  wire logic                  ev_ur,
  input  wire logic                  ev_drop,
  input  wire logic                  ev_aperture,
  output      logic                  irq_pending,    // any enabled interrupt cause
  // pcie.{poisoned_tx, msix_msgs, ca_sent, cpl_err, poisoned} counter pulses
  input  wire logic [4:0]            pcie_ev,
  input  wire logic [2:0]            pcie_st,        // {D3hot, MSI-X enable, MSI-X pending}
  output      logic [63:0]           msix_addr,      // msix.addr (table entry 0)
  output      logic [31:0]           msix_data,      // msix.ctrl.data
  output      logic                  msix_mask,      // msix.ctrl.mask

  // ---------------- SMFU / notify configuration ----------------
  output      logic [15:0]           sm_timeout,     // smfu.ctrl.timeout
  output      logic                  sm_passthru,    // smfu.ctrl.passthru
  output      logic [15:0]           sm_up_node,     // smfu.ctrl.up_node
  output      logic [NIVL-1:0][63:0] sm_eg_start,    // smfu.eg_start[i]
  output      logic [NIVL-1:0][63:0] sm_eg_end,      // smfu.eg_end[i]
  output      logic [NIVL-1:0]       sm_eg_valid,    // smfu.eg_ctrl[i].valid
  output      logic [NIVL-1:0][15:0] sm_eg_node,     // smfu.eg_ctrl[i].node
  output      logic [NIVL-1:0][63:0] sm_in_base,     // smfu.in_base[i]
  output      logic [63:0]           nq_win_base,    // notify.win_base
  output      logic [63:0]           nq_win_size,    // notify.win_size
  output      logic [63:0]           nq_ring_base,   // notify.ring_base
  output      logic                  nq_enable,      // notify.ring_ctrl.enable
  output      logic [3:0]            nq_log2,        // notify.ring_ctrl.log2_entries
  output      logic [31:0]           nq_cons,        // notify.cons

  // ---------------- SMFU / notify status (the other role's read 0) ----------------
  input  wire logic [31:0]           st_eg_hits,
  input  wire logic [31:0]           st_eg_misses,
  input  wire logic [31:0]           st_timeouts,
  input  wire logic [31:0]           st_up_reqs,
  input  wire logic [31:0]           st_in_reqs,
  input  wire logic [31:0]           st_nq_prod,
  input  wire logic [31:0]           st_nq_full_stalls,
  input  wire logic [31:0]           st_nq_events,
  input  wire logic                  irq_notify,     // pulse: info.irq_status.notify hwset

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
  `REGBLK_WIRES(cpuif, REG_ADDR_W);

  nic_cpuif_arb #(.ADDR_W(REG_ADDR_W)) u_arb (
    .clk, .rst,
    `CPUIF_CONNECT(s0, bar),
    `CPUIF_CONNECT(s1, rr),
    `REGBLK_CONNECT(m, cpuif)
  );

  extoll_regs_pkg::extoll_nic__in_t  hwif_in;
  // Not every register is used here: blocks whose units are not part of
  // this top yet only store what software writes.
  /* verilator lint_off UNUSEDSIGNAL */
  extoll_regs_pkg::extoll_nic__out_t hwif_out;
  /* verilator lint_on UNUSEDSIGNAL */

  extoll_regs u_regs (
    .clk, .rst,
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
    .clk, .rst,
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
  // SMFU / notify register fields (docs/smfu.md): the role's unit reads them
  // ------------------------------------------------------------------
  // The register file has 16 named copies of each interval register
  // (eg_start0..eg_start15, ...), not arrays: a macro pastes the index so
  // each interval is one line.
`define NIC_CORE_SMFU_IVL(i) \
    sm_eg_start[i] = hwif_out.smfu.eg_start``i.addr.value; \
    sm_eg_end[i]   = hwif_out.smfu.eg_end``i.addr.value; \
    sm_eg_valid[i] = hwif_out.smfu.eg_ctrl``i.valid.value; \
    sm_eg_node[i]  = hwif_out.smfu.eg_ctrl``i.node.value; \
    sm_in_base[i]  = hwif_out.smfu.in_base``i.addr.value;
  always_comb begin
    `NIC_CORE_SMFU_IVL(0)  `NIC_CORE_SMFU_IVL(1)  `NIC_CORE_SMFU_IVL(2)  `NIC_CORE_SMFU_IVL(3)
    `NIC_CORE_SMFU_IVL(4)  `NIC_CORE_SMFU_IVL(5)  `NIC_CORE_SMFU_IVL(6)  `NIC_CORE_SMFU_IVL(7)
    `NIC_CORE_SMFU_IVL(8)  `NIC_CORE_SMFU_IVL(9)  `NIC_CORE_SMFU_IVL(10) `NIC_CORE_SMFU_IVL(11)
    `NIC_CORE_SMFU_IVL(12) `NIC_CORE_SMFU_IVL(13) `NIC_CORE_SMFU_IVL(14) `NIC_CORE_SMFU_IVL(15)
  end
`undef NIC_CORE_SMFU_IVL

  assign sm_timeout   = hwif_out.smfu.ctrl.timeout.value;
  assign sm_passthru  = hwif_out.smfu.ctrl.passthru.value;
  assign sm_up_node   = hwif_out.smfu.ctrl.up_node.value;
  assign nq_win_base  = hwif_out.notify.win_base.addr.value;
  assign nq_win_size  = hwif_out.notify.win_size.size.value;
  assign nq_ring_base = hwif_out.notify.ring_base.addr.value;
  assign nq_enable    = hwif_out.notify.ring_ctrl.enable.value;
  assign nq_log2      = hwif_out.notify.ring_ctrl.log2_entries.value;
  assign nq_cons      = hwif_out.notify.cons.index.value;

  // ------------------------------------------------------------------
  // Network: net_node, local port 0 = RRA / backdoor unit, 1 = SMFU/INTR
  // ------------------------------------------------------------------
  logic [N_LOCAL-1:0]        loc_in_valid, loc_in_last, loc_in_vc;
  logic [N_LOCAL-1:0][127:0] loc_in_data;
  logic [N_LOCAL-1:0][1:0]   loc_in_credit;
  logic [N_LOCAL-1:0]        loc_out_valid, loc_out_last, loc_out_vc;
  logic [N_LOCAL-1:0][127:0] loc_out_data;
  logic [N_LOCAL-1:0][1:0]   loc_out_credit;

  logic                      tbl_we;
  logic [TBL_AW+3:0]         tbl_addr;
  logic [5:0]                tbl_wdata, tbl_rdata;
  logic [NL-1:0][31:0]       crc_err_cnt, rx_pkt_cnt, tx_pkt_cnt;
  logic [NL-1:0][31:0]       replay_cnt, nak_tx_cnt, nak_rx_cnt, down_cnt;
  logic [NL-1:0][1:0]        link_state;
  logic [31:0]               noroute_cnt;
  logic                      node_ovf, rx_ovf;
  logic [6:0]                dateline;

  net_node #(
    .N_LOCAL         (N_LOCAL),
    .LINK_BUF_DEPTH  (LINK_BUF_DEPTH),
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
    .TBL_AW          (TBL_AW),
    .LOCAL_CREDITS   (LOCAL_CREDITS)
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
    `NET_LOCAL_CONNECT(s_loc, m_loc, loc_in, loc_out),
    .m_crc_err_cnt (crc_err_cnt),
    .m_rx_pkt_cnt  (rx_pkt_cnt),
    .m_tx_pkt_cnt  (tx_pkt_cnt),
    .m_replay_cnt  (replay_cnt),
    .m_nak_tx_cnt  (nak_tx_cnt),
    .m_nak_rx_cnt  (nak_rx_cnt),
    .m_down_cnt    (down_cnt),
    .m_link_state  (link_state),
    .m_noroute_cnt (noroute_cnt),
    .m_ovf         (node_ovf)
  );

  // ---- local port 1 (SMFU / INTR): the side's smfu_host / smfu_naa
  assign l1_out_valid      = loc_out_valid[1];
  assign l1_out_data       = loc_out_data[1];
  assign l1_out_last       = loc_out_last[1];
  assign l1_out_vc         = loc_out_vc[1];
  assign loc_out_credit[1] = l1_out_credit;
  assign loc_in_valid[1]   = l1_in_valid;
  assign loc_in_data[1]    = l1_in_data;
  assign loc_in_last[1]    = l1_in_last;
  assign loc_in_vc[1]      = l1_in_vc;
  assign l1_in_credit      = loc_in_credit[1];

  // ---- local port 0: RRA requester / responder, TLP_RAW, completion records
  logic ev_sent, ev_served, ev_completed, ev_dropped;

  nic_rra_unit #(
    .ENDPOINT        (ROLE == 0),
    .REG_ADDR_W      (REG_ADDR_W),
    .REG_MAP_BYTES   (REG_MAP_BYTES),
    .LOCAL_CREDITS   (LOCAL_CREDITS),
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH)
  ) u_rra (
    .clk, .rst,
    .node_id, .bus_master, .cpl_id,
    `NET_LOCAL_CONNECT_AT(s_net, m_net, loc_out, loc_in, 0),
    `CPUIF_CONNECT(cpuif, rr),
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
  // Hardware side of the registers
  // ------------------------------------------------------------------
  logic [63:0]   cycles;
  logic [31:0]   crc_sum, replay_sum;
  logic [NL-1:0] link_up;
  logic [4:0][31:0] link_cnt;

  nic_reg_hw #(.NODE_ID(NODE_ID), .TBL_AW(TBL_AW), .NL(NL)) u_hw (
    .clk, .rst,
    .cfg_node_id, .cfg_dateline, .node_id, .dateline,
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

  always_comb begin
    hwif_in = '0;
    // info: identity, version, build, cycle counter, test interrupt
    hwif_in.info.id.role.next             = 8'(ROLE);
    hwif_in.info.id.node_id.next          = node_id;
    hwif_in.info.version.major.next       = RTL_MAJOR;
    hwif_in.info.version.minor.next       = RTL_MINOR;
    hwif_in.info.version.patch.next       = RTL_PATCH;
    hwif_in.info.build.date.next          = BUILD_DATE;
    hwif_in.info.build.commit.next        = BUILD_COMMIT;
    hwif_in.info.cycles.count.next        = cycles;
    hwif_in.info.irq_status.test.hwset    = hwif_out.info.irq_test.fire.value;
    hwif_in.info.irq_status.notify.hwset  = irq_notify;
    // pcie: state and counters of the endpoint / root port
    hwif_in.pcie.status.func.next         = cpl_id[2:0];
    hwif_in.pcie.status.dev.next          = cpl_id[7:3];
    hwif_in.pcie.status.bus.next          = cpl_id[15:8];
    hwif_in.pcie.status.mem_en.next       = mem_en;
    hwif_in.pcie.status.bus_master.next   = bus_master;
    hwif_in.pcie.status.intx_disable.next = intx_disable;
    hwif_in.pcie.status.intx.next         = intx;
    hwif_in.pcie.rx_tlp.count.incr        = ev_rx_tlp;
    hwif_in.pcie.tx_tlp.count.incr        = ev_tx_tlp;
    hwif_in.pcie.ur.count.incr            = ev_ur;
    hwif_in.pcie.drop.count.incr          = ev_drop;
    hwif_in.pcie.aperture.count.incr      = ev_aperture;
    hwif_in.pcie.poisoned.count.incr      = pcie_ev[0];
    hwif_in.pcie.cpl_err.count.incr       = pcie_ev[1];
    hwif_in.pcie.ca_sent.count.incr       = pcie_ev[2];
    hwif_in.pcie.msix_msgs.count.incr     = pcie_ev[3];
    hwif_in.pcie.poisoned_tx.count.incr   = pcie_ev[4];
    hwif_in.pcie.status.msix_en.next      = pcie_st[1];
    hwif_in.pcie.status.d3hot.next        = pcie_st[2];
    hwif_in.msix.pba.pending.next         = pcie_st[0];
    // rra: counters of the local port 0 unit
    hwif_in.rra.sent.count.incr           = ev_sent;
    hwif_in.rra.served.count.incr         = ev_served;
    hwif_in.rra.completed.count.incr      = ev_completed;
    hwif_in.rra.dropped.count.incr        = ev_dropped;
    // backdoor: RX buffer
    hwif_in.backdoor.rx_status.valid.next   = bd_rx_valid_st;
    hwif_in.backdoor.rx_status.data_dw.next = bd_rx_data_dw;
    hwif_in.backdoor.rx_status.dropped.next = bd_rx_dropped;
    hwif_in.backdoor.rx_hdr0.data.next      = bd_rx_hdr0;
    hwif_in.backdoor.rx_hdr1.data.next      = bd_rx_hdr1;
    hwif_in.backdoor.rx_data.data.next      = bd_rx_dat;
    // smfu / notify (the unit of the role; the other role's fields read 0)
    hwif_in.smfu.eg_hits.count.next       = st_eg_hits;
    hwif_in.smfu.eg_misses.count.next     = st_eg_misses;
    hwif_in.smfu.timeouts.count.next      = st_timeouts;
    hwif_in.smfu.in_reqs.count.next       = st_in_reqs;
    hwif_in.smfu.up_reqs.count.next       = st_up_reqs;
    hwif_in.notify.prod.index.next        = st_nq_prod;
    hwif_in.notify.full_stalls.count.next = st_nq_full_stalls;
    hwif_in.notify.events.count.next      = st_nq_events;
    // router
    hwif_in.router.crc_errors.count.next  = crc_sum;
    hwif_in.router.unroutable.count.next  = noroute_cnt;
    hwif_in.router.link_status.up.next    = link_up;
    hwif_in.router.link_status.state.next = link_state;
    hwif_in.router.replays.count.next     = replay_sum;
    hwif_in.router.link_crc_errors.count.next = link_cnt[0];
    hwif_in.router.link_naks_sent.count.next  = link_cnt[1];
    hwif_in.router.link_naks_rcvd.count.next  = link_cnt[2];
    hwif_in.router.link_replays.count.next    = link_cnt[3];
    hwif_in.router.link_downs.count.next      = link_cnt[4];
  end

  // MSI-X table entry 0 (the endpoint role's one vector)
  assign msix_addr = {hwif_out.msix.addr.addr.value, 2'b00};
  assign msix_data = hwif_out.msix.ctrl.data.value;
  assign msix_mask = hwif_out.msix.ctrl.mask.value;

  logic unused;
  assign unused = ^{tbl_rdata, rx_pkt_cnt, tx_pkt_cnt, bd_pass_data, bd_pass_keep, bd_pass_eop,
                    bd_tx_busy, bd_ev_tx, bd_ev_tx_busy, bd_ev_rx_extract, bd_ev_rx_drop,
                    hwif_out.router.rt_entry.commit.value,
                    hwif_out.router.rt_entry.outport.value[3],
                    hwif_out.router.rt_entry.dest.value[15:TBL_AW]};

endmodule

`default_nettype wire
