// SPDX-License-Identifier: Apache-2.0
//
// extoll_nic: top of the EXTOLL-style NIC, in either role (docs/nic.md):
//   ROLE 0  endpoint: the NIC of a booster interface host (PCI ID 1ee7:0001)
//   ROLE 1  root port: the NIC of a network-attached accelerator node (NAA,
//           1ee7:0002); its PCIe side is a root port toward the device below
//
// Wiring only: nic_core (what both roles share) and, chosen by ROLE, the
// PCIe side of the role. Both side modules have the same port list.
//
//            s_tlp/m_tlp (vendor layer: host above, or device below)
//                 |
//     ROLE 0: nic_ep_side: pcie_ep (Type-0 config, BAR0 bridge, UR, BAR2 ->
//             smfu_host) + m_tlp merge (ep, completion records, backdoor,
//             smfu_host)
//     ROLE 1: nic_rp_side: pcie_rp (Type-1 config, routing by ID, windows);
//             s_up = merge (backdoor, smfu_naa); m_up_req -> smfu_naa;
//             m_up_cpl split by tag (nic_cpl_split): smfu_naa / backdoor RX
//                 |  BAR0 cpuif     ^ backdoor TX / v RX filter, records, l1_*
//     nic_core: nic_cpuif_arb (BAR0 bridge | RRA responder) -> extoll_regs
//               (generated), pcie_backdoor, nic_reg_hw,
//               net_node (router + 7 link ports)
//                 local port 0: nic_rra_unit (RRA, TLP_RAW, completion records)
//                 local port 1: smfu_host (ROLE 0) / smfu_naa (ROLE 1)
//
// Interfaces: TLP streams per docs/tlp-interface.md; network links per
// docs/network.md (net_node phy ports, credits per VC); remote access per
// docs/remote-access.md. All synchronous to clk.
//
// Resets (synchronous, high; docs/network.md "Reset domains"): rst resets the
// whole node; fn_rst (a PCIe hot reset, a host reboot: tie to 0 where the
// harness has one reset) only the NIC function: the PCIe side, the register
// file, the units on the router's local ports. The network (router, routing
// tables, node id / dateline in use, link layer) keeps running and carrying
// other nodes' packets; nic_core's nic_net_fence holds the function in reset
// until its boundary with the network is clean.

