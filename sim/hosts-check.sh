#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# cosimd with several hosts, without QEMU (seconds): each "QEMU" is a bash script that
# cosimd starts as it would start QEMU (the proxy socket on fd 100, the control channel
# on fd 101; @HOST@ replaced by the host index). Checks:
#   - a topology with more host nodes than cosimd serves: usage error (2), nothing started
#   - barriers: both hosts get "ok ... barrier NAME (2 hosts)" only once both have sent it
#   - a host that leaves: the other's barrier is answered "error ... host 1 has gone"
#   - a host whose QEMU fails: the other is stopped, cosimd exits with the failed one's
#     status, no process left behind
#   sim/hosts-check.sh [COSIMD]     (default build/sim/cosimd; make -C sim cosimd)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cosimd=${1:-$top/build/sim/cosimd}
[ -x "$cosimd" ] || { echo "hosts-check: no $cosimd (make -C sim cosimd)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npass=0 nfail=0
pass() { npass=$((npass + 1)); echo "PASS $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL $*"; }

printf 'torus 2x1x1\nnode 0 host\nnode 1 host\n' >"$tmp/two.topo"
{ echo 'torus 3x3x1'; for i in 0 1 2 3 4 5 6 7 8; do echo "node $i host"; done; } >"$tmp/nine.topo"

# 1. too many hosts
"$cosimd" --cpu -1 --topology "$tmp/nine.topo" -- bash -c "touch $tmp/started" >"$tmp/out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'has 9 host nodes: cosimd serves 1 to 8' "$tmp/out" && [ ! -e "$tmp/started" ] &&
	pass "9 hosts refused (exit 2: $(head -1 "$tmp/out"))" ||
	{ cat "$tmp/out"; fail "9 hosts refused (exit $rc)"; }

# 2. a barrier: host 1 arrives 1 s after host 0; both answered together
fake='echo $$ >'"$tmp"'/pid@HOST@; [ @HOST@ = 1 ] && sleep 1
echo $EPOCHREALTIME >'"$tmp"'/sent@HOST@
echo "barrier start" >&101; read -r -t 20 r <&101; echo "$r" >'"$tmp"'/reply@HOST@
echo $EPOCHREALTIME >'"$tmp"'/answered@HOST@
[ @HOST@ = 1 ] && { echo "cycle" >&101; read -r -t 20 r <&101; echo "$r" >'"$tmp"'/after1; }
exit 0'
t0=$EPOCHREALTIME
timeout 60 "$cosimd" --cpu -1 --topology "$tmp/two.topo" -- bash -c "$fake" >"$tmp/out" 2>&1
rc=$?
t1=$EPOCHREALTIME
r0=$(cat "$tmp/reply0" 2>/dev/null) r1=$(cat "$tmp/reply1" 2>/dev/null)
[ $rc = 0 ] && [[ $r0 == "ok "*" barrier start (2 hosts)" ]] && [ "$r0" = "$r1" ] &&
	grep -q "barrier 'start': all 2 hosts there" "$tmp/out" &&
	pass "barrier: both hosts answered '$r0' (exit $rc)" ||
	{ cat "$tmp/out"; fail "barrier (exit $rc; host 0 '$r0', host 1 '$r1')"; }
a0=$(cat "$tmp/answered0" 2>/dev/null) s1=$(cat "$tmp/sent1" 2>/dev/null)
[ -n "$a0" ] && [ -n "$s1" ] && awk -v a="$a0" -v s="$s1" 'BEGIN { exit !(a >= s) }' &&
	pass "barrier: host 0 answered after host 1 sent it ($(awk -v a="$a0" -v s="$s1" 'BEGIN { printf "%.3f", a - s }') s later)" ||
	fail "barrier: host 0 answered after host 1 sent it (answered $a0, sent $s1)"

# 3. a host that leaves without the barrier: the waiting one gets an error
rm -f "$tmp"/reply*
fake='[ @HOST@ = 1 ] && { sleep 1; exit 0; }
echo "barrier never" >&101; read -r -t 20 r <&101; echo "$r" >'"$tmp"'/reply@HOST@; exit 0'
timeout 60 "$cosimd" --cpu -1 --topology "$tmp/two.topo" -- bash -c "$fake" >"$tmp/out" 2>&1
rc=$?
r0=$(cat "$tmp/reply0" 2>/dev/null)
[ $rc = 0 ] && [ "$r0" = "error barrier never: host 1 has gone" ] &&
	pass "barrier of a host that left: '$r0'" ||
	{ cat "$tmp/out"; fail "barrier of a host that left (exit $rc, '$r0')"; }

# 4. a QEMU that fails: the other is stopped, its status is cosimd's, nothing left behind
fake='echo $$ >'"$tmp"'/pid@HOST@; if [ @HOST@ = 1 ]; then sleep 1; exit 7; fi; exec sleep 600'
t0=$EPOCHREALTIME
timeout 60 "$cosimd" --cpu -1 --topology "$tmp/two.topo" -- bash -c "$fake" >"$tmp/out" 2>&1
rc=$?
t1=$EPOCHREALTIME
p0=$(cat "$tmp/pid0" 2>/dev/null)
# stopped with SIGTERM at once (1 s: host 1's sleep), not by the 3 s SIGKILL fallback
[ $rc = 7 ] && grep -q 'host 1 (node 1): QEMU failed (exit status 7): stopping the other hosts' "$tmp/out" &&
	awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 2.5) }' &&
	pass "failed host: cosimd exit 7, the other stopped ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s)" ||
	{ cat "$tmp/out"; fail "failed host (exit $rc, $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s)"; }
[ -n "$p0" ] && ! kill -0 "$p0" 2>/dev/null && pass "no QEMU of host 0 left (pid $p0)" ||
	{ kill "$p0" 2>/dev/null; fail "no QEMU of host 0 left (pid $p0)"; }

echo "hosts-check: $npass passed, $nfail failed"
[ $nfail = 0 ]
