// SPDX-License-Identifier: Apache-2.0
//
// pcie_reg_bridge: serves MRd/MWr requests on the register BAR (BAR0) through
// the passthrough CPU interface of the generated register block
// (PeakRDL-regblock `--cpuif passthrough`, 64-bit registers).
//
// A request covers the dwords [A, A+Length) of the BAR (A = address / 4).
// The bridge walks the 64-bit registers those dwords fall in, one register
// access each, in address order:
//   * an 8-byte access (Length 2, 8-byte aligned) is one 64-bit access;
//   * a 4-byte access reaches either half of a register; 1- and 2-byte
//     accesses are expressed by the byte enables, which become wr_biten;
//   * longer requests (up to BURST_DW dwords) iterate over consecutive
//     registers; two dwords of the same register are always written in one
//     access (a register sees one 64-bit write, never two halves).
// Writes whose byte enables are all zero for a register skip that register.
// Reads fetch every register once into a buffer and then send one CplD with
// the requested dwords (byte count and lower address per the PCIe spec); a
// read error from the register block turns the completion into CA (no data).
// Requests are served strictly one at a time, in arrival order, so a read
// always sees the writes that arrived before it.
//
// The receive path guarantees: Length <= BURST_DW and the request lies
// inside the register map.

`default_nettype none
`include "cpuif_port.svh"
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_reg_bridge
#(
  parameter int ADDR_W   = 9,    // register block byte address width
  parameter int BURST_DW = 16    // longest request in dwords (even, 2..32)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,          // synchronous, active high

  // ---------------- request header (from pcie_ep_rx) ----------------
  input  wire logic                  req_valid,
  output      logic                  req_ready,
  input  wire pcie_tlp_pkg::tlp_req_t              req,

  // ---------------- write payload (beats after the header) ----------------
  input  wire logic [pcie_tlp_pkg::TLP_DATA_W-1:0] s_pl_data,
  input  wire logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] s_pl_keep,
  input  wire logic                  s_pl_last,
  input  wire logic                  s_pl_valid,
  output      logic                  s_pl_ready,

  // ---------------- completer ID (from pcie_cfg_t0) ----------------
  input  wire logic [15:0]           cpl_id,

  // ---------------- completion stream (to the transmit arbiter) ----------------
  `TLP_M_PORTS(m_cpl),

  // ---------------- register block, passthrough cpuif ----------------
  `REGBLK_M_PORTS(cpuif, ADDR_W)
);

  `include "pcie_tlp_func.svh"

  // Buffer of register-aligned dwords: position p holds the dword at BAR
  // dword address (A & ~1) + p, so register r of the request is {p=2r+1, p=2r}.
  localparam int NPOS = BURST_DW + 2;
  localparam int NREG = NPOS / 2;
  localparam int RW   = $clog2(NREG + 1);   // register index

  typedef enum logic [2:0] { S_IDLE, S_COLLECT, S_ACCESS, S_CPL_HDR, S_CPL_DATA } state_e;

  state_e                 state_q;
  pcie_tlp_pkg::tlp_req_t               req_q;
  logic                   odd_q;        // request starts in the upper half of a register
  logic [RW-1:0]          nregs_q;      // registers touched
  logic [RW-1:0]          reg_q;        // current register (0 .. nregs_q-1)
  logic                   pending_q;    // a cpuif access was issued, ack outstanding
  logic                   err_q;        // a read returned an error
  logic [NPOS-1:0][31:0]  dw_q;
  logic [NPOS-1:0][3:0]   pbe_q;        // byte enables per position, from the header
  logic [NPOS-1:0]        got_q;        // position received payload (writes)
  logic [3:0]             wbeat_q;      // payload beat expected next (saturates)
  logic [3:0]             beat_q;       // completion data beat being sent
  logic [3:0]             nbeats_q;     // completion data beats
  logic                   is_wr;

  assign is_wr = req_q.fmt[1];

  // ------------------------------------------------------------------
  // Current register access
  // ------------------------------------------------------------------
  logic [63:0] cur_biten;
  logic [63:0] cur_wdata;
  logic        cur_skip;     // write with no byte enabled: nothing to do
  logic        cur_issue;    // drive cpuif_req this cycle
  logic        cur_stall;
  logic        cur_ack;
  logic        cur_done;     // the current register is finished this cycle
  logic        last_reg;

  // All indexing below compares narrow indices with loop constants, so
  // synthesis builds small multiplexers and decoders, not shifters.
  always_comb begin
    logic [7:0] be8;
    cur_wdata = '0;
    be8       = '0;
    for (int r = 0; r < NREG; r++) begin
      if (reg_q == RW'(r)) begin
        cur_wdata = {dw_q[2*r+1], dw_q[2*r]};
        be8       = {pbe_q[2*r+1] & {4{got_q[2*r+1]}}, pbe_q[2*r] & {4{got_q[2*r]}}};
      end
    end
    for (int b = 0; b < 8; b++) begin
      cur_biten[8*b +: 8] = {8{be8[b]}};
    end
    cur_skip  = is_wr && (cur_biten == 64'd0);
    cur_stall = is_wr ? cpuif_req_stall_wr : cpuif_req_stall_rd;
    cur_issue = (state_q == S_ACCESS) && !pending_q && !cur_skip;
    last_reg  = (reg_q == nregs_q - RW'(1));
  end

  // (separate from the block above: the ack may depend combinationally on cpuif_req)
  assign cur_ack  = is_wr ? cpuif_wr_ack : cpuif_rd_ack;
  assign cur_done = (state_q == S_ACCESS) &&
                    (cur_skip || ((pending_q || (cur_issue && !cur_stall)) && cur_ack));

  assign cpuif_req       = cur_issue;
  assign cpuif_req_is_wr = is_wr;
  assign cpuif_addr      = {req_q.addr[ADDR_W-1:3] + (ADDR_W-3)'(reg_q), 3'b000};
  assign cpuif_wr_data   = cur_wdata;
  assign cpuif_wr_biten  = cur_biten;

  // Byte enables of every buffer position for a request: position p holds
  // payload dword i = p - odd (first_be for i = 0, last_be for i = Length-1,
  // all four in between, none outside the request).
  logic [NPOS-1:0][3:0] req_pbe;
  always_comb begin
    for (int p = 0; p < NPOS; p++) begin
      logic [10:0] i;
      i = 11'(p) - {10'd0, req.addr[2]};
      if (p == 0 && req.addr[2]) begin
        req_pbe[p] = 4'h0;                         // below the request
      end else if (i >= req.len) begin
        req_pbe[p] = 4'h0;                         // beyond the request
      end else if (i == 11'd0) begin
        req_pbe[p] = req.first_be;
      end else if (i == req.len - 11'd1) begin
        req_pbe[p] = req.last_be;
      end else begin
        req_pbe[p] = 4'hf;
      end
    end
  end

  // ------------------------------------------------------------------
  // Sequencing
  // ------------------------------------------------------------------
  logic req_fire, pl_fire;
  assign req_ready  = (state_q == S_IDLE);
  assign req_fire   = req_valid && req_ready;
  assign s_pl_ready = (state_q == S_COLLECT);
  assign pl_fire    = s_pl_valid && s_pl_ready;

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q   <= S_IDLE;
      pending_q <= 1'b0;
    end else begin
      case (state_q)
        S_IDLE: begin
          if (req_fire) begin
            state_q <= req.fmt[1] ? S_COLLECT : S_ACCESS;
          end
        end
        S_COLLECT: begin
          if (pl_fire && s_pl_last) state_q <= S_ACCESS;
        end
        S_ACCESS: begin
          if (cur_issue && !cur_stall && !cur_ack) pending_q <= 1'b1;
          if (cur_done) begin
            pending_q <= 1'b0;
            if (last_reg) state_q <= is_wr ? S_IDLE : S_CPL_HDR;
          end
        end
        S_CPL_HDR: begin
          if (m_cpl_ready) state_q <= (err_q || nbeats_q == 4'd0) ? S_IDLE : S_CPL_DATA;
        end
        S_CPL_DATA: begin
          if (m_cpl_ready && beat_q == nbeats_q - 4'd1) state_q <= S_IDLE;
        end
        default: state_q <= S_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (req_fire) begin
      req_q    <= req;
      odd_q    <= req.addr[2];
      nregs_q  <= RW'(({10'd0, req.addr[2]} + req.len + 11'd1) >> 1);
      reg_q    <= '0;
      err_q    <= 1'b0;
      pbe_q    <= req_pbe;
      got_q    <= '0;
      wbeat_q  <= '0;
      beat_q   <= '0;
      nbeats_q <= 4'((req.len + 11'd3) >> 2);
    end
    // write payload: dword i of the request (beat i/4, lane i%4) goes to
    // position p = i + odd, so each position takes one of two fixed lanes
    if (pl_fire) begin
      for (int p = 0; p < NPOS; p++) begin
        if (!odd_q && wbeat_q == 4'(p / 4) && s_pl_keep[p % 4]) begin
          dw_q[p]  <= s_pl_data[32*(p % 4) +: 32];
          got_q[p] <= 1'b1;
        end
        if (odd_q && p >= 1 && wbeat_q == 4'((p - 1) / 4) && s_pl_keep[(p + 3) % 4]) begin
          dw_q[p]  <= s_pl_data[32*((p + 3) % 4) +: 32];
          got_q[p] <= 1'b1;
        end
      end
      // saturate: surplus payload of a malformed TLP is ignored
      if (wbeat_q != 4'hf) wbeat_q <= wbeat_q + 4'd1;
    end
    if (state_q == S_ACCESS && cur_done) begin
      reg_q <= reg_q + RW'(1);
      if (!is_wr) begin
        for (int r = 0; r < NREG; r++) begin
          if (reg_q == RW'(r)) begin
            dw_q[2*r]     <= cpuif_rd_data[31:0];
            dw_q[2*r + 1] <= cpuif_rd_data[63:32];
          end
        end
        if (cpuif_rd_err) err_q <= 1'b1;
      end
    end
    // completion data: shift the buffer down one beat per beat sent,
    // so the beat always comes from positions 0..4
    if (state_q == S_CPL_DATA && m_cpl_ready) begin
      beat_q <= beat_q + 4'd1;
      for (int p = 0; p < NPOS; p++) begin
        dw_q[p] <= (p + 4 < NPOS) ? dw_q[(p + 4) % NPOS] : 32'd0;
      end
    end
  end

  // ------------------------------------------------------------------
  // Completion (reads): CplD with the requested dwords, or CA without data
  // ------------------------------------------------------------------
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] cpl_hdr;
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] cpl_beat;
  logic [10:0]           left_dw;     // dwords still to send, from this beat on

  always_comb begin
    cpl_hdr = tlp_cpl_hdr(!err_q, req_q.len[9:0], cpl_id, err_q ? pcie_tlp_pkg::CPL_CA : pcie_tlp_pkg::CPL_SC,
                          tlp_mrd_byte_count(req_q.len, req_q.first_be, req_q.last_be),
                          req_q.req_id, req_q.tag,
                          tlp_mrd_lower_addr(req_q.addr[6:2], req_q.first_be),
                          req_q.tc, req_q.attr);
    for (int j = 0; j < pcie_tlp_pkg::TLP_KEEP_W; j++) begin
      cpl_beat[32*j +: 32] = odd_q ? dw_q[j + 1] : dw_q[j];
    end
    left_dw = req_q.len - {5'd0, beat_q, 2'b00};
  end

  assign m_cpl_valid = (state_q == S_CPL_HDR) || (state_q == S_CPL_DATA);
  assign m_cpl_sop   = (state_q == S_CPL_HDR);
  assign m_cpl_eop   = (state_q == S_CPL_HDR) ? (err_q || nbeats_q == 4'd0)
                                              : (beat_q == nbeats_q - 4'd1);
  assign m_cpl_data  = (state_q == S_CPL_HDR) ? cpl_hdr : cpl_beat;
  assign m_cpl_keep  = (state_q == S_CPL_HDR) ? 4'b0111
                       : tlp_keep((left_dw > 11'd4) ? 3'd4 : left_dw[2:0]);

  // Write errors have no one to report to (posted writes); the rest of the
  // header (type, EP, high address bits) was checked by the receive path.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{cpuif_wr_err, req_q.typ, req_q.ep, req_q.fmt[2], req_q.fmt[0], req_q.addr[63:7]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
