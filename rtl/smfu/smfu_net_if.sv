// SPDX-License-Identifier: Apache-2.0
//
// smfu_net_if: attaches the SMFU units of one NIC to their local router port
// (docs/network.md "Flow control": credits per VC, no ready).
//
//   receive   router outport (VC = message class, docs/network.md "The
//             protocol part") -> demux by packet type:
//               reads       SMFU_RD (class 0, one flit) -> a read buffer, from
//                           which each moves into rxq once the writes its
//                           sender sent before it are there (the fence: the
//                           count in its net_smfu_ext_t.wcnt, smfu_wr_stamp;
//                           writes are counted per source node and sender)
//               writes      SMFU_WR (class 1)   -> rxq at once
//               rxq (reads and writes in that order) -> a 2-entry skid
//                           buffer (+1 cycle) -> m_rxq (to ingress /
//                           pass-through receiver)
//               completions SMFU_CPL (class 1)  -> m_rxc (to egress / pass-through sender)
//             other types are consumed and counted (ev_rx_drop). rxq and rxc
//             hold RX_DEPTH flits (>= both classes' credits), the read buffer
//             RX_DEPTH / 2, so completions are always sunk and reads waiting
//             for their writes never hold up a write; a credit goes back for
//             every flit that leaves rxq or rxc (or is dropped), on its class.
//             (Still in one path: smfu_in serves rxq in order, so a read that
//             waits there for a tag holds the writes behind it.)
//   transmit  two packet streams (s_txq requests, s_txc completions) merged a
//             whole packet at a time (round robin), each packet on the VC of
//             its class (net_pkg::net_class) into the router's local inport,
//             one flit per cycle while that class's credits last
//             (LOCAL_BUF_DEPTH per class at reset, one back per s_net_credit
//             pulse; a packet whose class has none does not hold up one of
//             the other class); SMFU_RD headers are stamped by smfu_wr_stamp.
//
// Packet streams inside the SMFU: flit data, last (on the last flit), valid,
// ready (AXI-Stream rules); the first flit of a packet is its header.

`default_nettype none
`include "net_local_port.svh"

