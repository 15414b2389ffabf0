// SPDX-License-Identifier: Apache-2.0
//
// extoll_nic: top of the EXTOLL-style NIC, in either role (docs/nic.md):
//   ROLE 0  endpoint: the NIC of a booster interface host (PCI ID 1ee7:0001)
//   ROLE 1  root port: the NIC of a network-attached accelerator node (NAA,
//           1ee7:0002); its PCIe side is a root port toward the device below
//
//            s_tlp/m_tlp (vendor layer: host above, or device below)
//                 |
//     ROLE 0: pcie_ep (Type-0 config, BAR0 bridge, UR, BAR2 -> smfu_host)
//             + m_tlp merge (ep, completion records, backdoor, smfu_host)
//     ROLE 1: pcie_rp (Type-1 config, routing by ID, windows); s_up = merge
//             (backdoor, smfu_naa); m_up_req -> smfu_naa; m_up_cpl by tag
//                 |  BAR0 cpuif            ^ backdoor TX / v RX filter
//   nic_cpuif_arb (BAR0 bridge | RRA responder) -> extoll_regs (generated)
//                                          pcie_backdoor
//   nic_rra_req -> +-----------+           ^ inject    | forward (extract)
//   nic_rra_rsp -> | nic_net_tx|<----------|-----------+
//                  +-----------+           |
//                       v  local port 0    |
//   net_node (router + 7 link ports) --> nic_net_rx --> rsp / host_wr / inject
//                          local port 1: smfu_host (ROLE 0) / smfu_naa (ROLE 1)
//
// Interfaces: TLP streams per docs/tlp-interface.md; network links per
// docs/network.md (net_node phy ports, credits per VC); remote access per
// docs/remote-access.md. All synchronous to clk, reset rst (sync, high).

