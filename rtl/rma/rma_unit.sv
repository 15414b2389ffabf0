// SPDX-License-Identifier: Apache-2.0
//
// rma_unit: the RMA engine (issue 13, docs/rma.md). One-sided put / get by
// descriptor as a network-level data mover: the source is read with
// pass-through SMFU_RD packets to node S, the data written with pass-through
// SMFU_WR packets to node D (interval ids 32..63: the full 43-bit bus
// address, docs/packets.md); the SMFU at each end turns them into MRd / MWr
// of host memory (smfu_host) or device memory behind an NAA (smfu_naa).
//
//   post      rma.post.go copies the staging registers into a descriptor FIFO
//             (FIFO_DEPTH entries); a post into a full FIFO is refused
//             (st_refused).
//   accept    the FIFO's head is checked (len 4..1 MiB, a multiple of 4;
//             addresses dword aligned, below 2^43, no wrap past 2^43;
//             notification addresses 16-byte aligned and below 2^43 when
//             asked for). A bad one goes straight to the completion stage
//             (BAD_DESC: nothing is sent to S or D); a good one becomes the
//             reader's descriptor. Every accepted descriptor is recorded in
//             the meta FIFO (4 entries), in order.
//   reader    cuts the descriptor into chunks of min(256 B, the rest, up to
//             the next 4 KiB boundary at S, up to the next 4 KiB boundary at
//             D): one SMFU_RD per chunk (a read never crosses 4 KiB at S, the
//             write of its data never crosses 4 KiB at D). Each read takes a
//             slot of NSLOT (ring order) while fewer than cfg_max_rd reads are
//             outstanding; its network tag is {1, generation[2:0], slot}.
//   receive   SMFU_CPL with tag bit 7 set (the NIC hands them here, rma_port)
//             are matched by slot and generation; their data go into the
//             slot's buffer (rma_sbuf) at the chunk dword given by the byte
//             count, realigned; a slot is complete when all its dwords are
//             in. UR / CA / poisoned data / a malformed completion mark the
//             slot failed; so does the timeout (cfg_timeout x 256 cycles
//             after the read left); a late completion finds a new generation
//             and is dropped.
//   writer    takes the slots in ring order: a complete one becomes one
//             SMFU_WR to D (header + one flit per buffer row), a failed one
//             fails the descriptor: none of its later chunks is written (their
//             slots are released as they complete, and the reader, if still
//             on that descriptor, stops and ends it with an empty failed slot).
//             After the descriptor's last chunk it goes to the completion
//             stage with status OK or RD_ERR.
//   complete  (one descriptor at a time, a 2-entry queue in front) a 1-dword
//             SMFU_RD of the last dword at D on the flush slot (NSLOT): the
//             read does not pass the writes before it, so when it returns
//             the data is at D; a failed flush read turns OK into WR_ERR. Then
//             the completer notification (16-byte SMFU_WR of rma_noti_t, kind
//             CMP, to d_cnoti at D) and the requester notification (kind
//             REQ, to d_rnoti at this node, through the network like any
//             write) as the flags ask; counters. BAD_DESC: no flush, no
//             completer record, the requester record if asked for and its
//             address is usable.
//   transmit  one packet stream (m_pkt): completion stage first, then reads,
//             then writes, a whole packet at a time, through an output
//             register. m_pkt_vc tells the data reads (one flit each; they
//             need no order against the writes) from the rest (writes, the
//             flush read behind them, records), so that rma_port can send
//             them on separate buffers of the router's inport: a read waiting
//             for its output does not hold up the writes.
//
// Synchronous to clk, reset rst (sync, high).