module smfu_net_if
#(
  parameter int LOCAL_BUF_DEPTH = 32,   // credits per class of the router's local inport
  parameter int RX_DEPTH        = 64    // flits per receive buffer (>= 2 x router LOCAL_CREDITS; power of 2)
) (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,            // synchronous, active high

  // ---------------- router local port (net_local_port.svh) ----------------
  `NET_LOCAL_PORTS(s_net, m_net),

  // ---------------- received requests (SMFU_RD / SMFU_WR) ----------------
  output      logic [127:0] m_rxq_data,
  output      logic         m_rxq_last,
  output      logic         m_rxq_valid,
  input  wire logic         m_rxq_ready,

  // ---------------- received completions (SMFU_CPL) ----------------
  output      logic [127:0] m_rxc_data,
  output      logic         m_rxc_last,
  output      logic         m_rxc_valid,
  input  wire logic         m_rxc_ready,

  // ---------------- requests to send ----------------
  input  wire logic [127:0] s_txq_data,
  input  wire logic         s_txq_last,
  input  wire logic         s_txq_valid,
  output      logic         s_txq_ready,

  // ---------------- completions to send ----------------
  input  wire logic [127:0] s_txc_data,
  input  wire logic         s_txc_last,
  input  wire logic         s_txc_valid,
  output      logic         s_txc_ready,

  // ---------------- events ----------------
  output      logic         ev_rx_drop      // a packet of another type was dropped
);

  // ------------------------------------------------------------------
  // Receive: classify at the header flit, keep the kind up to last
  // ------------------------------------------------------------------
  typedef enum logic [1:0] { K_RD, K_WR, K_CPL, K_DROP } kind_e;

  logic   in_pkt_q;
  kind_e  kind_q, kind;
  net_pkg::net_hdr_t rh;

  assign rh = net_pkg::net_hdr_t'(s_net_data);

  always_comb begin
    if (in_pkt_q) begin
      kind = kind_q;
    end else if (rh.ptype == net_pkg::NET_TYPE_SMFU_RD && rh.plen == '0) begin
      kind = K_RD;                 // a read is one flit (anything longer is dropped)
    end else if (rh.ptype == net_pkg::NET_TYPE_SMFU_WR) begin
      kind = K_WR;
    end else if (rh.ptype == net_pkg::NET_TYPE_SMFU_CPL) begin
      kind = K_CPL;
    end else begin
      kind = K_DROP;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q <= 1'b0;
      kind_q   <= K_WR;
    end else if (s_net_valid) begin
      in_pkt_q <= !s_net_last;
      kind_q   <= kind;
    end
  end

  assign ev_rx_drop = s_net_valid && !in_pkt_q && kind == K_DROP;

  // ---- reads wait in their own buffer (request class) until the writes
  // their sender sent before them have entered the in-order path (the fence:
  // smfu_wr_stamp numbers every SMFU_WR and writes the count of earlier
  // writes into every SMFU_RD; per source node and sender this remembers the
  // number of the last write that entered rxq, plus 1: an absolute value, so
  // it follows the sender after a restart of its numbering; until the first
  // write of a source is seen, its reads pass)
  localparam int NODE_AW = 6;              // sources counted (the routing table size)
  localparam int RW      = $clog2(RX_DEPTH / 2);
  logic [127:0]  r_out;
  logic          r_valid, r_pop;
  /* verilator lint_off UNUSEDSIGNAL */
  logic          r_in_ready;               // always 1 by the credit discipline
  logic [RW:0]   r_count;
  /* verilator lint_on UNUSEDSIGNAL */

  sync_fifo #(.WIDTH(128), .DEPTH(RX_DEPTH / 2)) u_rxr (
    .clk, .rst,
    .s_data  (s_net_data),
    .s_valid (s_net_valid && kind == K_RD && !rd_direct),
    .s_ready (r_in_ready),
    .m_data  (r_out),
    .m_valid (r_valid),
    .m_ready (r_pop),
    .count   (r_count)
  );

  logic [11:0]            wcnt_q [2**NODE_AW][2];  // per source node and sender: last write's number + 1
  logic [1:0]             wval_q [2**NODE_AW];     // ... a write of it has been seen
  net_pkg::net_smfu_ext_t wx;
  logic                   fence_ok, fence_now, wr_in, wr_hdr, rd_direct;
  logic                   fok_q, fhead_q;  // fence_ok of the last cycle; the head is the same

  // the writes a read header must follow have entered rxq
  /* verilator lint_off UNUSEDSIGNAL */  // src, rmode and the extension only
  function automatic logic fence(input logic [127:0] d);
    net_pkg::net_hdr_t      fh;
    net_pkg::net_smfu_ext_t fx;
    logic [11:0]            fdiff;
    fh    = net_pkg::net_hdr_t'(d);
    fx    = net_pkg::net_smfu_ext_t'(fh.route);
    fdiff = wcnt_q[fh.src[NODE_AW-1:0]][fx.winj] - fx.wcnt;
    fence = fh.rmode == net_pkg::NET_RMODE_SOURCE || !wval_q[fh.src[NODE_AW-1:0]][fx.winj] || !fdiff[11];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    fence_ok  = fence(r_out);
    fence_now = fence(s_net_data);
    wx        = net_pkg::net_smfu_ext_t'(rh.route);
  end

  assign wr_in  = s_net_valid && kind == K_WR;
  assign wr_hdr = wr_in && !in_pkt_q;
  // a read whose writes are in, and with no read waiting before it, enters
  // rxq as it arrives (in arrival order, as a write would); the others wait
  // and then move between write packets, never into one (so writes that
  // arrive meanwhile pass it, as PCIe allows)
  assign rd_direct = s_net_valid && kind == K_RD && !r_valid && fence_now;
  // (issue 10: from the last cycle's fence check of the same head, so that
  // the read buffer's LUT RAM, the counter lookup and the compare are not in
  // front of rxq's write port: a waiting read leaves one cycle after it has
  // become the head, at most one every second cycle; the counters only grow,
  // so a check that passed still holds)
  assign r_pop     = r_valid && fhead_q && fok_q && !wr_in && !(in_pkt_q && kind_q == K_WR);

  always_ff @(posedge clk) begin
    if (rst) fhead_q <= 1'b0;
    else     fhead_q <= r_valid && !r_pop;
    fok_q <= fence_ok;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      for (int i = 0; i < 2**NODE_AW; i++) begin
        wcnt_q[i][0] <= '0;
        wcnt_q[i][1] <= '0;
        wval_q[i]    <= '0;
      end
    end else if (wr_hdr && rh.rmode == net_pkg::NET_RMODE_TABLE) begin
      wcnt_q[rh.src[NODE_AW-1:0]][wx.winj] <= wx.wcnt + 1'b1;
      wval_q[rh.src[NODE_AW-1:0]][wx.winj] <= 1'b1;
    end
  end

  // buffers: {vc, last, data}
  logic [129:0] q_out, c_out;
  logic         q_valid, c_valid;
  logic         q_ready;                  // rxq's output register takes a flit
  /* verilator lint_off UNUSEDSIGNAL */
  logic         q_in_ready, c_in_ready;   // always 1 by the credit discipline
  logic [$clog2(RX_DEPTH):0] q_count, c_count;
  /* verilator lint_on UNUSEDSIGNAL */

  sync_fifo #(.WIDTH(130), .DEPTH(RX_DEPTH)) u_rxq (
    .clk, .rst,
    .s_data  (r_pop ? {1'b0, 1'b1, r_out} : {s_net_vc, s_net_last, s_net_data}),
    .s_valid (wr_in || r_pop || rd_direct),
    .s_ready (q_in_ready),
    .m_data  (q_out),
    .m_valid (q_valid),
    .m_ready (q_ready),
    .count   (q_count)
  );

  // rxq's output register (issue 10): a 2-entry skid buffer, so that the
  // block RAM's clock-to-output and smfu_in's header decode are in different
  // cycles (+1 cycle per request, no bubble between flits or packets);
  // entry 0 is the flit presented, entry 1 one taken while it waited. The
  // credit goes back as the flit leaves rxq (the skid buffer has room of its
  // own: q_ready is its registered "not full").
  skid_buf #(.W (129)) u_rxq_skid (
    .clk, .rst,
    .s_data (q_out[128:0]), .s_valid (q_valid), .s_ready (q_ready),
    .m_data ({m_rxq_last, m_rxq_data}), .m_valid (m_rxq_valid), .m_ready (m_rxq_ready)
  );

  sync_fifo #(.WIDTH(130), .DEPTH(RX_DEPTH)) u_rxc (
    .clk, .rst,
    .s_data  ({s_net_vc, s_net_last, s_net_data}),
    .s_valid (s_net_valid && kind == K_CPL),
    .s_ready (c_in_ready),
    .m_data  (c_out),
    .m_valid (c_valid),
    .m_ready (m_rxc_ready),
    .count   (c_count)
  );

  assign m_rxc_data  = c_out[127:0];
  assign m_rxc_last  = c_out[128];
  assign m_rxc_valid = c_valid;

  // credit return: up to three flits leave per cycle, one pulse per class per cycle
  localparam int CW = $clog2(RX_DEPTH) + 2;
  logic [CW-1:0] pend_q [2];
  logic [1:0]    fr_drop, fr_q, fr_c;

  always_comb begin
    fr_drop = '0;
    fr_q    = '0;
    fr_c    = '0;
    if (s_net_valid && kind == K_DROP) fr_drop[s_net_vc] = 1'b1;
    if (q_valid && q_ready)            fr_q[q_out[129]]  = 1'b1;
    if (c_valid && m_rxc_ready)        fr_c[c_out[129]]  = 1'b1;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      pend_q[0]    <= '0;
      pend_q[1]    <= '0;
      m_net_credit <= '0;
    end else begin
      for (int v = 0; v < 2; v++) begin
        pend_q[v] <= pend_q[v] + CW'(fr_drop[v]) + CW'(fr_q[v]) + CW'(fr_c[v])
                     - CW'(pend_q[v] != '0);
        m_net_credit[v] <= pend_q[v] != '0;
      end
    end
  end

  // ------------------------------------------------------------------
  // Transmit: packet round robin, credits per class, registered output, one
  // flit per cycle while the packet's class has credits. Of two packets of
  // one class the one presented first goes first (a completion must not pass
  // a write presented before it, when both wait for credits), then they
  // alternate; of two packets of different classes, one whose class has no
  // credits does not hold up the other (a response never waits for request
  // credits).
  // ------------------------------------------------------------------
  localparam int TW = $clog2(LOCAL_BUF_DEPTH) + 1;
  logic [TW-1:0] cred_q [2];
  logic          lock_q, sel_q, last_sel_q, sel, cls_q, cls;
  logic          fire, cq, cc, ok_q, ok_c;
  logic          older_c_q;               // the completion stream's packet waits longer
  logic [127:0]  t_data, t_stamped;
  logic          t_last, t_valid;

  assign cq   = net_pkg::net_class(s_txq_data);
  assign cc   = net_pkg::net_class(s_txc_data);
  assign ok_q = s_txq_valid && cred_q[cq] != '0;
  assign ok_c = s_txc_valid && cred_q[cc] != '0;

  always_comb begin
    if (lock_q) begin
      sel = sel_q;
    end else if (s_txq_valid && s_txc_valid) begin
      if (cq == cc)          sel = older_c_q;
      else if (ok_q && ok_c) sel = !last_sel_q;   // alternate when both can go
      else                   sel = ok_c;
    end else begin
      sel = s_txc_valid;
    end
    t_data  = sel ? s_txc_data  : s_txq_data;
    t_last  = sel ? s_txc_last  : s_txq_last;
    t_valid = sel ? s_txc_valid : s_txq_valid;
    cls     = lock_q ? cls_q : (sel ? cc : cq);
  end

  assign fire        = t_valid && cred_q[cls] != '0;
  assign s_txq_ready = fire && !sel;
  assign s_txc_ready = fire && sel;

  // the read-after-write fence: SMFU_RD headers carry the count of earlier writes
  smfu_wr_stamp #(.NODE_AW(NODE_AW), .INJ(1'b0)) u_stamp (
    .clk, .rst,
    .s_hdr  (fire && !lock_q),
    .s_data (t_data),
    .m_data (t_stamped)
  );

  always_ff @(posedge clk) begin
    if (rst) begin
      cred_q[0]   <= TW'(LOCAL_BUF_DEPTH);
      cred_q[1]   <= TW'(LOCAL_BUF_DEPTH);
      lock_q      <= 1'b0;
      sel_q       <= 1'b0;
      cls_q       <= 1'b0;
      last_sel_q  <= 1'b1;
      older_c_q   <= 1'b0;
      m_net_valid <= 1'b0;
      m_net_last  <= 1'b0;
      m_net_vc    <= 1'b0;
    end else begin
      for (int c = 0; c < 2; c++)
        cred_q[c] <= cred_q[c] - TW'(fire && cls == 1'(c)) + TW'(s_net_credit[c]);
      m_net_valid <= fire;
      m_net_last  <= fire && t_last;
      if (fire && t_last)                        older_c_q <= !sel;  // the other one waits longer now
      else if (!(s_txq_valid && s_txc_valid))    older_c_q <= s_txc_valid;
      if (fire) begin
        m_net_vc <= cls;
        lock_q   <= !t_last;
        sel_q    <= sel;
        cls_q    <= cls;
        if (!lock_q) last_sel_q <= sel;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (fire) m_net_data <= t_stamped;
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{rh.dst, rh.vc, rh.cmd, wx.tc, wx.attr, wx.rsvd0,
                    wx.wcnt};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
