// SPDX-License-Identifier: Apache-2.0
//
// smfu_rd_cpl: requester side of remote reads (docs/smfu.md). Owns the tag
// table of the reads a unit sent into the network and produces every
// completion TLP toward the original requester:
//
//   * SMFU_CPL packets from the network -> Cpl/CplD with the requester's ID,
//     tag, TC and attributes; lower address and byte count are recomputed
//     from the request (first lower address + bytes already returned), so
//     the remote side's address alignment does not leak into the answer.
//     Payload flits become payload beats one to one (streaming, no buffer);
//     a poisoned one (packet ep) is re-issued with EP = 1 (2.7.2).
//     A completion whose tag is not outstanding (timed out, or unknown) is
//     dropped and counted (ev_late).
//   * timeouts (TMO_EN): a read outstanding longer than cfg_timeout x 256
//     cycles (0: 4096 units) gets a Cpl with status CA for its remaining
//     bytes and its tag is released (ev_timeout);
//   * UR requests from the request side (misses) -> Cpl with status UR.
//
// Priority: network completions (always sunk: message classes), timeouts, UR.
// Network tags are {0, generation, slot}: the generation advances each time a
// slot is released, so a late completion never matches a reused slot. Tag bit
// 7 is 0: network tags 0x80..0xff belong to the RMA unit of the same NIC
// (docs/rma.md), whose completions the NIC hands to that unit, not here.
//
// SPLIT (the NAA's pass-through sender): one requester read may have been
// split by smfu_eg into several network reads ("chunks", one slot each,
// allocated in address order, linked: alloc_first / alloc_more). Completions
// of one request must reach the requester in increasing address order (PCIe
// Base Spec. 2.3.1.1), but the host may answer the chunks in any order (they
// are different requests with different tags there). Only the chunk at the
// head of its request streams (as above); an SMFU_CPL for a later chunk is
// stored as it arrives (header and payload flits) in that slot's buffer of
// BUF_FLITS flits and replayed through the same path when the chunk becomes
// the head (its predecessor's last completion has been sent). Byte count =
// the chunk's remaining bytes + alloc_rest (the bytes of the request after
// the chunk), lower address from the chunk's own start. An error completion
// or a timeout of a chunk ends the request (2.3.2: the requester is done with
// it): the chunks behind it are released without output ("abort"), their
// completions dropped. A chunk that is not the head does not time out: it
// does when it becomes the head and its answer is still missing.
//
// Timing (issue 10, docs/benchmarks.md "FPGA area and timing"): the reorder
// buffer is read synchronously (a block RAM's read port, rb_q) and registered
// once more (rb2_q: the block RAM's clock-to-output stays out of the header's
// cycle): a replay takes C_IDLE (pick the slot), C_RPF (read its header flit)
// and C_RPF2 (header to rb2_q, first payload flit read) before its header is
// sent in C_RHDR, then one payload flit a cycle (3 cycles per replayed packet
// that streaming has not; the network's packets have none). The SMFU_CPL input
// goes through a 2-entry skid buffer (IN_REG: +1 cycle per completion, none
// between the flits or packets of a stream), so the tag table lookups start
// from a register. The timeout's age compare is registered per slot (old_q:
// a timeout is answered one cycle later), and so is the pick of the expired
// slot (tmo_idx_q: one more cycle). Each flit's release test (does its byte
// count fit its payload, for each lower address mod 4) is computed as it
// enters the skid buffer or rb2_q (cpl_pre), a slot's "buffer empty" is a
// flag (empty_q), and the next chunk of a released slot becomes the head one
// cycle after the release (rel_q: a completion for it in that cycle is
// stored and replayed; none arrives there in a stream, the released slot's
// last completion still has payload flits to send).

`default_nettype none
`include "tlp_stream.svh"

