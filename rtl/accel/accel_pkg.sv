// SPDX-License-Identifier: Apache-2.0
//
// accel_pkg: shared definitions of the sample PCIe accelerator (rtl/accel/).
//
// Holds the TLP stream beat type of docs/tlp-interface.md, TLP header field
// helpers and the CRC-32 step used by the compute job. The device identity,
// BAR0 register map, opcodes and error codes are defined in
// hw/regs/sample_accel.rdl and generated into accel_regs_pkg (rtl/gen/), the
// C header hw/include/accel_hw.h and docs/accel-registers.md. The helper
// functions are in accel_func.svh (see there why).

`default_nettype none

/* verilator lint_off UNUSEDPARAM */
package accel_pkg;

  // The device identity, register offsets and layouts, MSI-X table size, job
  // opcodes and error codes are in the generated accel_regs_pkg.
  localparam int MSI_VECTORS_LOG2 = 2;  // MSI multiple message capable: 4

  // ------------------------------------------------------------------------
  // TLP stream beat (docs/tlp-interface.md): header on sop, payload from beat 1
  // ------------------------------------------------------------------------
  typedef struct packed {
    logic         sop;
    logic         eop;
    logic [3:0]   keep;
    logic [127:0] data;
  } beat_t;
  localparam int BEAT_W = 134;  // $bits(beat_t); Yosys takes no $bits of a package type

  // Fmt / Type values
  localparam logic [2:0] FMT_3DW   = 3'b000;
  localparam logic [2:0] FMT_4DW   = 3'b001;
  localparam logic [2:0] FMT_3DW_D = 3'b010;
  localparam logic [2:0] FMT_4DW_D = 3'b011;
  localparam logic [4:0] TYPE_MEM  = 5'b00000;
  localparam logic [4:0] TYPE_CFG0 = 5'b00100;
  localparam logic [4:0] TYPE_CPL  = 5'b01010;

  localparam logic [2:0] CPL_SC = 3'b000;
  localparam logic [2:0] CPL_UR = 3'b001;
  localparam logic [2:0] CPL_CA = 3'b100;

endpackage
/* verilator lint_on UNUSEDPARAM */
