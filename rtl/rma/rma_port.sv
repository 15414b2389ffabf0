// SPDX-License-Identifier: Apache-2.0
//
// rma_port: attaches the RMA unit to the router without a router port of its
// own (docs/rma.md "Where the unit sits", docs/nic.md):
//
//   receive   on local port 1 (router -> the role's SMFU): an SMFU_CPL whose
//             tag has bit 7 set answers one of the RMA unit's reads (the
//             SMFU's requesters use network tags 0x00..0x7f, smfu_rd_cpl), so
//             it goes to the RMA unit (m_rc_*, always sunk there); every other
//             packet passes to the SMFU unchanged, in the same cycle. The
//             class is decided at the header flit and held to the last one
//             (the router sends a packet's flits back to back). Credits back
//             to the router: the SMFU's pulses pass through; one for each
//             flit the RMA unit took is added in a cycle without an SMFU
//             pulse on that VC (a pending count per VC).
//   transmit  on local port 0 (the RRA unit's inport), every packet on the
//             VC of its message class (net_pkg::net_class, docs/network.md
//             "The protocol part"): the RMA unit's reads (data reads and the
//             flush read) on class 0, its writes and records on class 1; the
//             RRA unit's requests on 0, its responses on 1. The RRA unit keeps
//             priority (nic_net_tx: whole packets, never paused); the RMA unit
//             sends one flit per cycle in the cycles the RRA unit does not,
//             from RMA_CREDITS0 / RMA_CREDITS1 credits of the class buffers
//             reserved for it (the RRA unit is built with the rest: nic_core),
//             and while an RMA packet is open on a class the RRA unit starts
//             none on that class (ra_hold). The router's credit pulses of a
//             class come back in the order of the flits in that class's
//             buffer: a FIFO of owner bits per class hands each to the RRA
//             unit or to the reserve. A data read for this node's own memory
//             (a put from it) waits for local outport 1 while the SMFU's
//             completions stream there; on class 0 it does not hold up the
//             writes (class 1; the router serves the VCs of an inport round
//             robin). The flush read no longer follows the writes in one
//             buffer: the SMFU_RD carries the count of earlier writes to its
//             destination (nic_wr_stamp) and waits at the receiver for them
//             (smfu_net_if).
//
// Synchronous to clk, reset rst (sync, high).

