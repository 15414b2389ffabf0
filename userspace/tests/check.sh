#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# naactl without a NIC (make -C userspace check; mk/tests.list userspace-check):
#   - route planning: `naactl route --dry-run` on every sim/topologies file and
#     two larger tori, text (--tables) and JSON, against userspace/tests/expected/
#     (written by the naactl before the route planning moved into libextoll);
#   - the node lines of list and attach (text layouts and JSON) against the
#     output of the naactl before the print layer (tests/naa_print.c);
#   - the topology parser's errors (file:line: message, exit 1);
#   - the command table (help, COMMAND help, prefixes), the exit codes of a
#     bad or absent -d device (PCI addresses parsed by libpci).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
naactl=${NAACTL:-$top/userspace/build/naactl}
exp=$here/expected
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0

pass() { passes=$((passes + 1)); }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# same NAME EXPECTED-FILE COMMAND...: stdout equals the file, exit 0
same() {
	local name=$1 want=$2
	shift 2
	if ! "$@" >"$tmp/out" 2>"$tmp/err"; then
		fail "$name: exit $? ($(head -c 200 "$tmp/err"))"
	elif ! cmp -s "$want" "$tmp/out"; then
		fail "$name: output differs from $want"
		diff "$want" "$tmp/out" | head -n 10
	else
		pass
	fi
}
# status NAME CODE REGEX COMMAND...: exit CODE, stdout+stderr matches REGEX
status() {
	local name=$1 code=$2 re=$3 rc
	shift 3
	"$@" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -ne "$code" ]; then
		fail "$name: exit $rc, expected $code ($(head -c 200 "$tmp/out"))"
	elif ! grep -Eq -- "$re" "$tmp/out"; then
		fail "$name: output does not match '$re': $(head -c 300 "$tmp/out")"
	else
		pass
	fi
}

# --- route planning
for f in "$top"/sim/topologies/*.topo; do
	b=$(basename "$f" .topo)
	same "route $b" "$exp/route-$b.txt" "$naactl" route --topology "$f" --dry-run --tables
	same "route -j -p $b" "$exp/route-$b.json" "$naactl" -j -p route --topology "$f" --dry-run
	# compact JSON: the same document on one line
	if "$naactl" -j route --topology "$f" --dry-run >"$tmp/c.json" &&
	   [ "$(wc -l <"$tmp/c.json")" -eq 1 ] &&
	   python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
		"$tmp/c.json" "$exp/route-$b.json"; then
		pass
	else
		fail "route -j $b: not the document of -j -p on one line"
	fi
done
same "route 4x4x4 from node 21" "$exp/route-4x4x4-host21.txt" \
	"$naactl" route --torus 4x4x4 --dry-run --host-node 21 --all-inports
same "route 8x8x2 (table-routed nodes)" "$exp/route-8x8x2.txt" \
	"$naactl" route --torus 8x8x2 --dry-run --host-node 0
printf 'torus 8 8 2   # more nodes than the simulated router holds: fine here\n' >"$tmp/big.topo"
same "route --topology with 128 nodes" "$exp/route-8x8x2.txt" \
	"$naactl" route --topology "$tmp/big.topo" --dry-run --host-node 0

# --- node lines of list and attach, text and JSON
same "list/attach node lines" "$exp/naa-print.txt" "${NAA_PRINT_TEST:-$top/userspace/build/naa_print_test}"

# --- topology parser errors
topo_err() {	# NAME TEXT REGEX
	printf "$2" >"$tmp/e.topo"
	status "topology: $1" 1 "$3" "$naactl" route --topology "$tmp/e.topo" --dry-run
}
topo_err "no torus line" 'node 0 host\n' 'e.topo:1: no .torus XxYxZ. line'
topo_err "second torus line" 'torus 2x1x1\ntorus 2x2x1\n' 'e.topo:2: second .torus. line'
topo_err "bad dimensions" '# c\ntorus 2x0x1\n' 'e.topo:2: expected .torus XxYxZ.'
topo_err "signed dimension" 'torus +2x2\n' 'e.topo:1: expected .torus XxYxZ.'
topo_err "node outside" 'torus 2x2x1\nnode 4 naa\n' 'e.topo:2: node 4 outside the 2x2x1 torus'
topo_err "node twice" 'torus 2x2x1\nnode 1 naa\nnode 1 host\n' 'e.topo:3: node 1 listed twice'
topo_err "node kind" 'torus 2x2x1\nnode 1 gpu\n' "e.topo:2: unknown node kind 'gpu'"
topo_err "latency" 'torus 2x2x1\nlink-latency 0\n' 'e.topo:2: expected .link-latency CYCLES.'
topo_err "directive" 'torus 2x2x1\nrouter 3\n' "e.topo:2: unknown directive 'router'"
status "topology: no file" 1 'topology .*nonexistent.topo: No such file' \
	"$naactl" route --topology "$tmp/nonexistent.topo" --dry-run

# --- command table, usage, exit codes
status "help" 0 '^  route --torus' "$naactl" help
status "--help" 0 'exit status: 0 ok' "$naactl" --help
status "COMMAND help" 0 '^  detach NODE \| DOMAIN:' "$naactl" detach help
status "help COMMAND" 0 '^  rra write NODE ADDR VALUE' "$naactl" help rra
status "prefix" 0 'node 1 \(1,0,0\): 1 hop' "$naactl" rou --torus 2x1x1 --dry-run
status "ambiguous prefix" 1 "ambiguous command 'r'" "$naactl" r
status "unknown command" 1 "unknown command 'bogus'" "$naactl" bogus
status "no command" 1 '^usage: naactl' "$naactl"
status "route usage" 1 'usage: route --torus' "$naactl" route --dry-run
status "route: host outside" 1 'this host is node 9, outside the 2x2x1 torus' \
	"$naactl" route --torus 2x2x1 --dry-run --host-node 9
status "-d: not an address" 1 "'1:2:3:4.0' is neither" "$naactl" -d 1:2:3:4.0 info
status "-d: no such NIC" 4 'no EXTOLL NIC 0000:7f:1f.7' "$naactl" -d 0000:7f:1f.7 info
status "-d: short address" 4 'no EXTOLL NIC 7f:1f.7' "$naactl" -d 7f:1f.7 list

echo "userspace check: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
