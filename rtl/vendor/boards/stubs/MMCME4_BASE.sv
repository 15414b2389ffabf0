// SPDX-License-Identifier: Apache-2.0
//
// MMCME4_BASE: LINT-ONLY black box of the UltraScale+ clock manager MMCME4_BASE (UG974) (unit vendor/boards/stubs). Declares
// only the ports and parameters the board tops use and does nothing; Vivado
// uses the real primitive instead and never reads this file.

`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
module MMCME4_BASE #(
  parameter real CLKIN1_PERIOD    = 0.0,
  parameter real CLKFBOUT_MULT_F  = 5.0,
  parameter int  DIVCLK_DIVIDE    = 1,
  parameter real CLKOUT0_DIVIDE_F = 1.0
) (
  input  wire logic CLKIN1,
  input  wire logic CLKFBIN,
  input  wire logic RST,
  input  wire logic PWRDWN,
  output      logic CLKOUT0,
  output      logic CLKFBOUT,
  output      logic LOCKED
);
  assign CLKOUT0  = 1'b0;
  assign CLKFBOUT = 1'b0;
  assign LOCKED   = 1'b0;
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */

`default_nettype wire
