#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every host of a world with several (default topology torus-4x2x1-4hosts: hosts 0, 2,
# 5, 7; SIM_TOPOLOGY picks another, e.g. torus-2x2x1-2hosts or greenice): each guest
# loads extoll and finds its own node id; host 0 programs every routing table; each
# host writes its NIC's scratch register (info.scratch) with a value of its own; after
# a barrier every host reads every other host's scratch register by RRA over the
# fabric and finds that host's value. Kernel command line (SIM_APPEND): RRA_TIMEOUT_US, RRA_GRACE_CYCLES,
# ROUTE_ARGS as in two-hosts.sh.
# topology: torus-4x2x1-4hosts
. /lib/scenario-lib.sh

must() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; finish; exit 1; fi
}
meet() {
	barrier "$1" && pass "barrier $1: all $NHOSTS hosts there (world cycle $SIMCTL_CYCLE)" ||
		{ fail "barrier $1 ($SIMCTL_REPLY)"; finish; exit 1; }
}
# the value host NODE writes
value() { printf '0x%x' $((0x5a000000 + $1 * 0x101)); }

echo "hosts: host index $HOST_INDEX of $NHOSTS (node $HOST_NODE; hosts $HOST_NODES)"
[ "$NHOSTS" -ge 2 ] && pass "this guest is host $HOST_INDEX (node $HOST_NODE) of $NHOSTS" ||
	{ fail "several hosts in the world (have $NHOSTS)"; finish; exit 1; }
must "insmod extoll.ko $EXTOLL_KO_PARAMS" \
	insmod /lib/modules/extoll.ko $EXTOLL_KO_PARAMS
naactl info | tee /tmp/info
grep -q "node $HOST_NODE," /tmp/info && pass "the NIC is node $HOST_NODE" ||
	fail "the NIC is node $HOST_NODE ($(cat /tmp/info))"
if [ "$HOST_INDEX" = 0 ]; then
	must "naactl route --topology $TOPOLOGY ${ROUTE_ARGS:-}(host 0, for every node)" \
		naactl route --topology "$TOPOLOGY" ${ROUTE_ARGS:-}
fi
meet routed
mine=$(value "$HOST_NODE")
must "scratch register of node $HOST_NODE := $mine (local RRA)" \
	naactl rra write - "$EXTOLL_INFO_SCRATCH" "$mine" --route 7
meet written
for n in $HOST_NODES; do
	[ "$n" = "$HOST_NODE" ] && continue
	got=$(naactl rra read "$n" "$EXTOLL_INFO_SCRATCH" 2>&1)
	hex_eq "$got" "$(value "$n")" && pass "node $n's scratch register over the fabric: $got" ||
		fail "node $n's scratch register over the fabric: '$got', expected $(value "$n")"
done
meet end
finish
