-- SPDX-License-Identifier: Apache-2.0
--
-- Wireshark/tshark dissector for the EXTOLL network packets (docs/packets.md) and the
-- co-simulation's TLP capture, as cosimd --pcap / --pcap-tlp write them (docs/cosim.md):
-- link-layer type 147 (LINKTYPE_USER0) = packets on the links, 148 (LINKTYPE_USER1) = TLPs.
--   tshark -X lua_script:tools/wireshark/extoll.lua -r build/sim/demo.pcap -V
-- or copy this file and extoll_tables.lua into ~/.local/lib/wireshark/plugins/.
--
-- This file is the decoding logic: it knows no bit position. Fields, value
-- strings and per-type layouts come from extoll_tables.lua beside it, generated
-- by hw/gen/gen_net.py from the packet format's single source (`make gen`).

local p_net = Proto("extoll", "EXTOLL network packet")
local p_tlp = Proto("extoll_tlp", "EXTOLL co-simulation TLP")

-- extoll_tables.lua returns a function (so that loading it on its own, as a
-- plugin, does nothing) that builds the tables.
local here = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
local T = dofile(here .. "extoll_tables.lua")()
local F, LAYOUT, CMD_OF, PAYLOAD_OF, SUB_OF, TLP_FLIT_OF = T.F, T.LAYOUT, T.CMD_OF, T.PAYLOAD_OF, T.SUB_OF, T.TLP_FLIT_OF
local CAP_NET, CAP_TLP = T.CAP_NET, T.CAP_TLP
local CAP_NET_BYTES, CAP_TLP_BYTES, CAP_VERSION = T.CAP_NET_BYTES, T.CAP_TLP_BYTES, T.CAP_VERSION
local FLIT_BYTES, NHOPS, HOP_W = T.FLIT_BYTES, T.NHOPS, T.HOP_W
local LINKTYPE_NET, LINKTYPE_TLP, CRC32C_POLY = T.LINKTYPE_NET, T.LINKTYPE_TLP, T.CRC32C_POLY
local HDR_PTYPE, HDR_PLEN, HDR_ROUTE, HDR_RMODE = T.HDR_PTYPE, T.HDR_PLEN, T.HDR_ROUTE, T.HDR_RMODE
local NET_RMODE_SOURCE, vs_net_type, vs_net_port = T.NET_RMODE_SOURCE, T.vs_net_type, T.vs_net_port

