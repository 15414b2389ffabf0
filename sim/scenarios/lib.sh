# SPDX-License-Identifier: Apache-2.0
# Helpers for scenario scripts (installed in the guest as /lib/scenario-lib.sh).
# A scenario sources this, calls pass/fail/check, and ends with `finish`.
NPASS=0
NFAIL=0
NIC_BDF=${NIC_BDF:-0000:00:02.0}
NIC_DEV=/sys/bus/pci/devices/$NIC_BDF
# the co-simulated world (sim/topologies/, installed by mkimage.sh)
TOPOLOGY=/etc/extoll/topology
# several hosts (sim/run: one QEMU per host node): this guest's index, from the kernel
# command line (sim.host=I), and its node: the I-th of /etc/extoll/host-nodes
HOST_INDEX=$(sed -n 's/.*sim\.host=\([0-9]*\).*/\1/p' /proc/cmdline 2>/dev/null)
HOST_INDEX=${HOST_INDEX:-0}
HOST_NODES=$(cat /etc/extoll/host-nodes 2>/dev/null)
NHOSTS=$(echo $HOST_NODES | wc -w)
[ "$NHOSTS" -ge 1 ] || NHOSTS=1
HOST_NODE=$(echo $HOST_NODES | cut -d' ' -f$((HOST_INDEX + 1)))
[ -n "$HOST_NODE" ] || HOST_NODE=$(cat /etc/extoll/host-node 2>/dev/null)
HOST_NODE=${HOST_NODE:-0}
NAA_NODES=$(cat /etc/extoll/naa-nodes 2>/dev/null)
# RRA_TIMEOUT_US: extoll's rra_timeout_us for the simulator.  A tunnelled
# config request takes well under 10 ms of wall time here (see the
# NAA-ATTACH lines); the default 5 ms is too tight when the guest and the
# RTL share one CPU (a loaded machine timed out a local naactl regs), 100 ms
# leaves margin and still fails a missing node in 2 x 100 ms.
RRA_TIMEOUT_US=${RRA_TIMEOUT_US:-100000}
# RRA_GRACE_CYCLES: extoll's rra_grace_cycles. The guest's clock runs at wall
# pace, the fabric here at 5,000-200,000 cycles per second depending on the
# machine's load: at the low end 100 ms is 600 cycles, and liveness probes timed
# out behind a 1 MiB put (two NAAs declared dead in one run: stop 22's CI failure
# of rma-accel). An unanswered request also waits until the NIC has counted
# this many more cycles (80 us at 250 MHz on hardware), so a timeout here means
# the fabric did not answer, not that the machine was busy.
RRA_GRACE_CYCLES=${RRA_GRACE_CYCLES:-20000}
EXTOLL_KO_PARAMS="rra_timeout_us=$RRA_TIMEOUT_US rra_grace_cycles=$RRA_GRACE_CYCLES"
# register offsets generated from hw/include/extoll_regs.h at image build
[ -f /lib/extoll_regs.sh ] && . /lib/extoll_regs.sh

