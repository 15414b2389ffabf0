// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_cc: completions of the NIC's TLP stream (docs/tlp-interface.md)
// to the Xilinx UltraScale+ PCIe (PCIE4) completer completion interface (CC,
// AXI-Stream, 128 bits, dword-aligned; docs/hard-ip.md).
//
// A CC packet is a 3-dword descriptor (PG213 "Completer Completion
// Descriptor Format") with the payload starting right behind it, in dword 3
// of the first beat. The TLP stream has the payload from beat 1, so every
// output beat is {dword 0 of the input beat, the three dwords kept from the
// beat before}; when the last input beat carries more than one dword an extra
// beat flushes the rest. Cpl/CplD/CplLk/CplDLk only (the caller sends
// nothing else here).
//
// Descriptor: lower address [6:0], byte count [28:16] (header 0 = 4096),
// locked [29], dword count [42:32] (0 for Cpl), status [45:43], poisoned
// [46], requester ID [63:48], tag [71:64], completer ID [87:72] with
// completer ID enable [88] = COMPLETER_ID_EN, TC [91:89], attributes [94:92].
// tuser: discontinue and parity, all 0. Synchronous to clk, rst.

`default_nettype none
`include "tlp_stream.svh"

module pcie_usp_cc #(
  parameter int CC_USER_W       = 33,              // m_axis_cc_tuser width (33 at 64..256 bits)
  parameter bit COMPLETER_ID_EN = 1'b1             // 1: the header's completer ID; 0: the IP fills in its bus
) (
  // ---------------- clock and reset ----------------
  input  wire logic                 clk,
  input  wire logic                 rst,             // synchronous, active high

  // ---------------- completions from the NIC ----------------
  `TLP_S_PORTS(s_tlp),

  // ---------------- CC to the hard IP (s_axis_cc of the IP) ----------------
  output      logic [127:0]         m_axis_cc_tdata,
  output      logic [3:0]           m_axis_cc_tkeep,
  output      logic                 m_axis_cc_tlast,
  output      logic [CC_USER_W-1:0] m_axis_cc_tuser,
  output      logic                 m_axis_cc_tvalid,
  input  wire logic                 m_axis_cc_tready
);

  typedef enum logic [1:0] { S_HDR, S_BODY, S_FLUSH } state_e;

  state_e      state_q;
  logic [95:0] pend_q;                           // dwords waiting for the next output beat
  logic [3:0]  flush_keep_q;                     // S_FLUSH: keep of the last beat
  logic [31:0] h0, h1, h2, d0, d1, d2;
  logic [11:0] bc;
  logic [2:0]  dcnt_last;                        // dwords in the input beat (keep contiguous)

  // ------------------------------------------------------------------
  // Descriptor from the completion header (beat 0)
  // ------------------------------------------------------------------
  assign h0 = s_tlp_data[31:0];
  assign h1 = s_tlp_data[63:32];
  assign h2 = s_tlp_data[95:64];
  assign bc = h1[11:0];
  assign d0 = {2'b00, h0[28:24] == 5'b01011, bc == 12'd0, bc, 6'd0, 2'b00, 1'b0, h2[6:0]};
  assign d1 = {h2[31:16], 1'b0, h0[14], h1[15:13],
               h0[30] ? {h0[9:0] == 10'd0, h0[9:0]} : 11'd0};
  assign d2 = {1'b0, h0[18], h0[13:12], h0[22:20], COMPLETER_ID_EN, h1[31:16], h2[15:8]};

  always_comb begin
    case (s_tlp_keep)
      4'b0001: dcnt_last = 3'd1;
      4'b0011: dcnt_last = 3'd2;
      4'b0111: dcnt_last = 3'd3;
      default: dcnt_last = 3'd4;
    endcase
  end

  // ------------------------------------------------------------------
  // Realignment
  // ------------------------------------------------------------------
  always_comb begin
    m_axis_cc_tvalid = 1'b0;
    m_axis_cc_tdata  = {s_tlp_data[31:0], pend_q};
    m_axis_cc_tkeep  = 4'hf;
    m_axis_cc_tlast  = 1'b0;
    s_tlp_ready      = 1'b0;
    case (state_q)
      S_HDR: begin
        // a Cpl without payload leaves as one beat; otherwise keep the descriptor
        m_axis_cc_tdata  = {32'd0, d2, d1, d0};
        m_axis_cc_tkeep  = 4'b0111;
        m_axis_cc_tlast  = 1'b1;
        m_axis_cc_tvalid = s_tlp_valid && s_tlp_eop;
        s_tlp_ready      = s_tlp_eop ? m_axis_cc_tready : 1'b1;
      end
      S_BODY: begin
        m_axis_cc_tvalid = s_tlp_valid;
        m_axis_cc_tlast  = s_tlp_eop && dcnt_last == 3'd1;
        s_tlp_ready      = m_axis_cc_tready;
      end
      S_FLUSH: begin
        m_axis_cc_tdata  = {32'd0, pend_q};
        m_axis_cc_tkeep  = flush_keep_q;
        m_axis_cc_tlast  = 1'b1;
        m_axis_cc_tvalid = 1'b1;
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q      <= S_HDR;
      pend_q       <= '0;
      flush_keep_q <= '0;
    end else begin
      case (state_q)
        S_HDR: if (s_tlp_valid && s_tlp_ready && !s_tlp_eop) begin
          pend_q  <= {d2, d1, d0};
          state_q <= S_BODY;
        end
        S_BODY: if (s_tlp_valid && s_tlp_ready) begin
          pend_q <= s_tlp_data[127:32];
          if (s_tlp_eop) begin
            if (dcnt_last == 3'd1) begin
              state_q <= S_HDR;
            end else begin
              flush_keep_q <= s_tlp_keep >> 1;
              state_q      <= S_FLUSH;
            end
          end
        end
        S_FLUSH: if (m_axis_cc_tready) state_q <= S_HDR;
        default: state_q <= S_HDR;
      endcase
    end
  end

  assign m_axis_cc_tuser = '0;

  logic unused;
  assign unused = ^{h0[31], h0[29], h0[23], h0[19], h0[17:15], h0[11:10], h1[12], h2[7], s_tlp_sop};

endmodule

`default_nettype wire
