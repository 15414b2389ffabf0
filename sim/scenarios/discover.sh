#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# In-band discovery (docs/network.md): naactl topo explores the fabric from the
# host's NIC by source-routed register reads and must find the topology file's
# fabric; naactl route --discover programs tables from what it found and every
# node must answer by table routing; on the whole torus a node given a wrong id
# in-band is found by naactl route and given its id back by route --assign-ids;
# an NAA node attaches over the tables (TLP_RAW).
# With SIM_TOPOLOGY=torus-2x2x1-cut (make -C sim test-pcap: both X links of
# node 0 failed) the same checks hold, the two links are reported missing
# against the intact torus, and the tables are up*/down* around the cut.
# topology: torus-2x2x1
. /lib/scenario-lib.sh
. /lib/naa-lib.sh

check "insmod extoll.ko $EXTOLL_KO_PARAMS" \
	insmod /lib/modules/extoll.ko $EXTOLL_KO_PARAMS || { finish; exit 1; }
set -- $(sed -n 's/^torus[[:space:]]*\([0-9]*\)x\([0-9]*\)x\([0-9]*\).*/\1 \2 \3/p' "$TOPOLOGY")
N=$(($1 * $2 * $3))
CUT=$(grep -c '^missing-link' "$TOPOLOGY")
# links of the intact torus: one per + port of every dimension longer than 1
LINKS=0
for d in "$1" "$2" "$3"; do [ "$d" -gt 1 ] && LINKS=$((LINKS + N)); done
LINKS=$((LINKS - CUT))
echo "topology: $N nodes, $LINKS links ($CUT missing)"

# ---- discovery: text, JSON, DOT
t0=$(now_ms)
out=$(naactl topo --topology "$TOPOLOGY"); rc=$?
t1=$(now_ms)
echo "$out"
echo "DISCOVERY: $((t1 - t0)) ms wall (guest); $(echo "$out" | sed -n 's/.*in \([0-9]*\) register reads (\([0-9]*\) unanswered) (\([0-9]*\) NIC cycles.*/\1 reads (\2 unanswered), \3 NIC cycles/p')"
[ $rc -eq 0 ] && pass "naactl topo finds the fabric of $TOPOLOGY" || fail "naactl topo finds the fabric of $TOPOLOGY (exit $rc)"
echo "$out" | grep -q "^fabric: $N node(s), $LINKS link(s), explored from node $HOST_NODE" &&
	pass "$N nodes, $LINKS links" || fail "$N nodes, $LINKS links"
js=$(naactl -j topo | tr -d ' \n')
echo "$js" | grep -q "\"node_count\":$N,\"link_count\":$LINKS," && pass "JSON: node_count $N, link_count $LINKS" ||
	fail "JSON: node_count $N, link_count $LINKS ($js)"
dot=$(naactl topo --dot)
echo "$dot"
[ "$(echo "$dot" | grep -c ' -- ')" -eq "$LINKS" ] && echo "$dot" | grep -q '^graph extoll {' &&
	pass "DOT: a graph with $LINKS edges" || fail "DOT: a graph with $LINKS edges"
if [ "$CUT" -gt 0 ]; then
	grep -v '^missing-link' "$TOPOLOGY" >/tmp/intact.topo
	out=$(naactl topo --topology /tmp/intact.topo); rc=$?
	echo "$out"
	[ $rc -eq 4 ] && pass "against the intact torus: differences (exit 4, a node or link missing)" || fail "against the intact torus: exit $rc, not 4"
	grep '^missing-link' "$TOPOLOGY" | while read -r _ node port; do
		echo "$out" | grep -q "^missing link node $node $port " && echo "found missing link $node $port" ||
			echo "NOT FOUND: missing link $node $port"
	done >/tmp/found
	cat /tmp/found
	! grep -q 'NOT FOUND' /tmp/found && pass "every failed link reported" || fail "every failed link reported"
	echo "$out" | grep -q 'up\*/down\* routing' && pass "not a whole torus: up*/down*" || fail "not a whole torus: up*/down*"
else
	echo "$out" | grep -q "^whole torus $1x$2x$3: dimension-order" && pass "whole torus $1x$2x$3" ||
		fail "whole torus $1x$2x$3"
fi

# ---- tables from the discovered fabric
t0=$(now_ms)
naactl route --discover; rc=$?
t1=$(now_ms)
echo "ROUTE-DISCOVER: $((t1 - t0)) ms wall (guest)"
[ $rc -eq 0 ] && pass "naactl route --discover: every node reachable by table routing" ||
	fail "naactl route --discover (exit $rc)"
n=0
while [ $n -lt $N ]; do
	v=$(naactl rra read $n "$EXTOLL_INFO_ID" 2>&1)
	case "$v" in 0x*) id=$(( (v >> 48) & 0xffff )) ;; *) id=none ;; esac
	[ "$id" = "$n" ] && pass "node $n answers a table-routed read as itself" ||
		fail "node $n answers a table-routed read as itself ($v)"
	n=$((n + 1))
done
# ---- node ids in-band (docs/naactl.md, route --assign-ids): node 1 is told in-band
# (router.node, source routed) that it is node 9; plain route then finds the wrong
# node there, route --assign-ids gives it its id back. Whole torus only: route
# programs dimension-order tables.
if [ "$CUT" -eq 0 ] && [ "$N" -ge 2 ]; then
	RN=$((EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_NODE))
	R1=0,7	# X+ from node 0 to node 1
	check "node 1 told it is node 9 (router.node)" \
		naactl rra write - "$RN" $((EXTOLL_ROUTER_NODE_VALID_MASK | 9)) --route "$R1"
	v=$(naactl rra read - "$EXTOLL_INFO_ID" --route "$R1" 2>&1)
	case "$v" in 0x*) id=$(( (v >> 48) & 0xffff )) ;; *) id=none ;; esac
	[ "$id" = 9 ] && pass "node 1 now reports id 9" || fail "node 1 now reports id 9 ($v)"
	out=$(naactl route --torus "$1x$2x$3" 2>&1); rc=$?
	echo "$out" | tail -3
	[ $rc -ne 0 ] && echo "$out" | grep -q "reached node 9" &&
		pass "route without --assign-ids: node 1's wrong id found (exit $rc)" ||
		fail "route without --assign-ids: node 1's wrong id found (exit $rc)"
	out=$(naactl route --torus "$1x$2x$3" --assign-ids 2>&1); rc=$?
	echo "$out" | tail -1
	[ $rc -eq 0 ] && pass "route --assign-ids: every node reachable by table routing" ||
		fail "route --assign-ids (exit $rc)"
	v=$(naactl rra read 1 "$EXTOLL_INFO_ID" 2>&1)
	case "$v" in 0x*) id=$(( (v >> 48) & 0xffff )) ;; *) id=none ;; esac
	[ "$id" = 1 ] && pass "node 1 answers a table-routed read as itself again" ||
		fail "node 1 answers a table-routed read as itself again ($v)"
fi
# the first NAA node (node 1: on torus-2x2x1-cut only around the ring) attached over
# these tables: its config space is tunnelled (TLP_RAW) and enumerated
node=${NAA_NODES%% *}
if [ -z "$node" ]; then
	fail "an NAA node in $TOPOLOGY to attach over the tables"
elif check "insmod naa_bus.ko window_mb=$NAA_WINDOW_MB" \
	insmod /lib/modules/naa_bus.ko window_mb="$NAA_WINDOW_MB"; then
	naa_attach "$node" && naa_check_domain "$ATTACH_DOMAIN"
fi
finish
