// SPDX-License-Identifier: Apache-2.0
//
// smfu_func.svh: helpers shared by the SMFU units (docs/smfu.md): network
// header flits and payload beat masks. TLP headers come from
// rtl/lib/pcie_tlp_func.svh. `include inside a module body (after
// pcie_tlp_func.svh where both are needed): Yosys does not elaborate
// functions in packages and does not parse `return`. No include guard: every
// module gets its own copy.

  // Header flit of a packet (docs/packets.md): table routing, VC 0, no route.
  function automatic logic [127:0] smfu_hdr_flit(
    input logic [15:0] dst,     // destination node
    input logic [15:0] src,     // this node
    input logic [3:0]  ptype,   // net_pkg::net_type_e value
    input logic [4:0]  plen,    // payload flits
    input logic [63:0] cmd      // command word
  );
    net_pkg::net_hdr_t h;
    h       = '0;
    h.dst   = dst;
    h.src   = src;
    h.ptype = net_pkg::net_type_e'(ptype);
    h.plen  = plen;
    h.rmode = net_pkg::NET_RMODE_TABLE;
    h.cmd   = cmd;
    smfu_hdr_flit = h;
  endfunction

  // Keep bits of a payload beat given the dwords still to come (1.., >= 4: full).
  function automatic logic [3:0] smfu_keep(input logic [6:0] left);
    if (left >= 7'd4) begin
      smfu_keep = 4'b1111;
    end else begin
      case (left[1:0])
        2'd1:    smfu_keep = 4'b0001;
        2'd2:    smfu_keep = 4'b0011;
        default: smfu_keep = 4'b0111;
      endcase
    end
  endfunction

  // Zero the dwords of a beat whose keep bit is clear.
  function automatic logic [127:0] smfu_mask(input logic [127:0] d, input logic [3:0] keep);
    smfu_mask = d & {{32{keep[3]}}, {32{keep[2]}}, {32{keep[1]}}, {32{keep[0]}}};
  endfunction
