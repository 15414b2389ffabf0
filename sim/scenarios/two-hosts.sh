#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Two hosts on one fabric (topology torus-2x2x1-2hosts: hosts 0 and 3, NAAs 1 and 2;
# sim/run starts one QEMU per host, both run this script, HOST_INDEX tells which).
# Host A (index 0) attaches NAA 1, host B (index 1) attaches NAA 2; both run a
# sacc-test job at the same time (barriers before and after); A detaches 1, then B
# attaches 1 and runs a job on it with correct results; in a world of four or more NAAs
# (greenice) each host then attaches two and runs a job on each.  The hosts meet at barriers
# cosimd provides (`barrier NAME` on the control channel, scenario-lib.sh).
# Kernel command line (SIM_APPEND; KEY=VALUE becomes the scenario's environment):
# SACC_SIZE (default 256K) per job, SACC_ARGS (sample_accel.ko parameters, e.g.
# job_timeout_ms=300000; default job_timeout_ms: SACC_JOB_TIMEOUT_MS, naa-lib.sh), ROUTE_ARGS (naactl route options, e.g. --all-inports: one
# table write per destination), RRA_TIMEOUT_US and RRA_GRACE_CYCLES (scenario-lib.sh) - for large, slow
# worlds such as greenice; two_hosts_fail=1 makes host B fail before the first barrier
# (the run must fail, host A's barrier with it).
# topology: torus-2x2x1-2hosts
. /lib/scenario-lib.sh
. /lib/naa-lib.sh
SIZE=${SACC_SIZE:-256K}
set -- $NAA_NODES
NAA_A=$1
NAA_B=$2

# world_cycle: the world's cycle now (cosimd's control channel)
world_cycle() { simctl cycle >/dev/null && echo "$SIMCTL_CYCLE"; }
# meet NAME: barrier NAME, or fail and stop (the other host has gone or timed out)
meet() {
	barrier "$1" && pass "barrier $1: both hosts there (world cycle $SIMCTL_CYCLE)" ||
		{ fail "barrier $1 ($SIMCTL_REPLY)"; finish; exit 1; }
}
# must WHAT COMMAND...: PASS, or FAIL and stop
must() { check "$@" || { finish; exit 1; }; }
# attach_bound NODE: attach NODE, sample_accel bound to its accelerator: DEV
attach_bound() {
	naa_attach "$1" || return 1
	DEV=$ATTACH_DOMAIN:01:00.0
	driver_bound "$DEV" sample_accel && pass "sample_accel bound to $DEV (node $1)" ||
		{ fail "sample_accel bound to $DEV (node $1)"; dmesg | tail -n 20; return 1; }
}

echo "two-hosts: host index $HOST_INDEX of $NHOSTS (node $HOST_NODE; hosts $HOST_NODES), NAAs $NAA_NODES"
[ "$NHOSTS" = 2 ] && pass "this guest is host $HOST_INDEX (node $HOST_NODE) of 2" ||
	{ fail "two hosts in the world (have $NHOSTS)"; finish; exit 1; }
case " $(cat /proc/cmdline) " in
*" two_hosts_fail=1 "*) [ "$HOST_INDEX" = 1 ] && { fail "deliberate failure of host B"; finish; exit 1; } ;;
esac

must "insmod extoll.ko $EXTOLL_KO_PARAMS" \
	insmod /lib/modules/extoll.ko $EXTOLL_KO_PARAMS
must "insmod naa_bus.ko window_mb=$NAA_WINDOW_MB" \
	insmod /lib/modules/naa_bus.ko window_mb="$NAA_WINDOW_MB"
# shellcheck disable=SC2086 # SACC_ARGS: several parameters
sacc_insmod ${SACC_ARGS:-} || { finish; exit 1; }
naactl info
# every node's routing tables: one host programs them all (dimension order, the same
# tables whoever writes them)
if [ "$HOST_INDEX" = 0 ]; then
	must "naactl route --topology $TOPOLOGY ${ROUTE_ARGS:-}(host A, for every node)" \
		naactl route --topology "$TOPOLOGY" ${ROUTE_ARGS:-}
