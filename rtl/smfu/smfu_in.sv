// SPDX-License-Identifier: Apache-2.0
//
// smfu_in: SMFU_RD / SMFU_WR packets from the network -> MRd / MWr TLPs on
// this node's PCIe side, and the completions of those reads back into the
// network as SMFU_CPL (docs/smfu.md). Two uses:
//
//   MODE 0  ingress of the NAA NIC (root-port role): interval id i (< NIVL)
//           and dword offset -> address cfg_in_base[i] + offset, toward the
//           device (through the root port). What the NAA may forward (issue
//           8, row 8): the interval id is known (< NIVL), in_base[i] is 4 KiB
//           aligned (the host's eg_start[i] is too, so a request that does
//           not cross a 4 KiB boundary at the host does not cross one at the
//           device, PCIe Base Spec. 2.2.7), the address does not wrap past
//           2^64, and the request's first and last byte lie inside one of the
//           root port's memory windows (cfg_fwd_base/limit[0..1]: the
//           non-prefetchable and the prefetchable window, 7.5.1.3; the root
//           port itself checks only the start address). Interval ids
//           32..63 (the pass-through form of the RMA unit's requests,
//           docs/rma.md) carry the full device-side address {ivl[4:0],
//           off_dw, 2'b00} and pass the same window and wrap checks.
//           Anything else never becomes a TLP: reads are answered UR, writes
//           dropped, both counted (ev_refused, ev_fwd_refused).
//   MODE 1  pass-through receiver of the host NIC (endpoint role): interval
//           ids 32..63 carry the host address {ivl[4:0], off_dw, 2'b00}. A
//           write into the notification window (cfg_win_base, cfg_win_size)
//           is not written to memory: its first dword, window offset and
//           source node become a 16-byte notification-queue entry written
//           with one MWr at the ring position nq_ring gives, after every
//           earlier request of this in-order path; a full ring holds the
//           event (and everything behind it: the source stalls). nq_push
//           (producer index, interrupt cause) fires when the entry's eop
//           beat leaves m_tlp, not when it is built: the merges behind
//           m_tlp up to the NIC's TLP output are combinational, so a BAR0
//           read of the producer index that sees the new value completes
//           behind the entry (docs/pcie-rules.md, row 6). With
//           cfg_bus_master clear, writes are dropped and reads answered UR.
//
// TC and attributes (2.2.6.4-2.2.6.6): every MRd / MWr piece carries the
// Traffic Class of the SMFU_RD / SMFU_WR (net_smfu_ext_t in its route
// field), Relaxed Ordering only while cfg_ro_en (Device Control Enable
// Relaxed Ordering, 7.5.3.4) and No Snoop only while cfg_ns_en (Enable No
// Snoop) of the side that issues them; ID-Based Ordering is never set (the
// NICs do not implement Device Control 2 IDO Request Enable, 7.5.3.16, and
// the re-issued TLPs all carry our requester ID). Notification entries are
// the NIC's own writes: TC 0, no attributes.
//
// Requests are served in arrival order, one TLP at a time, except that a
// read blocked on a tag (all NTAGS outstanding) or on the MRRS pieces of an
// earlier read is parked in a one-entry non-posted queue and the posted
// writes behind it pass it (2.4.1, table 2-40); it issues once it can, and
// it never passes an earlier write (those were issued before it parked).
// Write payload flits become payload beats one to one (no bubbles between
// packets). The input goes through a 2-entry skid buffer that keeps each
// flit with its header decode (issue 10, docs/smfu.md "Timing of the request
// path": +1 cycle per request, registered s_pkt_ready). MRd tags come from smfu_cpl2pkt (TAG_BASE .., or the 5-bit
// TAG_BASE >> 3 .. while cfg_ext_tag is clear).
//
// Max_Payload_Size (PCIe Base Spec. 2.2.2; Device Control 7.5.3.4, cfg_mps:
// the host NIC's own in MODE 1, the root port's in MODE 0): an SMFU_WR longer
// than the MPS (at most 64 dwords; only MPS 128 B is smaller) leaves as
// several MWr of MPS bytes each, counted from its start (the cut falls on a
// payload beat boundary: no realignment, one header beat inserted per MWr).
// The pieces stay inside the write's 4 KiB page (2.2.7). Byte enables: the
// first dword's in the first MWr, the last dword's in the last (a 1-dword
// last piece carries them as its first BE, 2.2.5). ev_wr_done fires once per
// SMFU_WR, on the last MWr's eop.
//
// Max_Read_Request_Size (7.5.3.4, cfg_mrrs; only 128 B is below the 64-dword
// network read): a longer SMFU_RD leaves as MRd pieces one after the other:
// the first ends at the last 128-byte boundary within 128 B of its start (so
// every piece but the last ends at an RCB boundary of any completer, 2.3.1.1), the next ones
// are 128 B; the next piece is issued when the previous one's last
// completion has been sent (smfu_cpl2pkt ev_piece_done), so the SMFU_CPLs of
// one network read stay in address order; their byte counts include the
// later pieces (alloc_add), so the requester sees one read. An error ends
// it (ev_piece_err). One such read at a time: a second one parks (above)
// until the first's last piece has been issued.

