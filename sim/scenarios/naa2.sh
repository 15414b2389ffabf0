#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Two network-attached accelerators at once (topology torus-2x2x1: host 0,
# naa 1 one hop away, router 2, naa 3 two hops away): two PCI domains, each
# with its root port and accelerator; both detach cleanly. Before that, naactl mgmt
# (own.mgmt, docs/security.md): this host manages NAA 1; router 2 manages NAA 3, so
# this host cannot change NAA 3's own.mgmt, but can still claim and attach it;
# route --mgmt makes this host the management node of all the others.
# topology: torus-2x2x1
. /lib/scenario-lib.sh
. /lib/naa-lib.sh

naa_setup || { finish; exit 1; }

# mgmt_expect WHAT RC PATTERN naactl-args...: exit status RC and PATTERN in the output
mgmt_expect() {
	local what=$1 want=$2 pat=$3 out rc
	shift 3
	out=$(naactl "$@" 2>&1); rc=$?
	echo "naactl $*: $out (exit $rc)"
	[ $rc -eq "$want" ] && echo "$out" | grep -qE "$pat" && pass "$what" ||
		fail "$what (exit $rc, wanted $want and /$pat/)"
}
mgmt_expect "mgmt 1: none at first" 0 "^node 1: no management node$" mgmt 1
mgmt_expect "mgmt 1 set: this host" 0 "^node 1: managed by node $HOST_NODE \\(this host\\)$" mgmt 1 set
mgmt_expect "mgmt -j 1" 0 "^\\{\"node\":1,\"mgmt\":$HOST_NODE,\"this_host\":true\\}$" -j mgmt 1
mgmt_expect "mgmt 3 set 2: router 2 manages NAA 3" 0 "^node 3: managed by node 2$" mgmt 3 set 2
mgmt_expect "mgmt 3 clear by this host: refused (exit 5)" 5 \
	"node 3 is managed by node 2: only node 2 \\(or node 3 itself\\) may change it" mgmt 3 clear
mgmt_expect "mgmt 3 set by this host: refused, unchanged" 5 "managed by node 2" mgmt 3 set
mgmt_expect "mgmt 3: still node 2" 0 "^node 3: managed by node 2$" mgmt 3
mgmt_expect "mgmt 1 clear by its management node" 0 "^node 1: no management node$" mgmt 1 clear
mgmt_expect "mgmt 9: no such node (exit 4)" 4 "node 9" mgmt 9
mgmt_expect "mgmt 1 bogus: usage (exit 2)" 2 "usage" mgmt 1 bogus
# route --mgmt: this host manages every node but NAA 3, which refuses even its
# routing tables (a free node takes writes only from its management node, router 2)
out=$(naactl route --topology "$TOPOLOGY" --mgmt 2>&1); rc=$?
echo "$out"
[ $rc -eq 5 ] && [ "$(echo "$out" | grep -c ', managed by this host$')" -eq 3 ] &&
	echo "$out" | grep -q '^node 3 .*: FAILED after 0 entries: refused, node 2 manages it' &&
	echo "$out" | grep -q ', 3 managed by this host$' &&
	pass "route --mgmt: nodes 0-2 managed by this host, node 3 refused (exit 5)" ||
	fail "route --mgmt (exit $rc)"
mgmt_expect "mgmt 2 after route --mgmt" 0 "^node 2: managed by node $HOST_NODE \\(this host\\)$" mgmt 2

doms=
for n in $NAA_NODES; do
	naa_attach "$n" || continue
	echo "NAA-ATTACH node $n: $ATTACH_MS ms wall (guest), $ATTACH_REQS remote requests (rra/requests), $ATTACH_TIMEOUTS timeouts"
	doms="$doms $ATTACH_DOMAIN"
done
lspci -D -tv
naactl list
set -- $doms
[ $# -eq 2 ] && [ "$1" != "$2" ] && pass "two NAAs, two domains ($doms )" || fail "two NAAs, two domains ($doms )"
for d in $doms; do naa_check_domain "$d"; done
for n in $NAA_NODES; do
	naactl detach "$n" && pass "naactl detach $n" || fail "naactl detach $n"
done
for d in $doms; do
	lspci -D | grep -q "^$d:" && fail "domain $d gone" || pass "domain $d gone"
done
naa_stats
naa_dmesg_clean
finish
