#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Single source of the network packet format (docs/packets.md).

Writes the SystemVerilog package rtl/gen/net_pkg.sv and the C header
hw/include/net_packet.h from the tables below, so RTL and software can never
disagree on a bit position.  The records the NIC writes into host memory (the
RRA completion record, the notification-queue entry: RECORDS below) go into
net_pkg.sv as well and into the kernel-safe C header hw/include/extoll_records.h,
which the kernel driver reads them with.  Usage:

    gen_net.py SV_OUT C_OUT REC_OUT

`make gen` writes them; the test regs-generated (mk/check-generated.sh) fails if stale;
the Verilator test tb_pkt additionally decodes random flits with both.
"""
import sys

FLIT_W = 128
NVC = 2
NODE_W = 16
HOP_W = 3
NHOPS = 7
PLEN_W = 5

# Enums: (sv type name, C prefix, width, [(name, value, comment)])
ENUMS = [
    ("net_type_e", "NET_TYPE", 4, [
        ("NONE", 0, "invalid / never sent"),
        ("RRA_RD", 1, "remote register read request"),
        ("RRA_WR", 2, "remote register write request"),
        ("RRA_RSP", 3, "remote register response (read data / write ack)"),
        ("TLP_RAW", 4, "raw PCIe TLP through the backdoor"),
        ("SMFU_RD", 5, "SMFU non-posted read request"),
        ("SMFU_WR", 6, "SMFU posted write request"),
        ("SMFU_CPL", 7, "SMFU read completion"),
        ("INTR", 8, "interrupt / notification"),
    ]),
    ("net_rmode_e", "NET_RMODE", 1, [
        ("TABLE", 0, "route by the per-inport routing tables"),
        ("SOURCE", 1, "route by the hop list in the header"),
    ]),
    ("net_vcrule_e", "NET_VCRULE", 2, [
        ("AUTO", 0, "router computes the VC: dimension change -> VC0, dateline link -> VC1"),
        ("VC0", 1, "leave on VC0"),
        ("VC1", 2, "leave on VC1"),
        ("KEEP", 3, "leave on the arrival VC"),
    ]),
    ("net_port_e", "NET_PORT", 3, [
        ("XP", 0, "link X+"), ("XM", 1, "link X-"),
        ("YP", 2, "link Y+"), ("YM", 3, "link Y-"),
        ("ZP", 4, "link Z+"), ("ZM", 5, "link Z-"),
        ("SPARE", 6, "spare link"),
        ("EJECT", 7, "eject to a local unit port (chosen by packet type)"),
    ]),
    ("net_rsp_status_e", "NET_RSP", 8, [
        ("OK", 0, "register access done"),
        ("ERR", 1, "no such register / access error"),
    ]),
    ("net_tlp_dir_e", "NET_TLP_DIR", 1, [
        ("INJECT", 0, "TLP to be injected into the target NIC's PCIe hierarchy"),
        ("EXTRACT", 1, "TLP extracted by the target's backdoor RX filter, returned"),
    ]),
]
ENUM_W = {e[0]: e[2] for e in ENUMS}

# Bit layouts: struct name -> (total width, [(field, lsb, width, type, comment)])
# type is None (plain logic) or an enum name.  Gaps become reserved fields.
LAYOUTS = [
    ("net_hdr_t", "NET_HDR", 128, "header flit (flit 0 of every packet)", [
        ("dst", 0, 16, None, "destination node id"),
        ("src", 16, 16, None, "source node id"),
        ("ptype", 32, 4, "net_type_e", "packet type"),
        ("vc", 36, 1, None, "virtual channel (rewritten by every router)"),
        ("rmode", 37, 1, "net_rmode_e", "routing mode"),
        ("plen", 38, 5, None, "payload flits after the header (0..31)"),
        ("route", 43, 21, None, "source route: 7 hops x 3 bit, hop 0 in bits 2:0 (table mode: 0)"),
        ("cmd", 64, 64, None, "type-specific command word"),
    ]),
    ("net_cmd_rra_t", "NET_CMD_RRA", 64, "cmd of RRA_RD/RRA_WR (register address) and RRA_RSP (host address for the answer)", [
        ("addr", 0, 48, None, "register byte address (requests) / host address of the answer (response, below 2^48)"),
        ("seq", 48, 16, None, "requester's sequence number (rra.req.seq), echoed in RRA_RSP"),
    ]),
    ("net_cmd_tlp_t", "NET_CMD_TLP", 64, "cmd of TLP_RAW", [
        ("seq", 0, 16, None, "software sequence number; extract: seq of the last inject the target received"),
        ("dir", 16, 1, "net_tlp_dir_e", "inject / extracted"),
        ("ndw", 17, 2, None, "TLP payload dwords carried in flit 2 (0-2)"),
        ("rec", 20, 44, None, "extract: bits 47:4 of the host address of the completion record (backdoor rx_fwd_addr); inject: 0"),
    ]),
    ("net_cmd_smfu_t", "NET_CMD_SMFU", 64, "cmd of SMFU_RD/SMFU_WR", [
        ("off_dw", 0, 36, None, "dword offset inside the interval (up to 256 GiB)"),
        ("ivl", 36, 6, None, "interval id 0..15; 32..63 = pass-through: target byte address = {ivl[4:0], off_dw, 2'b00} (43 bit, 8 TiB)"),
        ("fbe", 42, 4, None, "first dword byte enables"),
        ("lbe", 46, 4, None, "last dword byte enables"),
        ("len_m1", 50, 6, None, "length in dwords minus 1 (1..64 dwords)"),
        ("tag", 56, 8, None, "read tag (SMFU_RD), 0 for writes"),
    ]),
    ("net_cmd_cpl_t", "NET_CMD_CPL", 64, "cmd of SMFU_CPL", [
        ("tag", 0, 8, None, "tag of the read"),
        ("status", 8, 3, None, "PCIe completion status (0 SC, 1 UR, 2 CRS, 4 CA)"),
        ("last", 11, 1, None, "last completion for this tag"),
        ("len_m1", 12, 6, None, "payload dwords minus 1"),
        ("lower_addr", 18, 7, None, "PCIe lower address"),
        ("byte_count", 25, 13, None, "PCIe remaining byte count"),
        ("ep", 38, 1, None, "poisoned: the completion's data is bad (PCIe EP, Base Spec. 2.7.2); re-issued with EP = 1"),
    ]),
    ("net_cmd_intr_t", "NET_CMD_INTR", 64, "cmd of INTR", [
        ("data", 0, 32, None, "MSI data as written by the device"),
        ("req_id", 32, 16, None, "PCIe requester id of the writer"),
    ]),
    ("net_rra_pl_t", "NET_RRA_PL", 128, "payload flit of every RRA packet (plen = 1)", [
        ("data", 0, 64, None, "write data (RRA_WR), read data (RRA_RSP), 0 (RRA_RD)"),
        ("aux", 64, 64, None, "requests: host address for the answer (0: no answer to writes); RRA_RSP: net_rsp_aux_t"),
    ]),
    ("net_rsp_aux_t", "NET_RSP_AUX", 64, "aux word of RRA_RSP", [
        ("addr", 0, 56, None, "register address of the request (bits 55:0)"),
        ("status", 56, 8, "net_rsp_status_e", "status"),
    ]),
    ("net_intr_pl_t", "NET_INTR_PL", 128, "payload flit of INTR (plen = 1)", [
        ("addr", 0, 64, None, "MSI address as written by the device"),
    ]),
    ("net_tbl_entry_t", "NET_TBL", 6, "routing table entry", [
        ("port", 0, 3, "net_port_e", "output port code"),
        ("vcrule", 3, 2, "net_vcrule_e", "VC rule"),
        ("valid", 5, 1, None, "entry written; invalid entries drop the packet (counted)"),
    ]),
]

# Records the NIC writes into host memory with one 16-byte MWr: two little-endian
# qwords, qword 0 = bits 63:0.  Read by the kernel (kernel/extoll/rra.c, notify.c),
# the testbenches and the co-simulation.
# Enums: (sv type name, sv prefix, C prefix, width, [(name, value, comment)])
REC_ENUMS = [
    ("cmp_status_e", "CMP", "EXTOLL_CMP", 8, [
        ("OK", 0, "done (RRA_RSP with status OK, or an extracted successful completion)"),
        ("REG_ERR", 1, "remote register error (RRA_RSP with status ERR)"),
        ("CPL_ERR", 2, "extracted completion with a status other than SC (see cpl)"),
    ]),
]
# (sv struct, C prefix, C struct, description, [(field, lsb, width, type, comment)])
RECORDS = [
    ("cmp_rec_t", "EXTOLL_CMP", "extoll_cmp_rec",
     "RRA completion record (docs/remote-access.md), written by nic_host_wr for every "
     "RRA_RSP and extracted TLP_RAW", [
        ("data", 0, 64, None, "read data (RRA_RSP) / payload dwords 0-1 of an extracted completion (0 if none)"),
        ("seq", 64, 16, None, "sequence number of the request (net_cmd_rra_t.seq / net_cmd_tlp_t.seq)"),
        ("status", 80, 8, "cmp_status_e", "record status"),
        ("cpl", 88, 3, None, "PCIe completion status of an extracted completion (0 for RRA_RSP)"),
        ("node", 96, 16, None, "node that answered (packet src)"),
        ("valid", 127, 1, None, "1: written by the NIC (software clears the record before a request)"),
    ]),
    ("nq_ent_t", "EXTOLL_NOTIFY_ENT", "extoll_notify_ent",
     "notification-queue entry (docs/smfu.md), written by smfu_in for a write into "
     "the notification window", [
        ("data", 0, 32, None, "first dword written (MSI data)"),
        ("offset", 32, 32, None, "byte offset of the write in the notification window"),
        ("node", 64, 16, None, "source node of the write"),
        ("phase", 127, 1, None, "1 on the first pass through the ring, toggles every wrap"),
    ]),
]
ENUM_W.update({e[0]: e[3] for e in REC_ENUMS})

HEADER = "SPDX-License-Identifier: Apache-2.0"
GEN = "Generated by hw/gen/gen_net.py from its tables: do not edit; run `make gen`."


def full_fields(width, fields):
    """Fields plus reserved gaps, ascending lsb."""
    out, pos, n = [], 0, 0
    for f in sorted(fields, key=lambda f: f[1]):
        name, lsb, w, typ, com = f
        assert lsb >= pos, (name, lsb, pos)
        if lsb > pos:
            out.append((f"rsvd{n}", pos, lsb - pos, None, "reserved, 0")); n += 1
        if typ:
            assert ENUM_W[typ] == w, name
        out.append(f)
        pos = lsb + w
    assert pos <= width
    if pos < width:
        out.append((f"rsvd{n}", pos, width - pos, None, "reserved, 0"))
    return out


def gen_sv():
    L = [f"// {HEADER}", f"// {GEN}", "//",
         "// Network packet format (docs/packets.md): widths, enums, packed structs,",
         "// and the CRC-32C of a 128-bit flit used by link_tx/link_rx.",
         "", "package net_pkg;", "",
         "  // Not every user needs every constant.",
         "  /* verilator lint_off UNUSEDPARAM */"]
    L += [f"  localparam int FLIT_W = {FLIT_W};  // flit (datapath) width",
          f"  localparam int NVC    = {NVC};    // virtual channels per link",
          f"  localparam int NODE_W = {NODE_W};   // node id width",
          f"  localparam int HOP_W  = {HOP_W};    // one source-route hop",
          f"  localparam int NHOPS  = {NHOPS};    // hops in the header",
          f"  localparam int PLEN_W = {PLEN_W};    // payload length field (flits)",
          "  localparam int NLINK  = 7;    // torus links + spare",
          "  localparam logic [31:0] CRC32C_POLY = 32'h82F63B78;  // reflected Castagnoli",
          "  localparam logic [31:0] CRC32C_INIT = 32'hFFFFFFFF;", ""]
    for name, cpre, w, vals in ENUMS:
        L.append(f"  typedef enum logic [{w-1}:0] {{")
        items = [f"    {cpre}_{v} = {w}'d{n}" for v, n, c in vals]
        for i, (it, (v, n, c)) in enumerate(zip(items, vals)):
            L.append(f"{it}{',' if i < len(items)-1 else ''}  // {c}")
        L.append(f"  }} {name};")
        L.append("")
    for name, cpre, width, desc, fields in LAYOUTS:
        L.append(f"  // {desc} ({width} bit)")
        L.append("  typedef struct packed {")
        for fname, lsb, w, typ, com in reversed(full_fields(width, fields)):
            t = typ if typ else ("logic" if w == 1 else f"logic [{w-1}:0]")
            L.append(f"    {t:<18} {fname};  // [{lsb+w-1}:{lsb}] {com}")
        L.append(f"  }} {name};")
        L.append("")
    L += ["  // ----------------------------------------------------------------------",
          "  // Records written into host memory (16 bytes: bits 63:0 = qword 0)",
          "  // ----------------------------------------------------------------------", ""]
    for name, pre, cpre, w, vals in REC_ENUMS:
        L.append(f"  typedef enum logic [{w-1}:0] {{")
        for i, (v, n, c) in enumerate(vals):
            L.append(f"    {pre}_{v} = {w}'d{n}{',' if i < len(vals)-1 else ''}  // {c}")
        L.append(f"  }} {name};")
        L.append("")
    for name, cpre, cname, desc, fields in RECORDS:
        L.append(f"  // {desc} (128 bit)")
        L.append("  typedef struct packed {")
        for fname, lsb, w, typ, com in reversed(full_fields(128, fields)):
            t = typ if typ else ("logic" if w == 1 else f"logic [{w-1}:0]")
            L.append(f"    {t:<18} {fname};  // [{lsb+w-1}:{lsb}] {com}")
        L.append(f"  }} {name};")
        L.append("")
    L += ["  // CRC-32C (Castagnoli, reflected, as in iSCSI/ext4) of one 128-bit flit:",
          "  // bytes in order 0..15, byte i = flit[8i+7:8i], each byte LSB first.",
          "  // The packet CRC is ~(fold of all flits starting from CRC32C_INIT), which equals",
          "  // the standard crc32c() of the packet's bytes.",
          "  //",
          "  // The fold is linear in {d, crc_in}: output bit j = XOR of the input bits selected",
          "  // by row j of CRC32C_FLIT_M, computed at elaboration time by running the bit-serial",
          "  // LFSR (c = (c >> 1) ^ ((c[0] ^ d[i]) ? POLY : 0), i = 0..127) on masks. Same",
          "  // function as the bit-serial loop, same XOR trees in synthesis, but a Verilated",
          "  // model evaluates it with 32-bit word operations (5 ANDs + parity per bit) instead",
          "  // of 128 dependent steps on a wide word.",
          "  localparam int CRC_XW = 32 + FLIT_W;  // {d, crc_in}",
          "",
          "  // Row j (= output bit j) at bits [j*CRC_XW +: CRC_XW] (flat: every tool reads it alike).",
          "  function automatic logic [32*CRC_XW-1:0] crc32c_flit_matrix();",
          "    logic [32*CRC_XW-1:0] s;  // row j: which input bits LFSR bit j depends on",
          "    logic [CRC_XW-1:0]    fb;",
          "    s = '0;",
          "    for (int j = 0; j < 32; j++) s[j*CRC_XW + j] = 1'b1;",
          "    for (int i = 0; i < FLIT_W; i++) begin",
          "      fb = s[0 +: CRC_XW];",
          "      fb[32 + i] = ~fb[32 + i];",
          "      for (int j = 0; j < 31; j++) s[j*CRC_XW +: CRC_XW] = s[(j+1)*CRC_XW +: CRC_XW] ^ (CRC32C_POLY[j] ? fb : '0);",
          "      s[31*CRC_XW +: CRC_XW] = CRC32C_POLY[31] ? fb : '0;",
          "    end",
          "    crc32c_flit_matrix = s;",
          "  endfunction",
          "",
          "  localparam logic [32*CRC_XW-1:0] CRC32C_FLIT_M = crc32c_flit_matrix();",
          "",
          "  function automatic logic [31:0] crc32c_flit(input logic [31:0] crc_in,",
          "                                              input logic [FLIT_W-1:0] d);",
          "    logic [CRC_XW-1:0] x;",
          "    logic [31:0]       t;",
          "    x = {d, crc_in};",
          "    for (int j = 0; j < 32; j++) begin",
          "      t = '0;",
          "      for (int w = 0; w < CRC_XW / 32; w++) t = t ^ (x[32*w +: 32] & CRC32C_FLIT_M[j*CRC_XW + 32*w +: 32]);",
          "      crc32c_flit[j] = ^t;",
          "    end",
          "  endfunction",
          "", "  /* verilator lint_on UNUSEDPARAM */", "", "endpackage", ""]
    return "\n".join(L)


def c_int(w):
    return "uint64_t"


def gen_c():
    L = [f"/* {HEADER} */", f"/* {GEN} */",
         "/*",
         " * Network packet format (docs/packets.md) for software: the co-simulation,",
         " * testbenches and pcap writers.  A flit is 128 bits held as two little-endian",
         " * 64-bit words: w[0] = bits 63:0, w[1] = bits 127:64; in memory (and on a",
         " * capture) byte i of a flit is bits 8i+7:8i.",
         " */",
         "#ifndef SIM_LIB_NET_PACKET_H", "#define SIM_LIB_NET_PACKET_H", "",
         "#include <stddef.h>", "#include <stdint.h>", "",
         "#ifdef __cplusplus", 'extern "C" {', "#endif", "",
         f"#define NET_FLIT_BYTES {FLIT_W // 8}", f"#define NET_NVC {NVC}",
         f"#define NET_NODE_W {NODE_W}", f"#define NET_HOP_W {HOP_W}", f"#define NET_NHOPS {NHOPS}",
         f"#define NET_PLEN_W {PLEN_W}", "#define NET_NLINK 7",
         "#define NET_CRC32C_POLY 0x82F63B78u", "#define NET_CRC32C_INIT 0xFFFFFFFFu", "",
         "struct net_flit { uint64_t w[2]; };", ""]
    for name, cpre, w, vals in ENUMS:
        L.append(f"enum {name[:-2]} {{")
        for v, n, c in vals:
            L.append(f"\t{cpre}_{v} = {n}, /* {c} */")
        L.append("};")
        L.append("")
    L += ["static inline uint64_t net_bits_get(const uint64_t *w, unsigned lsb, unsigned width)",
          "{",
          "\tuint64_t v = w[lsb / 64] >> (lsb % 64);",
          "\treturn width == 64 ? v : v & ((1ull << width) - 1);",
          "}", "",
          "static inline void net_bits_set(uint64_t *w, unsigned lsb, unsigned width, uint64_t v)",
          "{",
          "\tuint64_t m = width == 64 ? ~0ull : ((1ull << width) - 1);",
          "\tw[lsb / 64] = (w[lsb / 64] & ~(m << (lsb % 64))) | ((v & m) << (lsb % 64));",
          "}", ""]
    for name, cpre, width, desc, fields in LAYOUTS:
        base = name[:-2]
        L.append(f"/* {desc} ({width} bit) */")
        for fname, lsb, w, typ, com in fields:
            assert lsb // 64 == (lsb + w - 1) // 64, "field crosses a 64-bit word"
            F = fname.upper()
            L.append(f"#define {cpre}_{F}_LSB {lsb}")
            L.append(f"#define {cpre}_{F}_WIDTH {w}")
        for fname, lsb, w, typ, com in fields:
            F = fname.upper()
            L.append(f"static inline uint64_t {base}_get_{fname}(const uint64_t *w) "
                     f"{{ return net_bits_get(w, {cpre}_{F}_LSB, {cpre}_{F}_WIDTH); }} /* {com} */")
            L.append(f"static inline void {base}_set_{fname}(uint64_t *w, uint64_t v) "
                     f"{{ net_bits_set(w, {cpre}_{F}_LSB, {cpre}_{F}_WIDTH, v); }}")
        L.append("")
    L += ["/* CRC-32C of a packet (n flits), equal to the value link_tx sends with the last flit. */",
          "static inline uint32_t net_crc32c(const struct net_flit *f, size_t n)",
          "{",
          "\tuint32_t c = NET_CRC32C_INIT;",
          "\tfor (size_t i = 0; i < n; i++)",
          "\t\tfor (unsigned b = 0; b < 128; b++) {",
          "\t\t\tunsigned bit = (unsigned)(f[i].w[b / 64] >> (b % 64)) & 1u;",
          "\t\t\tc = (c >> 1) ^ (((c ^ bit) & 1u) ? NET_CRC32C_POLY : 0u);",
          "\t\t}",
          "\treturn ~c;",
          "}", "",
          "/* Reverse of a source route recorded by the routers (docs/packets.md): the",
          " * route field of a delivered source-routed packet, group-reversed, routes back. */",
          "static inline uint64_t net_route_reverse(uint64_t route)",
          "{",
          "\tuint64_t r = 0;",
          "\tfor (unsigned i = 0; i < NET_NHOPS; i++)",
          "\t\tr |= ((route >> (NET_HOP_W * i)) & 7u) << (NET_HOP_W * (NET_NHOPS - 1 - i));",
          "\treturn r;",
          "}", "",
          "#ifdef __cplusplus", "}", "#endif", "", "#endif /* SIM_LIB_NET_PACKET_H */", ""]
    return "\n".join(L)


def gen_rec():
    """Kernel-safe C header of the host-memory records: macros only, plus the
    record structs with a little-endian qword type from either world."""
    L = ["/* SPDX-License-Identifier: (GPL-2.0 OR Apache-2.0) */", f"/* {GEN} */",
         "/*",
         " * Records the NIC writes into host memory with one 16-byte memory write, for",
         " * the kernel driver, userspace, testbenches and the co-simulation: the RRA",
         " * completion record (docs/remote-access.md) and the notification-queue entry",
         " * (docs/smfu.md). A record is two little-endian qwords qw[0], qw[1]; for field",
         " * F, F_QW is its qword, F_SHIFT/F_WIDTH/F_MASK its place inside that qword",
         " * (F_MASK suits the kernel's FIELD_GET; EXTOLL_REC_GET works everywhere).",
         " * The RTL takes the same layouts from rtl/gen/net_pkg.sv (cmp_rec_t, nq_ent_t).",
         " */",
         "#ifndef EXTOLL_RECORDS_H", "#define EXTOLL_RECORDS_H", "",
         "#ifdef __KERNEL__", "#include <linux/types.h>",
         "typedef __le64 extoll_rec_qw_t;", "#else", "#include <stdint.h>",
         "typedef uint64_t extoll_rec_qw_t; /* little-endian hosts */", "#endif", "",
         "#define EXTOLL_REC_BYTES 16", "",
         "/* Value of field F (e.g. EXTOLL_CMP_SEQ) in qword q (CPU byte order). */",
         "#define EXTOLL_REC_GET(F, q) (((q) & F##_MASK) >> F##_SHIFT)", ""]
    for name, pre, cpre, w, vals in REC_ENUMS:
        for v, n, c in vals:
            L.append(f"#define {cpre}_{v} {n} /* {c} */")
        L.append("")
    for name, cpre, cname, desc, fields in RECORDS:
        L.append(f"/* {desc} */")
        L.append(f"struct {cname} {{")
        L.append("\textoll_rec_qw_t qw[2];")
        L.append("};")
        for fname, lsb, w, typ, com in fields:
            assert lsb // 64 == (lsb + w - 1) // 64, "field crosses a qword"
            F = f"{cpre}_{fname.upper()}"
            L.append(f"/* {fname}: {com} */")
            L.append(f"#define {F}_QW {lsb // 64}")
            L.append(f"#define {F}_SHIFT {lsb % 64}")
            L.append(f"#define {F}_WIDTH {w}")
            L.append(f"#define {F}_MASK 0x{((1 << w) - 1) << (lsb % 64):x}ULL")
        L.append("")
    L += ["#endif /* EXTOLL_RECORDS_H */", ""]
    return "\n".join(L)


def main():
    sv, c, rec = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(sv, "w") as f:
        f.write(gen_sv())
    with open(c, "w") as f:
        f.write(gen_c())
    with open(rec, "w") as f:
        f.write(gen_rec())


if __name__ == "__main__":
    main()
