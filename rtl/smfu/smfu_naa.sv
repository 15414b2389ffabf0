// SPDX-License-Identifier: Apache-2.0
//
// smfu_naa: the SMFU of an NAA NIC (root-port role; docs/smfu.md). Contains
//   smfu_net_if   local router port: receive demux, transmit merge, credits
//   smfu_in       MODE 0: ingress: SMFU_RD/WR -> MRd/MWr at in_base[i] +
//                 offset toward the device; the device's CplD -> SMFU_CPL
//   smfu_eg       MODE 1: pass-through sender: the device's upstream memory
//                 requests -> SMFU_RD/WR to up_node; SMFU_CPL -> CplD to the
//                 device with its own requester ID and tag
//   smfu_cpl_order holds a pass-through completion until every SMFU_WR
//                 that arrived from the network before it has been issued
//                 toward the device (a completion must not pass an earlier
//                 posted write: PCIe Base Spec. table 2-40 (2.4.1), row D
//                 column 2; the producer/consumer model of Appendix A)
//   pcie_tlp_arb  merges the ingress requests and the pass-through
//                 completions into one TLP stream toward the root port
//
// Completion timeout (PCIe Base Spec. 2.8) on both requester sides: ingress
// MRd toward the device (smfu_cpl2pkt: CA to the network requester after
// 1..2 x cfg_timeout x 64 cycles, and at once for every outstanding MRd when the
// root port's Secondary Bus Reset rises, sbr) and pass-through MRd toward
// the host (smfu_rd_cpl: CA to the device after cfg_timeout x 256 cycles).
// A lost completion frees its tag instead of leaking it.
//
//   router --> net_if --(SMFU_RD/WR)--> smfu_in --> arb --> m_dev (root port s_up)
//   s_dev_cpl --> smfu_in --(SMFU_CPL)--> net_if --> router
//   s_dev_req --> smfu_eg --(SMFU_RD/WR)--> net_if --> router
//   router --> net_if --(SMFU_CPL)--> smfu_eg --> arb --> m_dev
//
// Wiring into extoll_nic (root-port strap): m_dev = one more source of the
// arbiter in front of pcie_rp s_up (next to the backdoor); s_dev_cpl =
// pcie_rp m_up_cpl TLPs whose tag is TAG_BASE .. TAG_BASE + NTAGS - 1;
// s_dev_req = pcie_rp m_up_req; net ports to the router's local port 1.

