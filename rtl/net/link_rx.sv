// SPDX-License-Identifier: Apache-2.0
//
// link_rx: receiving half of a reliable link port and the link state machine
// (docs/network.md "Link layer").
//
// Checks every symbol from the far link_tx (data, framing word, CRC-32C over
// both; an idle symbol must be all zero with the constant idle CRC), so a bit
// error anywhere, in data, framing, VC, sequence number, control word or CRC,
// makes the symbol bad.
//
// Packets: only the next expected sequence number is accepted, flit by flit,
// straight (combinationally) into the router's store-and-forward input buffer,
// which releases a packet when its last flit is written. A bad symbol in the
// middle of a packet, or a framing/sequence violation (a flit of another VC
// or packet, or one out of place in its packet by net_lfrm_t.fidx: a symbol
// lost or repeated on the way), drops the partial packet (m_drop: the buffer
// rewinds its write pointer; no credits are returned because the far sender
// resends the packet into the same space) and asks
// link_tx for a NAK (at most one per NAK_HOLD cycles until the replay arrives). Packets
// with an older sequence number are duplicates of a replay: ignored, but
// ACKed again. The cumulative ACK (last packet accepted) and the cumulative
// credit counts per VC (buffer depth + flits the router freed) go to link_tx,
// which reports them in control words; good control words from the far side
// go to link_tx (ACK/NAK/credits).
//
// Malformed packets (a sender that breaks the packet format: more or fewer
// flits than the header's plen + 1, or an unknown packet type) are accepted
// by the link protocol (ACKed, so never replayed) but not delivered: their
// flits are discarded (a prefix already written is rewound with m_drop) and
// their credits are granted at once in the cumulative count, at most once per
// flit even across replays of the packet, so the buffer never fills with a
// packet that cannot be released and no credit leaks. Counted in
// m_malformed_cnt.
//
// Link state machine (net_lstate_e): TRAIN after reset, RETRAIN after being up,
// DOWN after DOWN_TIME cycles of training without success; in all three the
// local link_tx sends INIT words and no data. A partner's INIT makes m_peer
// high (sent back in INIT.peer); an INIT with peer set, or any ACK/NAK, brings
// the link UP. UP falls back to RETRAIN (counted in m_down_cnt) after
// ERR_RETRAIN consecutive bad symbols, after CTL_TIMEOUT cycles without a good
// control word (the partner sends one at least every KEEPALIVE cycles), or on
// a partner's INIT without peer (the partner retrains). Sequence numbers, the
// replay buffer and the credit counts survive retraining; the INIT words carry
// the absolute ACK and credit counts, so the far sender's credits are
// re-synchronised and it replays everything unacknowledged.
//
// A partner that was reset (its port restarts with sequence number 0, an
// empty replay buffer and its initial credit counts) announces itself: a port
// that has not been up since its reset is *fresh* and says so in every control
// word (net_lctl_t.fresh). A port that has been up and sees a fresh word
// re-initialises (m_reinit: link_tx drops and counts the packets the old
// incarnation never ACKed, restarts its sequence numbers and returns the
// credits spent towards it to the router; here the expected sequence number
// restarts at 0 and a partial packet is dropped) and retrains. Once its own
// buffer behind the link is empty (nothing of the old incarnation left in it),
// it restarts its credit counts at CREDITS and sets fack in its words: "my
// state towards you is initial". A fresh port ignores the control words of a
// partner without fack (they carry the old incarnation's ACK and credits) and
// goes UP only on a word with fack; the re-initialised port goes UP only on a
// word of the partner that is no longer fresh (so no stale fresh word can
// trigger a second re-initialisation after data flowed). fack ends when the
// partner's words are no longer fresh. Both fields are covered by the symbol
// CRC, so a bit error cannot fake them. Two ports reset together are both
// fresh: each acknowledges the other, nothing to re-initialise.
//
// m_dead tells the router to drop what it routes into this link: once DOWN
// when the link was never up (no cable, no partner), and after DEAD_TIME
// cycles out of UP when it was (the partner died or was cut off: packets
// waiting for it must not hold the router's buffers for good). It clears when
// the link is UP again.

