// SPDX-License-Identifier: Apache-2.0
//
// smfu_cpl2pkt: completer side of remote reads (docs/smfu.md). Owns the tag
// table of the MRd TLPs a unit issued on behalf of network requesters, and
// turns every completion TLP for them into an SMFU_CPL packet to the node
// that asked:
//
//   * Cpl/CplD whose tag is TAG_BASE + slot of an outstanding read ->
//     SMFU_CPL (requester's network tag, status, dwords, lower address, byte
//     count, last); payload beats become payload flits one to one. A split
//     completion gives one packet per TLP; the slot is released with the
//     last one (byte count covered, or an error status). A poisoned
//     completion (EP) keeps its data and sets the packet's ep bit: the far
//     side re-issues it poisoned (PCIe Base Spec. 2.7.2).
//   * completions for no outstanding read are dropped (ev_drop);
//   * requests the unit refuses (ur_*) are answered with an SMFU_CPL of
//     status UR;
//   * completion timeout (PCIe Base Spec. 2.8): a read outstanding for
//     between 1 and 2 epochs of cfg_timeout x 64 cycles (0: 4096 units; at
//     most half the requester side's cfg_timeout x 256, so at equal settings
//     the network requester gets this answer before its own timer fires) is
//     answered with an SMFU_CPL of status CA and its slot is freed
//     (ev_timeout). One epoch counter and a 2-bit age per slot instead of a
//     time stamp and a subtractor per slot;
//   * flush (Secondary Bus Reset of the root port, Bridge Control bit 6 of
//     the Type-1 header: a conventional reset of the device below, PCIe Base
//     Spec. 6.6.1, which loses every request it had): when flush rises, every read outstanding at that moment is
//     answered CA and freed, one per cycle. Reads issued while it is high
//     get UR from the root port (link treated as down, pcie_rp_up).
// Pieces (smfu_in MODE 1, Max_Read_Request_Size below the network read): a
// network read may be issued as several MRd one after the other; alloc_add
// is the number of bytes the later pieces will return. Its completions carry
// byte count + alloc_add and the last one of a piece is not marked last, so
// the requester side sees one read; when a piece's final completion leaves,
// ev_piece_done asks for the next MRd, and an error ending a piece (status,
// timeout, flush) pulses ev_piece_err instead (the requester is done).
// A completion that arrives after its slot timed out and was reused cannot
// be told apart (the TLP tag is all the device returns); the timeout is far
// above any device's completion latency, so this needs a broken device.
//
// TLP tags used: TAG_BASE .. TAG_BASE + NTAGS - 1 (TAG_BASE aligned to NTAGS)
// while cfg_ext_tag (Device Control Extended Tag Field Enable of the issuing
// side) is set; while it is clear the 5-bit alias TAG_BASE >> 3 .. + NTAGS - 1
// (below 32: PCIe Base Spec. 2.2.6.2, 7.5.3.4). Completions of either range
// match, so reads issued before the enable changed still complete;
// the NIC routes completions with these tags to this unit.

`default_nettype none
`include "tlp_stream.svh"

