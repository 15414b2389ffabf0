// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_tx: splits the NIC's outgoing TLP stream (docs/tlp-interface.md)
// between the two transmit interfaces of a Xilinx UltraScale+ PCIe (PCIE4)
// hard IP, completions to CC and requests to RQ, and keeps the order the NIC
// relies on across them (docs/hard-ip.md "Ordering"):
//
//   * completion after posted write: the IP transmits CC and RQ
//     independently, so a completion could overtake a memory write that the
//     NIC sent before it (PCIe forbids completions passing posted requests).
//     Every request handed to RQ is counted (rq_out) and the count drops by
//     one for every sequence number the IP reports on pcie_rq_seq_num_vld0/1
//     (the request has been scheduled for the link, PG213). A completion at
//     the head of the stream waits until rq_out is 0: everything sent before
//     it on RQ is ahead of it on the link. Requests never wait for
//     completions (they may pass them).
//   * interrupt after data: order_ok (rq_out is 0 and no request is half way
//     through the splitter) lets pcie_usp_msix raise the MSI-X message only
//     once the writes sent before it are on the link.
//
// The stream is split per TLP at the header beat (Fmt/Type 01010/01011:
// completion). rq_out saturates at RQ_MAX_OUT: requests wait there (the IP
// has at most 64 sequence numbers in flight). Synchronous to clk, rst.

`default_nettype none
`include "tlp_stream.svh"

module pcie_usp_tx #(
  parameter int RQ_MAX_OUT = 32                    // requests in flight before RQ waits (< 64)
) (
  // ---------------- clock and reset ----------------
  input  wire logic       clk,
  input  wire logic       rst,                     // synchronous, active high

  // ---------------- TLPs from the NIC ----------------
  `TLP_S_PORTS(s_tlp),

  // ---------------- completions (to pcie_usp_cc) ----------------
  `TLP_M_PORTS(m_cpl),

  // ---------------- requests (to pcie_usp_rq) ----------------
  `TLP_M_PORTS(m_req),

  // ---------------- sequence numbers from the IP ----------------
  input  wire logic       pcie_rq_seq_num_vld0,    // a request went to the link
  input  wire logic       pcie_rq_seq_num_vld1,    // another (512-bit IPs; else 0)

  // ---------------- ordering state ----------------
  output      logic       order_ok,                // every request sent so far is on the link
  output      logic [6:0] rq_out                   // requests not yet reported (status)
);

  logic       in_pkt_q, to_cpl_q, to_cpl, is_cpl, sel_cpl, hold;
  logic       req_start;
  logic [6:0] out_q;

  assign is_cpl = s_tlp_data[28:25] == 4'b0101;    // Type 0101x: Cpl/CplD/CplLk/CplDLk
  assign sel_cpl = in_pkt_q ? to_cpl_q : is_cpl;
  // a TLP starts only when its destination may take it
  assign hold = !in_pkt_q && (is_cpl ? out_q != 7'd0 : out_q >= 7'(RQ_MAX_OUT));
  assign to_cpl = sel_cpl;

  assign m_cpl_data  = s_tlp_data;
  assign m_cpl_keep  = s_tlp_keep;
  assign m_cpl_sop   = s_tlp_sop;
  assign m_cpl_eop   = s_tlp_eop;
  assign m_cpl_valid = s_tlp_valid && to_cpl && !hold;
  assign m_req_data  = s_tlp_data;
  assign m_req_keep  = s_tlp_keep;
  assign m_req_sop   = s_tlp_sop;
  assign m_req_eop   = s_tlp_eop;
  assign m_req_valid = s_tlp_valid && !to_cpl && !hold;
  assign s_tlp_ready = !hold && (to_cpl ? m_cpl_ready : m_req_ready);

  assign req_start = s_tlp_valid && s_tlp_ready && !in_pkt_q && !is_cpl;

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q <= 1'b0;
      to_cpl_q <= 1'b0;
      out_q    <= '0;
    end else begin
      if (s_tlp_valid && s_tlp_ready) begin
        in_pkt_q <= !s_tlp_eop;
        if (!in_pkt_q) to_cpl_q <= is_cpl;
      end
      out_q <= out_q + 7'(req_start) - 7'(pcie_rq_seq_num_vld0) - 7'(pcie_rq_seq_num_vld1);
    end
  end

  assign rq_out   = out_q;
  assign order_ok = out_q == 7'd0 && !(in_pkt_q && !to_cpl_q) && !req_start;

  logic unused;
  assign unused = s_tlp_sop;

endmodule

`default_nettype wire
