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

The capture format of the co-simulation (cosimd --pcap, docs/cosim.md: link-layer
types and per-packet pseudo-headers, CAPTURE below) goes into net_packet.h as
well, and a fourth output is the tables of the Wireshark Lua dissector of the
packets and the captured TLPs (tools/wireshark/extoll_tables.lua, loaded by the
hand-written decoding logic tools/wireshark/extoll.lua):

    gen_net.py SV_OUT C_OUT REC_OUT LUA_OUT
"""
import sys

FLIT_W = 128
NCLS = 2          # message classes (docs/network.md "The protocol part")
NDL = 2           # dateline VCs per class
NVC = NCLS * NDL  # VCs per link: vc = {class, dateline VC}
VC_W = 2          # bits of a link VC number
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
        ("DENIED", 3, "write refused: the node is held by another node (own block)"),
    ]),
    ("net_tlp_dir_e", "NET_TLP_DIR", 1, [
        ("INJECT", 0, "TLP to be injected into the target NIC's PCIe hierarchy"),
        ("EXTRACT", 1, "TLP extracted by the target's backdoor RX filter, returned"),
    ]),
    ("net_lkind_e", "NET_LKIND", 2, [
        ("IDLE", 0, "idle symbol: data and framing 0, CRC = LINK_IDLE_CRC"),
        ("DATA", 1, "a flit of a packet"),
        ("CTL", 2, "a link control word (net_lctl_t) in the data field"),
    ]),
    ("net_lstate_e", "NET_LSTATE", 2, [
        ("DOWN", 0, "no partner: training for longer than DOWN_TIME (or never trained)"),
        ("TRAIN", 1, "training after reset: sending INIT words"),
        ("RETRAIN", 2, "training again after the link was up (errors, timeout, partner's INIT)"),
        ("UP", 3, "trained: packets, ACK/NAK and credits flow"),
    ]),
    ("net_lctl_e", "NET_LCTL", 4, [
        ("NONE", 0, "invalid / never sent"),
        ("ACK", 1, "cumulative ACK and credit counts (also the keep-alive)"),
        ("NAK", 2, "ACK up to ack, then resend everything after it"),
        ("INIT", 3, "training: ACK and credit counts, peer = the sender saw the partner's INIT, fresh/fack: partner reset handshake"),
    ]),
]
ENUM_W = {e[0]: e[2] for e in ENUMS}

# Bit layouts: struct name -> (total width, [(field, lsb, width, type, comment)])
# type is None (plain logic) or an enum name.  Gaps become reserved fields.
LAYOUTS = [
    ("net_lfrm_t", "NET_LFRM", 16, "link framing word of a symbol (m_phy_frm), covered by the symbol CRC", [
        ("kind", 0, 2, "net_lkind_e", "symbol kind"),
        ("first", 2, 1, None, "DATA: first flit of a packet"),
        ("last", 3, 1, None, "DATA: last flit of a packet"),
        ("vc", 4, 2, None, "DATA: virtual channel {class, dateline VC} (0..3)"),
        ("fidx", 6, 2, None, "DATA: index of the flit in its packet, mod 4 (a symbol lost or repeated inside a packet shows)"),
        ("seq", 8, 8, None, "DATA: link sequence number of the packet"),
    ]),
    ("net_lctl_t", "NET_LCTL", 128, "link control word: the data field of a CTL symbol", [
        ("ctype", 0, 4, "net_lctl_e", "control word type"),
        ("peer", 4, 1, None, "INIT: the sender has received an INIT from its partner"),
        ("fresh", 5, 1, None, "the sender's port has not been up since its reset (a new incarnation: sequence numbers, replay buffer and credits at their initial values)"),
        ("fack", 6, 1, None, "the sender saw its partner's fresh words and its own state towards the partner is initial (after a re-initialisation, its buffer behind the link empty)"),
        ("ack", 8, 8, None, "sequence number of the last packet received in order (cumulative)"),
        ("cred0", 16, 16, None, "VC0 credits granted so far: buffer depth + flits freed since reset, mod 2^16"),
        ("cred1", 32, 16, None, "VC1 credits granted so far, likewise"),
        ("cred2", 48, 16, None, "VC2 credits granted so far, likewise"),
        ("cred3", 64, 16, None, "VC3 credits granted so far, likewise"),
    ]),
    ("net_hdr_t", "NET_HDR", 128, "header flit (flit 0 of every packet)", [
        ("dst", 0, 16, None, "destination node id"),
        ("src", 16, 16, None, "source node id"),
        ("ptype", 32, 4, "net_type_e", "packet type"),
        ("vc", 36, 1, None, "dateline VC of the packet's class (rewritten by every router); the class itself is a function of ptype (CLASS_OF)"),
        ("rmode", 37, 1, "net_rmode_e", "routing mode"),
        ("plen", 38, 5, None, "payload flits after the header (0..31)"),
        ("route", 43, 21, None, "source route: 7 hops x 3 bit, hop 0 in bits 2:0 (table mode: not read or changed by the routers; SMFU_RD/SMFU_WR carry net_smfu_ext_t there, other types 0)"),
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
    ("net_smfu_ext_t", "NET_SMFU_EXT", 21, "SMFU_RD/SMFU_WR: the request's TLP attributes, in the header's route field (the packets are table routed: the routers neither read nor change it)", [
        ("tc", 0, 3, None, "Traffic Class of the request (PCIe Base Spec. 2.2.6.6), re-issued at the far side"),
        ("attr", 3, 3, None, "Attr[2:0] of the request: bit 0 No Snoop, bit 1 Relaxed Ordering, bit 2 ID-Based Ordering (2.2.6.4, 2.2.6.5); re-issued as far as the issuing side's Device Control enables allow"),
        ("wcnt", 6, 12, None, "SMFU_RD: SMFU_WR packets its sender (winj) sent to this destination before it, mod 4096; SMFU_WR: its own number among them (0, 1, ...); the receiver issues a read only after the write numbered wcnt - 1 (smfu_wr_stamp, smfu_net_if: the read must not pass them, docs/network.md)"),
        ("winj", 18, 1, None, "SMFU_RD: which sender of the source node stamped wcnt: 0 its SMFU (smfu_net_if), 1 its RMA unit (rma_port); SMFU_WR: the sender"),
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
        ("DENIED", 3, "remote register write refused: the node is held by another node (RRA_RSP with status DENIED)"),
    ]),
    ("rma_status_e", "RMA_ST", "EXTOLL_RMA_ST", 8, [
        ("OK", 0, "descriptor done: every byte written at the destination, flushed"),
        ("RD_ERR", 1, "a source read completed with UR/CA/poisoned data or timed out: no further writes of the descriptor"),
        ("BAD_DESC", 2, "descriptor refused (length 0, above 1 MiB or not a multiple of 4; address not 4-byte aligned, "
                        "above 2^43 or wrapping; notification address not 16-byte aligned): nothing sent to S or D"),
        ("WR_ERR", 3, "the flush read at the destination completed with UR/CA/poisoned data or timed out: "
                      "the destination refused the writes or is unreachable"),
    ]),
    ("rma_kind_e", "RMA_KIND", "EXTOLL_RMA_KIND", 1, [
        ("REQ", 0, "requester notification (written at the requester node R)"),
        ("CMP", 1, "completer notification (written at the destination node D)"),
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
    ("rma_noti_t", "EXTOLL_RMA_NOTI", "extoll_rma_noti",
     "RMA notification record (docs/rma.md), written by the RMA unit with one 16-byte "
     "SMFU_WR to the descriptor's requester- or completer-notification address; dword 0 "
     "alone identifies the event (a notification-queue entry keeps only dword 0)", [
        ("cookie", 0, 16, None, "cookie of the descriptor (rma.d_len.cookie)"),
        ("status", 16, 8, "rma_status_e", "outcome"),
        ("kind", 24, 1, "rma_kind_e", "requester or completer notification"),
        ("len", 32, 32, None, "length of the descriptor in bytes"),
        ("req_node", 64, 16, None, "requester node R (the node whose RMA unit ran the descriptor)"),
        ("src_node", 80, 16, None, "source node S"),
        ("dst_node", 96, 16, None, "destination node D"),
        ("valid", 127, 1, None, "1: written by the NIC (software clears the record before a request)"),
    ]),
]
ENUM_W.update({e[0]: e[3] for e in REC_ENUMS})

# Who writes where in the notification window (notify.win_base, 1 MiB by default;
# docs/smfu.md): the offset of a write becomes the entry's `offset`, which the
# host's driver dispatches on. (name, value, comment); C: EXTOLL_NQ_WIN_<name> in
# extoll_records.h, SV: net_pkg::NQ_WIN_<name>.
NQ_WIN = [
    ("SLOTS_END", 0x80000, "MSI/MSI-X slots of the nodes' devices: offsets below this (data = slot)"),
    ("RMA_OFF", 0x80000, "RMA notification records (rma_noti_t) from here ..."),
    ("RMA_END", 0xF0000, "... up to here (exclusive)"),
    ("INTX_OFF", 0xFFFF0, "naa_intx's INTx messages (window base + 1 MiB - 16)"),
    ("INTX_MSG", 0x80000000, "data bit 31 of an INTx message (data = INTX_MSG | pin << 1 | level)"),
]

# Which cmd layout and which payload-flit layout (flit 1) each packet type has,
# for the dissector; (field, layout) pairs decode a sub-word with another layout
# (RRA_RSP's aux word).  Types without a payload layout show their payload flits
# as data.
CMD_OF = {"RRA_RD": "net_cmd_rra_t", "RRA_WR": "net_cmd_rra_t", "RRA_RSP": "net_cmd_rra_t",
          "TLP_RAW": "net_cmd_tlp_t", "SMFU_RD": "net_cmd_smfu_t", "SMFU_WR": "net_cmd_smfu_t",
          "SMFU_CPL": "net_cmd_cpl_t", "INTR": "net_cmd_intr_t"}
PAYLOAD_OF = {"RRA_RD": "net_rra_pl_t", "RRA_WR": "net_rra_pl_t", "RRA_RSP": "net_rra_pl_t",
              "INTR": "net_intr_pl_t"}
SUBFIELD_OF = {("RRA_RSP", "aux"): "net_rsp_aux_t"}
# Message class of each packet type (docs/network.md "The protocol part"): 0
# REQUEST, may wait at its sink; 1 RESPONSE, always sunk.  TLP_RAW by its dir
# bit: inject a request, extract a response.  The class is chosen by the sending
# unit (its local-port VC) and kept by every router; generated as
# net_pkg::net_class() and net_packet.h net_class().
CLASS_OF = {"RRA_RD": 0, "RRA_WR": 0, "SMFU_RD": 0, "RRA_RSP": 1, "SMFU_WR": 1,
            "SMFU_CPL": 1, "INTR": 1, "TLP_RAW": None}
# TLP_RAW: flit 1 is the TLP header (beat 0 of the TLP stream, docs/tlp-interface.md)
TLP_HDR_FLIT_OF = {"TLP_RAW": 1}

# Capture (cosimd --pcap/--pcap-tlp, docs/cosim.md).  pcap link-layer types
# (LINKTYPE_USER0/1 = DLT_USER0/1, reserved for private use) and the
# little-endian pseudo-header in front of every captured packet:
# (name, byte offset, bytes, comment).
CAP_LINKTYPE_NET = 147   # LINKTYPE_USER0: network packets on the links
CAP_LINKTYPE_TLP = 148   # LINKTYPE_USER1: TLPs between a host and its NIC
CAP_VERSION = 1
CAP_NET = (16, [
    ("version", 0, 1, "pseudo-header version (1)"),
    ("vc", 1, 1, "VC the header flit travelled on"),
    ("link", 2, 2, "link number (cosimd -v lists the links in this order)"),
    ("src", 4, 2, "node that sent the packet on the link"),
    ("src_port", 6, 1, "its link port (net_port_e)"),
    ("dst_port", 7, 1, "link port of the receiving node"),
    ("dst", 8, 2, "node that received the packet"),
    ("nflits", 10, 2, "flits that follow (1 + plen)"),
    ("crc", 12, 4, "link CRC-32C sent with the last flit"),
])
CAP_TLP = (8, [
    ("version", 0, 1, "pseudo-header version (1)"),
    ("dir", 1, 1, "0 host to device (config/BAR access, completion), 1 device to host"),
    ("node", 2, 2, "node id of the host NIC"),
    ("hdr_dw", 4, 1, "TLP header dwords that follow (3 or 4; dword i as a little-endian uint32, PCIe bit numbering)"),
    ("rsvd", 5, 1, "0"),
    ("payload_dw", 6, 2, "payload dwords after the header (little-endian, host byte order)"),
])

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
          f"  localparam int NVC    = {NVC};    // virtual channels per link: {{class, dateline VC}}",
          f"  localparam int NCLS   = {NCLS};    // message classes: 0 request, 1 response",
          f"  localparam int VC_W   = {VC_W};    // bits of a link VC number",
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
    L.append("  // notification window offsets (NQ_WIN in gen_net.py, docs/smfu.md)")
    for n, v, c in NQ_WIN:
        L.append(f"  localparam logic [31:0] NQ_WIN_{n} = 32'h{v:08X};  // {c}")
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
          "",
          "  // CRC-32C of a link symbol (docs/network.md \"Link layer\"): the 128-bit data",
          "  // field, then the 16-bit framing word and 16 zero bits, bit-serially in that",
          "  // order; the symbol carries ~crc32c_sym(CRC32C_INIT, {16'b0, frm, data}).",
          "  localparam int SYM_W   = FLIT_W + 32;",
          "  localparam int CRC_SXW = 32 + SYM_W;  // {sym, crc_in}",
          "  function automatic logic [32*CRC_SXW-1:0] crc32c_sym_matrix();",
          "    logic [32*CRC_SXW-1:0] s;",
          "    logic [CRC_SXW-1:0]    fb;",
          "    s = '0;",
          "    for (int j = 0; j < 32; j++) s[j*CRC_SXW + j] = 1'b1;",
          "    for (int i = 0; i < SYM_W; i++) begin",
          "      fb = s[0 +: CRC_SXW];",
          "      fb[32 + i] = ~fb[32 + i];",
          "      for (int j = 0; j < 31; j++) s[j*CRC_SXW +: CRC_SXW] = s[(j+1)*CRC_SXW +: CRC_SXW] ^ (CRC32C_POLY[j] ? fb : '0);",
          "      s[31*CRC_SXW +: CRC_SXW] = CRC32C_POLY[31] ? fb : '0;",
          "    end",
          "    crc32c_sym_matrix = s;",
          "  endfunction",
          "",
          "  localparam logic [32*CRC_SXW-1:0] CRC32C_SYM_M = crc32c_sym_matrix();",
          "",
          "  function automatic logic [31:0] crc32c_sym(input logic [31:0] crc_in,",
          "                                             input logic [SYM_W-1:0] d);",
          "    logic [CRC_SXW-1:0] x;",
          "    logic [31:0]        t;",
          "    x = {d, crc_in};",
          "    for (int j = 0; j < 32; j++) begin",
          "      t = '0;",
          "      for (int w = 0; w < CRC_SXW / 32; w++) t = t ^ (x[32*w +: 32] & CRC32C_SYM_M[j*CRC_SXW + 32*w +: 32]);",
          "      crc32c_sym[j] = ^t;",
          "    end",
          "  endfunction",
          "",
          "  // The CRC of an idle symbol (all data and framing bits 0): a constant.",
          f"  localparam logic [31:0] LINK_IDLE_CRC = 32'h{link_idle_crc():08X};",
          ""] + class_sv() + ["  /* verilator lint_on UNUSEDPARAM */", "", "endpackage", ""]
    return "\n".join(L)


def class_sv():
    """SV function net_class(hdr): the message class of a header flit (CLASS_OF)."""
    types = dict((n, v) for n, v, c in ENUMS[0][3])
    lay = dict((l[0], l[4]) for l in LAYOUTS)
    cmd_lsb = [f for f in lay["net_hdr_t"] if f[0] == "cmd"][0][1]
    pt_lsb = [f for f in lay["net_hdr_t"] if f[0] == "ptype"][0][1]
    dir_bit = cmd_lsb + [f for f in lay["net_cmd_tlp_t"] if f[0] == "dir"][0][1]
    L = ["  // Message class of a packet (hw/gen/gen_net.py CLASS_OF; docs/network.md",
         "  // \"The protocol part\"): 0 request (may wait at its sink), 1 response",
         "  // (always sunk). TLP_RAW: by its dir bit (inject a request, extract a response).",
         "  /* verilator lint_off UNUSEDSIGNAL */  // only ptype and TLP_RAW's dir are read",
         "  function automatic logic net_class(input logic [FLIT_W-1:0] hdr);",
         f"    case (hdr[{pt_lsb + 3}:{pt_lsb}])"]
    for n, c in CLASS_OF.items():
        if c is None:
            L.append(f"      4'd{types[n]}: net_class = hdr[{dir_bit}];  // {n}: dir")
        else:
            L.append(f"      4'd{types[n]}: net_class = 1'b{c};  // {n}")
    L += ["      default: net_class = 1'b0;", "    endcase", "  endfunction",
          "  /* verilator lint_on UNUSEDSIGNAL */", ""]
    return L


def class_c():
    types = dict((n, v) for n, v, c in ENUMS[0][3])
    L = ["/* Message class of a packet (CLASS_OF in hw/gen/gen_net.py, docs/network.md):",
         " * NET_CLASS_REQ may wait at its sink, NET_CLASS_RSP is always sunk; the local-port",
         " * VC a unit sends it on. TLP_RAW: by its dir bit. */",
         "#define NET_CLASS_REQ 0", "#define NET_CLASS_RSP 1",
         "static inline unsigned net_class(const uint64_t *hdr)", "{",
         "\tswitch (net_hdr_get_ptype(hdr)) {"]
    for n, c in CLASS_OF.items():
        if c is None:
            L.append(f"\tcase {types[n]}: return (unsigned)net_cmd_tlp_get_dir(&hdr[1]); /* {n} */")
        else:
            L.append(f"\tcase {types[n]}: return {c}; /* {n} */")
    L += ["\tdefault: return 0;", "\t}", "}", ""]
    return L


def link_sym_crc(frm, data):
    """Symbol CRC (crc32c_sym): data bits 0..127, then frm bits 0..15, then 16 zeros."""
    c = 0xFFFFFFFF
    bits = [(data >> i) & 1 for i in range(FLIT_W)] + [(frm >> i) & 1 for i in range(32)]
    for b in bits:
        c = (c >> 1) ^ (0x82F63B78 if (c ^ b) & 1 else 0)
    return ~c & 0xFFFFFFFF


def link_idle_crc():
    return link_sym_crc(0, 0)


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
         f"#define NET_FLIT_BYTES {FLIT_W // 8}", f"#define NET_NVC {NVC}", f"#define NET_NCLS {NCLS}",
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
          "/* CRC of a link symbol (crc32c_sym in net_pkg): data bits 0..127, then the",
          " * framing word, then 16 zero bits. */",
          "static inline uint32_t net_link_sym_crc(uint32_t frm, const uint64_t *data)",
          "{",
          "\tuint32_t c = NET_CRC32C_INIT;",
          "\tfor (unsigned b = 0; b < 160; b++) {",
          "\t\tunsigned bit = b < 128 ? (unsigned)(data[b / 64] >> (b % 64)) & 1u : (frm >> (b - 128)) & 1u;",
          "\t\tc = (c >> 1) ^ (((c ^ bit) & 1u) ? NET_CRC32C_POLY : 0u);",
          "\t}",
          "\treturn ~c;",
          "}", "",
          f"#define NET_LINK_IDLE_CRC 0x{link_idle_crc():08X}u /* CRC of an idle symbol */", "",
          "/* Reverse of a source route recorded by the routers (docs/packets.md): the",
          " * route field of a delivered source-routed packet, group-reversed, routes back. */",
          "static inline uint64_t net_route_reverse(uint64_t route)",
          "{",
          "\tuint64_t r = 0;",
          "\tfor (unsigned i = 0; i < NET_NHOPS; i++)",
          "\t\tr |= ((route >> (NET_HOP_W * i)) & 7u) << (NET_HOP_W * (NET_NHOPS - 1 - i));",
          "\treturn r;",
          "}", "",
          ]
    L += class_c()
    L += ["/* Capture (cosimd --pcap, docs/cosim.md): pcap link-layer types and the",
          " * little-endian pseudo-header in front of every captured packet / TLP:",
          " * NET_CAP_<KIND>_<FIELD>_OFF and _SIZE (bytes). */",
          f"#define NET_CAP_LINKTYPE_NET {CAP_LINKTYPE_NET} /* LINKTYPE_USER0: packets on links */",
          f"#define NET_CAP_LINKTYPE_TLP {CAP_LINKTYPE_TLP} /* LINKTYPE_USER1: host TLPs */",
          f"#define NET_CAP_VERSION {CAP_VERSION}"]
    for kind, (size, fields) in (("NET", CAP_NET), ("TLP", CAP_TLP)):
        L.append(f"#define NET_CAP_{kind}_BYTES {size}")
        for fname, off, n, com in fields:
            L.append(f"#define NET_CAP_{kind}_{fname.upper()}_OFF {off} /* {com} */")
            L.append(f"#define NET_CAP_{kind}_{fname.upper()}_SIZE {n}")
    L += ["",
          "#ifdef __cplusplus", "}", "#endif", "", "#endif /* SIM_LIB_NET_PACKET_H */", ""]
    return "\n".join(L)


def gen_rec():
    """Kernel-safe C header of the host-memory records: macros only, plus the
    record structs with a little-endian qword type from either world."""
    L = ["/* SPDX-License-Identifier: (GPL-2.0 OR Apache-2.0) */", f"/* {GEN} */",
         "/*",
         " * Records the NIC writes into host memory with one 16-byte memory write, for",
         " * the kernel driver, userspace, testbenches and the co-simulation: the RRA",
         " * completion record (docs/remote-access.md), the notification-queue entry",
         " * (docs/smfu.md) and the RMA notification record (docs/rma.md). A record is",
         " * two little-endian qwords qw[0], qw[1]; for field",
         " * F, F_QW is its qword, F_SHIFT/F_WIDTH/F_MASK its place inside that qword",
         " * (F_MASK suits the kernel's FIELD_GET; EXTOLL_REC_GET works everywhere).",
         " * The RTL takes the same layouts from rtl/gen/net_pkg.sv (cmp_rec_t, nq_ent_t, rma_noti_t).",
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
    L.append("/* Notification window offsets: who writes where (docs/smfu.md). */")
    for n, v, c in NQ_WIN:
        L.append(f"#define EXTOLL_NQ_WIN_{n} 0x{v:x}u /* {c} */")
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


def lua_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gen_lua():
    """Tables of the Wireshark dissector: fields, value strings and per-type
    layouts from the tables above (the decoding logic: tools/wireshark/extoll.lua)."""
    layouts = {l[0]: l for l in LAYOUTS}
    L = [f"-- {HEADER}", f"-- {GEN}", "--",
         "-- The tables of the Wireshark dissector tools/wireshark/extoll.lua (its decoding",
         "-- logic; it loads this file): fields, value strings and per-type layouts of the",
         "-- EXTOLL packets (docs/packets.md) and of cosimd's capture pseudo-headers",
         "-- (docs/cosim.md). A function, so that loading this file alone does nothing.", "",
         "return function()", "local F = {}", ""]
    # value strings
    for name, cpre, w, vals in ENUMS:
        items = ", ".join(f"[{n}] = {lua_str(v)}" for v, n, c in vals)
        L.append(f"local vs_{name[:-2]} = {{ {items} }}")
    L.append('local vs_cap_tlp_dir = { [0] = "host->dev", [1] = "dev->host" }')
    L.append("")
    # pseudo-header fields
    for kind, (size, fields) in (("net", CAP_NET), ("tlp", CAP_TLP)):
        for fname, off, n, com in fields:
            vs = "vs_net_port" if fname.endswith("_port") else \
                "vs_cap_tlp_dir" if (kind, fname) == ("tlp", "dir") else "nil"
            base = "base.HEX" if fname in ("crc",) else "base.DEC"
            L.append(f'F["cap_{kind}.{fname}"] = ProtoField.uint{8 * n}("extoll{"" if kind == "net" else "_tlp"}'
                     f'.cap.{fname}", {lua_str(fname)}, {base}, {vs}, nil, {lua_str(com)})')
    L.append("")
    # layout fields: one ProtoField per (layout, field)
    for name, cpre, width, desc, fields in LAYOUTS:
        short = name[4:-2] if name.startswith("net_") else name[:-2]
        for fname, lsb, w, typ, com in fields:
            bits = 8 if w <= 8 else 16 if w <= 16 else 32 if w <= 32 else 64
            vs = f"vs_{typ[:-2]}" if typ else "nil"
            base = "base.DEC" if (typ or w <= 8 or fname in ("dst", "src", "plen", "seq", "len_m1", "tag")) \
                else "base.HEX"
            L.append(f'F["{name}.{fname}"] = ProtoField.uint{bits}("extoll.{short}.{fname}", '
                     f'{lua_str(fname)}, {base}, {vs}, nil, {lua_str(com)})')
    L.append("")
    # layouts: list of {field key, qword byte offset, shift, width, first byte, bytes}
    L.append("-- layouts: {field, qword byte offset, shift, width, first byte, bytes, enum}")
    L.append("local LAYOUT = {}")
    for name, cpre, width, desc, fields in LAYOUTS:
        L.append(f'LAYOUT["{name}"] = {{ desc = {lua_str(desc)},')
        for fname, lsb, w, typ, com in fields:
            fb, lb = lsb // 8, (lsb + w - 1) // 8
            L.append(f'  {{ "{name}.{fname}", {lsb // 64 * 8}, {lsb % 64}, {w}, {fb}, {lb - fb + 1} }},')
        L.append("}")
    L.append("")
    tmap = {v: n for v, n, c in ENUMS[0][3]}
    L.append("-- per packet type: cmd layout, payload layout (flit 1), sub-words, TLP header flit")
    L.append("local CMD_OF = { " + ", ".join(f'[{tmap[k]}] = "{v}"' for k, v in CMD_OF.items()) + " }")
    L.append("local PAYLOAD_OF = { " + ", ".join(f'[{tmap[k]}] = "{v}"' for k, v in PAYLOAD_OF.items()) + " }")
    L.append("local SUB_OF = { " + ", ".join(f'[{tmap[k]}] = {{ "{PAYLOAD_OF[k]}.{f}", "{v}" }}'
                                          for (k, f), v in SUBFIELD_OF.items()) + " }")
    L.append("local TLP_FLIT_OF = { " + ", ".join(f"[{tmap[k]}] = {v}" for k, v in TLP_HDR_FLIT_OF.items()) + " }")
    L.append("local CAP_NET = { " + ", ".join(f'{{ "cap_net.{f}", {o}, {n} }}' for f, o, n, c in CAP_NET[1]) + " }")
    L.append("local CAP_TLP = { " + ", ".join(f'{{ "cap_tlp.{f}", {o}, {n} }}' for f, o, n, c in CAP_TLP[1]) + " }")
    hdr = {f[0]: f for f in layouts["net_hdr_t"][4]}
    L += [f"local CAP_NET_BYTES, CAP_TLP_BYTES, CAP_VERSION = {CAP_NET[0]}, {CAP_TLP[0]}, {CAP_VERSION}",
          f"local FLIT_BYTES, NHOPS, HOP_W = {FLIT_W // 8}, {NHOPS}, {HOP_W}",
          f"local LINKTYPE_NET, LINKTYPE_TLP = {CAP_LINKTYPE_NET}, {CAP_LINKTYPE_TLP}",
          f"local CRC32C_POLY = 0x{0x82F63B78:08X}",
          f'local HDR_PTYPE, HDR_PLEN, HDR_ROUTE, HDR_RMODE = "net_hdr_t.ptype", "net_hdr_t.plen", '
          f'"net_hdr_t.route", "net_hdr_t.rmode"',
          f"local NET_RMODE_SOURCE = {dict((v, n) for v, n, c in ENUMS[1][3])['SOURCE']}",
          ""]
    names = [n.strip() for l in L if l.startswith("local ") and "=" in l
             for n in l[6:l.index("=")].split(",")]
    L.append("return { " + ", ".join(f"{n} = {n}" for n in names) + " }")
    L += ["end", ""]
    return "\n".join(L)


def main():
    sv, c, rec = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(sv, "w") as f:
        f.write(gen_sv())
    with open(c, "w") as f:
        f.write(gen_c())
    with open(rec, "w") as f:
        f.write(gen_rec())
    if len(sys.argv) > 4:
        with open(sys.argv[4], "w") as f:
            f.write(gen_lua())


if __name__ == "__main__":
    main()