local fields = {}
for k, f in pairs(F) do
	if k:sub(1, 8) ~= "cap_tlp." then fields[#fields + 1] = f end
end
F["data"] = ProtoField.bytes("extoll.data", "data flit")
F["route.hops"] = ProtoField.string("extoll.route.hops", "route hops")
F["crc.calc"] = ProtoField.uint32("extoll.crc.calc", "computed CRC-32C", base.HEX)
F["tlp.fmt"] = ProtoField.uint8("extoll.tlp.fmt", "Fmt", base.DEC)
F["tlp.type"] = ProtoField.uint8("extoll.tlp.type", "Type", base.HEX)
F["tlp.kind"] = ProtoField.string("extoll.tlp.kind", "TLP")
F["tlp.length"] = ProtoField.uint16("extoll.tlp.length", "Length (DW)", base.DEC)
F["tlp.requester"] = ProtoField.uint16("extoll.tlp.requester", "Requester ID", base.HEX)
F["tlp.completer"] = ProtoField.uint16("extoll.tlp.completer", "Completer ID", base.HEX)
F["tlp.tag"] = ProtoField.uint8("extoll.tlp.tag", "Tag", base.DEC)
F["tlp.first_be"] = ProtoField.uint8("extoll.tlp.first_be", "First BE", base.HEX)
F["tlp.last_be"] = ProtoField.uint8("extoll.tlp.last_be", "Last BE", base.HEX)
F["tlp.addr"] = ProtoField.uint64("extoll.tlp.addr", "Address", base.HEX)
F["tlp.target"] = ProtoField.uint16("extoll.tlp.target", "Target ID", base.HEX)
F["tlp.reg"] = ProtoField.uint16("extoll.tlp.reg", "Register", base.HEX)
F["tlp.status"] = ProtoField.uint8("extoll.tlp.status", "Completion status", base.DEC)
F["tlp.byte_count"] = ProtoField.uint16("extoll.tlp.byte_count", "Byte count", base.DEC)
F["tlp.lower_addr"] = ProtoField.uint8("extoll.tlp.lower_addr", "Lower address", base.HEX)
F["tlp.payload"] = ProtoField.bytes("extoll.tlp.payload", "Payload")
for _, k in ipairs({ "data", "route.hops", "crc.calc", "tlp.fmt", "tlp.type", "tlp.kind", "tlp.length",
		     "tlp.requester", "tlp.completer", "tlp.tag", "tlp.first_be", "tlp.last_be",
		     "tlp.addr", "tlp.target", "tlp.reg", "tlp.status", "tlp.byte_count",
		     "tlp.lower_addr", "tlp.payload" }) do
	fields[#fields + 1] = F[k]
end
p_net.fields = fields

local E_SHORT = ProtoExpert.new("extoll.short", "capture shorter than its pseudo-header says",
				expert.group.MALFORMED, expert.severity.ERROR)
local E_VERSION = ProtoExpert.new("extoll.version", "unknown pseudo-header version",
				  expert.group.MALFORMED, expert.severity.ERROR)
local E_PLEN = ProtoExpert.new("extoll.plen", "flit count differs from 1 + plen",
			       expert.group.MALFORMED, expert.severity.ERROR)
local E_PTYPE = ProtoExpert.new("extoll.ptype", "packet type never sent",
				expert.group.MALFORMED, expert.severity.ERROR)
local E_CRC = ProtoExpert.new("extoll.crc.bad", "link CRC differs from the CRC-32C of the flits",
			      expert.group.CHECKSUM, expert.severity.ERROR)
p_net.experts = { E_SHORT, E_VERSION, E_PLEN, E_PTYPE, E_CRC }

local band, bxor, rshift, bnot = bit32.band, bit32.bxor, bit32.rshift, bit32.bnot
local crc_tab = {}
for i = 0, 255 do
	local c = i
	for _ = 1, 8 do
		if band(c, 1) ~= 0 then c = bxor(rshift(c, 1), CRC32C_POLY) else c = rshift(c, 1) end
	end
	crc_tab[i] = c
end

local function crc32c(ba)
	local c = 0xFFFFFFFF
	for i = 0, ba:len() - 1 do
		c = bxor(crc_tab[band(bxor(c, ba:get_index(i)), 0xFF)], rshift(c, 8))
	end
	return bnot(c)
end

-- value of a layout entry in the flit at byte offset off, as UInt64
local function get(tvb, off, e)
	local v = tvb(off + e[2], 8):le_uint64():rshift(e[3])
	if e[4] < 64 then v = v:band(UInt64(1):lshift(e[4]) - 1) end
	return v
end

local function add(tree, tvb, off, e)
	local v = get(tvb, off, e)
	local r = tvb(off + e[5], e[6])
	if e[4] > 32 then tree:add(F[e[1]], r, v) else tree:add(F[e[1]], r, v:tonumber()) end
	return v
end

-- every field of a layout; sub = {field, layout}: decode that field's bits with another layout
local function add_layout(tree, tvb, off, name, sub)
	local lay = LAYOUT[name]
	local t = tree:add(p_net, tvb(off, FLIT_BYTES), lay.desc)
	local vals = {}
	for _, e in ipairs(lay) do
		if sub and e[1] == sub[1] then
			local st = t:add(F[e[1]], tvb(off + e[5], e[6]), get(tvb, off, e))
			for _, se in ipairs(LAYOUT[sub[2]]) do
				-- the sub-layout's bits start at the field's lsb (a whole qword here)
				local m = { se[1], se[2] + e[2], se[3], se[4], se[5] + e[5], se[6] }
				local v = get(tvb, off, m)
				local r = tvb(off + m[5], m[6])
				if m[4] > 32 then st:add(F[m[1]], r, v) else st:add(F[m[1]], r, v:tonumber()) end
			end
		else
			vals[e[1]] = add(t, tvb, off, e)
		end
	end
	return vals, t
end

local TLP_KIND = { [0x00] = "MRd", [0x20] = "MRd", [0x40] = "MWr", [0x60] = "MWr",
		   [0x04] = "CfgRd0", [0x44] = "CfgWr0", [0x05] = "CfgRd1", [0x45] = "CfgWr1",
		   [0x0A] = "Cpl", [0x4A] = "CplD" }

-- a TLP header: hdr_dw little-endian dwords at off (PCIe bit numbering)
local function add_tlp_hdr(tree, tvb, off, avail)
	local dw = {}
	for i = 0, 3 do
		dw[i] = (i * 4 + 4 <= avail) and tvb(off + 4 * i, 4):le_uint() or 0
	end
	local fmt_type = rshift(dw[0], 24)
	local fmt = rshift(fmt_type, 5)
	local kind = TLP_KIND[fmt_type] or string.format("type 0x%02x", fmt_type)
	local t = tree:add(p_tlp, tvb(off, math.min(avail, 16)), "TLP header: " .. kind)
	t:add(F["tlp.kind"], tvb(off + 3, 1), kind)
	t:add(F["tlp.fmt"], tvb(off + 3, 1), fmt)
	t:add(F["tlp.type"], tvb(off + 3, 1), band(fmt_type, 0x1F))
	local len = band(dw[0], 0x3FF)
	t:add(F["tlp.length"], tvb(off, 2), len)
	if kind == "Cpl" or kind == "CplD" then
		t:add(F["tlp.completer"], tvb(off + 6, 2), rshift(dw[1], 16))
		t:add(F["tlp.status"], tvb(off + 5, 1), band(rshift(dw[1], 13), 7))
		t:add(F["tlp.byte_count"], tvb(off + 4, 2), band(dw[1], 0xFFF))
		t:add(F["tlp.requester"], tvb(off + 10, 2), rshift(dw[2], 16))
		t:add(F["tlp.tag"], tvb(off + 9, 1), band(rshift(dw[2], 8), 0xFF))
		t:add(F["tlp.lower_addr"], tvb(off + 8, 1), band(dw[2], 0x7F))
	else
		t:add(F["tlp.requester"], tvb(off + 6, 2), rshift(dw[1], 16))
		t:add(F["tlp.tag"], tvb(off + 5, 1), band(rshift(dw[1], 8), 0xFF))
		t:add(F["tlp.last_be"], tvb(off + 4, 1), band(rshift(dw[1], 4), 0xF))
		t:add(F["tlp.first_be"], tvb(off + 4, 1), band(dw[1], 0xF))
		if kind:sub(1, 3) == "Cfg" then
			t:add(F["tlp.target"], tvb(off + 10, 2), rshift(dw[2], 16))
			t:add(F["tlp.reg"], tvb(off + 8, 2), band(dw[2], 0xFFC))
		elseif band(fmt, 1) == 1 then
			t:add(F["tlp.addr"], tvb(off + 8, 8), UInt64(band(dw[3], 0xFFFFFFFC), dw[2]))
		else
			t:add(F["tlp.addr"], tvb(off + 8, 4), UInt64(band(dw[2], 0xFFFFFFFC), 0))
		end
	end
	return kind, len, (band(fmt, 1) == 1) and 4 or 3
end

local function route_text(route, rmode)
	if rmode ~= NET_RMODE_SOURCE then return "(table routed)" end
	local hops = {}
	for i = 0, NHOPS - 1 do
		local h = route:rshift(HOP_W * i):band(7):tonumber()
		hops[#hops + 1] = vs_net_port[h] or tostring(h)
	end
	return table.concat(hops, ",")
end

local function hdr_entry(name)
	for _, e in ipairs(LAYOUT["net_hdr_t"]) do
		if e[1] == name then return e end
	end
end
local E_HDR_PTYPE, E_HDR_PLEN = hdr_entry(HDR_PTYPE), hdr_entry(HDR_PLEN)

-- a table-routed packet's route field decoded with another layout (its bits
-- counted from the field's lsb), e.g. the TLP attributes of SMFU_RD/SMFU_WR
local function add_route_ext(tree, tvb, off, name)
	local re = hdr_entry(HDR_ROUTE)
	local lay = LAYOUT[name]
	local st = tree:add(p_net, tvb(off + re[5], re[6]), lay.desc)
	for _, se in ipairs(lay) do
		local lsb = re[3] + se[3]
		local b0, b1 = math.floor(lsb / 8), math.floor((lsb + se[4] - 1) / 8)
		local m = { se[1], re[2], lsb, se[4], re[2] + b0, b1 - b0 + 1 }
		add(st, tvb, off, m)
	end
end

local function add_pseudo(tree, tvb, proto, list, len)
	local t = tree:add(proto, tvb(0, len), "capture pseudo-header")
	local v = {}
	for _, e in ipairs(list) do
		local r = tvb(e[2], e[3])
		v[e[1]] = r:le_uint()
		t:add_le(F[e[1]], r)
	end
	return v, t
end

function p_net.dissector(tvb, pinfo, tree)
	pinfo.cols.protocol = "EXTOLL"
	local root = tree:add(p_net, tvb(), "EXTOLL network packet")
	if tvb:len() < CAP_NET_BYTES then
		root:add_proto_expert_info(E_SHORT)
		return
	end
	local cap, ct = add_pseudo(root, tvb, p_net, CAP_NET, CAP_NET_BYTES)
	if cap["cap_net.version"] ~= CAP_VERSION then ct:add_proto_expert_info(E_VERSION) end
	local n = cap["cap_net.nflits"]
	if tvb:len() < CAP_NET_BYTES + n * FLIT_BYTES or n < 1 then
		root:add_proto_expert_info(E_SHORT)
		return
	end
	local off = CAP_NET_BYTES
	local h, ht = add_layout(root, tvb, off, "net_hdr_t")
	ht:set_text("header flit")
	local ptype = h[HDR_PTYPE]:tonumber()
	local plen = h[HDR_PLEN]:tonumber()
	local rmode = h[HDR_RMODE]:tonumber()
	ht:add(F["route.hops"], tvb(off + 5, 3), route_text(h[HDR_ROUTE], rmode))
	if rmode ~= NET_RMODE_SOURCE and (vs_net_type[ptype] == "SMFU_RD" or vs_net_type[ptype] == "SMFU_WR") then
		add_route_ext(ht, tvb, off, "net_smfu_ext_t")
	end
	if n ~= plen + 1 then root:add_proto_expert_info(E_PLEN) end
	if ptype == 0 or vs_net_type[ptype] == nil then root:add_proto_expert_info(E_PTYPE) end
	-- the cmd word, by type (bits 127:64 of the header flit: the layout's qword 0 is byte 8)
	local cmd = CMD_OF[ptype]
	if cmd then
		local cl = LAYOUT[cmd]
		local t = root:add(p_net, tvb(off + 8, 8), "cmd: " .. cl.desc)
		for _, e in ipairs(cl) do
			add(t, tvb, off + 8, e)
		end
	end
	-- payload flits
	for i = 1, n - 1 do
		local fo = off + i * FLIT_BYTES
		if i == 1 and PAYLOAD_OF[ptype] then
			add_layout(root, tvb, fo, PAYLOAD_OF[ptype], SUB_OF[ptype])
		elseif TLP_FLIT_OF[ptype] == i then
			add_tlp_hdr(root, tvb, fo, FLIT_BYTES)
		else
			root:add(F["data"], tvb(fo, FLIT_BYTES))
		end
	end
	-- the link CRC covers the flits as sent
	local calc = crc32c(tvb:bytes(off, n * FLIT_BYTES))
	local ci = root:add(F["crc.calc"], tvb(12, 4), calc)
	if calc ~= cap["cap_net.crc"] then ci:add_proto_expert_info(E_CRC) end
	local tname = vs_net_type[ptype] or tostring(ptype)
	pinfo.cols.src = tostring(h["net_hdr_t.src"]:tonumber())
	pinfo.cols.dst = tostring(h["net_hdr_t.dst"]:tonumber())
	pinfo.cols.info = string.format("%s %d->%d plen %d, link %d: node %d %s -> node %d %s vc %d",
		tname, h["net_hdr_t.src"]:tonumber(), h["net_hdr_t.dst"]:tonumber(), plen,
		cap["cap_net.link"], cap["cap_net.src"], vs_net_port[cap["cap_net.src_port"]] or "?",
		cap["cap_net.dst"], vs_net_port[cap["cap_net.dst_port"]] or "?", cap["cap_net.vc"])
	root:append_text(": " .. tname)
end

local tlp_fields = {}
for _, e in ipairs(CAP_TLP) do tlp_fields[#tlp_fields + 1] = F[e[1]] end
p_tlp.fields = tlp_fields
local E_TLP_SHORT = ProtoExpert.new("extoll_tlp.short", "capture shorter than its pseudo-header says",
				    expert.group.MALFORMED, expert.severity.ERROR)
local E_TLP_KIND = ProtoExpert.new("extoll_tlp.kind", "TLP type the co-simulation never sends",
				   expert.group.MALFORMED, expert.severity.ERROR)
p_tlp.experts = { E_TLP_SHORT, E_TLP_KIND }

function p_tlp.dissector(tvb, pinfo, tree)
	pinfo.cols.protocol = "EXTOLL-TLP"
	local root = tree:add(p_tlp, tvb(), "EXTOLL co-simulation TLP")
	if tvb:len() < CAP_TLP_BYTES then
		root:add_proto_expert_info(E_TLP_SHORT)
		return
	end
	local cap, ct = add_pseudo(root, tvb, p_tlp, CAP_TLP, CAP_TLP_BYTES)
	if cap["cap_tlp.version"] ~= CAP_VERSION then ct:add_proto_expert_info(E_VERSION) end
	local hdw, pdw = cap["cap_tlp.hdr_dw"], cap["cap_tlp.payload_dw"]
	if tvb:len() < CAP_TLP_BYTES + 4 * (hdw + pdw) or (hdw ~= 3 and hdw ~= 4) then
		root:add_proto_expert_info(E_TLP_SHORT)
		return
	end
	local kind, len = add_tlp_hdr(root, tvb, CAP_TLP_BYTES, 4 * hdw)
	if kind:sub(1, 4) == "type" then root:add_proto_expert_info(E_TLP_KIND) end
	if pdw > 0 then root:add(F["tlp.payload"], tvb(CAP_TLP_BYTES + 4 * hdw, 4 * pdw)) end
	local dir = cap["cap_tlp.dir"] == 0 and "host->dev" or "dev->host"
	pinfo.cols.info = string.format("%s %s len %d (node %d)", dir, kind, len, cap["cap_tlp.node"])
	root:append_text(": " .. dir .. " " .. kind)
end
local encap = DissectorTable.get("wtap_encap")
local wt = wtap_encaps or wtap
encap:add(wt.USER0, p_net)
encap:add(wt.USER1, p_tlp)
