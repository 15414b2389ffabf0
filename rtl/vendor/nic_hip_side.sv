// SPDX-License-Identifier: Apache-2.0
//
// nic_hip_side: the PCIe side of the NIC's endpoint role (ROLE 0) behind a
// vendor PCIe hard IP that owns the Type-0 configuration space, the BAR
// decode, MSI-X capability and AER (docs/hard-ip.md). The counterpart of
// nic_ep_side (rtl/nic) without pcie_cfg_t0 and pcie_msix; wiring and the
// BAR bases:
//
//   s_tlp (+ BAR ID) --> base capture --> pcie_tlp_slice --+--> pcie_ep_rx
//                  completions with a tag not the SMFU's --+--> bd_rx (backdoor RX filter)
//       pcie_ep_rx: BAR0 -> pcie_reg_bridge -> bar_* cpuif;  UR -> pcie_cpl_ur;
//                   BAR2 -> ap_* -> smfu_host;  SMFU completions -> scpl_*
//   m_tlp <-- pcie_tlp_slice <-- pcie_tlp_arb: 0 register bridge, 1 UR,
//             2 completion records (rec_tlp), 3 backdoor TX, 4 smfu_host
//
// BAR decode: the IP forwards only requests that hit one of its BARs, with
// the BAR ID (s_tlp_bar_id, with the header beat). pcie_ep_rx decodes by
// address against bar0/bar2 bases, so this module takes the bases from the
// requests themselves: the header beat of a request with BAR ID 0 (2) sets
// the BAR0 (BAR2) base to its address with the offset bits cleared, in the
// cycle it enters the slice, before pcie_ep_rx sees it. Addresses pass
// unchanged (the SMFU compares absolute aperture addresses with its
// intervals). Memory Space Enable is enforced by the IP (it answers UR
// itself): pcie_ep_rx gets mem_en = 1. Configuration requests never come
// through (the IP serves them). MSI-X and the PCIe state are in the adapter
// (pcie_usp_if); INTx is not used. Completions for tags outside the SMFU's
// (0x80..0x8f and the 5-bit alias 0x10..0x1f) go to the backdoor's RX filter,
// so software can read host memory through the backdoor (nic_ep_side drops
// them). Synchronous to clk, rst.