pass() { NPASS=$((NPASS + 1)); LAST_CHECK="PASS $*"; echo "PASS $*"; }
fail() { NFAIL=$((NFAIL + 1)); LAST_CHECK="FAIL $*"; echo "FAIL $*"; }
# a scenario shell that stops before finish (an arithmetic error on a tool's error
# message, a failed `exit`, a signal) says so, and after which check: the console
# log then names the place instead of ending silently (SCENARIO-EXIT 2)
LAST_CHECK="(none yet)"
SCENARIO_FINISHED=0
trap 'rc=$?; [ "$SCENARIO_FINISHED" = 1 ] || echo "FAIL the scenario shell stopped early (status $rc; $NPASS passed, $NFAIL failed so far); the last check: $LAST_CHECK"' EXIT
# check WHAT COMMAND...: PASS/FAIL by the command's exit status, which it returns
# (0 / 1), so `check ... || { finish; exit 1; }` stops a scenario at a failed step
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; return 1; fi
}
# finish: summary line, exit status 1 if anything failed or nothing passed (a scenario
# that checked nothing proves nothing; sim/run also fails a SUMMARY without a pass)
finish() {
	[ "$NPASS" -gt 0 ] || fail "the scenario passed at least one check (none did)"
	echo "SUMMARY $NPASS passed, $NFAIL failed"
	SCENARIO_FINISHED=1
	[ "$NFAIL" -eq 0 ]
}
# bar_addr N: physical start address of BAR N of the NIC (from sysfs)
bar_addr() { sed -n "$(($1 + 1))p" "$NIC_DEV/resource" | cut -d' ' -f1; }
# reg_rd OFFSET: 64-bit read of a BAR0 register through /dev/mem (driver not bound)
reg_rd() { devmem $(printf '0x%x' $(($(bar_addr 0) + $1))) 64; }
# random 64-bit value (hex, 0x prefix)
rand64() { printf '0x%s\n' "$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')"; }
# driver_bound DEV DRIVER: wait (up to 60 s of guest time: generous, the guest's clock runs
# at wall-clock pace and make test runs two tests at a time) until DRIVER is bound to DEV
driver_bound() {
	local i=0
	while [ $i -lt 600 ]; do
		[ "$(basename "$(readlink "/sys/bus/pci/devices/$1/driver" 2>/dev/null)")" = "$2" ] &&
			return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# hex_eq A B: numeric equality of two hex strings (case and leading zeros ignored);
# false unless both are hex numbers (an empty or failed read is equal to nothing)
hex_eq() {
	local a b
	a=$(echo "${1#0x}" | tr 'A-F' 'a-f')
	b=$(echo "${2#0x}" | tr 'A-F' 'a-f')
	case "$a" in ''|*[!0-9a-f]*) return 1 ;; esac
	case "$b" in ''|*[!0-9a-f]*) return 1 ;; esac
	a=$(echo "$a" | sed 's/^0*//')
	b=$(echo "$b" | sed 's/^0*//')
	[ "$a" = "$b" ]
}
# image-editing helpers of the flash scenarios (bad images made from good ones):
# wr FILE BYTES OFFSET: write printf-escaped BYTES into FILE at OFFSET, in place
wr() { printf "$2" | dd of="$1" bs=1 seek="$3" conv=notrunc 2>/dev/null; }
# crc_le FILE: zlib CRC-32 of FILE as printf octal escapes, little-endian (gzip's trailer)
crc_le() { gzip -c <"$1" | tail -c 8 | head -c 4 | od -An -to1 | sed 's/ *\([0-7][0-7]*\)/\\\1/g'; }
# flip_byte FILE OFFSET: invert every bit of one byte (a fixed value could equal the
# byte already there: then the "bad" image would be the good one)
flip_byte() {
	local v
	v=$(( $(dd if="$1" bs=1 skip="$2" count=1 2>/dev/null | od -An -tu1) ))
	wr "$1" "$(printf '\\%03o' $(( v ^ 255 )))" "$2"
}
# simctl COMMAND...: a fault-injection command to cosimd over the guest's second
# serial port (docs/cosim.md "Fault injection": link-down|link-up NODE PORT,
# kill|revive NODE, ber RATE, cycle); prints and keeps cosimd's answer in
# SIMCTL_REPLY ("ok CYCLE what" or "error ..."), SIMCTL_CYCLE the world cycle;
# returns 0 on ok
SIMCTL_TTY=${SIMCTL_TTY:-/dev/ttyS1}
SIMCTL_WAIT=${SIMCTL_WAIT:-60}
simctl() {
	if [ -z "${SIMCTL_OPEN:-}" ]; then
		# raw, no echo: cosimd's answers must not go back to it as commands
		stty -F "$SIMCTL_TTY" raw -echo || return 1
		exec 9<>"$SIMCTL_TTY" || return 1
		SIMCTL_OPEN=1
	fi
	SIMCTL_REPLY=
	echo "$*" >&9
	read -r -t "$SIMCTL_WAIT" SIMCTL_REPLY <&9
	SIMCTL_REPLY=$(printf '%s' "$SIMCTL_REPLY" | tr -d '\r')
	echo "simctl $*: ${SIMCTL_REPLY:-no answer}"
	SIMCTL_CYCLE=$(echo "$SIMCTL_REPLY" | sed -n 's/^ok \([0-9]*\).*/\1/p')
	case $SIMCTL_REPLY in ok*) return 0 ;; *) return 1 ;; esac
}
# barrier NAME [SECONDS]: wait until every host of the world has reached barrier NAME
# (cosimd answers all of them at once; default wait 1800 s of guest time); 0 when
# all came, else the reason is in SIMCTL_REPLY (a host that has gone, a timeout)
barrier() {
	local t0 t1 rc
	t0=$(cut -d' ' -f1 /proc/uptime)
	SIMCTL_WAIT=${2:-1800} simctl barrier "$1"
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "BARRIER $1: host $HOST_INDEX waited $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
	return $rc
}