module smfu_rd_cpl
#(
  parameter int NTAGS     = 16,   // outstanding reads (power of two, 2..64)
  parameter bit TMO_EN    = 1'b1, // completion timeout enabled
  parameter bit SPLIT     = 1'b0, // requests may be split into linked chunks (reorder buffer)
  parameter int BUF_FLITS = 32,   // SPLIT: flits buffered per slot (a chunk of <= 256 B at a
                                  // 64-byte boundary: <= 4 completions at RCB 64 = 20 flits)
  parameter bit IN_REG    = 1'b1  // SMFU_CPL input through a 2-entry skid buffer (registered
                                  // s_pkt_ready and flit: +1 cycle, no throughput loss)
) (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,           // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic [15:0]  cfg_cpl_id,    // completer ID of the completions
  input  wire logic [15:0]  cfg_timeout,   // units of 256 cycles, 0: 4096, above 0x2000: 0x2000

  // ---------------- slot allocation (request side) ----------------
  output      logic         alloc_ready,   // a slot is free
  input  wire logic         alloc_valid,   // take it this cycle (only with alloc_ready)
  output      logic [7:0]   alloc_ntag,    // network tag of the free slot
  input  wire logic [15:0]  alloc_req_id,  // requester ID
  input  wire logic [7:0]   alloc_tag,     // requester's tag
  input  wire logic [2:0]   alloc_tc,      // traffic class
  input  wire logic [2:0]   alloc_attr,    // attributes
  input  wire logic [6:0]   alloc_la,      // lower address of the first byte
  input  wire logic [12:0]  alloc_bc,      // byte count of the request / chunk (1..4096)
  input  wire logic         alloc_first,   // SPLIT: first chunk of a request (1 when unsplit)
  input  wire logic         alloc_more,    // SPLIT: another chunk of the request follows
  input  wire logic [12:0]  alloc_rest,    // SPLIT: bytes of the request after this chunk

  // ---------------- UR completions (request side) ----------------
  input  wire logic         ur_valid,
  output      logic         ur_ready,
  input  wire logic [15:0]  ur_req_id,
  input  wire logic [7:0]   ur_tag,
  input  wire logic [2:0]   ur_tc,
  input  wire logic [2:0]   ur_attr,
  input  wire logic [6:0]   ur_la,
  input  wire logic [11:0]  ur_bc,

  // ---------------- SMFU_CPL packets from the network ----------------
  input  wire logic [127:0] s_pkt_data,
  input  wire logic         s_pkt_last,
  input  wire logic         s_pkt_valid,
  output      logic         s_pkt_ready,

  // ---------------- completion TLPs to the requester ----------------
  `TLP_M_PORTS(m_tlp),

  // ---------------- events ----------------
  output      logic         ev_timeout,    // a read was answered CA after the timeout
  output      logic         ev_late        // a completion for no outstanding read was dropped
);

  `include "pcie_tlp_func.svh"
  `include "smfu_func.svh"

  localparam int TW = $clog2(NTAGS);
  localparam int GW = 7 - TW;      // tag bit 7 = 0 (0x80..0xff: the RMA unit)
  localparam int BW = $clog2(BUF_FLITS);

  // ------------------------------------------------------------------
  // Tag table
  // ------------------------------------------------------------------
  logic [NTAGS-1:0] v_q;
  logic [GW-1:0]    gen_q  [NTAGS];
  logic [15:0]      rid_q  [NTAGS];
  logic [7:0]       rtag_q [NTAGS];
  logic [2:0]       tc_q   [NTAGS];
  logic [2:0]       attr_q [NTAGS];
  logic [6:0]       lab_q  [NTAGS];   // lower address of the first byte + total byte count
                                      // (of the chunk), mod 128: lower address = lab - remaining
  logic [12:0]      bcr_q  [NTAGS];   // remaining byte count (of the chunk)
  logic [16:0]      t0_q   [NTAGS];   // issue time, 256-cycle ticks
  // SPLIT: chunk chain and reorder buffer
  logic [NTAGS-1:0] head_q;           // the chunk may deliver (all earlier chunks done)
  logic [NTAGS-1:0] abt_q;            // the request ended early: release without output
  logic [NTAGS-1:0] more_q;           // a later chunk exists (allocated or not yet)
  logic [NTAGS-1:0] hasn_q;           // ... and nxt_q names its slot
  logic [TW-1:0]    nxt_q  [NTAGS];
  logic [12:0]      rest_q [NTAGS];   // bytes of the request after this chunk
  logic [BW:0]      wp_q   [NTAGS];   // buffer write pointer (flits stored)
  logic [BW:0]      rp_q   [NTAGS];   // buffer read pointer (flits replayed)
  logic [NTAGS-1:0] empty_q;          // wp_q == rp_q, kept as a flag (issue 10: no pointer
                                      // compare on the way to the slot picks)
  logic [TW-1:0]    last_q;           // slot of the newest chunk of the request being split
  logic             pend_q, pend_abt_q;  // its predecessor was released before it was allocated

  logic [TW-1:0]    free_idx;
  logic [NTAGS-1:0] free_vec;
  assign free_vec    = ~v_q;
  assign free_idx    = TW'(smfu_first(128'(free_vec)));
  assign alloc_ready = |free_vec;
  assign alloc_ntag = {1'b0, gen_q[free_idx], free_idx};

  // slots whose buffered completions can be replayed, slots to release (abort)
  logic [NTAGS-1:0] rp_vec, ab_vec;
  logic [TW-1:0]    rp_idx, ab_idx;
  logic             rp_any, ab_any;
  always_comb begin
    for (int i = 0; i < NTAGS; i++) begin
      rp_vec[i]    = SPLIT && v_q[i] && head_q[i] && !abt_q[i] && !empty_q[i];
      ab_vec[i]    = SPLIT && v_q[i] && head_q[i] && abt_q[i];
    end
  end
  assign rp_idx = TW'(smfu_first(128'(rp_vec)));
  assign ab_idx = TW'(smfu_first(128'(ab_vec)));
  assign rp_any = |rp_vec;
  assign ab_any = |ab_vec;

  // ------------------------------------------------------------------
  // Timeout
  // ------------------------------------------------------------------
  logic [7:0]       pre_q;
  logic [16:0]      tick_q, tmo_units;
  logic [NTAGS-1:0] expired;
  logic [NTAGS-1:0] old_q;            // the slot's age is above the timeout (computed a cycle
                                      // ahead; 0 the cycle after the slot's allocation)
  logic [TW-1:0]    tmo_idx, tmo_idx_q, tmo_pick;
  logic             tmo_any, tmo_any_q;
  logic [127:0]     tmo_hdr_q;        // the CA completion of slot tmo_idx_q

  assign tmo_units = (cfg_timeout == 16'd0) ? 17'd4096 : {1'b0, smfu_tmo_clamp(cfg_timeout)};  // <= 0x2000 (row 11, smfu_func.svh)

  always_comb begin
    for (int i = 0; i < NTAGS; i++) begin
      // only the head chunk of a request, and not while it has answers buffered
      expired[i] = TMO_EN && v_q[i] && head_q[i] && !abt_q[i] && empty_q[i] && old_q[i];
    end
  end
  // the pick registered (issue 10: a timeout one more cycle later), still
  // expired when it is taken, and its completion header built with it (so
  // that the table reads of the header's cycle have one address, pidx):
  // the slot's byte count can change only with a streamed data completion,
  // and after its header the sequencer is in C_DATA, not where a timeout is
  // taken
  assign tmo_pick = TW'(smfu_first(128'(expired)));
  assign tmo_idx = tmo_idx_q;
  assign tmo_any = tmo_any_q && expired[tmo_idx_q];

  always_ff @(posedge clk) begin
    if (rst) begin
      pre_q     <= '0;
      tick_q    <= '0;
      old_q     <= '0;
      tmo_any_q <= 1'b0;
      tmo_idx_q <= '0;
    end else begin
      tmo_any_q <= |expired;
      tmo_idx_q <= tmo_pick;
      // the age compare in a cycle of its own (issue 10): a timeout is seen one
      // cycle later, on a 256-cycle tick
      for (int i = 0; i < NTAGS; i++) begin
        old_q[i] <= TMO_EN && ((tick_q - t0_q[i]) > tmo_units) &&
                    !(alloc_valid && alloc_ready && free_idx == TW'(i));
      end
      pre_q <= pre_q + 8'd1;
      // time passes only while a request is outstanding (timeouts compare
      // tick_q - t0_q: unchanged; an idle unit's state repeats, docs/cosim.md
      // "Skipping idle nodes")
      if (pre_q == 8'hff && |v_q) tick_q <= tick_q + 17'd1;
    end
  end

  // ------------------------------------------------------------------
  // What a data completion's release needs, computed a cycle before its
  // header is decoded (issue 10), from the flit and the low bits of its
  // slot's lab_q (fixed while the slot is allocated; for a flit whose slot
  // is allocated again meanwhile the value is wrong, but such a completion is
  // late: its tag's generation does not match and it is dropped):
  // {fin, bcr}: fin = the byte count fits in the payload (byte_count <= len
  // x 4 - lower address mod 4: the completion is the chunk's last), bcr = the
  // chunk's bytes after it otherwise
  // ------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */  // the byte count, length and tag only
  function automatic logic [13:0] cpl_pre(input logic [127:0] d, input logic [1:0] lab2);
    net_pkg::net_hdr_t     fh;
    net_pkg::net_cmd_cpl_t fc;
    logic [12:0]           b4;
    logic [3:0]            fit;
    logic [1:0]            k;
    fh  = d;
    fc  = fh.cmd;
    b4  = {4'd0, {1'b0, fc.len_m1} + 7'd1, 2'b00};
    k   = lab2 - fc.byte_count[1:0];     // lower address mod 4
    fit = {fc.byte_count <= b4 - 13'd3, fc.byte_count <= b4 - 13'd2, fc.byte_count <= b4 - 13'd1,
           fc.byte_count <= b4};
    cpl_pre = {fit[k], fc.byte_count - b4 + {11'd0, k}};
  endfunction

  // the slot a completion flit's tag names
  function automatic logic [TW-1:0] cpl_slot(input logic [127:0] d);
    net_pkg::net_hdr_t     fh;
    net_pkg::net_cmd_cpl_t fc;
    fh = d;
    fc = fh.cmd;
    cpl_slot = fc.tag[TW-1:0];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ------------------------------------------------------------------
  // Network input (IN_REG: skid buffer; the sequencer sees n_*)
  // ------------------------------------------------------------------
  logic [127:0] n_data;
  logic [13:0]  n_pre;               // cpl_pre(n_data)
  logic [13:0]  s_pre;               // cpl_pre(s_pkt_data)

  assign s_pre = cpl_pre(s_pkt_data, lab_q[cpl_slot(s_pkt_data)][1:0]);
  logic         n_last, n_valid, n_ready;

  if (IN_REG) begin : g_in_reg
    // the flit the sequencer sees (entry 0) and its cpl_pre, one cycle after it came
    skid_buf #(.W (128 + 14 + 1)) u_in_skid (
      .clk, .rst,
      .s_data ({s_pkt_last, s_pre, s_pkt_data}), .s_valid (s_pkt_valid), .s_ready (s_pkt_ready),
      .m_data ({n_last, n_pre, n_data}), .m_valid (n_valid), .m_ready (n_ready)
    );
  end else begin : g_no_in_reg
    assign s_pkt_ready = n_ready;
    assign n_data      = s_pkt_data;
    assign n_pre       = s_pre;
    assign n_last      = s_pkt_last;
    assign n_valid     = s_pkt_valid;
  end

  // ------------------------------------------------------------------
  // Completion sequencer
  // ------------------------------------------------------------------
  // C_RPF, C_RPF2, C_RHDR: replay of a buffered packet (SPLIT). The reorder
  // buffer is read through two registers (rb_q: the block RAM's read port,
  // rb2_q: the flit being replayed; one read advances both): C_IDLE picks the
  // slot, C_RPF reads its header flit, C_RPF2 moves it to rb2_q, C_RHDR sends
  // it (the slot is a register there, not the tag of a flit just read), C_DATA
  // its payload.
  typedef enum logic [2:0] { C_IDLE, C_DATA, C_DROP, C_BUF, C_RPF, C_RPF2, C_RHDR } cstate_e;
  cstate_e state_q;

  logic [127:0] o_data_q;
  logic [3:0]   o_keep_q;
  logic         o_sop_q, o_eop_q, o_valid_q, o_free;
  logic [6:0]   dw_left_q;
  logic         src_q;               // C_DATA: 1 = replaying slot cur_q's buffer
  logic [TW-1:0] cur_q;              // C_RPF(2) / C_RHDR / C_DATA (replay) / C_BUF: the slot
  logic [4:0]   fl_left_q;           // replay: payload flits still to come
  logic [BW:0]  rdp_q;               // replay: buffer index of the next flit to read into rb_q

  assign o_free      = !o_valid_q || m_tlp_ready;
  assign m_tlp_data  = o_data_q;
  assign m_tlp_keep  = o_keep_q;
  assign m_tlp_sop   = o_sop_q;
  assign m_tlp_eop   = o_eop_q;
  assign m_tlp_valid = o_valid_q;

  // the input of the sequencer: the network, or a slot's buffer (replay)
  logic [127:0]  buf_q [NTAGS * BUF_FLITS];
  logic [127:0]  rb_q;               // the buffer's read register: the flit after rb2_q
  logic [127:0]  rb2_q;              // the flit being replayed
  logic [13:0]   rb2_pre_q;          // cpl_pre(rb2_q)
  logic          rd_en;
  logic          src_rp, start_rp, in_valid, in_last;
  logic [127:0]  in_data;

  // decode of the packet at the head (header flit in C_IDLE)
  /* verilator lint_off UNUSEDSIGNAL */  // fields not needed here
  net_pkg::net_hdr_t     ph;
  net_pkg::net_cmd_cpl_t pc;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [TW-1:0] pidx;
  logic          pmatch, pdata, pstream, pbuf;
  logic [6:0]    plen_dw, pla;
  logic [13:0]   ppre;               // cpl_pre of the flit
  logic          pfin;               // a data completion ends its chunk (byte count fits)
  logic [12:0]   pbcr;               // ... otherwise the chunk's bytes after it

  always_comb begin
    // a buffered packet waits for replay (before the network, as an abort does)
    start_rp = SPLIT && state_q == C_IDLE && !ab_any && rp_any;
    src_rp   = SPLIT && (state_q == C_RHDR || (state_q == C_DATA && src_q));
    in_data  = src_rp ? rb2_q : n_data;
    ppre     = src_rp ? rb2_pre_q : n_pre;
    in_valid = src_rp || n_valid;
    ph       = in_data;
    if (!src_rp) begin
      in_last = n_last;
    end else if (state_q == C_RHDR) begin
      in_last = ph.plen == 5'd0;
    end else begin
      in_last = fl_left_q == 5'd1;
    end
    pc      = ph.cmd;
    // a replayed packet is slot cur_q's (its tag names that slot: it matched
    // when it was stored, and the slot is not released before it is replayed)
    pidx    = src_rp ? cur_q : pc.tag[TW-1:0];
    pmatch  = ph.ptype == net_pkg::NET_TYPE_SMFU_CPL && v_q[pidx] && gen_q[pidx] == pc.tag[6:TW] && !pc.tag[7];
    // stream it: the slot is the head of its request and has nothing buffered
    // (a replayed packet always is the oldest of its slot)
    pstream = pmatch && head_q[pidx] && !abt_q[pidx] && (src_rp || empty_q[pidx]);
    // store it: a later chunk (or the head while older answers wait in its buffer)
    pbuf    = SPLIT && !src_rp && pmatch && !abt_q[pidx] && !pstream &&
              (7'(wp_q[pidx]) + 7'd1 + 7'(ph.plen) <= 7'(BUF_FLITS));
    pdata   = pc.status == pcie_tlp_pkg::CPL_SC && ph.plen != 5'd0;
    plen_dw = {1'b0, pc.len_m1} + 7'd1;
    // an error completion's packet byte count is a placeholder (smfu_cpl2pkt:
    // 4): its lower address, like its byte count, comes from the slot
    pla     = lab_q[pidx] - 7'(pdata ? pc.byte_count : bcr_q[pidx]);
    // a data completion: does its byte count fit its payload (precomputed,
    // no table read or carry chain here)
    pfin    = ppre[13];
    pbcr    = ppre[12:0];
  end

  logic take_hdr, take_tmo, take_ur, take_abt;
  always_comb begin
    take_hdr = 1'b0;
    take_tmo = 1'b0;
    take_ur  = 1'b0;
    take_abt = 1'b0;
    if (state_q == C_RHDR) begin
      take_hdr = !pstream || o_free;
    end else if (state_q == C_IDLE) begin
      if (ab_any) begin
        take_abt = 1'b1;
      end else if (start_rp) begin
        // C_RPF next: nothing else this cycle
      end else if (n_valid) begin
        take_hdr = !pstream || o_free;
      end else if (tmo_any) begin
        take_tmo = o_free;
      end else if (ur_valid) begin
        take_ur = o_free;
      end
    end
  end

  always_comb begin
    case (state_q)
      C_IDLE:  n_ready = take_hdr;
      C_DATA:  n_ready = !src_q && o_free;
      C_DROP:  n_ready = 1'b1;
      C_BUF:   n_ready = 1'b1;
      default: n_ready = 1'b0;      // C_RPF, C_RPF2, C_RHDR: replay
    endcase
  end
  assign ur_ready   = take_ur;
  assign ev_timeout = take_tmo;
  assign ev_late    = take_hdr && !pstream && !pbuf;

  // slot release this cycle (at most one); rel_abt: the request ends here.
  // What follows for the request's next chunk is done one cycle later, from
  // registers (rel_q: issue 10, the release, the chain lookup and the
  // allocation side in different cycles): a linked next chunk becomes the
  // head (or is released too); a next chunk not allocated yet (pend_now)
  // becomes the head when it is (at once if that is in this cycle, else
  // through pend_q). Until then the next chunk is not the head: a completion
  // for it in that cycle would be stored and replayed.
  logic          rel, rel_abt, rel_q, rel_abt_q, pend_now;
  logic [TW-1:0] rel_idx, rel_idx_q;
  always_comb begin
    rel     = 1'b0;
    rel_abt = 1'b0;
    rel_idx = pidx;
    if (take_hdr && pstream &&
        (pc.last || !pdata || pfin)) begin
      rel     = 1'b1;
      rel_abt = !pdata;
    end
    if (take_tmo) begin
      rel     = 1'b1;
      rel_abt = 1'b1;
      rel_idx = tmo_idx;
    end
    if (take_abt) begin
      rel     = 1'b1;
      rel_abt = 1'b1;
      rel_idx = ab_idx;
    end
  end

  assign pend_now = SPLIT && rel_q && more_q[rel_idx_q] && !hasn_q[rel_idx_q];

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q   <= C_IDLE;
      o_valid_q <= 1'b0;
      v_q       <= '0;
      head_q    <= '0;
      abt_q     <= '0;
      pend_q    <= 1'b0;
      pend_abt_q <= 1'b0;
      rel_q     <= 1'b0;
      for (int i = 0; i < NTAGS; i++) gen_q[i] <= '0;
    end else begin
      rel_q <= rel;
      // the slot released in the last cycle: its next chunk (a link made up to
      // and including the release's cycle is in hasn_q / nxt_q; the slot's
      // fields are rewritten at the earliest by an allocation in this cycle)
      if (SPLIT && rel_q && more_q[rel_idx_q] && hasn_q[rel_idx_q]) begin
        head_q[nxt_q[rel_idx_q]] <= 1'b1;
        abt_q[nxt_q[rel_idx_q]]  <= rel_abt_q;
      end
      if (pend_now && !(alloc_valid && alloc_ready && !alloc_first)) begin
        pend_q     <= 1'b1;
        pend_abt_q <= rel_abt_q;
      end
      if (m_tlp_ready) o_valid_q <= 1'b0;
      case (state_q)
        C_IDLE, C_RHDR: begin
          if (start_rp) state_q <= C_RPF;
          if (take_hdr && pstream) begin
            o_valid_q <= 1'b1;
            if (pdata) begin
              state_q <= in_last ? C_IDLE : C_DATA;
            end else begin
              state_q <= in_last ? C_IDLE : C_DROP;
            end
          end else if (take_hdr && pbuf) begin
            state_q <= in_last ? C_IDLE : C_BUF;
          end else if (take_hdr) begin
            state_q <= in_last ? C_IDLE : C_DROP;
          end
          if (take_tmo || take_ur) o_valid_q <= 1'b1;
        end
        C_RPF:  state_q <= C_RPF2;
        C_RPF2: state_q <= C_RHDR;
        C_DATA: begin
          if (in_valid && o_free) begin
            o_valid_q <= 1'b1;
            if (in_last) state_q <= C_IDLE;
          end
        end
        default: begin
          if (n_valid && n_last) state_q <= C_IDLE;
        end
      endcase
      if (rel) begin
        v_q[rel_idx]    <= 1'b0;
        head_q[rel_idx] <= 1'b0;
        abt_q[rel_idx]  <= 1'b0;
        gen_q[rel_idx]  <= gen_q[rel_idx] + 1'b1;
      end
      if (alloc_valid && alloc_ready) begin
        v_q[free_idx] <= 1'b1;
        if (!SPLIT || alloc_first) begin
          head_q[free_idx] <= 1'b1;
          abt_q[free_idx]  <= 1'b0;
        end else if (pend_q) begin
          head_q[free_idx] <= 1'b1;
          abt_q[free_idx]  <= pend_abt_q;
          pend_q           <= 1'b0;
        end else if (pend_now) begin
          head_q[free_idx] <= 1'b1;
          abt_q[free_idx]  <= rel_abt_q;
        end else begin
          head_q[free_idx] <= 1'b0;
          abt_q[free_idx]  <= 1'b0;
        end
      end
    end
  end

  always_ff @(posedge clk) begin
    rel_idx_q <= rel_idx;
    rel_abt_q <= rel_abt;
    tmo_hdr_q <= tlp_cpl_hdr(1'b0, 10'd0, cfg_cpl_id, pcie_tlp_pkg::CPL_CA,
                             12'(bcr_q[tmo_pick] + rest_q[tmo_pick]), rid_q[tmo_pick], rtag_q[tmo_pick],
                             lab_q[tmo_pick] - 7'(bcr_q[tmo_pick]), tc_q[tmo_pick], attr_q[tmo_pick]);
    if (alloc_valid && alloc_ready) begin
      rid_q[free_idx]  <= alloc_req_id;
      rtag_q[free_idx] <= alloc_tag;
      tc_q[free_idx]   <= alloc_tc;
      attr_q[free_idx] <= alloc_attr;
      lab_q[free_idx]  <= alloc_la + 7'(alloc_bc);
      bcr_q[free_idx]  <= alloc_bc;
      t0_q[free_idx]   <= tick_q;
      more_q[free_idx] <= SPLIT && alloc_more;
      hasn_q[free_idx] <= 1'b0;
      rest_q[free_idx] <= SPLIT ? alloc_rest : 13'd0;
      wp_q[free_idx]   <= '0;
      rp_q[free_idx]   <= '0;
      empty_q[free_idx] <= 1'b1;
      if (alloc_more) last_q <= free_idx;
      // link the chunk to its predecessor (unless that one is gone already:
      // released in an earlier cycle; one released in this cycle is linked,
      // the link is followed in the next)
      if (SPLIT && !alloc_first && !pend_q && !pend_now) begin
        hasn_q[last_q] <= 1'b1;
        nxt_q[last_q]  <= free_idx;
      end
    end
    // a replayed packet leaves the slot's buffer as a whole when its header is
    // taken (the slot may be released and reused meanwhile: nothing writes a
    // buffer before the sequencer is back in C_IDLE)
    if (SPLIT && state_q == C_RHDR && take_hdr) begin
      rp_q[pidx]    <= rp_q[pidx] + (BW + 1)'(ph.plen) + 1'b1;
      empty_q[pidx] <= rp_q[pidx] + (BW + 1)'(ph.plen) + 1'b1 == wp_q[pidx];
    end
    if (SPLIT && ((state_q == C_IDLE && take_hdr && pbuf) || (state_q == C_BUF && n_valid))) begin
      buf_q[(BW + TW)'({(state_q == C_IDLE) ? pidx : cur_q, wp_q[(state_q == C_IDLE) ? pidx : cur_q][BW-1:0]})]
          <= n_data;
      wp_q[(state_q == C_IDLE) ? pidx : cur_q] <= wp_q[(state_q == C_IDLE) ? pidx : cur_q] + 1'b1;
      empty_q[(state_q == C_IDLE) ? pidx : cur_q] <= 1'b0;
    end
    if (take_hdr && pstream && pdata) begin
      bcr_q[pidx] <= pfin ? 13'd0 : pbcr;
    end
    case (state_q)
      C_IDLE, C_RHDR: begin
        if (start_rp) begin
          cur_q     <= rp_idx;
          rdp_q     <= rp_q[rp_idx];            // its oldest packet's header flit
        end
        if (take_hdr) begin
          src_q     <= src_rp;
          cur_q     <= pidx;
          fl_left_q <= ph.plen;
          rdp_q     <= rdp_q + 1'b1;            // replay: rb2_q <= the first payload flit
        end
        if (take_hdr && pstream) begin
          // a poisoned completion stays poisoned (PCIe Base Spec. 2.7.2)
          o_data_q  <= tlp_set_ep(tlp_cpl_hdr(pdata, {3'd0, plen_dw}, cfg_cpl_id, pc.status,
                                              12'((pdata ? pc.byte_count : bcr_q[pidx]) + rest_q[pidx]),
                                              rid_q[pidx], rtag_q[pidx], pla, tc_q[pidx], attr_q[pidx]),
                                  pdata && pc.ep);
          o_keep_q  <= 4'b0111;
          o_sop_q   <= 1'b1;
          o_eop_q   <= !pdata;
          dw_left_q <= plen_dw;
        end else if (take_tmo) begin
          o_data_q <= tmo_hdr_q;
          o_keep_q <= 4'b0111;
          o_sop_q  <= 1'b1;
          o_eop_q  <= 1'b1;
        end else if (take_ur) begin
          o_data_q <= tlp_cpl_hdr(1'b0, 10'd0, cfg_cpl_id, pcie_tlp_pkg::CPL_UR, ur_bc,
                                  ur_req_id, ur_tag, ur_la, ur_tc, ur_attr);
          o_keep_q <= 4'b0111;
          o_sop_q  <= 1'b1;
          o_eop_q  <= 1'b1;
        end
      end
      C_RPF:  rdp_q <= rdp_q + 1'b1;           // rb_q <= the header flit
      C_RPF2: rdp_q <= rdp_q + 1'b1;           // rb2_q <= the header flit, rb_q <= the first payload flit
      C_DATA: begin
        if (in_valid && o_free) begin
          o_data_q  <= smfu_mask(in_data, smfu_keep(dw_left_q));
          o_keep_q  <= smfu_keep(dw_left_q);
          o_sop_q   <= 1'b0;
          o_eop_q   <= in_last;
          dw_left_q <= dw_left_q - 7'd4;
          fl_left_q <= fl_left_q - 5'd1;
          rdp_q     <= rdp_q + 1'b1;
        end
      end
      default: ;
    endcase
  end

  // ------------------------------------------------------------------
  // Reorder buffer read port (SPLIT): synchronous, rb_q holds the flit of
  // index rdp_q - 1 of slot cur_q, rb2_q the one before; no write in the same
  // cycle (writes only in C_IDLE / C_BUF)
  // ------------------------------------------------------------------
  assign rd_en = SPLIT && (state_q == C_RPF || state_q == C_RPF2 || (state_q == C_RHDR && take_hdr) ||
                           (state_q == C_DATA && src_q && o_free && !in_last));

  always_ff @(posedge clk) begin
    if (rd_en) begin
      rb_q  <= buf_q[(BW + TW)'({cur_q, rdp_q[BW-1:0]})];
      rb2_q     <= rb_q;
      rb2_pre_q <= cpl_pre(rb_q, lab_q[cur_q][1:0]);
    end
  end

endmodule

`default_nettype wire
