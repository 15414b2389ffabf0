// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_w512: the 512-bit AXI-Stream interfaces of a Xilinx UltraScale+
// PCIe (PCIE4) hard IP (Gen3 x16 / Gen4 x8 at 250 MHz; dword alignment,
// straddling off on all four) to the 128-bit interfaces of the adapter
// pcie_usp_if (docs/hard-ip.md "512 bits"). Four width converters and the
// tuser layouts of both widths (PG213 "Interface Signals"):
//
//   CQ  512 --> pcie_usp_dn512 --> 128   first/last BE [3:0]/[11:8] -> [3:0]/[7:4],
//                                        byte enables per slice, sop [40], discontinue
//   RC  512 --> pcie_usp_dn512 --> 128   byte enables per slice, is_sof_0 [32],
//                                        is_eof_0 [37:34], discontinue
//   CC  128 --> pcie_usp_up512 --> 512   is_sop[0], is_eop[0] and its dword pointer
//   RQ  128 --> pcie_usp_up512 --> 512   first/last BE [3:0]/[7:4] -> [3:0]/[11:8],
//                                        sequence number [27:24],[61:60] -> seq_num0
//                                        [66:61], is_sop[0], is_eop[0] and pointer
//
// tuser widths: 512 bits CQ 183, CC 81, RQ 137, RC 161; 128 bits CQ 88, CC
// 33, RQ 62, RC 75. Not carried: parity (off in the IP), TPH (not used), the
// address offset (address-aligned mode only), discontinue toward the IP (the
// adapter never sets it). The NIC's datapath stays 128 bits: at 250 MHz the
// converters pass 4 GB/s per direction, the NIC's own width, a quarter of
// what the 512-bit interface could. The RQ sequence numbers (pcie_rq_seq_num0
// and 1, both used at 512 bits) and pcie_cq_np_req go to the adapter
// unchanged. Synchronous to clk (the IP's user_clk), rst.

