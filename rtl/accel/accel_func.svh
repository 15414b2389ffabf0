// SPDX-License-Identifier: Apache-2.0
//
// accel_func.svh: TLP header and CRC helper functions of the sample
// accelerator. `include this file inside a module body: Yosys mis-elaborates
// functions declared in packages (and reads no imports inside modules), so
// every module gets its own copy and package items are referenced by
// qualified name. Functions assign their own name (Yosys does not parse
// `return`). No include guard on purpose.

  /* verilator lint_off UNUSEDSIGNAL */
  // Header dword 0
  function automatic logic [31:0] hdr_dw0(input logic [2:0] f_fmt, input logic [4:0] f_typ,
                                          input logic [2:0] f_tc, input logic [1:0] f_attr,
                                          input logic [9:0] f_len);
    hdr_dw0 = {f_fmt, f_typ, 1'b0, f_tc, 4'b0000, 1'b0, 1'b0, f_attr, 2'b00, f_len};
  endfunction

  // Completion header beat (3 DW); dw0 carries TC/attr copied from the request.
  function automatic logic [127:0] cpl_hdr(input logic f_with_data, input logic [9:0] f_len,
                                           input logic [2:0] f_tc, input logic [1:0] f_attr,
                                           input logic [15:0] f_cpl_id, input logic [2:0] f_status,
                                           input logic [11:0] f_byte_count,
                                           input logic [15:0] f_req_id, input logic [7:0] f_tag,
                                           input logic [6:0] f_lower_addr);
    logic [31:0] f_d0, f_d1, f_d2;
    f_d0 = hdr_dw0(f_with_data ? accel_pkg::FMT_3DW_D : accel_pkg::FMT_3DW, accel_pkg::TYPE_CPL,
                   f_tc, f_attr, f_with_data ? f_len : 10'd0);
    f_d1 = {f_cpl_id, f_status, 1'b0, f_byte_count};
    f_d2 = {f_req_id, f_tag, 1'b0, f_lower_addr};
    cpl_hdr = {32'h0, f_d2, f_d1, f_d0};
  endfunction

  // Memory request header beat (3 DW below 4 GiB, else 4 DW); returns keep too.
  function automatic logic [131:0] mem_hdr(input logic f_write, input logic [63:0] f_addr,
                                           input logic [9:0] f_len, input logic [15:0] f_req_id,
                                           input logic [7:0] f_tag);
    logic        f_wide;
    logic [3:0]  f_lbe;
    logic [31:0] f_d0, f_d1;
    f_wide = f_addr[63:32] != 32'h0;
    f_lbe  = (f_len == 10'd1) ? 4'h0 : 4'hf;
    f_d0 = hdr_dw0({1'b0, f_write, f_wide}, accel_pkg::TYPE_MEM, 3'd0, 2'd0, f_len);
    f_d1 = {f_req_id, f_tag, f_lbe, 4'hf};
    if (f_wide) mem_hdr = {4'b1111, f_addr[31:2], 2'b00, f_addr[63:32], f_d1, f_d0};
    else mem_hdr = {4'b0111, 32'h0, f_addr[31:2], 2'b00, f_d1, f_d0};
  endfunction

  // Bytes before the first enabled byte of a first-DW byte enable (0 if none).
  function automatic logic [1:0] be_lead(input logic [3:0] f_be);
    if (f_be[0]) be_lead = 2'd0;
    else if (f_be[1]) be_lead = 2'd1;
    else if (f_be[2]) be_lead = 2'd2;
    else if (f_be[3]) be_lead = 2'd3;
    else be_lead = 2'd0;
  endfunction

  // Bytes after the last enabled byte of a byte enable (0 if none).
  function automatic logic [1:0] be_trail(input logic [3:0] f_be);
    if (f_be[3]) be_trail = 2'd0;
    else if (f_be[2]) be_trail = 2'd1;
    else if (f_be[1]) be_trail = 2'd2;
    else if (f_be[0]) be_trail = 2'd3;
    else be_trail = 2'd0;
  endfunction

  // Byte count of a memory read request (PCIe Base Spec table 2-38); 4096 -> 0.
  function automatic logic [11:0] req_byte_count(input logic [10:0] f_len_dw,
                                                 input logic [3:0] f_fbe, input logic [3:0] f_lbe);
    logic [12:0] f_bc;
    if (f_len_dw == 11'd1) begin
      if (f_fbe == 4'h0) f_bc = 13'd1;
      else f_bc = 13'd4 - 13'(be_lead(f_fbe)) - 13'(be_trail(f_fbe));
    end else begin
      f_bc = {f_len_dw, 2'b00} - 13'(be_lead(f_fbe)) - 13'(be_trail(f_lbe));
    end
    req_byte_count = f_bc[11:0];
  endfunction

  // Byte enables of payload dword k of a request of len_dw dwords.
  function automatic logic [3:0] dw_be(input logic [10:0] f_k, input logic [10:0] f_len_dw,
                                       input logic [3:0] f_fbe, input logic [3:0] f_lbe);
    if (f_k == 11'd0) dw_be = f_fbe;
    else if (f_k == f_len_dw - 11'd1) dw_be = f_lbe;
    else dw_be = 4'hf;
  endfunction

  // CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) over the enabled
  // bytes of a 16-byte line, lowest byte first. Init 0xFFFFFFFF and final
  // inversion are applied by the caller, so the result equals zlib's crc32().
  function automatic logic [31:0] crc32_line(input logic [31:0] f_crc_in,
                                             input logic [127:0] f_d, input logic [15:0] f_be);
    logic [31:0] f_c;
    f_c = f_crc_in;
    for (int b = 0; b < 16; b++) begin
      if (f_be[b]) begin
        for (int i = 0; i < 8; i++) begin
          f_c = (f_c >> 1) ^ (32'hEDB88320 & {32{f_c[0] ^ f_d[8*b+i]}});
        end
      end
    end
    crc32_line = f_c;
  endfunction

  // Keep mask for the last beat carrying n (1..4) dwords.
  function automatic logic [3:0] keep_of(input logic [2:0] f_n);
    case (f_n)
      3'd1: keep_of = 4'b0001;
      3'd2: keep_of = 4'b0011;
      3'd3: keep_of = 4'b0111;
      default: keep_of = 4'b1111;
    endcase
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
