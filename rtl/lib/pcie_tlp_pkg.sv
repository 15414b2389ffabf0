// SPDX-License-Identifier: Apache-2.0
//
// pcie_tlp_pkg: constants, types and helper functions for the NIC's TLP stream
// (docs/tlp-interface.md). Beat 0 of every TLP carries the header, dword i of
// the header in bits [32*i+31:32*i], each header dword numbered as in the
// PCIe Base Specification figures (dword 0: Fmt 31:29, Type 28:24, Length 9:0).
// Payload starts on beat 1, four dwords per beat, little-endian bytes.
//
// Shared by every unit that speaks TLPs (rtl/pcie, rtl/smfu, rtl/accel) so the
// header layout is written once. The helper functions live in
// pcie_tlp_func.svh (also rtl/lib), `included inside each module that uses
// them: Yosys mis-elaborates functions declared in packages.

`default_nettype none

package pcie_tlp_pkg;

  // --------------------------------------------------------------------------
  // Stream geometry
  // --------------------------------------------------------------------------
  localparam int TLP_DATA_W = 128;            // beat width in bits
  localparam int TLP_KEEP_W = TLP_DATA_W / 32; // one keep bit per dword

  /* verilator lint_off UNUSEDPARAM */  // the full code tables, not all used yet
  // --------------------------------------------------------------------------
  // Fmt and Type encodings (PCIe Base Specification, table 2-2/2-3)
  // --------------------------------------------------------------------------
  localparam logic [2:0] FMT_3DW      = 3'b000;  // 3-DW header, no data
  localparam logic [2:0] FMT_4DW      = 3'b001;  // 4-DW header, no data
  localparam logic [2:0] FMT_3DW_DATA = 3'b010;  // 3-DW header, with data
  localparam logic [2:0] FMT_4DW_DATA = 3'b011;  // 4-DW header, with data

  localparam logic [4:0] TYPE_MEM      = 5'b00000; // MRd / MWr
  localparam logic [4:0] TYPE_MEM_LK   = 5'b00001; // MRdLk
  localparam logic [4:0] TYPE_IO       = 5'b00010; // IORd / IOWr
  localparam logic [4:0] TYPE_CFG0     = 5'b00100; // CfgRd0 / CfgWr0
  localparam logic [4:0] TYPE_CFG1     = 5'b00101; // CfgRd1 / CfgWr1
  localparam logic [4:0] TYPE_CPL      = 5'b01010; // Cpl / CplD
  localparam logic [4:0] TYPE_CPL_LK   = 5'b01011; // CplLk / CplDLk
  localparam logic [4:0] TYPE_FETCHADD = 5'b01100; // AtomicOp FetchAdd
  localparam logic [4:0] TYPE_SWAP     = 5'b01101; // AtomicOp Swap
  localparam logic [4:0] TYPE_CAS      = 5'b01110; // AtomicOp CAS

  // Completion status
  localparam logic [2:0] CPL_SC  = 3'b000;  // successful completion
  localparam logic [2:0] CPL_UR  = 3'b001;  // unsupported request
  localparam logic [2:0] CPL_CRS = 3'b010;  // configuration request retry
  localparam logic [2:0] CPL_CA  = 3'b100;  // completer abort
  /* verilator lint_on UNUSEDPARAM */

  // --------------------------------------------------------------------------
  // A request header, decoded from beat 0
  // --------------------------------------------------------------------------
  typedef struct packed {
    logic [2:0]  fmt;       // Fmt
    logic [4:0]  typ;       // Type
    logic [2:0]  tc;        // traffic class (echoed in completions)
    logic [2:0]  attr;      // {Attr[2] (IDO), Attr[1:0] (RO, NS)} (echoed)
    logic        ep;        // poisoned
    logic [10:0] len;       // Length in dwords, 1..1024 (0 in the header = 1024)
    logic [15:0] req_id;    // requester ID
    logic [7:0]  tag;       // tag
    logic [3:0]  last_be;   // last dword byte enables
    logic [3:0]  first_be;  // first dword byte enables
    logic [63:0] addr;      // memory: byte address (bits 1:0 zero);
                // config: {32'b0, header dword 2} (target ID, register)
  } tlp_req_t;

endpackage

`default_nettype wire