fi
meet routed

# ---- A attaches NAA 1, B attaches NAA 2
if [ "$HOST_INDEX" = 0 ]; then MINE=$NAA_A; else MINE=$NAA_B; fi
attach_bound "$MINE" || { finish; exit 1; }
naactl list
meet attached

# ---- ownership (docs/security.md): the other host's NAA is held; its attach and its
# register writes are refused by that NAA's NIC, reads still served
if [ "$HOST_INDEX" = 0 ]; then OTHER=$NAA_B; else OTHER=$NAA_A; fi
set -- $HOST_NODES
if [ "$HOST_INDEX" = 0 ]; then HOLDER=$2; else HOLDER=$1; fi
out=$(naactl attach "$OTHER" 2>&1); rc=$?
echo "$out"
[ $rc -eq 5 ] && [ "$out" = "naactl: node $OTHER is held by node $HOLDER" ] &&
	pass "host $HOST_INDEX: attach of node $OTHER refused: held by node $HOLDER (exit 5)" ||
	fail "host $HOST_INDEX: attach of node $OTHER refused: held by node $HOLDER (exit $rc)"
out=$(naactl rra write "$OTHER" 0x20 0x5a5a 2>&1); rc=$?
echo "$out"
[ $rc -eq 5 ] && echo "$out" | grep -q "refused, the node is held by another node" &&
	pass "host $HOST_INDEX: register write to node $OTHER refused (exit 5)" ||
	fail "host $HOST_INDEX: register write to node $OTHER refused (exit $rc)"
# the fabric as this host sees it (naactl list --all: from the nodes' own blocks)
out=$(naactl list --all 2>&1); rc=$?
echo "$out"
state_of() { echo "$out" | awk -v n="$1" '$1 == n { print $2, $3, $4 }'; }
[ $rc -eq 0 ] && [ "$(state_of "$HOST_NODE")" = "host self -" ] &&
	[ "$(state_of "$MINE")" = "naa attached $HOST_NODE" ] &&
	[ "$(state_of "$OTHER")" = "naa held $HOLDER" ] &&
	[ "$(state_of "$HOLDER")" = "host host -" ] &&
	pass "host $HOST_INDEX: list --all: node $MINE attached here, node $OTHER held by node $HOLDER" ||
	fail "host $HOST_INDEX: list --all (exit $rc)"
# its routing table and its accelerator's config space: refused too, the refused
# register writes counted by that NAA's NIC (own.denied, low 32 bits: writes)
denied_wr() { v=$(naactl rra read "$1" $((EXTOLL_OWN_BASE + EXTOLL_OWN_DENIED))) && echo $((v & 0xffffffff)); }
d0=$(denied_wr "$OTHER")
out=$(naactl rra write "$OTHER" $((EXTOLL_ROUTER_BASE + EXTOLL_ROUTER_RT_ENTRY)) 0 2>&1); rc=$?
echo "$out"
d1=$(denied_wr "$OTHER")
[ $rc -eq 5 ] && echo "$out" | grep -q "refused, the node is held by another node" &&
	[ -n "$d0" ] && [ -n "$d1" ] && [ "$d1" -gt "$d0" ] &&
	pass "host $HOST_INDEX: routing table write to node $OTHER refused (exit 5), counted (own.denied writes $d0 -> $d1)" ||
	fail "host $HOST_INDEX: routing table write to node $OTHER refused and counted (exit $rc, own.denied writes $d0 -> $d1)"
