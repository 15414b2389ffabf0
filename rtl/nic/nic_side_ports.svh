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

  // ---------------- nic_core: PCIe state and events (pcie.*) ----------------
  output      logic [15:0]           cpl_id,
  output      logic                  mem_en,
  output      logic                  bus_master,
  output      logic                  intx_disable,
  output      logic                  ev_rx_tlp,
  output      logic                  ev_tx_tlp,
  output      logic                  ev_ur,
  output      logic                  ev_drop,
  output      logic                  ev_aperture,
  input  wire logic                  irq_pending,
  // error and MSI-X events {poisoned sent, msix message, CA sent, UR/CA completion received,
  // poisoned received}
  output      logic [4:0]            pcie_ev,
  output      logic [2:0]            pcie_st,        // {D3hot, MSI-X enable, MSI-X pending}
  input  wire logic [63:0]           msix_addr,      // msix.addr (table entry 0)
  input  wire logic [31:0]           msix_data,      // msix.ctrl.data
  input  wire logic                  msix_mask,      // msix.ctrl.mask

  // ---------------- nic_core: SMFU / notify configuration ----------------
  input  wire logic [15:0]           sm_timeout,
  input  wire logic                  sm_passthru,
  input  wire logic [15:0]           sm_up_node,
  input  wire logic [NIVL-1:0][63:0] sm_eg_start,
  input  wire logic [NIVL-1:0][63:0] sm_eg_end,
  input  wire logic [NIVL-1:0]       sm_eg_valid,
  input  wire logic [NIVL-1:0][15:0] sm_eg_node,
  input  wire logic [NIVL-1:0][63:0] sm_in_base,
  input  wire logic [63:0]           nq_win_base,
  input  wire logic [63:0]           nq_win_size,
  input  wire logic [63:0]           nq_ring_base,
  input  wire logic                  nq_enable,
  input  wire logic [3:0]            nq_log2,
  input  wire logic [31:0]           nq_cons,

  // ---------------- nic_core: SMFU / notify status ----------------
  output      logic [31:0]           st_eg_hits,
  output      logic [31:0]           st_eg_misses,
  output      logic [31:0]           st_timeouts,
  output      logic [31:0]           st_up_reqs,
  output      logic [31:0]           st_in_reqs,
  output      logic [31:0]           st_nq_prod,
  output      logic [31:0]           st_nq_full_stalls,
  output      logic [31:0]           st_nq_events,
  output      logic                  irq_notify,

  // ---------------- nic_core: router local port 1 ----------------
  `NET_LOCAL_PORTS_OI(l1_out, l1_in)  // router -> SMFU: l1_out; SMFU -> router: l1_in
