#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# naaimg (docs/flash.md) without hardware: create images, show them (text and
# JSON), verify a good one, and for every kind of bad image (a mutation of a good
# one) the exact exit status and message; the generated Python module
# (userspace/python/flash_image.py) parses what the C tool wrote, recomputes
# both CRCs and reaches the same verdict.  Part of `make -C userspace check`.
#   NAAIMG=userspace/build/naaimg userspace/tests/naaimg.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
naaimg=${NAAIMG:-$here/../build/naaimg}
export PYTHONPATH=$here/../python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# expect NAME STATUS STDERR-REGEX -- naaimg ARGS...
expect() {
	local name=$1 want=$2 re=$3 rc
	shift 4
	"$naaimg" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		fail "$name: exit $rc, expected $want ($(head -c 300 "$tmp/err"))"
	elif [ -n "$re" ] && ! grep -qE "$re" "$tmp/err"; then
		fail "$name: stderr '$(head -c 300 "$tmp/err")' does not match /$re/"
	elif [ -z "$re" ] && [ -s "$tmp/err" ]; then
		fail "$name: unexpected stderr '$(head -c 300 "$tmp/err")'"
	else
		ok "$name (exit $rc)"
	fi
}

# pyverdict NAME IMAGE VERDICT [check() kwargs]: the Python module's verdict
pyverdict() {
	local got
	got=$(python3 -c "import sys, flash_image as f
print(f.check(open(sys.argv[1], 'rb').read()$4))" "$2") || { fail "$1: python"; return; }
	[ "$got" = "$3" ] && ok "$1: python verdict $got" || fail "$1: python verdict $got, expected $3"
}

# flip FILE OFFSET: xor one byte with 0x01
flip() { python3 -c "import sys
p, o = sys.argv[1], int(sys.argv[2], 0); d = bytearray(open(p, 'rb').read()); d[o] ^= 1
open(p, 'wb').write(d)" "$1" "$2"; }

# a "bitstream": 100000 pseudo-random bytes, the same on every run
python3 -c "import random, sys; r = random.Random(10)
sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(100000)))" >"$tmp/bit"

good=$tmp/good.img
expect "create update image" 0 "" -- create --board u250 --part mt25qu01g --role update \
	--version 1.2.3 --build 1a2b3c4d --date 20261125 -o "$good" "$tmp/bit"
expect "create sim image" 0 "" -- create --board sim --part mt25qu01g --role fallback \
	--version 0.1.7 --build deadbeef --sim -o "$tmp/sim.img"

# --- show: text and JSON --------------------------------------------------------
expect "show text" 0 "" -- show "$good"
for l in 'board +0x0250 \(u250\)' 'part +0x20BB21 \(mt25qu01g\)' 'role +update' \
	'version +1\.2\.3' 'build +1a2b3c4d date 20261125' 'payload +100000 bytes' "ok$"; do
	grep -qE "$l" "$tmp/out" && ok "show text: /$l/" || fail "show text: no /$l/ in $(cat "$tmp/out")"
done
expect "show json" 0 "" -- show -j "$good"
python3 - "$tmp/out" "$good" "$tmp/bit" <<'EOF' && ok "show json: fields, CRCs recomputed" || fail "show json"
import json, sys, zlib
j = json.load(open(sys.argv[1]))
img, bit = open(sys.argv[2], 'rb').read(), open(sys.argv[3], 'rb').read()
want = {"board": "u250", "board_id": 0x250, "part": "mt25qu01g", "part_id": 0x20BB21,
        "role": "update", "version": "1.2.3", "build": "1a2b3c4d", "date": "20261125",
        "payload_len": len(bit), "payload_crc": zlib.crc32(bit),
        "header_crc": zlib.crc32(img[:0x3C]), "file_size": len(img), "verdict": "ok", "status": 0}
bad = {k: (j.get(k), v) for k, v in want.items() if j.get(k) != v}
assert not bad, bad
EOF

