#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Replays a recording of a co-simulated run (cosimd --record) on the RTL alone
# and checks that the replay is exact, and that it notices a difference
# (docs/cosim.md "Record and replay"):
#   1. cosimd --replay FILE: exit 0 (the same TLPs at the same cycles)
#   2. the same with idle-node skipping off (COSIM_WORLD_SKIP=0), with
#      another period (64), and with two evaluations per cycle
#      (COSIM_MODEL_EVAL2=1; the run was recorded with one, sim/model/vmodel.h):
#      exit 0 (skipping and the one-evaluation cycle are cycle-exact)
#   3. mutations, each must exit 1 with a MISMATCH line: one recorded TLP of
#      the device altered (its last dword), one read request a cycle later, an INTx
#      change added
#   4. a recording of another format version: exit 2 with a clear message
#   5. with TRACE (cosimd --trace-tlp of the recorded run): the replay's --trace-tlp is
#      the same file
# With --hosts instead of a recording: two hosts without QEMU (stand-in scripts, as in
# sim/hosts-check.sh) send fault commands on their control channels, with --fault and
# --ber; the recording (commands and the links' counts only) is replayed as above, and
# a command one cycle late must be found.
#
#   sim/replay-check.sh COSIMD RECORDING [TRACE]
#   sim/replay-check.sh COSIMD --hosts
set -u
cosimd=$1 rec=$2 trace=${3:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
if [ "$rec" = --hosts ]; then
	printf 'torus 3x1x1\nnode 0 host\nnode 1 host\nnode 2 router\n' >"$tmp/three.topo"
	fake='[ @HOST@ = 0 ] && { echo "kill 2" >&101; read -r -t 20 r <&101; sleep 0.3
	  echo "revive 2" >&101; read -r -t 20 r <&101; }
	[ @HOST@ = 1 ] && { echo "link-down 1 X+" >&101; read -r -t 20 r <&101; }
	sleep 0.5; exit 0'
	timeout 60 "$cosimd" --cpu -1 --topology "$tmp/three.topo" --ber 1e-3 --fault '5000:link-up 1 X+' \
		--record "$tmp/hosts.rec" -- bash -c "$fake" >"$tmp/hosts.log" 2>&1 ||
		{ cat "$tmp/hosts.log"; echo "FAIL cosimd with two stand-in hosts"; exit 1; }
	rec=$tmp/hosts.rec
	hosts=1
fi
fails=0 passes=0

