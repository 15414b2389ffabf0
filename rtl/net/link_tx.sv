// SPDX-License-Identifier: Apache-2.0
//
// link_tx: sending half of a reliable link port (docs/network.md "Link layer").
//
// Every cycle the link carries one symbol: 128 data bits, a 16-bit framing
// word (net_lfrm_t: kind IDLE/DATA/CTL, first, last, vc, packet sequence
// number) and a CRC-32C over both (net_pkg::crc32c_sym). Nothing travels
// outside the CRC: framing, VC, sequence numbers, ACK/NAK and credits are all
// protected.
//
// Packets from the router output are numbered (8-bit link sequence number)
// and written into the replay buffer, from which they are sent; a packet
// leaves the buffer only when the far link_rx acknowledged it (cumulative ACK
// in a control word of the reverse stream, handed over by the local link_rx on
// s_ctl_*). A NAK (the far receiver saw a bad symbol or a sequence gap), an ACK
// timeout, or the link coming (back) up after training resend every
// unacknowledged packet, in order, from the oldest; the receiver drops
// duplicates. A replay starts only at a packet boundary.
//
// Replay buffer sizing: a far receiver returns a credit only for a flit whose
// packet it has accepted, and the control word that carries the credit also
// carries the cumulative ACK covering that packet. So unacknowledged flits
// never exceed the credits the router can spend: NVC * LINK_CREDITS flits
// (LINK_CREDITS is itself sized for the credit round trip of the link). The
// buffer can therefore not overflow and needs no back-pressure.
//
// Sequence window: the 8-bit sequence numbers on the link tell a duplicate
// from a new packet only while at most SEQ_WIN = 128 sent packets are
// unacknowledged. A replay buffer of more than 128 flits (256 at 4 VCs x 64
// credits) may hold more packets than that (short ones), so a packet is sent
// only while fewer than SEQ_WIN packets are unacknowledged (it waits in the
// buffer, which still needs no back-pressure: its size is the credits). The
// numbers counted here (written, sent, acknowledged) are one bit wider than
// the link's, so up to 256 packets (RPL_DEPTH <= 256) can wait unacknowledged.
//
// Control words (net_lctl_t) carry this port's receiver state: the cumulative
// ACK and, per VC, the cumulative credits granted (buffer depth + flits freed,
// mod 2^16), so a lost control word heals with the next one. They are sent
// when a NAK is pending (at once), when the ACK or credits changed (at once on
// an idle link, otherwise at most every CTL_GAP cycles), as a keep-alive every
// KEEPALIVE cycles (4 x KEEPALIVE while data waits: 0.4% of a busy link; the
// far side's CTL_TIMEOUT must exceed that), and as INIT words while the link
// trains (s_up low).
// Credits from the far side are turned into credit pulses (one per VC per
// cycle) for the router output, which owns the credit counters.
//
// Partner reset (s_reinit from link_rx, docs/network.md "Link layer"): the
// complete packets in the replay buffer were meant for the old incarnation,
// which may or may not have received them and has lost its state: they are
// dropped and counted (m_flush_cnt), never resent (no duplicates); a packet
// the router is still writing is kept and becomes the first packet (sequence
// number 0) for the new incarnation. The credits spent towards the partner
// and not returned come back to the router as pulses (its buffers are empty
// after the reset), and the count of the far receiver restarts at
// LINK_CREDITS.
//
// Zero-load latency: a flit from the router goes out (m_phy_*) two cycles
// after the router's: a bypass around the replay buffer, then the symbol's
// two cycles (below).
//
// Timing (docs/network.md "Timing (link_tx)"): the replay buffer (block RAM)
// is read synchronously. Its address is the entry after the send pointer if
// the flit at the send pointer is at hand, else the send pointer: it does not
// depend on the send decision. The flit at the send pointer comes from the
// router (bypass), from a copy of the flit written last (wl_q), from the RAM,
// or from the flit at hand in the last cycle (hd_q); which one follows from
// registers (no pointer compare for the RAM and the copy). A stream sent from
// the buffer runs at one flit per cycle; after a jump of the send pointer (a
// replay's start, an ACK skip, a partner reset) the first flit comes a cycle
// later than with an asynchronous read. An ACK beyond the send pointer is
// acted on two cycles after it arrived (from the registers, registered once
// more). A symbol takes two cycles: the send decision, the flit and the
// control word end in registers; in the next cycle the symbol is selected
// from them, its CRC folded, and it goes out.
//
// Rate matching (IDLE_GAP > 0): after IDLE_GAP - 1 non-IDLE symbols in a row
// the port sends one IDLE (the data or control word waits a cycle), so the
// non-IDLE symbols never come faster than (1 - 1/IDLE_GAP) of the core clock:
// a link whose PHY side and far core run on other clocks (link_phy_cdc) can
// then delete and insert IDLEs only, however long the stream.

