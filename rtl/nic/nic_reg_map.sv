// SPDX-License-Identifier: Apache-2.0
//
// nic_reg_map: the register file's field hookups, wiring only (docs/nic.md
// "Registers served by the top"). Which unit's signal each field of the
// generated extoll_regs hwif structs carries:
//
//   hwif_out -> units   smfu.* intervals and control, notify.* ring, msix.*
//                       table entry 0
//   units -> hwif_in    info (identity, build, cycles, interrupt causes),
//                       pcie.* state and counters, rra.* counters, the
//                       backdoor RX buffer, smfu.* / notify.* status,
//                       router.* counters and link status, own.* (nic_own),
//                       flash.* (nic_flash drives them), info.version/build
//                       from the boot image when the harness or board booted
//                       one (id_boot), else the parameters (info.build: ORed
//                       with the boot_build strap, the co-simulation's run-time
//                       build id)
//
// The register map itself is defined once, in hw/regs/extoll.rdl; the field
// names below come from the structs PeakRDL generates from it.

`default_nettype none
`include "nic_ports.svh"

// Package items are referenced by qualified name (extoll_regs_pkg::...):
// Yosys does not read package imports inside modules.

module nic_reg_map #(
  parameter int          ROLE         = 0,           // info.id.role: 0 endpoint, 1 root port
  parameter int          NIVL         = 16,          // SMFU intervals (the register file has 16)
  parameter int          NL           = 7,           // network links
  parameter logic [15:0] RTL_MAJOR    = 16'd0,
  parameter logic [15:0] RTL_MINOR    = 16'd1,
  parameter logic [15:0] RTL_PATCH    = 16'd0,
  parameter logic [31:0] BUILD_DATE   = 32'h0000_0000,
  parameter logic [31:0] BUILD_COMMIT = 32'h0000_0000
) (
  // ---------------- register file ----------------
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire extoll_regs_pkg::extoll_nic__out_t hwif_out, // not every field is used here
  /* verilator lint_on UNUSEDSIGNAL */
  output      extoll_regs_pkg::extoll_nic__in_t  hwif_in,

  // ---------------- info ----------------
  input  wire logic [15:0]           node_id,
  input  wire logic [63:0]           cycles,

  // ---------------- pcie.* (the role's endpoint or root port; nic_ports.svh) ----------------
  `NIC_PCIE_STATE_PORTS(input wire, output),
  input  wire logic                  intx,

  // ---------------- rra.* and backdoor.* ----------------
  input  wire logic [3:0]            rra_ev,         // pulses {dropped, completed, served, sent}
  input  wire logic [18:0]           bd_rx_status,   // RX buffer {dropped[15:0], data_dw[1:0], valid}
  input  wire logic [2:0][63:0]      bd_rx_qw,       // RX buffer {data, hdr1, hdr0}

  // ---------------- smfu.* / notify.* configuration and status (nic_ports.svh) ----------------
  `NIC_SMFU_CFG_PORTS(output),
  `NIC_SMFU_ST_PORTS(input wire),

  // ---------------- router.* ----------------
  input  wire logic [31:0]           crc_sum,        // nic_reg_hw
  input  wire logic [31:0]           replay_sum,
  input  wire logic [NL-1:0]         link_up,
  input  wire logic [NL-1:0][1:0]    link_state,
  input  wire logic [4:0][31:0]      link_cnt,       // link link_sel: crc, naks sent, rcvd, replays, downs
  input  wire logic [31:0]           noroute_cnt,    // net_node: no route, dead link
  input  wire logic [31:0]           malformed_cnt,  // net_node: malformed packets, all links
  input  wire logic [31:0]           fence_drop_cnt, // nic_net_fence: packets to the units dropped
  input  wire logic [31:0]           fence_cut_cnt,  // nic_net_fence: packets from the units cut

  // ---------------- own.* ----------------
  input  wire logic [15:0]           own_owner,      // nic_own
  input  wire logic                  own_held,
  input  wire logic [15:0]           own_last_src,
  input  wire logic                  own_last_refused,
  input  wire logic [31:0]           own_lease_left,
  input  wire logic [3:0][15:0]      own_events,     // {forced, expired, refused, won}
  input  wire logic [2:0][31:0]      own_denied,     // {smfu, tunnel, writes}
  input  wire logic                  own_change,     // pulse: the holder changed (clears dma.win_base*.read/.write)

  // ---------------- rma.* (rma_unit) ----------------
  input  wire logic [7:0]            rma_free,       // status.free
  input  wire logic                  rma_busy,       // status.busy
  input  wire logic [7:0]            rma_inflight,   // status.inflight
  input  wire logic [7:0]            rma_hwm,        // stats.rd_hwm
  input  wire logic [5:0][31:0]      rma_cnt,        // {notis, wr_err, bad_desc, rd_err, done, refused}
  input  wire logic [63:0]           rma_bytes,      // bytes

  // ---------------- flash.* and the boot identity (nic_flash) ----------------
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire extoll_regs_pkg::extoll_nic__in_t  flash_hwif,  // only its flash fields are used
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic                  id_boot,        // info.version/build from the boot image
  input  wire logic [47:0]           id_version,     // {major, minor, patch}
  input  wire logic [63:0]           id_build        // {commit, date}
);

  // ------------------------------------------------------------------
  // hwif_out -> units
  // ------------------------------------------------------------------
  // The register file has 16 named copies of each interval register
  // (eg_start0..eg_start15, ...), not arrays: a macro pastes the index so
  // each interval is one line.
`define NIC_REG_MAP_IVL(i) \
    sm_eg_start[i] = hwif_out.smfu.eg_start``i.addr.value; \
    sm_eg_end[i]   = hwif_out.smfu.eg_end``i.addr.value; \
    sm_eg_valid[i] = hwif_out.smfu.eg_ctrl``i.valid.value; \
    sm_eg_node[i]  = hwif_out.smfu.eg_ctrl``i.node.value; \
    sm_in_base[i]  = hwif_out.smfu.in_base``i.addr.value;
  always_comb begin
    `NIC_REG_MAP_IVL(0)  `NIC_REG_MAP_IVL(1)  `NIC_REG_MAP_IVL(2)  `NIC_REG_MAP_IVL(3)
    `NIC_REG_MAP_IVL(4)  `NIC_REG_MAP_IVL(5)  `NIC_REG_MAP_IVL(6)  `NIC_REG_MAP_IVL(7)
    `NIC_REG_MAP_IVL(8)  `NIC_REG_MAP_IVL(9)  `NIC_REG_MAP_IVL(10) `NIC_REG_MAP_IVL(11)
    `NIC_REG_MAP_IVL(12) `NIC_REG_MAP_IVL(13) `NIC_REG_MAP_IVL(14) `NIC_REG_MAP_IVL(15)
  end
`undef NIC_REG_MAP_IVL

  assign sm_timeout   = hwif_out.smfu.ctrl.timeout.value;
  assign sm_passthru  = hwif_out.smfu.ctrl.passthru.value;
  assign sm_up_node   = hwif_out.smfu.ctrl.up_node.value;
  assign nq_win_base  = hwif_out.notify.win_base.addr.value;
  assign nq_win_size  = hwif_out.notify.win_size.size.value;
  assign nq_ring_base = hwif_out.notify.ring_base.addr.value;
  assign nq_enable    = hwif_out.notify.ring_ctrl.enable.value;
  assign nq_log2      = hwif_out.notify.ring_ctrl.log2_entries.value;
  assign nq_cons      = hwif_out.notify.cons.index.value;
  assign rma_win_en   = hwif_out.rma.win.en.value;
  assign rma_win_base = {hwif_out.rma.win.base.value, 12'h000};
  assign dma_enforce  = hwif_out.dma.ctrl.enforce.value;
  // the 8 DMA windows (unrolled in the register file like the intervals)
`define NIC_REG_MAP_DMA(i) \
    dma_base[i]  = hwif_out.dma.win_base``i.base.value; \
    dma_limit[i] = hwif_out.dma.win_limit``i.limit.value; \
    dma_perm[i]  = {hwif_out.dma.win_base``i.write.value, hwif_out.dma.win_base``i.read.value};
  always_comb begin
    `NIC_REG_MAP_DMA(0) `NIC_REG_MAP_DMA(1) `NIC_REG_MAP_DMA(2) `NIC_REG_MAP_DMA(3)
    `NIC_REG_MAP_DMA(4) `NIC_REG_MAP_DMA(5) `NIC_REG_MAP_DMA(6) `NIC_REG_MAP_DMA(7)
  end
`undef NIC_REG_MAP_DMA

  // MSI-X table entry 0 (the endpoint role's one vector)
  assign msix_addr = {hwif_out.msix.addr.addr.value, 2'b00};
  assign msix_data = hwif_out.msix.ctrl.data.value;
  assign msix_mask = hwif_out.msix.ctrl.mask.value;

  // ------------------------------------------------------------------
  // units -> hwif_in
  // ------------------------------------------------------------------
  always_comb begin
    hwif_in = '0;
    // info: identity, version, build, cycle counter, test interrupt
    hwif_in.info.id.role.next             = 8'(ROLE);
    hwif_in.info.id.node_id.next          = node_id;
    hwif_in.info.version.major.next       = id_boot ? id_version[47:32] : RTL_MAJOR;
    hwif_in.info.version.minor.next       = id_boot ? id_version[31:16] : RTL_MINOR;
    hwif_in.info.version.patch.next       = id_boot ? id_version[15:0]  : RTL_PATCH;
    // without a boot image: BUILD_* ORed with the boot_build strap (a board ties it 0;
    // the co-simulation builds with BUILD_* 0 and straps the build id at run time)
    hwif_in.info.build.date.next          = id_boot ? id_build[31:0]    : BUILD_DATE | id_build[31:0];
    hwif_in.info.build.commit.next        = id_boot ? id_build[63:32]   : BUILD_COMMIT | id_build[63:32];
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
    hwif_in.pcie.rc_err.count.incr        = pcie_ev[5];
    hwif_in.pcie.status.msix_en.next      = pcie_st[1];
    hwif_in.pcie.status.d3hot.next        = pcie_st[2];
    hwif_in.msix.pba.pending.next         = pcie_st[0];
    // rra: counters of the local port 0 unit
    hwif_in.rra.sent.count.incr           = rra_ev[0];
    hwif_in.rra.served.count.incr         = rra_ev[1];
    hwif_in.rra.completed.count.incr      = rra_ev[2];
    hwif_in.rra.dropped.count.incr        = rra_ev[3];
    // backdoor: RX buffer
    hwif_in.backdoor.rx_status.valid.next   = bd_rx_status[0];
    hwif_in.backdoor.rx_status.data_dw.next = bd_rx_status[2:1];
    hwif_in.backdoor.rx_status.dropped.next = bd_rx_status[18:3];
    hwif_in.backdoor.rx_hdr0.data.next      = bd_rx_qw[0];
    hwif_in.backdoor.rx_hdr1.data.next      = bd_rx_qw[1];
    hwif_in.backdoor.rx_data.data.next      = bd_rx_qw[2];
    // smfu / notify (the unit of the role; the other role's fields read 0)
    hwif_in.smfu.eg_hits.count.next       = st_eg_hits;
    hwif_in.smfu.eg_misses.count.next     = st_eg_misses;
    hwif_in.smfu.timeouts.count.next      = st_timeouts;
    hwif_in.smfu.in_reqs.count.next       = st_in_reqs;
    hwif_in.smfu.up_reqs.count.next       = st_up_reqs;
    hwif_in.notify.prod.index.next        = st_nq_prod;
    hwif_in.notify.full_stalls.count.next = st_nq_full_stalls;
    hwif_in.notify.events.count.next      = st_nq_events;
    // dma (root-port role: nic_dma_win; the endpoint's read 0)
    hwif_in.dma.refused.reads.next        = st_dma_refused[0];
    hwif_in.dma.refused.writes.next       = st_dma_refused[1];
    hwif_in.dma.last.valid.next           = st_dma_last_kind[0];
    hwif_in.dma.last.write.next           = st_dma_last_kind[1];
    hwif_in.dma.last.addr.next            = st_dma_last_addr;
`define NIC_REG_MAP_DMA_CLR(i) \
    hwif_in.dma.win_base``i.read.hwclr  = own_change; \
    hwif_in.dma.win_base``i.write.hwclr = own_change;
    `NIC_REG_MAP_DMA_CLR(0) `NIC_REG_MAP_DMA_CLR(1) `NIC_REG_MAP_DMA_CLR(2) `NIC_REG_MAP_DMA_CLR(3)
    `NIC_REG_MAP_DMA_CLR(4) `NIC_REG_MAP_DMA_CLR(5) `NIC_REG_MAP_DMA_CLR(6) `NIC_REG_MAP_DMA_CLR(7)
`undef NIC_REG_MAP_DMA_CLR
    // router
    hwif_in.router.crc_errors.count.next  = crc_sum;
    hwif_in.router.unroutable.count.next  = noroute_cnt;
    hwif_in.router.malformed.count.next   = malformed_cnt;
    hwif_in.router.fn_reset.dropped.next  = fence_drop_cnt;
    hwif_in.router.fn_reset.cut.next      = fence_cut_cnt;
    hwif_in.router.link_status.up.next    = link_up;
    hwif_in.router.link_status.state.next = link_state;
    hwif_in.router.replays.count.next     = replay_sum;
    hwif_in.router.link_crc_errors.count.next = link_cnt[0];
    hwif_in.router.link_naks_sent.count.next  = link_cnt[1];
    hwif_in.router.link_naks_rcvd.count.next  = link_cnt[2];
    hwif_in.router.link_replays.count.next    = link_cnt[3];
    hwif_in.router.link_downs.count.next      = link_cnt[4];
    // own
    hwif_in.own.owner.node.next           = own_owner;
    hwif_in.own.owner.held.next           = own_held;
    hwif_in.own.owner.last_src.next       = own_last_src;
    hwif_in.own.owner.last_refused.next   = own_last_refused;
    hwif_in.own.lease_left.units.next     = own_lease_left;
    hwif_in.own.events.won.next           = own_events[0];
    hwif_in.own.events.refused.next       = own_events[1];
    hwif_in.own.events.expired.next       = own_events[2];
    hwif_in.own.events.forced.next        = own_events[3];
    hwif_in.own.denied.writes.next        = own_denied[0];
    hwif_in.own.denied.tunnel.next        = own_denied[1];
    hwif_in.own.denied_smfu.count.next    = own_denied[2];
    hwif_in.own.peer.en.hwclr             = !own_held;  // a grant ends with the holding
    // rma
    hwif_in.rma.status.free.next          = rma_free;
    hwif_in.rma.status.busy.next          = rma_busy;
    hwif_in.rma.status.inflight.next      = rma_inflight;
    hwif_in.rma.status.refused.next       = rma_cnt[0];
    hwif_in.rma.done.count.next           = rma_cnt[1];
    hwif_in.rma.errors.rd_err.next        = rma_cnt[2];
    hwif_in.rma.errors.bad_desc.next      = rma_cnt[3];
    hwif_in.rma.wr_err.count.next         = rma_cnt[4];
    hwif_in.rma.stats.notis.next          = rma_cnt[5];
    hwif_in.rma.stats.rd_hwm.next         = rma_hwm;
    hwif_in.rma.bytes.count.next          = rma_bytes;
    // flash: the controller's fields (nic_flash)
    hwif_in.flash = flash_hwif.flash;
  end

endmodule

`default_nettype wire