`default_nettype none

module rma_unit #(
  parameter int NSLOT      = 8,   // source reads in flight at most (power of two, 2..8)
  parameter int FIFO_DEPTH = 4    // descriptor FIFO entries (power of two)
) (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,            // synchronous, active high

  // ---------------- configuration (rma.ctrl, info.id) ----------------
  input  wire logic [15:0]  cfg_node_id,    // this node (requester R)
  input  wire logic [3:0]   cfg_max_rd,     // reads in flight (0: NSLOT)
  input  wire logic [15:0]  cfg_timeout,    // 256-cycle units (0: 4096; above 0x2000: 0x2000)

  // ---------------- descriptor post (rma.d_*, rma.post) ----------------
  input  wire logic         post,           // rma.post.go (single cycle)
  input  wire logic [63:0]  d_src,          // {node[63:48], addr[47:0]}
  input  wire logic [63:0]  d_dst,
  input  wire logic [49:0]  d_len,          // {noti_cmp, noti_req, cookie[47:32], -, len[20:0]}
  input  wire logic [47:0]  d_rnoti,
  input  wire logic [47:0]  d_cnoti,

  // ---------------- packets to the network (SMFU_RD / SMFU_WR) ----------------
  output      logic [127:0] m_pkt_data,
  output      logic         m_pkt_last,
  output      logic         m_pkt_vc,       // 0: a data read (one flit, no order to keep), 1: the rest
  output      logic         m_pkt_valid,
  input  wire logic         m_pkt_ready,

  // ---------------- completions from the network (SMFU_CPL, tag 0x80..0xff) ----------------
  input  wire logic [127:0] s_cpl_data,     // always accepted (one flit per cycle)
  input  wire logic         s_cpl_last,
  input  wire logic         s_cpl_valid,

  // ---------------- status and counters (rma.status, done, errors, bytes, stats, wr_err) ----------------
  output      logic [7:0]   st_free,
  output      logic         st_busy,
  output      logic [7:0]   st_inflight,
  output      logic [31:0]  st_refused,
  output      logic [31:0]  st_done,
  output      logic [31:0]  st_rd_err,
  output      logic [31:0]  st_bad_desc,
  output      logic [31:0]  st_wr_err,
  output      logic [63:0]  st_bytes,
  output      logic [7:0]   st_rd_hwm,
  output      logic [31:0]  st_notis
);

  `include "smfu_func.svh"

  localparam int SW = $clog2(NSLOT);
  localparam int FS = NSLOT;                 // index of the flush slot
  localparam int FW = $clog2(FIFO_DEPTH);

  // widths of the FIFO entries below (Yosys has no $bits of a type; lint
  // checks them: a struct of another width would be a WIDTH warning)
  localparam int DESC_W = 263;
  localparam int META_W = 204;

  localparam logic [1:0] ST_OK = 2'd0, ST_RD_ERR = 2'd1, ST_BAD = 2'd2, ST_WR_ERR = 2'd3;

  // ------------------------------------------------------------------
  // Descriptor FIFO
  // ------------------------------------------------------------------
  typedef struct packed {
    logic [47:0] cnoti;
    logic [47:0] rnoti;
    logic        ncmp;
    logic        nreq;
    logic [15:0] cookie;
    logic [20:0] len;
    logic [15:0] d_node;
    logic [47:0] d_addr;
    logic [15:0] s_node;
    logic [47:0] s_addr;
  } desc_t;

  desc_t        dq_in, dq;
  logic         dq_s_ready, dq_valid, dq_pop;
  logic [FW:0]  dq_count;

  always_comb begin
    dq_in        = '0;
    dq_in.s_addr = d_src[47:0];
    dq_in.s_node = d_src[63:48];
    dq_in.d_addr = d_dst[47:0];
    dq_in.d_node = d_dst[63:48];
    dq_in.len    = d_len[20:0];
    dq_in.cookie = d_len[47:32];
    dq_in.nreq   = d_len[48];
    dq_in.ncmp   = d_len[49];
    dq_in.rnoti  = d_rnoti;
    dq_in.cnoti  = d_cnoti;
  end

  sync_fifo #(.WIDTH(DESC_W), .DEPTH(FIFO_DEPTH)) u_dq (
    .clk, .rst,
    .s_data  (dq_in),
    .s_valid (post),
    .s_ready (dq_s_ready),
    .m_data  (dq),
    .m_valid (dq_valid),
    .m_ready (dq_pop),
    .count   (dq_count)
  );

  // ------------------------------------------------------------------
  // Accept: checks, meta FIFO
  // ------------------------------------------------------------------
  typedef struct packed {
    logic        bad;
    logic [2:0]  id;
    logic [15:0] s_node;
    logic [15:0] d_node;
    logic [42:0] fl_addr;     // flush read: the last dword at D
    logic [20:0] len;
    logic [15:0] cookie;
    logic        nreq;        // requester record asked for and its address usable
    logic        ncmp;
    logic [42:0] rnoti;
    logic [42:0] cnoti;
  } meta_t;

  logic [43:0] s_end, d_end;        // last byte + carry
  logic        rn_ok, cn_ok, bad;
  meta_t       mi, mh;
  logic        m_s_ready, m_valid, m_pop;
  logic        accept;
  logic [2:0]  id_ctr_q;

  // reader state (below)
  logic        r_busy_q;

  always_comb begin
    s_end = {1'b0, dq.s_addr[42:0]} + {23'd0, dq.len} - 44'd1;
    d_end = {1'b0, dq.d_addr[42:0]} + {23'd0, dq.len} - 44'd1;
    rn_ok = dq.rnoti[3:0] == 4'd0 && dq.rnoti[47:43] == 5'd0;
    cn_ok = dq.cnoti[3:0] == 4'd0 && dq.cnoti[47:43] == 5'd0;
    bad   = dq.len == 21'd0 || dq.len > 21'h100000 || dq.len[1:0] != 2'd0 ||
            dq.s_addr[1:0] != 2'd0 || dq.d_addr[1:0] != 2'd0 ||
            dq.s_addr[47:43] != 5'd0 || dq.d_addr[47:43] != 5'd0 ||
            s_end[43] || d_end[43] ||
            (dq.nreq && !rn_ok) || (dq.ncmp && !cn_ok);
    mi         = '0;
    mi.bad     = bad;
    mi.id      = id_ctr_q;
    mi.s_node  = dq.s_node;
    mi.d_node  = dq.d_node;
    mi.fl_addr = d_end[42:0] - 43'd3;
    mi.len     = dq.len;
    mi.cookie  = dq.cookie;
    mi.nreq    = dq.nreq && rn_ok;
    mi.ncmp    = dq.ncmp;
    mi.rnoti   = dq.rnoti[42:0];
    mi.cnoti   = dq.cnoti[42:0];
  end

  assign accept = dq_valid && m_s_ready && (bad || !r_busy_q);
  assign dq_pop = accept;

  logic [$clog2(4):0] m_count;
  sync_fifo #(.WIDTH(META_W), .DEPTH(4)) u_meta (
    .clk, .rst,
    .s_data  (mi),
    .s_valid (accept),
    .s_ready (m_s_ready),
    .m_data  (mh),
    .m_valid (m_valid),
    .m_ready (m_pop),
    .count   (m_count)
  );

  // ------------------------------------------------------------------
  // Slot state (0..NSLOT-1 data reads, NSLOT the flush read)
  // ------------------------------------------------------------------
  logic [NSLOT:0]   sv_q, sd_q, se_q;     // allocated, done (complete or failed), failed
  logic [2:0]       gen_q [NSLOT+1];
  logic [6:0]       len_q [NSLOT+1];      // dwords of the read
  logic [6:0]       rcv_q [NSLOT+1];      // dwords received
  logic [13:0]      age_q [NSLOT+1];      // 256-cycle units since the read left
  logic [NSLOT-1:0] last_q;               // last chunk of its descriptor
  logic [42:0]      sda_q [NSLOT];        // address of the chunk at D
  logic [SW-1:0]    ap_q, wp_q;           // allocation / writer pointer (ring)
  localparam int IW = $clog2(NSLOT + 1);
  logic [IW-1:0]    ap_i, wp_i;           // the same as indices of the NSLOT+1 arrays
  assign ap_i = IW'(ap_q);
  assign wp_i = IW'(wp_q);

  logic [7:0]       inflight, maxrd;
  always_comb begin
    inflight = '0;
    for (int i = 0; i < NSLOT; i++) inflight = inflight + 8'(sv_q[i] && !sd_q[i]);
    maxrd = (cfg_max_rd == 4'd0 || 32'(cfg_max_rd) > NSLOT) ? 8'(NSLOT) : {4'd0, cfg_max_rd};
  end

  // ------------------------------------------------------------------
  // Transmit arbiter (declared early: the sources use the grants)
  // ------------------------------------------------------------------
  localparam logic [1:0] SRC_C = 2'd0, SRC_R = 2'd1, SRC_W = 2'd2, SRC_NONE = 2'd3;
  logic         c_req, r_req, w_req, c_fire, r_fire, w_fire;
  logic [127:0] c_flit, r_flit, w_flit;
  logic         c_last, w_last;

  // ------------------------------------------------------------------
  // Reader
  // ------------------------------------------------------------------
  logic [2:0]  r_id_q;
  logic [42:0] r_saddr_q, r_daddr_q;
  logic [20:0] r_rem_q;
  logic [15:0] r_snode_q;
  logic [12:0] s_room, d_room, cl;
  logic [6:0]  cl_dw;
  logic        r_last, r_abort, r_null;
  logic        w_fail_q;

  always_comb begin
    s_room = 13'h1000 - {1'b0, r_saddr_q[11:0]};
    d_room = 13'h1000 - {1'b0, r_daddr_q[11:0]};
    cl     = 13'd256;
    if (r_rem_q < 21'(cl)) cl = r_rem_q[12:0];
    if (s_room < cl)       cl = s_room;
    if (d_room < cl)       cl = d_room;
    cl_dw  = cl[8:2];                       // 1..64 (64 wraps to 0 in 6 bits: kept 7)
    if (cl == 13'd256) cl_dw = 7'd64;
    r_last = r_rem_q == 21'(cl);
  end

  // the writer found the reader's descriptor failed: stop reading it
  assign r_abort = r_busy_q && w_fail_q && m_valid && mh.id == r_id_q;
  assign r_null  = r_abort && !sv_q[ap_i];
  assign r_req   = r_busy_q && !r_abort && !sv_q[ap_i] && inflight < maxrd;

  net_pkg::net_cmd_smfu_t r_cmd;
  always_comb begin
    r_cmd        = '0;
    r_cmd.off_dw = r_saddr_q[37:2];
    r_cmd.ivl    = {1'b1, r_saddr_q[42:38]};
    r_cmd.fbe    = 4'hf;
    r_cmd.lbe    = (cl_dw == 7'd1) ? 4'h0 : 4'hf;
    r_cmd.len_m1 = 6'(cl_dw - 7'd1);
    r_cmd.tag    = {1'b1, gen_q[ap_i], 4'(ap_q)};
    r_flit       = smfu_hdr_flit(r_snode_q, cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_RD), 5'd0, r_cmd);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      r_busy_q <= 1'b0;
      id_ctr_q <= '0;
    end else begin
      if (accept && !bad) begin
        r_busy_q  <= 1'b1;
        r_id_q    <= id_ctr_q;
        id_ctr_q  <= id_ctr_q + 3'd1;
        r_saddr_q <= dq.s_addr[42:0];
        r_daddr_q <= dq.d_addr[42:0];
        r_rem_q   <= dq.len;
        r_snode_q <= dq.s_node;
      end
      if (r_fire) begin
        r_saddr_q <= r_saddr_q + 43'(cl);
        r_daddr_q <= r_daddr_q + 43'(cl);
        r_rem_q   <= r_rem_q - 21'(cl);
        if (r_last) r_busy_q <= 1'b0;
      end
      if (r_null) r_busy_q <= 1'b0;
    end
  end

  // ------------------------------------------------------------------
  // Receive: SMFU_CPL -> slot buffer
  // ------------------------------------------------------------------
  net_pkg::net_hdr_t     h;
  net_pkg::net_cmd_cpl_t cc;
  logic        in_pkt_q, hdr;
  logic [3:0]  h_idx;
  logic [2:0]  h_gen;
  logic [6:0]  h_ndw;
  logic [10:0] h_bcdw;
  logic [6:0]  h_off;
  logic        h_match, h_err, h_fin, h_ok;
  logic        p_match_q, p_err_q, p_fin_q;
  logic [3:0]  p_idx_q;
  logic [2:0]  p_gen_q;
  logic [5:0]  p_pos_q;
  logic [6:0]  p_left_q;
  logic        cur_match, cur_err, cur_fin;
  logic [3:0]  cur_idx;
  logic [2:0]  cur_gen;
  logic        fin_now;
  logic [6:0]  h_len, h_rcv;

  assign hdr = !in_pkt_q;

  always_comb begin
    h       = s_cpl_data;
    cc      = h.cmd;
    h_idx   = cc.tag[3:0];
    h_gen   = cc.tag[6:4];
    h_ndw   = {1'b0, cc.len_m1} + 7'd1;
    h_bcdw  = cc.byte_count[12:2];
    h_len   = '0;
    h_rcv   = '0;
    h_match = 1'b0;
    if (32'(h_idx) <= NSLOT) begin
      h_len   = len_q[h_idx];
      h_rcv   = rcv_q[h_idx];
      h_match = sv_q[h_idx] && !sd_q[h_idx] && gen_q[h_idx] == h_gen;
    end
    h_match = h_match && h.ptype == net_pkg::NET_TYPE_SMFU_CPL && cc.tag[7];
    h_ok    = cc.status == 3'd0 && !cc.ep && h.plen != 5'd0 &&
              h.plen == 5'((h_ndw + 7'd3) >> 2) && cc.byte_count[1:0] == 2'd0 &&
              h_bcdw <= 11'(h_len) && h_bcdw >= 11'(h_ndw);
    h_off   = h_len - h_bcdw[6:0];
    h_err   = !h_ok;
    h_fin   = h_ok && {1'b0, h_rcv} + {1'b0, h_ndw} == {1'b0, h_len};
    cur_match = hdr ? h_match : p_match_q;
    cur_err   = hdr ? h_err   : p_err_q;
    cur_fin   = hdr ? h_fin   : p_fin_q;
    cur_idx   = hdr ? h_idx   : p_idx_q;
    cur_gen   = hdr ? h_gen   : p_gen_q;
    fin_now   = 1'b0;
    // the packet ends: complete / fail its slot, if it is still the read it was for
    if (s_cpl_valid && s_cpl_last && cur_match && 32'(cur_idx) <= NSLOT) begin
      fin_now = sv_q[cur_idx] && !sd_q[cur_idx] && gen_q[cur_idx] == cur_gen;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q <= 1'b0;
    end else if (s_cpl_valid) begin
      in_pkt_q <= !s_cpl_last;
    end
    if (s_cpl_valid && hdr) begin
      p_match_q <= h_match;
      p_err_q   <= h_err;
      p_fin_q   <= h_fin;
      p_idx_q   <= h_idx;
      p_gen_q   <= h_gen;
      p_pos_q   <= h_off[5:0];
      p_left_q  <= h_ndw;
    end else if (s_cpl_valid) begin
      p_pos_q   <= p_pos_q + 6'd4;
      p_left_q  <= p_left_q - 7'd4;
    end
  end

  // slot data buffer
  logic          sb_we;
  logic [3:0]    w_row_q;
  logic [127:0]  sb_rdata;
  assign sb_we = s_cpl_valid && !hdr && p_match_q && !p_err_q && 32'(p_idx_q) < NSLOT;

  rma_sbuf #(.NSLOT(NSLOT)) u_sbuf (
    .clk,
    .s_we    (sb_we),
    .s_slot  (p_idx_q[SW-1:0]),
    .s_pos   (p_pos_q),
    .s_left  (p_left_q),
    .s_data  (s_cpl_data),
    .r_slot  (wp_q),
    .r_row   (w_row_q),
    .r_data  (sb_rdata)
  );

  // ------------------------------------------------------------------
  // Writer
  // ------------------------------------------------------------------
  typedef struct packed {
    meta_t      m;
    logic [1:0] st;
  } cq_t;

  cq_t         cq_in, cq_h;
  logic        cq_push, cq_s_ready, cq_valid, cq_pop;
  logic [1:0]  cq_count;

  logic        w_data_q;             // sending the payload of a write
  logic        w_rdy, w_disc, w_bad, w_start, w_fin;
  logic [6:0]  w_len;
  logic [4:0]  w_plen;
  logic [6:0]  w_rowdw;

  always_comb begin
    w_len   = len_q[wp_i];
    w_plen  = 5'((w_len + 7'd3) >> 2);
    w_rdy   = !w_data_q && m_valid && !mh.bad && sv_q[wp_i] && sd_q[wp_i] &&
              (!last_q[wp_q] || cq_s_ready);
    w_disc  = w_rdy && (se_q[wp_i] || w_fail_q);
    w_start = w_rdy && !se_q[wp_i] && !w_fail_q;
    w_bad   = !w_data_q && m_valid && mh.bad && cq_s_ready;
    w_req   = w_start || w_data_q;
    w_rowdw = w_len - {1'b0, w_row_q, 2'b00};
    w_last  = w_data_q && {1'b0, w_row_q} == w_plen - 5'd1;
  end
  assign w_fin = w_fire && w_data_q && w_last;

  net_pkg::net_cmd_smfu_t w_cmd;
  logic [42:0]            w_daddr;
  always_comb begin
    w_daddr      = sda_q[wp_q];
    w_cmd        = '0;
    w_cmd.off_dw = w_daddr[37:2];
    w_cmd.ivl    = {1'b1, w_daddr[42:38]};
    w_cmd.fbe    = 4'hf;
    w_cmd.lbe    = (w_len == 7'd1) ? 4'h0 : 4'hf;
    w_cmd.len_m1 = 6'(w_len - 7'd1);
    if (!w_data_q) begin
      w_flit = smfu_hdr_flit(mh.d_node, cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_WR), w_plen, w_cmd);
    end else begin
      w_flit = smfu_mask(sb_rdata, smfu_keep(w_rowdw));
    end
  end

  // the descriptor's end toward the completion stage
  always_comb begin
    cq_push = 1'b0;
    cq_in.m = mh;
    cq_in.st = ST_OK;
    m_pop   = 1'b0;
    if (w_bad) begin
      cq_push  = 1'b1;
      cq_in.st = ST_BAD;
      m_pop    = 1'b1;
    end else if (w_disc && last_q[wp_q]) begin
      cq_push  = 1'b1;
      cq_in.st = ST_RD_ERR;
      m_pop    = 1'b1;
    end else if (w_fin && last_q[wp_q]) begin
      cq_push  = 1'b1;
      cq_in.st = ST_OK;
      m_pop    = 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      w_data_q <= 1'b0;
      w_fail_q <= 1'b0;
      w_row_q  <= '0;
    end else begin
      if (w_start && w_fire) begin
        w_data_q <= 1'b1;
        w_row_q  <= '0;
      end else if (w_data_q && w_fire) begin
        w_row_q  <= w_row_q + 4'd1;
        if (w_last) w_data_q <= 1'b0;
      end
      if (w_disc) w_fail_q <= !last_q[wp_q];
      if (w_fin && last_q[wp_q]) w_fail_q <= 1'b0;
    end
  end

  sync_fifo #(.WIDTH(META_W + 2), .DEPTH(2)) u_cq (
    .clk, .rst,
    .s_data  (cq_in),
    .s_valid (cq_push),
    .s_ready (cq_s_ready),
    .m_data  (cq_h),
    .m_valid (cq_valid),
    .m_ready (cq_pop),
    .count   (cq_count)
  );

  // ------------------------------------------------------------------
  // Completion stage: flush read, notifications, counters
  // ------------------------------------------------------------------
  typedef enum logic [2:0] { C_IDLE, C_FLUSH, C_FWAIT, C_NCMP, C_NREQ, C_FIN } cstate_e;
  cstate_e    c_state_q;
  logic [1:0] c_st_q;
  logic       c_fl_q;                // notification: 0 header, 1 record
  logic       c_fl_go;               // flush read leaves
  net_pkg::rma_noti_t c_rec;
  logic [42:0] c_naddr;
  logic [15:0] c_nnode;
  net_pkg::net_cmd_smfu_t c_cmd;

  always_comb begin
    c_rec          = '0;
    c_rec.cookie   = cq_h.m.cookie;
    c_rec.status   = net_pkg::rma_status_e'({6'd0, c_st_q});
    c_rec.kind     = (c_state_q == C_NCMP) ? net_pkg::RMA_KIND_CMP : net_pkg::RMA_KIND_REQ;
    c_rec.len      = {11'd0, cq_h.m.len};
    c_rec.req_node = cfg_node_id;
    c_rec.src_node = cq_h.m.s_node;
    c_rec.dst_node = cq_h.m.d_node;
    c_rec.valid    = 1'b1;
    c_naddr        = (c_state_q == C_NCMP) ? cq_h.m.cnoti : cq_h.m.rnoti;
    c_nnode        = (c_state_q == C_NCMP) ? cq_h.m.d_node : cfg_node_id;
    c_cmd              = '0;
    c_cmd.fbe          = 4'hf;
    if (c_state_q == C_FLUSH) begin
      c_cmd.off_dw = cq_h.m.fl_addr[37:2];
      c_cmd.ivl    = {1'b1, cq_h.m.fl_addr[42:38]};
      c_cmd.lbe    = 4'h0;
      c_cmd.len_m1 = 6'd0;
      c_cmd.tag    = {1'b1, gen_q[FS], 4'(FS)};
      c_flit   = smfu_hdr_flit(cq_h.m.d_node, cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_RD), 5'd0, c_cmd);
    end else if (!c_fl_q) begin
      c_cmd.off_dw = c_naddr[37:2];
      c_cmd.ivl    = {1'b1, c_naddr[42:38]};
      c_cmd.lbe    = 4'hf;
      c_cmd.len_m1 = 6'd3;
      c_flit   = smfu_hdr_flit(c_nnode, cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_WR), 5'd1, c_cmd);
    end else begin
      c_flit   = c_rec;
    end
    c_req   = c_state_q == C_FLUSH || c_state_q == C_NCMP || c_state_q == C_NREQ;
    c_last  = c_state_q == C_FLUSH || c_fl_q;
    c_fl_go = c_fire && c_state_q == C_FLUSH;
    cq_pop  = c_state_q == C_FIN;
  end

  // the state after the flush (or after the completer record)
  function automatic cstate_e c_after_cmp(input logic nreq);
    c_after_cmp = nreq ? C_NREQ : C_FIN;
  endfunction

  logic [31:0] done_q, rd_err_q, bad_q, wr_err_q, notis_q, refused_q;
  logic [63:0] bytes_q;
  logic [7:0]  hwm_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      c_state_q <= C_IDLE;
      c_fl_q    <= 1'b0;
      c_st_q    <= ST_OK;
      done_q    <= '0;
      rd_err_q  <= '0;
      bad_q     <= '0;
      wr_err_q  <= '0;
      notis_q   <= '0;
      refused_q <= '0;
      bytes_q   <= '0;
      hwm_q     <= '0;
    end else begin
      case (c_state_q)
        C_IDLE: begin
          if (cq_valid) begin
            c_st_q    <= cq_h.st;
            c_fl_q    <= 1'b0;
            c_state_q <= (cq_h.st == ST_BAD) ? c_after_cmp(cq_h.m.nreq) : C_FLUSH;
          end
        end
        C_FLUSH: if (c_fire) c_state_q <= C_FWAIT;
        C_FWAIT: begin
          if (sd_q[FS]) begin
            if (se_q[FS] && c_st_q == ST_OK) c_st_q <= ST_WR_ERR;
            c_state_q <= cq_h.m.ncmp ? C_NCMP : c_after_cmp(cq_h.m.nreq);
          end
        end
        C_NCMP, C_NREQ: begin
          if (c_fire) begin
            c_fl_q <= !c_fl_q;
            if (c_fl_q) begin
              notis_q   <= notis_q + 32'd1;
              c_state_q <= (c_state_q == C_NCMP) ? c_after_cmp(cq_h.m.nreq) : C_FIN;
            end
          end
        end
        default: begin            // C_FIN
          case (c_st_q)
            ST_OK:     done_q   <= done_q + 32'd1;
            ST_RD_ERR: rd_err_q <= rd_err_q + 32'd1;
            ST_BAD:    bad_q    <= bad_q + 32'd1;
            default:   wr_err_q <= wr_err_q + 32'd1;
          endcase
          c_state_q <= C_IDLE;
        end
      endcase
      if (post && !dq_s_ready) refused_q <= refused_q + 32'd1;
      if (w_fin) bytes_q <= bytes_q + {55'd0, w_len, 2'b00};
      if (inflight > hwm_q) hwm_q <= inflight;
    end
  end

  // ------------------------------------------------------------------
  // Slot state updates: allocation, completion, timeout, release
  // ------------------------------------------------------------------
  logic [7:0]  pre_q;
  logic        tick;
  logic [13:0] tmo;
  assign tick = pre_q == 8'hff;
  logic [15:0] tmo_c;
  assign tmo_c = smfu_tmo_clamp(cfg_timeout);
  assign tmo   = (cfg_timeout == 16'd0) ? 14'h1000 : tmo_c[13:0];

  always_ff @(posedge clk) begin
    if (rst) begin
      sv_q  <= '0;
      sd_q  <= '0;
      se_q  <= '0;
      ap_q  <= '0;
      wp_q  <= '0;
      pre_q <= '0;
      for (int i = 0; i <= NSLOT; i++) gen_q[i] <= '0;
    end else begin
      pre_q <= pre_q + 8'd1;
      // a read leaves / the reader ends an aborted descriptor
      if (r_fire || r_null) begin
        sv_q[ap_i]   <= 1'b1;
        sd_q[ap_i]   <= r_null;
        se_q[ap_i]   <= r_null;
        len_q[ap_i]  <= r_null ? 7'd0 : cl_dw;
        rcv_q[ap_i]  <= '0;
        age_q[ap_i]  <= '0;
        last_q[ap_q] <= r_null || r_last;
        sda_q[ap_q]  <= r_daddr_q;
        ap_q         <= ap_q + 1'b1;
      end
      if (c_fl_go) begin
        sv_q[FS]  <= 1'b1;
        sd_q[FS]  <= 1'b0;
        se_q[FS]  <= 1'b0;
        len_q[FS] <= 7'd1;
        rcv_q[FS] <= '0;
        age_q[FS] <= '0;
      end
      // completions: data counted at the header, the slot done at the packet's end
      if (s_cpl_valid && hdr && h_match && h_ok) rcv_q[h_idx] <= h_rcv + h_ndw;
      if (fin_now) begin
        if (cur_err) begin
          sd_q[cur_idx] <= 1'b1;
          se_q[cur_idx] <= 1'b1;
        end else if (cur_fin) begin
          sd_q[cur_idx] <= 1'b1;
        end
      end
      // timeout
      for (int i = 0; i <= NSLOT; i++) begin
        if (sv_q[i] && !sd_q[i]) begin
          if (tick) age_q[i] <= age_q[i] + 14'd1;
          if (age_q[i] > tmo) begin      // at least tmo x 256 cycles, at most 256 more
            sd_q[i] <= 1'b1;
            se_q[i] <= 1'b1;
          end
        end
      end
      // release: the writer is done with a slot, the completion stage with the flush
      if (w_disc || w_fin) begin
        sv_q[wp_i]  <= 1'b0;
        gen_q[wp_i] <= gen_q[wp_i] + 3'd1;
        wp_q        <= wp_q + 1'b1;
      end
      if (c_state_q == C_FWAIT && sd_q[FS]) begin
        sv_q[FS]  <= 1'b0;
        gen_q[FS] <= gen_q[FS] + 3'd1;
      end
    end
  end

  // ------------------------------------------------------------------
  // Transmit arbiter and output register
  // ------------------------------------------------------------------
  logic         o_valid_q, o_last_q, o_vc_q, o_free, lock_q, fire, sel_req, sel_last;
  logic [1:0]   lsrc_q, sel;
  logic [127:0] o_data_q, sel_flit;

  always_comb begin
    if (lock_q)     sel = lsrc_q;
    else if (c_req) sel = SRC_C;
    else if (r_req) sel = SRC_R;
    else if (w_req) sel = SRC_W;
    else            sel = SRC_NONE;
    case (sel)
      SRC_C:   begin sel_req = c_req; sel_flit = c_flit; sel_last = c_last; end
      SRC_R:   begin sel_req = r_req; sel_flit = r_flit; sel_last = 1'b1;   end
      SRC_W:   begin sel_req = w_req; sel_flit = w_flit; sel_last = w_last; end
      default: begin sel_req = 1'b0;  sel_flit = '0;     sel_last = 1'b0;   end
    endcase
    o_free = !o_valid_q || m_pkt_ready;
    fire   = o_free && sel_req;
    c_fire = fire && sel == SRC_C;
    r_fire = fire && sel == SRC_R;
    w_fire = fire && sel == SRC_W;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      o_valid_q <= 1'b0;
      o_last_q  <= 1'b0;
      o_vc_q    <= 1'b1;
      lock_q    <= 1'b0;
      lsrc_q    <= SRC_NONE;
    end else begin
      if (m_pkt_ready) o_valid_q <= 1'b0;
      if (fire) begin
        o_valid_q <= 1'b1;
        o_last_q  <= sel_last;
        o_vc_q    <= sel != SRC_R;       // data reads: one flit each
        lock_q    <= !sel_last;
        lsrc_q    <= sel;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (fire) o_data_q <= sel_flit;
  end

  assign m_pkt_data  = o_data_q;
  assign m_pkt_last  = o_last_q;
  assign m_pkt_vc    = o_vc_q;
  assign m_pkt_valid = o_valid_q;

  // ------------------------------------------------------------------
  // Status
  // ------------------------------------------------------------------
  assign st_free     = 8'(FIFO_DEPTH) - 8'(dq_count);
  assign st_busy     = dq_valid || m_valid || cq_valid || c_state_q != C_IDLE || r_busy_q;
  assign st_inflight = inflight;
  assign st_refused  = refused_q;
  assign st_done     = done_q;
  assign st_rd_err   = rd_err_q;
  assign st_bad_desc = bad_q;
  assign st_wr_err   = wr_err_q;
  assign st_bytes    = bytes_q;
  assign st_rd_hwm   = hwm_q;
  assign st_notis    = notis_q;

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{m_count, cq_count, h_off[6], w_daddr[1:0], c_naddr[1:0], tmo_c[15:14], h.dst, h.src, h.vc, h.rmode, h.route, cc.last, cc.lower_addr,
                    cc.rsvd0, d_len[31:21], dq.rnoti[42:0] == 43'd0, s_end[42:0], mi.rnoti == 43'd0};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
