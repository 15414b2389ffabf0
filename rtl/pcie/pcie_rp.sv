// SPDX-License-Identifier: Apache-2.0
//
// pcie_rp: the NIC's PCIe root port (root-port strap; docs/remote-access.md
// "Root-port mode", docs/tlp-interface.md "Root-port mode"). Sits between
//   the UPSTREAM side: TLPs injected by the NIC (backdoor TX / network inject,
//     later the SMFU's memory requests and the completions for the device's
//     reads) on s_up; completions for those requests on m_up_cpl (to the
//     backdoor RX filter first); the device's own requests on m_up_req;
//   the DOWNSTREAM side: the vendor layer's TLP stream to and from the device
//     below (s_dn = what the link partner sends, m_dn = what we send).
//
//              +-----------+ fwd                     +-----+   +-------+
//   s_up ----->| rp_up     |------------------------>| arb |-->| slice |--> m_dn
//              |           | cfg  +---------+        |  2  |   +-------+
//              |           |----->| cfg_t1  |--+  +->|     |
//              |           | ur   +---------+  |  |  +-----+
//              |           |----->| cpl_ur  |--+  |
//              +-----------+      +---------+  |  | +--------+
//                                              |  +-| cpl_ur |<--+ ur
//              +-----------+ cpl               v    +--------+   |
//   s_dn ----->| rp_dn     |----------------->[arb 3]-->[slice]------+--> m_up_cpl
//              |           | req                                  |
//              |           |-------------------------->[slice]---------> m_up_req
//              +-----------+------------------------------------+
//
// Every non-posted request gets exactly one completion (own config space,
// the device, or a UR completion from the root port with the root port's
// completer ID). With the link down or the Secondary Bus Reset set nothing
// goes down (UR / discard, PCIe 2.9.1); requests from below inside the
// bridge's memory windows are not passed up (inverse decode, pcie_rp_dn). Upstream and downstream ingress are independent, and the
// three outputs have their own flop stages, so back-pressure on one output
// stalls only the traffic that goes there.

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_rp
#(
  parameter logic [15:0] VENDOR_ID  = 16'h1ee7,   // PCI vendor ID
  parameter logic [15:0] DEVICE_ID  = 16'h0002,   // PCI device ID (NIC, root-port strap)
  parameter logic [7:0]  REVISION   = 8'h00,      // revision ID
  parameter logic [23:0] CLASS_CODE = 24'h060400, // class code (PCI-to-PCI bridge)
  parameter logic [3:0]  LINK_SPEED = 4'd2,       // reported link speed (2: 5 GT/s)
  parameter logic [5:0]  LINK_WIDTH = 6'd4        // reported link width (lanes)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,           // synchronous, active high

  // ---------------- upstream: TLPs from the NIC (requests; completions for the device) ----------------
  `TLP_S_PORTS(s_up),

  // ---------------- upstream: completions to the NIC (own config, UR, from the device) ----------------
  `TLP_M_PORTS(m_up_cpl),

  // ---------------- upstream: requests of the device (DMA, MSI) to the NIC ----------------
  `TLP_M_PORTS(m_up_req),

  // ---------------- downstream: TLPs from the link (vendor layer -> NIC) ----------------
  `TLP_S_PORTS(s_dn),

  // ---------------- downstream: TLPs to the link (NIC -> vendor layer) ----------------
  `TLP_M_PORTS(m_dn),

  // ---------------- link status ----------------
  input  wire logic                  link_up,       // downstream link up (vendor layer)

  // ---------------- configuration state ----------------
  output      logic [15:0]           cpl_id,        // root port ID captured from CfgWr0
  output      logic                  mem_en,        // command: memory space enable
  output      logic                  bus_master,    // command: bus master enable
  output      logic [7:0]            pri_bus,       // primary bus number
  output      logic [7:0]            sec_bus,       // secondary bus number
  output      logic [7:0]            sub_bus,       // subordinate bus number
  output      logic                  sec_reset,     // bridge control: secondary bus reset
  output      logic                  msi_en,        // MSI capability: enable
  output      logic [63:0]           msi_addr,      // MSI capability: address
  output      logic [15:0]           msi_data,      // MSI capability: data
  output      logic [2:0]            dev_mps,       // Device Control: Max_Payload_Size (0: 128 B, 1: 256 B)
  output      logic [2:0]            dev_mrrs,      // Device Control: Max_Read_Request_Size
  output      logic                  dev_ro_en,     // Device Control: Enable Relaxed Ordering
  output      logic                  dev_ns_en,     // Device Control: Enable No Snoop
  output      logic                  dev_ext_tag,   // Device Control: Extended Tag Field Enable
  output      logic [1:0][63:0]      win_base,      // memory windows (0 non-prefetchable, 1 prefetchable):
  output      logic [1:0][63:0]      win_limit,     // first and last byte (off while base > limit)

  // ---------------- event pulses (counters), one per TLP ----------------
  output      logic                  ev_up_rx,      // TLP received from above
  output      logic                  ev_up_cfg,     // ... to the own config space
  output      logic                  ev_up_fwd,     // ... forwarded down
  output      logic                  ev_up_ur,      // ... non-posted, answered UR
  output      logic                  ev_up_drop,    // ... posted, dropped
  output      logic                  ev_dn_rx,      // TLP received from below
  output      logic                  ev_dn_cpl,     // ... completion routed up
  output      logic                  ev_dn_req,     // ... request routed up (bus master on)
  output      logic                  ev_dn_ur,      // ... non-posted, answered UR
  output      logic                  ev_dn_drop,    // ... posted, dropped
  output      logic                  ev_dn_tx       // TLP sent down (m_dn)
);

  localparam int DW = pcie_tlp_pkg::TLP_DATA_W;
  localparam int KW = pcie_tlp_pkg::TLP_KEEP_W;

  // ------------------------------------------------------------------
  // Interconnect
  // ------------------------------------------------------------------
  logic [31:20] mem_base, mem_limit;
  logic [63:20] pref_base, pref_limit;

  // the windows as byte ranges, for the SMFU's ingress check (docs/pcie-rules.md, row 8)
  assign win_base[0]  = {32'd0, mem_base, 20'h00000};
  assign win_limit[0] = {32'd0, mem_limit, 20'hfffff};
  assign win_base[1]  = {pref_base, 20'h00000};
  assign win_limit[1] = {pref_limit, 20'hfffff};

  logic                   cfg_valid, cfg_ready;
  pcie_tlp_pkg::tlp_req_t cfg_req;
  logic [31:0]            cfg_wdata;
  logic                   upur_valid, upur_ready;
  pcie_tlp_pkg::tlp_req_t upur_req;
  logic                   dnur_valid, dnur_ready;
  pcie_tlp_pkg::tlp_req_t dnur_req;

  // downstream merge: 0 forwarded from above, 1 UR completions for requests from below
  logic [2*DW-1:0] dn_data;
  logic [2*KW-1:0] dn_keep;
  logic [1:0]      dn_sop, dn_eop, dn_valid, dn_ready;
  logic [DW-1:0]   dn_arb_data;
  logic [KW-1:0]   dn_arb_keep;
  logic            dn_arb_sop, dn_arb_eop, dn_arb_valid, dn_arb_ready;

  // upstream completion merge: 0 own config, 1 UR for requests from above, 2 from below
  logic [3*DW-1:0] uc_data;
  logic [3*KW-1:0] uc_keep;
  logic [2:0]      uc_sop, uc_eop, uc_valid, uc_ready;
  logic [DW-1:0]   uc_arb_data;
  logic [KW-1:0]   uc_arb_keep;
  logic            uc_arb_sop, uc_arb_eop, uc_arb_valid, uc_arb_ready;

  // upstream requests (before the output slice)
  logic [DW-1:0]   ur_data;
  logic [KW-1:0]   ur_keep;
  logic            ur_sop, ur_eop, ur_valid, ur_ready;

  // ------------------------------------------------------------------
  // Configuration space
  // ------------------------------------------------------------------
  pcie_cfg_t1 #(
    .VENDOR_ID  (VENDOR_ID),
    .DEVICE_ID  (DEVICE_ID),
    .REVISION   (REVISION),
    .CLASS_CODE (CLASS_CODE),
    .LINK_SPEED (LINK_SPEED),
    .LINK_WIDTH (LINK_WIDTH)
  ) u_cfg (
    .clk, .rst,
    .req_valid   (cfg_valid),
    .req_ready   (cfg_ready),
    .req         (cfg_req),
    .req_wdata   (cfg_wdata),
    `TLP_CONNECT_AT(m_cpl, uc, 0),
    .cpl_id, .mem_en, .bus_master, .pri_bus, .sec_bus, .sub_bus,
    .mem_base, .mem_limit, .pref_base, .pref_limit,
    .sec_reset, .msi_en, .msi_addr, .msi_data, .dev_mps, .dev_mrrs, .dev_ro_en, .dev_ns_en, .dev_ext_tag,
    .link_up,
    .ur_detected (ev_up_ur || ev_dn_ur)
  );

  // ------------------------------------------------------------------
  // From above
  // ------------------------------------------------------------------
  pcie_rp_up u_up (
    .clk, .rst,
    .s_up_data, .s_up_keep, .s_up_sop, .s_up_eop, .s_up_valid, .s_up_ready,
    .mem_en, .sec_bus, .sub_bus, .mem_base, .mem_limit, .pref_base, .pref_limit,
    .dl_up       (link_up && !sec_reset),   // PCIe 2.9.1: DL_Down -> UR / discard
    .cfg_valid, .cfg_ready, .cfg_req, .cfg_wdata,
    .ur_valid    (upur_valid),
    .ur_ready    (upur_ready),
    .ur_req      (upur_req),
    `TLP_CONNECT_AT(m_fwd, dn, 0),
    .ev_rx   (ev_up_rx),
    .ev_cfg  (ev_up_cfg),
    .ev_fwd  (ev_up_fwd),
    .ev_ur   (ev_up_ur),
    .ev_drop (ev_up_drop)
  );

  pcie_cpl_ur u_up_ur (
    .clk, .rst,
    .req_valid   (upur_valid),
    .req_ready   (upur_ready),
    .req         (upur_req),
    .cpl_id,
    `TLP_CONNECT_AT(m_cpl, uc, 1)
  );

  // ------------------------------------------------------------------
  // From below
  // ------------------------------------------------------------------
  pcie_rp_dn u_dn (
    .clk, .rst,
    .s_dn_data, .s_dn_keep, .s_dn_sop, .s_dn_eop, .s_dn_valid, .s_dn_ready,
    .bus_master, .mem_base, .mem_limit, .pref_base, .pref_limit,
    `TLP_CONNECT_AT(m_cpl, uc, 2),
    `TLP_CONNECT(m_req, ur),
    .ur_valid    (dnur_valid),
    .ur_ready    (dnur_ready),
    .ur_req      (dnur_req),
    .ev_rx   (ev_dn_rx),
    .ev_cpl  (ev_dn_cpl),
    .ev_req  (ev_dn_req),
    .ev_ur   (ev_dn_ur),
    .ev_drop (ev_dn_drop)
  );

  pcie_cpl_ur u_dn_ur (
    .clk, .rst,
    .req_valid   (dnur_valid),
    .req_ready   (dnur_ready),
    .req         (dnur_req),
    .cpl_id,
    `TLP_CONNECT_AT(m_cpl, dn, 1)
  );

  // ------------------------------------------------------------------
  // Downstream output
  // ------------------------------------------------------------------
  pcie_tlp_arb #(.N(2), .DATA_W(DW)) u_dn_arb (
    .clk, .rst,
    .s_data (dn_data), .s_keep (dn_keep), .s_sop (dn_sop), .s_eop (dn_eop),
    .s_valid (dn_valid), .s_ready (dn_ready),
    .m_data (dn_arb_data), .m_keep (dn_arb_keep), .m_sop (dn_arb_sop), .m_eop (dn_arb_eop),
    .m_valid (dn_arb_valid), .m_ready (dn_arb_ready)
  );

  pcie_tlp_slice #(.DATA_W(DW)) u_dn_slice (
    .clk, .rst,
    .s_data (dn_arb_data), .s_keep (dn_arb_keep), .s_sop (dn_arb_sop), .s_eop (dn_arb_eop),
    .s_valid (dn_arb_valid), .s_ready (dn_arb_ready),
    .m_data (m_dn_data), .m_keep (m_dn_keep), .m_sop (m_dn_sop), .m_eop (m_dn_eop),
    .m_valid (m_dn_valid), .m_ready (m_dn_ready)
  );

  assign ev_dn_tx = m_dn_valid && m_dn_ready && m_dn_sop;

  // ------------------------------------------------------------------
  // Upstream outputs
  // ------------------------------------------------------------------
  pcie_tlp_arb #(.N(3), .DATA_W(DW)) u_uc_arb (
    .clk, .rst,
    .s_data (uc_data), .s_keep (uc_keep), .s_sop (uc_sop), .s_eop (uc_eop),
    .s_valid (uc_valid), .s_ready (uc_ready),
    .m_data (uc_arb_data), .m_keep (uc_arb_keep), .m_sop (uc_arb_sop), .m_eop (uc_arb_eop),
    .m_valid (uc_arb_valid), .m_ready (uc_arb_ready)
  );

  pcie_tlp_slice #(.DATA_W(DW)) u_uc_slice (
    .clk, .rst,
    .s_data (uc_arb_data), .s_keep (uc_arb_keep), .s_sop (uc_arb_sop), .s_eop (uc_arb_eop),
    .s_valid (uc_arb_valid), .s_ready (uc_arb_ready),
    .m_data (m_up_cpl_data), .m_keep (m_up_cpl_keep), .m_sop (m_up_cpl_sop),
    .m_eop (m_up_cpl_eop), .m_valid (m_up_cpl_valid), .m_ready (m_up_cpl_ready)
  );

  pcie_tlp_slice #(.DATA_W(DW)) u_ur_slice (
    .clk, .rst,
    .s_data (ur_data), .s_keep (ur_keep), .s_sop (ur_sop), .s_eop (ur_eop),
    .s_valid (ur_valid), .s_ready (ur_ready),
    .m_data (m_up_req_data), .m_keep (m_up_req_keep), .m_sop (m_up_req_sop),
    .m_eop (m_up_req_eop), .m_valid (m_up_req_valid), .m_ready (m_up_req_ready)
  );

endmodule

`default_nettype wire
