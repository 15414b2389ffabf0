// SPDX-License-Identifier: Apache-2.0
//
// nic_rra_unit: the NIC's unit on router local port 0 (docs/nic.md, docs/
// remote-access.md): remote register access (RRA) in both directions and the
// network side of the PCIe backdoor (config tunnel). Wiring only (and the OR
// of the requester's and the record writer's drop events for rra.dropped):
//
//   router local outport 0 --> nic_net_rx per message class --> nic_pkt_dispatch
//     requests  RRA_RD/RRA_WR            --> nic_rra_rsp (register file, cpuif master)
//               TLP_RAW inject           --> backdoor inject slot (m_inj)
//     responses RRA_RSP, TLP_RAW extract --> nic_host_wr (completion record MWr -> m_tlp)
//   (one buffer per class: the records are written whatever the responder and
//   the inject slot wait for, docs/network.md "The protocol part")
//   router local inport 0 <-- nic_net_tx (round robin per packet, each on its class)
//        0 RRA_RSP of nic_rra_rsp
//        1 TLP_RAW extract: backdoor forward (s_fwd) packed by nic_fwd_pkt
//        2 RRA_RD/RRA_WR/TLP_RAW inject of nic_rra_req (launched by rra.req.seq)
//
// ENDPOINT = 0 (root-port role): no host above, so the requester and the
// record writer drop and count (rra.dropped). ENDPOINT = 1: TLP_RAW injections
// from the network are discarded (own.denied.tunnel): the tunnel only goes
// into an NAA's hierarchy, never up into a host. Synchronous to clk, reset rst.

`default_nettype none
`include "cpuif_port.svh"
`include "net_local_port.svh"
`include "tlp_stream.svh"
`include "backdoor_port.svh"
`include "nic_pkt_port.svh"

