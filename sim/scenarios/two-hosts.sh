#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Two hosts on one fabric (topology torus-2x2x1-2hosts: hosts 0 and 3, NAAs 1 and 2;
# sim/run starts one QEMU per host, both run this script, HOST_INDEX tells which).
# Host A (index 0) attaches NAA 1, host B (index 1) attaches NAA 2; both run a
# sacc-test job at the same time (barriers before and after); A detaches 1, then B
# attaches 1 and runs a job on it with correct results.  The hosts meet at barriers
# cosimd provides (`barrier NAME` on the control channel, scenario-lib.sh).
# Kernel command line (SIM_APPEND; KEY=VALUE becomes the scenario's environment):
# SACC_SIZE (default 256K) per job, SACC_ARGS (sample_accel.ko parameters, e.g.
# job_timeout_ms=120000), ROUTE_ARGS (naactl route options, e.g. --all-inports: one
# table write per destination), RRA_TIMEOUT_US (scenario-lib.sh) - for large, slow
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
# must WHAT COMMAND...: PASS, or FAIL and stop (scenario-lib's check returns 0 either way)
must() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; finish; exit 1; fi
}
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

must "insmod extoll.ko rra_timeout_us=$RRA_TIMEOUT_US" \
	insmod /lib/modules/extoll.ko rra_timeout_us="$RRA_TIMEOUT_US"
must "insmod naa_bus.ko window_mb=$NAA_WINDOW_MB" \
	insmod /lib/modules/naa_bus.ko window_mb="$NAA_WINDOW_MB"
must "insmod sample_accel.ko ${SACC_ARGS:-}" insmod /lib/modules/sample_accel.ko ${SACC_ARGS:-}
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
if [ "$HOST_INDEX" = 0 ]; then
	naactl detach "$NAA_A" && pass "host A: naactl detach $NAA_A" || fail "host A: naactl detach $NAA_A"
	lspci -D | grep -q "^$ATTACH_DOMAIN:" && fail "host A: domain $ATTACH_DOMAIN gone" ||
		pass "host A: domain $ATTACH_DOMAIN gone"
fi
meet a-detached
if [ "$HOST_INDEX" = 1 ]; then
	DEV_B=$DEV
	attach_bound "$NAA_A" && sacc_job "host B, node $NAA_A after host A" "$DEV" "$SIZE"
	naactl list
	for n in $NAA_A $NAA_B; do
		naactl detach "$n" && pass "host B: naactl detach $n" || fail "host B: naactl detach $n"
	done
	echo "(host B's first accelerator was $DEV_B)"
fi

# ---- a race: both hosts attach node A at the same moment, RACE_ROUNDS times
# (default 3): exactly one wins each round (the other gets "held by"); the
# NIC's own.owner names the winner; the winner detaches
rounds=$(sed -n 's/.*RACE_ROUNDS=\([0-9]*\).*/\1/p' /proc/cmdline); rounds=${rounds:-3}
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
meet end
naa_stats
naa_dmesg_clean
finish
