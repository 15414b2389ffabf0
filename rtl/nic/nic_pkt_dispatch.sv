// SPDX-License-Identifier: Apache-2.0
//
// nic_pkt_dispatch: packet dispatch at the NIC's local network port 0
// (docs/nic.md "SMFU wiring", last paragraph). Each packet that nic_net_rx
// assembles goes to exactly one consumer, by type (net_pkg, docs/packets.md).
// The two message classes (docs/network.md "The protocol part") come from two
// receive buffers and are dispatched independently: a request that waits for
// the responder or the inject slot never holds up a response.
//
//   request class (s_*):
//   RRA_RD, RRA_WR               -> m_rsp (nic_rra_rsp; it reads s_f0/s_f1)
//   response class (s_rsp_*):
//   RRA_RSP, TLP_RAW extract     -> m_rec (nic_host_wr; it reads s_rsp_f0..f2)
//   TLP_RAW inject               -> m_inj (pcie_backdoor inject slot): header
//                                   from flit 1, 3/4-DW by its Fmt bit, `ndw`
//                                   payload dwords from flit 2, exactly as sent;
//                                   discarded (ev_inj_denied) while the node is
//                                   held by another node than its source
//                                   (own block, docs/security.md), and always
//                                   when inj_allow is 0 (a host NIC: a TLP from
//                                   the network would reach the host's memory)
//   anything else, or a type on the other class's input -> discarded (ready 1)
//
// s_ready / s_rsp_ready is the ready of the chosen consumer. inj_seq keeps the seq of the
// last injected TLP: the forwarded (extracted) completion echoes it.
// Synchronous to clk, reset rst (sync, high).

`default_nettype none

module nic_pkt_dispatch (
  // ---------------- clock and reset ----------------
  input  wire logic          clk,
  input  wire logic          rst,          // synchronous, active high

  // ---------------- assembled packet (nic_net_rx) ----------------
  input  wire logic          s_valid,
  output      logic          s_ready,
  input  wire logic [127:0]  s_f0,         // header flit
  input  wire logic [127:0]  s_f1,         // payload flit 1
  input  wire logic [127:0]  s_f2,         // payload flit 2

  // ---------------- assembled response-class packet (second nic_net_rx) ----------------
  input  wire logic          s_rsp_valid,
  output      logic          s_rsp_ready,
  input  wire logic [127:0]  s_rsp_f0,     // header flit

  // ---------------- the node's holder (nic_own) ----------------
  input  wire logic          own_held,
  input  wire logic [15:0]   own_owner,
  input  wire logic          inj_allow,    // network injections may enter (root-port role)

  // ---------------- RRA requests -> responder ----------------
  output      logic          m_rsp_valid,
  input  wire logic          m_rsp_ready,

  // ---------------- answers -> completion-record writer ----------------
  output      logic          m_rec_valid,
  input  wire logic          m_rec_ready,

  // ---------------- TLP_RAW inject -> backdoor inject slot ----------------
  output      logic          m_inj_valid,
  input  wire logic          m_inj_ready,
  output      logic [127:0]  m_inj_hdr,    // header dwords 3..0
  output      logic [63:0]   m_inj_data,   // payload dwords 1..0
  output      logic [2:0]    m_inj_hdr_dw, // 3 or 4
  output      logic [1:0]    m_inj_data_dw,// 0..2

  // ---------------- state ----------------
  output      logic [15:0]   inj_seq,      // seq of the last injected TLP
  output      logic          ev_inj_denied // an injection from a node that does not hold this one, discarded
);

  net_pkg::net_hdr_t     h;
  net_pkg::net_cmd_tlp_t tc;               // cmd of a TLP_RAW packet
  assign h  = net_pkg::net_hdr_t'(s_f0);
  assign tc = net_pkg::net_cmd_tlp_t'(h.cmd);

  net_pkg::net_hdr_t     rh;               // response-class header
  net_pkg::net_cmd_tlp_t rtc;
  assign rh  = net_pkg::net_hdr_t'(s_rsp_f0);
  assign rtc = net_pkg::net_cmd_tlp_t'(rh.cmd);

  logic to_rsp, to_rec, to_inj, inj_denied;
  assign to_rsp = (h.ptype == net_pkg::NET_TYPE_RRA_RD) || (h.ptype == net_pkg::NET_TYPE_RRA_WR);
  assign to_rec = (rh.ptype == net_pkg::NET_TYPE_RRA_RSP) ||
                  (rh.ptype == net_pkg::NET_TYPE_TLP_RAW && rtc.dir == net_pkg::NET_TLP_DIR_EXTRACT);
  assign to_inj = (h.ptype == net_pkg::NET_TYPE_TLP_RAW && tc.dir == net_pkg::NET_TLP_DIR_INJECT) &&
                  !inj_denied;
  assign inj_denied = (h.ptype == net_pkg::NET_TYPE_TLP_RAW && tc.dir == net_pkg::NET_TLP_DIR_INJECT) &&
                      (!inj_allow || (own_held && h.src != own_owner));
  assign ev_inj_denied = s_valid && inj_denied;

  assign s_ready = to_rsp ? m_rsp_ready :
                   to_inj ? m_inj_ready : 1'b1;   // other types: discarded
  assign s_rsp_ready = to_rec ? m_rec_ready : 1'b1;

  assign m_rsp_valid = s_valid && to_rsp;
  assign m_rec_valid = s_rsp_valid && to_rec;

  assign m_inj_valid   = s_valid && to_inj;
  assign m_inj_hdr     = s_f1;
  assign m_inj_data    = s_f2[63:0];
  assign m_inj_hdr_dw  = s_f1[29] ? 3'd4 : 3'd3;  // Fmt bit 0 (dword 0 bit 29): 4-DW header
  assign m_inj_data_dw = tc.ndw;

  always_ff @(posedge clk) begin
    if (rst) inj_seq <= '0;
    else if (m_inj_valid && m_inj_ready) inj_seq <= tc.seq;
  end

  logic unused;
  assign unused = ^{s_f2[127:64], tc.rec, tc.rsvd0, h.route, h.plen, h.rmode, h.vc, h.dst,
                    rh.dst, rh.src, rh.vc, rh.rmode, rh.plen, rh.route, rtc.seq, rtc.ndw, rtc.rec, rtc.rsvd0};

endmodule

`default_nettype wire
