// SPDX-License-Identifier: Apache-2.0
//
// pcie_tlp_func.svh: helper functions for TLP headers (docs/tlp-interface.md),
// shared by rtl/pcie, rtl/smfu and rtl/accel; needs pcie_tlp_pkg (rtl/lib).
// `include this file inside the body of a module: Yosys mis-elaborates
// functions declared in packages, but handles module-local ones. Functions
// assign their own name instead of using `return`, which Yosys does not
// parse. Arguments and locals are named f_* so they never hide a signal of
// the including module. No include guard on purpose: every module gets its
// own copy.
// Unit-specific helpers stay with their unit (smfu_func.svh: network header
// flits; accel_func.svh: CRC, per-dword byte enables).

  // Decode the request fields of a header beat (meaningful for requests only).
  /* verilator lint_off UNUSEDSIGNAL */  // reserved/unused header bits
  function automatic pcie_tlp_pkg::tlp_req_t tlp_req_decode(input logic [pcie_tlp_pkg::TLP_DATA_W-1:0] f_hdr);
    pcie_tlp_pkg::tlp_req_t f_r;
    logic [31:0] f_dw0, f_dw1, f_dw2, f_dw3;
    f_dw0 = f_hdr[31:0];
    f_dw1 = f_hdr[63:32];
    f_dw2 = f_hdr[95:64];
    f_dw3 = f_hdr[127:96];
    f_r.fmt      = f_dw0[31:29];
    f_r.typ      = f_dw0[28:24];
    f_r.tc       = f_dw0[22:20];
    f_r.attr     = {f_dw0[18], f_dw0[13:12]};
    f_r.ep       = f_dw0[14];
    f_r.len      = (f_dw0[9:0] == 10'd0) ? 11'd1024 : {1'b0, f_dw0[9:0]};
    f_r.req_id   = f_dw1[31:16];
    f_r.tag      = f_dw1[15:8];
    f_r.last_be  = f_dw1[7:4];
    f_r.first_be = f_dw1[3:0];
    if (f_dw0[29]) begin
      f_r.addr = {f_dw2, f_dw3[31:2], 2'b00};
    end else begin
      f_r.addr = {32'd0, f_dw2[31:2], 2'b00};
      if (f_dw0[28:25] == 4'b0010) begin
        // configuration request: keep the target ID and register intact
        f_r.addr = {32'd0, f_dw2};
      end
    end
    tlp_req_decode = f_r;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // A non-posted request (it needs a completion): MRd, MRdLk, IO, configuration
  // and AtomicOp requests; no TLP prefix.
  /* verilator lint_off UNUSEDSIGNAL */  // the other request fields
  function automatic logic tlp_nonposted(input pcie_tlp_pkg::tlp_req_t f_req);
    tlp_nonposted = !f_req.fmt[2] && (
      (f_req.typ == pcie_tlp_pkg::TYPE_MEM && !f_req.fmt[1]) || f_req.typ == pcie_tlp_pkg::TYPE_MEM_LK ||
      f_req.typ == pcie_tlp_pkg::TYPE_IO || f_req.typ == pcie_tlp_pkg::TYPE_CFG0 ||
      f_req.typ == pcie_tlp_pkg::TYPE_CFG1 || f_req.typ == pcie_tlp_pkg::TYPE_FETCHADD ||
      f_req.typ == pcie_tlp_pkg::TYPE_SWAP || f_req.typ == pcie_tlp_pkg::TYPE_CAS);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // Build a completion header beat (3-DW header, dword 3 zero).
  function automatic logic [pcie_tlp_pkg::TLP_DATA_W-1:0] tlp_cpl_hdr(
    input logic        f_with_data,   // CplD (1) or Cpl (0)
    input logic [9:0]  f_len,         // payload length in dwords (CplD)
    input logic [15:0] f_cid,         // completer ID
    input logic [2:0]  f_status,      // completion status
    input logic [11:0] f_byte_count,  // remaining byte count (0 = 4096)
    input logic [15:0] f_req_id,      // requester ID of the request
    input logic [7:0]  f_tag,         // tag of the request
    input logic [6:0]  f_lower_addr,  // lower address
    input logic [2:0]  f_tc,          // traffic class of the request
    input logic [2:0]  f_attr         // attributes of the request
  );
    logic [31:0] f_dw0, f_dw1, f_dw2;
    f_dw0 = {f_with_data ? pcie_tlp_pkg::FMT_3DW_DATA : pcie_tlp_pkg::FMT_3DW, pcie_tlp_pkg::TYPE_CPL, 1'b0, f_tc, 1'b0, f_attr[2],
           1'b0, 1'b0, 1'b0, 1'b0, f_attr[1:0], 2'b00, f_with_data ? f_len : 10'd0};
    f_dw1 = {f_cid, f_status, 1'b0, f_byte_count};
    f_dw2 = {f_req_id, f_tag, 1'b0, f_lower_addr};
    tlp_cpl_hdr = {32'd0, f_dw2, f_dw1, f_dw0};
  endfunction

  // Set the EP (poisoned) bit, header dword 0 bit 14, of a header beat built
  // by tlp_cpl_hdr/tlp_mem_hdr (PCIe Base Spec. 2.7.2: a TLP whose data is
  // known bad is forwarded with EP = 1).
  function automatic logic [pcie_tlp_pkg::TLP_DATA_W-1:0] tlp_set_ep(
    input logic [pcie_tlp_pkg::TLP_DATA_W-1:0] f_hdr,
    input logic                                f_ep
  );
    logic [pcie_tlp_pkg::TLP_DATA_W-1:0] f_h;
    f_h        = f_hdr;
    f_h[14]    = f_hdr[14] | f_ep;
    tlp_set_ep = f_h;
  endfunction

  // Set the Traffic Class (header dword 0 bits 22:20) and the attributes
  // (Attr[2] bit 18, Attr[1:0] bits 13:12; PCIe Base Spec. 2.2.6.4-2.2.6.6)
  // of a header beat built by tlp_mem_hdr (TC 0, no attributes).
  function automatic logic [pcie_tlp_pkg::TLP_DATA_W-1:0] tlp_set_tc_attr(
    input logic [pcie_tlp_pkg::TLP_DATA_W-1:0] f_hdr,
    input logic [2:0]                          f_tc,
    input logic [2:0]                          f_attr
  );
    logic [pcie_tlp_pkg::TLP_DATA_W-1:0] f_h;
    f_h             = f_hdr;
    f_h[22:20]      = f_tc;
    f_h[18]         = f_attr[2];
    f_h[13:12]      = f_attr[1:0];
    tlp_set_tc_attr = f_h;
  endfunction

  // Build a memory request header beat: 3-DW header below 4 GiB, 4-DW above
  // (PCIe rule), TC 0, no attributes. A 3-DW header leaves dword 3 zero.
  /* verilator lint_off UNUSEDSIGNAL */  // address bits 1:0
  function automatic logic [pcie_tlp_pkg::TLP_DATA_W-1:0] tlp_mem_hdr(
    input logic        f_wr,      // MWr (1) / MRd (0)
    input logic [63:0] f_addr,    // byte address (bits 1:0 ignored)
    input logic [9:0]  f_len,     // dwords (0 = 1024)
    input logic [15:0] f_req_id,  // requester ID
    input logic [7:0]  f_tag,     // tag
    input logic [3:0]  f_fbe,     // first dword byte enables
    input logic [3:0]  f_lbe      // last dword byte enables
  );
    logic        f_wide;
    logic [31:0] f_dw0, f_dw1, f_dw2, f_dw3;
    f_wide = (f_addr[63:32] != 32'd0);
    f_dw0  = {1'b0, f_wr, f_wide, pcie_tlp_pkg::TYPE_MEM, 12'd0, 2'b00, f_len};
    f_dw1  = {f_req_id, f_tag, f_lbe, f_fbe};
    f_dw2  = f_wide ? f_addr[63:32] : {f_addr[31:2], 2'b00};
    f_dw3  = f_wide ? {f_addr[31:2], 2'b00} : 32'd0;
    tlp_mem_hdr = {f_dw3, f_dw2, f_dw1, f_dw0};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // Keep mask of the header beat of a memory request built by tlp_mem_hdr:
  // four dwords above 4 GiB, three below.
  /* verilator lint_off UNUSEDSIGNAL */  // address bits 31:0
  function automatic logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] tlp_mem_hdr_keep(input logic [63:0] f_addr);
    tlp_mem_hdr_keep = (f_addr[63:32] != 32'd0) ? 4'b1111 : 4'b0111;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // Bytes before the first enabled byte of a byte enable (0 if none).
  function automatic logic [1:0] tlp_be_lead(input logic [3:0] f_be);
    casez (f_be)
      4'b???1: tlp_be_lead = 2'd0;
      4'b??10: tlp_be_lead = 2'd1;
      4'b?100: tlp_be_lead = 2'd2;
      4'b1000: tlp_be_lead = 2'd3;
      default: tlp_be_lead = 2'd0;
    endcase
  endfunction

  // Byte count of a memory read request (PCIe Base Spec. table 2-37), 12 bit
  // (4096 wraps to 0 as the completion field requires).
  function automatic logic [11:0] tlp_mrd_byte_count(
    input logic [10:0] f_len, input logic [3:0] f_first_be, input logic [3:0] f_last_be);
    logic [12:0] f_bc;
    if (f_len == 11'd1) begin
      casez (f_first_be)
        4'b1??1: f_bc = 13'd4;
        4'b01?1: f_bc = 13'd3;
        4'b1?10: f_bc = 13'd3;
        4'b0011: f_bc = 13'd2;
        4'b0110: f_bc = 13'd2;
        4'b1100: f_bc = 13'd2;
        default: f_bc = 13'd1;   // one byte enabled, or zero-length read
      endcase
    end else begin
      f_bc = {f_len, 2'b00};
      casez (f_first_be)
        4'b???1: f_bc = f_bc - 13'd0;
        4'b??10: f_bc = f_bc - 13'd1;
        4'b?100: f_bc = f_bc - 13'd2;
        default: f_bc = f_bc - 13'd3;
      endcase
      casez (f_last_be)
        4'b1???: f_bc = f_bc - 13'd0;
        4'b01??: f_bc = f_bc - 13'd1;
        4'b001?: f_bc = f_bc - 13'd2;
        default: f_bc = f_bc - 13'd3;
      endcase
    end
    tlp_mrd_byte_count = f_bc[11:0];
  endfunction

  // Lower address of the first completion of a memory read (addr: bits 6:2 of the address).
  function automatic logic [6:0] tlp_mrd_lower_addr(
    input logic [6:2] f_addr, input logic [3:0] f_first_be);
    tlp_mrd_lower_addr = {f_addr[6:2], tlp_be_lead(f_first_be)};
  endfunction

  // Keep mask of a beat that carries `n` (1..4) dwords, contiguous from dword 0.
  function automatic logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] tlp_keep(input logic [2:0] f_n);
    case (f_n)
      3'd1:    tlp_keep = 4'b0001;
      3'd2:    tlp_keep = 4'b0011;
      3'd3:    tlp_keep = 4'b0111;
      default: tlp_keep = 4'b1111;
    endcase
  endfunction

  // Merge a configuration write into a register: enabled bytes, writable
  // (mask) bits only; the other bits keep their old value.
  function automatic logic [31:0] cfg_wr_merge(input logic [31:0] f_old, input logic [31:0] f_data,
                                               input logic [3:0] f_be, input logic [31:0] f_mask);
    logic [31:0] f_r;
    f_r = f_old;
    for (int f_b = 0; f_b < 4; f_b++) begin
      if (f_be[f_b]) begin
        f_r[8*f_b +: 8] = (f_old[8*f_b +: 8] & ~f_mask[8*f_b +: 8]) | (f_data[8*f_b +: 8] & f_mask[8*f_b +: 8]);
      end
    end
    cfg_wr_merge = f_r;
  endfunction
