// SPDX-License-Identifier: Apache-2.0
//
// tb_nic_remote_top (testbench only): the topology of tb_nic_remote.
//
//   HOPS = 1:  host extoll_nic (ROLE 0, node 1) X+ <-> X- naa_node (node 3)
//   HOPS = 2:  host (node 1) X+ <-> X- extoll_nic (ROLE 0, node 2, nothing on
//              its PCIe side) X+ <-> X- naa_node (node 3)
//   HOPS = 3:  host (1) - mid (2) - mid (4) - naa_node (3), all X+ -> X-
//
// Each link has DELAY cycles of wire delay per direction (tb_link_delay, one
// per direction, carrying the link symbols of docs/network.md). The
// host NIC's TLP streams are the ports of this wrapper (the C++ testbench
// plays the host: config, BAR0, host memory). p_* are probes of internal
// handshakes for the latency breakdown of the bench.

`default_nettype none
`include "tlp_stream.svh"

// No configuration flash on these NICs (tb_flash tests it): pins idle, the
// build-time identity.
`define TB_NO_FLASH \
  .flash_sck(), .flash_cs_n(), .flash_dq0(), .flash_dq1(1'b1), .reload_req(), .reload_addr(), \
  .boot_slot(2'd0), .boot_version(48'd0), .boot_build(64'd0)

module tb_nic_remote_top #(
  parameter int HOPS  = 1,          // 1: adjacent, n: through n-1 intermediate NICs
  parameter int DELAY = 4           // link wire delay, cycles per direction (>= 2)
) (
  input  wire logic         clk,
  input  wire logic         rst,
  input  wire logic         mid_fn_rst,   // HOPS >= 2: function reset of the first mid NIC (node 2) only
  // ---- host NIC TLP streams (vendor layer side)
  `TLP_S_PORTS(s_tlp),
  `TLP_M_PORTS(m_tlp),
  output      logic         intx,
  // ---- status
  output      logic [2:0]   ovf,          // net_ovf of host, mid, naa
  output      logic         dev_intx,
  // ---- probes (one-cycle events)
  output      logic         p_h_tx,       // host NIC sends a flit (DATA symbol) on its X+ link
  output      logic         p_n_rx,       // a flit (DATA symbol) arrives at the NAA NIC (X- link)
  output      logic         p_n_inj,      // NAA backdoor -> root port: TLP header taken
  output      logic         p_d_in,       // root port -> device: TLP header taken
  output      logic         p_d_out,      // device -> root port: TLP header taken
  output      logic         p_n_cpl,      // root port -> NAA backdoor RX: completion header taken
  output      logic         p_n_tx,       // NAA NIC sends a flit on its X- link
  output      logic         p_h_rx        // a flit arrives at the host NIC (X+ link)
);
  localparam logic [15:0] N_HOST = 16'd1, N_MID = 16'd2, N_NAA = 16'd3;

  // per node phy bundles
  logic [6:0][127:0]     h_md, h_sd, n_md, n_sd;
  logic [6:0][15:0]      h_mf, h_sf, n_mf, n_sf;
  logic [6:0][31:0]      h_mc, h_sc, n_mc, n_sc;

  extoll_nic #(.ROLE(0)) u_host (
    .clk, .rst, .fn_rst (1'b0),
    .cfg_node_id (N_HOST), .cfg_dateline (7'd0),
    .s_tlp_data, .s_tlp_keep, .s_tlp_sop, .s_tlp_eop, .s_tlp_valid, .s_tlp_ready,
    .m_tlp_data, .m_tlp_keep, .m_tlp_sop, .m_tlp_eop, .m_tlp_valid, .m_tlp_ready,
    .intx, .pcie_link_up (1'b0), .pcie_sec_reset (),
    .m_phy_data (h_md), .m_phy_frm (h_mf), .m_phy_crc (h_mc),
    .s_phy_data (h_sd), .s_phy_frm (h_sf), .s_phy_crc (h_sc),
    `TB_NO_FLASH,
    .net_ovf (ovf[0])
  );

  // 2 MiB of device memory behind the 64-MiB BAR: the RMA tests move 1 MiB (tb_nic_smfu)
  naa_node #(.TIMEOUT_LOG2(12), .DEVMEM_IMPL_LOG2(21)) u_naa (
    .clk, .rst,
    .cfg_node_id (N_NAA), .cfg_dateline (7'd0),
    .m_phy_data (n_md), .m_phy_frm (n_mf), .m_phy_crc (n_mc),
    .s_phy_data (n_sd), .s_phy_frm (n_sf), .s_phy_crc (n_sc),
    `TB_NO_FLASH,
    .net_ovf (ovf[2]),
    .dev_intx,
    .dev_busy ()    // the co-simulation world clocks on it; here traffic does
  );

  // unused links: inputs tied off (a dead wire: the link never trains)
  for (genvar l = 0; l < 7; l++) begin : g_tie
    if (l != 0) begin : g_h
      assign h_sd[l] = '0; assign h_sf[l] = '0; assign h_sc[l] = '0;
    end
    if (l != 1) begin : g_n
      assign n_sd[l] = '0; assign n_sf[l] = '0; assign n_sc[l] = '0;
    end
  end

  if (HOPS == 1) begin : g_adj
    tb_link_delay #(.DELAY(DELAY)) u_hn (
      .clk, .rst,
      .a_data (h_md[0]), .a_frm (h_mf[0]), .a_crc (h_mc[0]),
      .b_data (n_sd[1]), .b_frm (n_sf[1]), .b_crc (n_sc[1]));
    tb_link_delay #(.DELAY(DELAY)) u_nh (
      .clk, .rst,
      .a_data (n_md[1]), .a_frm (n_mf[1]), .a_crc (n_mc[1]),
      .b_data (h_sd[0]), .b_frm (h_sf[0]), .b_crc (h_sc[0]));
    assign ovf[1] = 1'b0;
    logic unused;
    assign unused = ^{mid_fn_rst, h_md[6:1], h_mf[6:1], h_mc[6:1],
                      n_md[6:2], n_md[0], n_mf[6:2], n_mf[0], n_mc[6:2], n_mc[0]};
  end else begin : g_chain
    // HOPS - 1 intermediate extoll_nic (ROLE 0, nothing on their PCIe
    // side): host X+ -> mid[0] X-, mid[k] X+ -> mid[k+1] X-, mid[last] X+ -> naa X-
    localparam int NM = HOPS - 1;
    logic [NM-1:0][6:0][127:0]     m_md, m_sd;
    logic [NM-1:0][6:0][15:0]      m_mf, m_sf;
    logic [NM-1:0][6:0][31:0]      m_mc, m_sc;
    logic [NM-1:0]                 m_ovf;

    for (genvar k = 0; k < NM; k++) begin : g_mid
      logic [127:0] x_data;
      logic [3:0]   x_keep;
      logic         x_sop, x_eop, x_valid, x_ready, x_intx;
      extoll_nic #(.ROLE(0)) u_mid (
        .clk, .rst, .fn_rst ((k == 0) ? mid_fn_rst : 1'b0),
        .cfg_node_id ((k == 0) ? N_MID : 16'(3 + k)), .cfg_dateline (7'd0),
        .s_tlp_data ('0), .s_tlp_keep ('0), .s_tlp_sop (1'b0), .s_tlp_eop (1'b0),
        .s_tlp_valid (1'b0), .s_tlp_ready (x_ready),
        .m_tlp_data (x_data), .m_tlp_keep (x_keep), .m_tlp_sop (x_sop), .m_tlp_eop (x_eop),
        .m_tlp_valid (x_valid), .m_tlp_ready (1'b1),
        .intx (x_intx), .pcie_link_up (1'b0), .pcie_sec_reset (),
        .m_phy_data (m_md[k]), .m_phy_frm (m_mf[k]), .m_phy_crc (m_mc[k]),
        .s_phy_data (m_sd[k]), .s_phy_frm (m_sf[k]), .s_phy_crc (m_sc[k]),
        `TB_NO_FLASH,
        .net_ovf (m_ovf[k])
      );
      for (genvar l = 2; l < 7; l++) begin : g_mt
        assign m_sd[k][l] = '0; assign m_sf[k][l] = '0; assign m_sc[k][l] = '0;
      end
      logic unused_k;
      assign unused_k = ^{x_data, x_keep, x_sop, x_eop, x_valid, x_ready, x_intx,
                          m_md[k][6:2], m_mf[k][6:2], m_mc[k][6:2]};
      // link from the west neighbour (host or mid[k-1]) into X- (port 1), and back
      if (k == 0) begin : g_w_host
        tb_link_delay #(.DELAY(DELAY)) u_in (
          .clk, .rst,
          .a_data (h_md[0]), .a_frm (h_mf[0]), .a_crc (h_mc[0]),
          .b_data (m_sd[k][1]), .b_frm (m_sf[k][1]), .b_crc (m_sc[k][1]));
        tb_link_delay #(.DELAY(DELAY)) u_out (
          .clk, .rst,
          .a_data (m_md[k][1]), .a_frm (m_mf[k][1]), .a_crc (m_mc[k][1]),
          .b_data (h_sd[0]), .b_frm (h_sf[0]), .b_crc (h_sc[0]));
      end else begin : g_w_mid
        tb_link_delay #(.DELAY(DELAY)) u_in (
          .clk, .rst,
          .a_data (m_md[k-1][0]), .a_frm (m_mf[k-1][0]), .a_crc (m_mc[k-1][0]),
          .b_data (m_sd[k][1]), .b_frm (m_sf[k][1]), .b_crc (m_sc[k][1]));
        tb_link_delay #(.DELAY(DELAY)) u_out (
          .clk, .rst,
          .a_data (m_md[k][1]), .a_frm (m_mf[k][1]), .a_crc (m_mc[k][1]),
          .b_data (m_sd[k-1][0]), .b_frm (m_sf[k-1][0]), .b_crc (m_sc[k-1][0]));
      end
    end
    // last mid X+ <-> naa X-
    tb_link_delay #(.DELAY(DELAY)) u_mn (
      .clk, .rst,
      .a_data (m_md[NM-1][0]), .a_frm (m_mf[NM-1][0]), .a_crc (m_mc[NM-1][0]),
      .b_data (n_sd[1]), .b_frm (n_sf[1]), .b_crc (n_sc[1]));
    tb_link_delay #(.DELAY(DELAY)) u_nm (
      .clk, .rst,
      .a_data (n_md[1]), .a_frm (n_mf[1]), .a_crc (n_mc[1]),
      .b_data (m_sd[NM-1][0]), .b_frm (m_sf[NM-1][0]), .b_crc (m_sc[NM-1][0]));
    assign ovf[1] = |m_ovf;
    logic unused;
    assign unused = ^{h_md[6:1], h_mf[6:1], h_mc[6:1],
                      n_md[6:2], n_md[0], n_mf[6:2], n_mf[0], n_mc[6:2], n_mc[0]};
  end

  // ---- probes
  assign p_h_tx  = h_mf[0][1:0] == net_pkg::NET_LKIND_DATA;
  assign p_n_rx  = n_sf[1][1:0] == net_pkg::NET_LKIND_DATA;
  assign p_n_inj = u_naa.u_nic.bd_tx_valid && u_naa.u_nic.bd_tx_ready && u_naa.u_nic.bd_tx_sop;
  assign p_d_in  = u_naa.dn_valid && u_naa.dn_ready && u_naa.dn_sop;
  assign p_d_out = u_naa.dv_valid && u_naa.dv_ready && u_naa.dv_sop;
  assign p_n_cpl = u_naa.u_nic.bd_rx_valid && u_naa.u_nic.bd_rx_ready && u_naa.u_nic.bd_rx_sop;
  assign p_n_tx  = n_mf[1][1:0] == net_pkg::NET_LKIND_DATA;
  assign p_h_rx  = h_sf[0][1:0] == net_pkg::NET_LKIND_DATA;

endmodule

`undef TB_NO_FLASH

`default_nettype wire
