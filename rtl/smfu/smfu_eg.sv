// SPDX-License-Identifier: Apache-2.0
//
// smfu_eg: memory requests (TLP stream) -> SMFU_RD / SMFU_WR packets, and the
// completions of those reads back as TLPs (docs/smfu.md). Two uses:
//
//   MODE 0  egress of the host NIC (endpoint role). Input: the requests that
//           hit the aperture BAR. A request whose first dword is at or above
//           eg_start[i] and whose last dword is at or below eg_end[i] (dword
//           granularity, interval valid, lowest i wins) is a hit: a packet to
//           eg_node[i] with interval id i and dword offset (address -
//           eg_start[i]) >> 2. Misses, writes longer than 64 dwords and
//           reads crossing a 4 KiB boundary: reads complete with UR, writes
//           are dropped; both count (ev_miss).
//           Remote reads time out (cfg_timeout x 256 cycles) with a CA.
//           An interval is used only if its offsets fit the packet and its
//           translation keeps 4 KiB pages whole (issue 8, row 8): its size
//           (eg_end - eg_start + 1) is at most 256 GiB (the 36-bit dword
//           offset of SMFU_RD/WR) and eg_start is 4 KiB aligned (so, with the
//           NAA's 4 KiB-aligned in_base, a request that does not cross a
//           4 KiB boundary here does not cross one at the device: PCIe Base
//           Spec. 2.2.7). A request that hits an interval violating either is
//           refused like a miss (never sent with a truncated offset).
//   MODE 1  pass-through sender of the NAA NIC (root-port role). Input: the
//           memory requests the device sends upstream. With cfg_passthru set
//           they go to cfg_up_node unaltered: interval id {1, addr[42:38]},
//           offset addr[37:2]. Reads of a disabled pass-through, addresses at
//           or above 8 TiB or crossing a 4 KiB boundary (2.2.7) get UR, such
//           writes are dropped. Reads time out too (cfg_timeout x 256 cycles,
//           CA to the device): a lost completion frees its tag (PCIe 2.8).
//
// Both modes: reads of any length the requester's Max_Read_Request_Size
// allows (up to 4096 B, 7.5.3.4) are split into network reads ("chunks") of
// at most CH = min(256 B, cfg_mps) bytes, cfg_mps being the MPS of the link
// the completions go to (MODE 0 the host's, MODE 1 the device's): a read that
// fits in CH goes whole; a longer one is cut at RCB boundaries (2.3.1.1:
// 128 B in MODE 0, where the NIC is an endpoint completer; 64 B in MODE 1,
// the root port's RCB): the first chunk ends at the last RCB boundary within
// CH of its start, the next ones are CH long from there. Every chunk thus
// ends at an RCB boundary (so each completion the requester gets, one per
// SMFU_CPL, ends at one too, as 2.3.1.1 requires of a partial completion,
// provided the far side splits at 128 B: smfu_in and conforming devices do),
// is <= the requester's MPS (2.2.2: no completion is larger than a chunk) and
// <= 64 dwords (the SMFU_RD length field), and stays inside the request's
// 4 KiB page. smfu_rd_cpl (SPLIT) links the chunks and delivers their
// completions in address order.
//
// Every SMFU_RD / SMFU_WR carries the request's Traffic Class and
// attributes (2.2.6.4-2.2.6.6) in its net_smfu_ext_t (smfu_req_flit), so
// the far side re-issues them; chunks of a split read carry those of the
// read.
//
// One TLP at a time onto one packet stream: a read never passes an earlier
// write. Write payload beats become payload flits one to one (header beat ->
// header flit in the same cycle, no bubbles between TLPs). Non-memory TLPs:
// non-posted ones get UR, posted ones are dropped.
//
// Non-posted queue (PCIe Base Spec. 2.4.1, table 2-40: posted requests and
// completions must be able to pass a blocked non-posted request): a read that
// finds no free tag is parked, decoded, in an NPQ-entry queue and the input
// moves on, so the writes behind it (and, upstream, the completions behind
// those on the same receive path: pcie_ep_rx, pcie_rp_dn) keep flowing.
// Parked reads leave in order, between TLPs, as soon as a tag is free; while
// any is parked, new reads queue behind it. Only a full queue stalls the
// input again (the NP receive credits of a hard IP bound the reads in flight
// the same way). A read that finds a tag and an empty queue goes at once (no
// added latency).

