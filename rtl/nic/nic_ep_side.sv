// SPDX-License-Identifier: Apache-2.0
//
// nic_ep_side: the PCIe side of the NIC in the endpoint role (ROLE 0, the NIC
// of a booster interface host; docs/nic.md), wiring only. Port list shared
// with nic_rp_side, so extoll_nic instantiates either with one connection
// list; the signals this role does not have are tied off here.
//
//   s_tlp --> pcie_ep (Type-0 config, BAR0 bridge -> bar_* cpuif, UR)
//               | ap_* (BAR2 aperture), scpl_* (completions with an SMFU tag)
//               v
//             smfu_host <--> router local port 1 (l1_*)
//   m_tlp <-- pcie_tlp_arb merge: 0 pcie_ep, 1 completion records (rec_tlp),
//             2 backdoor TX (bd_tx: raw TLPs toward the host), 3 smfu_host
//
// The SMFU's TLPs (aperture read completions, pass-through MWr/MRd,
// notification entries) come from one source, so they keep their order.
// No completions come up to the backdoor in this role (the NIC issues only
// MWr toward the host): bd_rx is idle. Synchronous to clk, reset rst.

`default_nettype none
`include "net_local_port.svh"
`include "tlp_stream.svh"
`include "cpuif_port.svh"
`include "nic_ports.svh"

module nic_ep_side #(
  `include "nic_side_params.svh"
) (
  `include "nic_side_ports.svh"
);

  localparam int NM = 4;                             // m_tlp merge inputs
  logic              ep_ev_tx_tlp;                   // counted after the merge instead
  logic [NM*128-1:0] mg_data;
  logic [NM*4-1:0]   mg_keep;
  logic [NM-1:0]     mg_sop, mg_eop, mg_valid, mg_ready;
  logic [127:0]      ap_data, scpl_data;
  logic [3:0]        ap_keep, scpl_keep;
  logic              ap_sop, ap_eop, ap_valid, ap_ready;
  logic              scpl_sop, scpl_eop, scpl_valid, scpl_ready;
  logic [31:0]       sm_drops;
  logic [2:0]        ep_mps, ep_mrrs;
  logic              ep_ro_en, ep_ns_en, ep_ext_tag;
  logic              tx_sig_ca, tx_poisoned_wr;
  logic              tx_mon_ur, tx_mon_poisoned, tx_mon_pcpl;   // (UR, poisoned completions: not Status bits)

  pcie_ep #(
    .VENDOR_ID     (VENDOR_ID),
    .DEVICE_ID     (DEVICE_ID),
    .REVISION      (REVISION),
    .CLASS_CODE    (CLASS_CODE),
    .REG_BAR_LOG2  (REG_BAR_LOG2),
    .APERTURE_LOG2 (APERTURE_LOG2),
    .APERTURE_64   (APERTURE_64),
    .REG_MAP_BYTES (REG_MAP_BYTES),
    .REG_ADDR_W    (REG_ADDR_W),
    .BURST_DW      (BURST_DW),
    .SMFU          (1'b1),
    .CPL_TAG_BASE  (SMFU_TAG_BASE),
    .CPL_TAGS      (SMFU_TAGS)
  ) u_ep (
    .clk, .rst,
    `TLP_CONNECT(s_tlp, s_tlp),
    `TLP_CONNECT_AT(m_tlp, mg, 0),
    .ap_data, .ap_keep, .ap_sop, .ap_eop, .ap_valid, .ap_ready,
    .scpl_data, .scpl_keep, .scpl_sop, .scpl_eop, .scpl_valid, .scpl_ready,
    .cpuif_req          (bar_req),
    .cpuif_req_is_wr    (bar_req_is_wr),
    .cpuif_addr         (bar_addr),
    .cpuif_wr_data      (bar_wr_data),
    .cpuif_wr_biten     (bar_wr_biten),
    .cpuif_req_stall_wr (bar_stall),
    .cpuif_req_stall_rd (bar_stall),
    .cpuif_rd_ack       (bar_rd_ack),
    .cpuif_rd_err       (bar_rd_err),
    .cpuif_rd_data      (bar_rd_data),
    .cpuif_wr_ack       (bar_wr_ack),
    .cpuif_wr_err       (bar_wr_err),
    .irq_pending, .intx,
    .msix_addr, .msix_data, .msix_mask,
    .msix_pending       (pcie_st[0]),
    .msix_en            (pcie_st[1]),
    .d3hot              (pcie_st[2]),
    .dev_mps            (ep_mps),
    .dev_mrrs           (ep_mrrs),
    .dev_ro_en          (ep_ro_en),
    .dev_ns_en          (ep_ns_en),
    .dev_ext_tag        (ep_ext_tag),
    .tx_sig_ca, .tx_poisoned_wr,
    .cpl_id, .mem_en, .bus_master, .intx_disable,
    .ev_rx_tlp,
    .ev_tx_tlp          (ep_ev_tx_tlp),
    .ev_ur, .ev_drop, .ev_aperture,
    .ev_poisoned        (pcie_ev[0]),
    .ev_cpl_err         (pcie_ev[1]),
    .ev_msix            (pcie_ev[3])
  );

  `TLP_ASSIGN_AT(mg, 1, rec_tlp);
  `TLP_ASSIGN_AT(mg, 2, bd_tx);

  smfu_host #(
    .NIVL            (NIVL),
    .TAG_BASE        (SMFU_TAG_BASE),
    .PT_TAGS         (SMFU_TAGS),
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
    .RX_DEPTH        (RX_DEPTH)
  ) u_smfu (
    .clk, .rst,
    .cfg_node_id      (node_id),
    .cfg_pcie_id      (cpl_id),
    .cfg_bus_master   (bus_master),
    .cfg_timeout      (sm_timeout),
    .cfg_mps          (ep_mps),
    .cfg_mrrs         (ep_mrrs),
    .cfg_ro_en        (ep_ro_en),
    .cfg_ns_en        (ep_ns_en),
    .cfg_ext_tag      (ep_ext_tag),
    .cfg_eg_start     (sm_eg_start),
    .cfg_eg_end       (sm_eg_end),
    .cfg_eg_valid     (sm_eg_valid),
    .cfg_eg_node      (sm_eg_node),
    .cfg_nq_win_base  (nq_win_base),
    .cfg_nq_win_size  (nq_win_size),
    .cfg_nq_ring_base (nq_ring_base),
    .cfg_nq_enable    (nq_enable),
    .cfg_nq_log2      (nq_log2),
    .cfg_nq_cons      (nq_cons),
    `TLP_CONNECT(s_ap, ap),
    `TLP_CONNECT(s_cpl, scpl),
    `TLP_CONNECT_AT(m_tlp, mg, 3),
    `NET_LOCAL_CONNECT(s_net, m_net, l1_out, l1_in),
    .st_eg_hits, .st_eg_misses, .st_timeouts, .st_up_reqs,
    .st_nq_prod, .st_nq_full_stalls, .st_nq_events,
    .st_drops   (sm_drops),
    .irq_notify
  );
  assign st_in_reqs = '0;
  // no DMA window table in this role (dma.* reads 0)
  assign st_dma_refused   = '0;
  assign st_dma_last_addr = '0;
  assign st_dma_last_kind = '0;

  // the sources are registered or (SMFU) arbitrated registered streams:
  // the merge needs no output stage
  pcie_tlp_arb #(.N(NM), .DATA_W(128)) u_merge (
    .clk, .rst,
    `TLP_CONNECT(s, mg),
    `TLP_CONNECT(m, m_tlp)
  );
  assign ev_tx_tlp = m_tlp_valid && m_tlp_ready && m_tlp_sop;

  // what leaves toward the host: CA completions (Status.Signaled Target
  // Abort, pcie.ca_sent) and poisoned writes (Master Data Parity Error)
  pcie_err_mon #(.OWN_TAG_BASE (8'h00), .OWN_TAGS (0)) u_tx_mon (
    .clk, .rst,
    .tlp_data (m_tlp_data), .tlp_sop (m_tlp_sop), .tlp_valid (m_tlp_valid), .tlp_ready (m_tlp_ready),
    .cpl_ur (tx_mon_ur), .cpl_ca (tx_sig_ca), .poisoned (tx_mon_poisoned),
    .poisoned_cpl (tx_mon_pcpl), .poisoned_wr (tx_poisoned_wr)
  );
  assign pcie_ev[2] = tx_sig_ca;
  assign pcie_ev[4] = tx_mon_poisoned;   // pcie.poisoned_tx
  assign pcie_ev[5] = 1'b0;              // pcie.rc_err: a hard IP's adapter only

  // no completions come up to the backdoor in this role (the NIC issues only MWr)
  assign bd_rx_data     = '0;
  assign bd_rx_keep     = '0;
  assign bd_rx_sop      = 1'b0;
  assign bd_rx_eop      = 1'b0;
  assign bd_rx_valid    = 1'b0;
  assign pcie_sec_reset = 1'b0;

  logic unused;
  assign unused = ^{rma_win_en, rma_win_base, dma_enforce, dma_base, dma_limit, dma_perm, tx_mon_ur, tx_mon_pcpl, bd_rx_ready, bd_pass_valid, bd_pass_sop, pcie_link_up, ep_ev_tx_tlp, sm_drops,
                    sm_in_base, sm_passthru, sm_up_node};

endmodule

`default_nettype wire
