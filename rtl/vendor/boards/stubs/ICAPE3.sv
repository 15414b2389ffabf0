// SPDX-License-Identifier: Apache-2.0
//
// ICAPE3: LINT-ONLY black box of the UltraScale+ internal configuration access port
// ICAPE3 (UG974, UG570) (unit vendor/boards/stubs). Declares only the ports the board
// tops use and does nothing; Vivado uses the real primitive instead and never reads
// this file.

`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module ICAPE3 (
  input  wire logic        CLK,
  input  wire logic        CSIB,      // select, active low
  input  wire logic        RDWRB,     // 0 = write, 1 = read
  input  wire logic [31:0] I,         // configuration data in (bit-swapped per byte)
  output      logic [31:0] O,
  output      logic        AVAIL,     // ICAP ready for an access
  output      logic        PRDONE,
  output      logic        PRERROR
);
  assign O = '0;
  assign AVAIL = 1'b0;
  assign PRDONE = 1'b0;
  assign PRERROR = 1'b0;
endmodule
/* verilator lint_on UNUSEDSIGNAL */

`default_nettype wire
