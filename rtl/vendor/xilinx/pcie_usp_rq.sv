// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_rq: requests of the NIC's TLP stream (docs/tlp-interface.md) to
// the Xilinx UltraScale+ PCIe (PCIE4) requester request interface (RQ,
// AXI-Stream, 128 bits, dword-aligned; docs/hard-ip.md).
//
// An RQ packet is a 4-dword descriptor (PG213 "Requester Request Descriptor
// Format") and the payload. At 128 bits the descriptor fills the first beat
// and the payload starts on the second, as in the TLP stream: the header beat
// is replaced by the descriptor, the other beats pass unchanged. No storage.
//
// Descriptor: address [63:2] (memory, I/O, AtomicOps) or register number
// [11:2] (configuration, root-port mode), dword count [74:64], request type
// [78:75], poisoned [79], requester ID [95:80], tag [103:96], completer ID
// [119:104] (configuration: bus/device/function of the target), requester
// ID enable [120] = REQUESTER_ID_EN, TC [123:121], attributes [126:124].
// tuser: first BE [3:0], last BE [7:4], sequence number [27:24] and [61:60]
// (6 bits): every request gets the next number; the IP reports it on
// pcie_rq_seq_num when the TLP has gone to the link (pcie_usp_tx counts
// those for the ordering of completions and MSI-X behind requests).
// Messages are not sent on this path (INTx is a side-band signal).
// Synchronous to clk, rst.

`default_nettype none
`include "tlp_stream.svh"

module pcie_usp_rq #(
  parameter int RQ_USER_W       = 62,              // m_axis_rq_tuser width (60 or 62 at 64..256 bits)
  parameter bit REQUESTER_ID_EN = 1'b0             // 1: the header's requester ID (root port); 0: the IP's
) (
  // ---------------- clock and reset ----------------
  input  wire logic                 clk,
  input  wire logic                 rst,             // synchronous, active high

  // ---------------- requests from the NIC ----------------
  `TLP_S_PORTS(s_tlp),

  // ---------------- RQ to the hard IP (s_axis_rq of the IP) ----------------
  output      logic [127:0]         m_axis_rq_tdata,
  output      logic [3:0]           m_axis_rq_tkeep,
  output      logic                 m_axis_rq_tlast,
  output      logic [RQ_USER_W-1:0] m_axis_rq_tuser,
  output      logic                 m_axis_rq_tvalid,
  input  wire logic                 m_axis_rq_tready
);

  logic        in_pkt_q;
  logic [5:0]  seq_q;                            // sequence number of the next request
  logic [31:0] h0, h1, h2, h3;
  logic        is_cfg, h4;
  logic [3:0]  rt;
  logic [63:0] addr;
  logic [15:0] cpl_id;
  logic [31:0] d0, d1, d2, d3;

  assign h0     = s_tlp_data[31:0];
  assign h1     = s_tlp_data[63:32];
  assign h2     = s_tlp_data[95:64];
  assign h3     = s_tlp_data[127:96];
  assign h4     = h0[29];
  assign is_cfg = h0[28:25] == 4'b0010;            // CfgRd0/1, CfgWr0/1
  assign addr   = h4 ? {h2, h3[31:2], 2'b00} : {32'd0, h2[31:2], 2'b00};
  assign cpl_id = is_cfg ? h2[31:16] : 16'd0;

  // Fmt/Type -> request type (PG213 "Transaction Types")
  always_comb begin
    case (h0[28:24])
      5'b00000: rt = h0[30] ? 4'b0001 : 4'b0000;       // MWr / MRd
      5'b00001: rt = 4'b0111;                          // MRdLk
      5'b00010: rt = h0[30] ? 4'b0011 : 4'b0010;       // IOWr / IORd
      5'b00100: rt = h0[30] ? 4'b1010 : 4'b1000;       // CfgWr0 / CfgRd0
      5'b00101: rt = h0[30] ? 4'b1011 : 4'b1001;       // CfgWr1 / CfgRd1
      5'b01100: rt = 4'b0100;                          // FetchAdd
      5'b01101: rt = 4'b0101;                          // Swap
      5'b01110: rt = 4'b0110;                          // CAS
      default:  rt = 4'b1100;                          // message: not sent here
    endcase
  end

  assign d0 = is_cfg ? {20'd0, h2[11:2], 2'b00} : {addr[31:2], h0[11:10]};
  assign d1 = is_cfg ? 32'd0 : addr[63:32];
  assign d2 = {h1[31:16], h0[14], rt, h0[9:0] == 10'd0, h0[9:0]};
  assign d3 = {1'b0, h0[18], h0[13:12], h0[22:20], REQUESTER_ID_EN, cpl_id, h1[15:8]};

  always_ff @(posedge clk) begin
    if (rst) begin
      in_pkt_q <= 1'b0;
      seq_q    <= '0;
    end else if (s_tlp_valid && s_tlp_ready) begin
      in_pkt_q <= !s_tlp_eop;
      if (s_tlp_eop) seq_q <= seq_q + 6'd1;
    end
  end

  assign m_axis_rq_tvalid = s_tlp_valid;
  assign m_axis_rq_tlast  = s_tlp_eop;
  assign m_axis_rq_tdata  = in_pkt_q ? s_tlp_data : {d3, d2, d1, d0};
  assign m_axis_rq_tkeep  = in_pkt_q ? s_tlp_keep : 4'hf;
  assign s_tlp_ready      = m_axis_rq_tready;

  always_comb begin
    m_axis_rq_tuser        = '0;
    m_axis_rq_tuser[3:0]   = h1[3:0];              // first BE
    m_axis_rq_tuser[7:4]   = h1[7:4];              // last BE
    m_axis_rq_tuser[27:24] = seq_q[3:0];
    if (RQ_USER_W >= 62) m_axis_rq_tuser[RQ_USER_W-1 -: 2] = seq_q[5:4];
  end

  logic unused;
  assign unused = ^{h0[31], h0[23], h0[19], h0[17:15], h2[15:12], h2[1:0], h3[1:0], addr[1:0], s_tlp_sop};

endmodule

`default_nettype wire
