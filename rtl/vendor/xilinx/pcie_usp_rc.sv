// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_rc: Xilinx UltraScale+ PCIe (PCIE4) requester completion
// interface (RC, AXI-Stream, 128 bits, dword-aligned, no straddling) to
// completions on the NIC's TLP stream (docs/tlp-interface.md,
// docs/hard-ip.md): the completions for the NIC's own reads.
//
// An RC packet is a 3-dword descriptor (PG213 "Requester Completion
// Descriptor Format") with the payload from dword 3 of the first beat. The
// TLP stream wants the header alone in beat 0 and the payload from beat 1, so
// the first beat gives the header and keeps its dword 3; every later output
// beat is {dwords 0..2 of the input beat, the dword kept from the beat
// before}; when the last input beat is full an extra beat flushes its dword 3.
//
// Descriptor: lower address [11:0], error code [15:12], byte count [28:16],
// locked [29], dword count [42:32], status [45:43], poisoned [46], requester
// ID [63:48], tag [71:64], completer ID [87:72], TC [91:89], attributes
// [94:92]. Header: CplD (dword count > 0) or Cpl, CplDLk/CplLk when locked,
// byte count 4096 as 0 (12-bit field), lower address [6:0]. Error codes
// (PG213 "Requester Completion Descriptor"): 0 normal, 1 poisoned (EP set in
// the header) and 2 (status UR, CA or CRS) are completions from the link
// that the requester must see, and pass; the others the IP flags or makes up
// itself (no data or byte count mismatch, fields or address not matching the
// request, a tag not outstanding, FLR, completion timeout) are dropped and
// counted (ev_err): the NIC's requesters run their own timeouts.
// Synchronous to clk, rst.

`default_nettype none
`include "tlp_stream.svh"

module pcie_usp_rc #(
  parameter int RC_USER_W = 75                     // s_axis_rc_tuser width (75 at 64..256 bits)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                 clk,
  input  wire logic                 rst,             // synchronous, active high

  // ---------------- RC from the hard IP (m_axis_rc of the IP) ----------------
  input  wire logic [127:0]         s_axis_rc_tdata,
  input  wire logic [3:0]           s_axis_rc_tkeep,
  input  wire logic                 s_axis_rc_tlast,
  input  wire logic [RC_USER_W-1:0] s_axis_rc_tuser,
  input  wire logic                 s_axis_rc_tvalid,
  output      logic                 s_axis_rc_tready,

  // ---------------- completions into the NIC ----------------
  `TLP_M_PORTS(m_tlp),
  output      logic                 ev_err           // pulse: a packet with an error code was dropped
);

  typedef enum logic [1:0] { S_HDR, S_BODY, S_FLUSH, S_DROP } state_e;

  state_e      state_q;
  logic [31:0] carry_q;                          // dword 3 of the previous input beat
  logic [31:0] d0, d1, d2, h0, h1, h2;
  logic [10:0] dwc;
  logic [2:0]  nin;                              // dwords in the input beat
  logic        pass;                             // error code 0, 1 or 2: a completion from the link

  assign d0  = s_axis_rc_tdata[31:0];
  assign d1  = s_axis_rc_tdata[63:32];
  assign d2  = s_axis_rc_tdata[95:64];
  assign dwc = d1[10:0];
  assign pass = d0[15:12] == 4'd0 || d0[15:12] == 4'd1 || d0[15:12] == 4'd2;
  assign h0  = {1'b0, dwc != 11'd0, 1'b0, 4'b0101, d0[29], 1'b0, d2[27:25], 1'b0, d2[30], 1'b0, 1'b0,
                1'b0, d1[14], d2[29:28], 2'b00, dwc[9:0]};
  assign h1  = {d2[23:8], d1[13:11], 1'b0, d0[27:16]};
  assign h2  = {d1[31:16], d2[7:0], 1'b0, d0[6:0]};

  always_comb begin
    case (s_axis_rc_tkeep)
      4'b0001: nin = 3'd1;
      4'b0011: nin = 3'd2;
      4'b0111: nin = 3'd3;
      default: nin = 3'd4;
    endcase
  end

  always_comb begin
    m_tlp_valid      = 1'b0;
    m_tlp_data       = {s_axis_rc_tdata[95:0], carry_q};
    m_tlp_keep       = 4'hf;
    m_tlp_sop        = 1'b0;
    m_tlp_eop        = 1'b0;
    s_axis_rc_tready = 1'b0;
    case (state_q)
      S_HDR: begin
        m_tlp_data       = {32'd0, h2, h1, h0};
        m_tlp_keep       = 4'b0111;
        m_tlp_sop        = 1'b1;
        m_tlp_eop        = dwc == 11'd0;
        m_tlp_valid      = s_axis_rc_tvalid && pass;
        s_axis_rc_tready = pass ? m_tlp_ready : 1'b1;
      end
      S_BODY: begin
        m_tlp_valid      = s_axis_rc_tvalid;
        m_tlp_eop        = s_axis_rc_tlast && nin != 3'd4;
        m_tlp_keep       = s_axis_rc_tlast ? 4'((5'd1 << (nin + 3'd1)) - 5'd1) : 4'hf;
        s_axis_rc_tready = m_tlp_ready;
      end
      S_FLUSH: begin
        m_tlp_data  = {96'd0, carry_q};
        m_tlp_keep  = 4'b0001;
        m_tlp_eop   = 1'b1;
        m_tlp_valid = 1'b1;
      end
      S_DROP: s_axis_rc_tready = 1'b1;
      default: ;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= S_HDR;
      carry_q <= '0;
    end else begin
      case (state_q)
        S_HDR: if (s_axis_rc_tvalid && s_axis_rc_tready) begin
          carry_q <= s_axis_rc_tdata[127:96];
          if (!pass) begin
            state_q <= s_axis_rc_tlast ? S_HDR : S_DROP;
          end else if (dwc != 11'd0) begin
            state_q <= s_axis_rc_tlast ? S_FLUSH : S_BODY;
          end
        end
        S_BODY: if (s_axis_rc_tvalid && s_axis_rc_tready) begin
          carry_q <= s_axis_rc_tdata[127:96];
          if (s_axis_rc_tlast) state_q <= nin == 3'd4 ? S_FLUSH : S_HDR;
        end
        S_FLUSH: if (m_tlp_ready) state_q <= S_HDR;
        S_DROP:  if (s_axis_rc_tvalid && s_axis_rc_tlast) state_q <= S_HDR;
        default: state_q <= S_HDR;
      endcase
    end
  end

  assign ev_err = state_q == S_HDR && s_axis_rc_tvalid && s_axis_rc_tready && !pass;

  logic unused;
  assign unused = ^{d0[31:30], d0[28], d0[11:7], d1[15], d2[31], d2[24], s_axis_rc_tuser};

endmodule

`default_nettype wire
