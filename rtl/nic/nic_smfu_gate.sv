// SPDX-License-Identifier: Apache-2.0
//
// nic_smfu_gate: the holder check for the SMFU requests a root-port NIC takes
// from the network (docs/security.md). It sits on the packet stream from the
// router's local port 1 to the SMFU (smfu_naa). While the node is held
// (nic_own), the header flit of an SMFU_RD or SMFU_WR whose source is neither
// the holder nor this node itself (its own RMA unit, docs/rma.md) nor the peer the holder granted
// (own.peer, peer_en: cleared while the node is free) leaves with its interval id replaced by REFUSED_IVL: neither an
// interval (0..NIVL-1) nor the pass-through form (32..63), so smfu_in refuses
// it as it refuses any unknown interval (docs/smfu.md): a read is answered UR
// (the requester's CPU sees an Unsupported Request), a write is dropped,
// nothing reaches the device. ev_denied pulses once per refused request
// (own.denied_smfu).
//
// Combinational on the data: no buffer, no added cycle; valid, last and vc
// pass unchanged, and so do the credits (not seen here). Packets of the two
// VCs may interleave flit by flit on the port: the header of each is found
// per VC (mid_q). Other packet types and a free node pass untouched.
// Synchronous to clk, reset rst (sync, high).

`default_nettype none

module nic_smfu_gate #(
  parameter int         NVC         = net_pkg::NCLS, // VCs of the port (one per message class)
  parameter logic [5:0] REFUSED_IVL = 6'd31          // an interval id no SMFU accepts
) (
  // ---------------- clock and reset ----------------
  input  wire logic          clk,
  input  wire logic          rst,          // synchronous, active high

  // ---------------- the node's holder (nic_own) ----------------
  input  wire logic [15:0]   node_id,      // this node (its own requests always pass)
  input  wire logic          own_held,
  input  wire logic [15:0]   own_owner,
  input  wire logic          peer_en,      // own.peer: the holder grants one more node
  input  wire logic [15:0]   peer_node,

  // ---------------- from the router (local port out) ----------------
  input  wire logic          s_valid,
  input  wire logic [127:0]  s_data,
  input  wire logic          s_last,
  input  wire logic          s_vc,

  // ---------------- to the SMFU ----------------
  output      logic          m_valid,
  output      logic [127:0]  m_data,
  output      logic          m_last,
  output      logic          m_vc,

  // ---------------- event ----------------
  output      logic          ev_denied     // an SMFU request from another node than the holder refused
);

  logic [NVC-1:0] mid_q;                   // per VC: inside a packet, the next flit is not a header
  logic           is_hdr, is_req, deny;

  net_pkg::net_hdr_t      h, h_out;
  net_pkg::net_cmd_smfu_t c, c_out;

  assign h      = net_pkg::net_hdr_t'(s_data);
  assign c      = net_pkg::net_cmd_smfu_t'(h.cmd);
  assign is_hdr = s_valid && !mid_q[s_vc];
  assign is_req = (h.ptype == net_pkg::NET_TYPE_SMFU_RD) || (h.ptype == net_pkg::NET_TYPE_SMFU_WR);
  assign deny   = is_hdr && is_req && own_held && h.src != own_owner && h.src != node_id &&
                  !(peer_en && h.src == peer_node);

  always_comb begin
    c_out     = c;
    c_out.ivl = REFUSED_IVL;
    h_out     = h;
    h_out.cmd = c_out;
  end

  assign m_valid   = s_valid;
  assign m_data    = deny ? 128'(h_out) : s_data;
  assign m_last    = s_last;
  assign m_vc      = s_vc;
  assign ev_denied = deny;

  always_ff @(posedge clk) begin
    if (rst) mid_q <= '0;
    else if (s_valid) mid_q[s_vc] <= !s_last;
  end

endmodule

`default_nettype wire
