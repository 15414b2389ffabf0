// SPDX-License-Identifier: Apache-2.0
//
// extoll_nic_usp: the host NIC (ROLE 0, endpoint; docs/nic.md) on a Xilinx
// UltraScale+ PCIe hard IP (PCIE4, 128- or 512-bit AXI-Stream interfaces,
// dword alignment, no straddling; docs/hard-ip.md). Wiring only:
//
//   hard IP CQ/CC/RQ/RC 512 bits --> pcie_usp_w512 (AXIS_W 512 only) --> 128 bits
//   hard IP CQ/CC/RQ/RC 128, cfg_* --> pcie_usp_if (adapter) --> TLP stream, BAR ID,
//                                   PCIe state, MSI-X through cfg_interrupt_msix_*
//   --- user_clk | core_clk ---   nic_hip_cdc (async FIFOs, synchronisers)
//   TLP stream --> nic_hip_side (pcie_ep_rx, register bridge, UR, smfu_host, merge)
//   nic_hip_side <--> nic_core (registers, backdoor, network, RRA)
//   nic_core links <--> net_phy_cdc <--> per link: PHY transmit / receive clock
//
// The IP instance itself is outside (a board top, or the cocotbext-pcie
// model in rtl/vendor/tb). Configure the IP as: one physical function,
// vendor/device/class of extoll_nic (1ee7:0001, 0x028000), BAR0 32-bit
// 2**REG_BAR_LOG2 bytes, BAR2 32-bit 2**APERTURE_LOG2 bytes, MSI-X with one
// vector, table in BAR0 at 0x1000, PBA in BAR0 at 0x1800, no MSI, no legacy
// INTx use. Clocks, all unrelated: the adapter runs on the IP's user_clk, the
// NIC on core_clk, each link's PHY side on its own transmit and receive clock
// (phy_tx_clk[l], phy_rx_clk[l]; docs/hard-ip.md "Clock domains"). Resets
// (docs/hard-ip.md "Resets"): node_rst (the board's power-on / configuration
// reset, asynchronous) resets the node, network included, synchronised to
// core_clk (and to user_clk for the adapter); the IP's user_reset (PCIe link
// down, hot reset) resets the PCIe side and, synchronised to core_clk as
// nic_core's fn_rst, the NIC function only: the router, its tables and links
// go on carrying other nodes' packets (docs/network.md "Reset domains").

`default_nettype none
`include "tlp_stream.svh"
`include "net_local_port.svh"
`include "nic_ports.svh"

