// SPDX-License-Identifier: Apache-2.0
//
// pcie_tlp_func.svh: helper functions for TLP headers (docs/tlp-interface.md).
// `include this file inside the body of a module: Yosys mis-elaborates functions declared in
// packages, but handles module-local ones. Functions assign their own name
// instead of using `return`, which Yosys does not parse. No include guard on
// purpose: every module gets its own copy.

    // Decode the request fields of a header beat (meaningful for requests only).
    /* verilator lint_off UNUSEDSIGNAL */  // reserved/unused header bits
    function automatic pcie_tlp_pkg::tlp_req_t tlp_req_decode(input logic [pcie_tlp_pkg::TLP_DATA_W-1:0] hdr);
        pcie_tlp_pkg::tlp_req_t r;
        logic [31:0] dw0, dw1, dw2, dw3;
        dw0 = hdr[31:0];
        dw1 = hdr[63:32];
        dw2 = hdr[95:64];
        dw3 = hdr[127:96];
        r.fmt      = dw0[31:29];
        r.typ      = dw0[28:24];
        r.tc       = dw0[22:20];
        r.attr     = {dw0[18], dw0[13:12]};
        r.ep       = dw0[14];
        r.len      = (dw0[9:0] == 10'd0) ? 11'd1024 : {1'b0, dw0[9:0]};
        r.req_id   = dw1[31:16];
        r.tag      = dw1[15:8];
        r.last_be  = dw1[7:4];
        r.first_be = dw1[3:0];
        if (dw0[29]) begin
            r.addr = {dw2, dw3[31:2], 2'b00};
        end else begin
            r.addr = {32'd0, dw2[31:2], 2'b00};
            if (dw0[28:25] == 4'b0010) begin
                // configuration request: keep the target ID and register intact
                r.addr = {32'd0, dw2};
            end
        end
        tlp_req_decode = r;
    endfunction
    /* verilator lint_on UNUSEDSIGNAL */

    // Build a completion header beat (3-DW header, dword 3 zero).
    function automatic logic [pcie_tlp_pkg::TLP_DATA_W-1:0] tlp_cpl_hdr(
        input logic        with_data,   // CplD (1) or Cpl (0)
        input logic [9:0]  len,         // payload length in dwords (CplD)
        input logic [15:0] cid,         // completer ID
        input logic [2:0]  status,      // completion status
        input logic [11:0] byte_count,  // remaining byte count (0 = 4096)
        input logic [15:0] req_id,      // requester ID of the request
        input logic [7:0]  tag,         // tag of the request
        input logic [6:0]  lower_addr,  // lower address
        input logic [2:0]  tc,          // traffic class of the request
        input logic [2:0]  attr         // attributes of the request
    );
        logic [31:0] dw0, dw1, dw2;
        dw0 = {with_data ? pcie_tlp_pkg::FMT_3DW_DATA : pcie_tlp_pkg::FMT_3DW, pcie_tlp_pkg::TYPE_CPL, 1'b0, tc, 1'b0, attr[2],
               1'b0, 1'b0, 1'b0, 1'b0, attr[1:0], 2'b00, with_data ? len : 10'd0};
        dw1 = {cid, status, 1'b0, byte_count};
        dw2 = {req_id, tag, 1'b0, lower_addr};
        tlp_cpl_hdr = {32'd0, dw2, dw1, dw0};
    endfunction

    // Byte count of a memory read request (PCIe Base Spec. table 2-37), 12 bit
    // (4096 wraps to 0 as the completion field requires).
    function automatic logic [11:0] tlp_mrd_byte_count(
        input logic [10:0] len, input logic [3:0] first_be, input logic [3:0] last_be);
        logic [12:0] bc;
        if (len == 11'd1) begin
            casez (first_be)
                4'b1??1: bc = 13'd4;
                4'b01?1: bc = 13'd3;
                4'b1?10: bc = 13'd3;
                4'b0011: bc = 13'd2;
                4'b0110: bc = 13'd2;
                4'b1100: bc = 13'd2;
                default: bc = 13'd1;   // one byte enabled, or zero-length read
            endcase
        end else begin
            bc = {len, 2'b00};
            casez (first_be)
                4'b???1: bc = bc - 13'd0;
                4'b??10: bc = bc - 13'd1;
                4'b?100: bc = bc - 13'd2;
                default: bc = bc - 13'd3;
            endcase
            casez (last_be)
                4'b1???: bc = bc - 13'd0;
                4'b01??: bc = bc - 13'd1;
                4'b001?: bc = bc - 13'd2;
                default: bc = bc - 13'd3;
            endcase
        end
        tlp_mrd_byte_count = bc[11:0];
    endfunction

    // Lower address of the first completion of a memory read (addr: bits 6:2 of the address).
    function automatic logic [6:0] tlp_mrd_lower_addr(
        input logic [6:2] addr, input logic [3:0] first_be);
        logic [1:0] lo;
        casez (first_be)
            4'b???1: lo = 2'd0;
            4'b??10: lo = 2'd1;
            4'b?100: lo = 2'd2;
            4'b1000: lo = 2'd3;
            default: lo = 2'd0;
        endcase
        tlp_mrd_lower_addr = {addr[6:2], lo};
    endfunction

    // Keep mask of a beat that carries `n` (1..4) dwords, contiguous from dword 0.
    function automatic logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] tlp_keep(input logic [2:0] n);
        case (n)
            3'd1:    tlp_keep = 4'b0001;
            3'd2:    tlp_keep = 4'b0011;
            3'd3:    tlp_keep = 4'b0111;
            default: tlp_keep = 4'b1111;
        endcase
    endfunction

    // Merge a configuration write into a register: enabled bytes, writable
    // (mask) bits only; the other bits keep their old value.
    function automatic logic [31:0] cfg_wr_merge(input logic [31:0] old, input logic [31:0] data,
                                                 input logic [3:0] be, input logic [31:0] mask);
        logic [31:0] r;
        r = old;
        for (int b = 0; b < 4; b++) begin
            if (be[b]) begin
                r[8*b +: 8] = (old[8*b +: 8] & ~mask[8*b +: 8]) | (data[8*b +: 8] & mask[8*b +: 8]);
            end
        end
        cfg_wr_merge = r;
    endfunction
