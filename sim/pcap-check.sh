#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Check a co-simulation capture (cosimd --pcap NET --pcap-tlp TLP) with tshark and
# the dissector tools/wireshark/extoll.lua (with its generated tables): every packet decodes, none is
# malformed or carries an expert error (the dissector checks lengths, types and
# recomputes every packet's link CRC-32C), the expected packet and TLP types
# appear, and a capture with one flipped payload bit is caught (CRC error).
#   sim/pcap-check.sh NET.pcap TLP.pcap
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
lua=$top/tools/wireshark/extoll.lua
net=$1 tlp=$2
ts() { tshark -n -X "lua_script:$lua" "$@" 2>/dev/null; }
rc=0
ok() { echo "pcap-check: ok: $*"; }
bad() { echo "pcap-check: FAIL: $*"; rc=1; }
command -v tshark >/dev/null || { echo "pcap-check: no tshark (make deps)"; exit 1; }

# One tshark pass per capture for every per-packet field the checks below need (tshark
# with the Lua dissector takes seconds per pass over the demo's captures), one more for
# malformed packets. Columns: 1 protocols, 2 expert severities, 3 extoll.hdr.ptype,
# 4 extoll.hdr.rmode, 5 extoll.route.hops, 6 extoll.tlp.kind (several values: comma-separated).
PI_ERROR=8388608   # epan/proto.h: expert severity "error" (0x00800000)
fields() {
	ts -r "$1" -T fields -e frame.protocols -e _ws.expert.severity -e extoll.hdr.ptype \
		-e extoll.hdr.rmode -e extoll.route.hops -e extoll.tlp.kind \
		-e extoll.smfu_ext.tc -e extoll.smfu_ext.attr
}
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
for f in "$net" "$tlp"; do
	[ -s "$f" ] || { bad "$f: missing or empty"; continue; }
	fl=$tmpd/$([ "$f" = "$net" ] && echo net || echo tlp)
	fields "$f" >"$fl"
	total=$(wc -l <"$fl")
	# 'extoll || extoll_tlp': a layer of that name; 'expert.severity == error': any of them
	proto=$(awk -F'\t' '{ n = split($1, p, ":"); for (i = 1; i <= n; i++)
		if (p[i] == "extoll" || p[i] == "extoll_tlp") { c++; break } } END { print c + 0 }' "$fl")
	experr=$(awk -F'\t' -v e=$PI_ERROR '{ n = split($2, s, ","); for (i = 1; i <= n; i++)
		if (s[i] == e) { c++; break } } END { print c + 0 }' "$fl")
	malformed=$(ts -r "$f" -Y _ws.malformed | wc -l)
	echo "pcap-check: $f: $(stat -c %s "$f") bytes, $total packets, $proto decoded, $malformed malformed, $experr expert errors"
	[ "$total" -gt 0 ] && [ "$proto" -eq "$total" ] && ok "$f: every packet decoded" || bad "$f: $proto of $total decoded"
	[ "$malformed" -eq 0 ] && [ "$experr" -eq 0 ] && ok "$f: no malformed packet, no expert error" ||
		bad "$f: $malformed malformed, $experr expert errors"
done
touch "$tmpd/net" "$tmpd/tlp"

types=$(cut -f3 "$tmpd/net" | sort -n | uniq -c)
echo "$types" | sed 's/^/pcap-check:   ptype /'
for t in 1 2 3 4; do   # RRA_RD RRA_WR RRA_RSP TLP_RAW
	echo "$types" | grep -qE "^ *[0-9]+ $t$" && ok "packet type $t present" || bad "packet type $t missing"
done
# source-routed RRA carry their hop list ('extoll.hdr.rmode == 1 && extoll.route.hops'),
# the tunnelled config its TLP header ('extoll.hdr.ptype == 4 && extoll.tlp.kind')
any_with() {   # any_with COL VALUE COL2: packets with VALUE among column COL and column COL2 set
	awk -F'\t' -v a="$1" -v v="$2" -v b="$3" '$b != "" { n = split($a, x, ",");
		for (i = 1; i <= n; i++) if (x[i] == v) { c++; break } } END { print c + 0 }' "$tmpd/net"
}
[ "$(any_with 4 1 5)" -gt 0 ] && ok "source routes decoded" || bad "no source route decoded"
[ "$(any_with 3 4 6)" -gt 0 ] && ok "TLP_RAW: TLP header decoded" || bad "TLP_RAW: no TLP header decoded"
# table-routed SMFU_RD/SMFU_WR carry the request's TC and attributes in the route field
smfu=$(awk -F'\t' '($3 == 5 || $3 == 6) && $4 != 1' "$tmpd/net" | wc -l)
if [ "$smfu" -gt 0 ]; then
	ext=$(awk -F'\t' '($3 == 5 || $3 == 6) && $4 != 1 && $7 != "" && $8 != ""' "$tmpd/net" | wc -l)
	[ "$ext" -eq "$smfu" ] && ok "SMFU_RD/WR: TC and attributes decoded ($ext packets)" ||
		bad "SMFU_RD/WR: TC and attributes decoded in $ext of $smfu packets"
fi
kinds=$(cut -f6 "$tmpd/tlp" | sort | uniq -c)
echo "$kinds" | sed 's/^/pcap-check:   TLP /'
for k in CfgRd0 MRd MWr CplD; do
	echo "$kinds" | grep -qE " $k$" && ok "TLP $k present" || bad "TLP $k missing"
done

# the CRC check can fail: flip a bit of the first packet's header flit
# (24-byte file header, 16-byte record header, 16-byte pseudo-header)
bent=$(mktemp --suffix=.pcap)
cp "$net" "$bent"
printf '\x5a' | dd of="$bent" bs=1 seek=$((24 + 16 + 16 + 2)) conv=notrunc status=none
crc=$(ts -r "$bent" -c 1 -Y 'extoll.crc.bad' | wc -l)
rm -f "$bent"
[ "$crc" -eq 1 ] && ok "a corrupted flit is reported (extoll.crc.bad)" || bad "a corrupted flit is not reported"
[ $rc -eq 0 ] && echo "pcap-check: passed" || echo "pcap-check: FAILED"
exit $rc