module extoll_nic_usp #(
  // ---------------- BAR sizes (as configured in the IP) ----------------
  parameter int          REG_BAR_LOG2    = 16,
  parameter int          APERTURE_LOG2   = 28,

  // ---------------- RTL release and build identification ----------------
  parameter logic [15:0] RTL_MAJOR       = 16'd0,
  parameter logic [15:0] RTL_MINOR       = 16'd1,
  parameter logic [15:0] RTL_PATCH       = 16'd0,
  parameter logic [31:0] BUILD_DATE      = 32'h0000_0000,
  parameter logic [31:0] BUILD_COMMIT    = 32'h0000_0000,

  // ---------------- network ----------------
  parameter logic [15:0] NODE_ID         = 16'd0,   // ORed with the cfg_node_id strap
  parameter int          TBL_AW          = 6,
  parameter int          LINK_BUF_DEPTH  = 64,        // flits per VC of a link inport buffer (as extoll_nic: a 256-B stream is not credit bound)
  parameter int          LOCAL_BUF_DEPTH = 32,

  // ---------------- implementation ----------------
  parameter int          BURST_DW        = 16,
  parameter int          NP_MAX          = 16,        // non-posted requests inside the NIC (pcie_usp_np_fc): the SMFU's read tags

  // ---------------- the IP's AXI-Stream interfaces ----------------
  parameter int          AXIS_W          = 128,       // 128 (e.g. Gen3 x4) or 512 (Gen3 x16, through pcie_usp_w512)
  parameter int          CQ_USER_W       = AXIS_W == 512 ? 183 : 88,   // tuser widths (128 bits: PG213 also allows
  parameter int          CC_USER_W       = AXIS_W == 512 ? 81 : 33,    // CQ 85 and RQ 60; 512 bits: only these)
  parameter int          RQ_USER_W       = AXIS_W == 512 ? 137 : 62,
  parameter int          RC_USER_W       = AXIS_W == 512 ? 161 : 75
) (
  // ---------------- clocks and resets ----------------
  input  wire logic                 user_clk,       // the IP's user clock
  input  wire logic                 user_reset,     // the IP's, active high: the NIC function's reset
  input  wire logic                 core_clk,       // NIC core clock (unrelated to user_clk)
  input  wire logic                 node_rst,       // board-level node reset, asynchronous, active high

  // ---------------- link PHY clocks and resets (per link; resets synchronous to their clock) ----------------
  input  wire logic [6:0]           phy_tx_clk,     // link l's symbols out (m_phy_*[l]) on phy_tx_clk[l]
  input  wire logic [6:0]           phy_tx_rst,     // the PHY's transmit side not ready
  input  wire logic [6:0]           phy_rx_clk,     // link l's symbols in (s_phy_*[l]) on phy_rx_clk[l]
  input  wire logic [6:0]           phy_rx_rst,     // the PHY's receive side not locked

  // ---------------- straps ----------------
  input  wire logic [15:0]          cfg_node_id,
  input  wire logic [6:0]           cfg_dateline,

  // ---------------- hard IP: CQ ----------------
  input  wire logic [AXIS_W-1:0]    s_axis_cq_tdata,
  input  wire logic [AXIS_W/32-1:0] s_axis_cq_tkeep,
  input  wire logic                 s_axis_cq_tlast,
  input  wire logic [CQ_USER_W-1:0] s_axis_cq_tuser,
  input  wire logic                 s_axis_cq_tvalid,
  output      logic                 s_axis_cq_tready,
  output      logic [1:0]           pcie_cq_np_req,

  // ---------------- hard IP: CC ----------------
  output      logic [AXIS_W-1:0]    m_axis_cc_tdata,
  output      logic [AXIS_W/32-1:0] m_axis_cc_tkeep,
  output      logic                 m_axis_cc_tlast,
  output      logic [CC_USER_W-1:0] m_axis_cc_tuser,
  output      logic                 m_axis_cc_tvalid,
  input  wire logic                 m_axis_cc_tready,

  // ---------------- hard IP: RQ ----------------
  output      logic [AXIS_W-1:0]    m_axis_rq_tdata,
  output      logic [AXIS_W/32-1:0] m_axis_rq_tkeep,
  output      logic                 m_axis_rq_tlast,
  output      logic [RQ_USER_W-1:0] m_axis_rq_tuser,
  output      logic                 m_axis_rq_tvalid,
  input  wire logic                 m_axis_rq_tready,
  input  wire logic [5:0]           pcie_rq_seq_num0,
  input  wire logic                 pcie_rq_seq_num_vld0,
  input  wire logic [5:0]           pcie_rq_seq_num1,
  input  wire logic                 pcie_rq_seq_num_vld1,

  // ---------------- hard IP: RC ----------------
  input  wire logic [AXIS_W-1:0]    s_axis_rc_tdata,
  input  wire logic [AXIS_W/32-1:0] s_axis_rc_tkeep,
  input  wire logic                 s_axis_rc_tlast,
  input  wire logic [RC_USER_W-1:0] s_axis_rc_tuser,
  input  wire logic                 s_axis_rc_tvalid,
  output      logic                 s_axis_rc_tready,

  // ---------------- hard IP: configuration status ----------------
  input  wire logic [7:0]           cfg_bus_number,
  input  wire logic [15:0]          cfg_function_status,
  input  wire logic [1:0]           cfg_max_payload,
  input  wire logic [2:0]           cfg_max_read_req,
  input  wire logic [11:0]          cfg_function_power_state,

  // ---------------- hard IP: MSI-X ----------------
  input  wire logic [3:0]           cfg_interrupt_msix_enable,
  input  wire logic [3:0]           cfg_interrupt_msix_mask,
  output      logic [63:0]          cfg_interrupt_msix_address,
  output      logic [31:0]          cfg_interrupt_msix_data,
  output      logic                 cfg_interrupt_msix_int,
  input  wire logic                 cfg_interrupt_msix_sent,
  input  wire logic                 cfg_interrupt_msix_fail,
  output      logic [7:0]           cfg_interrupt_msi_function_number,

  // ---------------- network links (net_local_port.svh: NET_PHY_PORTS), PHY clocks ----------------
  `NET_PHY_PORTS(7),

  // ---------------- configuration flash and boot identity (nic_ports.svh: NIC_FLASH_PORTS) ----------------
  // core_clk domain; on the board flash_* go to the STARTUPE3/QSPI pins and
  // reload_req/addr to ICAPE3 (IPROG), boot_slot 0: build-time identity
  `NIC_FLASH_PORTS(output, input wire),

  // ---------------- status ----------------
  output      logic                 net_ovf,        // a router buffer overrun, or a link_phy_cdc FIFO overflow
  output      logic [6:0]           rq_out,         // requests sent, not yet reported by the IP
  output      logic [5:0]           np_open         // non-posted requests taken from CQ, not yet answered
);

  localparam int         LOCAL_CREDITS = 32;
  localparam logic [7:0] SMFU_TAG_BASE = 8'h80;
  localparam int         SMFU_TAGS     = 16;
  localparam int         NIVL          = 16;
  localparam int         REG_ADDR_W    = extoll_regs_pkg::EXTOLL_REGS_MIN_ADDR_WIDTH;
  localparam int         REG_MAP_BYTES = extoll_regs_pkg::EXTOLL_REGS_SIZE;
  // the adapter's tuser widths: the IP's at 128 bits, pcie_usp_w512's 128-bit side at 512
  localparam int         IF_CQ_USER_W  = AXIS_W == 512 ? 88 : CQ_USER_W;
  localparam int         IF_CC_USER_W  = AXIS_W == 512 ? 33 : CC_USER_W;
  localparam int         IF_RQ_USER_W  = AXIS_W == 512 ? 62 : RQ_USER_W;
  localparam int         IF_RC_USER_W  = AXIS_W == 512 ? 75 : RC_USER_W;

  // adapter: IP clock; side and core: core clock. rst: the node (network
  // included), from the board's node_rst; fn_rst: the function, the IP's
  // user_reset (or the node's) synchronised to core_clk; f_rst: the function's
  // reset as nic_core's fence holds it (until the boundary is clean). The
  // adapter and the IP side of nic_hip_cdc are reset by user_reset or the
  // node reset; the core side of nic_hip_cdc by fn_rst, which covers both (the
  // two sides of its FIFOs are reset together).
  logic clk, rst, fn_rst, ip_clk, ip_rst, ip_node_rst;
  logic f_rst;
  logic net_core_ovf;
  logic [6:0] cdc_tx_ovf, cdc_rx_ovf;
  assign ip_clk = user_clk;
  assign clk    = core_clk;

  sync_reset u_node_rst (.clk (core_clk), .s_arst (node_rst), .m_rst (rst));
  sync_reset u_node_rst_ip (.clk (user_clk), .s_arst (node_rst), .m_rst (ip_node_rst));
  sync_reset u_fn_rst (.clk (core_clk), .s_arst (user_reset || node_rst), .m_rst (fn_rst));
  assign ip_rst = user_reset || ip_node_rst;

  // ------------------------------------------------------------------
  // Between the adapter, the side and nic_core
  // ------------------------------------------------------------------
  logic [6:0][127:0] core_phy_tx_data, core_phy_rx_data;  // nic_core's links (core_clk)
  logic [6:0][15:0]  core_phy_tx_frm, core_phy_rx_frm;
  logic [6:0][31:0]  core_phy_tx_crc, core_phy_rx_crc;
  `TLP_WIRES(ip_rx);                               // adapter -> CDC (IP clock)
  `TLP_WIRES(ip_tx);                               // CDC -> adapter (IP clock)
  `TLP_WIRES(rx);                                  // CDC -> side (core clock)
  `TLP_WIRES(tx);                                  // side -> CDC (core clock)
  logic [2:0]            ip_bar_id, rx_bar_id;
  logic [5:0]            ip_bar_aperture;
  logic [15:0]           ip_cpl_id;
  logic                  ip_mem_en, ip_bus_master, ip_intx_disable, ip_d3hot, ip_msix_en;
  logic                  ip_msix_pending, ip_ev_msix, ip_irq, ip_msix_mask;
  logic [2:0]            ip_mps, ip_mrrs;
  logic [63:0]           ip_msix_addr;
  logic [31:0]           ip_msix_data;
  logic [2:0]            dev_mps, dev_mrrs;
  logic                  d3hot, msix_en, msix_pending, ev_msix;
  logic                  ev_poisoned, ev_cpl_err, ev_ca_sent, ev_poisoned_tx;
  logic [15:0]           node_id;
  logic                  bar_req, bar_req_is_wr;
  logic [REG_ADDR_W-1:0] bar_addr;
  logic [63:0]           bar_wr_data, bar_wr_biten, bar_rd_data;
  logic                  bar_stall, bar_rd_ack, bar_rd_err, bar_wr_ack, bar_wr_err;
  `TLP_WIRES(bd_tx);
  `TLP_WIRES(bd_rx);
  `TLP_WIRES(rec_tlp);
  logic                  bd_pass_valid, bd_pass_sop;
  logic [15:0]           cpl_id;
  logic                  mem_en, bus_master, intx_disable, irq_pending;
  logic                  ev_rx_tlp, ev_tx_tlp, ev_ur, ev_drop, ev_aperture;
  logic [5:0]            pcie_ev;
  logic [2:0]            pcie_st;
  logic [63:0]           msix_addr;
  logic [31:0]           msix_data;
  logic                  msix_mask;
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
  logic                  ip_ev_rc_err, ev_rc_err;  // pcie.rc_err: IP side, core side
  logic                  l1_out_valid, l1_out_last, l1_out_vc, l1_in_valid, l1_in_last, l1_in_vc;
  logic [127:0]          l1_out_data, l1_in_data;
  logic [1:0]            l1_out_credit, l1_in_credit;

  assign pcie_ev = {ev_rc_err, ev_poisoned_tx, ev_msix, ev_ca_sent, ev_cpl_err, ev_poisoned};
  assign pcie_st = {d3hot, msix_en, msix_pending};

  // ------------------------------------------------------------------
  // 512 bits: width converters to the adapter's 128 bits
  // ------------------------------------------------------------------
  logic [127:0] a_cq_tdata, a_cc_tdata, a_rq_tdata, a_rc_tdata;
  logic [3:0]   a_cq_tkeep, a_cc_tkeep, a_rq_tkeep, a_rc_tkeep;
  logic         a_cq_tlast, a_cc_tlast, a_rq_tlast, a_rc_tlast;
  logic         a_cq_tvalid, a_cc_tvalid, a_rq_tvalid, a_rc_tvalid;
  logic         a_cq_tready, a_cc_tready, a_rq_tready, a_rc_tready;
  logic [IF_CQ_USER_W-1:0] a_cq_tuser;
  logic [IF_CC_USER_W-1:0] a_cc_tuser;
  logic [IF_RQ_USER_W-1:0] a_rq_tuser;
  logic [IF_RC_USER_W-1:0] a_rc_tuser;

  if (AXIS_W == 512) begin : g_w512
    pcie_usp_w512 u_w512 (
      .clk (ip_clk), .rst (ip_rst),
      .s_axis_cq_tdata, .s_axis_cq_tkeep, .s_axis_cq_tlast, .s_axis_cq_tuser, .s_axis_cq_tvalid,
      .s_axis_cq_tready,
      .m_axis_cc_tdata, .m_axis_cc_tkeep, .m_axis_cc_tlast, .m_axis_cc_tuser, .m_axis_cc_tvalid,
      .m_axis_cc_tready,
      .m_axis_rq_tdata, .m_axis_rq_tkeep, .m_axis_rq_tlast, .m_axis_rq_tuser, .m_axis_rq_tvalid,
      .m_axis_rq_tready,
      .s_axis_rc_tdata, .s_axis_rc_tkeep, .s_axis_rc_tlast, .s_axis_rc_tuser, .s_axis_rc_tvalid,
      .s_axis_rc_tready,
      .m_cq_tdata (a_cq_tdata), .m_cq_tkeep (a_cq_tkeep), .m_cq_tlast (a_cq_tlast),
      .m_cq_tuser (a_cq_tuser), .m_cq_tvalid (a_cq_tvalid), .m_cq_tready (a_cq_tready),
      .s_cc_tdata (a_cc_tdata), .s_cc_tkeep (a_cc_tkeep), .s_cc_tlast (a_cc_tlast),
      .s_cc_tuser (a_cc_tuser), .s_cc_tvalid (a_cc_tvalid), .s_cc_tready (a_cc_tready),
      .s_rq_tdata (a_rq_tdata), .s_rq_tkeep (a_rq_tkeep), .s_rq_tlast (a_rq_tlast),
      .s_rq_tuser (a_rq_tuser), .s_rq_tvalid (a_rq_tvalid), .s_rq_tready (a_rq_tready),
      .m_rc_tdata (a_rc_tdata), .m_rc_tkeep (a_rc_tkeep), .m_rc_tlast (a_rc_tlast),
      .m_rc_tuser (a_rc_tuser), .m_rc_tvalid (a_rc_tvalid), .m_rc_tready (a_rc_tready)
    );
  end else begin : g_w128
    assign {a_cq_tdata, a_cq_tkeep, a_cq_tlast, a_cq_tuser, a_cq_tvalid} =
      {s_axis_cq_tdata, s_axis_cq_tkeep, s_axis_cq_tlast, s_axis_cq_tuser, s_axis_cq_tvalid};
    assign s_axis_cq_tready = a_cq_tready;
    assign {m_axis_cc_tdata, m_axis_cc_tkeep, m_axis_cc_tlast, m_axis_cc_tuser, m_axis_cc_tvalid} =
      {a_cc_tdata, a_cc_tkeep, a_cc_tlast, a_cc_tuser, a_cc_tvalid};
    assign a_cc_tready = m_axis_cc_tready;
    assign {m_axis_rq_tdata, m_axis_rq_tkeep, m_axis_rq_tlast, m_axis_rq_tuser, m_axis_rq_tvalid} =
      {a_rq_tdata, a_rq_tkeep, a_rq_tlast, a_rq_tuser, a_rq_tvalid};
    assign a_rq_tready = m_axis_rq_tready;
    assign {a_rc_tdata, a_rc_tkeep, a_rc_tlast, a_rc_tuser, a_rc_tvalid} =
      {s_axis_rc_tdata, s_axis_rc_tkeep, s_axis_rc_tlast, s_axis_rc_tuser, s_axis_rc_tvalid};
    assign s_axis_rc_tready = a_rc_tready;
  end

  // ------------------------------------------------------------------
  // Hard IP adapter
  // ------------------------------------------------------------------
  pcie_usp_if #(
    .NP_MAX    (NP_MAX),
    .CQ_USER_W (IF_CQ_USER_W),
    .CC_USER_W (IF_CC_USER_W),
    .RQ_USER_W (IF_RQ_USER_W),
    .RC_USER_W (IF_RC_USER_W)
  ) u_if (
    .clk (ip_clk), .rst (ip_rst),
    .s_axis_cq_tdata (a_cq_tdata), .s_axis_cq_tkeep (a_cq_tkeep), .s_axis_cq_tlast (a_cq_tlast),
    .s_axis_cq_tuser (a_cq_tuser), .s_axis_cq_tvalid (a_cq_tvalid), .s_axis_cq_tready (a_cq_tready),
    .pcie_cq_np_req,
    .m_axis_cc_tdata (a_cc_tdata), .m_axis_cc_tkeep (a_cc_tkeep), .m_axis_cc_tlast (a_cc_tlast),
    .m_axis_cc_tuser (a_cc_tuser), .m_axis_cc_tvalid (a_cc_tvalid), .m_axis_cc_tready (a_cc_tready),
    .m_axis_rq_tdata (a_rq_tdata), .m_axis_rq_tkeep (a_rq_tkeep), .m_axis_rq_tlast (a_rq_tlast),
    .m_axis_rq_tuser (a_rq_tuser), .m_axis_rq_tvalid (a_rq_tvalid), .m_axis_rq_tready (a_rq_tready),
    .pcie_rq_seq_num0, .pcie_rq_seq_num_vld0, .pcie_rq_seq_num1, .pcie_rq_seq_num_vld1,
    .s_axis_rc_tdata (a_rc_tdata), .s_axis_rc_tkeep (a_rc_tkeep), .s_axis_rc_tlast (a_rc_tlast),
    .s_axis_rc_tuser (a_rc_tuser), .s_axis_rc_tvalid (a_rc_tvalid), .s_axis_rc_tready (a_rc_tready),
    .cfg_bus_number, .cfg_function_status, .cfg_max_payload, .cfg_max_read_req,
    .cfg_function_power_state,
    .cfg_interrupt_msix_enable, .cfg_interrupt_msix_mask, .cfg_interrupt_msix_address,
    .cfg_interrupt_msix_data, .cfg_interrupt_msix_int, .cfg_interrupt_msix_sent,
    .cfg_interrupt_msix_fail, .cfg_interrupt_msi_function_number,
    `TLP_CONNECT(m_tlp, ip_rx),
    .m_tlp_bar_id       (ip_bar_id),
    .m_tlp_bar_aperture (ip_bar_aperture),
    `TLP_CONNECT(s_tlp, ip_tx),
    .cpl_id (ip_cpl_id), .mem_en (ip_mem_en), .bus_master (ip_bus_master),
    .intx_disable (ip_intx_disable), .dev_mps (ip_mps), .dev_mrrs (ip_mrrs), .d3hot (ip_d3hot),
    .irq (ip_irq), .msix_addr (ip_msix_addr), .msix_data (ip_msix_data), .msix_mask (ip_msix_mask),
    .msix_en (ip_msix_en), .msix_pending (ip_msix_pending), .ev_msix (ip_ev_msix), .rq_out, .np_open,
    .ev_rc_err (ip_ev_rc_err)
  );

  // ------------------------------------------------------------------
  // Clock-domain crossing
  // ------------------------------------------------------------------
  nic_hip_cdc u_cdc (
    .ip_clk, .ip_rst, .core_clk (clk), .core_rst (fn_rst),
    `TLP_CONNECT(s_ip, ip_rx),
    .s_ip_bar_id (ip_bar_id),
    `TLP_CONNECT(m_core, rx),
    .m_core_bar_id (rx_bar_id),
    `TLP_CONNECT(s_core, tx),
    `TLP_CONNECT(m_ip, ip_tx),
    .ip_cpl_id,
    .ip_state    ({ip_mem_en, ip_bus_master, ip_intx_disable, ip_mps, ip_mrrs, ip_d3hot, ip_msix_en,
                   ip_msix_pending}),
    .ip_ev_msix, .ip_ev_rc_err,
    .core_cpl_id (cpl_id),
    .core_state  ({mem_en, bus_master, intx_disable, dev_mps, dev_mrrs, d3hot, msix_en, msix_pending}),
    .core_ev_msix (ev_msix), .core_ev_rc_err (ev_rc_err),
    .core_irq (irq_pending), .core_msix_addr (msix_addr), .core_msix_data (msix_data),
    .core_msix_mask (msix_mask),
    .ip_irq, .ip_msix_addr, .ip_msix_data, .ip_msix_mask
  );


  // ------------------------------------------------------------------
  // The endpoint side without config space
  // ------------------------------------------------------------------
  nic_hip_side #(
    .REG_BAR_LOG2    (REG_BAR_LOG2),
    .APERTURE_LOG2   (APERTURE_LOG2),
    .REG_MAP_BYTES   (REG_MAP_BYTES),
    .REG_ADDR_W      (REG_ADDR_W),
    .BURST_DW        (BURST_DW),
    .NIVL            (NIVL),
    .SMFU_TAG_BASE   (SMFU_TAG_BASE),
    .SMFU_TAGS       (SMFU_TAGS),
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
    .RX_DEPTH        (2 * LOCAL_CREDITS)
  ) u_side (
    .clk, .rst (f_rst),
    `TLP_CONNECT(s_tlp, rx),
    .s_tlp_bar_id (rx_bar_id),
    `TLP_CONNECT(m_tlp, tx),
    .cpl_id, .bus_master, .dev_mps, .dev_mrrs, .node_id,
    `CPUIF_CONNECT(bar, bar),
    `TLP_CONNECT(bd_tx, bd_tx),
    `TLP_CONNECT(bd_rx, bd_rx),
    .bd_pass_valid, .bd_pass_sop,
    `TLP_CONNECT(rec_tlp, rec_tlp),
    .ev_rx_tlp, .ev_tx_tlp, .ev_ur, .ev_drop, .ev_aperture,
    .ev_poisoned, .ev_cpl_err, .ev_ca_sent, .ev_poisoned_tx,
    .sm_timeout, .sm_passthru, .sm_up_node, .sm_eg_start, .sm_eg_end, .sm_eg_valid,
    .sm_eg_node, .sm_in_base, .nq_win_base, .nq_win_size, .nq_ring_base, .nq_enable,
    .nq_log2, .nq_cons, .rma_win_en, .rma_win_base,
    .dma_enforce, .dma_base, .dma_limit, .dma_perm,
    .st_eg_hits, .st_eg_misses, .st_timeouts, .st_up_reqs, .st_in_reqs,
    .st_nq_prod, .st_nq_full_stalls, .st_nq_events, .irq_notify,
    .st_dma_refused, .st_dma_last_addr, .st_dma_last_kind,
    .l1_out_valid, .l1_out_data, .l1_out_last, .l1_out_vc, .l1_out_credit,
    .l1_in_valid, .l1_in_data, .l1_in_last, .l1_in_vc, .l1_in_credit
  );

  // ------------------------------------------------------------------
  // What both roles share: registers, backdoor, network, RRA
  // ------------------------------------------------------------------
  nic_core #(
    .ROLE            (0),
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
    .REG_MAP_BYTES   (REG_MAP_BYTES),
    .LINK_IDLE_GAP   (256)                           // links through net_phy_cdc (below)
  ) u_core (
    .clk, .rst, .node_id,
    // the node reset (board) and the function's (the IP's user_reset)
    .fn_rst, .m_fn_rst (f_rst),
    .cfg_node_id, .cfg_dateline,
    .m_phy_data (core_phy_tx_data), .m_phy_frm (core_phy_tx_frm), .m_phy_crc (core_phy_tx_crc),
    .s_phy_data (core_phy_rx_data), .s_phy_frm (core_phy_rx_frm), .s_phy_crc (core_phy_rx_crc),
    .net_ovf (net_core_ovf),
    `NIC_FLASH_CONNECT,
    `CPUIF_CONNECT(bar, bar),
    `TLP_CONNECT(bd_tx, bd_tx),
    `TLP_CONNECT(bd_rx, bd_rx),
    .bd_pass_valid, .bd_pass_sop,
    `TLP_CONNECT(rec_tlp, rec_tlp),
    .cpl_id, .mem_en, .bus_master, .intx_disable,
    .ev_rx_tlp, .ev_tx_tlp, .ev_ur, .ev_drop, .ev_aperture,
    .pcie_ev, .pcie_st, .msix_addr, .msix_data, .msix_mask,
    .intx (1'b0), .irq_pending,
    .sm_timeout, .sm_passthru, .sm_up_node, .sm_eg_start, .sm_eg_end, .sm_eg_valid,
    .sm_eg_node, .sm_in_base, .nq_win_base, .nq_win_size, .nq_ring_base, .nq_enable,
    .nq_log2, .nq_cons, .rma_win_en, .rma_win_base,
    .dma_enforce, .dma_base, .dma_limit, .dma_perm,
    .st_eg_hits, .st_eg_misses, .st_timeouts, .st_up_reqs, .st_in_reqs,
    .st_nq_prod, .st_nq_full_stalls, .st_nq_events, .irq_notify,
    .st_dma_refused, .st_dma_last_addr, .st_dma_last_kind,
    .l1_out_valid, .l1_out_data, .l1_out_last, .l1_out_vc, .l1_out_credit,
    .l1_in_valid, .l1_in_data, .l1_in_last, .l1_in_vc, .l1_in_credit
  );

  // ------------------------------------------------------------------
  // Links: core_clk <-> each link's PHY clocks (rate matching by IDLE
  // symbols: docs/network.md "Link clocking")
  // ------------------------------------------------------------------
  net_phy_cdc #(.NL (7)) u_phy_cdc (
    .core_clk (clk), .core_rst (rst),
    .s_core_data (core_phy_tx_data), .s_core_frm (core_phy_tx_frm), .s_core_crc (core_phy_tx_crc),
    .m_core_data (core_phy_rx_data), .m_core_frm (core_phy_rx_frm), .m_core_crc (core_phy_rx_crc),
    .tx_clk (phy_tx_clk), .tx_rst (phy_tx_rst),
    .m_tx_data (m_phy_data), .m_tx_frm (m_phy_frm), .m_tx_crc (m_phy_crc),
    .rx_clk (phy_rx_clk), .rx_rst (phy_rx_rst),
    .s_rx_data (s_phy_data), .s_rx_frm (s_phy_frm), .s_rx_crc (s_phy_crc),
    .m_tx_ovf (cdc_tx_ovf), .m_rx_ovf (cdc_rx_ovf)
  );

  assign net_ovf = net_core_ovf || |cdc_tx_ovf || |cdc_rx_ovf;

  logic unused;
  assign unused = ^{ip_bar_aperture};

endmodule

`default_nettype wire
