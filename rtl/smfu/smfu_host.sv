// SPDX-License-Identifier: Apache-2.0
//
// smfu_host: the SMFU of a host NIC (endpoint role; docs/smfu.md). Contains
//   smfu_net_if   local router port: receive demux, transmit merge, credits
//   smfu_eg       MODE 0: aperture requests -> SMFU_RD/WR; SMFU_CPL -> CplD,
//                 completion timeout (CA), misses (UR / drop)
//   smfu_in       MODE 1: pass-through receiver: SMFU_RD/WR from the NAA ->
//                 MRd/MWr to host memory, their CplD -> SMFU_CPL; writes
//                 into the notification window -> notification-queue entry
//   nq_ring       notification ring state, counters, interrupt pulse
//   smfu_cpl_order holds a completion until the writes that arrived before
//                 it have been retired (PCIe ordering)
//   pcie_tlp_arb  merges the egress completions and the pass-through
//                 requests into one TLP stream toward the host
//
//   s_ap  --> smfu_eg --(SMFU_RD/WR)--> net_if --> router
//   m_tlp <-- arb <-- smfu_eg <--(SMFU_CPL)-- net_if <-- router
//             arb <-- smfu_in <--(SMFU_RD/WR, ivl >= 32)-- net_if
//   s_cpl --> smfu_in --(SMFU_CPL)--> net_if
//
// Wiring into extoll_nic: s_ap = the endpoint's memory requests that hit BAR2
// (all of them, unfiltered); s_cpl = completions received on s_tlp whose tag
// is TAG_BASE .. TAG_BASE + NTAGS - 1; m_tlp = one more source of the
// endpoint's transmit arbiter; the net ports to the router's local port 1
// (SMFU_* and INTR eject there by default); cfg_* / st_* / irq_notify to the
// smfu and notify blocks of the register file (docs/smfu.md "Wiring").

