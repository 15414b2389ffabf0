// SPDX-License-Identifier: Apache-2.0
//
// nic_net_tx: transmit side of the NIC's local network port 0. Merges N
// packet sources (each presents a whole packet of 1..3 flits in parallel)
// onto the router's local inport, one packet at a time, round robin.
//
// Credits (docs/network.md): the unit holds LOCAL_BUF_DEPTH credits per
// message class (the VC of a local port) of the local inport buffer, spends
// one per flit and gets one back per pulse of s_credit[class]. Each packet is
// sent on the VC of its class (net_pkg::net_class of its header: requests
// RRA_RD/RRA_WR/TLP_RAW inject on 0, responses RRA_RSP/TLP_RAW extract on 1),
// and only when its whole length is covered by that class's credits, so it
// never pauses mid-packet and a class without credits does not hold up the
// other (docs/network.md "The protocol part"). The first flit leaves in the cycle
// the packet is picked (combinational from the source registers); s_ready
// pulses with the last flit.

`default_nettype none

module nic_net_tx #(
  parameter int N               = 3,    // packet sources
  parameter int LOCAL_BUF_DEPTH = 32,   // credits of class 0 (requests) of the router's local inport
  parameter int RSP_BUF_DEPTH   = 32    // credits of class 1 (responses) (>= 3: the longest packet)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,      // synchronous, active high

  // ---------------- packet sources ----------------
  input  wire logic [N-1:0]          s_valid,
  output      logic [N-1:0]          s_ready,  // pulse: the packet's last flit left
  input  wire logic [N-1:0][1:0]     s_nflit,  // flits in the packet (1..3)
  input  wire logic [N-1:0][127:0]   s_f0,
  input  wire logic [N-1:0][127:0]   s_f1,
  input  wire logic [N-1:0][127:0]   s_f2,

  // ---------------- to the router's local inport ----------------
  output      logic                  m_valid,
  output      logic [127:0]          m_data,
  output      logic                  m_last,
  output      logic                  m_vc,
  input  wire logic [1:0]            s_credit, // credit return per class
  input  wire logic [1:0]            s_hold    // per class: start no packet of it (rma_port: its packet is open)
);

  localparam int IW = (N > 1) ? $clog2(N) : 1;
  localparam int CW = $clog2((LOCAL_BUF_DEPTH > RSP_BUF_DEPTH ? LOCAL_BUF_DEPTH : RSP_BUF_DEPTH) + 1);

  logic [CW-1:0] cred_q [2];             // per class
  logic          cls_q, cls;              // class of the packet being sent
  logic          lock_q;
  logic [IW-1:0] sel_q, last_q, pick, sel;
  logic          pick_any;
  logic [1:0]    idx_q, idx, n;

  // round robin among sources whose packet fits the credits
  always_comb begin
    int i;
    pick     = last_q;
    pick_any = 1'b0;
    for (int k = 1; k <= N; k++) begin
      i = int'(last_q) + k;
      if (i >= N) i = i - N;
      if (!pick_any && s_valid[i] && CW'(s_nflit[i]) <= cred_q[net_pkg::net_class(s_f0[i])]
          && !s_hold[net_pkg::net_class(s_f0[i])]) begin
        pick     = IW'(i);
        pick_any = 1'b1;
      end
    end
  end

  assign sel = lock_q ? sel_q : pick;
  assign idx = lock_q ? idx_q : 2'd0;
  assign cls = lock_q ? cls_q : net_pkg::net_class(s_f0[pick]);
  assign n   = (s_nflit[sel] == 2'd0) ? 2'd1 : s_nflit[sel];

  always_comb begin
    m_valid = lock_q || pick_any;
    case (idx)
      2'd0:    m_data = s_f0[sel];
      2'd1:    m_data = s_f1[sel];
      default: m_data = s_f2[sel];
    endcase
    m_last  = (idx == n - 2'd1);
    m_vc    = cls;
    s_ready = '0;
    s_ready[sel] = m_valid && m_last;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      cred_q[0] <= CW'(LOCAL_BUF_DEPTH);
      cred_q[1] <= CW'(RSP_BUF_DEPTH);
      cls_q  <= 1'b0;
      lock_q <= 1'b0;
      sel_q  <= '0;
      idx_q  <= '0;
      last_q <= IW'(N - 1);
    end else begin
      for (int c = 0; c < 2; c++)
        cred_q[c] <= cred_q[c] - CW'(m_valid && cls == 1'(c)) + CW'(s_credit[c]);
      if (m_valid) begin
        cls_q  <= cls;
        if (!lock_q) begin
          last_q <= sel;
        end
        sel_q  <= sel;
        lock_q <= !m_last;
        idx_q  <= m_last ? 2'd0 : idx + 2'd1;
      end
    end
  end

  // synthesis translate_off
  always_ff @(posedge clk) begin
    // a credit for a flit this unit never sent (rma_port hands the router's
    // credits back to their owners: a wrong owner shows here)
    for (int c = 0; c < 2; c++)
      if (!rst && s_credit[c] && !(m_valid && cls == 1'(c))
          && cred_q[c] == CW'(c == 0 ? LOCAL_BUF_DEPTH : RSP_BUF_DEPTH)) begin
        $error("nic_net_tx: more credits of class %0d returned than flits sent", c);
      end
  end
  // synthesis translate_on

endmodule

`default_nettype wire