# the config write goes out as a raw tunnel request; the NAA's NIC drops it (own.denied
# high 32 bits: tunnel) and it is never answered
denied_tun() { v=$(naactl rra read "$1" $((EXTOLL_OWN_BASE + EXTOLL_OWN_DENIED))) && echo $(((v >> 32) & 0xffffffff)); }
t0=$(denied_tun "$OTHER")
out=$(naactl cfg "$OTHER" 01:00.0 COMMAND=0000 2>&1); rc=$?
echo "$out"
t1=$(denied_tun "$OTHER")
[ $rc -eq 4 ] && echo "$out" | grep -q "no answer" && [ -n "$t0" ] && [ -n "$t1" ] && [ "$t1" -gt "$t0" ] &&
	pass "host $HOST_INDEX: config write to node $OTHER's accelerator dropped by its NIC (exit 4, own.denied tunnel $t0 -> $t1)" ||
	fail "host $HOST_INDEX: config write to node $OTHER's accelerator dropped and counted (exit $rc, own.denied tunnel $t0 -> $t1)"
naactl regs "$OTHER" own.denied >/dev/null 2>&1 &&
	pass "host $HOST_INDEX: node $OTHER's registers still readable" ||
	fail "host $HOST_INDEX: node $OTHER's registers still readable"
meet refused

# ---- both jobs at the same time
c0=$(world_cycle)
sacc_job "host $HOST_INDEX, node $MINE" "$DEV" "$SIZE"
c1=$(world_cycle)
echo "TWO-HOSTS-JOB host $HOST_INDEX node $MINE: world cycles $c0 $c1"
meet jobs-done

# ---- A gives NAA 1 back; B takes it and runs a job on it
# scratch DEV [VALUE]: the accelerator's scratch register (BAR0 + 0x10) through
# /dev/mem, with sample_accel unbound (a driver's regions are not open to /dev/mem)
scratch() {
	local a
	a=$(printf '0x%x' $(( $(sed -n 1p "/sys/bus/pci/devices/$1/resource" | cut -d' ' -f1) + 0x10 )))
	echo "$1" >/sys/bus/pci/drivers/sample_accel/unbind
	devmem "$a" 32 $2
	echo "$1" >/sys/bus/pci/drivers/sample_accel/bind
}
LEFT=0x5ca1ab1e		# what host A leaves in the accelerator
if [ "$HOST_INDEX" = 0 ]; then
	scratch "$DEV" "$LEFT"
	hex_eq "$(scratch "$DEV")" "$LEFT" &&
		pass "host A: $LEFT left in the scratch register of $DEV" ||
		fail "host A: $LEFT left in the scratch register of $DEV"
	naactl detach "$NAA_A" && pass "host A: naactl detach $NAA_A" || fail "host A: naactl detach $NAA_A"
	lspci -D | grep -q "^$ATTACH_DOMAIN:" && fail "host A: domain $ATTACH_DOMAIN gone" ||
		pass "host A: domain $ATTACH_DOMAIN gone"
fi
meet a-detached
if [ "$HOST_INDEX" = 1 ]; then
	DEV_B=$DEV
	attach_bound "$NAA_A" && {
		# the handover reset (secondary bus reset at attach): nothing of A's is left
		v=$(scratch "$DEV")
		[ -n "$v" ] && hex_eq "$v" 0 && pass "host B: node $NAA_A's accelerator was reset at the handover (scratch 0, not A's $LEFT)" ||
			fail "host B: node $NAA_A's accelerator was reset at the handover (scratch $v)"
		if driver_bound "$DEV" sample_accel; then
			sacc_job "host B, node $NAA_A after host A" "$DEV" "$SIZE"
		else
			fail "host B: sample_accel bound to node $NAA_A's accelerator after the handover"
		fi
	}
	naactl list
	for n in $NAA_A $NAA_B; do
		naactl detach "$n" && pass "host B: naactl detach $n" || fail "host B: naactl detach $n"
	done
	echo "(host B's first accelerator was $DEV_B)"
fi

