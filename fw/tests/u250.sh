#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Test fw-u250: what can be checked of the Alveo U250 build without Vivado
# (fw/README.md "Board: Alveo U250"):
#   1. Verilator -Wall lint of the board top against the black-box stubs;
#   2. every input the Vivado build reads exists (fw/boards/u250/build.sh --check:
#      the sources of the unit lists, the headers they include, XDC, IP Tcl), and the
#      check fails when a listed source is missing or a stub is in the unit;
#   3. the XDC's ports are the top's ports and every port is placed
#      (fw/tools/check-xdc.py), and the check fails for a renamed or a missing port;
#   5. the crossings' constraints: every cell fw/boards/common/cdc.tcl names exists in
#      the RTL (fw/tools/check-cdc.py, and it fails for a renamed register or instance
#      or a synchroniser left out), the script runs in tclsh on a stub netlist
#      (fw/tests/cdc-stub.tcl), and the XDC has no set_clock_groups;
#   4. naaimg wraps a dummy bitstream into a u250 flash image (build.sh --package) that
#      verifies and carries the board, part, role, version, build and the payload bytes.
#   fw/tests/u250.sh          (from anywhere; products in build/fw/test-u250)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=$top/build/fw/test-u250
rm -rf "$out"
mkdir -p "$out"
fails=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# expect_rc NAME WANT CMD...: the command's exit status is WANT (0, or "nonzero")
expect_rc() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$out/last.log" 2>&1
	rc=$?
	if { [ "$want" = 0 ] && [ $rc = 0 ]; } || { [ "$want" = nonzero ] && [ $rc != 0 ]; }; then
		ok "$name (exit $rc)"
	else
		fail "$name: exit $rc, expected $want"; sed 's/^/    /' "$out/last.log" | tail -20
	fi
}

# --- 1. lint -----------------------------------------------------------------------
expect_rc "lint extoll_u250 (Verilator -Wall, black-box stubs)" 0 \
	make --no-print-directory -C rtl/vendor lint-extoll_u250

# --- 2. the build's inputs -----------------------------------------------------------
expect_rc "build.sh --check: every source, header, XDC and IP Tcl present" 0 \
	fw/boards/u250/build.sh --check --out "$out/check"
grep -q "^set SRCS .*/extoll_u250.sv}" "$out/check/sources.tcl" \
	&& ok "sources.tcl lists the top last" || fail "sources.tcl does not end its SRCS with the top"
if grep -q "boards/stubs" "$out/check/sources.tcl"; then fail "a stub is in sources.tcl"
else ok "no lint-only stub in sources.tcl"; fi
# mutations on a copy of rtl/: a listed source missing; a stub in the board's unit
cp -r rtl "$out/rtl-missing"
rm "$out/rtl-missing/vendor/nic_hip_cdc.sv"
expect_rc "build.sh --check fails for a missing source" nonzero \
	env RTL_DIR="$out/rtl-missing" fw/boards/u250/build.sh --check --out "$out/m1"
grep -q "nic_hip_cdc.sv.*\(does not exist\|missing\)\|missing input .*nic_hip_cdc.sv" "$out/last.log" \
	&& ok "... and names it" || fail "missing source not named: $(cat "$out/last.log")"
cp -r rtl "$out/rtl-stub"
echo "@vendor/boards/stubs" >>"$out/rtl-stub/vendor/boards/u250/u250.f"
expect_rc "build.sh --check fails for a stub in the unit" nonzero \
	env RTL_DIR="$out/rtl-stub" fw/boards/u250/build.sh --check --out "$out/m2"
grep -q "lint-only stub" "$out/last.log" && ok "... and says so" || fail "stub not reported: $(cat "$out/last.log")"

# --- 3. XDC against the top ----------------------------------------------------------
xdc=fw/boards/u250/u250.xdc
sv=rtl/vendor/boards/u250/extoll_u250.sv
expect_rc "check-xdc: XDC ports = top ports, all placed" 0 python3 fw/tools/check-xdc.py "$sv" "$xdc"
sed 's/get_ports qsfp1_intl\]/get_ports qsfp1_int\]/' "$xdc" >"$out/renamed.xdc"
expect_rc "check-xdc fails for a port the top does not have" nonzero \
	python3 fw/tools/check-xdc.py "$sv" "$out/renamed.xdc"
grep -v "pcie_rx_p\[2\]" "$xdc" >"$out/unplaced.xdc"
expect_rc "check-xdc fails for a port without a location" nonzero \
	python3 fw/tools/check-xdc.py "$sv" "$out/unplaced.xdc"
sed 's/{pcie_tx_p\[3\]}/{pcie_tx_p[4]}/' "$xdc" >"$out/range.xdc"
expect_rc "check-xdc fails for an index out of range" nonzero \
	python3 fw/tools/check-xdc.py "$sv" "$out/range.xdc"

