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

for f in "$net" "$tlp"; do
	[ -s "$f" ] || { bad "$f: missing or empty"; continue; }
	total=$(ts -r "$f" | wc -l)
	proto=$(ts -r "$f" -Y 'extoll || extoll_tlp' | wc -l)
	malformed=$(ts -r "$f" -Y _ws.malformed | wc -l)
	experr=$(ts -r "$f" -Y '_ws.expert.severity == error' | wc -l)
	echo "pcap-check: $f: $(stat -c %s "$f") bytes, $total packets, $proto decoded, $malformed malformed, $experr expert errors"
	[ "$total" -gt 0 ] && [ "$proto" -eq "$total" ] && ok "$f: every packet decoded" || bad "$f: $proto of $total decoded"
	[ "$malformed" -eq 0 ] && [ "$experr" -eq 0 ] && ok "$f: no malformed packet, no expert error" ||
		bad "$f: $malformed malformed, $experr expert errors"
done

types=$(ts -r "$net" -T fields -e extoll.hdr.ptype | sort -n | uniq -c)
echo "$types" | sed 's/^/pcap-check:   ptype /'
for t in 1 2 3 4; do   # RRA_RD RRA_WR RRA_RSP TLP_RAW
	echo "$types" | grep -qE "^ *[0-9]+ $t$" && ok "packet type $t present" || bad "packet type $t missing"
done
# source-routed RRA carry their hop list, the tunnelled config its TLP header
[ "$(ts -r "$net" -Y 'extoll.hdr.rmode == 1 && extoll.route.hops' | wc -l)" -gt 0 ] && ok "source routes decoded" ||
	bad "no source route decoded"
[ "$(ts -r "$net" -Y 'extoll.hdr.ptype == 4 && extoll.tlp.kind' | wc -l)" -gt 0 ] && ok "TLP_RAW: TLP header decoded" ||
	bad "TLP_RAW: no TLP header decoded"
# table-routed SMFU_RD/SMFU_WR carry the request's TC and attributes in the route field
smfu=$(ts -r "$net" -Y 'extoll.hdr.rmode != 1 && (extoll.hdr.ptype == 5 || extoll.hdr.ptype == 6)' | wc -l)
if [ "$smfu" -gt 0 ]; then
	ext=$(ts -r "$net" -Y 'extoll.smfu_ext.tc && extoll.smfu_ext.attr' | wc -l)
	[ "$ext" -eq "$smfu" ] && ok "SMFU_RD/WR: TC and attributes decoded ($ext packets)" ||
		bad "SMFU_RD/WR: TC and attributes decoded in $ext of $smfu packets"
fi
kinds=$(ts -r "$tlp" -T fields -e extoll.tlp.kind | sort | uniq -c)
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
