// SPDX-License-Identifier: Apache-2.0
//
// STARTUPE3: LINT-ONLY black box of the UltraScale+ configuration-pin access STARTUPE3 (UG974, UG570) (unit vendor/boards/stubs). Declares
// only the ports and parameters the board tops use and does nothing; Vivado
// uses the real primitive instead and never reads this file.

`default_nettype none

/* verilator lint_off UNUSEDSIGNAL */
module STARTUPE3 (
  input  wire logic       USRCCLKO,   // drives the configuration flash's CCLK pin
  input  wire logic       USRCCLKTS,
  input  wire logic       USRDONEO,
  input  wire logic       USRDONETS,
  input  wire logic [3:0] DO,         // D00..D03 out
  input  wire logic [3:0] DTS,        // 1: D0x tristate (input)
  output      logic [3:0] DI,         // D00..D03 in
  input  wire logic       FCSBO,      // FCS_B
  input  wire logic       FCSBTS,
  input  wire logic       GSR,
  input  wire logic       GTS,
  input  wire logic       KEYCLEARB,
  input  wire logic       PACK
);
  assign DI = '0;
endmodule
/* verilator lint_on UNUSEDSIGNAL */

`default_nettype wire
