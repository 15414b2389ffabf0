// SPDX-License-Identifier: Apache-2.0
//
// IBUFDS_GTE4: LINT-ONLY black box of the GTY/GTH reference clock buffer IBUFDS_GTE4 (UG974) (unit vendor/boards/stubs). Declares
// only the ports and parameters the board tops use and does nothing; Vivado
// uses the real primitive instead and never reads this file.

`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
module IBUFDS_GTE4 #(
  parameter logic [1:0] REFCLK_HROW_CK_SEL = 2'b00
) (
  input  wire logic I,
  input  wire logic IB,
  input  wire logic CEB,
  output      logic O,
  output      logic ODIV2
);
  assign O     = 1'b0;
  assign ODIV2 = 1'b0;
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */

`default_nettype wire