`default_nettype none
`include "tlp_stream.svh"

module smfu_eg
#(
  parameter int MODE  = 0,     // 0: aperture egress (intervals), 1: pass-through sender
  parameter int NIVL  = 16,    // egress intervals (MODE 0), 1..16
  parameter int NTAGS = 16,    // outstanding remote reads
  parameter int NPQ   = 4      // reads parked while no tag is free, or being split (power of two >= 2)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,          // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic [15:0]           cfg_node_id,  // this node (packet src)
  input  wire logic [15:0]           cfg_cpl_id,   // completer ID of our completions
  input  wire logic [15:0]           cfg_timeout,  // read timeout, 256-cycle units (0: 4096)
  input  wire logic [NIVL-1:0][63:0] cfg_eg_start, // MODE 0: first byte of interval i
  input  wire logic [NIVL-1:0][63:0] cfg_eg_end,   // MODE 0: last byte of interval i
  input  wire logic [NIVL-1:0]       cfg_eg_valid, // MODE 0: interval i valid
  input  wire logic [NIVL-1:0][15:0] cfg_eg_node,  // MODE 0: target node of interval i
  input  wire logic                  cfg_passthru, // MODE 1: pass-through enabled
  input  wire logic [15:0]           cfg_up_node,  // MODE 1: the host's node
  input  wire logic [2:0]            cfg_mps,      // Device Control Max_Payload_Size of the link the
                                                   // completions go to (MODE 0: the endpoint's, MODE 1:
                                                   // the root port's; 0: 128 B, >= 1: 256 B chunks)

  // ---------------- memory requests in (TLP stream) ----------------
  `TLP_S_PORTS(s_req),

  // ---------------- request packets out (SMFU_RD / SMFU_WR) ----------------
  output      logic [127:0]          m_pkt_data,
  output      logic                  m_pkt_last,
  output      logic                  m_pkt_valid,
  input  wire logic                  m_pkt_ready,

  // ---------------- completion packets in (SMFU_CPL) ----------------
  input  wire logic [127:0]          s_cpl_data,
  input  wire logic                  s_cpl_last,
  input  wire logic                  s_cpl_valid,
  output      logic                  s_cpl_ready,

  // ---------------- completion TLPs out (to the requester) ----------------
  `TLP_M_PORTS(m_cpl),

  // ---------------- events (one pulse each) ----------------
  output      logic                  ev_hit,       // request sent as a packet
  output      logic                  ev_miss,      // request refused (UR / dropped)
  output      logic                  ev_timeout,   // read answered CA after the timeout
  output      logic                  ev_late       // completion for no outstanding read dropped
);

  `include "pcie_tlp_func.svh"
  `include "smfu_func.svh"

  // ------------------------------------------------------------------
  // Decode of the header beat at the input
  // ------------------------------------------------------------------
  pcie_tlp_pkg::tlp_req_t r;
  logic             is_mem, is_wr, nonposted, len_ok, hit, single;
  /* verilator lint_off UNUSEDSIGNAL */  // low bits / beyond 256 GiB
  logic [63:0]      addr_last, off;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NIVL-1:0]  ivl_hit, ivl_ok;
  logic [3:0]       hidx;
  logic [15:0]      dst;
  logic [5:0]       ivl;
  logic [35:0]      off_dw;

  always_comb begin
    r         = tlp_req_decode(s_req_data);
    is_mem    = !r.fmt[2] && r.typ == pcie_tlp_pkg::TYPE_MEM;
    is_wr     = r.fmt[1];
    nonposted = !r.fmt[1];
    // writes <= 64 dwords (MPS <= 256 B: one SMFU_WR), reads of any length
    // inside one 4 KiB page (2.2.7)
    len_ok    = r.fmt[1] ? (r.len <= 11'd64) : ({1'b0, r.addr[11:2]} + r.len <= 11'd1024);
    // one network read (no split): when it fits in a chunk
    single    = r.len <= {4'd0, ch_dw};
    addr_last = r.addr + {51'd0, r.len - 11'd1, 2'b00};
    hidx      = '0;
    hit       = 1'b0;
    off       = '0;
    dst       = cfg_up_node;
    ivl       = '0;
    off_dw    = '0;
    ivl_hit   = '0;
    ivl_ok    = '0;
    // Only a valid header beat is decoded (every use is qualified by
    // s_req_valid): an idle input costs a Verilated model no comparator work.
    if (!s_req_valid) begin
      hit = 1'b0;
    end else if (MODE == 0) begin
      for (int i = NIVL - 1; i >= 0; i--) begin
        // representable (size <= 2^38 bytes: end - start < 2^38) and 4 KiB aligned
        ivl_ok[i]  = cfg_eg_start[i][11:0] == 12'd0 &&
                     (cfg_eg_end[i] - cfg_eg_start[i]) < 64'h40_0000_0000;
        ivl_hit[i] = cfg_eg_valid[i] && ivl_ok[i] && r.addr[63:2] >= cfg_eg_start[i][63:2] &&
                     addr_last[63:2] <= cfg_eg_end[i][63:2];
        if (ivl_hit[i]) hidx = 4'(i);
      end
      hit    = |ivl_hit && is_mem && len_ok && !r.ep;
      off    = r.addr - {cfg_eg_start[hidx][63:2], 2'b00};
      dst    = cfg_eg_node[hidx];
      ivl    = {2'b00, hidx};
      off_dw = off[37:2];
    end else begin
      hit    = cfg_passthru && is_mem && len_ok && !r.ep && r.addr[63:43] == 21'd0;
      ivl    = {1'b1, r.addr[42:38]};
      off_dw = r.addr[37:2];
    end
  end

  // chunk size in dwords: min(256 B, MPS), 2.2.2; chunks end on RCB
  // boundaries (2.3.1.1: 128 B for an endpoint's completions, MODE 0; 64 B,
  // the root port's RCB, MODE 1)
  localparam logic [4:0] RCB_M = (MODE == 0) ? 5'd31 : 5'd15;
  logic [6:0] ch_dw;
  assign ch_dw = (cfg_mps == 3'd0) ? 7'd32 : 7'd64;

  net_pkg::net_cmd_smfu_t cmd;
  always_comb begin
    cmd        = '0;
    cmd.off_dw = off_dw;
    cmd.ivl    = ivl;
    cmd.fbe    = r.first_be;
    cmd.lbe    = r.last_be;
    cmd.len_m1 = 6'(r.len - 11'd1);
    cmd.tag    = 8'd0;
  end

  // ------------------------------------------------------------------
  // Request sequencer
  // ------------------------------------------------------------------
  typedef enum logic [1:0] { A_HDR, A_PL, A_DROP } astate_e;
  astate_e state_q;

  logic [127:0] o_data_q;
  logic         o_last_q, o_valid_q, o_free;
  assign o_free      = !o_valid_q || m_pkt_ready;
  assign m_pkt_data  = o_data_q;
  assign m_pkt_last  = o_last_q;
  assign m_pkt_valid = o_valid_q;

  logic       alloc_ready, alloc_valid, ur_valid, ur_ready;
  logic [7:0] alloc_ntag;
  logic       hdr_in, go_wr, go_rd, go_ur, go_drop, go_park, go_pop;

  // a parked read: destination, command (tag slot empty), its length and
  // what the completion needs (requester ID, tag, TC, attributes, lower
  // address, byte count)
  typedef struct packed {
    logic [15:0] dst;
    logic [55:0] cmd;
    logic [10:0] len;
    logic [15:0] req_id;
    logic [7:0]  tag;
    logic [2:0]  tc;
    logic [2:0]  attr;
    logic [6:0]  la;
    logic [11:0] bc;
  } npq_ent_t;
  localparam int NPQ_W = 16 + 56 + 11 + 16 + 8 + 3 + 3 + 7 + 12;  // bits of npq_ent_t (Yosys: no $bits of a type)
  npq_ent_t   q_in, q_out;
  logic       q_in_ready, q_valid;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [$clog2(NPQ):0] q_count;
  /* verilator lint_on UNUSEDSIGNAL */

  // ------------------------------------------------------------------
  // The read at the head of the queue, one chunk at a time (MODE 1 split)
  // ------------------------------------------------------------------
  net_pkg::net_cmd_smfu_t qc, ccmd;
  logic        hd_act_q;             // some chunks of the head read have left
  logic [35:0] hd_off_q, h_off;      // dword offset of the next chunk
  logic [10:0] hd_n_q, h_n;          // dwords left
  logic [12:0] hd_rem_q, h_rem;      // bytes left
  logic        c_last;
  logic [6:0]  c_len;
  logic [3:0]  c_fbe, c_lbe;
  logic [6:0]  c_la;
  logic [11:0] c_bc;
  logic [12:0] c_rest;
  always_comb begin
    qc     = {8'd0, q_out.cmd};
    h_off  = hd_act_q ? hd_off_q : qc.off_dw;
    h_n    = hd_act_q ? hd_n_q   : q_out.len;
    h_rem  = hd_act_q ? hd_rem_q : ((q_out.bc == 12'd0) ? 13'd4096 : {1'b0, q_out.bc});
    c_last = h_n <= {4'd0, ch_dw};
    // not the last: up to the last RCB boundary within a chunk of the start
    c_len  = c_last ? h_n[6:0] : ch_dw - {2'd0, h_off[4:0] & RCB_M};
    c_fbe  = !hd_act_q ? qc.fbe : (c_len == 7'd1) ? qc.lbe : 4'hf;
    c_lbe  = (c_len == 7'd1) ? 4'h0 : c_last ? qc.lbe : 4'hf;
    c_la   = !hd_act_q ? q_out.la : {h_off[4:0], 2'b00};
    c_bc   = tlp_mrd_byte_count({4'd0, c_len}, c_fbe, c_lbe);
    c_rest = h_rem - {1'b0, c_bc};
    ccmd        = qc;
    ccmd.off_dw = h_off;
    ccmd.fbe    = c_fbe;
    ccmd.lbe    = c_lbe;
    ccmd.len_m1 = 6'(c_len - 7'd1);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      hd_act_q <= 1'b0;
    end else if (go_pop) begin
      hd_act_q <= !c_last;
      hd_off_q <= h_off + 36'(c_len);
      hd_n_q   <= h_n - 11'(c_len);
      hd_rem_q <= c_rest;
    end
  end

  assign hdr_in  = state_q == A_HDR && s_req_valid && s_req_sop;
  // a parked read goes first, between TLPs, when a tag is free
  assign go_pop  = state_q == A_HDR && q_valid && alloc_ready && o_free;
  assign go_wr   = hdr_in && hit && is_wr && o_free && !go_pop;
  assign go_rd   = hdr_in && hit && !is_wr && single && o_free && alloc_ready && !q_valid;
  assign go_park = hdr_in && hit && !is_wr && !go_rd && q_in_ready;
  assign go_ur   = hdr_in && !hit && nonposted && ur_ready;
  assign go_drop = hdr_in && !hit && !nonposted;
  assign ur_valid    = hdr_in && !hit && nonposted;
  assign alloc_valid = go_rd || go_pop;

  always_comb begin
    q_in        = '0;
    q_in.dst    = dst;
    q_in.cmd    = cmd[55:0];
    q_in.len    = r.len;
    q_in.req_id = r.req_id;
    q_in.tag    = r.tag;
    q_in.tc     = r.tc;
    q_in.attr   = r.attr;
    q_in.la     = tlp_mrd_lower_addr(r.addr[6:2], r.first_be);
    q_in.bc     = tlp_mrd_byte_count(r.len, r.first_be, r.last_be);
  end

  sync_fifo #(.WIDTH(NPQ_W), .DEPTH(NPQ)) u_npq (
    .clk, .rst,
    .s_data  (q_in),
    .s_valid (go_park),
    .s_ready (q_in_ready),
    .m_data  (q_out),
    .m_valid (q_valid),
    .m_ready (go_pop && c_last),
    .count   (q_count)
  );

  always_comb begin
    case (state_q)
      A_HDR:   s_req_ready = !s_req_sop || go_wr || go_rd || go_park || go_ur || go_drop;
      A_PL:    s_req_ready = o_free;
      default: s_req_ready = 1'b1;
    endcase
  end

  assign ev_hit  = go_wr || go_rd || go_park;   // a parked read counts when accepted
  assign ev_miss = (go_ur || go_drop) && (MODE == 0 || is_mem);

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q   <= A_HDR;
      o_valid_q <= 1'b0;
    end else begin
      if (m_pkt_ready) o_valid_q <= 1'b0;
      case (state_q)
        A_HDR: begin
          if (go_wr || go_rd || go_pop) o_valid_q <= 1'b1;
          if ((go_wr || go_drop || go_ur) && !s_req_eop) begin
            state_q <= go_wr ? A_PL : A_DROP;
          end
        end
        A_PL: begin
          if (s_req_valid && o_free) begin
            o_valid_q <= 1'b1;
            if (s_req_eop) state_q <= A_HDR;
          end
        end
        default: begin
          if (s_req_valid && s_req_eop) state_q <= A_HDR;
        end
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (go_wr) begin
      o_data_q  <= smfu_req_flit(dst, cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_WR),
                                 5'((r.len + 11'd3) >> 2), cmd, r.tc, r.attr);
      o_last_q  <= 1'b0;
    end else if (go_rd) begin
      o_data_q  <= smfu_req_flit(dst, cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_RD), 5'd0,
                                 {alloc_ntag, cmd[55:0]}, r.tc, r.attr);
      o_last_q  <= 1'b1;
    end else if (go_pop) begin
      o_data_q  <= smfu_req_flit(q_out.dst, cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_RD), 5'd0,
                                 {alloc_ntag, ccmd[55:0]}, q_out.tc, q_out.attr);
      o_last_q  <= 1'b1;
    end else if (state_q == A_PL && s_req_valid && o_free) begin
      o_data_q  <= smfu_mask(s_req_data, s_req_keep);
      o_last_q  <= s_req_eop;
    end
  end

  // ------------------------------------------------------------------
  // Completions: tag table, timeout, UR
  // ------------------------------------------------------------------
  smfu_rd_cpl #(.NTAGS(NTAGS), .TMO_EN(1'b1), .SPLIT(1'b1)) u_cpl (
    .clk, .rst,
    .cfg_cpl_id,
    .cfg_timeout,
    .alloc_ready,
    .alloc_valid,
    .alloc_ntag,
    .alloc_req_id (go_pop ? q_out.req_id : q_in.req_id),
    .alloc_tag    (go_pop ? q_out.tag    : q_in.tag),
    .alloc_tc     (go_pop ? q_out.tc     : q_in.tc),
    .alloc_attr   (go_pop ? q_out.attr   : q_in.attr),
    .alloc_la     (go_pop ? c_la         : q_in.la),
    .alloc_bc     ({1'b0, go_pop ? c_bc : q_in.bc}),
    .alloc_first  (!go_pop || !hd_act_q),
    .alloc_more   (go_pop && !c_last),
    .alloc_rest   (go_pop ? c_rest : 13'd0),
    .ur_valid,
    .ur_ready,
    .ur_req_id    (r.req_id),
    .ur_tag       (r.tag),
    .ur_tc        (r.tc),
    .ur_attr      (r.attr),
    .ur_la        (is_mem ? tlp_mrd_lower_addr(r.addr[6:2], r.first_be) : 7'd0),
    .ur_bc        (is_mem ? tlp_mrd_byte_count(r.len, r.first_be, r.last_be) : 12'd4),
    .s_pkt_data   (s_cpl_data),
    .s_pkt_last   (s_cpl_last),
    .s_pkt_valid  (s_cpl_valid),
    .s_pkt_ready  (s_cpl_ready),
    `TLP_CONNECT(m_tlp, m_cpl),
    .ev_timeout,
    .ev_late
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{cfg_eg_start, cfg_eg_end, cfg_eg_valid, cfg_eg_node, cfg_passthru, cfg_up_node,
                    qc.tag, ccmd.tag};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
