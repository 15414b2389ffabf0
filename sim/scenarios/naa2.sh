#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Two network-attached accelerators at once (topology torus-2x2x1: host 0,
# naa 1 one hop away, router 2, naa 3 two hops away): two PCI domains, each
# with its root port and accelerator; both detach cleanly.
# topology: torus-2x2x1
. /lib/scenario-lib.sh
. /lib/naa-lib.sh

naa_setup || { finish; exit 1; }
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
