// SPDX-License-Identifier: Apache-2.0
//
// nic_dma_win: the accelerator's DMA windows on the NAA NIC (root-port role;
// register block `dma`, docs/security.md "The accelerator's DMA"). It sits on
// the device's upstream requests between nic_rma_win and the SMFU's
// pass-through sender (smfu_naa s_dev_req), so it sees every memory request
// the device sends toward its holder: DMA reads and writes and MSIs (an MSI is
// a memory write into the holder's notify window). The descriptor window of
// nic_rma_win is served before (it is the NIC's own register file, not host
// memory); the RMA unit's traffic does not come this way at all (it enters
// from the network).
//
// While cfg_enforce is set, a memory request passes only if its first and
// last byte lie in one window i (page numbers cfg_base[i] .. cfg_limit[i],
// 4 KiB pages) whose permission allows it: MRd / MRdLk need cfg_rd[i], MWr
// needs cfg_wr[i], an AtomicOp (it reads and writes) needs both. Otherwise:
//
//   write     dropped (host memory untouched)        st_wr_refused + 1
//   read      answered Unsupported Request           st_rd_refused + 1
//             (pcie_cpl_ur: a blocked translation, as an IOMMU answers it)
//
// and st_last_* keeps the refused request's address and kind. A request
// whose last byte wraps past 2^64 never lies in a window. Other TLPs
// (messages, I/O, configuration: none of them reaches host memory here) and
// every request while cfg_enforce is clear pass unchanged.
//
// The decision is combinational on the header beat: no buffer, no added
// cycle on the pass path (the hot path's goal: 0 cycles); requests stay in
// order.
// Synchronous to clk, reset rst (sync, high).

`default_nettype none
`include "tlp_stream.svh"

module nic_dma_win #(
  parameter int NWIN = 8                   // windows (the register file has 8: dma.win_base0..7)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- configuration (dma.*) ----------------
  input  wire logic                  cfg_enforce,    // dma.ctrl.enforce
  input  wire logic [NWIN-1:0][51:0] cfg_base,       // window i: first page (address bits 63:12)
  input  wire logic [NWIN-1:0][51:0] cfg_limit,      // window i: last page (inclusive)
  input  wire logic [NWIN-1:0]       cfg_rd,         // window i allows reads
  input  wire logic [NWIN-1:0]       cfg_wr,         // window i allows writes

  // ---------------- device requests in (from nic_rma_win) ----------------
  `TLP_S_PORTS(s),

  // ---------------- requests allowed (to smfu_naa s_dev_req) ----------------
  `TLP_M_PORTS(m),

  // ---------------- refused reads: to pcie_cpl_ur ----------------
  output      logic                  ur_valid,
  input  wire logic                  ur_ready,
  output      pcie_tlp_pkg::tlp_req_t ur_req,

  // ---------------- status (dma.refused, dma.last) ----------------
  output      logic [31:0]           st_rd_refused,  // reads refused (wraps)
  output      logic [31:0]           st_wr_refused,  // writes refused (wraps)
  output      logic                  st_last_valid,  // a request has been refused
  output      logic                  st_last_wr,     // ... it was a write
  output      logic [63:2]           st_last_addr    // ... at this address (dword)
);

  `include "pcie_tlp_func.svh"

  typedef enum logic [1:0] { S_HDR, S_PASS, S_DROP } state_e;
  state_e state_q;

  pcie_tlp_pkg::tlp_req_t req;
  logic [63:0]     last;                   // last byte of the request (dword granular)
  logic            is_mem, is_atomic, is_wr, need_rd, need_wr, wraps, ok, deny, hdr;
  logic [NWIN-1:0] in_win;

  always_comb begin
    req       = tlp_req_decode(s_data);
    // MRd / MWr (typ 0), MRdLk (typ 1); AtomicOps FetchAdd, Swap, CAS (typ 0xc..0xe)
    is_atomic = req.typ == 5'b01100 || req.typ == 5'b01101 || req.typ == 5'b01110;
    is_mem    = !req.fmt[2] && (req.typ == 5'b00000 || req.typ == 5'b00001 || is_atomic);
    is_wr     = req.fmt[1] && !is_atomic;                 // a posted memory write
    need_rd   = !is_wr;
    need_wr   = is_wr || is_atomic;
    last      = req.addr + {51'd0, req.len, 2'b00} - 64'd1;
    wraps     = last < req.addr;
    for (int i = 0; i < NWIN; i++) begin
      in_win[i] = (cfg_rd[i] || !need_rd) && (cfg_wr[i] || !need_wr) && (cfg_rd[i] || cfg_wr[i]) &&
                  req.addr[63:12] >= cfg_base[i] && last[63:12] <= cfg_limit[i];
    end
    ok        = !wraps && |in_win;
  end

  assign hdr  = state_q == S_HDR && s_valid && s_sop;
  assign deny = cfg_enforce && is_mem && !ok;

  // refused reads: one UR completion each
  assign ur_valid = hdr && deny && !is_wr;
  assign ur_req   = req;

  always_comb begin
    m_data  = s_data;
    m_keep  = s_keep;
    m_sop   = s_sop;
    m_eop   = s_eop;
    m_valid = s_valid && (state_q == S_PASS || (state_q == S_HDR && s_sop && !deny));
    case (state_q)
      S_PASS:  s_ready = m_ready;
      S_DROP:  s_ready = 1'b1;
      default: s_ready = !s_sop ? 1'b1 :                  // (no stray beats: consumed)
                         !deny ? m_ready : is_wr ? 1'b1 : ur_ready;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q       <= S_HDR;
      st_rd_refused <= '0;
      st_wr_refused <= '0;
      st_last_valid <= 1'b0;
      st_last_wr    <= 1'b0;
      st_last_addr  <= '0;
    end else begin
      if (hdr && s_ready) begin
        if (!s_eop) state_q <= deny ? S_DROP : S_PASS;
        if (deny) begin
          if (is_wr) st_wr_refused <= st_wr_refused + 1'b1;
          else       st_rd_refused <= st_rd_refused + 1'b1;
          st_last_valid <= 1'b1;
          st_last_wr    <= is_wr;
          st_last_addr  <= req.addr[63:2];
        end
      end else if (state_q != S_HDR && s_valid && s_ready && s_eop) begin
        state_q <= S_HDR;
      end
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{req.fmt[0], req.tc, req.attr, req.ep, req.req_id, req.tag, req.first_be,
                    req.last_be, last[11:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
