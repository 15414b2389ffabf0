// SPDX-License-Identifier: Apache-2.0
//
// IBUFDS: LINT-ONLY black box of the differential input buffer IBUFDS (UG974) (unit vendor/boards/stubs). Declares
// only the ports and parameters the board tops use and does nothing; Vivado
// uses the real primitive instead and never reads this file.

`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module IBUFDS (
  input  wire logic I,
  input  wire logic IB,
  output      logic O
);
  assign O = 1'b0;
endmodule
/* verilator lint_on UNUSEDSIGNAL */

`default_nettype wire
