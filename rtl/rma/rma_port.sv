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
//   transmit  on local port 0 (the RRA unit's inport): the RRA unit keeps
//             priority (nic_net_tx: whole packets, never paused, all on VC 0);
//             the RMA unit sends in the cycles the RRA unit does not. Its
//             data reads (s_rt_vc 0: one flit each) go on VC 0, between the
//             RRA unit's packets, from RMA_VC0_CREDITS credits of that buffer
//             reserved for them (the RRA unit is built with the rest: nic_core);
//             everything else (writes, the flush read, which must stay behind
//             the writes, records) on VC 1, one flit per cycle while VC 1
//             credits last (LOCAL_BUF_DEPTH at reset). The router's VC 0
//             credit pulses come back in the order of the flits in that
//             buffer: a FIFO of owner bits hands each to the RRA unit or to
//             the reserve. Two VCs because a read for this node's own memory
//             (a put from it) waits for local outport 1 while the SMFU's
//             completions stream there; on the writes' VC it would hold up the
//             writes behind it (the router serves the VCs of an inport round
//             robin, so a blocked VC does not block the other). The VC of a
//             packet from a local port is chosen anew by the first router
//             (rule AUTO: VC 0 on the links, docs/network.md): the VCs here
//             only name buffers of the local inport.
//
// Synchronous to clk, reset rst (sync, high).

`default_nettype none

module rma_port #(
  parameter int LOCAL_BUF_DEPTH = 32,   // credits per VC of the router's local inports
  parameter int LOCAL_CREDITS   = 32,   // credits per VC of the router's local outports
  parameter int RMA_VC0_CREDITS = 4     // of the VC 0 credits of local inport 0: the RMA unit's reads
                                        // (LOCAL_BUF_DEPTH: a power of two)
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

  // ---------------- ... from the RRA unit (VC 0) ----------------
  input  wire logic         ra_valid,
  input  wire logic [127:0] ra_data,
  input  wire logic         ra_last,
  input  wire logic         ra_vc,
  output      logic [1:0]   ra_credit,

  // ---------------- ... and from the RMA unit (VC 1) ----------------
  input  wire logic [127:0] s_rt_data,
  input  wire logic         s_rt_last,
  input  wire logic         s_rt_vc,        // 0: a one-flit data read
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
  // Transmit merge
  // ------------------------------------------------------------------
  localparam int TW = $clog2(LOCAL_BUF_DEPTH) + 1;
  localparam int OW = $clog2(LOCAL_BUF_DEPTH);
  logic [TW-1:0] cred1_q, cred0_q;      // VC 1 credits; the reserved VC 0 credits
  logic          rt_fire, own_push, own_pop, own_bit, own_rma;
  logic [LOCAL_BUF_DEPTH-1:0] own_q;    // owner of each flit in the VC 0 buffer (1: RMA)
  logic [OW:0]   own_wp_q, own_rp_q;

  assign s_rt_ready = !ra_valid && (s_rt_vc ? cred1_q != '0 : cred0_q != '0);
  assign rt_fire    = s_rt_valid && s_rt_ready;
  assign i0_valid   = ra_valid || rt_fire;
  assign i0_data    = ra_valid ? ra_data : s_rt_data;
  assign i0_last    = ra_valid ? ra_last : s_rt_last;
  assign i0_vc      = ra_valid ? ra_vc : s_rt_vc;

  // VC 0 credit pulses: in buffer order, to the RRA unit or to the reserve
  assign own_push  = (ra_valid && !ra_vc) || (rt_fire && !s_rt_vc);
  assign own_bit   = !ra_valid;
  assign own_pop   = i0_credit[0];
  assign own_rma   = own_q[own_rp_q[OW-1:0]];
  assign ra_credit = {1'b0, own_pop && !own_rma};

  always_ff @(posedge clk) begin
    if (rst) begin
      cred1_q  <= TW'(LOCAL_BUF_DEPTH);
      cred0_q  <= TW'(RMA_VC0_CREDITS);
      own_wp_q <= '0;
      own_rp_q <= '0;
    end else begin
      cred1_q <= cred1_q - TW'(rt_fire && s_rt_vc) + TW'(i0_credit[1]);
      cred0_q <= cred0_q - TW'(rt_fire && !s_rt_vc) + TW'(own_pop && own_rma);
      if (own_push) own_wp_q <= own_wp_q + 1'b1;
      if (own_pop)  own_rp_q <= own_rp_q + 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (own_push) own_q[own_wp_q[OW-1:0]] <= own_bit;
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{h.dst, h.src, h.vc, h.rmode, h.plen, h.route, cc.status, cc.last, cc.len_m1,
                    cc.lower_addr, cc.byte_count, cc.ep, cc.rsvd0, cc.tag[6:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
