// SPDX-License-Identifier: Apache-2.0
//
// nic_rma_win: the accelerator's descriptor window on the NAA NIC (root-port
// role; issue 13, docs/rma.md "Descriptors from the accelerator"). Of the
// requests the device sends upstream, a memory read or write inside the 4 KiB
// window at cfg_win_base (while cfg_win_en) is not passed through to the host:
// it becomes an access to the NIC's own rma register block, through the
// BAR0-style bridge (pcie_reg_bridge) whose completions go back down to the
// device. So the accelerator posts RMA descriptors itself (a 48-byte write of
// d_src .. post at window offset 0x08 is one descriptor) and reads rma.status.
//
//   window offset o (0 .. 0xfff)  ->  register file byte address RMA_BASE + o
//   (RMA_BASE 4 KiB aligned: the low 12 address bits, hence a completion's
//   lower address, are the request's own)
//
// A window request that the bridge cannot serve (poisoned, longer than
// BURST_DW dwords, reaching beyond the rma block's RMA_BYTES, not MRd/MWr) is
// refused: a read is answered UR (pcie_cpl_ur), a write dropped; both counted
// (ev_refused). Everything outside the window passes unchanged (m_*), in
// order, so requests keep their order toward the SMFU; requests to the window
// are served in order among themselves.
//
// Synchronous to clk, reset rst (sync, high).

`default_nettype none
`include "tlp_stream.svh"

module nic_rma_win #(
  parameter logic [31:0] RMA_BASE  = extoll_addr_pkg::RMA_BASE, // the rma block in the register file
  parameter int          RMA_BYTES = extoll_addr_pkg::RMA_SIZE, // bytes of the block that are served
  parameter int          BURST_DW  = 16         // longest window request (the bridge's BURST_DW)
) (
  // ---------------- clock and reset ----------------
  input  wire logic          clk,
  input  wire logic          rst,            // synchronous, active high

  // ---------------- configuration (rma.win) ----------------
  input  wire logic          cfg_win_en,
  input  wire logic [63:0]   cfg_win_base,   // 4 KiB aligned

  // ---------------- device requests in ----------------
  `TLP_S_PORTS(s),

  // ---------------- the ones outside the window ----------------
  `TLP_M_PORTS(m),

  // ---------------- window accesses: to pcie_reg_bridge ----------------
  output      logic                  mem_valid,
  input  wire logic                  mem_ready,
  output      pcie_tlp_pkg::tlp_req_t mem_req,
  output      logic [127:0]          mem_pl_data,
  output      logic [3:0]            mem_pl_keep,
  output      logic                  mem_pl_last,
  output      logic                  mem_pl_valid,
  input  wire logic                  mem_pl_ready,

  // ---------------- refused window reads: to pcie_cpl_ur ----------------
  output      logic                  ur_valid,
  input  wire logic                  ur_ready,
  output      pcie_tlp_pkg::tlp_req_t ur_req,

  // ---------------- events ----------------
  output      logic                  ev_access,      // a window request served
  output      logic                  ev_refused      // a window request refused
);

  `include "pcie_tlp_func.svh"

  typedef enum logic [1:0] { S_HDR, S_PASS, S_PL, S_DROP } state_e;
  state_e state_q;

  pcie_tlp_pkg::tlp_req_t req, rreq;
  logic [63:0] off;
  logic        is_mem, is_wr, hit, ok;
  logic        hdr;

  always_comb begin
    req    = tlp_req_decode(s_data);
    is_mem = req.typ == 5'b00000 && !req.fmt[2];        // MRd / MWr (3- or 4-DW header)
    is_wr  = req.fmt[1];
    off    = req.addr - cfg_win_base;
    hit    = cfg_win_en && is_mem && req.addr >= cfg_win_base && off < 64'h1000;
    ok     = !req.ep && req.len <= 11'(BURST_DW) &&
             off + {51'd0, req.len, 2'b00} <= 64'(RMA_BYTES);
    rreq      = req;
    rreq.addr = {32'd0, RMA_BASE} + {52'd0, off[11:0]};
  end

  assign hdr = state_q == S_HDR && s_valid && s_sop;

  // header beat: pass, to the bridge, refuse
  assign mem_valid   = hdr && hit && ok;
  assign mem_req     = rreq;
  assign ur_valid    = hdr && hit && !ok && !is_wr;
  assign ur_req      = req;

  // payload of a window write
  assign mem_pl_data  = s_data;
  assign mem_pl_keep  = s_keep;
  assign mem_pl_last  = s_eop;
  assign mem_pl_valid = state_q == S_PL && s_valid;

  // everything else passes
  always_comb begin
    m_data  = s_data;
    m_keep  = s_keep;
    m_sop   = s_sop;
    m_eop   = s_eop;
    m_valid = s_valid && (state_q == S_PASS || (state_q == S_HDR && !hit));
    case (state_q)
      S_PASS:  s_ready = m_ready;
      S_PL:    s_ready = mem_pl_ready;
      S_DROP:  s_ready = 1'b1;
      default: s_ready = !s_sop ? 1'b1 :                  // (no stray beats: consumed)
                         !hit ? m_ready : ok ? mem_ready : is_wr ? 1'b1 : ur_ready;
    endcase
  end

  assign ev_access  = hdr && hit && ok && mem_ready;
  assign ev_refused = hdr && hit && !ok && (is_wr || ur_ready);

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= S_HDR;
    end else begin
      case (state_q)
        S_HDR: begin
          if (s_valid && s_ready && s_sop && !s_eop) begin
            state_q <= !hit ? S_PASS : (ok && is_wr) ? S_PL : S_DROP;
          end
        end
        default: if (s_valid && s_ready && s_eop) state_q <= S_HDR;
      endcase
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{off[63:12], req.fmt[0], req.tc, req.attr, req.req_id, req.tag, req.first_be, req.last_be};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
