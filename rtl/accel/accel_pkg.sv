// SPDX-License-Identifier: Apache-2.0
//
// accel_pkg: shared definitions of the sample PCIe accelerator (rtl/accel/).
//
// Holds the device identity, the BAR0 register offsets (docs/accelerator.md is
// the human-readable map, hw/include/accel_hw.h the C one; `make -C rtl/accel
// lint` checks that the three agree), the TLP stream beat type of
// docs/tlp-interface.md, TLP header field helpers and the CRC-32 step used by
// the compute job. The helper functions are in accel_func.svh (see there why).

`default_nettype none

/* verilator lint_off UNUSEDPARAM */
package accel_pkg;

  // ------------------------------------------------------------------------
  // Identity
  // ------------------------------------------------------------------------
  localparam logic [15:0] VENDOR_ID    = 16'h1ee7;
  localparam logic [15:0] DEVICE_ID    = 16'h0100;
  localparam logic [23:0] CLASS_CODE   = 24'h120000;  // processing accelerator
  localparam logic [7:0]  REVISION_ID  = 8'h01;
  localparam logic [15:0] SUBSYS_VID   = 16'h1ee7;
  localparam logic [15:0] SUBSYS_ID    = 16'h0001;
  localparam logic [31:0] ACCEL_MAGIC  = 32'hACC0_1EE7;   // BAR0 0x000
  localparam logic [31:0] ACCEL_VERSION = 32'h0001_0000;  // BAR0 0x004: major 1, minor 0

  localparam int MSIX_VECTORS = 4;  // MSI-X table entries (BAR0 0x800)
  localparam int MSI_VECTORS_LOG2 = 2;  // MSI multiple message capable: 4

  // ------------------------------------------------------------------------
  // BAR0 register byte offsets
  // ------------------------------------------------------------------------
  localparam logic [11:0] R_ID          = 12'h000;
  localparam logic [11:0] R_VERSION     = 12'h004;
  localparam logic [11:0] R_CAPS        = 12'h008;
  localparam logic [11:0] R_SCRATCH_LO  = 12'h010;
  localparam logic [11:0] R_SCRATCH_HI  = 12'h014;
  localparam logic [11:0] R_CYCLES_LO   = 12'h018;
  localparam logic [11:0] R_CYCLES_HI   = 12'h01c;
  localparam logic [11:0] R_IRQ_STATUS  = 12'h020;
  localparam logic [11:0] R_IRQ_ENABLE  = 12'h024;
  localparam logic [11:0] R_IRQ_VECTOR  = 12'h028;
  localparam logic [11:0] R_JOB_HOST_LO = 12'h040;
  localparam logic [11:0] R_JOB_HOST_HI = 12'h044;
  localparam logic [11:0] R_JOB_DEV_OFF = 12'h048;
  localparam logic [11:0] R_JOB_LEN     = 12'h04c;
  localparam logic [11:0] R_JOB_CTRL    = 12'h050;
  localparam logic [11:0] R_JOB_STATUS  = 12'h054;
  localparam logic [11:0] R_JOB_COUNT   = 12'h058;
  localparam logic [11:0] R_JOB_CYCLES  = 12'h05c;
  localparam logic [11:0] R_RESULT_LO   = 12'h060;
  localparam logic [11:0] R_RESULT_HI   = 12'h064;
  localparam logic [11:0] R_MSIX_TABLE  = 12'h800;  // 16 bytes per vector
  localparam logic [11:0] R_MSIX_PBA    = 12'hc00;

  // Job opcodes (JOB_CTRL[3:0]) and error codes (JOB_STATUS[7:4])
  localparam logic [3:0] OP_H2D = 4'd1;  // DMA host memory -> device memory
  localparam logic [3:0] OP_D2H = 4'd2;  // DMA device memory -> host memory
  localparam logic [3:0] OP_CRC = 4'd3;  // CRC-32 over device memory
  localparam logic [3:0] ERR_NONE    = 4'd0;
  localparam logic [3:0] ERR_PARAM   = 4'd1;  // length 0, unaligned, outside device memory
  localparam logic [3:0] ERR_CPL     = 4'd2;  // a completion with UR/CA/other non-SC status
  localparam logic [3:0] ERR_NO_BME  = 4'd3;  // DMA while Bus Master Enable is clear
  localparam logic [3:0] ERR_TIMEOUT = 4'd4;  // completion timeout
  localparam logic [3:0] ERR_OPCODE  = 4'd5;  // unknown opcode

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
