// SPDX-License-Identifier: Apache-2.0
//
// nic_side_ports.svh: the port list of a NIC role side (nic_ep_side, nic_rp_side).
// Both sides have the same ports, so extoll_nic picks one under ROLE with the
// same connections; the list is written once here and included by both.

  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- TLPs from the PCIe link (extoll_nic s_tlp) ----------------
  input  wire logic [127:0]          s_tlp_data,
  input  wire logic [3:0]            s_tlp_keep,
  input  wire logic                  s_tlp_sop,
  input  wire logic                  s_tlp_eop,
  input  wire logic                  s_tlp_valid,
  output      logic                  s_tlp_ready,

  // ---------------- TLPs to the PCIe link (extoll_nic m_tlp) ----------------
  output      logic [127:0]          m_tlp_data,
  output      logic [3:0]            m_tlp_keep,
  output      logic                  m_tlp_sop,
  output      logic                  m_tlp_eop,
  output      logic                  m_tlp_valid,
  input  wire logic                  m_tlp_ready,

  // ---------------- PCIe side band (extoll_nic) ----------------
  output      logic                  intx,           // INTA# level
  input  wire logic                  pcie_link_up,   // downstream link up
  output      logic                  pcie_sec_reset, // secondary bus reset

  // ---------------- nic_core: node ----------------
  input  wire logic [15:0]           node_id,

  // ---------------- nic_core: BAR0 cpuif (master 0 of the arbiter) ----------------
  output      logic                  bar_req,
  output      logic                  bar_req_is_wr,
  output      logic [REG_ADDR_W-1:0] bar_addr,
  output      logic [63:0]           bar_wr_data,
  output      logic [63:0]           bar_wr_biten,
  input  wire logic                  bar_stall,
  input  wire logic                  bar_rd_ack,
  input  wire logic                  bar_rd_err,
  input  wire logic [63:0]           bar_rd_data,
  input  wire logic                  bar_wr_ack,
  input  wire logic                  bar_wr_err,

  // ---------------- nic_core: backdoor TX, RX, not extracted ----------------
  input  wire logic [127:0]          bd_tx_data,
  input  wire logic [3:0]            bd_tx_keep,
  input  wire logic                  bd_tx_sop,
  input  wire logic                  bd_tx_eop,
  input  wire logic                  bd_tx_valid,
  output      logic                  bd_tx_ready,
  output      logic [127:0]          bd_rx_data,
  output      logic [3:0]            bd_rx_keep,
  output      logic                  bd_rx_sop,
  output      logic                  bd_rx_eop,
  output      logic                  bd_rx_valid,
  input  wire logic                  bd_rx_ready,
  input  wire logic                  bd_pass_valid,
  input  wire logic                  bd_pass_sop,

  // ---------------- nic_core: completion-record MWr ----------------
  input  wire logic [127:0]          rec_tlp_data,
  input  wire logic [3:0]            rec_tlp_keep,
  input  wire logic                  rec_tlp_sop,
  input  wire logic                  rec_tlp_eop,
  input  wire logic                  rec_tlp_valid,
  output      logic                  rec_tlp_ready,

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
  input  wire logic                  l1_out_valid,   // router -> SMFU
  input  wire logic [127:0]          l1_out_data,
  input  wire logic                  l1_out_last,
  input  wire logic                  l1_out_vc,
  output      logic [1:0]            l1_out_credit,
  output      logic                  l1_in_valid,    // SMFU -> router
  output      logic [127:0]          l1_in_data,
  output      logic                  l1_in_last,
  output      logic                  l1_in_vc,
  input  wire logic [1:0]            l1_in_credit