module nic_rra_unit #(
  parameter bit ENDPOINT        = 1'b1,    // endpoint role (a host above)
  parameter int REG_ADDR_W      = 12,      // register block address width
  parameter int REG_MAP_BYTES   = 'h1000,  // register file size: beyond, RRA status 1
  parameter int LOCAL_CREDITS   = 32,      // credits per class of the router's local outport
  parameter int LOCAL_BUF_DEPTH = 32,      // class 0 credits of the router's local inport (this unit's share)
  parameter int RSP_BUF_DEPTH   = 32       // class 1 credits of the router's local inport (this unit's share, >= 3)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic [15:0]           node_id,
  input  wire logic                  bus_master,     // Command.BusMasterEnable (records)
  input  wire logic                  own_held,       // own block: writes and injections
  input  wire logic [15:0]           own_owner,      //   only from the holder while held
  input  wire logic                  mgmt_valid,     // own.mgmt: writes to a free node and to
  input  wire logic [15:0]           mgmt_node,      //   own.mgmt only from the management node
  input  wire logic [15:0]           cpl_id,         // requester ID of the record MWr

  // ---------------- router local port (net_local_port.svh) ----------------
  `NET_LOCAL_PORTS(s_net, m_net),
  input  wire logic [1:0]            tx_hold,        // per class: start no packet of it (rma_port)

  // ---------------- register file (responder, cpuif master) ----------------
  `CPUIF_M_PORTS(cpuif, REG_ADDR_W),
  output      logic [15:0]           cpuif_src,      // source node of the RRA request being served

  // ---------------- requester: rra.* registers ----------------
  input  wire logic                  req_launch,     // rra.req.seq written this cycle
  input  wire logic [63:0]           req_q,          // rra.req fields before the write, packed
  input  wire logic [63:0]           req_wr_data,    // the register file's cpuif write data
  input  wire logic [63:0]           req_wr_biten,   // and bit enables
  input  wire logic [63:0]           req_wdata,      // rra.wdata
  input  wire logic [63:0]           req_tlp_hdr0,   // rra.tlp_hdr0
  input  wire logic [63:0]           req_tlp_hdr1,   // rra.tlp_hdr1
  input  wire logic [63:0]           req_route,      // rra.route
  input  wire logic [63:0]           req_cmp_addr,   // rra.cmp_addr

  // ---------------- TLP_RAW inject -> pcie_backdoor s_inj ----------------
  `BD_INJ_M_PORTS(m_inj),

  // ---------------- forwarded completion <- pcie_backdoor m_fwd ----------------
  `BD_FWD_S_PORTS(s_fwd),

  // ---------------- completion-record MWr (docs/tlp-interface.md) ----------------
  `TLP_M_PORTS(m_tlp),

  // ---------------- events and status ----------------
  output      logic                  ev_sent,        // rra.sent
  output      logic                  ev_served,      // rra.served
  output      logic                  ev_wr_denied,   // own.denied.writes
  output      logic                  ev_inj_denied,  // own.denied.tunnel
  output      logic                  ev_completed,   // rra.completed
  output      logic                  ev_dropped,     // rra.dropped (request or record)
  output      logic                  rx_ovf          // sticky: the receive buffer overran
);

  // ---- receive, dispatch
  logic         pk_valid, pk_ready, pr_valid, pr_ready;
  logic [127:0] pk_f0, pk_f1, pk_f2, pr_f0, pr_f1, pr_f2;  // request / response class
  logic [1:0]   rx_credit_q, rx_credit_r;
  logic         rx_ovf_q, rx_ovf_r;
  logic         rsp_valid, rsp_ready, rec_valid, rec_ready;
  logic [15:0]  inj_seq;

  nic_net_rx #(.LOCAL_CREDITS(LOCAL_CREDITS), .CLASSES(1)) u_rx (
    .clk, .rst,
    .s_valid  (s_net_valid && s_net_vc == 1'b0),
    .s_data   (s_net_data),
    .s_last   (s_net_last),
    .s_vc     (s_net_vc),
    .m_credit (rx_credit_q),
    .m_valid  (pk_valid),
    .m_ready  (pk_ready),
    .m_f0     (pk_f0),
    .m_f1     (pk_f1),
    .m_f2     (pk_f2),
    .m_ovf    (rx_ovf_q)
  );

  nic_net_rx #(.LOCAL_CREDITS(LOCAL_CREDITS), .CLASSES(1)) u_rx_rsp (
    .clk, .rst,
    .s_valid  (s_net_valid && s_net_vc == 1'b1),
    .s_data   (s_net_data),
    .s_last   (s_net_last),
    .s_vc     (s_net_vc),
    .m_credit (rx_credit_r),
    .m_valid  (pr_valid),
    .m_ready  (pr_ready),
    .m_f0     (pr_f0),
    .m_f1     (pr_f1),
    .m_f2     (pr_f2),
    .m_ovf    (rx_ovf_r)
  );
  assign m_net_credit = rx_credit_q | rx_credit_r;
  assign rx_ovf       = rx_ovf_q || rx_ovf_r;

  nic_pkt_dispatch u_dispatch (
    .clk, .rst,
    .s_valid       (pk_valid),
    .s_ready       (pk_ready),
    .s_f0          (pk_f0),
    .s_f1          (pk_f1),
    .s_f2          (pk_f2),
    .s_rsp_valid   (pr_valid),
    .s_rsp_ready   (pr_ready),
    .s_rsp_f0      (pr_f0),
    .m_rsp_valid   (rsp_valid),
    .m_rsp_ready   (rsp_ready),
    .m_rec_valid   (rec_valid),
    .m_rec_ready   (rec_ready),
    .m_inj_valid, .m_inj_ready, .m_inj_hdr, .m_inj_data, .m_inj_hdr_dw, .m_inj_data_dw,
    .inj_seq,
    .own_held, .own_owner, .ev_inj_denied,
    .inj_allow     (!ENDPOINT)
  );

  logic ev_rec_drop, ev_req_drop;
  nic_host_wr u_host_wr (
    .clk, .rst,
    .enable     (ENDPOINT),
    .bus_master (bus_master),
    .req_id     (cpl_id),
    .rec_addr   (req_cmp_addr),
    .s_valid    (rec_valid),
    .s_ready    (rec_ready),
    .s_f0       (pr_f0),
    .s_f1       (pr_f1),
    .s_f2       (pr_f2),
    .m_tlp_data, .m_tlp_keep, .m_tlp_sop, .m_tlp_eop, .m_tlp_valid, .m_tlp_ready,
    .ev_done    (ev_completed),
    .ev_drop    (ev_rec_drop)
  );

  // ---- transmit sources: 0 RRA responses, 1 forwarded completions, 2 requests
  localparam int NTX = 3;
  logic [NTX-1:0]         tx_valid, tx_ready;
  logic [NTX-1:0][1:0]    tx_nflit;
  logic [NTX-1:0][127:0]  tx_f0, tx_f1, tx_f2;

  nic_rra_rsp #(.ADDR_W(REG_ADDR_W), .REGS_BYTES(REG_MAP_BYTES)) u_rsp (
    .clk, .rst,
    .my_node  (node_id),
    .own_held, .own_owner, .mgmt_valid, .mgmt_node,
    .s_valid  (rsp_valid),
    .s_ready  (rsp_ready),
    .s_f0     (pk_f0),
    .s_f1     (pk_f1),
    `CPUIF_CONNECT(cpuif, cpuif),
    .cpuif_src,
    `NIC_PKT_CONNECT_AT(m, tx, 0),
    .ev_served,
    .ev_denied (ev_wr_denied)
  );

  nic_fwd_pkt u_fwd (
    .my_node   (node_id),
    .inj_seq,
    .s_valid   (s_fwd_valid),
    .s_ready   (s_fwd_ready),
    .s_hdr     (s_fwd_hdr),
    .s_data    (s_fwd_data),
    .s_data_dw (s_fwd_data_dw),
    .s_node    (s_fwd_node),
    .s_addr    (s_fwd_addr),
    `NIC_PKT_CONNECT_AT(m, tx, 1)
  );

  nic_rra_req u_req (
    .clk, .rst,
    .enable   (ENDPOINT),
    .my_node  (node_id),
    .launch   (req_launch),
    .req_q,
    .wr_data  (req_wr_data),
    .wr_biten (req_wr_biten),
    .wdata    (req_wdata),
    .tlp_hdr0 (req_tlp_hdr0),
    .tlp_hdr1 (req_tlp_hdr1),
    .route    (req_route),
    .cmp_addr (req_cmp_addr),
    `NIC_PKT_CONNECT_AT(m, tx, 2),
    .ev_sent,
    .ev_drop  (ev_req_drop)
  );
  assign ev_dropped = ev_req_drop || ev_rec_drop;

  nic_net_tx #(.N(NTX), .LOCAL_BUF_DEPTH(LOCAL_BUF_DEPTH), .RSP_BUF_DEPTH(RSP_BUF_DEPTH)) u_tx (
    .clk, .rst,
    .s_valid  (tx_valid),
    .s_ready  (tx_ready),
    .s_nflit  (tx_nflit),
    .s_f0     (tx_f0),
    .s_f1     (tx_f1),
    .s_f2     (tx_f2),
    .m_valid  (m_net_valid),
    .m_data   (m_net_data),
    .m_last   (m_net_last),
    .m_vc     (m_net_vc),
    .s_credit (s_net_credit),
    .s_hold   (tx_hold)
  );

endmodule

`default_nettype wire