`default_nettype none

module rma_port #(
  parameter int LOCAL_BUF_DEPTH = 32,   // credits per VC of the router's local inports
  parameter int LOCAL_CREDITS   = 32,   // credits per VC of the router's local outports
  parameter int RMA_CREDITS0    = 4,    // of the class 0 (request) credits of local inport 0: the
                                        // RMA unit's (its reads); the rest is the RRA unit's
  parameter int RMA_CREDITS1    = 24    // of the class 1 (response) credits: the RMA unit's (its
                                        // writes and records) (LOCAL_BUF_DEPTH: a power of two)
) (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,            // synchronous, active high

  // ---------------- router local outport 1 (to the units) ----------------
  input  wire logic         o1_valid,
  input  wire logic [127:0] o1_data,
  input  wire logic         o1_last,
  input  wire logic         o1_vc,
  output      logic [1:0]   o1_credit,

  // ---------------- ... passed to the SMFU ----------------
  output      logic         sm_valid,
  output      logic [127:0] sm_data,
  output      logic         sm_last,
  output      logic         sm_vc,
  input  wire logic [1:0]   sm_credit,

  // ---------------- ... and the RMA unit's completions ----------------
  output      logic         m_rc_valid,
  output      logic [127:0] m_rc_data,
  output      logic         m_rc_last,

  // ---------------- router local inport 0 (from the units) ----------------
  output      logic         i0_valid,
  output      logic [127:0] i0_data,
  output      logic         i0_last,
  output      logic         i0_vc,
  input  wire logic [1:0]   i0_credit,

  // ---------------- ... from the RRA unit (whole packets, on their class) ----------------
  input  wire logic         ra_valid,
  input  wire logic [127:0] ra_data,
  input  wire logic         ra_last,
  input  wire logic         ra_vc,
  output      logic [1:0]   ra_credit,
  output      logic [1:0]   ra_hold,        // per class: start no packet (an RMA packet is open)

  // ---------------- ... and from the RMA unit (flit by flit, on its class) ----------------
  input  wire logic [127:0] s_rt_data,
  input  wire logic         s_rt_last,
  input  wire logic         s_rt_vc,        // unused: the class comes from the header
  input  wire logic         s_rt_valid,
  output      logic         s_rt_ready
);

  // ------------------------------------------------------------------
  // Receive split
  // ------------------------------------------------------------------
  logic in_pkt_q, rma_q, rma;
  net_pkg::net_hdr_t     h;
  net_pkg::net_cmd_cpl_t cc;

  always_comb begin
    h   = o1_data;
    cc  = h.cmd;
    rma = in_pkt_q ? rma_q : (h.ptype == net_pkg::NET_TYPE_SMFU_CPL && cc.tag[7]);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q <= 1'b0;
      rma_q    <= 1'b0;
    end else if (o1_valid) begin
      in_pkt_q <= !o1_last;
      rma_q    <= rma;
    end
  end

  assign sm_valid   = o1_valid && !rma;
  assign sm_data    = o1_data;
  assign sm_last    = o1_last;
  assign sm_vc      = o1_vc;
  assign m_rc_valid = o1_valid && rma;
  assign m_rc_data  = o1_data;
  assign m_rc_last  = o1_last;

  // credits: the SMFU's pulses pass; the RMA unit's flits wait for a free cycle
  localparam int PW = $clog2(LOCAL_CREDITS) + 2;
  logic [PW-1:0] pend_q [2];
  logic [1:0]    rc_fl, pend_out;

  always_comb begin
    for (int v = 0; v < 2; v++) begin
      rc_fl[v]    = m_rc_valid && o1_vc == 1'(v);
      pend_out[v] = !sm_credit[v] && pend_q[v] != '0;
      o1_credit[v] = sm_credit[v] || pend_out[v];
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      pend_q[0] <= '0;
      pend_q[1] <= '0;
    end else begin
      for (int v = 0; v < 2; v++) begin
        pend_q[v] <= pend_q[v] + PW'(rc_fl[v]) - PW'(pend_out[v]);
      end
    end
  end

  // ------------------------------------------------------------------
  // Transmit merge: per message class c, the class's LOCAL_BUF_DEPTH credits
  // of local inport 0 are split: RMA_CREDITS[c] for the RMA unit, the rest
  // for the RRA unit (nic_core builds it with those). The router's credit
  // pulses of a class come back in the order of the flits in that class's
  // buffer: a FIFO of owner bits per class hands each to its owner.
  // ------------------------------------------------------------------
  localparam int TW = $clog2(LOCAL_BUF_DEPTH) + 1;
  localparam int OW = $clog2(LOCAL_BUF_DEPTH);
  logic [TW-1:0] cred_q [2];            // the RMA unit's credits per class
  logic          rt_fire, rt_cls, rt_mid_q, rt_cls_q;
  logic [127:0]  rt_stamped;
  logic [1:0]    own_push, own_pop, own_rma;
  logic [LOCAL_BUF_DEPTH-1:0] own_q [2];  // owner of each flit in a class buffer (1: RMA)
  logic [OW:0]   own_wp_q [2];
  logic [OW:0]   own_rp_q [2];

  // class of the RMA unit's packet: from its header, held to the last flit
  assign rt_cls     = rt_mid_q ? rt_cls_q : net_pkg::net_class(s_rt_data);
  assign s_rt_ready = !ra_valid && cred_q[rt_cls] != '0;
  assign rt_fire    = s_rt_valid && s_rt_ready;
  assign i0_valid   = ra_valid || rt_fire;
  assign i0_data    = ra_valid ? ra_data : rt_stamped;
  assign i0_last    = ra_valid ? ra_last : s_rt_last;
  assign i0_vc      = ra_valid ? ra_vc : rt_cls;
  // the read-after-write fence: the RMA unit's SMFU_RD headers carry the count
  // of its earlier writes to their destination (smfu_wr_stamp, sender 1)
  smfu_wr_stamp #(.INJ(1'b1)) u_stamp (
    .clk, .rst,
    .s_hdr  (rt_fire && !rt_mid_q),
    .s_data (s_rt_data),
    .m_data (rt_stamped)
  );

  // the RRA unit starts no packet on the class of an RMA packet in progress
  // (its flits would land inside it in that class's buffer)
  assign ra_hold    = {rt_mid_q && rt_cls_q, rt_mid_q && !rt_cls_q};

  always_comb begin
    for (int c = 0; c < 2; c++) begin
      own_push[c] = (ra_valid && ra_vc == 1'(c)) || (rt_fire && rt_cls == 1'(c));
      own_pop[c]  = i0_credit[c];
      own_rma[c]  = own_q[c][own_rp_q[c][OW-1:0]];
      ra_credit[c] = own_pop[c] && !own_rma[c];
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      rt_mid_q <= 1'b0;
      rt_cls_q <= 1'b0;
      for (int c = 0; c < 2; c++) begin
        cred_q[c]   <= TW'(c == 0 ? RMA_CREDITS0 : RMA_CREDITS1);
        own_wp_q[c] <= '0;
        own_rp_q[c] <= '0;
      end
    end else begin
      if (rt_fire) begin
        rt_mid_q <= !s_rt_last;
        rt_cls_q <= rt_cls;
      end
      for (int c = 0; c < 2; c++) begin
        cred_q[c] <= cred_q[c] - TW'(rt_fire && rt_cls == 1'(c)) + TW'(own_pop[c] && own_rma[c]);
        if (own_push[c]) own_wp_q[c] <= own_wp_q[c] + 1'b1;
        if (own_pop[c])  own_rp_q[c] <= own_rp_q[c] + 1'b1;
      end
    end
  end

  always_ff @(posedge clk) begin
    for (int c = 0; c < 2; c++)
      if (own_push[c]) own_q[c][own_wp_q[c][OW-1:0]] <= !ra_valid;
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{s_rt_vc, h.dst, h.src, h.vc, h.rmode, h.plen, h.route, cc.status, cc.last, cc.len_m1,
                    cc.lower_addr, cc.byte_count, cc.ep, cc.rsvd0, cc.tag[6:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
