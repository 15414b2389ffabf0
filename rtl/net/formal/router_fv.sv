// SPDX-License-Identifier: Apache-2.0
//
// router_fv: formal harness of the router's allocation (`make -C rtl/net formal`,
// docs/network.md "Formal checks"). Every input of the router is free (packets,
// drops, credits, table writes, dead links, datelines); reset is the first cycle.
// The properties are router.sv's own `ifdef FORMAL assertions (r_idle, r_cred,
// r_rsv), which hold in every state, so the induction needs no invariants.

`default_nettype none

module router_fv #(
  parameter int N_LOCAL = 2,  // local unit ports
  parameter int TBL_AW  = 1,  // table index bits (few destinations: a smaller model)
  localparam int NP     = net_pkg::NLINK + N_LOCAL,
  localparam int NVC    = net_pkg::NVC,
  localparam int VW     = net_pkg::VC_W,
  localparam int FW     = net_pkg::FLIT_W
) (
  // ---- clock (reset: the first cycle)
  input  wire logic                       clk,
  // ---- free inputs
  input  wire logic [net_pkg::NLINK-1:0]  cfg_dateline,
  input  wire logic [net_pkg::NLINK-1:0]  s_dead,
  input  wire logic                       s_tbl_we,
  input  wire logic [TBL_AW+3:0]          s_tbl_addr,
  input  wire logic [5:0]                 s_tbl_wdata,
  input  wire logic [NP-1:0]              s_in_valid,
  input  wire logic [NP-1:0][FW-1:0]      s_in_data,
  input  wire logic [NP-1:0]              s_in_last,
  input  wire logic [NP-1:0][VW-1:0]      s_in_vc,
  input  wire logic [NP-1:0]              s_in_drop,
  input  wire logic [NP-1:0][NVC-1:0]     s_out_credit
);
  logic init = 1'b1;
  always_ff @(posedge clk) init <= 1'b0;

  /* verilator lint_off UNUSEDSIGNAL */
  logic [5:0]                  tbl_rdata;
  logic [NP-1:0][NVC-1:0]      in_credit;
  logic [NP-1:0]               out_valid, out_last;
  logic [NP-1:0][VW-1:0]       out_vc;
  logic [NP-1:0][FW-1:0]       out_data;
  logic [31:0]                 noroute_cnt;
  logic                        ovf;
  /* verilator lint_on UNUSEDSIGNAL */

  router #(
    .N_LOCAL(N_LOCAL), .TBL_AW(TBL_AW), .LINK_BUF_DEPTH(8), .LOCAL_BUF_DEPTH(8),
    .LINK_CREDITS(32), .LOCAL_CREDITS(32)
  ) dut (
    .clk, .rst(init),
    .cfg_dateline, .s_dead,
    .s_tbl_we, .s_tbl_addr, .s_tbl_wdata, .s_tbl_raddr('0), .m_tbl_rdata(tbl_rdata),
    .s_in_valid, .s_in_data, .s_in_last, .s_in_vc, .s_in_drop, .m_in_credit(in_credit),
    .m_out_valid(out_valid), .m_out_data(out_data), .m_out_last(out_last), .m_out_vc(out_vc),
    .s_out_credit,
    .m_noroute_cnt(noroute_cnt), .m_ovf(ovf)
  );

endmodule

`default_nettype wire