`default_nettype none

module pcie_usp_w512 (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,               // synchronous, active high

  // ---------------- hard IP, 512 bits: CQ ----------------
  input  wire logic [511:0] s_axis_cq_tdata,
  input  wire logic [15:0]  s_axis_cq_tkeep,
  input  wire logic         s_axis_cq_tlast,
  input  wire logic [182:0] s_axis_cq_tuser,
  input  wire logic         s_axis_cq_tvalid,
  output      logic         s_axis_cq_tready,

  // ---------------- hard IP, 512 bits: CC ----------------
  output      logic [511:0] m_axis_cc_tdata,
  output      logic [15:0]  m_axis_cc_tkeep,
  output      logic         m_axis_cc_tlast,
  output      logic [80:0]  m_axis_cc_tuser,
  output      logic         m_axis_cc_tvalid,
  input  wire logic         m_axis_cc_tready,

  // ---------------- hard IP, 512 bits: RQ ----------------
  output      logic [511:0] m_axis_rq_tdata,
  output      logic [15:0]  m_axis_rq_tkeep,
  output      logic         m_axis_rq_tlast,
  output      logic [136:0] m_axis_rq_tuser,
  output      logic         m_axis_rq_tvalid,
  input  wire logic         m_axis_rq_tready,

  // ---------------- hard IP, 512 bits: RC ----------------
  input  wire logic [511:0] s_axis_rc_tdata,
  input  wire logic [15:0]  s_axis_rc_tkeep,
  input  wire logic         s_axis_rc_tlast,
  input  wire logic [160:0] s_axis_rc_tuser,
  input  wire logic         s_axis_rc_tvalid,
  output      logic         s_axis_rc_tready,

  // ---------------- adapter, 128 bits: CQ (its s_axis_cq) ----------------
  output      logic [127:0] m_cq_tdata,
  output      logic [3:0]   m_cq_tkeep,
  output      logic         m_cq_tlast,
  output      logic [87:0]  m_cq_tuser,
  output      logic         m_cq_tvalid,
  input  wire logic         m_cq_tready,

  // ---------------- adapter, 128 bits: CC (its m_axis_cc) ----------------
  input  wire logic [127:0] s_cc_tdata,
  input  wire logic [3:0]   s_cc_tkeep,
  input  wire logic         s_cc_tlast,
  input  wire logic [32:0]  s_cc_tuser,
  input  wire logic         s_cc_tvalid,
  output      logic         s_cc_tready,

  // ---------------- adapter, 128 bits: RQ (its m_axis_rq) ----------------
  input  wire logic [127:0] s_rq_tdata,
  input  wire logic [3:0]   s_rq_tkeep,
  input  wire logic         s_rq_tlast,
  input  wire logic [61:0]  s_rq_tuser,
  input  wire logic         s_rq_tvalid,
  output      logic         s_rq_tready,

  // ---------------- adapter, 128 bits: RC (its s_axis_rc) ----------------
  output      logic [127:0] m_rc_tdata,
  output      logic [3:0]   m_rc_tkeep,
  output      logic         m_rc_tlast,
  output      logic [74:0]  m_rc_tuser,
  output      logic         m_rc_tvalid,
  input  wire logic         m_rc_tready
);

  logic [1:0]  cq_idx, rc_idx;
  logic        cq_sop, rc_sop;
  logic        cc_sop, rq_sop, cc_user;
  logic [3:0]  cc_eop_ptr, rq_eop_ptr;
  logic [61:0] rq_user;
  logic [1:0]  rc_last_dw;

  // ------------------------------------------------------------------
  // CQ: 512 -> 128
  // ------------------------------------------------------------------
  pcie_usp_dn512 u_cq (
    .clk, .rst,
    .s_tdata (s_axis_cq_tdata), .s_tkeep (s_axis_cq_tkeep), .s_tlast (s_axis_cq_tlast),
    .s_tvalid (s_axis_cq_tvalid), .s_tready (s_axis_cq_tready),
    .m_tdata (m_cq_tdata), .m_tkeep (m_cq_tkeep), .m_tlast (m_cq_tlast),
    .m_tvalid (m_cq_tvalid), .m_tready (m_cq_tready),
    .m_idx (cq_idx), .m_sop (cq_sop)
  );

  always_comb begin
    m_cq_tuser        = '0;
    m_cq_tuser[3:0]   = s_axis_cq_tuser[3:0];                  // first BE (of the packet at sop)
    m_cq_tuser[7:4]   = s_axis_cq_tuser[11:8];                 // last BE
    m_cq_tuser[23:8]  = s_axis_cq_tuser[16 + 16*cq_idx +: 16]; // byte enables of the slice
    m_cq_tuser[40]    = cq_sop;
    m_cq_tuser[41]    = s_axis_cq_tuser[96];                   // discontinue
  end

  // ------------------------------------------------------------------
  // RC: 512 -> 128
  // ------------------------------------------------------------------
  pcie_usp_dn512 u_rc (
    .clk, .rst,
    .s_tdata (s_axis_rc_tdata), .s_tkeep (s_axis_rc_tkeep), .s_tlast (s_axis_rc_tlast),
    .s_tvalid (s_axis_rc_tvalid), .s_tready (s_axis_rc_tready),
    .m_tdata (m_rc_tdata), .m_tkeep (m_rc_tkeep), .m_tlast (m_rc_tlast),
    .m_tvalid (m_rc_tvalid), .m_tready (m_rc_tready),
    .m_idx (rc_idx), .m_sop (rc_sop)
  );

  always_comb begin
    case (m_rc_tkeep)
      4'b0001: rc_last_dw = 2'd0;
      4'b0011: rc_last_dw = 2'd1;
      4'b0111: rc_last_dw = 2'd2;
      default: rc_last_dw = 2'd3;
    endcase
    m_rc_tuser        = '0;
    m_rc_tuser[15:0]  = s_axis_rc_tuser[16*rc_idx +: 16];      // byte enables of the slice
    m_rc_tuser[32]    = rc_sop;                                // is_sof_0
    m_rc_tuser[34]    = m_rc_tlast;                            // is_eof_0
    m_rc_tuser[37:35] = {1'b0, rc_last_dw};                    // its last dword
    m_rc_tuser[42]    = s_axis_rc_tuser[96];                   // discontinue
  end

  // ------------------------------------------------------------------
  // CC: 128 -> 512
  // ------------------------------------------------------------------
  pcie_usp_up512 #(.USER_W (1)) u_cc (
    .clk, .rst,
    .s_tdata (s_cc_tdata), .s_tkeep (s_cc_tkeep), .s_tlast (s_cc_tlast), .s_user (1'b0),
    .s_tvalid (s_cc_tvalid), .s_tready (s_cc_tready),
    .m_tdata (m_axis_cc_tdata), .m_tkeep (m_axis_cc_tkeep), .m_tlast (m_axis_cc_tlast),
    .m_user (cc_user), .m_sop (cc_sop), .m_eop_ptr (cc_eop_ptr),
    .m_tvalid (m_axis_cc_tvalid), .m_tready (m_axis_cc_tready)
  );

  always_comb begin
    m_axis_cc_tuser       = '0;
    m_axis_cc_tuser[0]    = cc_sop;                            // is_sop[0], pointer [3:2] 0
    m_axis_cc_tuser[6]    = m_axis_cc_tlast;                   // is_eop[0]
    m_axis_cc_tuser[11:8] = cc_eop_ptr;                        // is_eop0_ptr
  end

  // ------------------------------------------------------------------
  // RQ: 128 -> 512
  // ------------------------------------------------------------------
  pcie_usp_up512 #(.USER_W (62)) u_rq (
    .clk, .rst,
    .s_tdata (s_rq_tdata), .s_tkeep (s_rq_tkeep), .s_tlast (s_rq_tlast), .s_user (s_rq_tuser),
    .s_tvalid (s_rq_tvalid), .s_tready (s_rq_tready),
    .m_tdata (m_axis_rq_tdata), .m_tkeep (m_axis_rq_tkeep), .m_tlast (m_axis_rq_tlast),
    .m_user (rq_user), .m_sop (rq_sop), .m_eop_ptr (rq_eop_ptr),
    .m_tvalid (m_axis_rq_tvalid), .m_tready (m_axis_rq_tready)
  );

  always_comb begin
    m_axis_rq_tuser        = '0;
    m_axis_rq_tuser[3:0]   = rq_user[3:0];                     // first BE
    m_axis_rq_tuser[11:8]  = rq_user[7:4];                     // last BE
    m_axis_rq_tuser[20]    = rq_sop;                           // is_sop[0], pointer [23:22] 0
    m_axis_rq_tuser[26]    = m_axis_rq_tlast;                  // is_eop[0]
    m_axis_rq_tuser[31:28] = rq_eop_ptr;                       // is_eop0_ptr
    m_axis_rq_tuser[66:61] = {rq_user[61:60], rq_user[27:24]}; // seq_num0
  end

  logic unused;
  assign unused = ^{s_axis_cq_tuser[182:97], s_axis_cq_tuser[95:80], s_axis_cq_tuser[15:12],
                    s_axis_cq_tuser[7:4], s_axis_rc_tuser[160:97], s_axis_rc_tuser[95:64],
                    s_cc_tuser, cc_user, rq_user[59:28], rq_user[23:8]};

endmodule

`default_nettype wire
