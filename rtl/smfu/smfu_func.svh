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

  // Header flit of an SMFU_RD / SMFU_WR: smfu_hdr_flit plus the request's
  // Traffic Class and attributes (PCIe Base Spec. 2.2.6.4-2.2.6.6) in the
  // route field, net_pkg::net_smfu_ext_t (docs/packets.md): the packet is
  // table routed, so no router reads or changes that field.
  function automatic logic [127:0] smfu_req_flit(
    input logic [15:0] dst,
    input logic [15:0] src,
    input logic [3:0]  ptype,
    input logic [4:0]  plen,
    input logic [63:0] cmd,
    input logic [2:0]  tc,
    input logic [2:0]  attr
  );
    net_pkg::net_hdr_t      h;
    net_pkg::net_smfu_ext_t x;
    x       = '0;
    x.tc    = tc;
    x.attr  = attr;
    h       = smfu_hdr_flit(dst, src, ptype, plen, cmd);
    h.route = x;
    smfu_req_flit = h;
  endfunction

  // The SMFU's completion timeout setting (smfu.ctrl.timeout, 256-cycle units,
  // 0: 4096) clamped to 0x2000 units: 8192 x 256 = 2,097,152 cycles,
  // 8.4 ms at 250 MHz. A requester that waits for the SMFU (the host CPU, the
  // device below the NAA) must see the SMFU's CA completion before its own
  // Completion Timeout fires: at the default range (Device Control 2 value 0,
  // PCIe Base Spec. 2.8, 7.5.3.16) that timer may fire anywhere in 50 us to
  // 50 ms and "should not expire in less than 10 ms"; ranges A-D start at
  // 50 us too. The clamp keeps the SMFU below 10 ms; shorter host settings
  // need a smaller smfu.ctrl.timeout (docs/pcie-rules.md, row 11).
  function automatic logic [15:0] smfu_tmo_clamp(input logic [15:0] t);
    smfu_tmo_clamp = (t > 16'h2000) ? 16'h2000 : t;
  endfunction

  // Index of the lowest set bit of v (slot allocation and arbitration over
  // the tag slots, up to 128); 0 when none is set (callers test |v).
  function automatic logic [6:0] smfu_first(input logic [127:0] v);
    smfu_first = '0;
    for (int i = 127; i >= 0; i--) begin
      if (v[i]) smfu_first = 7'(i);
    end
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
