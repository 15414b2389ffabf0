// SPDX-License-Identifier: Apache-2.0
//
// nic_side_ports.svh: the port list of a NIC role side (nic_ep_side, nic_rp_side).
// Both sides have the same ports, so extoll_nic picks one under ROLE with the
// same connections; the list is written once here and included by both.

  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- TLPs from the PCIe link (extoll_nic s_tlp) ----------------
  `TLP_S_PORTS(s_tlp),

  // ---------------- TLPs to the PCIe link (extoll_nic m_tlp) ----------------
  `TLP_M_PORTS(m_tlp),

  // ---------------- PCIe side band (extoll_nic) ----------------
  output      logic                  intx,           // INTA# level
  input  wire logic                  pcie_link_up,   // downstream link up
  output      logic                  pcie_sec_reset, // secondary bus reset

  // ---------------- nic_core: node ----------------
  input  wire logic [15:0]           node_id,

  // ---------------- nic_core: BAR0 cpuif (master 0 of the arbiter) ----------------
  `CPUIF_M_PORTS(bar, REG_ADDR_W),

  // ---------------- nic_core: backdoor TX, RX, not extracted ----------------
  `TLP_S_PORTS(bd_tx),
  `TLP_M_PORTS(bd_rx),
  input  wire logic                  bd_pass_valid,
  input  wire logic                  bd_pass_sop,

  // ---------------- nic_core: completion-record MWr ----------------
  `TLP_S_PORTS(rec_tlp),

  // ---------------- nic_core: PCIe state and events (pcie.*; nic_ports.svh) ----------------
  `NIC_PCIE_STATE_PORTS(output, input wire),
  input  wire logic                  irq_pending,

  // ---------------- nic_core: SMFU / notify configuration and status (nic_ports.svh) ----------------
  `NIC_SMFU_CFG_PORTS(input wire),
  `NIC_SMFU_ST_PORTS(output),

  // ---------------- nic_core: router local port 1 ----------------
  `NET_LOCAL_PORTS_OI(l1_out, l1_in)  // router -> SMFU: l1_out; SMFU -> router: l1_in
