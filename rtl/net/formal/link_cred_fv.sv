// SPDX-License-Identifier: Apache-2.0
//
// link_cred_fv: formal harness of the link credit path (`make -C rtl/net
// formal`, docs/network.md "Formal checks"): link_tx turns the far receiver's
// cumulative credit counts (mod 2^16, in control words) into credit pulses for
// the router output's credit counter. Around the real link_tx the harness
// models, per VC (all four: two message classes x two dateline VCs):
//   rc   the router output's credit counter (router.sv `cred`: starts at
//        LINK_CREDITS, +1 per pulse on m_credit, -1 per flit sent; a flit is
//        sent only with rc > 0);
//   occ  the far receiver's buffer (a sent flit occupies a slot at once,
//        the receiver frees slots at will);
//   gr   the far receiver's cumulative count: LINK_CREDITS + flits freed;
//   the control word that arrives (when one does) carries any count the
//        receiver had at most STALE freed flits ago: words are lost,
//        duplicated, delayed and reordered at will. Corrupted words never
//        arrive (the CRC drops them).
// Free inputs: flits sent (and their VC), slots freed, which word arrives when,
// the rest of the control word (type, ACK) and link_tx's other inputs.
//
// Properties (assertions labelled for the mutation runs), per VC:
//   c_occ   the far buffer never holds more than LINK_CREDITS flits;
//   c_rc    the router's counter never exceeds LINK_CREDITS (so it never
//           wraps below zero either);
//   c_cons  credits are conserved: rc + pending pulses + occ + credits granted
//           but not yet reported == LINK_CREDITS (nothing created, nothing
//           lost for good: a lost word only delays);
//   c_heal  a lost update heals: the cycle after a word with the receiver's
//           current count arrives, rc + pending pulses + occ == LINK_CREDITS
//           (when no slot was freed in that cycle);
//   c_pend  at most LINK_CREDITS pulses pending (all reach the router within
//           LINK_CREDITS cycles, one per cycle).
// Strengthening invariants for the induction step: i_seen, the count link_tx
// has seen (probe p_seen = dut.cred_seen) lies at most LINK_CREDITS behind gr;
// i_heal, after a word with the current count it equals gr.