# --- cross-check: the Python module parses what the C tool wrote ----------------
python3 - "$good" "$tmp/bit" "$tmp/sim.img" <<'EOF' && ok "python parses C images" || fail "python parse"
import struct, sys, zlib
import flash_image as f
img, bit, sim = (open(p, 'rb').read() for p in sys.argv[1:4])
h = f.parse(img)
assert h['magic'] == f.MAGIC and h['format'] == f.FORMAT and h['header_size'] == f.HEADER_SIZE, h
assert h['board_id'] == f.BOARDS['u250'] and h['part_id'] == f.PARTS['mt25qu01g'][0], h
assert h['role'] == f.ROLES['update'], h
assert h['version'] == (1 << 32 | 2 << 16 | 3), hex(h['version'])
assert h['build'] == (0x1a2b3c4d << 32 | 0x20261125), hex(h['build'])
assert h['payload_len'] == len(bit) and img[f.HEADER_SIZE:] == bit
assert h['payload_crc'] == zlib.crc32(bit), 'payload crc'
assert h['header_crc'] == zlib.crc32(img[:f.HEADER_CRC_LEN]), 'header crc'
assert h['reserved0'] == bytes(3) and h['reserved1'] == bytes(16)
assert f.check(img, board=0x250, part=0x20BB21) == 'ok'
# FIELDS (offsets, sizes) and HEADER_FMT agree, and cover the header
assert sum(n for _, _, n in f.FIELDS) == f.HEADER_SIZE == struct.calcsize(f.HEADER_FMT)
for name, off, n in f.FIELDS:
    raw = img[off:off + n]
    assert h[name] in (raw, int.from_bytes(raw, 'little')), (name, h[name], raw)
# the simulation payload: the words info.version and info.build report
s = f.parse(sim)
assert s['payload_len'] == 16, s
ver, build = struct.unpack_from('<QQ', sim, f.HEADER_SIZE)
assert (ver, build) == (s['version'], s['build']) == (1 << 16 | 7, 0xdeadbeef << 32), (ver, build)
assert f.check(sim) == 'ok'
EOF
expect "verify good" 0 "" -- verify --board u250 --part mt25qu01g "$good"
expect "verify good (numbers)" 0 "" -- verify --board 0x250 --part 0x20BB21 "$good"
expect "verify sim" 0 "" -- verify --board sim "$tmp/sim.img"

# --- bad images: each a mutation of the good one ---------------------------------
# bad NAME MUTATION STATUS VERDICT MESSAGE-REGEX [verify args] [python kwargs]
bad() {
	local name=$1 mut=$2 st=$3 verdict=$4 re=$5 args=${6:-} kw=${7:-}
	cp "$good" "$tmp/bad.img"
	eval "$mut" || fail "$name: mutation failed"
	# shellcheck disable=SC2086
	expect "$name" "$st" "$re" -- verify $args "$tmp/bad.img"
	# shellcheck disable=SC2086
	"$naaimg" verify -j $args "$tmp/bad.img" >"$tmp/j" 2>/dev/null
	python3 -c "import json, sys; j = json.load(open(sys.argv[1]))
assert j['verdict'] == sys.argv[2] and j['status'] == int(sys.argv[3]), j" \
		"$tmp/j" "$verdict" "$st" && ok "$name: JSON verdict $verdict" ||
		fail "$name: JSON $(cat "$tmp/j")"
	pyverdict "$name" "$tmp/bad.img" "$verdict" "$kw"
}
img=$tmp/bad.img
bad "truncated payload" "truncate -s -1 $img" 10 truncated \
	'file shorter than its header or its payload length \(100063 bytes, header and payload need 100064\)'
bad "truncated header" "truncate -s 40 $img" 10 truncated \
	'file shorter than its header or its payload length \(40 bytes, a header has 64\)'