`default_nettype none
`include "net_local_port.svh"
`include "tlp_stream.svh"

module smfu_naa
#(
  parameter int         NIVL            = 16,     // ingress intervals (the register file has 16)
  parameter int         IN_TAGS         = 16,     // outstanding MRd toward the device
  parameter logic [7:0] TAG_BASE        = 8'h80,  // first MRd tag toward the device (multiple of IN_TAGS)
  parameter int         PT_TAGS         = 16,     // outstanding pass-through reads of the device
  parameter int         LOCAL_BUF_DEPTH = 32,     // router local inport credits per VC
  parameter int         RX_DEPTH        = 64      // flits per receive buffer (>= 2 x router LOCAL_CREDITS)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic [15:0]           cfg_node_id,    // info.id.node_id
  input  wire logic [15:0]           cfg_rp_id,      // root port ID (requester of MRd/MWr, completer of CplD)
  input  wire logic                  cfg_passthru,   // smfu.ctrl.passthru
  input  wire logic [15:0]           cfg_up_node,    // smfu.ctrl.up_node
  input  wire logic [NIVL-1:0][63:0] cfg_in_base,    // smfu.in_base[i]
  input  wire logic [15:0]           cfg_timeout,    // smfu.ctrl.timeout (256-cycle units, 0: 4096)
  input  wire logic [2:0]            cfg_dev_mrrs,   // root port Max_Read_Request_Size: ingress MRd pieces
  input  wire logic [2:0]            cfg_dev_mps,    // root port Device Control Max_Payload_Size
                                                     // (7.5.3.4; 0: 128 B, 1: 256 B, ...): TLPs toward
                                                     // the device carry no more payload (2.2.2)
  input  wire logic                  sbr,            // root port: Secondary Bus Reset (bridge control)
  input  wire logic                  cfg_ro_en,      // root port Device Control Enable Relaxed Ordering
  input  wire logic                  cfg_ns_en,      // root port Device Control Enable No Snoop
  input  wire logic                  cfg_ext_tag,    // root port Device Control Extended Tag Field Enable
  input  wire logic [1:0][63:0]      cfg_fwd_base,   // root port windows (0 non-prefetchable, 1 prefetchable):
  input  wire logic [1:0][63:0]      cfg_fwd_limit,  // first and last byte; ingress TLPs must lie inside one

  // ---------------- upstream requests of the device (pcie_rp m_up_req) ----------------
  `TLP_S_PORTS(s_dev_req),

  // ---------------- completions of the device for our MRd tags ----------------
  `TLP_S_PORTS(s_dev_cpl),

  // ---------------- TLPs toward the device (MRd/MWr, CplD/Cpl; to pcie_rp s_up) ----------------
  `TLP_M_PORTS(m_dev),

  // ---------------- router local port (net_local_port.svh) ----------------
  `NET_LOCAL_PORTS(s_net, m_net),

  // ---------------- status (register file, hw = w) ----------------
  output      logic [31:0]           st_in_reqs,     // smfu.in_reqs
  output      logic [31:0]           st_up_reqs,     // smfu.up_reqs (pass-through requests sent)
  output      logic [31:0]           st_timeouts,    // smfu.timeouts (reads answered CA: timeout, SBR)
  output      logic [31:0]           st_drops,       // refused / dropped requests and completions
  output      logic [31:0]           st_in_refused   // network requests not forwardable (smfu_in MODE 0 checks)
);

  // ------------------------------------------------------------------
  // Network port
  // ------------------------------------------------------------------
  logic [127:0] rxq_data, rxc_data, txq_data, txc_data;
  logic         rxq_last, rxq_valid, rxq_ready, rxc_last, rxc_valid, rxc_ready;
  logic         txq_last, txq_valid, txq_ready, txc_last, txc_valid, txc_ready;
  logic         ev_rx_drop;

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
  // Ingress
  // ------------------------------------------------------------------
  logic [127:0] in_data;
  logic [3:0]   in_keep;
  logic         in_sop, in_eop, in_valid, in_ready;
  logic         ev_req, ev_refused, ev_fwd_refused, ev_cpl_drop, ev_in_tmo;
  /* verilator lint_off UNUSEDSIGNAL */
  logic         nq_push, nq_stall;   // MODE 0: constant 0
  /* verilator lint_on UNUSEDSIGNAL */
  logic         in_wr_done;          // an ingress SMFU_WR has been issued toward the device

  smfu_in #(.MODE(0), .NIVL(NIVL), .NTAGS(IN_TAGS), .TAG_BASE(TAG_BASE)) u_in (
    .clk, .rst,
    .cfg_node_id,
    .cfg_req_id     (cfg_rp_id),
    .cfg_bus_master (1'b1),
    .cfg_ro_en, .cfg_ns_en, .cfg_ext_tag,
    .cfg_in_base,
    .cfg_fwd_base, .cfg_fwd_limit,
    .cfg_win_base   (64'd0),
    .cfg_win_size   (64'd0),
    .cfg_timeout,
    .cfg_mps        (cfg_dev_mps),
    .cfg_mrrs       (cfg_dev_mrrs),
    .cpl_flush      (sbr),
    .nq_ready (1'b0), .nq_off (1'b0), .nq_addr (64'd0), .nq_phase (1'b0), .nq_push, .nq_stall,
    .s_pkt_data (rxq_data), .s_pkt_last (rxq_last), .s_pkt_valid (rxq_valid), .s_pkt_ready (rxq_ready),
    .m_tlp_data (in_data), .m_tlp_keep (in_keep), .m_tlp_sop (in_sop),
    .m_tlp_eop (in_eop), .m_tlp_valid (in_valid), .m_tlp_ready (in_ready),
    .s_cpl_data (s_dev_cpl_data), .s_cpl_keep (s_dev_cpl_keep), .s_cpl_sop (s_dev_cpl_sop),
    .s_cpl_eop (s_dev_cpl_eop), .s_cpl_valid (s_dev_cpl_valid), .s_cpl_ready (s_dev_cpl_ready),
    .m_pkt_data (txc_data), .m_pkt_last (txc_last), .m_pkt_valid (txc_valid), .m_pkt_ready (txc_ready),
    .ev_req, .ev_refused, .ev_fwd_refused, .ev_cpl_drop,
    .ev_cpl_tmo (ev_in_tmo),
    .ev_wr_done (in_wr_done)
  );

  // ------------------------------------------------------------------
  // Ordering: a pass-through completion must not pass an ingress write
  // that arrived from the network before it (smfu_cpl_order)
  // ------------------------------------------------------------------
  logic [127:0] rxc_g_data;
  logic         rxc_g_last, rxc_g_valid, rxc_g_ready;

  smfu_cpl_order #(.RX_DEPTH(RX_DEPTH)) u_order (
    .clk, .rst,
    .s_net_valid, .s_net_last,
    .s_net_type  (s_net_data[35:32]),
    .wr_done     (in_wr_done),
    .s_cpl_data (rxc_data), .s_cpl_last (rxc_last), .s_cpl_valid (rxc_valid), .s_cpl_ready (rxc_ready),
    .m_cpl_data (rxc_g_data), .m_cpl_last (rxc_g_last), .m_cpl_valid (rxc_g_valid), .m_cpl_ready (rxc_g_ready)
  );

  // ------------------------------------------------------------------
  // Pass-through sender
  // ------------------------------------------------------------------
  logic [127:0] pt_data;
  logic [3:0]   pt_keep;
  logic         pt_sop, pt_eop, pt_valid, pt_ready;
  logic         ev_hit, ev_miss, ev_late, ev_timeout;

  smfu_eg #(.MODE(1), .NIVL(1), .NTAGS(PT_TAGS)) u_pt (
    .clk, .rst,
    .cfg_node_id,
    .cfg_cpl_id   (cfg_rp_id),
    .cfg_timeout,
    .cfg_eg_start (64'd0), .cfg_eg_end (64'd0), .cfg_eg_valid (1'b0), .cfg_eg_node (16'd0),
    .cfg_passthru,
    .cfg_up_node,
    .cfg_mps      (cfg_dev_mps),
    .s_req_data (s_dev_req_data), .s_req_keep (s_dev_req_keep), .s_req_sop (s_dev_req_sop),
    .s_req_eop (s_dev_req_eop), .s_req_valid (s_dev_req_valid), .s_req_ready (s_dev_req_ready),
    .m_pkt_data (txq_data), .m_pkt_last (txq_last), .m_pkt_valid (txq_valid), .m_pkt_ready (txq_ready),
    .s_cpl_data (rxc_g_data), .s_cpl_last (rxc_g_last), .s_cpl_valid (rxc_g_valid), .s_cpl_ready (rxc_g_ready),
    .m_cpl_data (pt_data), .m_cpl_keep (pt_keep), .m_cpl_sop (pt_sop),
    .m_cpl_eop (pt_eop), .m_cpl_valid (pt_valid), .m_cpl_ready (pt_ready),
    .ev_hit, .ev_miss, .ev_timeout, .ev_late
  );

  // ------------------------------------------------------------------
  // TLPs toward the device: ingress requests (0), pass-through completions (1)
  // ------------------------------------------------------------------
  pcie_tlp_arb #(.N(2)) u_arb (
    .clk, .rst,
    `TLP_CONNECT_CAT(s, pt, in),
    `TLP_CONNECT(m, m_dev)
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      st_in_reqs <= '0;
      st_up_reqs <= '0;
      st_timeouts <= '0;
      st_drops   <= '0;
      st_in_refused <= '0;
    end else begin
      st_in_refused <= st_in_refused + 32'(ev_fwd_refused);
      st_in_reqs <= st_in_reqs + 32'(ev_req);
      st_up_reqs <= st_up_reqs + 32'(ev_hit);
      st_timeouts <= st_timeouts + 32'(ev_in_tmo) + 32'(ev_timeout);
      st_drops   <= st_drops + 32'(ev_refused) + 32'(ev_cpl_drop) + 32'(ev_rx_drop) +
                    32'(ev_miss) + 32'(ev_late);
    end
  end

endmodule

`default_nettype wire