`default_nettype none

// Package items are referenced by qualified name (pcie_tlp_pkg::..., net_pkg::...):
// Yosys does not read package imports inside modules.

module extoll_nic
#(
    // ---------------- role ----------------
    parameter int          ROLE          = 0,           // 0 endpoint (host NIC), 1 root port (NAA NIC)

    // ---------------- PCI identity ----------------
    parameter logic [15:0] VENDOR_ID     = 16'h1ee7,    // placeholder, unassigned in pci.ids
    parameter logic [15:0] DEVICE_ID     = (ROLE == 1) ? 16'h0002 : 16'h0001,
    parameter logic [7:0]  REVISION      = 8'h00,       // PCI revision ID
    parameter logic [23:0] CLASS_CODE    = (ROLE == 1) ? 24'h060400 : 24'h028000, // bridge / network

    // ---------------- BAR sizes (endpoint role) ----------------
    parameter int          REG_BAR_LOG2  = 16,          // BAR0 size: 64 KiB (>= 12)
    parameter int          APERTURE_LOG2 = 28,          // BAR2 size: 256 MiB (12..31)

    // ---------------- RTL release and build identification ----------------
    parameter logic [15:0] RTL_MAJOR     = 16'd0,       // info.version.major
    parameter logic [15:0] RTL_MINOR     = 16'd1,       // info.version.minor
    parameter logic [15:0] RTL_PATCH     = 16'd0,       // info.version.patch
    parameter logic [31:0] BUILD_DATE    = 32'h0000_0000, // info.build.date, BCD 0xYYYYMMDD
    parameter logic [31:0] BUILD_COMMIT  = 32'h0000_0000, // info.build.commit, 8 hex digits

    // ---------------- network ----------------
    parameter logic [15:0] NODE_ID       = 16'd0,       // build-time node id, ORed with the cfg_node_id strap
                                                        // (keep 0 when the strap is used)
    parameter int          TBL_AW        = 6,           // routing table index bits (2**TBL_AW nodes)
    parameter int          LINK_BUF_DEPTH  = 64,        // flits per VC of a link inport buffer (>= 32)
    parameter int          LOCAL_BUF_DEPTH = 32,        // flits per VC of a local inport buffer (>= 3)

    // ---------------- implementation ----------------
    parameter int          BURST_DW      = 16           // longest BAR0 request in dwords (2..32)
) (
    // ---------------- clock and reset ----------------
    input  wire logic                  clk,            // NIC core clock
    input  wire logic                  rst,            // synchronous, active high

    // ---------------- straps ----------------
    input  wire logic [15:0]           cfg_node_id,    // this NIC's network node id (static, registered)
    input  wire logic [6:0]            cfg_dateline,   // links that cross a torus dateline (docs/network.md; static, registered)

    // ---------------- TLPs from the PCIe link (vendor layer -> NIC) ----------------
    // ROLE 0: from the host (root complex); ROLE 1: from the device below
    input  wire logic [127:0]          s_tlp_data,     // beat (pcie_tlp_pkg::TLP_DATA_W)
    input  wire logic [3:0]            s_tlp_keep,     // one bit per dword
    input  wire logic                  s_tlp_sop,
    input  wire logic                  s_tlp_eop,
    input  wire logic                  s_tlp_valid,
    output      logic                  s_tlp_ready,

    // ---------------- TLPs to the PCIe link (NIC -> vendor layer) ----------------
    output      logic [127:0]          m_tlp_data,     // beat (pcie_tlp_pkg::TLP_DATA_W)
    output      logic [3:0]            m_tlp_keep,     // one bit per dword
    output      logic                  m_tlp_sop,
    output      logic                  m_tlp_eop,
    output      logic                  m_tlp_valid,
    input  wire logic                  m_tlp_ready,

    // ---------------- PCIe side band ----------------
    output      logic                  intx,           // ROLE 0: INTA# level; ROLE 1: 0
    input  wire logic                  pcie_link_up,   // ROLE 1: downstream link up (ROLE 0: ignored)
    output      logic                  pcie_sec_reset, // ROLE 1: secondary bus reset (bridge control); ROLE 0: 0

    // ---------------- network links, outgoing (X+ X- Y+ Y- Z+ Z- spare) ----------------
    output      logic [6:0]            m_phy_valid,
    output      logic [6:0][127:0]     m_phy_data,
    output      logic [6:0]            m_phy_last,
    output      logic [6:0]            m_phy_vc,
    output      logic [6:0][31:0]      m_phy_crc,
    input  wire logic [6:0][1:0]       s_phy_credit,   // credit return from the far receiver, per VC

    // ---------------- network links, incoming ----------------
    input  wire logic [6:0]            s_phy_valid,
    input  wire logic [6:0][127:0]     s_phy_data,
    input  wire logic [6:0]            s_phy_last,
    input  wire logic [6:0]            s_phy_vc,
    input  wire logic [6:0][31:0]      s_phy_crc,
    output      logic [6:0][1:0]       m_phy_credit,   // credit return to the far sender, per VC

    // ---------------- status ----------------
    output      logic                  net_ovf         // sticky: a network buffer overran (must stay 0)
);

    localparam int NL            = net_pkg::NLINK;
    localparam int N_LOCAL       = 2;               // 0 RRA/backdoor, 1 SMFU/INTR
    localparam int LOCAL_CREDITS = 32;
    localparam logic [7:0] SMFU_TAG_BASE = 8'h80;   // MRd tags of the SMFU (0x80..0x8f): not used by
    localparam int         SMFU_TAGS     = 16;      // any other requester of the NIC (backdoor: 0xff)
    localparam int REG_ADDR_W    = extoll_regs_pkg::EXTOLL_REGS_MIN_ADDR_WIDTH;
    localparam int REG_MAP_BYTES = extoll_regs_pkg::EXTOLL_REGS_SIZE;  // beyond: BAR0 UR, RRA status 1

    // The straps are static (set before reset is released). One register stage
    // keeps them out of the combinational logic: a Verilated model must otherwise
    // re-evaluate the whole router (routing, allocation, crossbar) and the header
    // builders on every eval() because they depend on top-level inputs.
    logic [15:0] cfg_node_id_q;
    logic [6:0]  cfg_dateline_q;
    always_ff @(posedge clk) begin
        cfg_node_id_q  <= cfg_node_id;
        cfg_dateline_q <= cfg_dateline;
    end

    logic [15:0] node_id;
    assign node_id = cfg_node_id_q | NODE_ID;

    // ------------------------------------------------------------------
    // Register file and its cpuif arbiter (0 BAR0 bridge, 1 RRA responder)
    // ------------------------------------------------------------------
    logic                        ep_req, ep_req_is_wr;
    logic [REG_ADDR_W-1:0]       ep_addr;
    logic [63:0]                 ep_wr_data, ep_wr_biten;
    logic                        rr_req, rr_req_is_wr;
    logic [REG_ADDR_W-1:0]       rr_addr;
    logic [63:0]                 rr_wr_data, rr_wr_biten;

    logic [1:0]                  a_stall, a_rd_ack, a_rd_err, a_wr_ack, a_wr_err;
    logic [63:0]                 a_rd_data;

    logic                        cpuif_req, cpuif_req_is_wr;
    logic [REG_ADDR_W-1:0]       cpuif_addr;
    logic [63:0]                 cpuif_wr_data, cpuif_wr_biten;
    logic                        cpuif_req_stall_wr, cpuif_req_stall_rd;
    logic                        cpuif_rd_ack, cpuif_rd_err, cpuif_wr_ack, cpuif_wr_err;
    logic [63:0]                 cpuif_rd_data;

    nic_cpuif_arb #(.ADDR_W(REG_ADDR_W)) u_arb (
        .clk, .rst,
        .s_req       ({rr_req, ep_req}),
        .s_req_is_wr ({rr_req_is_wr, ep_req_is_wr}),
        .s_addr      ({rr_addr, ep_addr}),
        .s_wr_data   ({rr_wr_data, ep_wr_data}),
        .s_wr_biten  ({rr_wr_biten, ep_wr_biten}),
        .s_stall     (a_stall),
        .s_rd_ack    (a_rd_ack),
        .s_rd_err    (a_rd_err),
        .s_rd_data   (a_rd_data),
        .s_wr_ack    (a_wr_ack),
        .s_wr_err    (a_wr_err),
        .m_req       (cpuif_req),
        .m_req_is_wr (cpuif_req_is_wr),
        .m_addr      (cpuif_addr),
        .m_wr_data   (cpuif_wr_data),
        .m_wr_biten  (cpuif_wr_biten),
        .m_req_stall_wr (cpuif_req_stall_wr),
        .m_req_stall_rd (cpuif_req_stall_rd),
        .m_rd_ack    (cpuif_rd_ack),
        .m_rd_err    (cpuif_rd_err),
        .m_rd_data   (cpuif_rd_data),
        .m_wr_ack    (cpuif_wr_ack),
        .m_wr_err    (cpuif_wr_err)
    );

    extoll_regs_pkg::extoll_nic__in_t  hwif_in;
    // Not every register is used here: blocks whose units are not part of
    // this top yet (smfu, notify) only store what software writes.
    /* verilator lint_off UNUSEDSIGNAL */
    extoll_regs_pkg::extoll_nic__out_t hwif_out;
    /* verilator lint_on UNUSEDSIGNAL */

    extoll_regs u_regs (
        .clk, .rst,
        .s_cpuif_req          (cpuif_req),
        .s_cpuif_req_is_wr    (cpuif_req_is_wr),
        .s_cpuif_addr         (cpuif_addr),
        .s_cpuif_wr_data      (cpuif_wr_data),
        .s_cpuif_wr_biten     (cpuif_wr_biten),
        .s_cpuif_req_stall_wr (cpuif_req_stall_wr),
        .s_cpuif_req_stall_rd (cpuif_req_stall_rd),
        .s_cpuif_rd_ack       (cpuif_rd_ack),
        .s_cpuif_rd_err       (cpuif_rd_err),
        .s_cpuif_rd_data      (cpuif_rd_data),
        .s_cpuif_wr_ack       (cpuif_wr_ack),
        .s_cpuif_wr_err       (cpuif_wr_err),
        .hwif_in,
        .hwif_out
    );

    // ------------------------------------------------------------------
    // Backdoor (both roles): TX toward the PCIe side, RX filter on the
    // completions that come up from it (root port role)
    // ------------------------------------------------------------------
    logic [127:0] bd_tx_data;
    logic [3:0]   bd_tx_keep;
    logic         bd_tx_sop, bd_tx_eop, bd_tx_valid, bd_tx_ready;
    logic [127:0] bd_rx_data;
    logic [3:0]   bd_rx_keep;
    logic         bd_rx_sop, bd_rx_eop, bd_rx_valid, bd_rx_ready;
    logic [127:0] bd_pass_data;
    logic [3:0]   bd_pass_keep;
    logic         bd_pass_sop, bd_pass_eop, bd_pass_valid;

    logic         inj_valid, inj_ready;
    logic [127:0] inj_hdr;
    logic [63:0]  inj_data;
    logic [2:0]   inj_hdr_dw;
    logic [1:0]   inj_data_dw;

    logic         fwd_valid, fwd_ready;
    logic [127:0] fwd_hdr;
    logic [63:0]  fwd_data;
    logic [1:0]   fwd_data_dw;
    logic [15:0]  fwd_node;
    logic [63:0]  fwd_addr;

    logic         bd_rx_valid_st;
    logic [1:0]   bd_rx_data_dw;
    logic [15:0]  bd_rx_dropped;
    logic [63:0]  bd_rx_hdr0, bd_rx_hdr1, bd_rx_dat;
    logic         bd_ev_tx, bd_ev_tx_busy, bd_ev_rx_extract, bd_ev_rx_drop, bd_tx_busy;

    pcie_backdoor u_backdoor (
        .clk, .rst,
        .tx_hdr0    (hwif_out.backdoor.tx_hdr0.data.value),
        .tx_hdr1    (hwif_out.backdoor.tx_hdr1.data.value),
        .tx_data    (hwif_out.backdoor.tx_data.data.value),
        .tx_hdr_dw  (hwif_out.backdoor.tx_ctrl.hdr_dw.value),
        .tx_data_dw (hwif_out.backdoor.tx_ctrl.data_dw.value),
        .tx_send    (hwif_out.backdoor.tx_ctrl.send.value),
        .tx_busy    (bd_tx_busy),
        .s_inj_valid   (inj_valid),
        .s_inj_ready   (inj_ready),
        .s_inj_hdr     (inj_hdr),
        .s_inj_data    (inj_data),
        .s_inj_hdr_dw  (inj_hdr_dw),
        .s_inj_data_dw (inj_data_dw),
        .m_tx_data  (bd_tx_data),
        .m_tx_keep  (bd_tx_keep),
        .m_tx_sop   (bd_tx_sop),
        .m_tx_eop   (bd_tx_eop),
        .m_tx_valid (bd_tx_valid),
        .m_tx_ready (bd_tx_ready),
        .rx_filter_tag      (hwif_out.backdoor.rx_filter.tag.value),
        .rx_filter_enable   (hwif_out.backdoor.rx_filter.enable.value),
        .rx_filter_fwd      (hwif_out.backdoor.rx_filter.fwd.value),
        .rx_filter_fwd_node (hwif_out.backdoor.rx_filter.fwd_node.value),
        .rx_fwd_addr        (hwif_out.backdoor.rx_fwd_addr.addr.value),
        .s_rx_data  (bd_rx_data),
        .s_rx_keep  (bd_rx_keep),
        .s_rx_sop   (bd_rx_sop),
        .s_rx_eop   (bd_rx_eop),
        .s_rx_valid (bd_rx_valid),
        .s_rx_ready (bd_rx_ready),
        .m_rx_data  (bd_pass_data),
        .m_rx_keep  (bd_pass_keep),
        .m_rx_sop   (bd_pass_sop),
        .m_rx_eop   (bd_pass_eop),
        .m_rx_valid (bd_pass_valid),
        .m_rx_ready (1'b1),                // SMFU completions: not implemented yet, sunk
        .rx_valid   (bd_rx_valid_st),
        .rx_data_dw (bd_rx_data_dw),
        .rx_dropped (bd_rx_dropped),
        .rx_hdr0    (bd_rx_hdr0),
        .rx_hdr1    (bd_rx_hdr1),
        .rx_data    (bd_rx_dat),
        .rx_pop     (hwif_out.backdoor.rx_pop.pop.value),
        .m_fwd_valid   (fwd_valid),
        .m_fwd_ready   (fwd_ready),
        .m_fwd_hdr     (fwd_hdr),
        .m_fwd_data    (fwd_data),
        .m_fwd_data_dw (fwd_data_dw),
        .m_fwd_node    (fwd_node),
        .m_fwd_addr    (fwd_addr),
        .ev_tx         (bd_ev_tx),
        .ev_tx_busy    (bd_ev_tx_busy),
        .ev_rx_extract (bd_ev_rx_extract),
        .ev_rx_drop    (bd_ev_rx_drop)
    );

    // ------------------------------------------------------------------
    // Completion records toward the host (endpoint role)
    // ------------------------------------------------------------------
    logic         hw_valid, hw_ready;
    logic [127:0] pk_f0, pk_f1, pk_f2;
    logic [127:0] hw_tlp_data;
    logic [3:0]   hw_tlp_keep;
    logic         hw_tlp_sop, hw_tlp_eop, hw_tlp_valid, hw_tlp_ready;
    logic         ev_cmp_done, ev_cmp_drop;
    logic         ev_req_drop, ev_sent, ev_served;
    logic [15:0]  cpl_id;
    logic         bus_master;

    nic_host_wr u_host_wr (
        .clk, .rst,
        .enable     (ROLE == 0),
        .bus_master (bus_master),
        .req_id     (cpl_id),
        .s_valid    (hw_valid),
        .s_ready    (hw_ready),
        .s_f0       (pk_f0),
        .s_f1       (pk_f1),
        .s_f2       (pk_f2),
        .m_tlp_data (hw_tlp_data),
        .m_tlp_keep (hw_tlp_keep),
        .m_tlp_sop  (hw_tlp_sop),
        .m_tlp_eop  (hw_tlp_eop),
        .m_tlp_valid(hw_tlp_valid),
        .m_tlp_ready(hw_tlp_ready),
        .ev_done    (ev_cmp_done),
        .ev_drop    (ev_cmp_drop)
    );

    // ------------------------------------------------------------------
    // Router local ports (0 RRA/backdoor, 1 SMFU) and the SMFU's register
    // fields (docs/smfu.md): the unit of the role drives local port 1
    // ------------------------------------------------------------------
    logic [N_LOCAL-1:0]          loc_in_valid, loc_in_last, loc_in_vc;
    logic [N_LOCAL-1:0][127:0]   loc_in_data;
    logic [N_LOCAL-1:0][1:0]     loc_in_credit;
    logic [N_LOCAL-1:0]          loc_out_valid, loc_out_last, loc_out_vc;
    logic [N_LOCAL-1:0][127:0]   loc_out_data;
    logic [N_LOCAL-1:0][1:0]     loc_out_credit;

    localparam int NIVL = 16;                    // SMFU intervals (the register file has 16)
    logic [NIVL-1:0][63:0] sm_eg_start, sm_eg_end, sm_in_base;
    logic [NIVL-1:0]       sm_eg_valid;
    logic [NIVL-1:0][15:0] sm_eg_node;
    logic [31:0]           st_eg_hits, st_eg_misses, st_timeouts, st_up_reqs, st_in_reqs;
    logic [31:0]           st_nq_prod, st_nq_full_stalls, st_nq_events;
    logic                  irq_notify;

    // The register file has 16 named copies of each interval register
    // (eg_start0..eg_start15, ...), not arrays: a macro pastes the index so
    // each interval is one line.
`define EXTOLL_NIC_SMFU_IVL(i) \
        sm_eg_start[i] = hwif_out.smfu.eg_start``i.addr.value; \
        sm_eg_end[i]   = hwif_out.smfu.eg_end``i.addr.value; \
        sm_eg_valid[i] = hwif_out.smfu.eg_ctrl``i.valid.value; \
        sm_eg_node[i]  = hwif_out.smfu.eg_ctrl``i.node.value; \
        sm_in_base[i]  = hwif_out.smfu.in_base``i.addr.value;
    always_comb begin
        `EXTOLL_NIC_SMFU_IVL(0)  `EXTOLL_NIC_SMFU_IVL(1)  `EXTOLL_NIC_SMFU_IVL(2)  `EXTOLL_NIC_SMFU_IVL(3)
        `EXTOLL_NIC_SMFU_IVL(4)  `EXTOLL_NIC_SMFU_IVL(5)  `EXTOLL_NIC_SMFU_IVL(6)  `EXTOLL_NIC_SMFU_IVL(7)
        `EXTOLL_NIC_SMFU_IVL(8)  `EXTOLL_NIC_SMFU_IVL(9)  `EXTOLL_NIC_SMFU_IVL(10) `EXTOLL_NIC_SMFU_IVL(11)
        `EXTOLL_NIC_SMFU_IVL(12) `EXTOLL_NIC_SMFU_IVL(13) `EXTOLL_NIC_SMFU_IVL(14) `EXTOLL_NIC_SMFU_IVL(15)
    end