`default_nettype none

module link_cred_fv #(
  parameter int L     = 64,   // LINK_CREDITS: far buffer depth per VC
  parameter int STALE = 1024  // freed flits a control word may stay in flight
) (
  // ---- clock (reset: the first cycle)
  input  wire logic                           clk,
  // ---- free inputs: traffic
  input  wire logic                           s_send,    // a flit leaves the router output
  input  wire logic [net_pkg::VC_W-1:0]      s_send_vc, // {class, dateline VC}
  input  wire logic [net_pkg::NVC-1:0]        s_free,    // the far receiver frees a slot of the VC
  // ---- free inputs: control words
  input  wire logic                           s_deliver, // a control word arrives
  input  wire logic [net_pkg::NVC-1:0][15:0]  s_cred,    // ... with these counts (assumed: old ones of gr)
  input  wire logic [3:0]                     s_ctype,
  input  wire logic [7:0]                     s_ack,
  input  wire logic                           s_peer,
  // ---- free inputs: the rest of link_tx
  input  wire logic [net_pkg::FLIT_W-1:0]     s_data,
  input  wire logic                           s_last,
  input  wire logic                           s_up,
  input  wire logic                           s_lpeer,
  input  wire logic [7:0]                     s_rx_ack,
  input  wire logic                           s_rx_ack_force,
  input  wire logic                           s_rx_nak,
  input  wire logic [net_pkg::NVC-1:0][15:0]  s_rx_cred
);
  localparam int NVC = net_pkg::NVC;

  logic init = 1'b1;
  always_ff @(posedge clk) init <= 1'b0;

  // ------------------------------------------------------------------ the far receiver and the words in flight
  logic [NVC-1:0][7:0]  occ, rc;
  logic [NVC-1:0][15:0] gr;
  logic [NVC-1:0]       snd, fr;
  always_comb begin
    for (int v = 0; v < NVC; v++) begin
      snd[v] = s_send && s_send_vc == net_pkg::VC_W'(v);
      fr[v]  = s_free[v] && occ[v] != '0;
    end
  end

  net_pkg::net_lctl_t ctl;
  always_comb begin
    ctl       = '0;
    ctl.ctype = net_pkg::net_lctl_e'(s_ctype);
    ctl.ack   = s_ack;
    ctl.peer  = s_peer;
    ctl.cred0 = s_cred[0];
    ctl.cred1 = s_cred[1];
    ctl.cred2 = s_cred[2];
    ctl.cred3 = s_cred[3];
  end

  // ------------------------------------------------------------------ link_tx
  logic [NVC-1:0] m_credit;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [net_pkg::FLIT_W-1:0] phy_data;
  logic [15:0]                phy_frm;
  logic [31:0]                phy_crc, pkt_cnt, replay_cnt, nak_tx_cnt, nak_rx_cnt, flush_cnt;
  /* verilator lint_on UNUSEDSIGNAL */
  link_tx #(.LINK_CREDITS(L), .RPL_DEPTH(NVC * L)) dut (
    .clk, .rst(init),
    .s_valid(s_send), .s_data, .s_last, .s_vc(s_send_vc), .m_credit,
    .m_phy_data(phy_data), .m_phy_frm(phy_frm), .m_phy_crc(phy_crc),
    .s_up, .s_peer(s_lpeer), .s_rx_ack, .s_rx_ack_force, .s_rx_nak, .s_rx_cred,
    .s_ctl_valid(s_deliver), .s_ctl(ctl),
    .s_fresh(1'b0), .s_fack(1'b0), .s_reinit(1'b0),  // no partner reset: the proof covers a link's life between resets
    .m_pkt_cnt(pkt_cnt), .m_replay_cnt(replay_cnt), .m_nak_tx_cnt(nak_tx_cnt), .m_nak_rx_cnt(nak_rx_cnt),
    .m_flush_cnt(flush_cnt)
  );

  // probes: link_tx's credit state (connected to dut.cred_seen / dut.cred_pend by the script)
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [NVC-1:0][15:0] p_seen, p_pend;
  /* verilator lint_on UNDRIVEN */

  // ------------------------------------------------------------------ harness state
  logic [NVC-1:0] heal_q;  // last cycle: a word with the current count arrived, nothing freed
  always_ff @(posedge clk) begin
    for (int v = 0; v < NVC; v++) begin
      if (init) begin
        rc[v]  <= 8'(L);
        occ[v] <= '0;
        gr[v]  <= 16'(L);
      end else begin
        rc[v]  <= rc[v] + 8'(m_credit[v]) - 8'(snd[v]);
        occ[v] <= occ[v] + 8'(snd[v]) - 8'(fr[v]);
        gr[v]  <= gr[v] + 16'(fr[v]);
      end
      heal_q[v] <= !init && s_deliver && s_cred[v] == gr[v] && !fr[v];
    end
  end

  // the router sends only with credits; a word carries a count at most STALE behind
  always_comb begin
    if (!init) begin
      if (s_send) assume (rc[s_send_vc] != '0);
      for (int v = 0; v < NVC; v++) begin
        if (s_deliver) assume (16'(gr[v] - s_cred[v]) <= 16'(STALE));
      end
    end
  end

  // ------------------------------------------------------------------ properties
  logic [NVC-1:0] ok_occ, ok_rc, ok_cons, ok_heal, ok_pend, ok_seen, ok_hq;
  localparam int SW = 18;  // sums of the counters: no wrap
  always_comb begin
    for (int v = 0; v < NVC; v++) begin
      ok_occ[v]  = occ[v] <= 8'(L);
      ok_rc[v]   = rc[v] <= 8'(L);
      ok_cons[v] = SW'(rc[v]) + SW'(p_pend[v]) + SW'(occ[v]) + SW'(16'(gr[v] - p_seen[v])) == SW'(L);
      ok_heal[v] = !heal_q[v] || SW'(rc[v]) + SW'(p_pend[v]) + SW'(occ[v]) == SW'(L);
      ok_pend[v] = p_pend[v] <= 16'(L);
      ok_seen[v] = 16'(gr[v] - p_seen[v]) <= 16'(L);
      ok_hq[v]   = !heal_q[v] || p_seen[v] == gr[v];
    end
  end

  always_comb begin
    if (!init) begin
      c_occ: assert (&ok_occ);
      c_rc: assert (&ok_rc);
      c_cons: assert (&ok_cons);
      c_heal: assert (&ok_heal);
      c_pend: assert (&ok_pend);
      i_seen: assert (&ok_seen);
      i_heal: assert (&ok_hq);
    end
  end

endmodule

`default_nettype wire
