// SPDX-License-Identifier: Apache-2.0
//
// tb_flash_top: testbench top of the flash controller (rtl/tb/tb_flash.cpp,
// docs/testbenches.md): the generated register file extoll_regs with
// nic_flash on its flash fields, so the testbench reaches the controller by
// register offsets (hw/include/extoll_regs.h) through PeakRDL's passthrough
// cpuif, and the flash pins go to the part model (hw/lib/flash_part.c).
// Every other field of the register file is tied to 0.

`default_nettype none

module tb_flash_top #(
  parameter int ADDR_W = extoll_regs_pkg::EXTOLL_REGS_MIN_ADDR_WIDTH  // register byte address bits
) (
  // ---------------- clock and reset ----------------
  input  wire logic              clk,
  input  wire logic              rst,               // synchronous, active high

  // ---------------- register access (PeakRDL passthrough cpuif) ----------------
  input  wire logic              s_cpuif_req,
  input  wire logic              s_cpuif_req_is_wr,
  input  wire logic [ADDR_W-1:0] s_cpuif_addr,
  input  wire logic [63:0]       s_cpuif_wr_data,
  input  wire logic [63:0]       s_cpuif_wr_biten,
  output      logic              s_cpuif_req_stall_wr,
  output      logic              s_cpuif_req_stall_rd,
  output      logic              s_cpuif_rd_ack,
  output      logic              s_cpuif_rd_err,
  output      logic [63:0]       s_cpuif_rd_data,
  output      logic              s_cpuif_wr_ack,
  output      logic              s_cpuif_wr_err,

  // ---------------- flash pins ----------------
  output      logic              flash_sck,
  output      logic              flash_cs_n,
  output      logic              flash_dq0,
  input  wire logic              flash_dq1,

  // ---------------- reconfiguration ----------------
  output      logic              reload_req,
  output      logic [31:0]       reload_addr,
  input  wire logic [1:0]        boot_slot,
  input  wire logic [47:0]       boot_version,
  input  wire logic [63:0]       boot_build,
  output      logic              id_boot,
  output      logic [47:0]       id_version,
  output      logic [63:0]       id_build
);

  extoll_regs_pkg::extoll_nic__in_t  hwif_in;
  /* verilator lint_off UNUSEDSIGNAL */
  extoll_regs_pkg::extoll_nic__out_t hwif_out;     // only the flash fields are used
  /* verilator lint_on UNUSEDSIGNAL */

  extoll_regs u_regs (
    .clk, .rst,
    .s_cpuif_req, .s_cpuif_req_is_wr, .s_cpuif_addr, .s_cpuif_wr_data, .s_cpuif_wr_biten,
    .s_cpuif_req_stall_wr, .s_cpuif_req_stall_rd, .s_cpuif_rd_ack, .s_cpuif_rd_err,
    .s_cpuif_rd_data, .s_cpuif_wr_ack, .s_cpuif_wr_err,
    .hwif_in,
    .hwif_out
  );

  nic_flash u_flash (
    .clk, .rst,
    .hwif_out,
    .flash_hwif (hwif_in),
    .flash_sck, .flash_cs_n, .flash_dq0, .flash_dq1,
    .reload_req, .reload_addr, .boot_slot, .boot_version, .boot_build,
    .id_boot, .id_version, .id_build
  );

endmodule

`default_nettype wire
