// SPDX-License-Identifier: Apache-2.0
//
// pcie_rp_dn: root-port routing of the TLPs that come from BELOW (the device
// on the secondary bus, through the vendor layer) on s_dn. One TLP at a time,
// classified in the cycle after its header beat:
//
//   Cpl/CplD (CplLk/CplDLk)                      -> up, completion output m_cpl
//                                                   (to the backdoor RX filter)
//   MRd/MWr (32/64-bit header) with bus master
//     enable set, not malformed, address outside
//     both memory windows                        -> up, request output m_req
//                                                   (the device's DMA and MSI)
//   other non-posted requests (bus master off,
//     inside a window, IO, Cfg, MRdLk,
//     AtomicOps, malformed)                      -> UR completion back down
//   other posted TLPs (MWr with bus master off
//     or inside a window, messages, prefixes,
//     strays)                                    -> dropped
//
// Inverse window decode (PCI-to-PCI Bridge Architecture Spec. 1.2, 4.3 and
// 4.4: a bridge forwards a memory transaction upstream only if its address
// is outside the memory base/limit and prefetchable base/limit ranges; PCIe
// Base Spec. 7.5.1.3 keeps those rules for the Type-1 header): an address
// inside a window belongs to the hierarchy below, not to the host, so such a
// request is not passed up (the root port has no peer-to-peer routing: UR
// for a read, a write is discarded). A window with base > limit is off.
//
// The header beat is re-registered (dword 3 of a 3-DW header forced to zero)
// and the payload beats pass through combinationally to the chosen output.

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_rp_dn
(
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,       // synchronous, active high

  // ---------------- TLPs from below (docs/tlp-interface.md) ----------------
  `TLP_S_PORTS(s_dn),

  // ---------------- configuration state (from pcie_cfg_t1) ----------------
  input  wire logic                  bus_master, // command: bus master enable
  input  wire logic [31:20]          mem_base,   // non-prefetchable window
  input  wire logic [31:20]          mem_limit,
  input  wire logic [63:20]          pref_base,  // prefetchable window
  input  wire logic [63:20]          pref_limit,

  // ---------------- completions going up ----------------
  `TLP_M_PORTS(m_cpl),

  // ---------------- requests going up ----------------
  `TLP_M_PORTS(m_req),

  // ---------------- requests to answer with UR (sent back down) ----------------
  output      logic                  ur_valid,
  input  wire logic                  ur_ready,
  output      pcie_tlp_pkg::tlp_req_t ur_req,

  // ---------------- event pulses (counters), one per TLP ----------------
  output      logic                  ev_rx,      // header beat received
  output      logic                  ev_cpl,     // completion routed up
  output      logic                  ev_req,     // request routed up
  output      logic                  ev_ur,      // non-posted request answered UR
  output      logic                  ev_drop     // posted TLP / stray dropped
);

  `include "pcie_tlp_func.svh"

  // ------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------
  typedef enum logic [2:0] {
    S_HDR,       // wait for a header beat
    S_CLASSIFY,  // classify the captured header
    S_DISPATCH,  // hand the request to the UR unit
    S_FWD_HDR,   // present the header beat on the chosen output
    S_FWD_DATA,  // pass the payload beats
    S_DRAIN      // discard beats up to eop
  } state_e;

  typedef enum logic [1:0] { C_CPL, C_REQ, C_UR, C_DROP } class_e;

  state_e                state_q;
  class_e                class_q, cls;
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] hdr_q;
  logic                  hdr_eop_q;
  pcie_tlp_pkg::tlp_req_t req;

  assign req = tlp_req_decode(hdr_q);

  // ------------------------------------------------------------------
  // Classification
  // ------------------------------------------------------------------
  logic has_data, prefix, malformed, nonposted, is_mem, is_cpl, in_win;

  always_comb begin
    has_data  = req.fmt[1];
    prefix    = req.fmt[2];
    malformed = has_data && hdr_eop_q;
    is_mem    = !prefix && req.typ == pcie_tlp_pkg::TYPE_MEM;
    is_cpl    = !prefix && !req.fmt[0] &&
                (req.typ == pcie_tlp_pkg::TYPE_CPL || req.typ == pcie_tlp_pkg::TYPE_CPL_LK);
    nonposted = tlp_nonposted(req);
    // start address: a legal request does not cross a 4 KiB boundary and the
    // windows are 1 MiB aligned
    in_win    = (req.addr[63:32] == 32'd0 &&
                 req.addr[31:20] >= mem_base && req.addr[31:20] <= mem_limit) ||
                (req.addr[63:20] >= pref_base && req.addr[63:20] <= pref_limit);

    if (is_cpl && !malformed) begin
      cls = C_CPL;
    end else if (is_mem && !malformed && bus_master && !in_win) begin
      cls = C_REQ;
    end else if (nonposted) begin
      cls = C_UR;
    end else begin
      cls = C_DROP;
    end
  end

  // ------------------------------------------------------------------
  // Sequencing
  // ------------------------------------------------------------------
  logic s_fire, out_ready;
  assign s_fire    = s_dn_valid && s_dn_ready;
  assign out_ready = (class_q == C_CPL) ? m_cpl_ready : m_req_ready;

  always_comb begin
    case (state_q)
      S_HDR:      s_dn_ready = 1'b1;
      S_FWD_DATA: s_dn_ready = out_ready;
      S_DRAIN:    s_dn_ready = 1'b1;
      default:    s_dn_ready = 1'b0;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= S_HDR;
    end else begin
      case (state_q)
        S_HDR:      if (s_fire && s_dn_sop) state_q <= S_CLASSIFY;
        S_CLASSIFY: begin
          case (cls)
            C_CPL, C_REQ: state_q <= S_FWD_HDR;
            C_UR:         state_q <= S_DISPATCH;
            default:      state_q <= hdr_eop_q ? S_HDR : S_DRAIN;
          endcase
        end
        S_DISPATCH: if (ur_ready) state_q <= hdr_eop_q ? S_HDR : S_DRAIN;
        S_FWD_HDR:  if (out_ready) state_q <= hdr_eop_q ? S_HDR : S_FWD_DATA;
        S_FWD_DATA: if (s_fire && s_dn_eop) state_q <= S_HDR;
        S_DRAIN:    if (s_fire && s_dn_eop) state_q <= S_HDR;
        default:    state_q <= S_HDR;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (state_q == S_HDR && s_fire && s_dn_sop) begin
      hdr_q     <= s_dn_data;
      hdr_eop_q <= s_dn_eop;
      if (!s_dn_data[29]) begin
        hdr_q[127:96] <= 32'd0;        // 3-DW header: dword 3 is zero
      end
    end
    if (state_q == S_CLASSIFY) begin
      class_q <= cls;
    end
  end

  // ------------------------------------------------------------------
  // Outputs
  // ------------------------------------------------------------------
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] o_data;
  logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] o_keep;
  logic                                o_sop, o_eop, o_valid;

  always_comb begin
    if (state_q == S_FWD_HDR) begin
      o_data  = hdr_q;
      o_keep  = hdr_q[29] ? 4'b1111 : 4'b0111;
      o_sop   = 1'b1;
      o_eop   = hdr_eop_q;
      o_valid = 1'b1;
    end else begin
      o_data  = s_dn_data;
      o_keep  = s_dn_keep;
      o_sop   = 1'b0;
      o_eop   = s_dn_eop;
      o_valid = (state_q == S_FWD_DATA) && s_dn_valid;
    end
  end

  assign m_cpl_data  = o_data;
  assign m_cpl_keep  = o_keep;
  assign m_cpl_sop   = o_sop;
  assign m_cpl_eop   = o_eop;
  assign m_cpl_valid = o_valid && (class_q == C_CPL);

  assign m_req_data  = o_data;
  assign m_req_keep  = o_keep;
  assign m_req_sop   = o_sop;
  assign m_req_eop   = o_eop;
  assign m_req_valid = o_valid && (class_q == C_REQ);

  assign ur_valid = (state_q == S_DISPATCH);
  assign ur_req   = req;

  // ------------------------------------------------------------------
  // Events
  // ------------------------------------------------------------------
  assign ev_rx   = (state_q == S_HDR) && s_fire && s_dn_sop;
  assign ev_cpl  = (state_q == S_CLASSIFY) && (cls == C_CPL);
  assign ev_req  = (state_q == S_CLASSIFY) && (cls == C_REQ);
  assign ev_ur   = (state_q == S_CLASSIFY) && (cls == C_UR);
  assign ev_drop = (state_q == S_CLASSIFY) && (cls == C_DROP);

endmodule

`default_nettype wire
