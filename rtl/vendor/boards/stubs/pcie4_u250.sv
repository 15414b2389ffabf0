// SPDX-License-Identifier: Apache-2.0
//
// pcie4_u250: LINT-ONLY black box of the PCIe IP that
// fw/boards/u250/ip/pcie4_u250.tcl generates (Xilinx pcie4_uscale_plus, PG213:
// endpoint, Gen3 x4, 128-bit AXI-Stream at 250 MHz). Declares only the ports
// extoll_u250 connects, with the IP's port names and the widths of that
// configuration (tuser CQ 88, CC 33, RQ 62, RC 75); drives every output with 0.
// Vivado uses the generated IP and never reads this file (unit
// vendor/boards/stubs).

`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module pcie4_u250 (
  // ---------------- serial lanes, reference clock, PERST# ----------------
  output      logic [3:0]   pci_exp_txp,
  output      logic [3:0]   pci_exp_txn,
  input  wire logic [3:0]   pci_exp_rxp,
  input  wire logic [3:0]   pci_exp_rxn,
  input  wire logic         sys_clk,          // refclk / 2 (IBUFDS_GTE4 ODIV2)
  input  wire logic         sys_clk_gt,       // refclk (IBUFDS_GTE4 O)
  input  wire logic         sys_reset,        // PERST#, active low

  // ---------------- user clock and reset ----------------
  output      logic         user_clk,
  output      logic         user_reset,
  output      logic         user_lnk_up,

  // ---------------- CQ (completer requests, IP -> user) ----------------
  output      logic [127:0] m_axis_cq_tdata,
  output      logic [3:0]   m_axis_cq_tkeep,
  output      logic         m_axis_cq_tlast,
  output      logic [87:0]  m_axis_cq_tuser,
  output      logic         m_axis_cq_tvalid,
  input  wire logic         m_axis_cq_tready,
  input  wire logic [1:0]   pcie_cq_np_req,

  // ---------------- CC (completer completions, user -> IP) ----------------
  input  wire logic [127:0] s_axis_cc_tdata,
  input  wire logic [3:0]   s_axis_cc_tkeep,
  input  wire logic         s_axis_cc_tlast,
  input  wire logic [32:0]  s_axis_cc_tuser,
  input  wire logic         s_axis_cc_tvalid,
  output      logic [3:0]   s_axis_cc_tready,

  // ---------------- RQ (requester requests, user -> IP) ----------------
  input  wire logic [127:0] s_axis_rq_tdata,
  input  wire logic [3:0]   s_axis_rq_tkeep,
  input  wire logic         s_axis_rq_tlast,
  input  wire logic [61:0]  s_axis_rq_tuser,
  input  wire logic         s_axis_rq_tvalid,
  output      logic [3:0]   s_axis_rq_tready,
  output      logic [5:0]   pcie_rq_seq_num0,
  output      logic         pcie_rq_seq_num_vld0,
  output      logic [5:0]   pcie_rq_seq_num1,
  output      logic         pcie_rq_seq_num_vld1,

  // ---------------- RC (requester completions, IP -> user) ----------------
  output      logic [127:0] m_axis_rc_tdata,
  output      logic [3:0]   m_axis_rc_tkeep,
  output      logic         m_axis_rc_tlast,
  output      logic [74:0]  m_axis_rc_tuser,
  output      logic         m_axis_rc_tvalid,
  input  wire logic         m_axis_rc_tready,

  // ---------------- configuration status ----------------
  output      logic [7:0]   cfg_bus_number,
  output      logic [15:0]  cfg_function_status,
  output      logic [1:0]   cfg_max_payload,
  output      logic [2:0]   cfg_max_read_req,
  output      logic [11:0]  cfg_function_power_state,

  // ---------------- MSI-X (MSI-X_External: the table lives in the user's BAR0) ----------------
  output      logic [3:0]   cfg_interrupt_msix_enable,
  output      logic [3:0]   cfg_interrupt_msix_mask,
  input  wire logic [63:0]  cfg_interrupt_msix_address,
  input  wire logic [31:0]  cfg_interrupt_msix_data,
  input  wire logic         cfg_interrupt_msix_int,
  output      logic         cfg_interrupt_msi_sent,   // MSI and MSI-X share these two
  output      logic         cfg_interrupt_msi_fail,
  input  wire logic [7:0]   cfg_interrupt_msi_function_number
);
  assign {pci_exp_txp, pci_exp_txn, user_clk, user_reset, user_lnk_up} = '0;
  assign {m_axis_cq_tdata, m_axis_cq_tkeep, m_axis_cq_tlast, m_axis_cq_tuser, m_axis_cq_tvalid} = '0;
  assign s_axis_cc_tready = '0;
  assign s_axis_rq_tready = '0;
  assign {pcie_rq_seq_num0, pcie_rq_seq_num_vld0, pcie_rq_seq_num1, pcie_rq_seq_num_vld1} = '0;
  assign {m_axis_rc_tdata, m_axis_rc_tkeep, m_axis_rc_tlast, m_axis_rc_tuser, m_axis_rc_tvalid} = '0;
  assign {cfg_bus_number, cfg_function_status, cfg_max_payload, cfg_max_read_req} = '0;
  assign cfg_function_power_state = '0;
  assign {cfg_interrupt_msix_enable, cfg_interrupt_msix_mask} = '0;
  assign {cfg_interrupt_msi_sent, cfg_interrupt_msi_fail} = '0;
endmodule
/* verilator lint_on UNUSEDSIGNAL */

`default_nettype wire
