// SPDX-License-Identifier: Apache-2.0
//
// pcie_ep: PCIe endpoint function on the NIC's TLP stream. Ties together
//   pcie_ep_rx       receive path: classify and dispatch requests
//   pcie_cfg_t0      Type-0 configuration space (BAR0 registers, BAR2 aperture)
//   pcie_reg_bridge  BAR0 MRd/MWr -> register block passthrough cpuif
//   pcie_cpl_ur      completions with status UR for unsupported requests
//   pcie_tlp_arb     round-robin merge of the three completion sources
//   pcie_tlp_slice   registered m_tlp output
//   pcie_msix        MSI-X messages of the one vector (table in BAR0, the
//                    register file), merged behind the completions
//   pcie_err_mon     error events of the received TLPs for the Status bits
// and gates the legacy interrupt with command.InterruptDisable and MSI-X
// Enable (no INTx while MSI-X is enabled, PCIe Base Spec. 6.1.4.3).
//
//              +--------+  cfg   +-----------+ cpl
//   s_tlp ---->| ep_rx  |------->| cfg_t0    |-----+
//              |        |  mem   +-----------+     |   +-----+   +-------+
//              |        |------->| reg_bridge|-----+-->| arb |-->| slice |--> m_tlp
//              |        |  ur    +-----------+     |   +-----+   +-------+
//              |        |------->| cpl_ur    |-----+
//              +--------+        +-----------+
//
// BAR2 (the SMFU aperture): with SMFU = 1 every memory request hitting it
// leaves on ap_* and the completions for the SMFU's MRd tags on scpl_*
// (pcie_ep_rx); the SMFU's own TLPs are merged by the caller behind m_tlp.
// With SMFU = 0 aperture reads complete with UR and writes are dropped. Both
// are counted (ev_aperture).

