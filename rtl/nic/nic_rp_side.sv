// SPDX-License-Identifier: Apache-2.0
//
// nic_rp_side: the PCIe side of the NIC in the root-port role (ROLE 1, the
// NIC of a network-attached accelerator node; docs/nic.md), wiring only. Port
// list shared with nic_ep_side, so extoll_nic instantiates either with one
// connection list; the signals this role does not have are tied off here.
//
// s_tlp/m_tlp are the downstream link (s_dn/m_dn of pcie_rp). The backdoor
// TX is the upstream request source, its RX filter sees the completions:
//
//   pcie_rp s_up   <-- pcie_tlp_arb merge (backdoor TX bd_tx, smfu_naa m_dev:
//                      ingress MRd/MWr toward the device, completions for the
//                      device's pass-through reads)
//   pcie_rp m_up_req --> nic_cpl_split --> nic_rma_win --> nic_dma_win --> smfu_naa s_dev_req
//                        (pass-through)
//                        nic_rma_win: the device's reads / writes in the rma.win window
//                        --> pcie_reg_bridge --> bar_* (the register file: the rma
//                        block), its completions (and pcie_cpl_ur's for refused
//                        window reads) --> the s_up merge
//                        nic_dma_win: the DMA window table (dma.*, docs/security.md):
//                        while enforced, requests outside the holder's grants are
//                        refused (writes dropped, reads answered UR by a second
//                        pcie_cpl_ur --> the s_up merge)
//   pcie_rp m_up_cpl --> nic_cpl_split: tag 0x80..0x8f -> smfu_naa s_dev_cpl,
//                        others -> backdoor RX filter (bd_rx); an SMFU
//                        completion waits while a device request is pending
//   smfu_naa <--> router local port 1 (l1_*)
//
// The BAR0 master port (bar_*) serves the accelerator's descriptor window;
// there is no host for the completion records (rec_tlp sunk). Synchronous to
// clk, reset rst.