`default_nettype none
`include "net_local_port.svh"
`include "tlp_stream.svh"

module smfu_host
#(
  parameter int         NIVL            = 16,     // egress intervals (the register file has 16)
  parameter int         EG_TAGS         = 16,     // outstanding remote reads of the host
  parameter int         PT_TAGS         = 16,     // outstanding pass-through MRd to host memory
  parameter logic [7:0] TAG_BASE        = 8'h80,  // first MRd tag toward the host (multiple of PT_TAGS)
  parameter int         LOCAL_BUF_DEPTH = 32,     // router local inport credits per VC
  parameter int         RX_DEPTH        = 64      // flits per receive buffer (>= 2 x router LOCAL_CREDITS)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,             // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic [15:0]           cfg_node_id,     // info.id.node_id
  input  wire logic [15:0]           cfg_pcie_id,     // endpoint bus/dev/fn (completer and requester ID)
  input  wire logic                  cfg_bus_master,  // Command.BusMasterEnable
  input  wire logic                  cfg_ro_en,       // Device Control Enable Relaxed Ordering (7.5.3.4)
  input  wire logic                  cfg_ns_en,       // Device Control Enable No Snoop (7.5.3.4)
  input  wire logic                  cfg_ext_tag,     // Device Control Extended Tag Field Enable (7.5.3.4)
  input  wire logic [15:0]           cfg_timeout,     // smfu.ctrl.timeout
  input  wire logic [2:0]            cfg_mps,         // endpoint Device Control Max_Payload_Size (7.5.3.4):
                                                      // pass-through MWr are split to it (2.2.2)
  input  wire logic [2:0]            cfg_mrrs,        // endpoint Max_Read_Request_Size (7.5.3.4): pass-through
                                                      // MRd are issued in pieces of it
  input  wire logic [NIVL-1:0][63:0] cfg_eg_start,    // smfu.eg_start[i]
  input  wire logic [NIVL-1:0][63:0] cfg_eg_end,      // smfu.eg_end[i]
  input  wire logic [NIVL-1:0]       cfg_eg_valid,    // smfu.eg_ctrl[i].valid
  input  wire logic [NIVL-1:0][15:0] cfg_eg_node,     // smfu.eg_ctrl[i].node
  input  wire logic [63:0]           cfg_nq_win_base, // notify.win_base
  input  wire logic [63:0]           cfg_nq_win_size, // notify.win_size
  input  wire logic [63:0]           cfg_nq_ring_base,// notify.ring_base
  input  wire logic                  cfg_nq_enable,   // notify.ring_ctrl.enable
  input  wire logic [3:0]            cfg_nq_log2,     // notify.ring_ctrl.log2_entries
  input  wire logic [31:0]           cfg_nq_cons,     // notify.cons

  // ---------------- aperture requests from the host (TLP stream) ----------------
  `TLP_S_PORTS(s_ap),

  // ---------------- completions from the host for our MRd tags (TLP stream) ----------------
  `TLP_S_PORTS(s_cpl),

  // ---------------- TLPs to the host (CplD/Cpl, MWr/MRd) ----------------
  `TLP_M_PORTS(m_tlp),

  // ---------------- router local port (net_local_port.svh) ----------------
  `NET_LOCAL_PORTS(s_net, m_net),

  // ---------------- status (register file, hw = w) ----------------
  output      logic [31:0]           st_eg_hits,      // smfu.eg_hits
  output      logic [31:0]           st_eg_misses,    // smfu.eg_misses
  output      logic [31:0]           st_timeouts,     // smfu.timeouts
  output      logic [31:0]           st_up_reqs,      // smfu.up_reqs (pass-through requests served)
  output      logic [31:0]           st_nq_prod,      // notify.prod
  output      logic [31:0]           st_nq_full_stalls, // notify.full_stalls
  output      logic [31:0]           st_nq_events,    // notify.events
  output      logic [31:0]           st_drops,        // packets / completions dropped (late, unknown, bad type)
  output      logic                  irq_notify       // pulse: info.irq_status.notify hwset
);

  // ------------------------------------------------------------------
  // Network port
  // ------------------------------------------------------------------
  logic [127:0] rxq_data, rxc_data, txq_data, txc_data;
  logic         rxq_last, rxq_valid, rxq_ready, rxc_last, rxc_valid, rxc_ready;
  logic         txq_last, txq_valid, txq_ready, txc_last, txc_valid, txc_ready;
  logic         ev_rx_drop;
  logic [127:0] rxc_g_data;
  logic         rxc_g_last, rxc_g_valid, rxc_g_ready;

  smfu_net_if #(.LOCAL_BUF_DEPTH(LOCAL_BUF_DEPTH), .RX_DEPTH(RX_DEPTH)) u_net (
    .clk, .rst,
    .s_net_valid, .s_net_data, .s_net_last, .s_net_vc, .m_net_credit,
    .m_net_valid, .m_net_data, .m_net_last, .m_net_vc, .s_net_credit,
    .m_rxq_data (rxq_data), .m_rxq_last (rxq_last), .m_rxq_valid (rxq_valid), .m_rxq_ready (rxq_ready),
    .m_rxc_data (rxc_data), .m_rxc_last (rxc_last), .m_rxc_valid (rxc_valid), .m_rxc_ready (rxc_ready),
    .s_txq_data (txq_data), .s_txq_last (txq_last), .s_txq_valid (txq_valid), .s_txq_ready (txq_ready),
    .s_txc_data (txc_data), .s_txc_last (txc_last), .s_txc_valid (txc_valid), .s_txc_ready (txc_ready),
    .ev_rx_drop
  );

  // ------------------------------------------------------------------
  // Ordering: a completion must not pass a posted write that arrived
  // from the network before it (smfu_cpl_order)
  // ------------------------------------------------------------------
  logic wr_done;

  smfu_cpl_order #(.RX_DEPTH(RX_DEPTH)) u_order (
    .clk, .rst,
    .s_net_valid, .s_net_last,
    .s_net_type  (s_net_data[35:32]),
    .wr_done,
    .s_cpl_data (rxc_data), .s_cpl_last (rxc_last), .s_cpl_valid (rxc_valid), .s_cpl_ready (rxc_ready),
    .m_cpl_data (rxc_g_data), .m_cpl_last (rxc_g_last), .m_cpl_valid (rxc_g_valid), .m_cpl_ready (rxc_g_ready)
  );

  // ------------------------------------------------------------------
  // Egress
  // ------------------------------------------------------------------
  logic [127:0] egc_data;
  logic [3:0]   egc_keep;
  logic         egc_sop, egc_eop, egc_valid, egc_ready;
  logic         ev_hit, ev_miss, ev_timeout, ev_late;

  smfu_eg #(.MODE(0), .NIVL(NIVL), .NTAGS(EG_TAGS)) u_eg (
    .clk, .rst,
    .cfg_node_id,
    .cfg_cpl_id   (cfg_pcie_id),
    .cfg_timeout,
    .cfg_eg_start, .cfg_eg_end, .cfg_eg_valid, .cfg_eg_node,
    .cfg_passthru (1'b0),
    .cfg_up_node  (16'd0),
    .cfg_mps,
    .s_req_data (s_ap_data), .s_req_keep (s_ap_keep), .s_req_sop (s_ap_sop),
    .s_req_eop (s_ap_eop), .s_req_valid (s_ap_valid), .s_req_ready (s_ap_ready),
    .m_pkt_data (txq_data), .m_pkt_last (txq_last), .m_pkt_valid (txq_valid), .m_pkt_ready (txq_ready),
    .s_cpl_data (rxc_g_data), .s_cpl_last (rxc_g_last), .s_cpl_valid (rxc_g_valid), .s_cpl_ready (rxc_g_ready),
    .m_cpl_data (egc_data), .m_cpl_keep (egc_keep), .m_cpl_sop (egc_sop),
    .m_cpl_eop (egc_eop), .m_cpl_valid (egc_valid), .m_cpl_ready (egc_ready),
    .ev_hit, .ev_miss, .ev_timeout, .ev_late
  );

  // ------------------------------------------------------------------
  // Pass-through receiver and notification queue
  // ------------------------------------------------------------------
  logic [127:0] pt_data;
  logic [3:0]   pt_keep;
  logic         pt_sop, pt_eop, pt_valid, pt_ready;
  logic         nq_ready, nq_off, nq_phase, nq_push, nq_stall;
  logic [63:0]  nq_addr;
  logic         ev_req, ev_refused, ev_cpl_drop, ev_pt_tmo;
  /* verilator lint_off UNUSEDSIGNAL */
  logic         pt_fwd_refused;      // MODE 1: constant 0
  /* verilator lint_on UNUSEDSIGNAL */

  smfu_in #(.MODE(1), .NIVL(1), .NTAGS(PT_TAGS), .TAG_BASE(TAG_BASE)) u_pt (
    .clk, .rst,
    .cfg_node_id,
    .cfg_req_id     (cfg_pcie_id),
    .cfg_bus_master,
    .cfg_ro_en, .cfg_ns_en, .cfg_ext_tag,
    .cfg_in_base    (64'd0),
    .cfg_fwd_base   ('0),
    .cfg_fwd_limit  ('0),
    .cfg_win_base   (cfg_nq_win_base),
    .cfg_win_size   (cfg_nq_win_size),
    .cfg_timeout,
    .cfg_mps,
    .cfg_mrrs,
    .cpl_flush      (1'b0),
    .nq_ready, .nq_off, .nq_addr, .nq_phase, .nq_push, .nq_stall,
    .s_pkt_data (rxq_data), .s_pkt_last (rxq_last), .s_pkt_valid (rxq_valid), .s_pkt_ready (rxq_ready),
    .m_tlp_data (pt_data), .m_tlp_keep (pt_keep), .m_tlp_sop (pt_sop),
    .m_tlp_eop (pt_eop), .m_tlp_valid (pt_valid), .m_tlp_ready (pt_ready),
    .s_cpl_data, .s_cpl_keep, .s_cpl_sop, .s_cpl_eop, .s_cpl_valid, .s_cpl_ready,
    .m_pkt_data (txc_data), .m_pkt_last (txc_last), .m_pkt_valid (txc_valid), .m_pkt_ready (txc_ready),
    .ev_req, .ev_refused, .ev_cpl_drop,
    .ev_fwd_refused (pt_fwd_refused),
    .ev_cpl_tmo (ev_pt_tmo),
    .ev_wr_done (wr_done)
  );

  nq_ring u_nq (
    .clk, .rst,
    .cfg_enable    (cfg_nq_enable),
    .cfg_log2      (cfg_nq_log2),
    .cfg_ring_base (cfg_nq_ring_base),
    .cfg_cons      (cfg_nq_cons),
    .nq_ready, .nq_off, .nq_addr, .nq_phase, .nq_push, .nq_stall,
    .st_prod        (st_nq_prod),
    .st_full_stalls (st_nq_full_stalls),
    .st_events      (st_nq_events),
    .irq_notify
  );

  // ------------------------------------------------------------------
  // TLPs toward the host: egress completions (0), pass-through requests (1)
  // ------------------------------------------------------------------
  pcie_tlp_arb #(.N(2)) u_arb (
    .clk, .rst,
    `TLP_CONNECT_CAT(s, pt, egc),
    `TLP_CONNECT(m, m_tlp)
  );

  // ------------------------------------------------------------------
  // Counters
  // ------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (rst) begin
      st_eg_hits   <= '0;
      st_eg_misses <= '0;
      st_timeouts  <= '0;
      st_up_reqs   <= '0;
      st_drops     <= '0;
    end else begin
      st_eg_hits   <= st_eg_hits + 32'(ev_hit);
      st_eg_misses <= st_eg_misses + 32'(ev_miss);
      st_timeouts  <= st_timeouts + 32'(ev_timeout) + 32'(ev_pt_tmo);
      st_up_reqs   <= st_up_reqs + 32'(ev_req);
      st_drops     <= st_drops + 32'(ev_late) + 32'(ev_cpl_drop) + 32'(ev_rx_drop) + 32'(ev_refused);
    end
  end

endmodule

`default_nettype wire