`default_nettype none
`include "tlp_stream.svh"
`include "net_local_port.svh"
`include "nic_ports.svh"

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
  parameter int          APERTURE_LOG2 = 28,          // BAR2 size: 256 MiB (12..31; APERTURE_64: ..47)
  parameter bit          APERTURE_64   = 1'b0,        // BAR2/3: 64-bit prefetchable (docs/nic.md)

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
  parameter int          LINK_BUF_DEPTH  = 64,        // flits per VC of a link inport buffer (>= 32; 4 VCs; 64: a 256-B stream is not credit bound)
  parameter int          LOCAL_BUF_DEPTH = 32,        // flits per VC of a local inport buffer (>= 3)

  // ---------------- implementation ----------------
  parameter int          BURST_DW      = 16           // longest BAR0 request in dwords (2..32)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,            // NIC core clock
  input  wire logic                  rst,            // the node's reset (network and function), sync, high
  input  wire logic                  fn_rst,         // the function's reset only (PCIe hot reset), sync, high

  // ---------------- straps ----------------
  input  wire logic [15:0]           cfg_node_id,    // this NIC's network node id (static, registered)
  input  wire logic [6:0]            cfg_dateline,   // links that cross a torus dateline (docs/network.md; static, registered)

  // ---------------- TLPs from the PCIe link (vendor layer -> NIC) ----------------
  // ROLE 0: from the host (root complex); ROLE 1: from the device below
  // s_tlp_data: beat (pcie_tlp_pkg::TLP_DATA_W)
  `TLP_S_PORTS(s_tlp),

  // ---------------- TLPs to the PCIe link (NIC -> vendor layer) ----------------
  // m_tlp_data: beat (pcie_tlp_pkg::TLP_DATA_W)
  `TLP_M_PORTS(m_tlp),

  // ---------------- PCIe side band ----------------
  output      logic                  intx,           // ROLE 0: INTA# level; ROLE 1: 0
  input  wire logic                  pcie_link_up,   // ROLE 1: downstream link up (ROLE 0: ignored)
  output      logic                  pcie_sec_reset, // ROLE 1: secondary bus reset (bridge control); ROLE 0: 0

  // ---------------- network links (net_local_port.svh: NET_PHY_PORTS) ----------------
  `NET_PHY_PORTS(7),

  // ---------------- configuration flash and boot identity (nic_ports.svh: NIC_FLASH_PORTS) ----------------
  // flash_*: SPI x1 pins of the configuration flash; reload_req/addr: on a board
  // ICAPE3 IPROG from reload_addr, in simulation the harness reloads the node;
  // boot_*: identity straps (boot_slot 0: the build-time parameters, info.build
  // ORed with boot_build: the co-simulation's run-time build id)
  `NIC_FLASH_PORTS(output, input wire),

  // ---------------- status ----------------
  output      logic                  net_ovf         // sticky: a network buffer overran (must stay 0)
);

  localparam int         LOCAL_CREDITS = 32;
  localparam logic [7:0] SMFU_TAG_BASE = 8'h80;   // MRd tags of the SMFU (0x80..0x8f): not used by
  localparam int         SMFU_TAGS     = 16;      // any other requester of the NIC (backdoor: 0xff)
  localparam int         NIVL          = 16;      // SMFU intervals (the register file has 16)
  localparam int         REG_ADDR_W    = extoll_regs_pkg::EXTOLL_REGS_MIN_ADDR_WIDTH;
  localparam int         REG_MAP_BYTES = extoll_regs_pkg::EXTOLL_REGS_SIZE;  // beyond: BAR0 UR, RRA status 1

  // ------------------------------------------------------------------
  // Between nic_core and the side (names = port names of both)
  // ------------------------------------------------------------------
  logic [15:0]           node_id;
  logic                  f_rst;          // the function's reset (nic_core: rst | fn_rst, held until clean)
  // BAR0 cpuif
  logic                  bar_req, bar_req_is_wr;
  logic [REG_ADDR_W-1:0] bar_addr;
  logic [63:0]           bar_wr_data, bar_wr_biten, bar_rd_data;
  logic                  bar_stall, bar_rd_ack, bar_rd_err, bar_wr_ack, bar_wr_err;
  // backdoor TX, RX, not extracted; completion records
  logic [127:0]          bd_tx_data, bd_rx_data, rec_tlp_data;
  logic [3:0]            bd_tx_keep, bd_rx_keep, rec_tlp_keep;
  logic                  bd_tx_sop, bd_tx_eop, bd_tx_valid, bd_tx_ready;
  logic                  bd_rx_sop, bd_rx_eop, bd_rx_valid, bd_rx_ready;
  logic                  bd_pass_valid, bd_pass_sop;
  logic                  rec_tlp_sop, rec_tlp_eop, rec_tlp_valid, rec_tlp_ready;
  // PCIe state and events
  logic [15:0]           cpl_id;
  logic                  mem_en, bus_master, intx_disable, irq_pending;
  logic                  ev_rx_tlp, ev_tx_tlp, ev_ur, ev_drop, ev_aperture;
  logic [5:0]            pcie_ev;
  logic [2:0]            pcie_st;
  logic [63:0]           msix_addr;
  logic [31:0]           msix_data;
  logic                  msix_mask;
  // SMFU / notify configuration and status
  logic [15:0]           sm_timeout, sm_up_node;
  logic                  sm_passthru;
  logic [NIVL-1:0][63:0] sm_eg_start, sm_eg_end, sm_in_base;
  logic [NIVL-1:0]       sm_eg_valid;
  logic [NIVL-1:0][15:0] sm_eg_node;
  logic [63:0]           nq_win_base, nq_win_size, nq_ring_base;
  logic                  nq_enable;
  logic [3:0]            nq_log2;
  logic [31:0]           nq_cons;
  logic                  rma_win_en;
  logic [63:0]           rma_win_base;
  logic                  dma_enforce;
  logic [7:0][51:0]      dma_base, dma_limit;
  logic [7:0][1:0]       dma_perm;
  logic [1:0][31:0]      st_dma_refused;
  logic [63:2]           st_dma_last_addr;
  logic [1:0]            st_dma_last_kind;
  logic [31:0]           st_eg_hits, st_eg_misses, st_timeouts, st_up_reqs, st_in_reqs;
  logic [31:0]           st_nq_prod, st_nq_full_stalls, st_nq_events;
  logic                  irq_notify;
  // router local port 1 (out: router -> SMFU, in: SMFU -> router)
  logic                  l1_out_valid, l1_out_last, l1_out_vc, l1_in_valid, l1_in_last, l1_in_vc;
  logic [127:0]          l1_out_data, l1_in_data;
  logic [1:0]            l1_out_credit, l1_in_credit;

  // The connections nic_core and the side have in common (all by name).
