// SPDX-License-Identifier: Apache-2.0
//
// tb_smfu_pair: test harness top for the SMFU block tests: a host NIC's SMFU
// (smfu_host, ports h_*) and an NAA NIC's SMFU (smfu_naa, ports n_*), side by
// side. The C++ test (tb_smfu.cpp) plays the routers and the wire between the
// two local ports (credits, delays, dropping packets), the host (aperture
// requests, host memory) and the device below the NAA's root port.

`default_nettype none
`include "net_local_port.svh"
`include "tlp_stream.svh"

module tb_smfu_pair
#(
  parameter int NIVL = 16    // intervals
) (
  input  wire logic                  clk,
  input  wire logic                  rst,

  // ---------------- host NIC configuration ----------------
  input  wire logic [15:0]           h_cfg_node_id,
  input  wire logic [15:0]           h_cfg_pcie_id,
  input  wire logic                  h_cfg_bus_master,
  input  wire logic                  h_cfg_ro_en,
  input  wire logic                  h_cfg_ns_en,
  input  wire logic                  h_cfg_ext_tag,
  input  wire logic [15:0]           h_cfg_timeout,
  input  wire logic [2:0]            h_cfg_mps,
  input  wire logic [2:0]            h_cfg_mrrs,
  input  wire logic [NIVL-1:0][63:0] h_cfg_eg_start,
  input  wire logic [NIVL-1:0][63:0] h_cfg_eg_end,
  input  wire logic [NIVL-1:0]       h_cfg_eg_valid,
  input  wire logic [NIVL-1:0][15:0] h_cfg_eg_node,
  input  wire logic [63:0]           h_cfg_nq_win_base,
  input  wire logic [63:0]           h_cfg_nq_win_size,
  input  wire logic [63:0]           h_cfg_nq_ring_base,
  input  wire logic                  h_cfg_nq_enable,
  input  wire logic [3:0]            h_cfg_nq_log2,
  input  wire logic [31:0]           h_cfg_nq_cons,

  // ---------------- host NIC TLP streams ----------------
  `TLP_S_PORTS(h_ap),
  `TLP_S_PORTS(h_cpl),
  `TLP_M_PORTS(h_tlp),

  // ---------------- host NIC network port ----------------
  `NET_LOCAL_PORTS(h_s_net, h_m_net),

  // ---------------- host NIC status ----------------
  output      logic [31:0]           h_eg_hits, h_eg_misses, h_timeouts, h_up_reqs,
  output      logic [31:0]           h_nq_prod, h_nq_full_stalls, h_nq_events, h_drops,
  output      logic                  h_irq_notify,

  // ---------------- NAA NIC configuration ----------------
  input  wire logic [15:0]           n_cfg_node_id,
  input  wire logic [15:0]           n_cfg_rp_id,
  input  wire logic                  n_cfg_passthru,
  input  wire logic [15:0]           n_cfg_up_node,
  input  wire logic [NIVL-1:0][63:0] n_cfg_in_base,
  input  wire logic [15:0]           n_cfg_timeout,
  input  wire logic [2:0]            n_cfg_dev_mps,
  input  wire logic [2:0]            n_cfg_dev_mrrs,
  input  wire logic                  n_sbr,
  input  wire logic                  n_cfg_ro_en,
  input  wire logic                  n_cfg_ns_en,
  input  wire logic                  n_cfg_ext_tag,
  input  wire logic [1:0][63:0]      n_cfg_fwd_base,
  input  wire logic [1:0][63:0]      n_cfg_fwd_limit,

  // ---------------- NAA NIC TLP streams ----------------
  `TLP_S_PORTS(n_req),
  `TLP_S_PORTS(n_cpl),
  `TLP_M_PORTS(n_dev),

  // ---------------- NAA NIC network port ----------------
  `NET_LOCAL_PORTS(n_s_net, n_m_net),

  // ---------------- NAA NIC status ----------------
  output      logic [31:0]           n_in_reqs, n_up_reqs, n_drops, n_timeouts, n_in_refused
);

  smfu_host #(.NIVL(NIVL)) u_host (
    .clk, .rst,
    .cfg_node_id (h_cfg_node_id), .cfg_pcie_id (h_cfg_pcie_id), .cfg_bus_master (h_cfg_bus_master),
    .cfg_ro_en (h_cfg_ro_en), .cfg_ns_en (h_cfg_ns_en), .cfg_ext_tag (h_cfg_ext_tag),
    .cfg_timeout (h_cfg_timeout), .cfg_mps (h_cfg_mps), .cfg_mrrs (h_cfg_mrrs), .cfg_eg_start (h_cfg_eg_start), .cfg_eg_end (h_cfg_eg_end),
    .cfg_eg_valid (h_cfg_eg_valid), .cfg_eg_node (h_cfg_eg_node),
    .cfg_nq_win_base (h_cfg_nq_win_base), .cfg_nq_win_size (h_cfg_nq_win_size),
    .cfg_nq_ring_base (h_cfg_nq_ring_base), .cfg_nq_enable (h_cfg_nq_enable),
    .cfg_nq_log2 (h_cfg_nq_log2), .cfg_nq_cons (h_cfg_nq_cons),
    .s_ap_data (h_ap_data), .s_ap_keep (h_ap_keep), .s_ap_sop (h_ap_sop), .s_ap_eop (h_ap_eop),
    .s_ap_valid (h_ap_valid), .s_ap_ready (h_ap_ready),
    .s_cpl_data (h_cpl_data), .s_cpl_keep (h_cpl_keep), .s_cpl_sop (h_cpl_sop), .s_cpl_eop (h_cpl_eop),
    .s_cpl_valid (h_cpl_valid), .s_cpl_ready (h_cpl_ready),
    .m_tlp_data (h_tlp_data), .m_tlp_keep (h_tlp_keep), .m_tlp_sop (h_tlp_sop), .m_tlp_eop (h_tlp_eop),
    .m_tlp_valid (h_tlp_valid), .m_tlp_ready (h_tlp_ready),
    .s_net_valid (h_s_net_valid), .s_net_data (h_s_net_data), .s_net_last (h_s_net_last),
    .s_net_vc (h_s_net_vc), .m_net_credit (h_m_net_credit),
    .m_net_valid (h_m_net_valid), .m_net_data (h_m_net_data), .m_net_last (h_m_net_last),
    .m_net_vc (h_m_net_vc), .s_net_credit (h_s_net_credit),
    .st_eg_hits (h_eg_hits), .st_eg_misses (h_eg_misses), .st_timeouts (h_timeouts),
    .st_up_reqs (h_up_reqs), .st_nq_prod (h_nq_prod), .st_nq_full_stalls (h_nq_full_stalls),
    .st_nq_events (h_nq_events), .st_drops (h_drops), .irq_notify (h_irq_notify)
  );

  smfu_naa #(.NIVL(NIVL)) u_naa (
    .clk, .rst,
    .cfg_node_id (n_cfg_node_id), .cfg_rp_id (n_cfg_rp_id), .cfg_passthru (n_cfg_passthru),
    .cfg_up_node (n_cfg_up_node), .cfg_in_base (n_cfg_in_base),
    .cfg_timeout (n_cfg_timeout), .cfg_dev_mps (n_cfg_dev_mps), .cfg_dev_mrrs (n_cfg_dev_mrrs), .sbr (n_sbr),
    .cfg_ro_en (n_cfg_ro_en), .cfg_ns_en (n_cfg_ns_en), .cfg_ext_tag (n_cfg_ext_tag),
    .cfg_fwd_base (n_cfg_fwd_base), .cfg_fwd_limit (n_cfg_fwd_limit),
    .s_dev_req_data (n_req_data), .s_dev_req_keep (n_req_keep), .s_dev_req_sop (n_req_sop),
    .s_dev_req_eop (n_req_eop), .s_dev_req_valid (n_req_valid), .s_dev_req_ready (n_req_ready),
    .s_dev_cpl_data (n_cpl_data), .s_dev_cpl_keep (n_cpl_keep), .s_dev_cpl_sop (n_cpl_sop),
    .s_dev_cpl_eop (n_cpl_eop), .s_dev_cpl_valid (n_cpl_valid), .s_dev_cpl_ready (n_cpl_ready),
    .m_dev_data (n_dev_data), .m_dev_keep (n_dev_keep), .m_dev_sop (n_dev_sop), .m_dev_eop (n_dev_eop),
    .m_dev_valid (n_dev_valid), .m_dev_ready (n_dev_ready),
    .s_net_valid (n_s_net_valid), .s_net_data (n_s_net_data), .s_net_last (n_s_net_last),
    .s_net_vc (n_s_net_vc), .m_net_credit (n_m_net_credit),
    .m_net_valid (n_m_net_valid), .m_net_data (n_m_net_data), .m_net_last (n_m_net_last),
    .m_net_vc (n_m_net_vc), .s_net_credit (n_s_net_credit),
    .st_in_reqs (n_in_reqs), .st_up_reqs (n_up_reqs), .st_drops (n_drops),
    .st_timeouts (n_timeouts), .st_in_refused (n_in_refused)
  );

endmodule

`default_nettype wire
