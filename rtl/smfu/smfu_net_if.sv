// SPDX-License-Identifier: Apache-2.0
//
// smfu_net_if: attaches the SMFU units of one NIC to their local router port
// (docs/network.md "Flow control": credits per VC, no ready).
//
//   receive   router outport -> demux by packet type into two buffers:
//               requests    SMFU_RD, SMFU_WR  -> m_rxq (to ingress / pass-through receiver)
//               completions SMFU_CPL          -> m_rxc (to egress / pass-through sender)
//             other types are consumed and counted (ev_rx_drop). Each buffer
//             holds RX_DEPTH flits (>= both VCs' credits), so completions are
//             always sunk, whatever the requests wait for (message classes:
//             docs/network.md); a credit goes back for every flit that leaves
//             a buffer (or is dropped).
//   transmit  two packet streams (s_txq requests, s_txc completions) merged a
//             whole packet at a time (round robin), sent on VC 0 into the
//             router's local inport, one flit per cycle while credits last
//             (LOCAL_BUF_DEPTH per VC at reset, one back per s_net_credit pulse).
//
// Packet streams inside the SMFU: flit data, last (on the last flit), valid,
// ready (AXI-Stream rules); the first flit of a packet is its header.

`default_nettype none
`include "net_local_port.svh"

module smfu_net_if
#(
  parameter int LOCAL_BUF_DEPTH = 32,   // credits per VC of the router's local inport
  parameter int RX_DEPTH        = 64    // flits per receive buffer (>= 2 x router LOCAL_CREDITS)
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
  // Receive: classify at the header flit, keep the class up to last
  // ------------------------------------------------------------------
  typedef enum logic [1:0] { K_REQ, K_CPL, K_DROP } kind_e;

  logic   in_pkt_q;
  kind_e  kind_q, kind;
  logic [3:0] ptype;

  assign ptype = s_net_data[35:32];

  always_comb begin
    if (in_pkt_q) begin
      kind = kind_q;
    end else if (ptype == 4'(net_pkg::NET_TYPE_SMFU_RD) || ptype == 4'(net_pkg::NET_TYPE_SMFU_WR)) begin
      kind = K_REQ;
    end else if (ptype == 4'(net_pkg::NET_TYPE_SMFU_CPL)) begin
      kind = K_CPL;
    end else begin
      kind = K_DROP;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q <= 1'b0;
      kind_q   <= K_REQ;
    end else if (s_net_valid) begin
      in_pkt_q <= !s_net_last;
      kind_q   <= kind;
    end
  end

  assign ev_rx_drop = s_net_valid && !in_pkt_q && kind == K_DROP;

  // buffers: {vc, last, data}
  logic [129:0] q_out, c_out;
  logic         q_valid, c_valid;
  /* verilator lint_off UNUSEDSIGNAL */
  logic         q_in_ready, c_in_ready;   // always 1 by the credit discipline
  logic [$clog2(RX_DEPTH):0] q_count, c_count;
  /* verilator lint_on UNUSEDSIGNAL */

  sync_fifo #(.WIDTH(130), .DEPTH(RX_DEPTH)) u_rxq (
    .clk, .rst,
    .s_data  ({s_net_vc, s_net_last, s_net_data}),
    .s_valid (s_net_valid && kind == K_REQ),
    .s_ready (q_in_ready),
    .m_data  (q_out),
    .m_valid (q_valid),
    .m_ready (m_rxq_ready),
    .count   (q_count)
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

  assign m_rxq_data  = q_out[127:0];
  assign m_rxq_last  = q_out[128];
  assign m_rxq_valid = q_valid;
  assign m_rxc_data  = c_out[127:0];
  assign m_rxc_last  = c_out[128];
  assign m_rxc_valid = c_valid;

  // credit return: up to three flits leave per cycle, one pulse per VC per cycle
  localparam int CW = $clog2(RX_DEPTH) + 2;
  logic [CW-1:0] pend_q [2];
  logic [1:0]    fr_drop, fr_q, fr_c;

  always_comb begin
    fr_drop = '0;
    fr_q    = '0;
    fr_c    = '0;
    if (s_net_valid && kind == K_DROP) fr_drop[s_net_vc] = 1'b1;
    if (q_valid && m_rxq_ready)        fr_q[q_out[129]]  = 1'b1;
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
  // Transmit: packet round robin, credit counter, registered output
  // ------------------------------------------------------------------
  localparam int TW = $clog2(LOCAL_BUF_DEPTH) + 1;
  logic [TW-1:0] cred_q;
  logic          lock_q, sel_q, last_sel_q, sel;
  logic          can_send, fire;
  logic [127:0]  t_data;
  logic          t_last, t_valid;

  always_comb begin
    if (lock_q) begin
      sel = sel_q;
    end else if (s_txq_valid && s_txc_valid) begin
      sel = !last_sel_q;           // alternate when both wait
    end else begin
      sel = s_txc_valid;
    end
    t_data  = sel ? s_txc_data  : s_txq_data;
    t_last  = sel ? s_txc_last  : s_txq_last;
    t_valid = sel ? s_txc_valid : s_txq_valid;
  end

  assign can_send    = cred_q != '0;
  assign fire        = t_valid && can_send;
  assign s_txq_ready = can_send && !sel;
  assign s_txc_ready = can_send && sel;

  always_ff @(posedge clk) begin
    if (rst) begin
      cred_q      <= TW'(LOCAL_BUF_DEPTH);
      lock_q      <= 1'b0;
      sel_q       <= 1'b0;
      last_sel_q  <= 1'b1;
      m_net_valid <= 1'b0;
      m_net_last  <= 1'b0;
    end else begin
      cred_q      <= cred_q - TW'(fire) + TW'(s_net_credit[0]);
      m_net_valid <= fire;
      m_net_last  <= fire && t_last;
      if (fire) begin
        lock_q <= !t_last;
        sel_q  <= sel;
        if (!lock_q) last_sel_q <= sel;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (fire) m_net_data <= t_data;
  end

  assign m_net_vc = 1'b0;

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = s_net_credit[1];   // only VC 0 is used for injection
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