`default_nettype none
`include "cpuif_port.svh"
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_ep
#(
  parameter logic [15:0] VENDOR_ID     = 16'h1ee7,   // PCI vendor ID
  parameter logic [15:0] DEVICE_ID     = 16'h0001,   // PCI device ID
  parameter logic [7:0]  REVISION      = 8'h00,      // revision ID
  parameter logic [23:0] CLASS_CODE    = 24'h028000, // class code
  parameter int          REG_BAR_LOG2  = 16,         // BAR0 (registers) size, log2 bytes
  parameter int          APERTURE_LOG2 = 28,         // BAR2 (aperture) size, log2 bytes
  parameter bit          APERTURE_64   = 1'b0,       // BAR2/3: 64-bit prefetchable aperture
  parameter logic [31:0] MSIX_TABLE    = 32'h0000_1000, // MSI-X table offset in BAR0
  parameter logic [31:0] MSIX_PBA      = 32'h0000_1800, // MSI-X PBA offset in BAR0
  parameter int          REG_MAP_BYTES = 'h200,      // bytes of BAR0 backed by registers
  parameter int          REG_ADDR_W    = 9,          // register block address width
  parameter int          BURST_DW      = 16,         // longest BAR0 request, dwords (2..32)
  parameter bit          SMFU          = 1'b0,       // serve BAR2 / SMFU completions on ap_* / scpl_*
  parameter logic [7:0]  CPL_TAG_BASE  = 8'h80,      // first MRd tag of the SMFU
  parameter int          CPL_TAGS      = 16          // MRd tags of the SMFU
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,           // synchronous, active high

  // ---------------- TLPs from the link ----------------
  `TLP_S_PORTS(s_tlp),

  // ---------------- TLPs to the link ----------------
  `TLP_M_PORTS(m_tlp),

  // ---------------- SMFU (SMFU = 1): aperture requests, completions for its tags ----------------
  `TLP_M_PORTS(ap),
  `TLP_M_PORTS(scpl),

  // ---------------- register block, passthrough cpuif ----------------
  `REGBLK_M_PORTS(cpuif, REG_ADDR_W),

  // ---------------- interrupt ----------------
  input  wire logic                  irq_pending,   // some enabled cause is pending
  output      logic                  intx,          // INTA# level, gated by INTx disable, MSI-X
  input  wire logic [63:0]           msix_addr,     // MSI-X table entry 0: address
  input  wire logic [31:0]           msix_data,     // MSI-X table entry 0: data
  input  wire logic                  msix_mask,     // MSI-X table entry 0: Vector Control mask
  output      logic                  msix_pending,  // MSI-X PBA bit 0
  output      logic                  msix_en,       // MSI-X Enable
  output      logic                  d3hot,         // PowerState D3hot
  output      logic [2:0]            dev_mps,       // Device Control Max_Payload_Size (0: 128 B, 1: 256 B)
  output      logic [2:0]            dev_mrrs,      // Device Control Max_Read_Request_Size
  output      logic                  dev_ro_en,     // Device Control Enable Relaxed Ordering
  output      logic                  dev_ns_en,     // Device Control Enable No Snoop
  output      logic                  dev_ext_tag,   // Device Control Extended Tag Field Enable
  input  wire logic                  tx_sig_ca,     // pulse: the caller sent a CA completion
  input  wire logic                  tx_poisoned_wr,// pulse: the caller sent a poisoned MWr

  // ---------------- configuration state ----------------
  output      logic [15:0]           cpl_id,        // completer ID
  output      logic                  mem_en,        // command: memory space enable
  output      logic                  bus_master,    // command: bus master enable
  output      logic                  intx_disable,  // command: INTx disable

  // ---------------- event pulses (counters) ----------------
  output      logic                  ev_rx_tlp,     // TLP received
  output      logic                  ev_tx_tlp,     // TLP sent
  output      logic                  ev_ur,         // non-posted request answered UR
  output      logic                  ev_drop,       // posted TLP dropped
  output      logic                  ev_aperture,   // request hit the aperture BAR
  output      logic                  ev_poisoned,   // poisoned TLP received
  output      logic                  ev_cpl_err,    // UR/CA completion received for an SMFU tag
  output      logic                  ev_msix        // MSI-X message sent
);

  // ------------------------------------------------------------------
  // Interconnect
  // ------------------------------------------------------------------
  logic [31:0]           bar0;
  logic [63:0]           bar2;
  logic                  rx_poisoned_wr;   // a received poisoned write: counted in ev_poisoned
  logic                  ev_ur_wr, rx_cpl_ur, rx_cpl_ca, rx_poisoned_own, msix_fmask, intx_en;

  logic                  cfg_valid, cfg_ready;
  pcie_tlp_pkg::tlp_req_t              cfg_req;
  logic [31:0]           cfg_wdata;

  logic                  mem_valid, mem_ready;
  pcie_tlp_pkg::tlp_req_t              mem_req;
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] mem_pl_data;
  logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] mem_pl_keep;
  logic                  mem_pl_last, mem_pl_valid, mem_pl_ready;

  logic                  ur_valid, ur_ready;
  pcie_tlp_pkg::tlp_req_t              ur_req;

  // sources: 0 config, 1 register bridge, 2 UR, 3 MSI-X messages
  localparam int NSRC = 4;
  logic [NSRC*pcie_tlp_pkg::TLP_DATA_W-1:0] cpl_data;
  logic [NSRC*pcie_tlp_pkg::TLP_KEEP_W-1:0] cpl_keep;
  logic [NSRC-1:0]            cpl_sop, cpl_eop, cpl_valid, cpl_ready;

  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] arb_data;
  logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] arb_keep;
  logic                  arb_sop, arb_eop, arb_valid, arb_ready;

  // ------------------------------------------------------------------
  // Receive path
  // ------------------------------------------------------------------
  pcie_ep_rx #(
    .REG_BAR_LOG2  (REG_BAR_LOG2),
    .APERTURE_LOG2 (APERTURE_LOG2),
    .REG_MAP_BYTES (REG_MAP_BYTES),
    .BURST_DW      (BURST_DW),
    .SMFU          (SMFU),
    .CPL_TAG_BASE  (CPL_TAG_BASE),
    .CPL_TAGS      (CPL_TAGS)
  ) u_rx (
    .clk, .rst,
    .s_tlp_data, .s_tlp_keep, .s_tlp_sop, .s_tlp_eop, .s_tlp_valid, .s_tlp_ready,
    .mem_en, .bar0, .bar2,
    .cfg_valid, .cfg_ready, .cfg_req, .cfg_wdata,
    .mem_valid, .mem_ready, .mem_req,
    .mem_pl_data, .mem_pl_keep, .mem_pl_last, .mem_pl_valid, .mem_pl_ready,
    .ur_valid, .ur_ready, .ur_req,
    .ap_data, .ap_keep, .ap_sop, .ap_eop, .ap_valid, .ap_ready,
    .scpl_data, .scpl_keep, .scpl_sop, .scpl_eop, .scpl_valid, .scpl_ready,
    .ev_rx_tlp, .ev_ur, .ev_drop, .ev_ur_wr, .ev_aperture
  );

  // Error events of the received TLPs (completions for the SMFU's tags)
  pcie_err_mon #(
    .OWN_TAG_BASE (CPL_TAG_BASE),
    .OWN_TAGS     (CPL_TAGS)
  ) u_rx_mon (
    .clk, .rst,
    .tlp_data (s_tlp_data), .tlp_sop (s_tlp_sop), .tlp_valid (s_tlp_valid), .tlp_ready (s_tlp_ready),
    .cpl_ur (rx_cpl_ur), .cpl_ca (rx_cpl_ca), .poisoned (ev_poisoned),
    .poisoned_cpl (rx_poisoned_own), .poisoned_wr (rx_poisoned_wr)
  );
  assign ev_cpl_err = rx_cpl_ur || rx_cpl_ca;

  // ------------------------------------------------------------------
  // Configuration space
  // ------------------------------------------------------------------
  pcie_cfg_t0 #(
    .VENDOR_ID     (VENDOR_ID),
    .DEVICE_ID     (DEVICE_ID),
    .REVISION      (REVISION),
    .CLASS_CODE    (CLASS_CODE),
    .REG_BAR_LOG2  (REG_BAR_LOG2),
    .APERTURE_LOG2 (APERTURE_LOG2),
    .APERTURE_64   (APERTURE_64),
    .MSIX_TABLE    (MSIX_TABLE),
    .MSIX_PBA      (MSIX_PBA)
  ) u_cfg (
    .clk, .rst,
    .req_valid   (cfg_valid),
    .req_ready   (cfg_ready),
    .req         (cfg_req),
    .req_wdata   (cfg_wdata),
    `TLP_CONNECT_AT(m_cpl, cpl, 0),
    .cpl_id, .mem_en, .bus_master, .intx_disable, .bar0, .bar2, .msix_en, .msix_fmask, .d3hot,
    .dev_mps, .dev_mrrs, .dev_ro_en, .dev_ns_en, .dev_ext_tag,
    .intx_pending(irq_pending),
    .ur_detected (ev_ur || ev_ur_wr),
    .ev_sig_ca   (tx_sig_ca),
    .ev_rcv_ca   (rx_cpl_ca),
    .ev_rcv_ur   (rx_cpl_ur),
    .ev_poisoned,
    .ev_mdpe     (rx_poisoned_own || tx_poisoned_wr)
  );

  // ------------------------------------------------------------------
  // Register BAR bridge
  // ------------------------------------------------------------------
  pcie_reg_bridge #(
    .ADDR_W   (REG_ADDR_W),
    .BURST_DW (BURST_DW)
  ) u_bridge (
    .clk, .rst,
    .req_valid   (mem_valid),
    .req_ready   (mem_ready),
    .req         (mem_req),
    .s_pl_data   (mem_pl_data),
    .s_pl_keep   (mem_pl_keep),
    .s_pl_last   (mem_pl_last),
    .s_pl_valid  (mem_pl_valid),
    .s_pl_ready  (mem_pl_ready),
    .cpl_id,
    `TLP_CONNECT_AT(m_cpl, cpl, 1),
    .cpuif_req, .cpuif_req_is_wr, .cpuif_addr, .cpuif_wr_data, .cpuif_wr_biten,
    .cpuif_req_stall_wr, .cpuif_req_stall_rd, .cpuif_rd_ack, .cpuif_rd_err,
    .cpuif_rd_data, .cpuif_wr_ack, .cpuif_wr_err
  );

  // ------------------------------------------------------------------
  // Unsupported requests
  // ------------------------------------------------------------------
  pcie_cpl_ur u_ur (
    .clk, .rst,
    .req_valid   (ur_valid),
    .req_ready   (ur_ready),
    .req         (ur_req),
    .cpl_id,
    `TLP_CONNECT_AT(m_cpl, cpl, 2)
  );

  // ------------------------------------------------------------------
  // MSI-X messages
  // ------------------------------------------------------------------
  pcie_msix u_msix (
    .clk, .rst,
    .irq        (irq_pending),
    .msix_en, .fmask (msix_fmask), .bus_master,
    .req_id     (cpl_id),
    .vec_addr   (msix_addr[63:2]),
    .vec_data   (msix_data),
    .vec_mask   (msix_mask),
    .pending    (msix_pending),
    .intx_en,
    .ev_msg     (ev_msix),
    `TLP_CONNECT_AT(m_msg, cpl, 3)
  );

  // ------------------------------------------------------------------
  // Transmit path
  // ------------------------------------------------------------------
  pcie_tlp_arb #(
    .N      (NSRC),
    .DATA_W (pcie_tlp_pkg::TLP_DATA_W)
  ) u_arb (
    .clk, .rst,
    `TLP_CONNECT(s, cpl),
    `TLP_CONNECT(m, arb)
  );

  pcie_tlp_slice #(
    .DATA_W (pcie_tlp_pkg::TLP_DATA_W)
  ) u_slice (
    .clk, .rst,
    `TLP_CONNECT(s, arb),
    `TLP_CONNECT(m, m_tlp)
  );

  assign ev_tx_tlp = m_tlp_valid && m_tlp_ready && m_tlp_sop;

  logic unused;
  assign unused = ^{rx_poisoned_wr, msix_addr[1:0]};

  // ------------------------------------------------------------------
  // Legacy interrupt
  // ------------------------------------------------------------------
  assign intx = irq_pending && !intx_disable && intx_en;

endmodule

`default_nettype wire