`define EXTOLL_NIC_SIDE_PARAMS \
    .VENDOR_ID (VENDOR_ID), .DEVICE_ID (DEVICE_ID), .REVISION (REVISION), \
    .CLASS_CODE (CLASS_CODE), .REG_BAR_LOG2 (REG_BAR_LOG2), \
    .APERTURE_LOG2 (APERTURE_LOG2), .APERTURE_64 (APERTURE_64), \
    .REG_MAP_BYTES (REG_MAP_BYTES), \
    .REG_ADDR_W (REG_ADDR_W), .BURST_DW (BURST_DW), .NIVL (NIVL), \
    .SMFU_TAG_BASE (SMFU_TAG_BASE), .SMFU_TAGS (SMFU_TAGS), \
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH), .RX_DEPTH (2 * LOCAL_CREDITS)

`define EXTOLL_NIC_SHARED \
    .clk, .node_id, \
    .bar_req, .bar_req_is_wr, .bar_addr, .bar_wr_data, .bar_wr_biten, \
    .bar_stall, .bar_rd_ack, .bar_rd_err, .bar_rd_data, .bar_wr_ack, .bar_wr_err, \
    .bd_tx_data, .bd_tx_keep, .bd_tx_sop, .bd_tx_eop, .bd_tx_valid, .bd_tx_ready, \
    .bd_rx_data, .bd_rx_keep, .bd_rx_sop, .bd_rx_eop, .bd_rx_valid, .bd_rx_ready, \
    .bd_pass_valid, .bd_pass_sop, \
    .rec_tlp_data, .rec_tlp_keep, .rec_tlp_sop, .rec_tlp_eop, .rec_tlp_valid, .rec_tlp_ready, \
    .cpl_id, .mem_en, .bus_master, .intx_disable, .intx, \
    .ev_rx_tlp, .ev_tx_tlp, .ev_ur, .ev_drop, .ev_aperture, .irq_pending, \
    .pcie_ev, .pcie_st, .msix_addr, .msix_data, .msix_mask, \
    .sm_timeout, .sm_passthru, .sm_up_node, .sm_eg_start, .sm_eg_end, .sm_eg_valid, \
    .sm_eg_node, .sm_in_base, .nq_win_base, .nq_win_size, .nq_ring_base, .nq_enable, \
    .nq_log2, .nq_cons, .rma_win_en, .rma_win_base, \
    .dma_enforce, .dma_base, .dma_limit, .dma_perm, \
    .st_eg_hits, .st_eg_misses, .st_timeouts, .st_up_reqs, .st_in_reqs, \
    .st_nq_prod, .st_nq_full_stalls, .st_nq_events, .irq_notify, \
    .st_dma_refused, .st_dma_last_addr, .st_dma_last_kind, \
    .l1_out_valid, .l1_out_data, .l1_out_last, .l1_out_vc, .l1_out_credit, \
    .l1_in_valid, .l1_in_data, .l1_in_last, .l1_in_vc, .l1_in_credit

  // The side's connections to the ports of extoll_nic.
`define EXTOLL_NIC_PCIE \
    .s_tlp_data, .s_tlp_keep, .s_tlp_sop, .s_tlp_eop, .s_tlp_valid (side_s_valid), \
    .s_tlp_ready (side_s_ready), \
    .m_tlp_data, .m_tlp_keep, .m_tlp_sop, .m_tlp_eop, .m_tlp_valid, .m_tlp_ready, \
    .pcie_link_up, .pcie_sec_reset

  // ------------------------------------------------------------------
  // What both roles share: registers, backdoor, network, RRA
  // ------------------------------------------------------------------
  nic_core #(
    .ROLE            (ROLE),
    .NODE_ID         (NODE_ID),
    .TBL_AW          (TBL_AW),
    .LINK_BUF_DEPTH  (LINK_BUF_DEPTH),
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
    .LOCAL_CREDITS   (LOCAL_CREDITS),
    .NIVL            (NIVL),
    .RTL_MAJOR       (RTL_MAJOR),
    .RTL_MINOR       (RTL_MINOR),
    .RTL_PATCH       (RTL_PATCH),
    .BUILD_DATE      (BUILD_DATE),
    .BUILD_COMMIT    (BUILD_COMMIT),
    .REG_ADDR_W      (REG_ADDR_W),
    .REG_MAP_BYTES   (REG_MAP_BYTES)
  ) u_core (
    `EXTOLL_NIC_SHARED,
    .rst, .fn_rst, .m_fn_rst (f_rst),
    .cfg_node_id, .cfg_dateline,
    .m_phy_data, .m_phy_frm, .m_phy_crc, .s_phy_data, .s_phy_frm, .s_phy_crc,
    .net_ovf,
    `NIC_FLASH_CONNECT
  );

  // ------------------------------------------------------------------
  // The PCIe side of the role. While the function is in reset (f_rst
  // outlasts rst by at least a cycle: nic_net_fence) it takes no TLP: one
  // handed over then would be lost
  // ------------------------------------------------------------------
  logic side_s_valid, side_s_ready;
  assign side_s_valid = s_tlp_valid && !f_rst;
  assign s_tlp_ready  = side_s_ready && !f_rst;

  if (ROLE == 0) begin : g_ep
    nic_ep_side #(`EXTOLL_NIC_SIDE_PARAMS) u_side (
      `EXTOLL_NIC_SHARED,
      .rst (f_rst),
      `EXTOLL_NIC_PCIE
    );
  end else begin : g_rp
    nic_rp_side #(`EXTOLL_NIC_SIDE_PARAMS) u_side (
      `EXTOLL_NIC_SHARED,
      .rst (f_rst),
      `EXTOLL_NIC_PCIE
    );
  end

`undef EXTOLL_NIC_SIDE_PARAMS
`undef EXTOLL_NIC_SHARED
`undef EXTOLL_NIC_PCIE

endmodule

`default_nettype wire