`default_nettype none

module link_tx #(
  parameter int LINK_CREDITS = 64,   // credits per VC the router output starts with (= far buffer depth)
  parameter int RPL_DEPTH    = 256,  // replay buffer, flits: NVC * LINK_CREDITS (power of 2, <= 256)
  parameter int SEQ_WIN      = 128,  // at most this many sent packets unacknowledged (<= 128: the
                                     // 8-bit link sequence numbers' duplicate window)
  parameter int ACK_TIMEOUT  = 1024, // cycles without ACK progress while packets are unacknowledged: replay
  parameter int CTL_GAP      = 16,   // at most every CTL_GAP cycles an ACK/credit update while data waits
  parameter int KEEPALIVE    = 64,   // a control word at least every KEEPALIVE cycles (4x while data waits)
  parameter int INIT_GAP     = 8,    // cycles between INIT words while training
  parameter int IDLE_GAP     = 0,    // at least one IDLE symbol in any IDLE_GAP consecutive cycles
                                     // (rate matching of a link clocked apart: link_phy_cdc); 0: off
  localparam int NVC         = net_pkg::NVC,
  localparam int VW          = net_pkg::VC_W,
  localparam int FW          = net_pkg::FLIT_W
) (
  // ---- clock and reset (synchronous, active high)
  input  wire logic                  clk,
  input  wire logic                  rst,
  // ---- from the router output port
  input  wire logic                  s_valid,
  input  wire logic [FW-1:0]         s_data,
  input  wire logic                  s_last,
  input  wire logic [VW-1:0]         s_vc,          // {class, dateline VC}
  output logic [NVC-1:0]             m_credit,      // to the router's s_out_credit
  // ---- link (towards the far link_rx)
  output logic [FW-1:0]              m_phy_data,
  output logic [15:0]                m_phy_frm,     // net_lfrm_t
  output logic [31:0]                m_phy_crc,     // ~crc32c_sym over data and framing
  // ---- from the local link_rx: link state and what to report to the far side
  input  wire logic                  s_up,          // link trained: send data and ACK words
  input  wire logic                  s_peer,        // an INIT of the partner was received (INIT.peer)
  input  wire logic [7:0]            s_rx_ack,      // sequence number of the last packet received in order
  input  wire logic                  s_rx_ack_force,// send an ACK even if unchanged (duplicate received)
  input  wire logic                  s_rx_nak,      // send a NAK (bad symbol or sequence gap)
  input  wire logic [NVC-1:0][15:0]  s_rx_cred,     // cumulative credits granted by the local receiver
  // ---- from the local link_rx: control words received from the far side
  input  wire logic                  s_ctl_valid,   // a good control word arrived
  input  wire logic [FW-1:0]         s_ctl,         // net_lctl_t
  // ---- from the local link_rx: partner reset handshake
  input  wire logic                  s_fresh,       // this port not up since reset (net_lctl_t.fresh)
  input  wire logic                  s_fack,        // state towards the reset partner initial (net_lctl_t.fack)
  input  wire logic                  s_reinit,      // the partner was reset: drop the replay buffer, restart
  // ---- status
  output logic [31:0]                m_pkt_cnt,     // packets sent (first transmission)
  output logic [31:0]                m_replay_cnt,  // replays started (NAK, ACK timeout or retrain)
  output logic [31:0]                m_nak_tx_cnt,  // NAK words sent
  output logic [31:0]                m_nak_rx_cnt,  // NAK words received
  output logic [31:0]                m_flush_cnt    // packets dropped at a partner reset (never ACKed)
);
  localparam int AW  = $clog2(RPL_DEPTH);
  localparam int TW  = $clog2(ACK_TIMEOUT + 1);
  localparam int KA_BUSY = 4 * KEEPALIVE;  // keep-alive interval while data waits
  localparam int GW  = $clog2(KA_BUSY + 1);
  localparam int QW  = 9;  // packet counts: the link's 8-bit sequence number and one bit more
  localparam int RW  = $clog2(IDLE_GAP > 2 ? IDLE_GAP : 2);  // run of non-IDLE symbols (IDLE_GAP)

  // ------------------------------------------------------------------ replay buffer
  // {vc, last, data} per flit; end_tbl[seq] = write pointer after the packet's last flit.
  (* no_rw_check *)  // a read of the entry being written is never used (wl_q below)
  logic [FW+VW:0] mem [RPL_DEPTH];
  logic [AW:0]   end_tbl [RPL_DEPTH];
  logic [AW:0]   wr_ptr, snd_ptr, ack_ptr;
  logic [QW-1:0] wr_seq;   // sequence number of the packet being written (complete ones: below)
  logic [QW-1:0] snd_seq;  // sequence number of the packet being sent (on the link: bits 7:0)
  logic [QW-1:0] una;      // oldest unacknowledged packet
  logic          win_ok;   // the packet at snd_seq is inside the sequence window
  logic          snd_mid;  // between the first and the last flit of a packet being sent
  logic [1:0]    snd_fidx; // index of the next flit sent in its packet, mod 4 (net_lfrm_t.fidx)
  logic          rpl_req;  // replay wanted (done at the next packet boundary)
  logic          wr_mid;   // between the first and the last flit of a packet being written
  logic [AW:0]   wr_start; // write pointer at the first flit of that packet
  logic [VW-1:0] wr_vc;    // its VC
  logic [AW-1:0] wr_idx;   // end_tbl entry of the packet being written (sequence number 0 at a partner reset)
  assign wr_idx = s_reinit ? '0 : wr_seq[AW-1:0];

  // Synchronous read (block RAM): rd_q is the flit at rd_a, the address read
  // in the previous cycle. The address is the entry after the send pointer
  // when the flit at the send pointer is at hand (q_ok), else the send
  // pointer: it does not wait for the send decision. In a stream the next
  // flit is there when it is needed; a flit not sent in its cycle stays at
  // hand in a copy (hd_q: the flit at the send pointer of the last cycle);
  // after a jump of the send pointer (replay, ACK skip, partner reset) the
  // flit comes a cycle later. A read of the entry written in the same cycle is
  // undefined in the RAM (no_rw_check; the simulation returns the old entry)
  // and never used: the flit written last (wl_q) stands in for it.
  logic [FW+VW:0] rd_q, wl_q, hd_q;
  logic [AW-1:0]  rd_a;
  logic [AW:0]    wl_ptr, snd_ptr1;
  logic           wl_v, hd_v;
  logic           mv_q, st_q;  // the send pointer moved on by one / stayed in the last cycle
  always_ff @(posedge clk) begin
    if (s_valid) begin
      mem[wr_ptr[AW-1:0]] <= {s_vc, s_last, s_data};
      if (s_last) end_tbl[wr_idx] <= wr_ptr + 1'b1;
    end
    rd_q <= mem[rd_a];
  end
  always_ff @(posedge clk) begin
    wl_q   <= {s_vc, s_last, s_data};
    wl_ptr <= wr_ptr;
    wl_v   <= s_valid && !rst;
    hd_q   <= q_flit;
    hd_v   <= q_ok && !rst;
  end

  // ------------------------------------------------------------------ received control words
  /* verilator lint_off UNUSEDSIGNAL */  // ctype INIT/ACK and peer matter to link_rx only
  net_pkg::net_lctl_t ctl;
  /* verilator lint_on UNUSEDSIGNAL */
  logic              ctl_ack_ok;
  logic [7:0]        ack_d;
  logic [AW:0]       ack_ptr_n;
  logic [QW-1:0]     una_n;
  logic              is_nak;
  assign ctl        = net_pkg::net_lctl_t'(s_ctl);
  assign is_nak     = s_ctl_valid && ctl.ctype == net_pkg::NET_LCTL_NAK;
  // ACK a covers packets una .. a when 1 <= a + 1 - una <= complete packets
  // outstanding (at most SEQ_WIN of them were sent: no ACK goes further)
  assign ack_d      = ctl.ack + 8'd1 - una[7:0];
  assign ctl_ack_ok = s_ctl_valid && ack_d != 8'd0 && QW'(ack_d) <= wr_seq - una && 32'(ack_d) <= SEQ_WIN;
  always_comb begin
    ack_ptr_n = ack_ptr;
    una_n     = una;
    if (ctl_ack_ok) begin
      ack_ptr_n = end_tbl[ctl.ack[AW-1:0]];
      una_n     = una + QW'(ack_d);
    end
  end

  // credits: cumulative counts from the far receiver -> pulses for the router
  logic [NVC-1:0][15:0] cred_seen, cred_pend;
  logic [NVC-1:0][15:0] cred_used;  // LINK_CREDITS + flits taken from the router, mod 2^16
  logic [NVC-1:0][15:0] cred_in;
  assign cred_in[0] = ctl.cred0;
  assign cred_in[1] = ctl.cred1;
  assign cred_in[2] = ctl.cred2;
  assign cred_in[3] = ctl.cred3;
  logic [NVC-1:0][15:0] cred_d;  // new credits in this control word
  always_comb begin
    for (int v = 0; v < NVC; v++) begin
      m_credit[v] = cred_pend[v] != '0;
      cred_d[v]   = s_ctl_valid ? cred_in[v] - cred_seen[v] : 16'd0;
      if (cred_d[v][15]) cred_d[v] = '0;  // older than what we have: stale, ignore
    end
  end

  // ------------------------------------------------------------------ what to send
  logic          have_data, bypass, wl_hit, rd_hit, hd_hit, q_ok;
  logic [FW+VW:0] q_flit, q_alt;
  logic          rd_sel;
  logic          snd_data, snd_ctl;
  logic [3:0]    ctl_type;
  logic [7:0]    ack_sent;
  logic [NVC-1:0][15:0] cred_sent;
  logic          dirty, force_q, nak_q;
  logic [GW-1:0] since_ctl;
  logic [TW-1:0] ack_tmr;
  logic [RW-1:0] run;      // non-IDLE symbols sent in a row (IDLE_GAP)
  logic          hold;     // a forced IDLE this cycle

  assign hold      = IDLE_GAP > 0 && run == RW'(IDLE_GAP - 1);
  assign bypass    = snd_ptr == wr_ptr;
  assign win_ok    = 32'(QW'(snd_seq - una)) < SEQ_WIN;
  assign have_data = !bypass || s_valid;
  // the flit at snd_ptr: the router's (bypass), the one written last cycle,
  // the replay buffer's read of last cycle if it was of snd_ptr, or the flit
  // at hand last cycle if snd_ptr stayed. The read was of the entry after the
  // send pointer if a flit was at hand (hd_v), else of the send pointer
  // itself; whether it is snd_ptr now follows from how snd_ptr changed (mv_q,
  // st_q: registered, no pointer compare; after a jump neither hits, even a
  // jump to the same entry: the flit comes a cycle later).
  assign wl_hit    = wl_v && wl_ptr == snd_ptr;
  assign rd_hit    = mv_q ? hd_v : st_q && !hd_v;
  assign hd_hit    = st_q && hd_v;
  assign q_ok      = bypass ? s_valid : wl_hit || rd_hit || hd_hit;
  // the block RAM's output (late: clock-to-output) through one multiplexer
  assign rd_sel    = !bypass && !wl_hit && rd_hit;
  assign q_alt     = bypass ? {s_vc, s_last, s_data} : wl_hit ? wl_q : hd_q;
  assign q_flit    = rd_sel ? rd_q : q_alt;
  assign snd_ptr1  = snd_ptr + 1'b1;
  assign rd_a      = q_ok ? snd_ptr1[AW-1:0] : snd_ptr[AW-1:0];
  assign dirty     = force_q || ack_sent != s_rx_ack || cred_sent != s_rx_cred;

  always_comb begin
    snd_ctl  = 1'b0;
    ctl_type = net_pkg::NET_LCTL_ACK;
    if (!s_up) begin
      snd_ctl  = since_ctl >= GW'(INIT_GAP);
      ctl_type = net_pkg::NET_LCTL_INIT;
    end else if (nak_q) begin
      snd_ctl  = 1'b1;
      ctl_type = net_pkg::NET_LCTL_NAK;
    end else if (dirty && (!have_data || since_ctl >= GW'(CTL_GAP))) begin
      snd_ctl  = 1'b1;
    end else if (since_ctl >= (have_data ? GW'(KA_BUSY) : GW'(KEEPALIVE))) begin
      snd_ctl  = 1'b1;
    end
    if (hold) snd_ctl = 1'b0;
    // data: link up, no control word this cycle, no forced IDLE, no replay
    // waiting at a boundary, a new packet only inside the sequence window
    snd_data = !hold && s_up && !snd_ctl && q_ok && !acked_q && !(rpl_req && !snd_mid) && (snd_mid || win_ok);
  end

  // The symbol, in two cycles. In the first, the send decision is registered
  // apart from the fields (k_ctl, k_data: which symbol), next to the control
  // word (c_q), the data symbol's framing word (frm_dq) and the flit at hand
  // (hd_q, below: registered every cycle, whatever is sent); in the second,
  // the symbol is selected from those registers and its CRC folded, and it
  // goes out (m_phy_*). The replay buffer's read (block RAM
  // clock-to-output), the flit selection and the send decision end in
  // registers, and the CRC fold starts from registers (docs/network.md
  // "Timing (link_tx)").
  net_pkg::net_lfrm_t frm, frm_c, frm_d, frm_dq;
  net_pkg::net_lctl_t c, c_q;
  logic               k_ctl, k_data;
  logic [FW-1:0]      sym_data;
  logic [31:0]        sym_crc;
  always_comb begin
    c        = '0;
    c.ctype  = net_pkg::net_lctl_e'(ctl_type);
    c.peer   = s_peer;
    c.fresh  = s_fresh;
    c.fack   = s_fack;
    c.ack    = s_rx_ack;
    c.cred0  = s_rx_cred[0];
    c.cred1  = s_rx_cred[1];
    c.cred2  = s_rx_cred[2];
    c.cred3  = s_rx_cred[3];
    frm_d       = '0;  // last and vc: from the flit (hd_q) in the next cycle
    frm_d.kind  = net_pkg::NET_LKIND_DATA;
    frm_d.first = !snd_mid;
    frm_d.fidx  = snd_fidx;
    frm_d.seq   = snd_seq[7:0];
  end

  always_ff @(posedge clk) begin
    k_ctl  <= snd_ctl;
    k_data <= snd_data;
    c_q    <= c;
    frm_dq <= frm_d;
  end

  // The CRC is folded only for non-idle symbols (an idle link costs no CRC
  // work in a Verilated model); an idle symbol's CRC is a constant.
  always_comb begin
    frm_c      = '0;
    frm_c.kind = net_pkg::NET_LKIND_CTL;
    frm      = '0;
    sym_data = '0;
    sym_crc  = net_pkg::LINK_IDLE_CRC;
    if (k_ctl) begin
      frm      = frm_c;
      sym_data = c_q;
    end else if (k_data) begin
      frm      = frm_dq;
      frm.last = hd_q[FW];
      frm.vc   = hd_q[FW+VW:FW+1];
      sym_data = hd_q[FW-1:0];
    end
    if (k_ctl || k_data)
      sym_crc = ~net_pkg::crc32c_sym(net_pkg::CRC32C_INIT, {16'd0, frm, sym_data});
  end

  always_ff @(posedge clk) begin
    m_phy_data <= sym_data;
    m_phy_frm  <= frm;
    m_phy_crc  <= sym_crc;
  end

  // ------------------------------------------------------------------ state
  logic rpl_go, acked_snd, acked_q;
  logic [AW:0]          rst_keep;  // partner reset: the buffer restarts here (a packet being written)
  logic [NVC-1:0][15:0] rst_kept;  // flits of that packet already written, per VC
  logic [AW:0]          rst_n;     // its length so far
  logic [QW-1:0]        rst_drop;  // complete packets never ACKed: dropped
  assign rst_keep = wr_mid ? wr_start : wr_ptr;
  assign rst_n    = wr_ptr - wr_start;
  assign rst_drop = wr_seq - una;
  always_comb
    for (int v = 0; v < NVC; v++) rst_kept[v] = (wr_mid && int'(wr_vc) == v) ? 16'(rst_n) : 16'd0;
  assign rpl_go    = rpl_req && !snd_mid && s_up;
  // an ACK beyond the send pointer (a replay resends what the far side already
  // had): skip to the first unacknowledged packet, even in the middle of one.
  // From the registers (the send pointer lies behind ack_ptr, outside
  // ack_ptr .. wr_ptr), and registered once more (acked_q: timing): the skip
  // comes two cycles after the ACK, and only if the send pointer did not jump
  // in between (it may have moved on by a flit: still at or behind ack_ptr).
  // No flit goes out in the cycle of the skip.
  assign acked_snd = (snd_ptr - ack_ptr) > (wr_ptr - ack_ptr);

  always_ff @(posedge clk) begin
    if (rst) begin
      wr_ptr       <= '0;
      snd_ptr      <= '0;
      ack_ptr      <= '0;
      wr_seq       <= '0;
      snd_seq      <= '0;
      una          <= '0;
      snd_mid      <= 1'b0;
      snd_fidx     <= '0;
      rpl_req      <= 1'b0;
      acked_q      <= 1'b0;
      mv_q         <= 1'b0;
      st_q         <= 1'b0;
      for (int v = 0; v < NVC; v++) begin
        cred_seen[v] <= 16'(LINK_CREDITS);
        cred_pend[v] <= '0;
        cred_sent[v] <= 16'(LINK_CREDITS);
        cred_used[v] <= 16'(LINK_CREDITS);
      end
      wr_mid       <= 1'b0;
      wr_start     <= '0;
      wr_vc        <= '0;
      m_flush_cnt  <= '0;
      ack_sent     <= 8'hFF;
      force_q      <= 1'b0;
      nak_q        <= 1'b0;
      since_ctl    <= '0;
      ack_tmr      <= '0;
      run          <= '0;
      m_pkt_cnt    <= '0;
      m_replay_cnt <= '0;
      m_nak_tx_cnt <= '0;
      m_nak_rx_cnt <= '0;
    end else begin
      // router -> replay buffer
      if (s_valid) begin
        wr_ptr <= wr_ptr + 1'b1;
        wr_mid <= !s_last;
        if (!wr_mid) begin
          wr_start <= wr_ptr;
          wr_vc    <= s_vc;
        end
        if (s_last) begin
          wr_seq    <= wr_seq + 1'b1;
          m_pkt_cnt <= m_pkt_cnt + 1'b1;
        end
      end
      // control words received: ACK, NAK, credits
      ack_ptr <= ack_ptr_n;
      una     <= una_n;
      if (is_nak) m_nak_rx_cnt <= m_nak_rx_cnt + 1'b1;
      for (int v = 0; v < NVC; v++) begin
        if (cred_d[v] != '0) cred_seen[v] <= cred_in[v];
        cred_pend[v] <= cred_pend[v] + cred_d[v] - 16'(cred_pend[v] != '0);
      end
      // ACK timeout: sent but unacknowledged flits and no ACK progress
      if (ctl_ack_ok || snd_ptr == ack_ptr || !s_up) ack_tmr <= '0;
      else if (ack_tmr != TW'(ACK_TIMEOUT)) ack_tmr <= ack_tmr + 1'b1;
      // replay requests: NAK, ACK timeout (and training, below)
      if (is_nak || ack_tmr == TW'(ACK_TIMEOUT)) rpl_req <= 1'b1;
      // sending (acked_q: cleared below when the send pointer jumps; mv_q,
      // st_q: how the send pointer changes)
      acked_q <= acked_snd;
      mv_q    <= 1'b0;
      st_q    <= 1'b1;
      if (!s_up) begin
        snd_mid  <= 1'b0;  // everything unacknowledged is resent after training
        snd_fidx <= '0;
        rpl_req  <= 1'b1;
      end else if (acked_q) begin
        acked_q  <= 1'b0;
        st_q     <= 1'b0;
        snd_ptr  <= ack_ptr;
        snd_seq  <= una;
        snd_mid  <= 1'b0;
        snd_fidx <= '0;
      end else if (rpl_go) begin
        acked_q <= 1'b0;
        st_q    <= 1'b0;
        rpl_req <= 1'b0;
        snd_ptr <= ack_ptr;  // an ACK of this cycle: skipped later (acked_q)
        snd_seq <= una;
        if (snd_ptr != ack_ptr) m_replay_cnt <= m_replay_cnt + 1'b1;
      end else if (snd_data) begin
        mv_q     <= 1'b1;
        st_q     <= 1'b0;
        snd_ptr  <= snd_ptr1;
        snd_mid  <= !q_flit[FW];
        snd_fidx <= q_flit[FW] ? 2'd0 : snd_fidx + 2'd1;
        if (q_flit[FW]) snd_seq <= snd_seq + 1'b1;
      end
      // rate matching: a run of non-IDLE symbols
      run <= (snd_ctl || snd_data) ? run + 1'b1 : '0;
      // control words
      if (s_rx_ack_force) force_q <= 1'b1;
      if (s_rx_nak && s_up) nak_q <= 1'b1;
      if (snd_ctl) begin
        since_ctl <= '0;
        ack_sent  <= s_rx_ack;
        cred_sent <= s_rx_cred;
        force_q   <= s_rx_ack_force;
        if (ctl_type == net_pkg::NET_LCTL_NAK) begin
          nak_q        <= s_rx_nak;
          m_nak_tx_cnt <= m_nak_tx_cnt + 1'b1;
        end
      end else if (since_ctl != GW'(KA_BUSY)) begin
        since_ctl <= since_ctl + 1'b1;
      end
      for (int v = 0; v < NVC; v++) cred_used[v] <= cred_used[v] + 16'(s_valid && int'(s_vc) == v);
      // partner reset: drop the complete packets, keep a packet being written
      // (it gets sequence number 0), return the credits spent towards the
      // old incarnation (all but the kept packet's), restart the far count
      if (s_reinit) begin
        acked_q     <= 1'b0;
        mv_q        <= 1'b0;
        st_q        <= 1'b0;
        ack_ptr     <= rst_keep;
        snd_ptr     <= rst_keep;
        una         <= '0;
        snd_seq     <= '0;
        wr_seq      <= QW'(s_valid && s_last);
        snd_mid     <= 1'b0;
        snd_fidx    <= '0;
        rpl_req     <= 1'b1;
        nak_q       <= 1'b0;
        ack_tmr     <= '0;
        m_flush_cnt <= m_flush_cnt + 32'(rst_drop);
        for (int v = 0; v < NVC; v++) begin
          cred_seen[v] <= 16'(LINK_CREDITS);
          cred_used[v] <= 16'(LINK_CREDITS) + rst_kept[v] + 16'(s_valid && int'(s_vc) == v);
          cred_pend[v] <= cred_pend[v] - 16'(cred_pend[v] != '0) + cred_used[v] - cred_seen[v] - rst_kept[v];
        end
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk) begin
    if (!rst && s_valid && wr_ptr - ack_ptr == (AW+1)'(RPL_DEPTH))
      $error("link_tx: replay buffer overrun (more unacknowledged flits than credits)");
    if (!rst && !acked_snd && 32'(QW'(snd_seq - una)) > SEQ_WIN)
      $error("link_tx: more than %0d sent packets unacknowledged", SEQ_WIN);
  end
`endif

endmodule

`default_nettype wire
