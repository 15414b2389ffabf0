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
// Network tags are {generation, slot}: the generation advances each time a
// slot is released, so a late completion never matches a reused slot.

`default_nettype none
`include "tlp_stream.svh"

module smfu_rd_cpl
#(
  parameter int NTAGS  = 16,   // outstanding reads (power of two, 2..64)
  parameter bit TMO_EN = 1'b1  // completion timeout enabled
) (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,           // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic [15:0]  cfg_cpl_id,    // completer ID of the completions
  input  wire logic [15:0]  cfg_timeout,   // units of 256 cycles, 0: 4096

  // ---------------- slot allocation (request side) ----------------
  output      logic         alloc_ready,   // a slot is free
  input  wire logic         alloc_valid,   // take it this cycle (only with alloc_ready)
  output      logic [7:0]   alloc_ntag,    // network tag of the free slot
  input  wire logic [15:0]  alloc_req_id,  // requester ID
  input  wire logic [7:0]   alloc_tag,     // requester's tag
  input  wire logic [2:0]   alloc_tc,      // traffic class
  input  wire logic [2:0]   alloc_attr,    // attributes
  input  wire logic [6:0]   alloc_la,      // lower address of the first byte
  input  wire logic [12:0]  alloc_bc,      // byte count of the request (1..4096)

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
  localparam int GW = 8 - TW;

  // ------------------------------------------------------------------
  // Tag table
  // ------------------------------------------------------------------
  logic [NTAGS-1:0] v_q;
  logic [GW-1:0]    gen_q  [NTAGS];
  logic [15:0]      rid_q  [NTAGS];
  logic [7:0]       rtag_q [NTAGS];
  logic [2:0]       tc_q   [NTAGS];
  logic [2:0]       attr_q [NTAGS];
  logic [6:0]       la_q   [NTAGS];
  logic [12:0]      bct_q  [NTAGS];   // total byte count
  logic [12:0]      bcr_q  [NTAGS];   // remaining byte count
  logic [16:0]      t0_q   [NTAGS];   // issue time, 256-cycle ticks

  logic [TW-1:0]    free_idx;
  always_comb begin
    free_idx    = '0;
    alloc_ready = 1'b0;
    for (int i = NTAGS - 1; i >= 0; i--) begin
      if (!v_q[i]) begin
        free_idx    = TW'(i);
        alloc_ready = 1'b1;
      end
    end
  end
  assign alloc_ntag = {gen_q[free_idx], free_idx};

  // ------------------------------------------------------------------
  // Timeout
  // ------------------------------------------------------------------
  logic [7:0]       pre_q;
  logic [16:0]      tick_q, tmo_units;
  logic [NTAGS-1:0] expired;
  logic [TW-1:0]    tmo_idx;
  logic             tmo_any;

  assign tmo_units = (cfg_timeout == 16'd0) ? 17'd4096 : {1'b0, cfg_timeout};

  always_comb begin
    tmo_idx = '0;
    tmo_any = 1'b0;
    for (int i = NTAGS - 1; i >= 0; i--) begin
      expired[i] = TMO_EN && v_q[i] && ((tick_q - t0_q[i]) > tmo_units);
      if (expired[i]) begin
        tmo_idx = TW'(i);
        tmo_any = 1'b1;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      pre_q  <= '0;
      tick_q <= '0;
    end else begin
      pre_q <= pre_q + 8'd1;
      if (pre_q == 8'hff) tick_q <= tick_q + 17'd1;
    end
  end

  // ------------------------------------------------------------------
  // Completion sequencer
  // ------------------------------------------------------------------
  typedef enum logic [1:0] { C_IDLE, C_DATA, C_DROP } cstate_e;
  cstate_e state_q;

  logic [127:0] o_data_q;
  logic [3:0]   o_keep_q;
  logic         o_sop_q, o_eop_q, o_valid_q, o_free;
  logic [6:0]   dw_left_q;

  assign o_free      = !o_valid_q || m_tlp_ready;
  assign m_tlp_data  = o_data_q;
  assign m_tlp_keep  = o_keep_q;
  assign m_tlp_sop   = o_sop_q;
  assign m_tlp_eop   = o_eop_q;
  assign m_tlp_valid = o_valid_q;

  // decode of the packet at the head (header flit in C_IDLE)
  /* verilator lint_off UNUSEDSIGNAL */  // fields not needed here
  net_pkg::net_hdr_t     ph;
  net_pkg::net_cmd_cpl_t pc;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [TW-1:0] pidx;
  logic          pmatch, pdata;
  logic [6:0]    plen_dw, pla;
  logic [12:0]   pconsumed, pavail;

  always_comb begin
    ph      = s_pkt_data;
    pc      = ph.cmd;
    pidx    = pc.tag[TW-1:0];
    pmatch  = ph.ptype == net_pkg::NET_TYPE_SMFU_CPL && v_q[pidx] && gen_q[pidx] == pc.tag[7:TW];
    pdata   = pc.status == pcie_tlp_pkg::CPL_SC && ph.plen != 5'd0;
    plen_dw = {1'b0, pc.len_m1} + 7'd1;
    pla     = la_q[pidx] + 7'(bct_q[pidx] - pc.byte_count);
    pavail  = {4'd0, plen_dw, 2'b00} - {11'd0, pla[1:0]};
    pconsumed = (pc.byte_count < pavail) ? pc.byte_count : pavail;
  end

  logic take_hdr, take_tmo, take_ur;
  always_comb begin
    take_hdr = 1'b0;
    take_tmo = 1'b0;
    take_ur  = 1'b0;
    if (state_q == C_IDLE) begin
      if (s_pkt_valid) begin
        take_hdr = !pmatch || o_free;
      end else if (tmo_any) begin
        take_tmo = o_free;
      end else if (ur_valid) begin
        take_ur = o_free;
      end
    end
  end

  always_comb begin
    case (state_q)
      C_IDLE:  s_pkt_ready = take_hdr;
      C_DATA:  s_pkt_ready = o_free;
      default: s_pkt_ready = 1'b1;
    endcase
  end
  assign ur_ready   = take_ur;
  assign ev_timeout = take_tmo;
  assign ev_late    = take_hdr && !pmatch;

  // slot release this cycle
  logic          rel;
  logic [TW-1:0] rel_idx;
  always_comb begin
    rel     = 1'b0;
    rel_idx = pidx;
    if (take_hdr && pmatch &&
        (pc.last || !pdata || pc.byte_count <= pavail)) begin
      rel = 1'b1;
    end
    if (take_tmo) begin
      rel     = 1'b1;
      rel_idx = tmo_idx;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q   <= C_IDLE;
      o_valid_q <= 1'b0;
      v_q       <= '0;
      for (int i = 0; i < NTAGS; i++) gen_q[i] <= '0;
    end else begin
      if (m_tlp_ready) o_valid_q <= 1'b0;
      case (state_q)
        C_IDLE: begin
          if (take_hdr && pmatch) begin
            o_valid_q <= 1'b1;
            if (pdata) begin
              state_q <= s_pkt_last ? C_IDLE : C_DATA;
            end else begin
              state_q <= s_pkt_last ? C_IDLE : C_DROP;
            end
          end else if (take_hdr) begin
            state_q <= s_pkt_last ? C_IDLE : C_DROP;
          end
          if (take_tmo || take_ur) o_valid_q <= 1'b1;
        end
        C_DATA: begin
          if (s_pkt_valid && o_free) begin
            o_valid_q <= 1'b1;
            if (s_pkt_last) state_q <= C_IDLE;
          end
        end
        default: begin
          if (s_pkt_valid && s_pkt_last) state_q <= C_IDLE;
        end
      endcase
      if (rel) begin
        v_q[rel_idx]   <= 1'b0;
        gen_q[rel_idx] <= gen_q[rel_idx] + 1'b1;
      end
      if (alloc_valid && alloc_ready) v_q[free_idx] <= 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (alloc_valid && alloc_ready) begin
      rid_q[free_idx]  <= alloc_req_id;
      rtag_q[free_idx] <= alloc_tag;
      tc_q[free_idx]   <= alloc_tc;
      attr_q[free_idx] <= alloc_attr;
      la_q[free_idx]   <= alloc_la;
      bct_q[free_idx]  <= alloc_bc;
      bcr_q[free_idx]  <= alloc_bc;
      t0_q[free_idx]   <= tick_q;
    end
    if (take_hdr && pmatch && pdata) begin
      bcr_q[pidx] <= pc.byte_count - pconsumed;
    end
    case (state_q)
      C_IDLE: begin
        if (take_hdr && pmatch) begin
          // a poisoned completion stays poisoned (PCIe Base Spec. 2.7.2)
          o_data_q  <= tlp_set_ep(tlp_cpl_hdr(pdata, {3'd0, plen_dw}, cfg_cpl_id, pc.status,
                                              pdata ? pc.byte_count[11:0] : bcr_q[pidx][11:0],
                                              rid_q[pidx], rtag_q[pidx], pla, tc_q[pidx], attr_q[pidx]),
                                  pdata && pc.ep);
          o_keep_q  <= 4'b0111;
          o_sop_q   <= 1'b1;
          o_eop_q   <= !pdata;
          dw_left_q <= plen_dw;
        end else if (take_tmo) begin
          o_data_q <= tlp_cpl_hdr(1'b0, 10'd0, cfg_cpl_id, pcie_tlp_pkg::CPL_CA,
                                  bcr_q[tmo_idx][11:0], rid_q[tmo_idx], rtag_q[tmo_idx],
                                  la_q[tmo_idx] + 7'(bct_q[tmo_idx] - bcr_q[tmo_idx]),
                                  tc_q[tmo_idx], attr_q[tmo_idx]);
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
      C_DATA: begin
        if (s_pkt_valid && o_free) begin
          o_data_q  <= smfu_mask(s_pkt_data, smfu_keep(dw_left_q));
          o_keep_q  <= smfu_keep(dw_left_q);
          o_sop_q   <= 1'b0;
          o_eop_q   <= s_pkt_last;
          dw_left_q <= dw_left_q - 7'd4;
        end
      end
      default: ;
    endcase
  end

endmodule

`default_nettype wire