`default_nettype none

module link_rx #(
  parameter int CREDITS     = 64,    // flits per VC of the router's input buffer behind this port
  parameter int ERR_RETRAIN = 8,     // consecutive bad symbols that make an up link retrain
  parameter int CTL_TIMEOUT = 1024,  // cycles without a good control word that make an up link retrain
  parameter int DOWN_TIME   = 2048,  // cycles of training after which the link is reported DOWN
  parameter int DEAD_TIME   = 8192,  // cycles out of UP after which a link that was up is dead (>= DOWN_TIME)
  parameter int NAK_HOLD    = 128,   // cycles before another NAK unless the expected packet arrived
  localparam int NVC        = net_pkg::NVC,
  localparam int VW         = net_pkg::VC_W,
  localparam int FW         = net_pkg::FLIT_W
) (
  // ---- clock and reset (synchronous, active high)
  input  wire logic                 clk,
  input  wire logic                 rst,
  // ---- link (from the far link_tx)
  input  wire logic [FW-1:0]        s_phy_data,
  input  wire logic [15:0]          s_phy_frm,    // net_lfrm_t
  input  wire logic [31:0]          s_phy_crc,
  // ---- to the router input port
  output logic                      m_valid,
  output logic [FW-1:0]             m_data,
  output logic                      m_last,
  output logic [VW-1:0]             m_vc,         // {class, dateline VC}
  output logic                      m_drop,       // without m_valid: discard the partial packet of VC m_vc
  input  wire logic [NVC-1:0]       s_credit,     // from the router's m_in_credit
  // ---- to the local link_tx
  output logic                      m_up,         // link state UP
  output logic                      m_peer,       // partner's INIT seen (this training)
  output logic [7:0]                m_ack,        // sequence number of the last packet accepted
  output logic                      m_ack_force,  // a duplicate arrived: ACK again
  output logic                      m_nak,        // send a NAK
  output logic [NVC-1:0][15:0]      m_cred,       // cumulative credits granted
  output logic                      m_ctl_valid,  // a good control word from the far side
  output logic [FW-1:0]             m_ctl,        // net_lctl_t
  output logic                      m_fresh,      // not up since reset (net_lctl_t.fresh)
  output logic                      m_fack,       // partner's fresh words seen, state initial (net_lctl_t.fack)
  output logic                      m_reinit,     // the partner was reset: re-initialise link_tx
  // ---- status
  output logic [1:0]                m_state,      // net_lstate_e
  output logic [31:0]               m_pkt_cnt,    // packets accepted
  output logic [31:0]               m_crc_err_cnt,// bad symbols while up
  output logic [31:0]               m_down_cnt,   // UP -> RETRAIN transitions
  output logic [31:0]               m_malformed_cnt, // malformed packets discarded
  output logic                      m_dead        // DOWN, and never up since reset or out of UP for DEAD_TIME
);
  localparam int TW = $clog2(CTL_TIMEOUT + DEAD_TIME + 1);
  localparam int EW = $clog2(ERR_RETRAIN + 1);
  localparam int HW = $clog2(NAK_HOLD + 1);

  /* verilator lint_off UNUSEDSIGNAL */  // reserved framing bits; the control word goes to link_tx
  net_pkg::net_lfrm_t frm;
  net_pkg::net_lctl_t ctl;
  /* verilator lint_on UNUSEDSIGNAL */
  logic               good, is_data, is_ctl;
  assign frm = net_pkg::net_lfrm_t'(s_phy_frm);
  assign ctl = net_pkg::net_lctl_t'(s_phy_data);

  // Symbol check. The CRC is folded only for non-idle symbols (an idle link
  // costs no CRC work in a Verilated model).
  always_comb begin
    if (frm.kind == net_pkg::NET_LKIND_IDLE)
      good = s_phy_frm == '0 && s_phy_data == '0 && s_phy_crc == net_pkg::LINK_IDLE_CRC;
    else
      good = frm.kind != 2'd3 && s_phy_crc == ~net_pkg::crc32c_sym(net_pkg::CRC32C_INIT, {16'd0, s_phy_frm, s_phy_data});
  end
  assign is_data = good && frm.kind == net_pkg::NET_LKIND_DATA;
  assign is_ctl  = good && frm.kind == net_pkg::NET_LKIND_CTL;

  // ------------------------------------------------------------------ packets
  logic [1:0]  state;
  logic        up;
  logic [7:0]  exp_seq;     // next expected sequence number
  logic [7:0]  seq_back;    // how far the symbol's sequence number lies behind exp_seq
  logic        in_pkt;      // accepting a packet (first flit written)
  logic [VW-1:0] cur_vc;
  logic        acc, drop, err, dup, commit;
  logic [HW-1:0] nak_tmr;   // 0: a NAK may be sent
  // malformed packets
  /* verilator lint_off UNUSEDSIGNAL */  // only ptype and plen of a header matter here
  net_pkg::net_hdr_t hdr;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [4:0]  plen;        // plen of the packet this flit belongs to
  logic [15:0] nflit;       // index of the next flit of the open packet (saturating)
  logic [1:0]  nfidx;       // the same mod 4: the framing word's fidx expected next
  logic [4:0]  cur_plen;    // plen of the open packet
  logic        bad_seq;     // the packet exp_seq is malformed: discard all of its flits
  logic [15:0] cred_done;   // flits of packet exp_seq already granted as credits
  logic [15:0] fidx;        // index of this flit in its packet
  logic        bad_now, disc, rewind;
  logic [15:0] add_cred;    // credits granted for discarded flits this cycle
  logic        add_ge;      // fidx >= cred_done: this flit not granted yet (if discarded)
  logic [15:0] add_n;       // the flits up to this one not granted yet
  logic        ever_up;
  // partner reset
  logic        fresh;       // not up since reset
  logic        reinit;      // a fresh word from the partner while this port has state towards it
  logic        kpend;       // re-initialised (or fresh): fack once the buffer behind the link is empty
  logic        occ_zero;    // no committed flit of the partner waiting in the buffer behind the link
  logic        stale;       // fresh, and the partner's word carries its old state (no fack)
  logic        ctl_ok;      // a good control word that counts
  logic [NVC-1:0][15:0] cmt; // CREDITS + flits committed (or discarded) into the buffer, mod 2^16
  logic [15:0] cmt_add;     // flits counted into cmt this cycle (committed or discarded)
  logic [15:0] cmt_q, cred_q; // the same and add_cred, registered: added to cmt, m_cred a cycle later
  logic [VW-1:0] add_vc;    // their VC
  logic        go_up, go_retrain;

  assign up       = state == net_pkg::NET_LSTATE_UP;
  assign seq_back = exp_seq - frm.seq;
  assign fresh    = !ever_up && !up;
  assign reinit   = is_ctl && ctl.fresh && !fresh && !m_fack && !kpend;
  assign stale    = fresh && !ctl.fack;
  assign ctl_ok   = is_ctl && !stale && !reinit;
  // (a count still in cmt_q is a committed flit in the buffer)
  always_comb begin
    occ_zero = cmt_q == '0;
    for (int v = 0; v < NVC; v++) if (cmt[v] != m_cred[v]) occ_zero = 1'b0;
  end

  always_comb begin
    acc  = 1'b0;   // write the flit
    drop = 1'b0;   // discard the partial packet
    err  = 1'b0;   // ask for a NAK
    dup  = 1'b0;   // ACK again
    if (!up) begin
      drop = in_pkt;
    end else if (!good) begin
      drop = in_pkt;
      err  = 1'b1;
    end else if (is_data) begin
      if (frm.first) begin
        if (in_pkt) begin                    // the last flit went missing
          drop = 1'b1;
          err  = 1'b1;
        end else if (frm.seq == exp_seq) begin
          acc = 1'b1;
        end else if (seq_back != 8'd0 && seq_back <= 8'd128) begin
          dup = 1'b1;                        // a replayed packet we already have
        end else begin
          err = 1'b1;                        // sequence gap: a packet went missing
        end
      end else if (in_pkt) begin
        // a flit of another VC or packet, or one out of place in this
        // packet (fidx: a symbol was lost or repeated on the way)
        if (frm.vc == cur_vc && frm.seq == exp_seq && frm.fidx == nfidx) begin
          acc = 1'b1;
        end else begin
          drop = 1'b1;
          err  = 1'b1;
        end
      end
      // else: the rest of a packet that is not being accepted
    end
    if (reinit) drop = in_pkt;               // the old incarnation's partial packet
  end
  assign commit = acc && frm.last;

  // An accepted flit is discarded when its packet is known to be malformed:
  // unknown type (at the header), flit plen without the last mark (known
  // within the packet's plen + 1 credits, so even a 32-flit buffer never holds
  // a prefix it cannot release), or the last flit too early. Discarded flits up
  // to this one are granted as credits once.
  assign hdr = net_pkg::net_hdr_t'(s_phy_data);
  always_comb begin
    fidx     = frm.first ? 16'd0 : nflit;
    plen     = frm.first ? hdr.plen : cur_plen;
    // unknown type, or a packet on a VC of the wrong message class
    bad_now  = (frm.first && (hdr.ptype == net_pkg::NET_TYPE_NONE || hdr.ptype > net_pkg::NET_TYPE_INTR
                              || frm.vc[VW-1] != net_pkg::net_class(s_phy_data)))
               || (frm.last ? fidx != 16'(plen) : fidx >= 16'(plen));
    disc     = acc && (bad_seq || bad_now);
    rewind   = disc && !bad_seq && !frm.first;  // a prefix was written: discard it
    add_ge   = fidx >= cred_done;
    add_n    = fidx + 16'd1 - cred_done;
    add_cred = (disc && add_ge) ? add_n : 16'd0;
    cmt_add  = (commit && !disc) ? fidx + 16'd1 : add_cred;
  end

  assign m_valid = acc && !disc;
  assign m_data  = s_phy_data;
  assign m_last  = frm.last;
  assign m_vc    = drop ? cur_vc : frm.vc;
  assign m_drop  = drop || rewind;

  assign m_ack       = exp_seq - 8'd1;
  assign m_ack_force = dup || (fresh && go_up);  // a fresh port just up: tell the partner at once
  assign m_nak       = err && nak_tmr == '0;
  assign m_ctl_valid = ctl_ok;
  assign m_ctl       = s_phy_data;
  assign m_up        = up;
  assign m_fresh     = fresh;
  assign m_reinit    = reinit;
  assign m_state     = state;

  // ------------------------------------------------------------------ state machine
  logic [TW-1:0] tmr;      // UP: cycles since a good control word; training: cycles training
  logic [EW-1:0] err_run;  // consecutive bad symbols

  // Dead (the router drops what is routed here): a link that never came up
  // once it is DOWN; a link that was up after DEAD_TIME cycles out of UP (the
  // partner died: what waits for it must not wedge the router for good).
  assign m_dead  = state == net_pkg::NET_LSTATE_DOWN && (!ever_up || tmr == TW'(DEAD_TIME));

  always_comb begin
    // after a re-initialisation: UP only once the partner is no longer fresh
    go_up      = ctl_ok && !(!fresh && (m_fack || kpend) && ctl.fresh) &&
                 ((ctl.ctype == net_pkg::NET_LCTL_INIT && ctl.peer) ||
                  ctl.ctype == net_pkg::NET_LCTL_ACK || ctl.ctype == net_pkg::NET_LCTL_NAK);
    go_retrain = (!good && err_run == EW'(ERR_RETRAIN - 1)) || tmr == TW'(CTL_TIMEOUT) || reinit ||
                 (ctl_ok && ctl.ctype == net_pkg::NET_LCTL_INIT && !ctl.peer);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state         <= net_pkg::NET_LSTATE_TRAIN;
      m_peer        <= 1'b0;
      tmr           <= '0;
      err_run       <= '0;
      exp_seq       <= '0;
      in_pkt        <= 1'b0;
      cur_vc        <= '0;
      nak_tmr       <= '0;
      for (int v = 0; v < NVC; v++) m_cred[v] <= 16'(CREDITS);
      m_pkt_cnt     <= '0;
      m_crc_err_cnt <= '0;
      m_down_cnt    <= '0;
      m_malformed_cnt <= '0;
      nflit         <= '0;
      nfidx         <= '0;
      cur_plen      <= '0;
      bad_seq       <= 1'b0;
      cred_done     <= '0;
      ever_up       <= 1'b0;
      kpend         <= 1'b0;
      m_fack        <= 1'b0;
      for (int v = 0; v < NVC; v++) cmt[v] <= 16'(CREDITS);
      cmt_q         <= '0;
      cred_q        <= '0;
      add_vc        <= '0;
    end else begin
      // the counts of this cycle's flit are added in the next (timing: the
      // sequence and framing checks, then the count, then the sum)
      cmt_q  <= cmt_add;
      cred_q <= add_cred;
      add_vc <= frm.vc;
      for (int v = 0; v < NVC; v++) begin
        m_cred[v] <= m_cred[v] + 16'(s_credit[v]) + (int'(add_vc) == v ? cred_q : 16'd0);
        cmt[v]    <= cmt[v] + (int'(add_vc) == v ? cmt_q : 16'd0);
      end
      // packets
      if (drop) in_pkt <= 1'b0;
      if (acc) begin
        in_pkt <= !frm.last;
        cur_vc <= frm.vc;
        if (frm.first) cur_plen <= hdr.plen;
        if (fidx != 16'hFFFF) nflit <= fidx + 16'd1;
        nfidx <= (frm.first ? 2'd0 : nfidx) + 2'd1;
      end
      if (disc) begin
        bad_seq <= 1'b1;
        // add_cred != 0 (fidx >= cred_done: fidx + 1 - cred_done is 0 only
        // when it wraps, fidx saturated at 16'hFFFF and cred_done 0)
        if (add_ge && !(fidx == 16'hFFFF && cred_done == '0)) cred_done <= fidx + 16'd1;
      end
      if (commit) begin
        exp_seq   <= exp_seq + 1'b1;
        m_pkt_cnt <= m_pkt_cnt + 1'b1;
        bad_seq   <= 1'b0;
        cred_done <= '0;
        if (disc) m_malformed_cnt <= m_malformed_cnt + 1'b1;
      end
      if (up) ever_up <= 1'b1;
      // partner reset: re-initialise; fack once nothing of the old incarnation
      // is left behind the link (then the counts restart at CREDITS); fack
      // ends with the partner's first word that is not fresh
      if (is_ctl && ctl.fresh && !m_fack) kpend <= 1'b1;
      if (is_ctl && !ctl.fresh) m_fack <= 1'b0;
      if (reinit) begin
        exp_seq   <= '0;
        bad_seq   <= 1'b0;
        cred_done <= '0;
      end else if (kpend && occ_zero) begin
        kpend  <= 1'b0;
        m_fack <= 1'b1;
        for (int v = 0; v < NVC; v++) begin
          m_cred[v] <= 16'(CREDITS);
          cmt[v]    <= 16'(CREDITS);
        end
      end
      // a new NAK is allowed as soon as the replay the last one asked for
      // arrives (the expected packet starts, or a duplicate shows a replay)
      if (commit || (acc && frm.first) || dup) nak_tmr <= '0;
      else if (m_nak) nak_tmr <= HW'(NAK_HOLD);
      else if (nak_tmr != '0) nak_tmr <= nak_tmr - 1'b1;
      // link state
      if (up) begin
        if (!good) m_crc_err_cnt <= m_crc_err_cnt + 1'b1;
        err_run <= good ? '0 : err_run + 1'b1;
        tmr     <= is_ctl ? '0 : tmr + 1'b1;
        if (go_retrain) begin
          state      <= net_pkg::NET_LSTATE_RETRAIN;
          m_peer     <= 1'b0;
          tmr        <= '0;
          err_run    <= '0;
          m_down_cnt <= m_down_cnt + 1'b1;
        end
      end else begin
        if (ctl_ok && ctl.ctype == net_pkg::NET_LCTL_INIT) m_peer <= 1'b1;
        if (tmr != TW'(DEAD_TIME)) tmr <= tmr + 1'b1;
        if (tmr >= TW'(DOWN_TIME)) state <= net_pkg::NET_LSTATE_DOWN;
        if (go_up) begin
          state   <= net_pkg::NET_LSTATE_UP;
          tmr     <= '0;
          err_run <= '0;
        end
      end
    end
  end

endmodule

`default_nettype wire