`default_nettype none
`include "net_local_port.svh"
`include "tlp_stream.svh"
`include "cpuif_port.svh"
`include "nic_ports.svh"

module nic_hip_side #(
  parameter int          REG_BAR_LOG2    = 16,       // BAR0 size, log2 bytes (as configured in the IP)
  parameter int          APERTURE_LOG2   = 28,       // BAR2 size, log2 bytes (as configured in the IP)
  parameter int          REG_MAP_BYTES   = 'h200,    // bytes of BAR0 backed by registers
  parameter int          REG_ADDR_W      = 9,        // register block address width
  parameter int          BURST_DW        = 16,       // longest BAR0 request in dwords
  parameter int          NIVL            = 16,       // SMFU intervals
  parameter logic [7:0]  SMFU_TAG_BASE   = 8'h80,    // MRd tags of the SMFU
  parameter int          SMFU_TAGS       = 16,
  parameter int          LOCAL_BUF_DEPTH = 32,       // router local inport credits per VC
  parameter int          RX_DEPTH        = 64        // SMFU receive buffer, flits
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- TLPs from the hard IP adapter ----------------
  `TLP_S_PORTS(s_tlp),
  input  wire logic [2:0]            s_tlp_bar_id,   // with the header beat

  // ---------------- TLPs to the hard IP adapter ----------------
  `TLP_M_PORTS(m_tlp),

  // ---------------- PCIe state from the hard IP ----------------
  input  wire logic [15:0]           cpl_id,
  input  wire logic                  bus_master,
  input  wire logic [2:0]            dev_mps,
  input  wire logic [2:0]            dev_mrrs,

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

  // ---------------- nic_core: PCIe events ----------------
  output      logic                  ev_rx_tlp,
  output      logic                  ev_tx_tlp,
  output      logic                  ev_ur,
  output      logic                  ev_drop,
  output      logic                  ev_aperture,
  output      logic                  ev_poisoned,    // pcie_ev[0]
  output      logic                  ev_cpl_err,     // pcie_ev[1]
  output      logic                  ev_ca_sent,     // pcie_ev[2]
  output      logic                  ev_poisoned_tx, // pcie_ev[4]

  // ---------------- nic_core: SMFU / notify configuration and status (nic_ports.svh) ----------------
  `NIC_SMFU_CFG_PORTS(input wire),
  `NIC_SMFU_ST_PORTS(output),

  // ---------------- nic_core: router local port 1 ----------------
  `NET_LOCAL_PORTS_OI(l1_out, l1_in)  // router -> SMFU: l1_out; SMFU -> router: l1_in
);

  localparam int         NM       = 5;                // m_tlp merge inputs
  localparam logic [7:0] TAG_MASK = ~8'(SMFU_TAGS - 1);

  // ------------------------------------------------------------------
  // BAR bases from the BAR ID of the requests
  // ------------------------------------------------------------------
  `TLP_WIRES(rx);
  logic [31:0] bar0_q;
  logic [63:0] bar2_q;
  logic        in_pkt_q;
  logic [63:0] s_addr;

  assign s_addr = s_tlp_data[29] ? {s_tlp_data[95:64], s_tlp_data[127:96]} : {32'd0, s_tlp_data[95:64]};

  always_ff @(posedge clk) begin
    if (rst) begin
      bar0_q   <= '0;
      bar2_q   <= '0;
      in_pkt_q <= 1'b0;
    end else if (s_tlp_valid && s_tlp_ready) begin
      in_pkt_q <= !s_tlp_eop;
      if (!in_pkt_q && s_tlp_bar_id == 3'd0) bar0_q <= {s_addr[31:REG_BAR_LOG2], REG_BAR_LOG2'(0)};
      if (!in_pkt_q && s_tlp_bar_id == 3'd2) bar2_q <= {s_addr[63:APERTURE_LOG2], APERTURE_LOG2'(0)};
    end
  end

  pcie_tlp_slice #(.DATA_W (pcie_tlp_pkg::TLP_DATA_W)) u_rx_slice (
    .clk, .rst,
    `TLP_CONNECT(s, s_tlp),
    `TLP_CONNECT(m, rx)
  );

  // ------------------------------------------------------------------
  // Completions not for the SMFU -> backdoor RX (decided at sop, held to eop)
  // ------------------------------------------------------------------
  `TLP_WIRES(ep);
  logic       rx_in_pkt_q, rx_to_bd_q, rx_is_cpl, rx_sm_tag, rx_to_bd;
  logic [7:0] rx_tag;

  assign rx_tag    = rx_data[79:72];
  assign rx_is_cpl = !rx_data[31] && rx_data[28:25] == 4'b0101;
  // the SMFU's tags and their 5-bit alias (as pcie_ep_rx and nic_cpl_split decide)
  assign rx_sm_tag = (rx_tag & TAG_MASK) == SMFU_TAG_BASE || (rx_tag & TAG_MASK) == (SMFU_TAG_BASE >> 3);
  assign rx_to_bd  = rx_in_pkt_q ? rx_to_bd_q : rx_is_cpl && !rx_sm_tag;

  always_ff @(posedge clk) begin
    if (rst) begin
      rx_in_pkt_q <= 1'b0;
      rx_to_bd_q  <= 1'b0;
    end else if (rx_valid && rx_ready) begin
      rx_in_pkt_q <= !rx_eop;
      if (!rx_in_pkt_q) rx_to_bd_q <= rx_to_bd;
    end
  end

  assign ep_data     = rx_data;
  assign ep_keep     = rx_keep;
  assign ep_sop      = rx_sop;
  assign ep_eop      = rx_eop;
  assign ep_valid    = rx_valid && !rx_to_bd;
  assign bd_rx_data  = rx_data;
  assign bd_rx_keep  = rx_keep;
  assign bd_rx_sop   = rx_sop;
  assign bd_rx_eop   = rx_eop;
  assign bd_rx_valid = rx_valid && rx_to_bd;
  assign rx_ready    = rx_to_bd ? bd_rx_ready : ep_ready;

  // ------------------------------------------------------------------
  // Receive path
  // ------------------------------------------------------------------
  logic                                cfg_valid;
  pcie_tlp_pkg::tlp_req_t              cfg_req;
  logic [31:0]                         cfg_wdata;
  logic                                mem_valid, mem_ready;
  pcie_tlp_pkg::tlp_req_t              mem_req;
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] mem_pl_data;
  logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] mem_pl_keep;
  logic                                mem_pl_last, mem_pl_valid, mem_pl_ready;
  logic                                ur_valid, ur_ready, ev_ur_wr;
  pcie_tlp_pkg::tlp_req_t              ur_req;
  `TLP_WIRES(ap);
  `TLP_WIRES(scpl);

  pcie_ep_rx #(
    .REG_BAR_LOG2  (REG_BAR_LOG2),
    .APERTURE_LOG2 (APERTURE_LOG2),
    .REG_MAP_BYTES (REG_MAP_BYTES),
    .BURST_DW      (BURST_DW),
    .SMFU          (1'b1),
    .CPL_TAG_BASE  (SMFU_TAG_BASE),
    .CPL_TAGS      (SMFU_TAGS)
  ) u_rx (
    .clk, .rst,
    `TLP_CONNECT(s_tlp, ep),
    .mem_en (1'b1), .bar0 (bar0_q), .bar2 (bar2_q),
    .cfg_valid, .cfg_ready (1'b1), .cfg_req, .cfg_wdata,
    .mem_valid, .mem_ready, .mem_req,
    .mem_pl_data, .mem_pl_keep, .mem_pl_last, .mem_pl_valid, .mem_pl_ready,
    .ur_valid, .ur_ready, .ur_req,
    `TLP_CONNECT(ap, ap),
    `TLP_CONNECT(scpl, scpl),
    .ev_rx_tlp, .ev_ur, .ev_drop, .ev_ur_wr, .ev_aperture
  );

  logic rx_cpl_ur, rx_cpl_ca, rx_poisoned_own, rx_poisoned_wr;
  pcie_err_mon #(.OWN_TAG_BASE (SMFU_TAG_BASE), .OWN_TAGS (SMFU_TAGS)) u_rx_mon (
    .clk, .rst,
    .tlp_data (rx_data), .tlp_sop (rx_sop), .tlp_valid (rx_valid), .tlp_ready (rx_ready),
    .cpl_ur (rx_cpl_ur), .cpl_ca (rx_cpl_ca), .poisoned (ev_poisoned),
    .poisoned_cpl (rx_poisoned_own), .poisoned_wr (rx_poisoned_wr)
  );
  assign ev_cpl_err = rx_cpl_ur || rx_cpl_ca;

  // ------------------------------------------------------------------
  // Completers: register bridge, unsupported requests
  // ------------------------------------------------------------------
  `TLP_WIRES_N(mg, NM);
  `TLP_WIRES(arb);

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
    `TLP_CONNECT_AT(m_cpl, mg, 0),
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

  pcie_cpl_ur u_ur (
    .clk, .rst,
    .req_valid (ur_valid),
    .req_ready (ur_ready),
    .req       (ur_req),
    .cpl_id,
    `TLP_CONNECT_AT(m_cpl, mg, 1)
  );

  `TLP_ASSIGN_AT(mg, 2, rec_tlp);
  `TLP_ASSIGN_AT(mg, 3, bd_tx);

  // ------------------------------------------------------------------
  // SMFU (BAR2 aperture, notification queue)
  // ------------------------------------------------------------------
  logic [31:0] sm_drops;

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
    .cfg_mps          (dev_mps),
    .cfg_mrrs         (dev_mrrs),
    .cfg_ro_en        (1'b0),
    .cfg_ns_en        (1'b0),
    .cfg_ext_tag      (1'b0),
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
    `TLP_CONNECT_AT(m_tlp, mg, 4),
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

  // ------------------------------------------------------------------
  // Transmit path
  // ------------------------------------------------------------------
  pcie_tlp_arb #(.N (NM), .DATA_W (pcie_tlp_pkg::TLP_DATA_W)) u_merge (
    .clk, .rst,
    `TLP_CONNECT(s, mg),
    `TLP_CONNECT(m, arb)
  );

  pcie_tlp_slice #(.DATA_W (pcie_tlp_pkg::TLP_DATA_W)) u_tx_slice (
    .clk, .rst,
    `TLP_CONNECT(s, arb),
    `TLP_CONNECT(m, m_tlp)
  );
  assign ev_tx_tlp = m_tlp_valid && m_tlp_ready && m_tlp_sop;

  logic tx_mon_ur, tx_mon_pcpl, tx_poisoned_wr;
  pcie_err_mon #(.OWN_TAG_BASE (8'h00), .OWN_TAGS (0)) u_tx_mon (
    .clk, .rst,
    .tlp_data (m_tlp_data), .tlp_sop (m_tlp_sop), .tlp_valid (m_tlp_valid), .tlp_ready (m_tlp_ready),
    .cpl_ur (tx_mon_ur), .cpl_ca (ev_ca_sent), .poisoned (ev_poisoned_tx),
    .poisoned_cpl (tx_mon_pcpl), .poisoned_wr (tx_poisoned_wr)
  );

  logic unused;
  assign unused = ^{rma_win_en, rma_win_base, dma_enforce, dma_base, dma_limit, dma_perm, cfg_valid, cfg_req, cfg_wdata, ev_ur_wr, rx_poisoned_own, rx_poisoned_wr,
                    tx_mon_ur, tx_mon_pcpl, tx_poisoned_wr, bd_pass_valid, bd_pass_sop,
                    sm_drops, sm_in_base, sm_passthru, sm_up_node, bar0_q[REG_BAR_LOG2-1:0],
                    bar2_q[APERTURE_LOG2-1:0], s_addr[REG_BAR_LOG2-1:0]};

endmodule

`default_nettype wire