`undef EXTOLL_NIC_SMFU_IVL

    // ------------------------------------------------------------------
    // PCIe side
    // ------------------------------------------------------------------
    logic mem_en, intx_disable;
    logic ev_rx_tlp, ev_tx_tlp, ev_ur, ev_drop, ev_aperture;
    logic irq_pending;

    if (ROLE == 0) begin : g_ep
        // endpoint: pcie_ep; m_tlp = merge of its completions, the completion
        // records, the backdoor TX (raw TLPs toward the host) and the SMFU
        // (aperture read completions, pass-through MWr/MRd, notification
        // entries: one source, so its TLPs keep their order)
        localparam int NM = 4;
        logic              ep_ev_tx_tlp;             // counted after the merge instead
        logic [NM*128-1:0] mg_data;
        logic [NM*4-1:0]   mg_keep;
        logic [NM-1:0]     mg_sop, mg_eop, mg_valid, mg_ready;
        logic [127:0]      ap_data, scpl_data;
        logic [3:0]        ap_keep, scpl_keep;
        logic              ap_sop, ap_eop, ap_valid, ap_ready;
        logic              scpl_sop, scpl_eop, scpl_valid, scpl_ready;
        logic [31:0]       sm_drops;

        pcie_ep #(
            .VENDOR_ID     (VENDOR_ID),
            .DEVICE_ID     (DEVICE_ID),
            .REVISION      (REVISION),
            .CLASS_CODE    (CLASS_CODE),
            .REG_BAR_LOG2  (REG_BAR_LOG2),
            .APERTURE_LOG2 (APERTURE_LOG2),
            .REG_MAP_BYTES (REG_MAP_BYTES),
            .REG_ADDR_W    (REG_ADDR_W),
            .BURST_DW      (BURST_DW),
            .SMFU          (1'b1),
            .CPL_TAG_BASE  (SMFU_TAG_BASE),
            .CPL_TAGS      (SMFU_TAGS)
        ) u_ep (
            .clk, .rst,
            .s_tlp_data, .s_tlp_keep, .s_tlp_sop, .s_tlp_eop, .s_tlp_valid, .s_tlp_ready,
            .m_tlp_data  (mg_data[0 +: 128]),
            .m_tlp_keep  (mg_keep[0 +: 4]),
            .m_tlp_sop   (mg_sop[0]),
            .m_tlp_eop   (mg_eop[0]),
            .m_tlp_valid (mg_valid[0]),
            .m_tlp_ready (mg_ready[0]),
            .ap_data, .ap_keep, .ap_sop, .ap_eop, .ap_valid, .ap_ready,
            .scpl_data, .scpl_keep, .scpl_sop, .scpl_eop, .scpl_valid, .scpl_ready,
            .cpuif_req       (ep_req),
            .cpuif_req_is_wr (ep_req_is_wr),
            .cpuif_addr      (ep_addr),
            .cpuif_wr_data   (ep_wr_data),
            .cpuif_wr_biten  (ep_wr_biten),
            .cpuif_req_stall_wr (a_stall[0]),
            .cpuif_req_stall_rd (a_stall[0]),
            .cpuif_rd_ack    (a_rd_ack[0]),
            .cpuif_rd_err    (a_rd_err[0]),
            .cpuif_rd_data   (a_rd_data),
            .cpuif_wr_ack    (a_wr_ack[0]),
            .cpuif_wr_err    (a_wr_err[0]),
            .irq_pending, .intx,
            .cpl_id, .mem_en, .bus_master, .intx_disable,
            .ev_rx_tlp,
            .ev_tx_tlp   (ep_ev_tx_tlp),
            .ev_ur, .ev_drop, .ev_aperture
        );

        assign mg_data[128 +: 128] = hw_tlp_data;
        assign mg_keep[4 +: 4]     = hw_tlp_keep;
        assign mg_sop[1]           = hw_tlp_sop;
        assign mg_eop[1]           = hw_tlp_eop;
        assign mg_valid[1]         = hw_tlp_valid;
        assign hw_tlp_ready        = mg_ready[1];

        assign mg_data[256 +: 128] = bd_tx_data;
        assign mg_keep[8 +: 4]     = bd_tx_keep;
        assign mg_sop[2]           = bd_tx_sop;
        assign mg_eop[2]           = bd_tx_eop;
        assign mg_valid[2]         = bd_tx_valid;
        assign bd_tx_ready         = mg_ready[2];

        smfu_host #(
            .NIVL            (NIVL),
            .TAG_BASE        (SMFU_TAG_BASE),
            .PT_TAGS         (SMFU_TAGS),
            .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
            .RX_DEPTH        (2 * LOCAL_CREDITS)
        ) u_smfu (
            .clk, .rst,
            .cfg_node_id      (node_id),
            .cfg_pcie_id      (cpl_id),
            .cfg_bus_master   (bus_master),
            .cfg_timeout      (hwif_out.smfu.ctrl.timeout.value),
            .cfg_eg_start     (sm_eg_start),
            .cfg_eg_end       (sm_eg_end),
            .cfg_eg_valid     (sm_eg_valid),
            .cfg_eg_node      (sm_eg_node),
            .cfg_nq_win_base  (hwif_out.notify.win_base.addr.value),
            .cfg_nq_win_size  (hwif_out.notify.win_size.size.value),
            .cfg_nq_ring_base (hwif_out.notify.ring_base.addr.value),
            .cfg_nq_enable    (hwif_out.notify.ring_ctrl.enable.value),
            .cfg_nq_log2      (hwif_out.notify.ring_ctrl.log2_entries.value),
            .cfg_nq_cons      (hwif_out.notify.cons.index.value),
            .s_ap_data  (ap_data),  .s_ap_keep (ap_keep),  .s_ap_sop (ap_sop),
            .s_ap_eop   (ap_eop),   .s_ap_valid (ap_valid), .s_ap_ready (ap_ready),
            .s_cpl_data (scpl_data), .s_cpl_keep (scpl_keep), .s_cpl_sop (scpl_sop),
            .s_cpl_eop  (scpl_eop),  .s_cpl_valid (scpl_valid), .s_cpl_ready (scpl_ready),
            .m_tlp_data  (mg_data[384 +: 128]),
            .m_tlp_keep  (mg_keep[12 +: 4]),
            .m_tlp_sop   (mg_sop[3]),
            .m_tlp_eop   (mg_eop[3]),
            .m_tlp_valid (mg_valid[3]),
            .m_tlp_ready (mg_ready[3]),
            .s_net_valid (loc_out_valid[1]),
            .s_net_data  (loc_out_data[1]),
            .s_net_last  (loc_out_last[1]),
            .s_net_vc    (loc_out_vc[1]),
            .m_net_credit(loc_out_credit[1]),
            .m_net_valid (loc_in_valid[1]),
            .m_net_data  (loc_in_data[1]),
            .m_net_last  (loc_in_last[1]),
            .m_net_vc    (loc_in_vc[1]),
            .s_net_credit(loc_in_credit[1]),
            .st_eg_hits, .st_eg_misses, .st_timeouts, .st_up_reqs,
            .st_nq_prod, .st_nq_full_stalls, .st_nq_events,
            .st_drops   (sm_drops),
            .irq_notify
        );
        assign st_in_reqs = '0;

        // the sources are registered or (SMFU) arbitrated registered streams:
        // the merge needs no output stage
        pcie_tlp_arb #(.N(NM), .DATA_W(128)) u_merge (
            .clk, .rst,
            .s_data (mg_data), .s_keep (mg_keep), .s_sop (mg_sop), .s_eop (mg_eop),
            .s_valid (mg_valid), .s_ready (mg_ready),
            .m_data (m_tlp_data), .m_keep (m_tlp_keep), .m_sop (m_tlp_sop), .m_eop (m_tlp_eop),
            .m_valid (m_tlp_valid), .m_ready (m_tlp_ready)
        );
        assign ev_tx_tlp = m_tlp_valid && m_tlp_ready && m_tlp_sop;

        // no completions come up to the backdoor in this role (the NIC issues only MWr)
        assign bd_rx_data     = '0;
        assign bd_rx_keep     = '0;
        assign bd_rx_sop      = 1'b0;
        assign bd_rx_eop      = 1'b0;
        assign bd_rx_valid    = 1'b0;
        assign pcie_sec_reset = 1'b0;

        logic unused_ep;
        assign unused_ep = ^{bd_rx_ready, pcie_link_up, ep_ev_tx_tlp, sm_drops, sm_in_base};
    end else begin : g_rp
        // root port: s_tlp/m_tlp are the downstream link; the backdoor TX is
        // the upstream request source, its RX filter sees the completions
        logic [127:0] req_data;
        logic [3:0]   req_keep;
        logic         req_sop, req_eop, req_valid;
        logic [7:0]   pri_bus, sec_bus, sub_bus;
        logic         msi_en;
        logic [63:0]  msi_addr;
        logic [15:0]  msi_data;
        logic         ev_up_rx, ev_up_cfg, ev_up_fwd, ev_up_ur, ev_up_drop;
        logic         ev_dn_rx, ev_dn_cpl, ev_dn_req, ev_dn_ur, ev_dn_drop, ev_dn_tx;

        // upstream side: s_up = merge of the backdoor TX and the SMFU (ingress
        // MRd/MWr toward the device, completions for the device's pass-through
        // reads); m_up_cpl split by tag: the SMFU's tags -> smfu_naa, the
        // rest -> backdoor RX filter; m_up_req -> smfu_naa pass-through
        logic [127:0] up_data, cpl_data, dm_data;
        logic [3:0]   up_keep, cpl_keep, dm_keep;
        logic         up_sop, up_eop, up_valid, up_ready;
        logic         cpl_sop, cpl_eop, cpl_valid, cpl_ready;
        logic         dm_sop, dm_eop, dm_valid, dm_ready;
        logic         req_ready;
        logic         sc_valid, sc_ready;
        logic [31:0]  sm_drops;

        pcie_tlp_arb #(.N(2), .DATA_W(128)) u_up_merge (
            .clk, .rst,
            .s_data  ({dm_data, bd_tx_data}),
            .s_keep  ({dm_keep, bd_tx_keep}),
            .s_sop   ({dm_sop, bd_tx_sop}),
            .s_eop   ({dm_eop, bd_tx_eop}),
            .s_valid ({dm_valid, bd_tx_valid}),
            .s_ready ({dm_ready, bd_tx_ready}),
            .m_data  (up_data), .m_keep (up_keep), .m_sop (up_sop), .m_eop (up_eop),
            .m_valid (up_valid), .m_ready (up_ready)
        );

        // completion demux, decided at the sop beat and held to eop. A
        // completion for the SMFU waits at its sop while a device request is
        // pending on m_up_req: the device's earlier posted writes (DMA, MSI)
        // enter the pass-through path first and, one packet stream in order,
        // reach the host before the completion (docs/smfu.md "Ordering").
        logic cpl_in_q, cpl_smfu_q, cpl_smfu, cpl_hold;
        assign cpl_smfu = cpl_in_q ? cpl_smfu_q :
                          ((cpl_data[79:72] & ~8'(SMFU_TAGS - 1)) == SMFU_TAG_BASE);
        assign cpl_hold = !cpl_in_q && cpl_smfu && req_valid;
        always_ff @(posedge clk) begin
            if (rst) begin
                cpl_in_q   <= 1'b0;
                cpl_smfu_q <= 1'b0;
            end else if (cpl_valid && cpl_ready) begin
                cpl_in_q   <= !cpl_eop;
                cpl_smfu_q <= cpl_smfu;
            end
        end
        assign bd_rx_data  = cpl_data;
        assign bd_rx_keep  = cpl_keep;
        assign bd_rx_sop   = cpl_sop;
        assign bd_rx_eop   = cpl_eop;
        assign bd_rx_valid = cpl_valid && !cpl_smfu;
        assign sc_valid    = cpl_valid && cpl_smfu && !cpl_hold;
        assign cpl_ready   = cpl_smfu ? (sc_ready && !cpl_hold) : bd_rx_ready;

        pcie_rp #(
            .VENDOR_ID  (VENDOR_ID),
            .DEVICE_ID  (DEVICE_ID),
            .REVISION   (REVISION),
            .CLASS_CODE (CLASS_CODE)
        ) u_rp (
            .clk, .rst,
            .s_up_data  (up_data),
            .s_up_keep  (up_keep),
            .s_up_sop   (up_sop),
            .s_up_eop   (up_eop),
            .s_up_valid (up_valid),
            .s_up_ready (up_ready),
            .m_up_cpl_data  (cpl_data),
            .m_up_cpl_keep  (cpl_keep),
            .m_up_cpl_sop   (cpl_sop),
            .m_up_cpl_eop   (cpl_eop),
            .m_up_cpl_valid (cpl_valid),
            .m_up_cpl_ready (cpl_ready),
            .m_up_req_data  (req_data),
            .m_up_req_keep  (req_keep),
            .m_up_req_sop   (req_sop),
            .m_up_req_eop   (req_eop),
            .m_up_req_valid (req_valid),
            .m_up_req_ready (req_ready),
            .s_dn_data  (s_tlp_data),
            .s_dn_keep  (s_tlp_keep),
            .s_dn_sop   (s_tlp_sop),
            .s_dn_eop   (s_tlp_eop),
            .s_dn_valid (s_tlp_valid),
            .s_dn_ready (s_tlp_ready),
            .m_dn_data  (m_tlp_data),
            .m_dn_keep  (m_tlp_keep),
            .m_dn_sop   (m_tlp_sop),
            .m_dn_eop   (m_tlp_eop),
            .m_dn_valid (m_tlp_valid),
            .m_dn_ready (m_tlp_ready),
            .link_up    (pcie_link_up),
            .cpl_id, .mem_en, .bus_master, .pri_bus, .sec_bus, .sub_bus,
            .sec_reset  (pcie_sec_reset),
            .msi_en, .msi_addr, .msi_data,
            .ev_up_rx, .ev_up_cfg, .ev_up_fwd, .ev_up_ur, .ev_up_drop,
            .ev_dn_rx, .ev_dn_cpl, .ev_dn_req, .ev_dn_ur, .ev_dn_drop, .ev_dn_tx
        );

        smfu_naa #(
            .NIVL            (NIVL),
            .TAG_BASE        (SMFU_TAG_BASE),
            .IN_TAGS         (SMFU_TAGS),
            .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
            .RX_DEPTH        (2 * LOCAL_CREDITS)
        ) u_smfu (
            .clk, .rst,
            .cfg_node_id  (node_id),
            .cfg_rp_id    (cpl_id),
            .cfg_passthru (hwif_out.smfu.ctrl.passthru.value),
            .cfg_up_node  (hwif_out.smfu.ctrl.up_node.value),
            .cfg_in_base  (sm_in_base),
            .s_dev_req_data (req_data), .s_dev_req_keep (req_keep), .s_dev_req_sop (req_sop),
            .s_dev_req_eop  (req_eop),  .s_dev_req_valid (req_valid), .s_dev_req_ready (req_ready),
            .s_dev_cpl_data (cpl_data), .s_dev_cpl_keep (cpl_keep), .s_dev_cpl_sop (cpl_sop),
            .s_dev_cpl_eop  (cpl_eop),  .s_dev_cpl_valid (sc_valid), .s_dev_cpl_ready (sc_ready),
            .m_dev_data (dm_data), .m_dev_keep (dm_keep), .m_dev_sop (dm_sop),
            .m_dev_eop  (dm_eop),  .m_dev_valid (dm_valid), .m_dev_ready (dm_ready),
            .s_net_valid (loc_out_valid[1]),
            .s_net_data  (loc_out_data[1]),
            .s_net_last  (loc_out_last[1]),
            .s_net_vc    (loc_out_vc[1]),
            .m_net_credit(loc_out_credit[1]),
            .m_net_valid (loc_in_valid[1]),
            .m_net_data  (loc_in_data[1]),
            .m_net_last  (loc_in_last[1]),
            .m_net_vc    (loc_in_vc[1]),
            .s_net_credit(loc_in_credit[1]),
            .st_in_reqs, .st_up_reqs,
            .st_drops     (sm_drops)
        );
        assign st_eg_hits        = '0;
        assign st_eg_misses      = '0;
        assign st_timeouts       = '0;
        assign st_nq_prod        = '0;
        assign st_nq_full_stalls = '0;
        assign st_nq_events      = '0;
        assign irq_notify        = 1'b0;

        assign ev_rx_tlp    = ev_dn_rx;
        assign ev_tx_tlp    = ev_dn_tx;
        assign ev_ur        = ev_up_ur || ev_dn_ur;
        // also counted as drops: completions the backdoor does not extract
        assign ev_drop      = ev_up_drop || ev_dn_drop || (bd_pass_valid && bd_pass_sop);
        assign ev_aperture  = 1'b0;
        assign intx_disable = 1'b0;
        assign intx         = 1'b0;

        // the root port has no BAR0 master; the completion records have no host
        assign ep_req       = 1'b0;
        assign ep_req_is_wr = 1'b0;
        assign ep_addr      = '0;
        assign ep_wr_data   = '0;
        assign ep_wr_biten  = '0;
        assign hw_tlp_ready = 1'b1;

        logic unused_rp;
        assign unused_rp = ^{sm_drops, sm_eg_start, sm_eg_end, sm_eg_valid, sm_eg_node, pri_bus, sec_bus,
                             sub_bus, msi_en, msi_addr, msi_data, ev_up_rx, ev_up_cfg, ev_up_fwd,
                             ev_dn_cpl, ev_dn_req, irq_pending, hw_tlp_data, hw_tlp_keep,
                             hw_tlp_sop, hw_tlp_eop, hw_tlp_valid, a_stall[0], a_rd_ack[0],
                             a_rd_err[0], a_wr_ack[0], a_wr_err[0]};
    end

    // ------------------------------------------------------------------
    // Network: net_node, local port 0 = RRA / backdoor unit, 1 = SMFU/INTR
    // ------------------------------------------------------------------

    logic                 tbl_we;
    logic [TBL_AW+3:0]    tbl_addr;
    logic [5:0]           tbl_wdata, tbl_rdata;
    logic [NL-1:0][31:0]  crc_err_cnt, rx_pkt_cnt, tx_pkt_cnt;
    logic [31:0]          noroute_cnt;
    logic                 node_ovf, rx_ovf;

    net_node #(
        .N_LOCAL         (N_LOCAL),
        .LINK_BUF_DEPTH  (LINK_BUF_DEPTH),
        .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
        .TBL_AW          (TBL_AW),
        .LOCAL_CREDITS   (LOCAL_CREDITS)
    ) u_net (
        .clk, .rst,
        .cfg_dateline(cfg_dateline_q),
        .s_tbl_we    (tbl_we),
        .s_tbl_addr  (tbl_addr),
        .s_tbl_wdata (tbl_wdata),
        .s_tbl_raddr (tbl_addr),
        .m_tbl_rdata (tbl_rdata),
        .m_phy_valid, .m_phy_data, .m_phy_last, .m_phy_vc, .m_phy_crc, .s_phy_credit,
        .s_phy_valid, .s_phy_data, .s_phy_last, .s_phy_vc, .s_phy_crc, .m_phy_credit,
        .s_loc_valid  (loc_in_valid),
        .s_loc_data   (loc_in_data),
        .s_loc_last   (loc_in_last),
        .s_loc_vc     (loc_in_vc),
        .m_loc_credit (loc_in_credit),
        .m_loc_valid  (loc_out_valid),
        .m_loc_data   (loc_out_data),
        .m_loc_last   (loc_out_last),
        .m_loc_vc     (loc_out_vc),
        .s_loc_credit (loc_out_credit),
        .m_crc_err_cnt (crc_err_cnt),
        .m_rx_pkt_cnt  (rx_pkt_cnt),
        .m_tx_pkt_cnt  (tx_pkt_cnt),
        .m_noroute_cnt (noroute_cnt),
        .m_ovf         (node_ovf)
    );

    // ---- local port 1 (SMFU / INTR): driven by smfu_host / smfu_naa above

    // ---- local port 0: receive, dispatch
    logic pk_valid, pk_ready;
    nic_net_rx #(.LOCAL_CREDITS(LOCAL_CREDITS)) u_rx (
        .clk, .rst,
        .s_valid  (loc_out_valid[0]),
        .s_data   (loc_out_data[0]),
        .s_last   (loc_out_last[0]),
        .s_vc     (loc_out_vc[0]),
        .m_credit (loc_out_credit[0]),
        .m_valid  (pk_valid),
        .m_ready  (pk_ready),
        .m_f0     (pk_f0),
        .m_f1     (pk_f1),
        .m_f2     (pk_f2),
        .m_ovf    (rx_ovf)
    );

    net_pkg::net_hdr_t pk_h;
    logic              pk_to_rsp, pk_to_hw, pk_to_inj;
    logic              rsp_in_ready;
    assign pk_h      = net_pkg::net_hdr_t'(pk_f0);
    assign pk_to_rsp = (pk_h.ptype == net_pkg::NET_TYPE_RRA_RD) || (pk_h.ptype == net_pkg::NET_TYPE_RRA_WR);
    assign pk_to_hw  = (pk_h.ptype == net_pkg::NET_TYPE_RRA_RSP) ||
                       (pk_h.ptype == net_pkg::NET_TYPE_TLP_RAW && pk_h.cmd[16]);
    assign pk_to_inj = (pk_h.ptype == net_pkg::NET_TYPE_TLP_RAW && !pk_h.cmd[16]);
    assign pk_ready  = pk_to_rsp ? rsp_in_ready :
                       pk_to_hw  ? hw_ready :
                       pk_to_inj ? inj_ready : 1'b1;          // other types: discarded
    assign hw_valid  = pk_valid && pk_to_hw;

    // TLP_RAW inject -> backdoor inject slot, exactly as sent
    assign inj_valid   = pk_valid && pk_to_inj;
    assign inj_hdr     = pk_f1;
    assign inj_data    = pk_f2[63:0];
    assign inj_hdr_dw  = pk_f1[29] ? 3'd4 : 3'd3;             // Fmt bit 0: 4-DW header
    assign inj_data_dw = pk_h.cmd[18:17];

    // seq of the last injected TLP: echoed in the forwarded completion
    logic [15:0] inj_seq_q;
    always_ff @(posedge clk) begin
        if (rst) inj_seq_q <= '0;
        else if (inj_valid && inj_ready) inj_seq_q <= pk_h.cmd[15:0];
    end

    // ---- transmit sources: 0 RRA responses, 1 forwarded completions, 2 requests
    localparam int NTX = 3;
    logic [NTX-1:0]         tx_valid, tx_ready;
    logic [NTX-1:0][1:0]    tx_nflit;
    logic [NTX-1:0][127:0]  tx_f0, tx_f1, tx_f2;

    nic_rra_rsp #(.ADDR_W(REG_ADDR_W), .REGS_BYTES(REG_MAP_BYTES)) u_rsp (
        .clk, .rst,
        .my_node         (node_id),
        .s_valid         (pk_valid && pk_to_rsp),
        .s_ready         (rsp_in_ready),
        .s_f0            (pk_f0),
        .s_f1            (pk_f1),
        .cpuif_req       (rr_req),
        .cpuif_req_is_wr (rr_req_is_wr),
        .cpuif_addr      (rr_addr),
        .cpuif_wr_data   (rr_wr_data),
        .cpuif_wr_biten  (rr_wr_biten),
        .cpuif_stall     (a_stall[1]),
        .cpuif_rd_ack    (a_rd_ack[1]),
        .cpuif_rd_err    (a_rd_err[1]),
        .cpuif_rd_data   (a_rd_data),
        .cpuif_wr_ack    (a_wr_ack[1]),
        .cpuif_wr_err    (a_wr_err[1]),
        .m_valid         (tx_valid[0]),
        .m_ready         (tx_ready[0]),
        .m_nflit         (tx_nflit[0]),
        .m_f0            (tx_f0[0]),
        .m_f1            (tx_f1[0]),
        .ev_served       (ev_served)
    );
    assign tx_f2[0] = '0;

    // forwarded completion -> TLP_RAW extract to fwd_node, record at fwd_addr
    net_pkg::net_hdr_t fx_h;
    always_comb begin
        fx_h       = '0;
        fx_h.dst   = fwd_node;
        fx_h.src   = node_id;
        fx_h.ptype = net_pkg::NET_TYPE_TLP_RAW;
        fx_h.rmode = net_pkg::NET_RMODE_TABLE;
        fx_h.plen  = (fwd_data_dw == 2'd0) ? 5'd1 : 5'd2;
        fx_h.cmd   = {fwd_addr[47:4], 1'b0, fwd_data_dw, 1'b1, inj_seq_q};
    end
    assign tx_valid[1] = fwd_valid;
    assign fwd_ready   = tx_ready[1];
    assign tx_nflit[1] = (fwd_data_dw == 2'd0) ? 2'd2 : 2'd3;
    assign tx_f0[1]    = fx_h;
    assign tx_f1[1]    = fwd_hdr;
    assign tx_f2[1]    = {64'd0, fwd_data};

    // requester: launch on the write of rra.req.seq, with the value being written
    logic [63:0] req_new;
    assign req_new = (cpuif_wr_data & cpuif_wr_biten) |
                     ({hwif_out.rra.req.seq.value, 2'b00, hwif_out.rra.req.tlp_len.value,
                       hwif_out.rra.req.srcroute.value, hwif_out.rra.req.op.value,
                       hwif_out.rra.req.addr.value, hwif_out.rra.req.node.value} & ~cpuif_wr_biten);

    nic_rra_req u_req (
        .clk, .rst,
        .enable   (ROLE == 0),
        .my_node  (node_id),
        .launch   (hwif_out.rra.req.seq.swmod),
        .req      (req_new),
        .wdata    (hwif_out.rra.wdata.data.value),
        .tlp_hdr0 (hwif_out.rra.tlp_hdr0.data.value),
        .tlp_hdr1 (hwif_out.rra.tlp_hdr1.data.value),
        .route    (hwif_out.rra.route.hops.value),
        .cmp_addr (hwif_out.rra.cmp_addr.addr.value),
        .m_valid  (tx_valid[2]),
        .m_ready  (tx_ready[2]),
        .m_nflit  (tx_nflit[2]),
        .m_f0     (tx_f0[2]),
        .m_f1     (tx_f1[2]),
        .m_f2     (tx_f2[2]),
        .ev_sent  (ev_sent),
        .ev_drop  (ev_req_drop)
    );

    nic_net_tx #(.N(NTX), .LOCAL_BUF_DEPTH(LOCAL_BUF_DEPTH)) u_tx (
        .clk, .rst,
        .s_valid  (tx_valid),
        .s_ready  (tx_ready),
        .s_nflit  (tx_nflit),
        .s_f0     (tx_f0),
        .s_f1     (tx_f1),
        .s_f2     (tx_f2),
        .m_valid  (loc_in_valid[0]),
        .m_data   (loc_in_data[0]),
        .m_last   (loc_in_last[0]),
        .m_vc     (loc_in_vc[0]),
        .s_credit (loc_in_credit[0])
    );

    // ------------------------------------------------------------------
    // Router registers: table writes (rt_entry.commit, applied the cycle
    // after the write, when the new field values are visible), counters
    // ------------------------------------------------------------------
    logic commit_q;
    always_ff @(posedge clk) begin
        if (rst) commit_q <= 1'b0;
        else     commit_q <= hwif_out.router.rt_entry.commit.swmod;
    end
    assign tbl_we    = commit_q;
    assign tbl_addr  = {hwif_out.router.rt_entry.inport.value,
                        hwif_out.router.rt_entry.dest.value[TBL_AW-1:0]};
    assign tbl_wdata = {hwif_out.router.rt_entry.valid.value,
                        hwif_out.router.rt_entry.vcrule.value,
                        hwif_out.router.rt_entry.outport.value[2:0]};

    logic [31:0]   crc_sum;
    logic [NL-1:0] link_up_q;
    always_comb begin
        crc_sum = '0;
        for (int l = 0; l < NL; l++) crc_sum = crc_sum + crc_err_cnt[l];
    end
    always_ff @(posedge clk) begin
        if (rst) begin
            link_up_q <= '0;
        end else begin
            for (int l = 0; l < NL; l++) begin
                if (|s_phy_credit[l] || s_phy_valid[l]) link_up_q[l] <= 1'b1;
            end
        end
    end

    assign net_ovf = node_ovf || rx_ovf;

    // ------------------------------------------------------------------
    // Hardware side of the registers
    // ------------------------------------------------------------------
    logic [63:0] cycles_q;

    always_ff @(posedge clk) begin
        if (rst) begin
            cycles_q <= 64'd0;
        end else begin
            cycles_q <= cycles_q + 64'd1;
        end
    end

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
        hwif_in.info.cycles.count.next        = cycles_q;
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
        // rra: counters (sent and served are driven by the units above)
        hwif_in.rra.sent.count.incr           = ev_sent;
        hwif_in.rra.served.count.incr         = ev_served;
        hwif_in.rra.completed.count.incr      = ev_cmp_done;
        hwif_in.rra.dropped.count.incr        = ev_req_drop || ev_cmp_drop;
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
        hwif_in.router.link_status.up.next    = link_up_q;
    end

    // Interrupt: any enabled cause pending (masked by INTx disable in pcie_ep).
    assign irq_pending = |{hwif_out.info.irq_status.test.value & hwif_out.info.irq_enable.test.value,
                           hwif_out.info.irq_status.notify.value & hwif_out.info.irq_enable.notify.value};

    logic unused;
    assign unused = ^{fwd_addr[63:48], fwd_addr[3:0], pk_h.cmd[63:19], pk_h.cmd[15:0], pk_h[63:36], pk_h[31:0],
                      tbl_rdata, rx_pkt_cnt, tx_pkt_cnt, bd_pass_data, bd_pass_keep, bd_pass_sop,
                      bd_pass_eop, bd_pass_valid, bd_tx_busy, bd_ev_tx, bd_ev_tx_busy,
                      bd_ev_rx_extract, bd_ev_rx_drop, hwif_out.router.rt_entry.commit.value,
                      hwif_out.router.rt_entry.outport.value[3],
                      hwif_out.router.rt_entry.dest.value[15:TBL_AW],
                      hwif_out.rra.route.hops.value[63:21]};

endmodule

`default_nettype wire
