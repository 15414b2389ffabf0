// SPDX-License-Identifier: Apache-2.0
//
// tb_extoll_nic_usp: cocotb top of the hard-IP test (test_extoll_nic_usp.py):
// extoll_nic_usp with every port as a variable of this module, which has no
// ports. cocotbext-pcie's UltraScale+ model drives and reads these
// variables. Why not extoll_nic_usp itself as the cocotb top: Verilator 5.006
// keeps a copy of each top port in the module's scope and refreshes it from
// the real port, so writes through the copy (what cocotb sees) are lost.
// The RQ sequence numbers the model reports (*_ip) reach the NIC SEQ_DELAY
// cycles later, as from an IP that reports a request only once it has left
// for the link: completions and MSI-X must wait for them (docs/hard-ip.md).
// AXIS_W (128 or 512, set by the Makefile with -G) is the width of the IP's
// AXI-Stream interfaces; the tuser widths follow from it.

`default_nettype none

module tb_extoll_nic_usp #(
  parameter int AXIS_W = 128                 // the IP's interfaces: 128 (Gen3 x4) or 512 (Gen3 x16)
);

  localparam int SEQ_DELAY = 16;
  localparam int KEEP_W    = AXIS_W / 32;
  localparam int CQ_USER_W = AXIS_W == 512 ? 183 : 88;
  localparam int CC_USER_W = AXIS_W == 512 ? 81 : 33;
  localparam int RQ_USER_W = AXIS_W == 512 ? 137 : 62;
  localparam int RC_USER_W = AXIS_W == 512 ? 161 : 75;

  logic                     user_clk, user_reset, core_clk;
  logic [15:0]              cfg_node_id;
  logic [6:0]               cfg_dateline;
  logic [AXIS_W-1:0]        s_axis_cq_tdata, m_axis_cc_tdata, m_axis_rq_tdata, s_axis_rc_tdata;
  logic [KEEP_W-1:0]        s_axis_cq_tkeep, m_axis_cc_tkeep, m_axis_rq_tkeep, s_axis_rc_tkeep;
  logic                     s_axis_cq_tlast, m_axis_cc_tlast, m_axis_rq_tlast, s_axis_rc_tlast;
  logic [CQ_USER_W-1:0]     s_axis_cq_tuser;
  logic [CC_USER_W-1:0]     m_axis_cc_tuser;
  logic [RQ_USER_W-1:0]     m_axis_rq_tuser;
  logic [RC_USER_W-1:0]     s_axis_rc_tuser;
  logic                     s_axis_cq_tvalid, m_axis_cc_tvalid, m_axis_rq_tvalid, s_axis_rc_tvalid;
  logic                     s_axis_cq_tready, m_axis_cc_tready, m_axis_rq_tready, s_axis_rc_tready;
  logic [1:0]               pcie_cq_np_req;
  logic [5:0]               pcie_rq_seq_num0, pcie_rq_seq_num1;
  logic                     pcie_rq_seq_num_vld0, pcie_rq_seq_num_vld1;
  logic [5:0]               pcie_rq_seq_num0_ip, pcie_rq_seq_num1_ip;
  logic                     pcie_rq_seq_num_vld0_ip, pcie_rq_seq_num_vld1_ip;
  logic [SEQ_DELAY-1:0][13:0] seq_dly;
  logic [7:0]               cfg_bus_number;
  logic [15:0]              cfg_function_status;
  logic [1:0]               cfg_max_payload;
  logic [2:0]               cfg_max_read_req;
  logic [11:0]              cfg_function_power_state;
  logic [3:0]               cfg_interrupt_msix_enable, cfg_interrupt_msix_mask;
  logic [63:0]              cfg_interrupt_msix_address;
  logic [31:0]              cfg_interrupt_msix_data;
  logic                     cfg_interrupt_msix_int, cfg_interrupt_msix_sent, cfg_interrupt_msix_fail;
  logic [7:0]               cfg_interrupt_msi_function_number;
  // the board's node reset: power-on, the first 8 core cycles (user_reset
  // from the IP model resets the function only); the links' PHY: none (PHY
  // sides held in reset on the core clock, s_phy_* tied to 0 by the test)
  logic [7:0]               por_q = '1;
  logic                     node_rst;
  logic [6:0]               phy_tx_clk, phy_rx_clk, phy_tx_rst, phy_rx_rst;
  always_ff @(posedge core_clk) por_q <= por_q >> 1;
  assign node_rst   = por_q[0];
  assign phy_tx_clk = {7{core_clk}};
  assign phy_rx_clk = {7{core_clk}};
  assign phy_tx_rst = '1;
  assign phy_rx_rst = '1;
  logic [6:0][127:0]        m_phy_data, s_phy_data;
  logic [6:0][15:0]         m_phy_frm, s_phy_frm;
  logic [6:0][31:0]         m_phy_crc, s_phy_crc;
  logic                     net_ovf;
  logic [6:0]               rq_out;
  logic [5:0]               np_open;
  // configuration flash: no part attached (the JEDEC read sees 0s), build-time identity
  logic                     flash_sck, flash_cs_n, flash_dq0, reload_req;
  logic [31:0]              reload_addr;
  logic                     flash_dq1 = 1'b0;
  logic [1:0]               boot_slot = 2'd0;
  logic [47:0]              boot_version = '0;
  logic [63:0]              boot_build = '0;

  always_ff @(posedge user_clk) begin
    seq_dly <= {seq_dly[SEQ_DELAY-2:0], {pcie_rq_seq_num_vld1_ip, pcie_rq_seq_num1_ip,
                                         pcie_rq_seq_num_vld0_ip, pcie_rq_seq_num0_ip}};
  end
  assign {pcie_rq_seq_num_vld1, pcie_rq_seq_num1, pcie_rq_seq_num_vld0, pcie_rq_seq_num0} =
    seq_dly[SEQ_DELAY-1];

  extoll_nic_usp #(
    .AXIS_W    (AXIS_W),
    .RTL_MAJOR (`TB_RTL_MAJOR),
    .RTL_MINOR (`TB_RTL_MINOR),
    .RTL_PATCH (`TB_RTL_PATCH)
  ) u_dut (.*);

endmodule

`default_nettype wire