`default_nettype none
`include "tlp_stream.svh"

module smfu_in
#(
  parameter int         MODE     = 0,      // 0: ingress (intervals), 1: pass-through receiver + notify
  parameter int         NIVL     = 16,     // ingress intervals (MODE 0), 1..16
  parameter int         NTAGS    = 16,     // outstanding MRd
  parameter logic [7:0] TAG_BASE = 8'h80   // first MRd tag (multiple of NTAGS)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic [15:0]           cfg_node_id,    // this node (packet src)
  input  wire logic [15:0]           cfg_req_id,     // requester ID of our MRd/MWr
  input  wire logic                  cfg_bus_master, // MODE 1: Command.BusMasterEnable
  input  wire logic                  cfg_ro_en,      // Device Control Enable Relaxed Ordering (issuing side)
  input  wire logic                  cfg_ns_en,      // Device Control Enable No Snoop (issuing side)
  input  wire logic                  cfg_ext_tag,    // Device Control Extended Tag Field Enable (issuing side)
  input  wire logic [NIVL-1:0][63:0] cfg_in_base,    // MODE 0: address of offset 0 of interval i
  input  wire logic [1:0][63:0]      cfg_fwd_base,   // MODE 0: first byte of the root port's windows
  input  wire logic [1:0][63:0]      cfg_fwd_limit,  // MODE 0: last byte (a window with base > limit is off)
  input  wire logic [63:0]           cfg_win_base,   // MODE 1: notification window base
  input  wire logic [63:0]           cfg_win_size,   // MODE 1: notification window size (bytes)
  input  wire logic [15:0]           cfg_timeout,    // MRd completion timeout: 1..2 epochs of 64-cycle units (0: 4096)
  input  wire logic [2:0]            cfg_mps,        // Device Control Max_Payload_Size of the link the
                                                     // MWr go to (0: 128 B, >= 1: no split of <= 256 B)
  input  wire logic [2:0]            cfg_mrrs,       // Max_Read_Request_Size for our MRd (0: 128 B pieces)
  input  wire logic                  cpl_flush,      // rising: answer every outstanding MRd CA (SBR)

  // ---------------- notification ring (MODE 1, nq_ring) ----------------
  input  wire logic                  nq_ready,
  input  wire logic                  nq_off,         // ring disabled: events are dropped
  input  wire logic [63:0]           nq_addr,
  input  wire logic                  nq_phase,
  output      logic                  nq_push,
  output      logic                  nq_stall,

  // ---------------- request packets in (SMFU_RD / SMFU_WR) ----------------
  input  wire logic [127:0]          s_pkt_data,
  input  wire logic                  s_pkt_last,
  input  wire logic                  s_pkt_valid,
  output      logic                  s_pkt_ready,

  // ---------------- request TLPs out (MRd / MWr) ----------------
  `TLP_M_PORTS(m_tlp),

  // ---------------- completion TLPs in (for our MRd tags) ----------------
  `TLP_S_PORTS(s_cpl),

  // ---------------- completion packets out (SMFU_CPL) ----------------
  output      logic [127:0]          m_pkt_data,
  output      logic                  m_pkt_last,
  output      logic                  m_pkt_valid,
  input  wire logic                  m_pkt_ready,

  // ---------------- events (one pulse each) ----------------
  output      logic                  ev_req,         // request executed (TLP issued / notification)
  output      logic                  ev_refused,     // request refused (UR / dropped)
  output      logic                  ev_fwd_refused, // MODE 0: ... because of the checks above (not forwardable)
  output      logic                  ev_cpl_drop,    // completion for no outstanding MRd dropped
  output      logic                  ev_cpl_tmo,     // outstanding MRd answered CA (timeout / flush)
  output      logic                  ev_wr_done      // an SMFU_WR is retired: its MWr / entry eop
                                                     // left m_tlp, or it was dropped (ordering)
);

  `include "pcie_tlp_func.svh"
  `include "smfu_func.svh"

  // ------------------------------------------------------------------
  // Decode of a header flit, done as it enters the input stage (below):
  // interval, address, the forwarding checks, the notification window
  // ------------------------------------------------------------------
  typedef struct packed {
    logic        is_wr, is_rd;
    logic        ok;              // may be issued (interval known, checks passed / bus master)
    logic        in_win;          // MODE 1: a write into the notification window
    logic        fwd_ref;         // MODE 0: refused by the forwarding checks (ev_fwd_refused)
    logic [63:0] addr;
    logic [31:0] woff;            // MODE 1: offset in the notification window
    logic [6:0]  len;
    logic [2:0]  tc, attr;        // TC and attributes of the TLP to issue
  } dec_t;

  net_pkg::net_hdr_t      h_n;
  net_pkg::net_cmd_smfu_t c_n;
  net_pkg::net_smfu_ext_t x_n;
  dec_t                   dn;
  logic                   fwd_ok;
  logic [63:0]            woff_n, base, alast;
  logic [38:0]            span;           // MODE 0: offset of the last byte from the base

  always_comb begin
    h_n     = s_pkt_data;
    c_n     = h_n.cmd;
    // the request's TC/attributes: in the route field of a table-routed packet
    x_n     = (h_n.rmode == net_pkg::NET_RMODE_TABLE) ? net_pkg::net_smfu_ext_t'(h_n.route) : '0;
    dn      = '0;
    dn.tc   = x_n.tc;
    dn.attr = {1'b0, x_n.attr[1] & cfg_ro_en, x_n.attr[0] & cfg_ns_en};
    dn.is_wr = h_n.ptype == net_pkg::NET_TYPE_SMFU_WR;
    dn.is_rd = h_n.ptype == net_pkg::NET_TYPE_SMFU_RD;
    dn.len  = {1'b0, c_n.len_m1} + 7'd1;
    woff_n  = '0;
    base    = '0;
    alast   = '0;
    span    = '0;
    fwd_ok  = 1'b1;
    if (MODE == 0) begin
      // interval i: in_base[i] + offset; pass-through form (interval ids
      // 32..63, the RMA unit's requests, docs/rma.md): the full address
      // {ivl[4:0], off_dw, 2'b00}, base 0. Both must lie in a window.
      // (as one base for both: {ivl[4:0], 38'd0} for the pass-through form;
      // the last byte from the base and offset + length - 1, beside the first
      // byte's sum rather than behind it)
      base    = c_n.ivl[5] ? {21'd0, c_n.ivl[4:0], 38'd0} : cfg_in_base[c_n.ivl[3:0]];
      span    = {1'b0, c_n.off_dw, 2'b00} + {30'd0, dn.len, 2'b00} - 39'd1;
      dn.addr = base + {26'd0, c_n.off_dw, 2'b00};
      alast   = base + {25'd0, span};
      fwd_ok  = base[11:0] == 12'd0 && dn.addr >= base && alast >= dn.addr &&
                ((dn.addr >= cfg_fwd_base[0] && alast <= cfg_fwd_limit[0]) ||
                 (dn.addr >= cfg_fwd_base[1] && alast <= cfg_fwd_limit[1]));
      dn.ok      = (c_n.ivl < 6'(NIVL) || c_n.ivl[5]) && fwd_ok;
      dn.fwd_ref = (c_n.ivl < 6'(NIVL) || c_n.ivl[5]) && !fwd_ok;
    end else begin
      dn.ok     = c_n.ivl[5] && cfg_bus_master;
      dn.addr   = {21'd0, c_n.ivl[4:0], c_n.off_dw, 2'b00};
      woff_n    = dn.addr - cfg_win_base;
      dn.in_win = woff_n < cfg_win_size;
      dn.woff   = woff_n[31:0];
    end
  end

  // ------------------------------------------------------------------
  // Input stage (issue 10): a 2-entry skid buffer holding each flit with its
  // decode (dn; meaningful for a header flit), so that the decode and the
  // sequencer below are in different cycles; s_pkt_ready is a register (not
  // full). +1 cycle per request, no bubble between flits or packets. Entry 0
  // is the flit the sequencer sees (p_*, dq), entry 1 one taken while it
  // waited. The configuration a header is decoded with is the one of the
  // cycle it enters.
  // ------------------------------------------------------------------
  logic [127:0] p_data;
  logic         p_last, p_valid, p_ready;
  dec_t         dq;

  skid_buf #(.W (128 + 1 + $bits(dn))) u_in_skid (
    .clk, .rst,
    .s_data ({s_pkt_last, dn, s_pkt_data}), .s_valid (s_pkt_valid), .s_ready (s_pkt_ready),
    .m_data ({p_last, dq, p_data}), .m_valid (p_valid), .m_ready (p_ready)
  );

  // the header at the head of the input stage
  net_pkg::net_hdr_t      h;
  net_pkg::net_cmd_smfu_t c;
  logic        is_wr, is_rd, ok, in_win;
  logic [63:0] addr;
  logic [6:0]  len;
  logic [2:0]  i_tc, i_attr;      // TC and attributes of the TLP to issue
  always_comb begin
    h      = p_data;
    c      = h.cmd;
    is_wr  = dq.is_wr;
    is_rd  = dq.is_rd;
    ok     = dq.ok;
    in_win = dq.in_win;
    addr   = dq.addr;
    len    = dq.len;
    i_tc   = dq.tc;
    i_attr = dq.attr;
  end

  // ------------------------------------------------------------------
  // Request sequencer
  // ------------------------------------------------------------------
  typedef enum logic [2:0] { R_HDR, R_PL, R_DROP, R_NQ_DATA, R_NQ_WAIT, R_NQ_PL, R_PHDR } rstate_e;
  rstate_e state_q;

  logic [127:0] o_data_q;
  logic [3:0]   o_keep_q;
  logic         o_sop_q, o_eop_q, o_valid_q, o_free;
  logic         o_fin_q;             // the beat ends the SMFU_WR (not just one MWr piece)
  logic [6:0]   dw_left_q;           // dwords of the SMFU_WR still to send
  logic [6:0]   pc_left_q;           // dwords of the current MWr piece still to send
  logic [63:0]  pc_addr_q;           // address of the next piece
  logic [3:0]   lbe_q;               // last BE of the SMFU_WR
  logic [2:0]   w_tc_q, w_attr_q;    // TC / attributes of its MWr pieces

  // MWr piece length (dwords): MPS 128 B -> 32, otherwise the whole SMFU_WR
  logic [6:0]   mps_dw;
  assign mps_dw = (cfg_mps == 3'd0) ? 7'd32 : 7'd64;
  // the next piece (R_PHDR): its length and byte enables
  logic [6:0]   np_len;
  logic [3:0]   np_fbe, np_lbe;
  always_comb begin
    np_len = (dw_left_q > mps_dw) ? mps_dw : dw_left_q;
    np_fbe = (np_len == 7'd1) ? lbe_q : 4'hf;
    np_lbe = (np_len == 7'd1) ? 4'h0 : (np_len == dw_left_q) ? lbe_q : 4'hf;
  end
  // this payload beat ends the piece but not the write
  logic         pl_cut;
  assign pl_cut = pc_left_q <= 7'd4 && dw_left_q > 7'd4;

  // A read that cannot issue because all tags are outstanding or another
  // read is still being issued in MRRS pieces is parked in pk_q (a
  // one-entry non-posted queue) and the input moves on: the posted writes
  // behind it pass it (PCIe 2.4.1, table 2-40: a posted request must be
  // able to pass a non-posted one). Every write that arrived before the
  // parked read was issued before it parked (the path is in order), so it
  // issues as soon as a tag (and the piece sequencer) is free, between two
  // TLPs. While a read is parked, a further read waits at the input.
  //
  // rd_req_t: what an MRd and its later pieces need of a read
  typedef struct packed {
    logic [63:0] addr;
    logic [6:0]  len;
    logic [3:0]  fbe, lbe;
    logic [2:0]  tc, attr;
    logic [15:0] node;                 // requester node and network tag (completions)
    logic [7:0]  ntag;
  } rd_req_t;
  rd_req_t      in_rd;                 // the read at the input
  rd_req_t      pk_q;                  // the parked read (valid: pk_v_q)
  rd_req_t      rd;                    // the read being decided: the parked one if any
  logic         pk_v_q;
  always_comb begin
    in_rd      = '0;
    in_rd.addr = addr;
    in_rd.len  = len;
    in_rd.fbe  = c.fbe;
    in_rd.lbe  = c.lbe;
    in_rd.tc   = i_tc;
    in_rd.attr = i_attr;
    in_rd.node = h.src;
    in_rd.ntag = c.tag;
    rd         = pk_v_q ? pk_q : in_rd;
  end

  // MRd pieces (MRRS): the first one at the input, the next ones from cont_*
  logic [6:0]   mrrs_dw, r1_len, r2_len, n_len, n_rem;
  logic         rd_split;
  logic [3:0]   r2_fbe, r2_lbe, n_fbe, n_lbe, nr_fbe, nr_lbe;
  logic [11:0]  r2_bc, nr_bc;
  logic         cont_v_q, cont_go_q;
  logic [63:0]  cont_addr_q;
  logic [6:0]   cont_len_q;
  logic [3:0]   cont_lbe_q;
  logic [15:0]  cont_node_q;
  logic [2:0]   cont_tc_q, cont_attr_q;
  logic [7:0]   cont_ntag_q;
  logic         go_cont, ev_piece_done, ev_piece_err;
  assign mrrs_dw = (cfg_mrrs == 3'd0) ? 7'd32 : 7'd64;
  always_comb begin
    rd_split = rd.len > mrrs_dw;
    r1_len   = rd_split ? mrrs_dw - {2'd0, rd.addr[6:2]} : rd.len;
    r2_len   = rd.len - r1_len;
    r2_fbe   = (r2_len == 7'd1) ? rd.lbe : 4'hf;
    r2_lbe   = (r2_len == 7'd1) ? 4'h0 : rd.lbe;
    r2_bc    = tlp_mrd_byte_count({4'd0, r2_len}, r2_fbe, r2_lbe);
    n_len    = (cont_len_q > mrrs_dw) ? mrrs_dw : cont_len_q;
    n_fbe    = (n_len == 7'd1) ? cont_lbe_q : 4'hf;
    n_lbe    = (n_len == 7'd1) ? 4'h0 : (n_len == cont_len_q) ? cont_lbe_q : 4'hf;
    n_rem    = cont_len_q - n_len;
    nr_fbe   = (n_rem == 7'd1) ? cont_lbe_q : 4'hf;
    nr_lbe   = (n_rem == 7'd1) ? 4'h0 : cont_lbe_q;
    nr_bc    = (n_rem == 7'd0) ? 12'd0 : tlp_mrd_byte_count({4'd0, n_rem}, nr_fbe, nr_lbe);
  end

  assign o_free      = !o_valid_q || m_tlp_ready;
  assign m_tlp_data  = o_data_q;
  assign m_tlp_keep  = o_keep_q;
  assign m_tlp_sop   = o_sop_q;
  assign m_tlp_eop   = o_eop_q;
  assign m_tlp_valid = o_valid_q;

  // notification event being built
  logic [31:0] nq_data_q, nq_off_q;
  logic [15:0] nq_src_q;
  net_pkg::nq_ent_t nq_ent;    // the entry's 16 bytes (hw/gen/gen_net.py)
  always_comb begin
    nq_ent        = '0;
    nq_ent.data   = nq_data_q;
    nq_ent.offset = nq_off_q;
    nq_ent.node   = nq_src_q;
    nq_ent.phase  = nq_phase;
  end
  logic        nq_got_q, nq_stalled_q;

  logic       alloc_ready, alloc_valid, ur_valid, ur_ready;
  logic [7:0] alloc_tag;
  logic       hdr_in, go_wr, go_nq, go_rd, go_ur, go_drop;
  logic       rd_blocked;    // the read being decided (rd) waits for a tag or an earlier read's pieces
  logic       rd_can;        // ... and may issue now
  logic       go_prd;        // the parked read issues
  logic       go_park;       // a read from the input parks
  logic       wr_ret;        // the last beat of a write's last MWr / entry leaves m_tlp

  // the next MRd piece goes first, between TLPs
  assign go_cont = state_q == R_HDR && cont_v_q && cont_go_q && o_free && alloc_ready;
  assign rd_blocked = !alloc_ready || (rd_split && cont_v_q);
  assign rd_can  = o_free && !rd_blocked;
  assign go_prd  = state_q == R_HDR && pk_v_q && !(cont_v_q && cont_go_q) && rd_can;
  assign hdr_in  = state_q == R_HDR && p_valid && !(cont_v_q && cont_go_q) && !go_prd;
  assign go_wr   = hdr_in && is_wr && ok && !in_win && o_free;
  assign go_nq   = hdr_in && is_wr && ok && in_win;
  assign go_rd   = hdr_in && is_rd && ok && !pk_v_q && rd_can;
  // parked only when blocked on a tag or on the pieces of an earlier read
  // (not on the output register: the writes behind could not go either)
  assign go_park = hdr_in && is_rd && ok && !pk_v_q && rd_blocked;
  assign go_ur   = hdr_in && is_rd && !ok && ur_ready;
  // a write is dropped only in a cycle in which no MWr retires at m_tlp:
  // ev_wr_done is one pulse per cycle (smfu_cpl_order counts it), two
  // retirements in one cycle would lose one and hold every later completion
  assign go_drop = hdr_in && !(is_rd || (is_wr && ok)) && !(is_wr && wr_ret);
  assign ur_valid    = hdr_in && is_rd && !ok;
  assign alloc_valid = go_rd || go_prd || go_cont;

  always_comb begin
    case (state_q)
      R_HDR:     p_ready = go_wr || go_nq || go_rd || go_park || go_ur || go_drop;
      R_PL:      p_ready = o_free;
      R_PHDR:    p_ready = 1'b0;
      R_NQ_WAIT: p_ready = 1'b0;
      R_NQ_PL:   p_ready = 1'b0;
      default:   p_ready = 1'b1;   // R_DROP, R_NQ_DATA
    endcase
  end

  logic nq_emit_hdr, nq_emit_pl, nq_drop;
  // o_nq_q: the TLP in the output register is a notification entry; the
  // next entry's header waits until the previous one has left and nq_ring
  // has advanced its address
  logic o_nq_q;
  assign nq_emit_hdr = state_q == R_NQ_WAIT && nq_ready && o_free && !(o_valid_q && o_nq_q);
  assign nq_emit_pl  = state_q == R_NQ_PL && o_free;
  // a disabled ring drops the event (the producer stands still); a full
  // enabled ring holds it back
  assign nq_drop     = state_q == R_NQ_WAIT && nq_off && !wr_ret;
  assign nq_push     = o_valid_q && m_tlp_ready && o_eop_q && o_nq_q;
  assign nq_stall    = state_q == R_NQ_WAIT && !nq_ready && !nq_off && !nq_stalled_q;

  assign ev_req     = go_wr || go_nq || go_rd || go_prd;
  assign ev_refused = go_ur || (go_drop && (is_wr || is_rd)) || nq_drop;
  assign ev_fwd_refused = (MODE == 0) && (go_ur || (go_drop && is_wr)) && dq.fwd_ref;

  // write retirement for the completion ordering of the caller: the TLP
  // being presented is a write (MWr or notification entry)
  logic o_wr_q;
  always_ff @(posedge clk) begin
    if (rst)                          o_wr_q <= 1'b0;
    else if (go_wr || nq_emit_hdr)    o_wr_q <= 1'b1;
    else if (go_rd || go_prd || go_cont) o_wr_q <= 1'b0;
    if (rst)                          o_nq_q <= 1'b0;
    else if (nq_emit_hdr)             o_nq_q <= 1'b1;
    else if (go_wr || go_rd || go_prd || go_cont) o_nq_q <= 1'b0;
  end

  // the parked read
  always_ff @(posedge clk) begin
    if (rst)          pk_v_q <= 1'b0;
    else if (go_park) pk_v_q <= 1'b1;
    else if (go_prd)  pk_v_q <= 1'b0;
    if (go_park) pk_q <= in_rd;
  end

  // the read being issued in pieces
  always_ff @(posedge clk) begin
    if (rst) begin
      cont_v_q  <= 1'b0;
      cont_go_q <= 1'b0;
    end else begin
      if ((go_rd || go_prd) && rd_split) begin
        cont_v_q    <= 1'b1;
        cont_go_q   <= 1'b0;
        cont_addr_q <= rd.addr + {55'd0, r1_len, 2'b00};
        cont_len_q  <= r2_len;
        cont_lbe_q  <= rd.lbe;
        cont_node_q <= rd.node;
        cont_tc_q   <= rd.tc;
        cont_attr_q <= rd.attr;
        cont_ntag_q <= rd.ntag;
      end
      if (go_cont) begin
        cont_go_q   <= 1'b0;
        cont_v_q    <= n_rem != 7'd0;
        cont_addr_q <= cont_addr_q + {55'd0, n_len, 2'b00};
        cont_len_q  <= n_rem;
      end
      if (ev_piece_done) cont_go_q <= 1'b1;
      if (ev_piece_err) begin
        cont_v_q  <= 1'b0;
        cont_go_q <= 1'b0;
      end
    end
  end
  assign wr_ret     = o_valid_q && m_tlp_ready && o_eop_q && o_fin_q && o_wr_q;
  assign ev_wr_done = wr_ret || (go_drop && is_wr) || nq_drop;

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q   <= R_HDR;
      o_valid_q <= 1'b0;
    end else begin
      if (m_tlp_ready) o_valid_q <= 1'b0;
      case (state_q)
        R_HDR: begin
          if (go_wr || go_rd || go_prd || go_cont) o_valid_q <= 1'b1;
          if (go_nq) begin
            state_q <= R_NQ_DATA;
          end else if ((go_wr || go_drop || go_ur) && !p_last) begin
            state_q <= go_wr ? R_PL : R_DROP;
          end
        end
        R_PL: begin
          if (p_valid && o_free) begin
            o_valid_q <= 1'b1;
            if (p_last) begin
              state_q <= R_HDR;
            end else if (pl_cut) begin
              state_q <= R_PHDR;
            end
          end
        end
        R_PHDR: begin
          if (o_free) begin
            o_valid_q <= 1'b1;
            state_q   <= R_PL;
          end
        end
        R_NQ_DATA: if (p_valid && p_last) state_q <= R_NQ_WAIT;
        R_NQ_WAIT: begin
          if (nq_drop) begin
            state_q <= R_HDR;
          end else if (nq_emit_hdr) begin
            o_valid_q <= 1'b1;
            state_q   <= R_NQ_PL;
          end
        end
        R_NQ_PL: begin
          if (nq_emit_pl) begin
            o_valid_q <= 1'b1;
            state_q   <= R_HDR;
          end
        end
        default: if (p_valid && p_last) state_q <= R_HDR;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (go_wr) begin
      // the first piece: up to the MPS
      o_data_q  <= tlp_set_tc_attr(tlp_mem_hdr(1'b1, addr, {3'd0, (len > mps_dw) ? mps_dw : len}, cfg_req_id,
                                           8'd0, c.fbe, (len > mps_dw) ? 4'hf : c.lbe), i_tc, i_attr);
      o_keep_q  <= tlp_mem_hdr_keep(addr);
      o_sop_q   <= 1'b1;
      o_eop_q   <= 1'b0;
      o_fin_q   <= 1'b0;
      dw_left_q <= len;
      pc_left_q <= (len > mps_dw) ? mps_dw : len;
      pc_addr_q <= addr + {55'd0, mps_dw, 2'b00};
      lbe_q     <= c.lbe;
      w_tc_q    <= i_tc;
      w_attr_q  <= i_attr;
    end else if (state_q == R_PHDR && o_free) begin
      o_data_q  <= tlp_set_tc_attr(tlp_mem_hdr(1'b1, pc_addr_q, {3'd0, np_len}, cfg_req_id, 8'd0, np_fbe, np_lbe),
                                   w_tc_q, w_attr_q);
      o_keep_q  <= tlp_mem_hdr_keep(pc_addr_q);
      o_sop_q   <= 1'b1;
      o_eop_q   <= 1'b0;
      o_fin_q   <= 1'b0;
      pc_left_q <= np_len;
      pc_addr_q <= pc_addr_q + {55'd0, mps_dw, 2'b00};
    end else if (go_cont) begin
      o_data_q  <= tlp_set_tc_attr(tlp_mem_hdr(1'b0, cont_addr_q, {3'd0, n_len}, cfg_req_id, alloc_tag, n_fbe,
                                               n_lbe), cont_tc_q, cont_attr_q);
      o_keep_q  <= tlp_mem_hdr_keep(cont_addr_q);
      o_sop_q   <= 1'b1;
      o_eop_q   <= 1'b1;
    end else if (go_rd || go_prd) begin
      o_data_q  <= tlp_set_tc_attr(tlp_mem_hdr(1'b0, rd.addr, {3'd0, r1_len}, cfg_req_id, alloc_tag, rd.fbe,
                                           !rd_split ? rd.lbe : (r1_len == 7'd1) ? 4'h0 : 4'hf), rd.tc, rd.attr);
      o_keep_q  <= tlp_mem_hdr_keep(rd.addr);
      o_sop_q   <= 1'b1;
      o_eop_q   <= 1'b1;
    end else if (state_q == R_PL && p_valid && o_free) begin
      o_data_q  <= smfu_mask(p_data, smfu_keep(pc_left_q));
      o_keep_q  <= smfu_keep(pc_left_q);
      o_sop_q   <= 1'b0;
      o_eop_q   <= p_last || pl_cut;
      o_fin_q   <= p_last;
      dw_left_q <= dw_left_q - 7'd4;
      pc_left_q <= pc_left_q - 7'd4;
    end else if (nq_emit_hdr) begin
      o_data_q  <= tlp_mem_hdr(1'b1, nq_addr, 10'd4, cfg_req_id, 8'd0, 4'hf, 4'hf);
      o_keep_q  <= tlp_mem_hdr_keep(nq_addr);
      o_sop_q   <= 1'b1;
      o_eop_q   <= 1'b0;
      o_fin_q   <= 1'b0;
    end else if (nq_emit_pl) begin
      o_data_q  <= nq_ent;
      o_keep_q  <= 4'b1111;
      o_sop_q   <= 1'b0;
      o_eop_q   <= 1'b1;
      o_fin_q   <= 1'b1;
    end
    // notification event capture
    if (go_nq) begin
      nq_off_q     <= dq.woff;
      nq_src_q     <= h.src;
      nq_got_q     <= 1'b0;
      nq_stalled_q <= 1'b0;
    end
    if (state_q == R_NQ_DATA && p_valid && !nq_got_q) begin
      nq_data_q <= p_data[31:0];
      nq_got_q  <= 1'b1;
    end
    if (nq_stall) nq_stalled_q <= 1'b1;
  end

  // ------------------------------------------------------------------
  // Completions of our MRd -> SMFU_CPL
  // ------------------------------------------------------------------
  smfu_cpl2pkt #(.NTAGS(NTAGS), .TAG_BASE(TAG_BASE)) u_cpl (
    .clk, .rst,
    .cfg_node_id,
    .cfg_timeout,
    .cfg_ext_tag,
    .flush       (cpl_flush),
    .alloc_ready,
    .alloc_valid,
    .alloc_tag,
    .alloc_node  (go_cont ? cont_node_q : rd.node),
    .alloc_ntag  (go_cont ? cont_ntag_q : rd.ntag),
    .alloc_add   (go_cont ? {1'b0, nr_bc} : (rd_split ? {1'b0, r2_bc} : 13'd0)),
    .ur_valid,
    .ur_ready,
    .ur_node     (h.src),
    .ur_ntag     (c.tag),
    `TLP_CONNECT(s_tlp, s_cpl),
    .m_pkt_data,
    .m_pkt_last,
    .m_pkt_valid,
    .m_pkt_ready,
    .ev_drop     (ev_cpl_drop),
    .ev_timeout  (ev_cpl_tmo),
    .ev_piece_done,
    .ev_piece_err
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{woff_n[63:32], cfg_in_base, cfg_win_base, cfg_win_size, cfg_bus_master,
                    cfg_fwd_base, cfg_fwd_limit, x_n.rsvd0, x_n.wcnt, x_n.winj, x_n.attr[2], h_n.plen, h_n.vc,
                    h_n.dst, h_n.src, c_n.fbe, c_n.lbe, c_n.tag, h.plen, h.vc, h.dst, h.ptype, h.rmode, h.route,
                    c.ivl, c.off_dw, c.len_m1};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
