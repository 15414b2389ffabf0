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
// Host role (EXPOSE = 1): the RMA units' requests into host memory (issue 13,
// docs/rma.md "Host to host"). An SMFU_RD / SMFU_WR sent by another node's RMA
// unit (net_smfu_ext_t.winj = 1, source not this node) is refused the same way
// while win_enforce (dma.ctrl.enforce) is set, unless its first and last byte
// lie in one window of the dma block's table (dma.win_base0..7 / win_limit0..7,
// the pages this host exposed) that allows it (SMFU_RD: read, SMFU_WR: write)
// and it has the pass-through form; refused reads and writes are counted
// (st_rd_refused, st_wr_refused: dma.refused) and the last one kept
// (st_last_*: dma.last). This node's own RMA unit and the SMFU senders
// (winj = 0: an NAA's pass-through DMA, checked by the NAA's own table) pass.
//
// Combinational on the data: no buffer, no added cycle; valid, last and vc
// pass unchanged, and so do the credits (not seen here). Packets of the two
// VCs may interleave flit by flit on the port: the header of each is found
// per VC (mid_q). Other packet types and a free node pass untouched.
// Synchronous to clk, reset rst (sync, high).

`default_nettype none

module nic_smfu_gate #(
  parameter int         NVC         = net_pkg::NCLS, // VCs of the port (one per message class)
  parameter logic [5:0] REFUSED_IVL = 6'd31,         // an interval id no SMFU accepts
  parameter bit         EXPOSE      = 1'b0,          // 1 (host role): RMA requests of other nodes
                                                     // only inside the window table
  parameter int         NWIN        = 8              // windows (dma.win_base0..7)
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

  // ---------------- the exposed windows (dma.*, host role) ----------------
  input  wire logic                  win_enforce,  // dma.ctrl.enforce
  input  wire logic [NWIN-1:0][51:0] win_base,     // window i: first page (address bits 63:12)
  input  wire logic [NWIN-1:0][51:0] win_limit,    // window i: last page (inclusive)
  input  wire logic [NWIN-1:0][1:0]  win_perm,     // window i: {write, read}

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
  output      logic          ev_denied,    // an SMFU request from another node than the holder refused

  // ---------------- refusals by the window table (dma.refused, dma.last) ----------------
  output      logic [31:0]   st_rd_refused, // RMA reads refused (wraps)
  output      logic [31:0]   st_wr_refused, // RMA writes refused (wraps)
  output      logic          st_last_valid, // a request has been refused
  output      logic          st_last_wr,    // ... it was a write
  output      logic [63:2]   st_last_addr   // ... at this address (dword)
);

  logic [NVC-1:0] mid_q;                   // per VC: inside a packet, the next flit is not a header
  logic           is_hdr, is_req, is_wr, deny, deny_win, win_ok;
  logic [43:0]    addr, last;              // pass-through byte address, last byte (bit 43: past 2^43)
  logic [NWIN-1:0] in_win;

  net_pkg::net_hdr_t      h, h_out;
  net_pkg::net_cmd_smfu_t c, c_out;
  net_pkg::net_smfu_ext_t x;

  assign h      = net_pkg::net_hdr_t'(s_data);
  assign c      = net_pkg::net_cmd_smfu_t'(h.cmd);
  assign x      = net_pkg::net_smfu_ext_t'(h.route);
  assign is_hdr = s_valid && !mid_q[s_vc];
  assign is_req = (h.ptype == net_pkg::NET_TYPE_SMFU_RD) || (h.ptype == net_pkg::NET_TYPE_SMFU_WR);
  assign is_wr  = h.ptype == net_pkg::NET_TYPE_SMFU_WR;

  // the window check of an RMA request (host role)
  always_comb begin
    addr = {1'b0, c.ivl[4:0], c.off_dw, 2'b00};
    last = addr + {35'd0, {1'b0, c.len_m1} + 7'd1, 2'b00} - 44'd1;
    for (int i = 0; i < NWIN; i++) begin
      in_win[i] = (is_wr ? win_perm[i][1] : win_perm[i][0]) &&
                  {21'd0, addr[42:12]} >= win_base[i] && {21'd0, last[42:12]} <= win_limit[i];
    end
    win_ok = c.ivl[5] && !last[43] && |in_win;
  end

  assign deny_win = EXPOSE && win_enforce && is_hdr && is_req && x.winj && h.src != node_id && !win_ok;
  assign deny     = deny_win ||
                    (is_hdr && is_req && own_held && h.src != own_owner && h.src != node_id &&
                     !(peer_en && h.src == peer_node));

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

  always_ff @(posedge clk) begin
    if (rst) begin
      st_rd_refused <= '0;
      st_wr_refused <= '0;
      st_last_valid <= 1'b0;
      st_last_wr    <= 1'b0;
      st_last_addr  <= '0;
    end else if (deny_win) begin
      if (is_wr) st_wr_refused <= st_wr_refused + 1'b1;
      else       st_rd_refused <= st_rd_refused + 1'b1;
      st_last_valid <= 1'b1;
      st_last_wr    <= is_wr;
      st_last_addr  <= {21'd0, addr[42:2]};
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{x.rsvd0, x.wcnt, x.attr, x.tc, c.tag, c.fbe, c.lbe, addr[43], last[11:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
