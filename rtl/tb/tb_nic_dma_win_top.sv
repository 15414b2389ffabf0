// SPDX-License-Identifier: Apache-2.0
//
// tb_nic_dma_win_top: testbench top of the DMA window table (rtl/tb/
// tb_nic_dma_win.cpp, docs/testbenches.md): nic_dma_win with the UR
// completer (pcie_cpl_ur) its refused reads go to, as nic_rp_side wires
// them. The windows are written one at a time through a small write port
// (cfg_we, cfg_idx) into holding registers, so the C++ testbench need not
// drive the packed window arrays; cfg_clr clears every window's permissions
// (the register file's hwclr on a change of holder).

`default_nettype none
`include "tlp_stream.svh"

module tb_nic_dma_win_top #(
  parameter int NWIN = 8                   // windows of the table
) (
  // ---------------- clock and reset ----------------
  input  wire logic              clk,
  input  wire logic              rst,      // synchronous, active high

  // ---------------- window writes ----------------
  input  wire logic              cfg_enforce,
  input  wire logic              cfg_we,   // write window cfg_idx
  input  wire logic              cfg_clr,  // clear every window's permissions
  input  wire logic [2:0]        cfg_idx,
  input  wire logic [63:0]       cfg_base_addr,   // first byte (bits 11:0 ignored)
  input  wire logic [63:0]       cfg_limit_addr,  // last byte (bits 11:0 ignored)
  input  wire logic              cfg_rd,
  input  wire logic              cfg_wr,

  // ---------------- device requests in ----------------
  `TLP_S_PORTS(s),

  // ---------------- requests passed ----------------
  `TLP_M_PORTS(m),

  // ---------------- UR completions toward the device ----------------
  `TLP_M_PORTS(c),

  // ---------------- status ----------------
  output      logic [31:0]       st_rd_refused,
  output      logic [31:0]       st_wr_refused,
  output      logic              st_last_valid,
  output      logic              st_last_wr,
  output      logic [63:2]       st_last_addr
);

  logic [NWIN-1:0][51:0] base_q, limit_q;
  logic [NWIN-1:0]       rd_q, wr_q;

  always_ff @(posedge clk) begin
    if (rst || cfg_clr) begin
      rd_q <= '0;
      wr_q <= '0;
    end else if (cfg_we) begin
      rd_q[cfg_idx] <= cfg_rd;
      wr_q[cfg_idx] <= cfg_wr;
    end
    if (cfg_we) begin
      base_q[cfg_idx]  <= cfg_base_addr[63:12];
      limit_q[cfg_idx] <= cfg_limit_addr[63:12];
    end
  end

  logic                   ur_valid, ur_ready;
  pcie_tlp_pkg::tlp_req_t ur_req;

  nic_dma_win #(.NWIN(NWIN)) u_win (
    .clk, .rst,
    .cfg_enforce,
    .cfg_base  (base_q),
    .cfg_limit (limit_q),
    .cfg_rd    (rd_q),
    .cfg_wr    (wr_q),
    `TLP_CONNECT(s, s),
    `TLP_CONNECT(m, m),
    .ur_valid, .ur_ready, .ur_req,
    .st_rd_refused, .st_wr_refused, .st_last_valid, .st_last_wr, .st_last_addr
  );

  pcie_cpl_ur u_ur (
    .clk, .rst,
    .req_valid (ur_valid),
    .req_ready (ur_ready),
    .req       (ur_req),
    .cpl_id    (16'h0000),
    `TLP_CONNECT(m_cpl, c)
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{cfg_base_addr[11:0], cfg_limit_addr[11:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
