// SPDX-License-Identifier: Apache-2.0
//
// nic_cpl_split: the root port's completion split (NAA NIC, docs/nic.md
// "SMFU wiring"). pcie_rp hands the TLPs that come up from the device on two
// streams, requests (m_up_req: DMA, MSI) and completions (m_up_cpl). The
// requests pass through to smfu_naa; the completions are split by tag:
//
//   tag in TAG_BASE .. TAG_BASE + TAGS - 1, or in its 5-bit alias
//   TAG_BASE >> 3 .. + TAGS - 1 (Extended Tag Field Enable clear)
//                                            -> m_sm (smfu_naa: completions of
//                                               its ingress reads of the device)
//   any other tag (the tunnel's 0xff, ...)   -> m_bd (backdoor RX filter)
//
// The decision is taken at the sop beat (the tag is in header dword 2) and
// held to eop: later beats carry payload, not a header.
//
// Ordering (docs/smfu.md "Ordering", docs/pcie-rules.md): a completion for
// the SMFU waits at its sop while a posted device request (an MWr: its header
// beat, or any payload beat) is pending on s_req: the device's earlier posted
// writes (DMA, MSI) enter the pass-through path first and, one packet stream
// in order, reach the host before the completion (PCIe Base Spec. 2.4.1,
// table 2-40: a completion must not pass a posted request). A pending
// non-posted request (MRd header) does not hold it: completions must be able
// to pass non-posted requests (same table), or a read blocked on tags would
// hold back the completions that free them. Completions for the backdoor
// are not held. The hold also applies to an SMFU completion whose
// sop is already offered on m_sm but not yet taken: m_sm_valid then drops
// until the write is gone (smfu_naa takes beats as they come, so a
// withdrawn sop is harmless there; block test rtl/tb/tb_nic_cpl_split.cpp).
//
// TLP streams per docs/tlp-interface.md; synchronous to clk, reset rst (sync,
// high). TAGS is a power of two and TAG_BASE a multiple of it.

`default_nettype none
`include "tlp_stream.svh"

module nic_cpl_split #(
  parameter logic [7:0] TAG_BASE = 8'h80,  // first SMFU tag
  parameter int         TAGS     = 16      // number of SMFU tags (power of two)
) (
  // ---------------- clock and reset ----------------
  input  wire logic          clk,
  input  wire logic          rst,          // synchronous, active high

  // ---------------- device requests (pcie_rp m_up_req) ----------------
  `TLP_S_PORTS(s_req),

  // ---------------- device requests to the SMFU (smfu_naa s_dev_req) ----------------
  `TLP_M_PORTS(m_req),

  // ---------------- completions (pcie_rp m_up_cpl) ----------------
  `TLP_S_PORTS(s_cpl),

  // ---------------- completions with an SMFU tag (smfu_naa s_dev_cpl) ----------------
  `TLP_M_PORTS(m_sm),

  // ---------------- other completions (pcie_backdoor s_rx) ----------------
  `TLP_M_PORTS(m_bd)
);

  // requests: straight through (the split only watches them)
  assign m_req_data  = s_req_data;
  assign m_req_keep  = s_req_keep;
  assign m_req_sop   = s_req_sop;
  assign m_req_eop   = s_req_eop;
  assign m_req_valid = s_req_valid;
  assign s_req_ready = m_req_ready;

  // in_q: inside a completion (after its sop beat); smfu_q: its decision
  logic in_q, smfu_q, smfu, hold;
  logic [7:0] tag;
  assign tag  = s_cpl_data[79:72];            // header dword 2 bits 15:8
  // the SMFU's 8-bit tags or their 5-bit alias TAG_BASE >> 3 (Extended Tag
  // Field Enable clear, docs/pcie-rules.md row 11)
  assign smfu = in_q ? smfu_q : ((tag & ~8'(TAGS - 1)) == TAG_BASE ||
                                 (tag & ~8'(TAGS - 1)) == (TAG_BASE >> 3));
  // posted: a payload beat, or a header with data (Fmt bit 1, dword 0 bit 30)
  assign hold = !in_q && smfu && s_req_valid && (!s_req_sop || s_req_data[30]);

  always_ff @(posedge clk) begin
    if (rst) begin
      in_q   <= 1'b0;
      smfu_q <= 1'b0;
    end else if (s_cpl_valid && s_cpl_ready) begin
      in_q   <= !s_cpl_eop;
      smfu_q <= smfu;
    end
  end

  assign m_sm_data  = s_cpl_data;
  assign m_sm_keep  = s_cpl_keep;
  assign m_sm_sop   = s_cpl_sop;
  assign m_sm_eop   = s_cpl_eop;
  assign m_sm_valid = s_cpl_valid && smfu && !hold;

  assign m_bd_data  = s_cpl_data;
  assign m_bd_keep  = s_cpl_keep;
  assign m_bd_sop   = s_cpl_sop;
  assign m_bd_eop   = s_cpl_eop;
  assign m_bd_valid = s_cpl_valid && !smfu;

  assign s_cpl_ready = smfu ? (m_sm_ready && !hold) : m_bd_ready;

endmodule

`default_nettype wire
