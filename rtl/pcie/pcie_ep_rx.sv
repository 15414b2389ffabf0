// SPDX-License-Identifier: Apache-2.0
//
// pcie_ep_rx: receive path of the PCIe endpoint. Takes the TLPs of s_tlp one
// at a time, classifies each request and hands it to the unit that serves it:
//
//   CfgRd0/CfgWr0 (function 0, Length 1)      -> configuration space (pcie_cfg_t0)
//   MRd/MWr hitting BAR0 inside the register map, Length <= BURST_DW
//                                             -> register bridge (header, then payload)
//   MRd/MWr hitting BAR2 (the aperture), not poisoned, not malformed, with
//   SMFU = 1                                  -> aperture stream ap_* (the whole
//                                                TLP, header beat as received)
//   Cpl/CplD with tag CPL_TAG_BASE .. + CPL_TAGS - 1 (or the 5-bit alias
//   CPL_TAG_BASE >> 3 .. + CPL_TAGS - 1), with SMFU = 1
//                                             -> completion stream scpl_* (whole TLP)
//   other non-posted requests (no BAR hit, memory space disabled, BAR2 aperture
//   reads with SMFU = 0, CfgRd1/CfgWr1, IO, MRdLk, AtomicOps, poisoned,
//   malformed, too long)                      -> UR completion generator
//   other posted TLPs and strays (writes that hit nothing, aperture writes
//   with SMFU = 0, messages, poisoned writes, other completions, TLP prefixes)
//                                             -> dropped
//
// The two streams are offered the header beat in the classify cycle already
// (one bubble per TLP instead of two) and then take the payload beats
// straight from s_tlp, in order.
//
// Classification happens in the cycle after the header beat, from registered
// copies of the header and the configuration state, and a configuration write
// is applied before the next TLP is classified: a CfgWr0 that enables memory
// space or moves a BAR takes effect for the very next request. Every
// non-posted request leads to exactly one completion (by cfg, bridge or UR
// unit); the remaining payload beats of a TLP are always consumed up to eop,
// so a malformed TLP cannot wedge the stream.

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_ep_rx
#(
  parameter int REG_BAR_LOG2  = 16,    // BAR0 size, log2 bytes
  parameter int APERTURE_LOG2 = 28,    // BAR2 size, log2 bytes
  parameter int REG_MAP_BYTES = 'h200, // bytes of BAR0 backed by registers (rest: UR)
  parameter int BURST_DW      = 16,    // longest BAR0 request in dwords (even, 2..32)
  parameter bit SMFU          = 1'b0,  // 1: aperture requests and SMFU completions -> ap_* / scpl_*
  parameter logic [7:0] CPL_TAG_BASE = 8'h80, // first tag of the SMFU's MRd (multiple of CPL_TAGS)
  parameter int CPL_TAGS      = 16     // tags of the SMFU's MRd (power of two)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,       // synchronous, active high

  // ---------------- TLPs from the link (docs/tlp-interface.md) ----------------
  `TLP_S_PORTS(s_tlp),

  // ---------------- configuration state (from pcie_cfg_t0) ----------------
  input  wire logic                  mem_en,    // command: memory space enable
  input  wire logic [31:0]           bar0,      // BAR0 base
  input  wire logic [63:0]           bar2,      // BAR2(/3) base (32-bit BAR: bits 63:32 zero)

  // ---------------- configuration requests ----------------
  output      logic                  cfg_valid,
  input  wire logic                  cfg_ready,
  output      pcie_tlp_pkg::tlp_req_t              cfg_req,
  output      logic [31:0]           cfg_wdata,  // payload dword of a CfgWr0

  // ---------------- BAR0 requests (header; write payload follows on mem_pl) ----------------
  output      logic                  mem_valid,
  input  wire logic                  mem_ready,
  output      pcie_tlp_pkg::tlp_req_t              mem_req,
  output      logic [pcie_tlp_pkg::TLP_DATA_W-1:0] mem_pl_data,
  output      logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] mem_pl_keep,
  output      logic                  mem_pl_last,
  output      logic                  mem_pl_valid,
  input  wire logic                  mem_pl_ready,

  // ---------------- requests to answer with UR ----------------
  output      logic                  ur_valid,
  input  wire logic                  ur_ready,
  output      pcie_tlp_pkg::tlp_req_t              ur_req,

  // ---------------- aperture requests (SMFU = 1; whole TLPs) ----------------
  `TLP_M_PORTS(ap),

  // ---------------- completions for the SMFU's tags (SMFU = 1; whole TLPs) ----------------
  `TLP_M_PORTS(scpl),

  // ---------------- event pulses (counters) ----------------
  output      logic                  ev_rx_tlp,    // a header beat was received
  output      logic                  ev_ur,        // a non-posted request gets UR
  output      logic                  ev_drop,      // a posted TLP / stray was dropped
  output      logic                  ev_ur_wr,     // ... a memory write that is an unsupported request
  output      logic                  ev_aperture   // a memory request hit BAR2
);

  `include "pcie_tlp_func.svh"

  // ------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------
  typedef enum logic [2:0] {
    S_HDR,       // wait for a header beat
    S_CLASSIFY,  // classify the captured header
    S_CFG_DATA,  // take the payload of a CfgWr0
    S_CFG_REQ,   // hand a CfgWr0 (with data) to the config space
    S_DISPATCH,  // hand the request to its unit
    S_PAYLOAD,   // forward MWr payload to the bridge
    S_DRAIN,     // discard beats up to eop
    S_FWD        // stream the payload to ap_* / scpl_* (fwd_cpl_q)
  } state_e;

  typedef enum logic [2:0] { C_CFG, C_MEM_RD, C_MEM_WR, C_UR, C_DROP, C_AP, C_SCPL } class_e;

  state_e                state_q;
  class_e                class_q, cls;
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] hdr_q;
  logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] hdr_keep_q;
  logic                  hdr_eop_q;     // the header beat was the last beat
  logic                  fwd_cpl_q;     // S_FWD: 1 completion stream, 0 aperture stream
  logic [31:0]           cfg_wdata_q;
  logic                  cfg_got_data_q;
  pcie_tlp_pkg::tlp_req_t              req;
  logic                  hit_aperture;

  assign req = tlp_req_decode(hdr_q);

  // ------------------------------------------------------------------
  // Classification (combinational on the registered header)
  // ------------------------------------------------------------------
  logic        has_data, wide, prefix;
  logic        is_mem, is_cfg0, nonposted, malformed, is_scpl;
  logic        addr_hi_zero, bar0_hit, bar2_hit, in_map;
  logic [REG_BAR_LOG2-3:0] off_dw;       // dword offset inside BAR0
  logic [REG_BAR_LOG2:0]   end_dw;       // one past the last dword of the request

  always_comb begin
    has_data  = req.fmt[1];
    wide      = req.fmt[0];
    prefix    = req.fmt[2];
    is_mem    = !prefix && req.typ == pcie_tlp_pkg::TYPE_MEM;
    is_cfg0   = !prefix && !wide && req.typ == pcie_tlp_pkg::TYPE_CFG0;
    // a payload announced but not delivered is malformed
    malformed = has_data && hdr_eop_q;
    nonposted = tlp_nonposted(req);

    addr_hi_zero = (req.addr[63:32] == 32'd0);
    bar0_hit = mem_en && addr_hi_zero &&
               req.addr[31:REG_BAR_LOG2] == bar0[31:REG_BAR_LOG2];
    bar2_hit = mem_en && req.addr[63:APERTURE_LOG2] == bar2[63:APERTURE_LOG2];
    off_dw   = req.addr[REG_BAR_LOG2-1:2];
    end_dw   = {2'b00, off_dw} + (REG_BAR_LOG2+1)'(req.len);
    in_map   = end_dw <= (REG_BAR_LOG2+1)'(REG_MAP_BYTES / 4);

    hit_aperture = is_mem && bar2_hit && !bar0_hit;
    // completion tag: header dword 2 bits 15:8
    // (the SMFU's 8-bit tags, or their 5-bit alias CPL_TAG_BASE >> 3 used while
    // Extended Tag Field Enable is clear, docs/pcie-rules.md row 11)
    is_scpl = SMFU && !prefix && req.typ == pcie_tlp_pkg::TYPE_CPL && !malformed &&
              ((hdr_q[79:72] & ~8'(CPL_TAGS - 1)) == CPL_TAG_BASE ||
               (hdr_q[79:72] & ~8'(CPL_TAGS - 1)) == (CPL_TAG_BASE >> 3));

    if (SMFU && hit_aperture && !req.ep && !malformed) begin
      cls = C_AP;
    end else if (is_scpl) begin
      cls = C_SCPL;
    end else if (is_mem && bar0_hit && !req.ep && !malformed && in_map &&
        req.len <= 11'(BURST_DW)) begin
      cls = has_data ? C_MEM_WR : C_MEM_RD;
    end else if (is_cfg0 && !req.ep && !malformed && req.len == 11'd1 &&
                 req.addr[18:16] == 3'd0) begin
      cls = C_CFG;
    end else if (nonposted) begin
      cls = C_UR;
    end else begin
      cls = C_DROP;
    end
  end

  // ------------------------------------------------------------------
  // Sequencing
  // ------------------------------------------------------------------
  logic s_fire;
  assign s_fire = s_tlp_valid && s_tlp_ready;

  always_comb begin
    s_tlp_ready = 1'b0;
    case (state_q)
      S_HDR:      s_tlp_ready = 1'b1;
      S_CFG_DATA: s_tlp_ready = 1'b1;
      S_PAYLOAD:  s_tlp_ready = mem_pl_ready;
      S_DRAIN:    s_tlp_ready = 1'b1;
      S_FWD:      s_tlp_ready = fwd_cpl_q ? scpl_ready : ap_ready;
      default:    s_tlp_ready = 1'b0;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= S_HDR;
    end else begin
      case (state_q)
        S_HDR: begin
          // beats without sop outside a TLP are discarded
          if (s_fire && s_tlp_sop) begin
            state_q <= S_CLASSIFY;
          end
        end
        S_CLASSIFY: begin
          if (cls == C_CFG && req.fmt[1]) begin
            state_q <= S_CFG_DATA;
          end else if (cls == C_DROP) begin
            state_q <= hdr_eop_q ? S_HDR : S_DRAIN;
          end else if ((cls == C_AP && ap_ready) || (cls == C_SCPL && scpl_ready)) begin
            state_q <= hdr_eop_q ? S_HDR : S_FWD;    // header taken at once
          end else begin
            state_q <= S_DISPATCH;
          end
        end
        S_CFG_DATA: if (s_fire && s_tlp_eop) state_q <= S_CFG_REQ;
        S_CFG_REQ:  if (cfg_ready) state_q <= S_HDR;
        S_DISPATCH: begin
          if ((class_q == C_CFG && cfg_ready) ||
              (class_q == C_MEM_RD && mem_ready) ||
              (class_q == C_UR && ur_ready)) begin
            state_q <= hdr_eop_q ? S_HDR : S_DRAIN;
          end else if (class_q == C_MEM_WR && mem_ready) begin
            state_q <= S_PAYLOAD;
          end else if ((class_q == C_AP && ap_ready) || (class_q == C_SCPL && scpl_ready)) begin
            state_q <= hdr_eop_q ? S_HDR : S_FWD;
          end
        end
        S_PAYLOAD:  if (s_fire && s_tlp_eop) state_q <= S_HDR;
        S_DRAIN:    if (s_fire && s_tlp_eop) state_q <= S_HDR;
        S_FWD:      if (s_fire && s_tlp_eop) state_q <= S_HDR;
        default:    state_q <= S_HDR;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (state_q == S_HDR && s_fire && s_tlp_sop) begin
      hdr_q      <= s_tlp_data;
      hdr_keep_q <= s_tlp_keep;
      hdr_eop_q  <= s_tlp_eop;
    end
    if (state_q == S_CLASSIFY) begin
      class_q        <= cls;
      fwd_cpl_q      <= cls == C_SCPL;
      cfg_got_data_q <= 1'b0;
      cfg_wdata_q    <= 32'd0;
    end
    if (state_q == S_CFG_DATA && s_fire && !cfg_got_data_q) begin
      cfg_got_data_q <= 1'b1;
      cfg_wdata_q    <= s_tlp_data[31:0];
    end
  end

  // ------------------------------------------------------------------
  // Outputs to the units
  // ------------------------------------------------------------------
  assign cfg_valid = (state_q == S_CFG_REQ) || (state_q == S_DISPATCH && class_q == C_CFG);
  assign cfg_req   = req;
  assign cfg_wdata = cfg_wdata_q;

  assign mem_valid = (state_q == S_DISPATCH) && (class_q == C_MEM_RD || class_q == C_MEM_WR);
  assign mem_req   = req;

  assign mem_pl_data  = s_tlp_data;
  assign mem_pl_keep  = s_tlp_keep;
  assign mem_pl_last  = s_tlp_eop;
  assign mem_pl_valid = (state_q == S_PAYLOAD) && s_tlp_valid;

  assign ur_valid = (state_q == S_DISPATCH) && (class_q == C_UR);
  assign ur_req   = req;

  // aperture / SMFU completion streams: header beat in S_CLASSIFY (or
  // S_DISPATCH while the first offer waits), payload beats from s_tlp
  logic f_hdr, f_hdr_ap, f_hdr_cpl;
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] f_data;
  logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] f_keep;
  logic f_eop;
  assign f_hdr_ap  = (state_q == S_CLASSIFY && cls == C_AP) ||
                     (state_q == S_DISPATCH && class_q == C_AP);
  assign f_hdr_cpl = (state_q == S_CLASSIFY && cls == C_SCPL) ||
                     (state_q == S_DISPATCH && class_q == C_SCPL);
  assign f_hdr     = state_q == S_CLASSIFY || state_q == S_DISPATCH;
  assign f_data    = f_hdr ? hdr_q      : s_tlp_data;
  assign f_keep    = f_hdr ? hdr_keep_q : s_tlp_keep;
  assign f_eop     = f_hdr ? hdr_eop_q  : s_tlp_eop;

  assign ap_data    = f_data;
  assign ap_keep    = f_keep;
  assign ap_sop     = f_hdr;
  assign ap_eop     = f_eop;
  assign ap_valid   = f_hdr_ap || (state_q == S_FWD && !fwd_cpl_q && s_tlp_valid);
  assign scpl_data  = f_data;
  assign scpl_keep  = f_keep;
  assign scpl_sop   = f_hdr;
  assign scpl_eop   = f_eop;
  assign scpl_valid = f_hdr_cpl || (state_q == S_FWD && fwd_cpl_q && s_tlp_valid);

  // ------------------------------------------------------------------
  // Events, one pulse per TLP
  // ------------------------------------------------------------------
  assign ev_rx_tlp   = (state_q == S_HDR) && s_fire && s_tlp_sop;
  assign ev_ur       = (state_q == S_CLASSIFY) && (cls == C_UR);
  assign ev_drop     = (state_q == S_CLASSIFY) && (cls == C_DROP);
  // a good memory write nobody takes is an Unsupported Request (PCIe Base
  // Spec. 6.2.3.1); poisoned writes, messages and stray completions are not
  assign ev_ur_wr    = ev_drop && is_mem && has_data && !req.ep && !malformed;
  assign ev_aperture = (state_q == S_CLASSIFY) && hit_aperture;

  // Bits below the BAR sizes are zero by construction.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{bar0[REG_BAR_LOG2-1:0], bar2[APERTURE_LOG2-1:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