pass() { echo "PASS $*"; passes=$((passes + 1)); }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# replay NAME EXPECTED-STATUS [PATTERN] [env...]: runs the replay, checks status and output
replay() {
	local name=$1 want=$2 pat=$3 file=$4 rc t0 t1
	shift 4
	t0=$(date +%s.%N)
	env "$@" "$cosimd" --replay "$file" >"$tmp/out" 2>&1
	rc=$?
	t1=$(date +%s.%N)
	grep -v '^pcie_model' "$tmp/out" | sed 's/^/    /'
	if [ "$rc" != "$want" ]; then
		fail "$name: exit status $rc, expected $want"
	elif [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/out"; then
		fail "$name: no '$pat' in the output"
	else
		pass "$name (exit $rc, $(echo "$t1 - $t0" | bc) s)"
	fi
}

[ -s "$rec" ] || { echo "FAIL no recording $rec"; exit 1; }
echo "recording $rec: $(stat -c %s "$rec") bytes, $(grep -c ' in ' "$rec") TLPs in," \
     "$(grep -c ' out ' "$rec") TLPs out, $(grep -c ' intx ' "$rec") INTx changes," \
     "$(grep -c ' cmd ' "$rec") commands, $(tail -1 "$rec" | cut -d' ' -f1) cycles"

replay "replay is identical to the recording" 0 identical "$rec"
replay "replay with idle-node skipping off" 0 identical "$rec" COSIM_WORLD_SKIP=0
replay "replay with skip period 64" 0 identical "$rec" COSIM_WORLD_SKIP=64
replay "replay with two evaluations per cycle" 0 identical "$rec" COSIM_MODEL_EVAL2=1

if [ -n "${hosts:-}" ]; then
	sed -n '/^start/,$p' "$rec" | sed 's/^/    /'
	awk '$2 == "cmd" && $3 == "revive" { $1 = $1 + 1 } { print }' "$rec" >"$tmp/m3"
	echo "mutation 3: $(diff "$rec" "$tmp/m3" | grep -E '^[<>]' | tr '\n' ' ')"
	replay "mutation 3 (a fault command one cycle later) is found" 1 MISMATCH "$tmp/m3"
	echo "SUMMARY $passes passed, $fails failed"
	[ "$fails" = 0 ]
	exit
fi

# mutation 1: the last dword of the device's 10th TLP with payload (or of its last TLP)
flip() { awk -v k="$1" '$2 == "out" && $4 > 0 && ++n == k {
	c = substr($NF, 8, 1); $NF = substr($NF, 1, 7) (c == "0" ? "1" : "0") } { print }' "$rec"; }
flip 10 >"$tmp/m1"
cmp -s "$rec" "$tmp/m1" && flip "$(awk '$2 == "out" && $4 > 0' "$rec" | wc -l)" >"$tmp/m1"
echo "mutation 1: $(diff "$rec" "$tmp/m1" | grep '^>' | cut -c1-100)"
replay "mutation 1 (a recorded TLP of the device altered) is found" 1 MISMATCH "$tmp/m1"

# mutation 2: a read request of the guest in the middle one cycle later (the next input is
# later still): its completion comes a cycle later. (Not any input: a posted register write
# a cycle late may change no output at all, and the replay then rightly passes.)
awk '$2 == "in" && $6 ~ /^(00|20|04)/ { c[NR] = $1 } { line[NR] = $0 } END {
	n = 0; for (i in c) n++; k = 0
	for (i = 1; i <= NR; i++) if (i in c && ++k >= n / 2) {
		for (j = i + 1; j <= NR && split(line[j], f, " ") && f[2] != "in" && f[2] != "cmd"; j++) ;
		split(line[j], f, " ")
		if (j > NR || f[1] > c[i] + 1) { sub(/^[0-9]+/, c[i] + 1, line[i]); break } }
	for (i = 1; i <= NR; i++) print line[i] }' "$rec" >"$tmp/m2"
echo "mutation 2: $(diff "$rec" "$tmp/m2" | grep -E '^[<>]' | cut -c1-60 | tr '\n' ' ')"
replay "mutation 2 (a read request one cycle later) is found" 1 MISMATCH "$tmp/m2"

# mutation 4: an INTx change that did not happen, at the cycle of the device's 10th TLP
awk '$2 == "out" && ++n == 10 && !done { print $1 " intx " $3 " 1"; done = 1 } { print }' \
	"$rec" >"$tmp/m4"
echo "mutation 4: $(diff "$rec" "$tmp/m4" | grep -E '^[<>]' | tr '\n' ' ')"
replay "mutation 4 (an INTx change added) is found" 1 "INTx stays" "$tmp/m4"

if [ -n "$trace" ]; then
	"$cosimd" --replay "$rec" --trace-tlp "$tmp/trace" >/dev/null 2>&1
	if cmp -s "$trace" "$tmp/trace"; then
		pass "the replay's TLP trace equals the recorded run's ($(wc -l <"$trace") lines)"
	else
		diff "$trace" "$tmp/trace" | head -5
		fail "the replay's TLP trace differs from the recorded run's"
	fi
fi

sed '1s/.*/cosimd-record 99/' "$rec" >"$tmp/v"
replay "a recording of another format version is refused" 2 "version 99" "$tmp/v"

echo "SUMMARY $passes passed, $fails failed"
[ "$fails" = 0 ]