# --- 5. the crossings' constraints (fw/boards/common/cdc.tcl) -----------------------
cdc=fw/boards/common/cdc.tcl
expect_rc "check-cdc: every cell cdc.tcl names is in the RTL" 0 python3 fw/tools/check-cdc.py "$cdc" rtl
sed 's/wgray_q_reg/wgray_reg/' "$cdc" >"$out/cdc-reg.tcl"
expect_rc "check-cdc fails for a register the RTL does not have" nonzero \
	python3 fw/tools/check-cdc.py "$out/cdc-reg.tcl" rtl
sed 's/u_rptr_sync/u_rsync/' "$cdc" >"$out/cdc-inst.tcl"
expect_rc "check-cdc fails for an instance the RTL does not have" nonzero \
	python3 fw/tools/check-cdc.py "$out/cdc-inst.tcl" rtl
sed '/cdc_cells sync_reset/,$d' "$cdc" >"$out/cdc-nors.tcl"
expect_rc "check-cdc fails when sync_reset is not constrained" nonzero \
	python3 fw/tools/check-cdc.py "$out/cdc-nors.tcl" rtl
tclsh fw/tests/cdc-stub.tcl "$cdc" >"$out/cdc-stub.log" 2>&1
if grep -q "^stub: 4 set_max_delay, 1 set_false_path$" "$out/cdc-stub.log"; then
	ok "cdc.tcl runs in tclsh on a stub netlist: 4 set_max_delay, 1 set_false_path"
else fail "cdc.tcl on the stub netlist: $(tail -5 "$out/cdc-stub.log")"; fi
if grep -v "^[[:space:]]*#" "$xdc" | grep -q "set_clock_groups"; then fail "$xdc has set_clock_groups (it would override cdc.tcl)"
else ok "no set_clock_groups in the XDC"; fi

# --- 4. packaging a dummy bitstream ----------------------------------------------------
expect_rc "build naaimg (userspace/tools/naaimg.c) into $out/us" 0 \
	make --no-print-directory -C userspace OUT="$out/us" "$out/us/naaimg"
# dummy "write_cfgmem output": padding, the bus-width detection words, the sync word
python3 - "$out/dummy.bin" <<'EOF'
import random, sys
r = random.Random(250)
d = b'\xff' * 64 + bytes.fromhex('000000bb11220044ffffffffffffffffaa995566')
d += bytes(r.getrandbits(8) for _ in range(200000))
open(sys.argv[1], 'wb').write(d)
EOF
expect_rc "build.sh --package: dummy bitstream -> flash image" 0 \
	env NAAIMG="$out/us/naaimg" fw/boards/u250/build.sh --package "$out/dummy.bin" \
	--out "$out/pkg" --role fallback --version 2.5.7
img=$out/pkg/extoll_u250-fallback.naaimg
expect_rc "naaimg verify --board u250 --part mt25qu01g" 0 \
	"$out/us/naaimg" verify --board u250 --part mt25qu01g "$img"
"$out/us/naaimg" show -j "$img" >"$out/show.json" 2>&1
commit=$(git rev-parse --short=8 HEAD)
if python3 - "$out/show.json" "$img" "$out/dummy.bin" "$commit" <<'EOF'
import json, sys
sys.path.insert(0, 'userspace/python')
import flash_image as fi
j = json.load(open(sys.argv[1]))
img, bit = open(sys.argv[2], 'rb').read(), open(sys.argv[3], 'rb').read()
# each header field compared on its own (the file path in the output names the board
# and the role too, so a search of the whole text could not fail)
want = {'board u250': j.get('board_id') == fi.BOARDS['u250'],
        'part mt25qu01g': j.get('part_id') == fi.PARTS['mt25qu01g'][0],
        'role fallback': j.get('role_id') == fi.ROLES['fallback'],
        'version 2.5.7': j.get('version') == '2.5.7',
        'build = commit': j.get('build') == sys.argv[4].lower(),
        'payload = the bitstream': img[fi.HEADER_SIZE:] == bit and len(img) == fi.HEADER_SIZE + len(bit)}
bad = [k for k, v in want.items() if not v]
print('missing: ' + ', '.join(bad) if bad else 'all fields')
sys.exit(1 if bad else 0)
EOF
then ok "image header (board, part, role, version, build) and payload"
else fail "image contents: $(cat "$out/show.json")"; fi
expect_rc "naaimg verify --board sim refuses the u250 image" nonzero \
	"$out/us/naaimg" verify --board sim "$img"

if [ "$fails" = 0 ]; then echo "PASS fw-u250"; else echo "FAIL fw-u250: $fails check(s)"; exit 1; fi
