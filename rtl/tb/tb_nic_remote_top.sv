// SPDX-License-Identifier: Apache-2.0
//
// tb_nic_remote_top (testbench only): the topology of tb_nic_remote.
//
//   HOPS = 1:  host extoll_nic (ROLE 0, node 1) X+ <-> X- naa_node (node 3)
//   HOPS = 2:  host (node 1) X+ <-> X- extoll_nic (ROLE 0, node 2, nothing on
//              its PCIe side) X+ <-> X- naa_node (node 3)
//   HOPS = 3:  host (1) - mid (2) - mid (4) - naa_node (3), all X+ -> X-
//
// Each link has DELAY cycles of wire delay per direction (tb_link_delay). The
// host NIC's TLP streams are the ports of this wrapper (the C++ testbench
// plays the host: config, BAR0, host memory). p_* are probes of internal
// handshakes for the latency breakdown of the bench.

`default_nettype none
`include "tlp_stream.svh"

module tb_nic_remote_top #(
  parameter int HOPS  = 1,          // 1: adjacent, n: through n-1 intermediate NICs
  parameter int DELAY = 4           // link wire delay, cycles per direction (>= 2)
) (
  input  wire logic         clk,
  input  wire logic         rst,
  // ---- host NIC TLP streams (vendor layer side)
  `TLP_S_PORTS(s_tlp),
  `TLP_M_PORTS(m_tlp),
  output      logic         intx,
  // ---- status
  output      logic [2:0]   ovf,          // net_ovf of host, mid, naa
  output      logic         dev_intx,
  // ---- probes (one-cycle events)
  output      logic         p_h_tx,       // host NIC sends a flit on its X+ link
  output      logic         p_n_rx,       // a flit arrives at the NAA NIC (X- link)
  output      logic         p_n_inj,      // NAA backdoor -> root port: TLP header taken
  output      logic         p_d_in,       // root port -> device: TLP header taken
  output      logic         p_d_out,      // device -> root port: TLP header taken
  output      logic         p_n_cpl,      // root port -> NAA backdoor RX: completion header taken
  output      logic         p_n_tx,       // NAA NIC sends a flit on its X- link
  output      logic         p_h_rx        // a flit arrives at the host NIC (X+ link)
);
  localparam logic [15:0] N_HOST = 16'd1, N_MID = 16'd2, N_NAA = 16'd3;

  // per node phy bundles
  logic [6:0]            h_mv, h_ml, h_mvc, h_sv, h_sl, h_svc;
  logic [6:0][127:0]     h_md, h_sd;
  logic [6:0][31:0]      h_mc, h_sc;
  logic [6:0][1:0]       h_mcr, h_scr;
  logic [6:0]            n_mv, n_ml, n_mvc, n_sv, n_sl, n_svc;
  logic [6:0][127:0]     n_md, n_sd;
  logic [6:0][31:0]      n_mc, n_sc;
  logic [6:0][1:0]       n_mcr, n_scr;

  extoll_nic #(.ROLE(0)) u_host (
    .clk, .rst,
    .cfg_node_id (N_HOST), .cfg_dateline (7'd0),
    .s_tlp_data, .s_tlp_keep, .s_tlp_sop, .s_tlp_eop, .s_tlp_valid, .s_tlp_ready,
    .m_tlp_data, .m_tlp_keep, .m_tlp_sop, .m_tlp_eop, .m_tlp_valid, .m_tlp_ready,
    .intx, .pcie_link_up (1'b0), .pcie_sec_reset (),
    .m_phy_valid (h_mv), .m_phy_data (h_md), .m_phy_last (h_ml), .m_phy_vc (h_mvc),
    .m_phy_crc (h_mc), .s_phy_credit (h_scr),
    .s_phy_valid (h_sv), .s_phy_data (h_sd), .s_phy_last (h_sl), .s_phy_vc (h_svc),
    .s_phy_crc (h_sc), .m_phy_credit (h_mcr),
    .net_ovf (ovf[0])
  );

  naa_node #(.TIMEOUT_LOG2(12), .DEVMEM_IMPL_LOG2(16)) u_naa (
    .clk, .rst,
    .cfg_node_id (N_NAA), .cfg_dateline (7'd0),
    .m_phy_valid (n_mv), .m_phy_data (n_md), .m_phy_last (n_ml), .m_phy_vc (n_mvc),
    .m_phy_crc (n_mc), .s_phy_credit (n_scr),
    .s_phy_valid (n_sv), .s_phy_data (n_sd), .s_phy_last (n_sl), .s_phy_vc (n_svc),
    .s_phy_crc (n_sc), .m_phy_credit (n_mcr),
    .net_ovf (ovf[2]),
    .dev_intx,
    .dev_busy ()    // the co-simulation world clocks on it; here traffic does
  );

  // unused links: inputs tied off
  for (genvar l = 0; l < 7; l++) begin : g_tie
    if (l != 0) begin : g_h
      assign h_sv[l] = 1'b0; assign h_sd[l] = '0; assign h_sl[l] = 1'b0;
      assign h_svc[l] = 1'b0; assign h_sc[l] = '0; assign h_scr[l] = '0;
    end
    if (l != 1) begin : g_n
      assign n_sv[l] = 1'b0; assign n_sd[l] = '0; assign n_sl[l] = 1'b0;
      assign n_svc[l] = 1'b0; assign n_sc[l] = '0; assign n_scr[l] = '0;
    end
  end

  if (HOPS == 1) begin : g_adj
    tb_link_delay #(.DELAY(DELAY)) u_hn (
      .clk, .rst,
      .a_valid (h_mv[0]), .a_data (h_md[0]), .a_last (h_ml[0]), .a_vc (h_mvc[0]), .a_crc (h_mc[0]),
      .b_valid (n_sv[1]), .b_data (n_sd[1]), .b_last (n_sl[1]), .b_vc (n_svc[1]), .b_crc (n_sc[1]),
      .b_credit (n_mcr[1]), .a_credit (h_scr[0]));
    tb_link_delay #(.DELAY(DELAY)) u_nh (
      .clk, .rst,
      .a_valid (n_mv[1]), .a_data (n_md[1]), .a_last (n_ml[1]), .a_vc (n_mvc[1]), .a_crc (n_mc[1]),
      .b_valid (h_sv[0]), .b_data (h_sd[0]), .b_last (h_sl[0]), .b_vc (h_svc[0]), .b_crc (h_sc[0]),
      .b_credit (h_mcr[0]), .a_credit (n_scr[1]));
    assign ovf[1] = 1'b0;
    logic unused;
    assign unused = ^{h_mv[6:1], h_md[6:1], h_ml[6:1], h_mvc[6:1], h_mc[6:1], h_mcr[6:1],
                      n_mv[6:2], n_mv[0], n_md[6:2], n_md[0], n_ml[6:2], n_ml[0], n_mvc[6:2],
                      n_mvc[0], n_mc[6:2], n_mc[0], n_mcr[6:2], n_mcr[0]};
  end else begin : g_chain
    // HOPS - 1 intermediate extoll_nic (ROLE 0, nothing on their PCIe
    // side): host X+ -> mid[0] X-, mid[k] X+ -> mid[k+1] X-, mid[last] X+ -> naa X-
    localparam int NM = HOPS - 1;
    logic [NM-1:0][6:0]            m_mv, m_ml, m_mvc, m_sv, m_sl, m_svc;
    logic [NM-1:0][6:0][127:0]     m_md, m_sd;
    logic [NM-1:0][6:0][31:0]      m_mc, m_sc;
    logic [NM-1:0][6:0][1:0]       m_mcr, m_scr;
    logic [NM-1:0]                 m_ovf;

    for (genvar k = 0; k < NM; k++) begin : g_mid
      logic [127:0] x_data;
      logic [3:0]   x_keep;
      logic         x_sop, x_eop, x_valid, x_ready, x_intx;
      extoll_nic #(.ROLE(0)) u_mid (
        .clk, .rst,
        .cfg_node_id ((k == 0) ? N_MID : 16'(3 + k)), .cfg_dateline (7'd0),
        .s_tlp_data ('0), .s_tlp_keep ('0), .s_tlp_sop (1'b0), .s_tlp_eop (1'b0),
        .s_tlp_valid (1'b0), .s_tlp_ready (x_ready),
        .m_tlp_data (x_data), .m_tlp_keep (x_keep), .m_tlp_sop (x_sop), .m_tlp_eop (x_eop),
        .m_tlp_valid (x_valid), .m_tlp_ready (1'b1),
        .intx (x_intx), .pcie_link_up (1'b0), .pcie_sec_reset (),
        .m_phy_valid (m_mv[k]), .m_phy_data (m_md[k]), .m_phy_last (m_ml[k]), .m_phy_vc (m_mvc[k]),
        .m_phy_crc (m_mc[k]), .s_phy_credit (m_scr[k]),
        .s_phy_valid (m_sv[k]), .s_phy_data (m_sd[k]), .s_phy_last (m_sl[k]), .s_phy_vc (m_svc[k]),
        .s_phy_crc (m_sc[k]), .m_phy_credit (m_mcr[k]),
        .net_ovf (m_ovf[k])
      );
      for (genvar l = 2; l < 7; l++) begin : g_mt
        assign m_sv[k][l] = 1'b0; assign m_sd[k][l] = '0; assign m_sl[k][l] = 1'b0;
        assign m_svc[k][l] = 1'b0; assign m_sc[k][l] = '0; assign m_scr[k][l] = '0;
      end
      logic unused_k;
      assign unused_k = ^{x_data, x_keep, x_sop, x_eop, x_valid, x_ready, x_intx,
                          m_mv[k][6:2], m_md[k][6:2], m_ml[k][6:2], m_mvc[k][6:2],
                          m_mc[k][6:2], m_mcr[k][6:2]};
      // link from the west neighbour (host or mid[k-1]) into X- (port 1), and back
      if (k == 0) begin : g_w_host
        tb_link_delay #(.DELAY(DELAY)) u_in (
          .clk, .rst,
          .a_valid (h_mv[0]), .a_data (h_md[0]), .a_last (h_ml[0]), .a_vc (h_mvc[0]), .a_crc (h_mc[0]),
          .b_valid (m_sv[k][1]), .b_data (m_sd[k][1]), .b_last (m_sl[k][1]), .b_vc (m_svc[k][1]),
          .b_crc (m_sc[k][1]), .b_credit (m_mcr[k][1]), .a_credit (h_scr[0]));
        tb_link_delay #(.DELAY(DELAY)) u_out (
          .clk, .rst,
          .a_valid (m_mv[k][1]), .a_data (m_md[k][1]), .a_last (m_ml[k][1]), .a_vc (m_mvc[k][1]),
          .a_crc (m_mc[k][1]),
          .b_valid (h_sv[0]), .b_data (h_sd[0]), .b_last (h_sl[0]), .b_vc (h_svc[0]), .b_crc (h_sc[0]),
          .b_credit (h_mcr[0]), .a_credit (m_scr[k][1]));
      end else begin : g_w_mid
        tb_link_delay #(.DELAY(DELAY)) u_in (
          .clk, .rst,
          .a_valid (m_mv[k-1][0]), .a_data (m_md[k-1][0]), .a_last (m_ml[k-1][0]), .a_vc (m_mvc[k-1][0]),
          .a_crc (m_mc[k-1][0]),
          .b_valid (m_sv[k][1]), .b_data (m_sd[k][1]), .b_last (m_sl[k][1]), .b_vc (m_svc[k][1]),
          .b_crc (m_sc[k][1]), .b_credit (m_mcr[k][1]), .a_credit (m_scr[k-1][0]));
        tb_link_delay #(.DELAY(DELAY)) u_out (
          .clk, .rst,
          .a_valid (m_mv[k][1]), .a_data (m_md[k][1]), .a_last (m_ml[k][1]), .a_vc (m_mvc[k][1]),
          .a_crc (m_mc[k][1]),
          .b_valid (m_sv[k-1][0]), .b_data (m_sd[k-1][0]), .b_last (m_sl[k-1][0]), .b_vc (m_svc[k-1][0]),
          .b_crc (m_sc[k-1][0]), .b_credit (m_mcr[k-1][0]), .a_credit (m_scr[k][1]));
      end
    end
    // last mid X+ <-> naa X-
    tb_link_delay #(.DELAY(DELAY)) u_mn (
      .clk, .rst,
      .a_valid (m_mv[NM-1][0]), .a_data (m_md[NM-1][0]), .a_last (m_ml[NM-1][0]), .a_vc (m_mvc[NM-1][0]),
      .a_crc (m_mc[NM-1][0]),
      .b_valid (n_sv[1]), .b_data (n_sd[1]), .b_last (n_sl[1]), .b_vc (n_svc[1]), .b_crc (n_sc[1]),
      .b_credit (n_mcr[1]), .a_credit (m_scr[NM-1][0]));
    tb_link_delay #(.DELAY(DELAY)) u_nm (
      .clk, .rst,
      .a_valid (n_mv[1]), .a_data (n_md[1]), .a_last (n_ml[1]), .a_vc (n_mvc[1]), .a_crc (n_mc[1]),
      .b_valid (m_sv[NM-1][0]), .b_data (m_sd[NM-1][0]), .b_last (m_sl[NM-1][0]), .b_vc (m_svc[NM-1][0]),
      .b_crc (m_sc[NM-1][0]), .b_credit (m_mcr[NM-1][0]), .a_credit (n_scr[1]));
    assign ovf[1] = |m_ovf;
    logic unused;
    assign unused = ^{h_mv[6:1], h_md[6:1], h_ml[6:1], h_mvc[6:1], h_mc[6:1], h_mcr[6:1],
                      n_mv[6:2], n_mv[0], n_md[6:2], n_md[0], n_ml[6:2], n_ml[0], n_mvc[6:2],
                      n_mvc[0], n_mc[6:2], n_mc[0], n_mcr[6:2], n_mcr[0]};
  end

  // ---- probes
  assign p_h_tx  = h_mv[0];
  assign p_n_rx  = n_sv[1];
  assign p_n_inj = u_naa.u_nic.bd_tx_valid && u_naa.u_nic.bd_tx_ready && u_naa.u_nic.bd_tx_sop;
  assign p_d_in  = u_naa.dn_valid && u_naa.dn_ready && u_naa.dn_sop;
  assign p_d_out = u_naa.dv_valid && u_naa.dv_ready && u_naa.dv_sop;
  assign p_n_cpl = u_naa.u_nic.bd_rx_valid && u_naa.u_nic.bd_rx_ready && u_naa.u_nic.bd_rx_sop;
  assign p_n_tx  = n_mv[1];
  assign p_h_rx  = h_sv[0];

endmodule

`default_nettype wire