# ---- a race: both hosts attach node A at the same moment, RACE_ROUNDS times
# (default 20): exactly one wins each round (the other gets "held by"); the
# NIC's own.owner names the winner; the winner detaches
rounds=$(sed -n 's/.*RACE_ROUNDS=\([0-9]*\).*/\1/p' /proc/cmdline); rounds=${rounds:-20}
set -- $HOST_NODES
if [ "$HOST_INDEX" = 0 ]; then PEER=$2; else PEER=$1; fi
won=0
for r in $(seq 1 "$rounds"); do
	meet "race-$r"
	out=$(naactl attach "$NAA_A" 2>&1); rc=$?
	own=$(naactl regs "$NAA_A" own.owner 2>&1 | sed -n 's/.* node=\(0x\)\{0,1\}\([0-9a-f]*\) held=\([01]\) .*/\2 \3/p')
	if [ $rc -eq 0 ]; then
		won=$((won + 1))
		[ "$own" = "$(printf '%x' "$HOST_NODE") 1" ] && pass "race $r: host $HOST_INDEX won, own.owner = node $HOST_NODE" ||
			fail "race $r: host $HOST_INDEX won but own.owner is '$own'"
	else
		[ $rc -eq 5 ] && [ "$out" = "naactl: node $NAA_A is held by node $PEER" ] &&
			pass "race $r: host $HOST_INDEX lost: $out" || fail "race $r: host $HOST_INDEX lost with exit $rc: $out"
	fi
	meet "race-$r-decided"
	[ $rc -eq 0 ] && { naactl detach "$NAA_A" >/dev/null || fail "race $r: detach"; }
done
echo "TWO-HOSTS-RACE host $HOST_INDEX won $won of $rounds"

