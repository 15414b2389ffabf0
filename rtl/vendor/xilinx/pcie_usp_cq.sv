// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_cq: Xilinx UltraScale+ PCIe (PCIE4) completer request interface
// (CQ, AXI-Stream, 128 bits, dword-aligned) to the NIC's TLP stream
// (docs/tlp-interface.md), endpoint and root-port mode (docs/hard-ip.md).
//
// A CQ packet is a 4-dword descriptor (PG213 "Completer Request Descriptor
// Format") followed by the payload. At 128 bits the descriptor fills the
// first beat and the payload starts on the second beat, exactly the layout of
// the TLP stream (header beat, payload from beat 1): the first beat is
// replaced by the rebuilt TLP header, every other beat passes unchanged.
// No storage: valid/ready pass through, the header is built from the beat.
//
// Descriptor fields used: address [63:2] (AT [1:0] goes to header AT),
// dword count [74:64], request type [78:75], requester ID [95:80], tag
// [103:96], BAR ID [114:112], BAR aperture [120:115], TC [123:121], attributes
// [126:124]; tuser: first BE [3:0], last BE [7:4]. The request type gives
// Fmt/Type: memory, I/O, locked read and AtomicOps keep their type (the NIC
// answers the ones it does not serve with UR); a memory request with an
// address above 4 GiB gets a 4-dword header. Messages (request types
// 1100..1110, only with the IP's message forwarding on) become a local Msg
// header, which the NIC drops. np_in marks each non-posted request for the
// flow control (pcie_usp_np_fc). The BAR ID and aperture of the request are
// side band with the header beat (m_tlp_bar_id, m_tlp_bar_aperture): on a
// hard IP the IP decodes the BARs. Function number (descriptor [111:104]):
// one function, ignored. Synchronous to clk (the IP's user_clk), rst.

`default_nettype none
`include "tlp_stream.svh"

module pcie_usp_cq #(
  parameter int CQ_USER_W = 88                     // s_axis_cq_tuser width (88 at 64..256 bits)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                 clk,
  input  wire logic                 rst,             // synchronous, active high

  // ---------------- CQ from the hard IP (m_axis_cq of the IP) ----------------
  input  wire logic [127:0]         s_axis_cq_tdata,
  input  wire logic [3:0]           s_axis_cq_tkeep,   // one bit per dword
  input  wire logic                 s_axis_cq_tlast,
  input  wire logic [CQ_USER_W-1:0] s_axis_cq_tuser,
  input  wire logic                 s_axis_cq_tvalid,
  output      logic                 s_axis_cq_tready,
  output      logic                 np_in,             // pulse: a non-posted request's header beat taken

  // ---------------- TLP stream into the NIC ----------------
  `TLP_M_PORTS(m_tlp),
  output      logic [2:0]           m_tlp_bar_id,      // with the header beat: BAR the IP matched
  output      logic [5:0]           m_tlp_bar_aperture // with the header beat: log2 of its size
);

  logic        in_pkt_q;                         // a packet is in progress (next beat is not sop)
  logic [1:0]  d_at;
  logic [63:0] d_addr;
  logic [10:0] d_dwc;
  logic [3:0]  d_rt;
  logic [15:0] d_rid;
  logic [7:0]  d_tag;
  logic [2:0]  d_tc, d_attr;
  logic [3:0]  first_be, last_be;
  logic [2:0]  fmt;
  logic [4:0]  typ;
  logic        hdr4, addr64;
  logic [31:0] dw0, dw1, dw2, dw3;

  // ------------------------------------------------------------------
  // Descriptor fields
  // ------------------------------------------------------------------
  assign d_at     = s_axis_cq_tdata[1:0];
  assign d_addr   = {s_axis_cq_tdata[63:2], 2'b00};
  assign d_dwc    = s_axis_cq_tdata[74:64];
  assign d_rt     = s_axis_cq_tdata[78:75];
  assign d_rid    = s_axis_cq_tdata[95:80];
  assign d_tag    = s_axis_cq_tdata[103:96];
  assign d_tc     = s_axis_cq_tdata[123:121];
  assign d_attr   = s_axis_cq_tdata[126:124];
  assign first_be = s_axis_cq_tuser[3:0];
  assign last_be  = s_axis_cq_tuser[7:4];
  assign addr64   = d_addr[63:32] != 32'd0;

  // request type -> Fmt/Type (PG213 "Transaction Types")
  always_comb begin
    hdr4 = addr64;
    case (d_rt)
      4'b0000: begin fmt = {2'b00, addr64}; typ = 5'b00000; end  // MRd
      4'b0001: begin fmt = {2'b01, addr64}; typ = 5'b00000; end  // MWr
      4'b0010: begin fmt = 3'b000; typ = 5'b00010; hdr4 = 1'b0; end  // IORd
      4'b0011: begin fmt = 3'b010; typ = 5'b00010; hdr4 = 1'b0; end  // IOWr
      4'b0100: begin fmt = {2'b01, addr64}; typ = 5'b01100; end  // FetchAdd
      4'b0101: begin fmt = {2'b01, addr64}; typ = 5'b01101; end  // Swap
      4'b0110: begin fmt = {2'b01, addr64}; typ = 5'b01110; end  // CAS
      4'b0111: begin fmt = {2'b00, addr64}; typ = 5'b00001; end  // MRdLk
      default: begin fmt = 3'b001; typ = 5'b10100; hdr4 = 1'b1; end  // message (local): dropped
    endcase
  end

  assign dw0 = {fmt, typ, 1'b0, d_tc, 1'b0, d_attr[2], 1'b0, 1'b0, 1'b0, 1'b0, d_attr[1:0], d_at, d_dwc[9:0]};
  assign dw1 = {d_rid, d_tag, last_be, first_be};
  assign dw2 = hdr4 ? d_addr[63:32] : d_addr[31:0];
  assign dw3 = hdr4 ? d_addr[31:0] : 32'd0;

  // ------------------------------------------------------------------
  // Beats: the first is the header, the others pass unchanged
  // ------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q <= 1'b0;
    end else if (s_axis_cq_tvalid && s_axis_cq_tready) begin
      in_pkt_q <= !s_axis_cq_tlast;
    end
  end

  assign m_tlp_sop          = !in_pkt_q;
  assign m_tlp_eop          = s_axis_cq_tlast;
  assign m_tlp_valid        = s_axis_cq_tvalid;
  assign m_tlp_data         = in_pkt_q ? s_axis_cq_tdata : {dw3, dw2, dw1, dw0};
  assign m_tlp_keep         = in_pkt_q ? s_axis_cq_tkeep : {hdr4, 3'b111};
  assign m_tlp_bar_id       = s_axis_cq_tdata[114:112];
  assign m_tlp_bar_aperture = s_axis_cq_tdata[120:115];
  assign s_axis_cq_tready   = m_tlp_ready;

  // non-posted: reads, I/O, AtomicOps, locked read (pcie_usp_np_fc asks the IP
  // for their credits); MWr and messages are posted
  assign np_in = s_axis_cq_tvalid && s_axis_cq_tready && !in_pkt_q && !d_rt[3] && d_rt != 4'b0001;

  logic unused;
  assign unused = ^{s_axis_cq_tdata[111:104], s_axis_cq_tdata[127], d_dwc[10], s_axis_cq_tuser[CQ_USER_W-1:8]};

endmodule

`default_nettype wire