bad "trailing data" "printf x >>$img" 18 trailing 'file longer than header plus payload length'
bad "flipped payload byte" "flip $img 5000" 14 payload_crc 'payload CRC-32 mismatch \(computed 0x'
bad "flipped last payload byte" "flip $img 100063" 14 payload_crc 'payload CRC-32 mismatch'
bad "flipped header byte (version)" "flip $img 0x18" 13 header_crc 'header CRC-32 mismatch \(computed 0x'
bad "flipped header byte (reserved)" "flip $img 0x30" 13 header_crc 'header CRC-32 mismatch'
bad "flipped header CRC" "flip $img 0x3C" 13 header_crc 'header CRC-32 mismatch'
bad "wrong magic" "flip $img 0" 11 magic 'not a flash image \(wrong magic\) \(0x4641414F, expected 0x4641414E\)'
bad "unknown format version" "flip $img 5" 12 format 'unknown format version \(format 257 header size 64'
bad "wrong board" "" 15 board 'wrong board id \(image for board 0x0250, expected 0x0001\)' \
	"--board sim" ", board=0x0001"
bad "wrong part" "" 16 part 'wrong flash part id \(image for part 0x20BB21, expected 0x20BA21\)' \
	"--part 0x20BA21" ", part=0x20BA21"
bad "too large for --max-size" "" 17 too_large \
	'image larger than its flash slot \(100064 bytes, the slot holds 100063\)' \
	"--max-size 100063" ", max_size=100063"
expect "just fits --max-size" 0 "" -- verify --max-size 100064 "$good"

# too large for the part's slot (64 MiB): a sparse bitstream of 64 MiB
truncate -s $((64 << 20)) "$tmp/huge"
expect "create too large" 17 'image of 67108928 bytes larger than the slot \(67108864 bytes of mt25qu01g\)' \
	-- create --board u250 --part mt25qu01g --role update --version 1.0.0 --build 1 -o "$tmp/h.img" "$tmp/huge"
[ ! -e "$tmp/h.img" ] && ok "create too large: no output" || fail "create too large wrote $tmp/h.img"

# --- usage errors ------------------------------------------------------------------
expect "no command" 2 "usage:" --
expect "unknown command" 2 "unknown command 'frob'" -- frob
expect "create without --board" 2 "are required" -- create --part mt25qu01g --role update \
	--version 1.0.0 --build 1 -o "$tmp/x" "$tmp/bit"
expect "create bad role" 2 "unknown role 'golden'" -- create --board u250 --part mt25qu01g \
	--role golden --version 1.0.0 --build 1 -o "$tmp/x" "$tmp/bit"
expect "create bad version" 2 "bad version '1.2'" -- create --board u250 --part mt25qu01g \
	--role update --version 1.2 --build 1 -o "$tmp/x" "$tmp/bit"
expect "create bad build" 2 "bad build 'xyz'" -- create --board u250 --part mt25qu01g \
	--role update --version 1.2.3 --build xyz -o "$tmp/x" "$tmp/bit"
expect "create bad board" 2 "unknown board 'u999'" -- create --board u999 --part mt25qu01g \
	--role update --version 1.2.3 --build 1 -o "$tmp/x" "$tmp/bit"
expect "create bitstream and --sim" 2 "one BITSTREAM or --sim" -- create --board sim \
	--part mt25qu01g --role update --version 1.2.3 --build 1 --sim -o "$tmp/x" "$tmp/bit"
expect "create missing bitstream" 3 "nonexistent: No such file" -- create --board sim \
	--part mt25qu01g --role update --version 1.2.3 --build 1 -o "$tmp/x" "$tmp/nonexistent"
expect "verify missing file" 3 "nonexistent: No such file" -- verify "$tmp/nonexistent"
expect "verify two files" 2 "one IMAGE expected" -- verify "$good" "$good"

if [ $fails -ne 0 ]; then
	echo "FAIL naaimg ($fails)"
	exit 1
fi
echo "PASS naaimg"