`default_nettype none
`include "net_local_port.svh"
`include "tlp_stream.svh"
`include "cpuif_port.svh"
`include "nic_ports.svh"

module nic_rp_side #(
  /* verilator lint_off UNUSEDPARAM */  // the endpoint's parameters (BAR0: the window uses some)
  `include "nic_side_params.svh"
  /* verilator lint_on UNUSEDPARAM */
) (
  `include "nic_side_ports.svh"
);

  logic [127:0] req_data, sreq_data, up_data, cpl_data, scpl_data, dm_data;
  logic [3:0]   req_keep, sreq_keep, up_keep, cpl_keep, scpl_keep, dm_keep;
  logic         req_sop, req_eop, req_valid, req_ready;
  logic         sreq_sop, sreq_eop, sreq_valid, sreq_ready;
  logic         up_sop, up_eop, up_valid, up_ready;
  logic         cpl_sop, cpl_eop, cpl_valid, cpl_ready;
  logic         scpl_sop, scpl_eop, scpl_valid, scpl_ready;
  logic         dm_sop, dm_eop, dm_valid, dm_ready;
  logic [7:0]   pri_bus, sec_bus, sub_bus;
  logic         msi_en;
  logic [63:0]  msi_addr;
  logic [15:0]  msi_data;
  logic         ev_up_rx, ev_up_cfg, ev_up_fwd, ev_up_ur, ev_up_drop;
  logic         ev_dn_rx, ev_dn_cpl, ev_dn_req, ev_dn_ur, ev_dn_drop, ev_dn_tx;
  logic [31:0]  sm_drops;
  logic [2:0]   rp_mps, rp_mrrs;
  logic         rp_ro_en, rp_ns_en, rp_ext_tag;
  logic [1:0][63:0] rp_win_base, rp_win_limit;
  logic [31:0]  sm_in_refused;
  logic [127:0] wreq_data, wc_data, uc_data;
  logic [3:0]   wreq_keep, wc_keep, uc_keep;
  logic         wreq_sop, wreq_eop, wreq_valid, wreq_ready;
  logic         wc_sop, wc_eop, wc_valid, wc_ready, uc_sop, uc_eop, uc_valid, uc_ready;
  logic [127:0] dreq_data, dc_data;
  logic [3:0]   dreq_keep, dc_keep;
  logic         dreq_sop, dreq_eop, dreq_valid, dreq_ready;
  logic         dc_sop, dc_eop, dc_valid, dc_ready;

  // toward the device: the SMFU's ingress and completions, the backdoor, the
  // window's completions (register reads, UR), the DMA table's UR completions
  pcie_tlp_arb #(.N(5), .DATA_W(128)) u_up_merge (
    .clk, .rst,
    .s_data  ({dm_data, bd_tx_data, wc_data, uc_data, dc_data}),
    .s_keep  ({dm_keep, bd_tx_keep, wc_keep, uc_keep, dc_keep}),
    .s_sop   ({dm_sop, bd_tx_sop, wc_sop, uc_sop, dc_sop}),
    .s_eop   ({dm_eop, bd_tx_eop, wc_eop, uc_eop, dc_eop}),
    .s_valid ({dm_valid, bd_tx_valid, wc_valid, uc_valid, dc_valid}),
    .s_ready ({dm_ready, bd_tx_ready, wc_ready, uc_ready, dc_ready}),
    `TLP_CONNECT(m, up)
  );

  // ---- the accelerator's DMA windows (dma.*, docs/security.md)
  logic                   dma_ur_valid, dma_ur_ready;
  pcie_tlp_pkg::tlp_req_t dma_ur_req;

  nic_dma_win #(.NWIN(8)) u_dma_win (
    .clk, .rst,
    .cfg_enforce   (dma_enforce),
    .cfg_base      (dma_base),
    .cfg_limit     (dma_limit),
    .cfg_rd        ({dma_perm[7][0], dma_perm[6][0], dma_perm[5][0], dma_perm[4][0],
                     dma_perm[3][0], dma_perm[2][0], dma_perm[1][0], dma_perm[0][0]}),
    .cfg_wr        ({dma_perm[7][1], dma_perm[6][1], dma_perm[5][1], dma_perm[4][1],
                     dma_perm[3][1], dma_perm[2][1], dma_perm[1][1], dma_perm[0][1]}),
    `TLP_CONNECT(s, wreq),
    `TLP_CONNECT(m, dreq),
    .ur_valid      (dma_ur_valid),
    .ur_ready      (dma_ur_ready),
    .ur_req        (dma_ur_req),
    .st_rd_refused (st_dma_refused[0]),
    .st_wr_refused (st_dma_refused[1]),
    .st_last_valid (st_dma_last_kind[0]),
    .st_last_wr    (st_dma_last_kind[1]),
    .st_last_addr  (st_dma_last_addr)
  );

  pcie_cpl_ur u_dma_ur (
    .clk, .rst,
    .req_valid (dma_ur_valid),
    .req_ready (dma_ur_ready),
    .req       (dma_ur_req),
    .cpl_id,
    `TLP_CONNECT(m_cpl, dc)
  );

  // ---- the accelerator's descriptor window (rma.win, docs/rma.md)
  logic                   win_mem_valid, win_mem_ready, win_ur_valid, win_ur_ready;
  pcie_tlp_pkg::tlp_req_t win_mem_req, win_ur_req;
  logic [127:0]           win_pl_data;
  logic [3:0]             win_pl_keep;
  logic                   win_pl_last, win_pl_valid, win_pl_ready;
  logic                   win_ev_access, win_ev_refused;

  nic_rma_win #(
    .RMA_BASE  (extoll_addr_pkg::RMA_BASE),
    .RMA_BYTES (extoll_addr_pkg::RMA_SIZE),
    .BURST_DW  (BURST_DW)
  ) u_win (
    .clk, .rst,
    .cfg_win_en   (rma_win_en),
    .cfg_win_base (rma_win_base),
    `TLP_CONNECT(s, sreq),
    `TLP_CONNECT(m, wreq),
    .mem_valid    (win_mem_valid),
    .mem_ready    (win_mem_ready),
    .mem_req      (win_mem_req),
    .mem_pl_data  (win_pl_data),
    .mem_pl_keep  (win_pl_keep),
    .mem_pl_last  (win_pl_last),
    .mem_pl_valid (win_pl_valid),
    .mem_pl_ready (win_pl_ready),
    .ur_valid     (win_ur_valid),
    .ur_ready     (win_ur_ready),
    .ur_req       (win_ur_req),
    .ev_access    (win_ev_access),
    .ev_refused   (win_ev_refused)
  );

  pcie_reg_bridge #(.ADDR_W(REG_ADDR_W), .BURST_DW(BURST_DW)) u_win_bridge (
    .clk, .rst,
    .req_valid          (win_mem_valid),
    .req_ready          (win_mem_ready),
    .req                (win_mem_req),
    .s_pl_data          (win_pl_data),
    .s_pl_keep          (win_pl_keep),
    .s_pl_last          (win_pl_last),
    .s_pl_valid         (win_pl_valid),
    .s_pl_ready         (win_pl_ready),
    .cpl_id,
    `TLP_CONNECT(m_cpl, wc),
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
    .cpuif_wr_err       (bar_wr_err)
  );

  pcie_cpl_ur u_win_ur (
    .clk, .rst,
    .req_valid (win_ur_valid),
    .req_ready (win_ur_ready),
    .req       (win_ur_req),
    .cpl_id,
    `TLP_CONNECT(m_cpl, uc)
  );

  nic_cpl_split #(.TAG_BASE(SMFU_TAG_BASE), .TAGS(SMFU_TAGS)) u_split (
    .clk, .rst,
    `TLP_CONNECT(s_req, req),
    `TLP_CONNECT(m_req, sreq),
    `TLP_CONNECT(s_cpl, cpl),
    `TLP_CONNECT(m_sm, scpl),
    `TLP_CONNECT(m_bd, bd_rx)
  );

  pcie_rp #(
    .VENDOR_ID  (VENDOR_ID),
    .DEVICE_ID  (DEVICE_ID),
    .REVISION   (REVISION),
    .CLASS_CODE (CLASS_CODE)
  ) u_rp (
    .clk, .rst,
    `TLP_CONNECT(s_up, up),
    `TLP_CONNECT(m_up_cpl, cpl),
    `TLP_CONNECT(m_up_req, req),
    `TLP_CONNECT(s_dn, s_tlp),
    `TLP_CONNECT(m_dn, m_tlp),
    .link_up        (pcie_link_up),
    .cpl_id, .mem_en, .bus_master, .pri_bus, .sec_bus, .sub_bus,
    .sec_reset      (pcie_sec_reset),
    .msi_en, .msi_addr, .msi_data,
    .dev_mps        (rp_mps),
    .dev_mrrs       (rp_mrrs),
    .dev_ro_en      (rp_ro_en),
    .dev_ns_en      (rp_ns_en),
    .dev_ext_tag    (rp_ext_tag),
    .win_base       (rp_win_base),
    .win_limit      (rp_win_limit),
    .ev_up_rx, .ev_up_cfg, .ev_up_fwd, .ev_up_ur, .ev_up_drop,
    .ev_dn_rx, .ev_dn_cpl, .ev_dn_req, .ev_dn_ur, .ev_dn_drop, .ev_dn_tx
  );

  smfu_naa #(
    .NIVL            (NIVL),
    .TAG_BASE        (SMFU_TAG_BASE),
    .IN_TAGS         (SMFU_TAGS),
    .LOCAL_BUF_DEPTH (LOCAL_BUF_DEPTH),
    .RX_DEPTH        (RX_DEPTH)
  ) u_smfu (
    .clk, .rst,
    .cfg_node_id  (node_id),
    .cfg_rp_id    (cpl_id),
    .cfg_passthru (sm_passthru),
    .cfg_up_node  (sm_up_node),
    .cfg_in_base  (sm_in_base),
    .cfg_timeout  (sm_timeout),
    .cfg_dev_mps  (rp_mps),
    .cfg_dev_mrrs (rp_mrrs),
    .cfg_ro_en    (rp_ro_en),
    .cfg_ns_en    (rp_ns_en),
    .cfg_ext_tag  (rp_ext_tag),
    .cfg_fwd_base (rp_win_base),
    .cfg_fwd_limit (rp_win_limit),
    .sbr          (pcie_sec_reset),
    `TLP_CONNECT(s_dev_req, dreq),
    `TLP_CONNECT(s_dev_cpl, scpl),
    `TLP_CONNECT(m_dev, dm),
    `NET_LOCAL_CONNECT(s_net, m_net, l1_out, l1_in),
    .st_in_reqs, .st_up_reqs, .st_timeouts,
    .st_drops     (sm_drops),
    .st_in_refused (sm_in_refused)
  );
  assign st_eg_hits        = '0;
  // root-port role: smfu.eg_misses counts the network requests the ingress
  // refused as not forwardable (docs/smfu.md, issue 8 row 8)
  assign st_eg_misses      = sm_in_refused;
  assign st_nq_prod        = '0;
  assign st_nq_full_stalls = '0;
  assign st_nq_events      = '0;
  assign irq_notify        = 1'b0;

  assign ev_rx_tlp    = ev_dn_rx;
  assign ev_tx_tlp    = ev_dn_tx;
  assign ev_ur        = ev_up_ur || ev_dn_ur;
  // also counted as drops: completions the backdoor does not extract
  assign ev_drop      = ev_up_drop || ev_dn_drop || (bd_pass_valid && bd_pass_sop);
  assign ev_aperture  = 1'b0;
  assign intx_disable = 1'b0;
  assign intx         = 1'b0;
  // Poisoned TLPs from the device (pcie.poisoned) and toward it
  // (pcie.poisoned_tx: completions re-issued poisoned, PCIe Base Spec. 2.7.2);
  // no MSI-X, CA or completion status of the root port's own requests here.
  logic dn_rx_ur, dn_rx_ca, dn_rx_pcpl, dn_rx_pwr, dn_tx_ur, dn_tx_ca, dn_tx_pcpl, dn_tx_pwr;
  pcie_err_mon #(.OWN_TAG_BASE (SMFU_TAG_BASE), .OWN_TAGS (SMFU_TAGS)) u_rx_mon (
    .clk, .rst,
    .tlp_data (s_tlp_data), .tlp_sop (s_tlp_sop), .tlp_valid (s_tlp_valid), .tlp_ready (s_tlp_ready),
    .cpl_ur (dn_rx_ur), .cpl_ca (dn_rx_ca), .poisoned (pcie_ev[0]),
    .poisoned_cpl (dn_rx_pcpl), .poisoned_wr (dn_rx_pwr)
  );
  pcie_err_mon #(.OWN_TAG_BASE (8'h00), .OWN_TAGS (0)) u_tx_mon (
    .clk, .rst,
    .tlp_data (m_tlp_data), .tlp_sop (m_tlp_sop), .tlp_valid (m_tlp_valid), .tlp_ready (m_tlp_ready),
    .cpl_ur (dn_tx_ur), .cpl_ca (dn_tx_ca), .poisoned (pcie_ev[4]),
    .poisoned_cpl (dn_tx_pcpl), .poisoned_wr (dn_tx_pwr)
  );
  assign pcie_ev[3:1] = '0;
  assign pcie_ev[5]   = 1'b0;
  assign pcie_st      = '0;

  // the completion records have no host
  assign rec_tlp_ready = 1'b1;

  logic unused;
  assign unused = ^{sm_drops, sm_eg_start, sm_eg_end, sm_eg_valid, sm_eg_node,
                    nq_win_base, nq_win_size, nq_ring_base, nq_enable, nq_log2, nq_cons,
                    pri_bus, sec_bus, sub_bus, msi_en, msi_addr, msi_data, ev_up_rx, ev_up_cfg,
                    ev_up_fwd, ev_dn_cpl, ev_dn_req, irq_pending, rec_tlp_data, rec_tlp_keep,
                    rec_tlp_sop, rec_tlp_eop, rec_tlp_valid, win_ev_access, win_ev_refused,
                    msix_addr, msix_data, msix_mask,
                    dn_rx_ur, dn_rx_ca, dn_rx_pcpl, dn_rx_pwr, dn_tx_ur, dn_tx_ca, dn_tx_pcpl, dn_tx_pwr};

endmodule

`default_nettype wire