# ---- two NAAs each, in a world with four or more (greenice: 8): A takes the 1st
# and 3rd of the topology's NAAs, B the 2nd and 4th; each runs a job on both while
# the other host does the same; then all four are given back
set -- $NAA_NODES
if [ $# -ge 4 ]; then
	if [ "$HOST_INDEX" = 0 ]; then PAIR="$1 $3"; else PAIR="$2 $4"; fi
	meet two-each
	DEVS=""
	for n in $PAIR; do
		attach_bound "$n" || { finish; exit 1; }
		DEVS="$DEVS $DEV"
	done
	naactl list
	meet two-each-attached
	set -- $PAIR
	for d in $DEVS; do
		c0=$(world_cycle)
		sacc_job "host $HOST_INDEX, node $1 of two" "$d" "$SIZE"
		echo "TWO-EACH-JOB host $HOST_INDEX node $1: world cycles $c0 $(world_cycle)"
		shift
	done
	meet two-each-done
	for n in $PAIR; do
		naactl detach "$n" && pass "host $HOST_INDEX: naactl detach $n (two each)" ||
			fail "host $HOST_INDEX: naactl detach $n (two each)"
	done
	meet two-each-detached
fi

# ---- attach --any N: the first N free NAAs, all or none. A holds NAA A; B asks
# for 2 (gets none: NAA B is detached again), then for 1 (gets NAA B); A asks
# for 1 more (none left). Written for a world of two NAAs (torus-2x2x1-2hosts): in
# a larger one B's "--any 2" would get two of the others.
anyrow() { naactl list --all 2>/dev/null | awk -v n="$1" '$1 == n { print $3, $4 }'; }
set -- $NAA_NODES
if [ $# -ne 2 ]; then
	echo "two-hosts: the attach --any checks need a world of two NAAs (this one has $#); cosim-two-hosts runs them"
	meet end
	naa_stats
	naa_dmesg_clean
	finish
	exit
fi
meet any
[ "$HOST_INDEX" = 0 ] && must "host A: attach $NAA_A" naactl attach "$NAA_A"
meet any-a-holds
if [ "$HOST_INDEX" = 1 ]; then
	out=$(naactl attach --any 2 2>&1); rc=$?
	echo "$out"
	[ $rc -eq 5 ] && echo "$out" | grep -q "only 1 of 2 NAAs could be had" &&
		[ "$(anyrow "$NAA_B")" = "free -" ] && [ "$(anyrow "$NAA_A")" = "held $PEER" ] &&
		pass "host B: attach --any 2 with one NAA free: refused (exit 5), node $NAA_B free again" ||
		fail "host B: attach --any 2 with one NAA free (exit $rc; node $NAA_B: $(anyrow "$NAA_B"))"
	out=$(naactl attach --any 1 2>&1); rc=$?
	echo "$out"
	[ $rc -eq 0 ] && echo "$out" | grep -q "^node $NAA_B attached" &&
		[ "$(anyrow "$NAA_B")" = "attached $HOST_NODE" ] &&
		pass "host B: attach --any 1 took node $NAA_B" ||
		fail "host B: attach --any 1 (exit $rc)"
fi
meet any-b-done
if [ "$HOST_INDEX" = 0 ]; then
	out=$(naactl attach --any 1 2>&1); rc=$?
	echo "$out"
	[ $rc -eq 5 ] && echo "$out" | grep -q "only 0 of 1 NAAs could be had" &&
		pass "host A: attach --any 1 with no NAA free: refused (exit 5)" ||
		fail "host A: attach --any 1 with no NAA free (exit $rc)"
	must "host A: detach $NAA_A" naactl detach "$NAA_A"
fi
meet any-a-done
[ "$HOST_INDEX" = 1 ] && must "host B: detach $NAA_B" naactl detach "$NAA_B"
meet end

# ---- the holder dies (issue 11): A attaches NAA A and never gives it back. Its
# scenario ends there and its guest ends with a kernel crash instead of a power-off
# (/tmp/scenario-crash, sim/guest/mkimage.sh): its QEMU exits with A's claim still in
# NAA A's NIC. B sees A gone (a barrier A never reaches), finds NAA A held by A, frees
# it by a forced release (the administrator's way, docs/security.md) and runs a job on it.
if [ "$HOST_INDEX" = 0 ]; then
	must "host A: attach $NAA_A, to be left held" naactl attach "$NAA_A"
	meet a-holds
	naa_stats
	naa_dmesg_clean
	echo "two-hosts: host A crashes now, holding node $NAA_A"
	touch /tmp/scenario-crash
	finish
	exit
fi
meet a-holds
barrier a-crashed 600 && fail "host B: host A's crash (barrier a-crashed answered: $SIMCTL_REPLY)" || {
	echo "$SIMCTL_REPLY" | grep -q "host 0 has gone" &&
		pass "host B: host A has gone (its QEMU exited: $SIMCTL_REPLY)" ||
		fail "host B: host A's crash (barrier: $SIMCTL_REPLY)"
}
[ "$(anyrow "$NAA_A")" = "held $PEER" ] &&
	pass "host B: node $NAA_A still held by the crashed host A (list --all)" ||
	fail "host B: node $NAA_A still held by the crashed host A (list --all: $(anyrow "$NAA_A"))"
out=$(naactl attach "$NAA_A" 2>&1); rc=$?
[ $rc -eq 5 ] && [ "$out" = "naactl: node $NAA_A is held by node $PEER" ] &&
	pass "host B: attach of node $NAA_A refused: held by the crashed host (exit 5)" ||
	fail "host B: attach of node $NAA_A refused: held by the crashed host (exit $rc: $out)"
must "host B: naactl release --force $NAA_A" naactl release --force "$NAA_A"
[ "$(anyrow "$NAA_A")" = "free -" ] && pass "host B: node $NAA_A free after the forced release" ||
	fail "host B: node $NAA_A free after the forced release ($(anyrow "$NAA_A"))"
if attach_bound "$NAA_A"; then
	sacc_job "host B, node $NAA_A after host A crashed" "$DEV" "$SIZE"
	must "host B: detach $NAA_A" naactl detach "$NAA_A"
fi
naa_stats
naa_dmesg_clean
finish