module smfu_cpl2pkt
#(
  parameter int         NTAGS    = 16,     // outstanding reads (power of two, 2..128)
  parameter logic [7:0] TAG_BASE = 8'h80   // first TLP tag (multiple of NTAGS)
) (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,          // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic [15:0]  cfg_node_id,  // this node (packet src)
  input  wire logic [15:0]  cfg_timeout,  // completion timeout epoch, 64-cycle units (0: 4096, above 0x2000: 0x2000)
  input  wire logic         flush,        // answer every outstanding read CA (secondary bus reset)

  // ---------------- slot allocation (request side) ----------------
  output      logic         alloc_ready,  // a slot is free
  input  wire logic         alloc_valid,  // take it this cycle (only with alloc_ready)
  input  wire logic         cfg_ext_tag,  // 8-bit tags allowed (else the 5-bit alias range)
  output      logic [7:0]   alloc_tag,    // TLP tag to put in the MRd
  input  wire logic [15:0]  alloc_node,   // requesting node
  input  wire logic [7:0]   alloc_ntag,   // requester's network tag
  input  wire logic [12:0]  alloc_add,    // bytes later MRd pieces of the same network read return

  // ---------------- UR answers (request side) ----------------
  input  wire logic         ur_valid,
  output      logic         ur_ready,
  input  wire logic [15:0]  ur_node,
  input  wire logic [7:0]   ur_ntag,

  // ---------------- completion TLPs in ----------------
  `TLP_S_PORTS(s_tlp),

  // ---------------- SMFU_CPL packets out ----------------
  output      logic [127:0] m_pkt_data,
  output      logic         m_pkt_last,
  output      logic         m_pkt_valid,
  input  wire logic         m_pkt_ready,

  // ---------------- events ----------------
  output      logic         ev_drop,      // completion for no outstanding read dropped
  output      logic         ev_timeout,   // outstanding read answered CA (timeout or flush)
  output      logic         ev_piece_done, // a piece (alloc_add != 0) completed: issue the next
  output      logic         ev_piece_err   // a piece (alloc_add != 0) ended with an error
);

  `include "smfu_func.svh"

  localparam int TW = $clog2(NTAGS);

  logic [NTAGS-1:0] v_q;
  logic [15:0]      node_q [NTAGS];
  logic [7:0]       ntag_q [NTAGS];
  logic [1:0]       age_q  [NTAGS];   // epochs since issue (saturates at 2)
  logic [12:0]      add_q  [NTAGS];   // bytes of the later pieces

  logic [TW-1:0]    free_idx;
  logic [NTAGS-1:0] free_vec;
  assign free_vec    = ~v_q;
  assign free_idx    = TW'(smfu_first(128'(free_vec)));
  assign alloc_ready = |free_vec;
  assign alloc_tag = (cfg_ext_tag ? TAG_BASE : (TAG_BASE >> 3)) | 8'(free_idx);

  // ------------------------------------------------------------------
  // Completion timeout and flush
  // ------------------------------------------------------------------
  logic [5:0]       pre_q;
  logic [16:0]      unit_q, tmo_units;
  logic             epoch;
  logic [TW-1:0]    tmo_idx;
  logic             tmo_any, flush_q;
  logic [NTAGS-1:0] fl_q;             // outstanding when flush rose: answer CA

  assign tmo_units = (cfg_timeout == 16'd0) ? 17'd4096 : {1'b0, smfu_tmo_clamp(cfg_timeout)};  // <= 0x2000 (row 11, smfu_func.svh)
  assign epoch     = pre_q == 6'h3f && unit_q + 17'd1 >= tmo_units;

  logic [NTAGS-1:0] tmo_vec;
  always_comb begin
    for (int i = 0; i < NTAGS; i++) tmo_vec[i] = v_q[i] && (fl_q[i] || age_q[i] == 2'd2);
  end
  assign tmo_idx = TW'(smfu_first(128'(tmo_vec)));
  assign tmo_any = |tmo_vec;

  always_ff @(posedge clk) begin
    if (rst) begin
      pre_q   <= '0;
      unit_q  <= '0;
      flush_q <= 1'b0;
    end else begin
      pre_q   <= pre_q + 6'd1;
      flush_q <= flush;
      // epochs count only while a read is outstanding (an idle unit's state
      // repeats: docs/cosim.md "Skipping idle nodes"); a read issued to an
      // idle unit still times out between 1 and 2 epochs
      if (pre_q == 6'h3f) unit_q <= (epoch || !(|v_q)) ? 17'd0 : unit_q + 17'd1;
    end
  end

  // ------------------------------------------------------------------
  // Decode of a completion header beat
  // ------------------------------------------------------------------
  /* verilator lint_off UNUSEDSIGNAL */  // header fields not needed
  logic [31:0]  dw0, dw1, dw2;
  /* verilator lint_on UNUSEDSIGNAL */
  logic         is_cpl, has_data, match, last;
  logic [TW-1:0] idx;
  logic [10:0]  len;
  logic [2:0]   status;
  logic [12:0]  bc;
  logic [6:0]   la;
  logic [7:0]   tag;

  always_comb begin
    dw0      = s_tlp_data[31:0];
    dw1      = s_tlp_data[63:32];
    dw2      = s_tlp_data[95:64];
    is_cpl   = dw0[31:29] == 3'b000 || dw0[31:29] == 3'b010;
    is_cpl   = is_cpl && dw0[28:24] == pcie_tlp_pkg::TYPE_CPL;
    has_data = dw0[30];
    len      = (dw0[9:0] == 10'd0) ? 11'd1024 : {1'b0, dw0[9:0]};
    status   = dw1[15:13];
    bc       = (dw1[11:0] == 12'd0) ? 13'd4096 : {1'b0, dw1[11:0]};
    tag      = dw2[15:8];
    la       = dw2[6:0];
    idx      = tag[TW-1:0];
    match    = is_cpl && ((tag >> TW) == (TAG_BASE >> TW) || (tag >> TW) == ((TAG_BASE >> 3) >> TW)) && v_q[idx] &&
               (!has_data || len <= 11'd64);
    last     = status != pcie_tlp_pkg::CPL_SC || !has_data ||
               bc <= ({len[10:0], 2'b00} - {11'd0, la[1:0]});
  end

  net_pkg::net_cmd_cpl_t cmd, urcmd, tmocmd;
  always_comb begin
    cmd            = '0;
    cmd.tag        = ntag_q[idx];
    cmd.status     = status;
    cmd.last       = last && (add_q[idx] == 13'd0 || status != pcie_tlp_pkg::CPL_SC || !has_data);
    cmd.len_m1     = has_data ? 6'(len - 11'd1) : 6'd0;
    cmd.lower_addr = la;
    cmd.byte_count = bc + add_q[idx];
    cmd.ep         = has_data && dw0[14];
    urcmd            = '0;
    urcmd.tag        = ur_ntag;
    urcmd.status     = pcie_tlp_pkg::CPL_UR;
    urcmd.last       = 1'b1;
    urcmd.byte_count = 13'd4;
    tmocmd            = '0;
    tmocmd.tag        = ntag_q[tmo_idx];
    tmocmd.status     = pcie_tlp_pkg::CPL_CA;
    tmocmd.last       = 1'b1;
    tmocmd.byte_count = 13'd4;   // the requester side recomputes it from its request
  end

  // ------------------------------------------------------------------
  // Sequencer
  // ------------------------------------------------------------------
  typedef enum logic [1:0] { K_HDR, K_PL, K_DROP } kstate_e;
  kstate_e state_q;

  logic [127:0] o_data_q;
  logic         o_last_q, o_valid_q, o_free;
  assign o_free      = !o_valid_q || m_pkt_ready;
  assign m_pkt_data  = o_data_q;
  assign m_pkt_last  = o_last_q;
  assign m_pkt_valid = o_valid_q;

  // priority: completions from the device (always sunk), timeouts, UR
  logic hdr_in, go_cpl, go_drop, go_ur, go_tmo;
  assign hdr_in  = state_q == K_HDR && s_tlp_valid && s_tlp_sop;
  assign go_cpl  = hdr_in && match && o_free;
  assign go_drop = hdr_in && !match;
  assign go_tmo  = state_q == K_HDR && !(s_tlp_valid && s_tlp_sop) && tmo_any && o_free;
  assign go_ur   = state_q == K_HDR && !(s_tlp_valid && s_tlp_sop) && !tmo_any && ur_valid && o_free;
  assign ur_ready   = go_ur;
  assign ev_drop    = go_drop;
  assign ev_timeout = go_tmo;
  assign ev_piece_done = go_cpl && last && add_q[idx] != 13'd0 && status == pcie_tlp_pkg::CPL_SC && has_data;
  assign ev_piece_err  = (go_cpl && last && add_q[idx] != 13'd0 && !(status == pcie_tlp_pkg::CPL_SC && has_data)) ||
                         (go_tmo && add_q[tmo_idx] != 13'd0);

  always_comb begin
    case (state_q)
      K_HDR:   s_tlp_ready = !s_tlp_sop || go_cpl || go_drop;
      K_PL:    s_tlp_ready = o_free;
      default: s_tlp_ready = 1'b1;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q   <= K_HDR;
      o_valid_q <= 1'b0;
      v_q       <= '0;
      fl_q      <= '0;
    end else begin
      if (m_pkt_ready) o_valid_q <= 1'b0;
      case (state_q)
        K_HDR: begin
          if (go_cpl || go_ur || go_tmo) o_valid_q <= 1'b1;
          if ((go_cpl || go_drop) && !s_tlp_eop) begin
            state_q <= (go_cpl && has_data) ? K_PL : K_DROP;
          end
        end
        K_PL: begin
          if (s_tlp_valid && o_free) begin
            o_valid_q <= 1'b1;
            if (s_tlp_eop) state_q <= K_HDR;
          end
        end
        default: if (s_tlp_valid && s_tlp_eop) state_q <= K_HDR;
      endcase
      if (go_cpl && last) v_q[idx] <= 1'b0;
      if (go_tmo) v_q[tmo_idx] <= 1'b0;
      // fl_q only marks valid slots; stale bits of freed slots are masked by v_q
      if (flush && !flush_q) fl_q <= v_q;
      else if (go_tmo) fl_q[tmo_idx] <= 1'b0;
      if (alloc_valid && alloc_ready) fl_q[free_idx] <= 1'b0;
      for (int i = 0; i < NTAGS; i++) begin
        if (alloc_valid && alloc_ready && free_idx == TW'(i)) age_q[i] <= 2'd0;
        else if (epoch && age_q[i] != 2'd2) age_q[i] <= age_q[i] + 2'd1;
      end
      if (alloc_valid && alloc_ready) v_q[free_idx] <= 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (alloc_valid && alloc_ready) begin
      node_q[free_idx] <= alloc_node;
      ntag_q[free_idx] <= alloc_ntag;
      add_q[free_idx]  <= alloc_add;
    end
    if (go_cpl) begin
      o_data_q <= smfu_hdr_flit(node_q[idx], cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_CPL),
                                has_data ? 5'((len + 11'd3) >> 2) : 5'd0, cmd);
      o_last_q <= !has_data;
    end else if (go_tmo) begin
      o_data_q <= smfu_hdr_flit(node_q[tmo_idx], cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_CPL), 5'd0, tmocmd);
      o_last_q <= 1'b1;
    end else if (go_ur) begin
      o_data_q <= smfu_hdr_flit(ur_node, cfg_node_id, 4'(net_pkg::NET_TYPE_SMFU_CPL), 5'd0, urcmd);
      o_last_q <= 1'b1;
    end else if (state_q == K_PL && s_tlp_valid && o_free) begin
      o_data_q <= smfu_mask(s_tlp_data, s_tlp_keep);
      o_last_q <= s_tlp_eop;
    end
  end

endmodule

`default_nettype wire
