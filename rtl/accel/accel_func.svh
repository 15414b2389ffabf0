// SPDX-License-Identifier: Apache-2.0
//
// accel_func.svh: helper functions of the sample accelerator only (DMA
// request headers, per-dword byte enables, CRC). The TLP header helpers
// they build on are rtl/lib/pcie_tlp_func.svh: `include that first. Include
// this file inside a module body: Yosys mis-elaborates functions declared in
// packages (and reads no imports inside modules), so every module gets its
// own copy and package items are referenced by qualified name. Functions
// assign their own name (Yosys does not parse `return`). No include guard on
// purpose.

  // {keep, header beat} of a DMA memory request of the job engine: every byte
  // of every dword enabled (last BE 0 for a single dword), TC 0.
  function automatic logic [131:0] mem_hdr(input logic f_write, input logic [63:0] f_addr,
                                           input logic [9:0] f_len, input logic [15:0] f_req_id,
                                           input logic [7:0] f_tag);
    mem_hdr = {tlp_mem_hdr_keep(f_addr),
               tlp_mem_hdr(f_write, f_addr, f_len, f_req_id, f_tag, 4'hf,
                           (f_len == 10'd1) ? 4'h0 : 4'hf)};
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
