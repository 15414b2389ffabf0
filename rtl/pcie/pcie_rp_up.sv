// SPDX-License-Identifier: Apache-2.0
//
// pcie_rp_up: root-port routing of the TLPs that come from ABOVE (the NIC:
// backdoor TX / network inject, later the SMFU) on s_up. One TLP at a time;
// classification happens in the cycle after the header beat, from the
// registered header and the configuration state, and a configuration write
// to the root port is applied before the next TLP is classified.
//
//   CfgRd0/CfgWr0 to bus 0, device 0, function 0, Length 1, not poisoned
//                                                   -> own config space (pcie_cfg_t1)
//   CfgRd1/CfgWr1, Length 1, bus != 0:
//     bus == secondary, device 0                    -> down, converted to Type 0
//     secondary < bus <= subordinate                -> down, unchanged (Type 1)
//   MRd/MWr (32/64-bit header), memory space enabled, address inside the
//     non-prefetchable or the prefetchable window   -> down, unchanged
//   Cpl/CplD whose requester bus is below (secondary..subordinate, != 0)
//                                                   -> down, unchanged
//   every other non-posted request (other buses, device != 0 on the secondary
//     bus, other functions on bus 0, outside the windows, memory space off,
//     IO, MRdLk, AtomicOps, malformed)              -> UR completion (pcie_cpl_ur)
//   every other posted TLP / stray (MWr outside the windows, messages,
//     unroutable completions, prefixes)             -> dropped
//
// Link down (dl_up low: the vendor layer reports no link, or the bridge's
// Secondary Bus Reset holds the link in reset): nothing is forwarded down.
// PCIe Base Spec. 2.9.1 (Transaction Layer behavior in DL_Down status, a
// Downstream Port): a non-posted request that would go to the link gets a UR
// completion, posted requests and completions are discarded. The own config
// space stays reachable.
//
// The root port is bus 0, device 0 of its hierarchy (docs/remote-access.md):
// its own bus is the constant 0, not the primary bus number register (which is
// plain storage; Linux writes 0 there), so a wrong value written there cannot
// make the root port unreachable through the config tunnel.
//
// Window checks use the start address: the windows are 1 MiB aligned and a
// legal request does not cross a 4 KiB boundary. Forwarded TLPs keep their
// payload beats as received (beat 0 re-registered; dword 3 of a 3-DW header
// forced to zero); the remaining beats pass through combinationally.

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_rp_up
(
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,       // synchronous, active high

  // ---------------- TLPs from above (docs/tlp-interface.md) ----------------
  `TLP_S_PORTS(s_up),

  // ---------------- configuration state (from pcie_cfg_t1) ----------------
  input  wire logic                  mem_en,     // command: memory space enable
  input  wire logic                  dl_up,      // downstream link usable (up, no secondary bus reset)
  input  wire logic [7:0]            sec_bus,
  input  wire logic [7:0]            sub_bus,
  input  wire logic [31:20]          mem_base,   // non-prefetchable window
  input  wire logic [31:20]          mem_limit,
  input  wire logic [63:20]          pref_base,  // prefetchable window
  input  wire logic [63:20]          pref_limit,

  // ---------------- requests to the own configuration space ----------------
  output      logic                  cfg_valid,
  input  wire logic                  cfg_ready,
  output      pcie_tlp_pkg::tlp_req_t cfg_req,
  output      logic [31:0]           cfg_wdata,  // payload dword of a CfgWr0

  // ---------------- requests to answer with UR ----------------
  output      logic                  ur_valid,
  input  wire logic                  ur_ready,
  output      pcie_tlp_pkg::tlp_req_t ur_req,

  // ---------------- TLPs forwarded down (to the downstream arbiter) ----------------
  `TLP_M_PORTS(m_fwd),

  // ---------------- event pulses (counters), one per TLP ----------------
  output      logic                  ev_rx,      // header beat received
  output      logic                  ev_cfg,     // request to the own config space
  output      logic                  ev_fwd,     // TLP forwarded down
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
    S_CFG_DATA,  // take the payload of a CfgWr0
    S_DISPATCH,  // hand the request to the config space / UR unit
    S_FWD_HDR,   // present the (converted) header beat below
    S_FWD_DATA,  // pass the payload beats below
    S_DRAIN      // discard beats up to eop
  } state_e;

  typedef enum logic [1:0] { C_CFG, C_FWD, C_UR, C_DROP } class_e;

  state_e                state_q;
  class_e                class_q, cls;
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] hdr_q;
  logic                  hdr_eop_q;     // the header beat was the last beat
  logic                  to_t0_q, to_t0; // convert Type 1 to Type 0
  logic [31:0]           cfg_wdata_q;
  logic                  cfg_got_data_q;
  pcie_tlp_pkg::tlp_req_t req;

  assign req = tlp_req_decode(hdr_q);

  // ------------------------------------------------------------------
  // Classification (combinational on the registered header)
  // ------------------------------------------------------------------
  logic        has_data, wide, prefix, malformed, nonposted;
  logic        is_mem, is_cfg0, is_cfg1, is_cpl;
  logic [7:0]  tgt_bus, cpl_req_bus;
  logic [4:0]  tgt_dev;
  logic [2:0]  tgt_fn;
  logic        bus_below, cpl_below, in_np, in_pref;

  always_comb begin
    has_data  = req.fmt[1];
    wide      = req.fmt[0];
    prefix    = req.fmt[2];
    malformed = has_data && hdr_eop_q;   // payload announced but not delivered
    is_mem    = !prefix && req.typ == pcie_tlp_pkg::TYPE_MEM;
    is_cfg0   = !prefix && !wide && req.typ == pcie_tlp_pkg::TYPE_CFG0;
    is_cfg1   = !prefix && !wide && req.typ == pcie_tlp_pkg::TYPE_CFG1;
    is_cpl    = !prefix && !wide && (req.typ == pcie_tlp_pkg::TYPE_CPL || req.typ == pcie_tlp_pkg::TYPE_CPL_LK);
    nonposted = tlp_nonposted(req);

    tgt_bus     = req.addr[31:24];
    tgt_dev     = req.addr[23:19];
    tgt_fn      = req.addr[18:16];
    cpl_req_bus = hdr_q[95:88];          // completion dword 2: requester ID bus
    bus_below   = tgt_bus != 8'd0 && tgt_bus >= sec_bus && tgt_bus <= sub_bus;
    cpl_below   = cpl_req_bus != 8'd0 && cpl_req_bus >= sec_bus && cpl_req_bus <= sub_bus;

    // windows: non-prefetchable below 4 GiB, prefetchable 64-bit
    in_np   = req.addr[63:32] == 32'd0 &&
              req.addr[31:20] >= mem_base && req.addr[31:20] <= mem_limit;
    in_pref = req.addr[63:20] >= pref_base && req.addr[63:20] <= pref_limit;

    to_t0 = 1'b0;
    if (is_cfg0 && !req.ep && !malformed && req.len == 11'd1 &&
        tgt_bus == 8'd0 && tgt_dev == 5'd0 && tgt_fn == 3'd0) begin
      cls = C_CFG;
    end else if (dl_up && is_cfg1 && !malformed && req.len == 11'd1 && bus_below &&
                 (tgt_bus != sec_bus || tgt_dev == 5'd0)) begin
      cls   = C_FWD;
      to_t0 = tgt_bus == sec_bus;
    end else if (dl_up && is_mem && !malformed && mem_en && (in_np || in_pref)) begin
      cls = C_FWD;
    end else if (dl_up && is_cpl && !malformed && cpl_below) begin
      cls = C_FWD;
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
  assign s_fire = s_up_valid && s_up_ready;

  always_comb begin
    case (state_q)
      S_HDR:      s_up_ready = 1'b1;
      S_CFG_DATA: s_up_ready = 1'b1;
      S_FWD_DATA: s_up_ready = m_fwd_ready;
      S_DRAIN:    s_up_ready = 1'b1;
      default:    s_up_ready = 1'b0;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= S_HDR;
    end else begin
      case (state_q)
        S_HDR: begin
          // beats without sop outside a TLP are discarded
          if (s_fire && s_up_sop) begin
            state_q <= S_CLASSIFY;
          end
        end
        S_CLASSIFY: begin
          case (cls)
            C_CFG:   state_q <= req.fmt[1] ? S_CFG_DATA : S_DISPATCH;
            C_FWD:   state_q <= S_FWD_HDR;
            C_UR:    state_q <= S_DISPATCH;
            default: state_q <= hdr_eop_q ? S_HDR : S_DRAIN;
          endcase
        end
        S_CFG_DATA: if (s_fire && s_up_eop) state_q <= S_DISPATCH;
        S_DISPATCH: begin
          if ((class_q == C_CFG && cfg_ready) || (class_q == C_UR && ur_ready)) begin
            // a CfgWr0 has consumed its payload already
            state_q <= (hdr_eop_q || (class_q == C_CFG && req.fmt[1])) ? S_HDR : S_DRAIN;
          end
        end
        S_FWD_HDR:  if (m_fwd_ready) state_q <= hdr_eop_q ? S_HDR : S_FWD_DATA;
        S_FWD_DATA: if (s_fire && s_up_eop) state_q <= S_HDR;
        S_DRAIN:    if (s_fire && s_up_eop) state_q <= S_HDR;
        default:    state_q <= S_HDR;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (state_q == S_HDR && s_fire && s_up_sop) begin
      hdr_q     <= s_up_data;
      hdr_eop_q <= s_up_eop;
      if (!s_up_data[29]) begin
        hdr_q[127:96] <= 32'd0;        // 3-DW header: dword 3 is zero
      end
    end
    if (state_q == S_CLASSIFY) begin
      class_q        <= cls;
      to_t0_q        <= to_t0;
      cfg_got_data_q <= 1'b0;
      cfg_wdata_q    <= 32'd0;
    end
    if (state_q == S_CFG_DATA && s_fire && !cfg_got_data_q) begin
      cfg_got_data_q <= 1'b1;
      cfg_wdata_q    <= s_up_data[31:0];
    end
  end

  // ------------------------------------------------------------------
  // Outputs
  // ------------------------------------------------------------------
  assign cfg_valid = (state_q == S_DISPATCH) && (class_q == C_CFG);
  assign cfg_req   = req;
  assign cfg_wdata = cfg_wdata_q;

  assign ur_valid  = (state_q == S_DISPATCH) && (class_q == C_UR);
  assign ur_req    = req;

  always_comb begin
    if (state_q == S_FWD_HDR) begin
      m_fwd_data = hdr_q;
      if (to_t0_q) begin
        m_fwd_data[28:24] = pcie_tlp_pkg::TYPE_CFG0;
      end
      m_fwd_keep  = hdr_q[29] ? 4'b1111 : 4'b0111;
      m_fwd_sop   = 1'b1;
      m_fwd_eop   = hdr_eop_q;
      m_fwd_valid = 1'b1;
    end else begin
      m_fwd_data  = s_up_data;
      m_fwd_keep  = s_up_keep;
      m_fwd_sop   = 1'b0;
      m_fwd_eop   = s_up_eop;
      m_fwd_valid = (state_q == S_FWD_DATA) && s_up_valid;
    end
  end

  // ------------------------------------------------------------------
  // Events
  // ------------------------------------------------------------------
  assign ev_rx   = (state_q == S_HDR) && s_fire && s_up_sop;
  assign ev_cfg  = (state_q == S_CLASSIFY) && (cls == C_CFG);
  assign ev_fwd  = (state_q == S_CLASSIFY) && (cls == C_FWD);
  assign ev_ur   = (state_q == S_CLASSIFY) && (cls == C_UR);
  assign ev_drop = (state_q == S_CLASSIFY) && (cls == C_DROP);

endmodule

`default_nettype wire
