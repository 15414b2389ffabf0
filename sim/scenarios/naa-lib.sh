# SPDX-License-Identifier: Apache-2.0
# Helpers for the NAA scenarios (installed in the guest as /lib/naa-lib.sh,
# sourced after /lib/scenario-lib.sh).
#
# RRA_TIMEOUT_US (scenario-lib.sh): extoll's rra_timeout_us for the simulator.
# NAA_WINDOW_MB: naa_bus window_mb (the accelerator's 64M prefetchable BAR
# plus its control BAR need 128).
NAA_WINDOW_MB=${NAA_WINDOW_MB:-128}
# SACC_JOB_TIMEOUT_MS: sample_accel's job_timeout_ms for the simulator. The
# driver's default (10 s of wall clock) is meant for hardware; a 4 MiB job
# through the co-simulated fabric takes seconds of wall clock under TCG and more
# on a loaded machine (a CI run timed out at 10 s with two tests beside it).
SACC_JOB_TIMEOUT_MS=${SACC_JOB_TIMEOUT_MS:-120000}
RRA_DIR=$NIC_DEV/rra

# now_ns: GNU date +%s%N (the image has coreutils' date in /usr/bin; busybox
# sh prefers its own applet, whose date has no %N: call it by path)
now_ns() {
	if [ -x /usr/bin/date ]; then /usr/bin/date +%s%N
	else awk '{ printf "%d\n", $1 * 1000000000 }' /proc/uptime; fi
}
now_ms() { echo $(( $(now_ns) / 1000000 )); }

# sacc_bar_test LABEL DEV WHAT: bar-test (1/2/4/8-byte stores and loads through
# BAR2, WHAT) with sample_accel unbound from DEV, then bound again
sacc_bar_test() {
	local t0 t1 rc
	echo "$2" >/sys/bus/pci/drivers/sample_accel/unbind &&
		[ ! -e "/sys/bus/pci/devices/$2/driver" ] && pass "unbind sample_accel from $2" ||
		fail "unbind sample_accel from $2"
	t0=$(now_ns)
	bar-test -d "$2"
	rc=$?
	t1=$(now_ns)
	echo "BAR-TEST $1: $(( (t1 - t0) / 1000000 )) ms wall (guest clock), exit $rc"
	[ $rc -eq 0 ] && pass "bar-test: 1/2/4/8-byte stores and loads through $3" ||
		fail "bar-test (exit $rc)"
	echo "$2" >/sys/bus/pci/drivers/sample_accel/bind
	driver_bound "$2" sample_accel && pass "bind sample_accel to $2 again" ||
		fail "bind sample_accel to $2 again"
}

# sacc_job LABEL DEV SIZE [sacc-test options]: one sacc-test job (DMA host->device,
# CRC-32 on the device, DMA back), its output and guest wall time (SACC_MS) in the
# log, pass or fail; returns 0 on PASS
sacc_job() {
	local label=$1 dev=$2 size=$3 t0 t1 rc
	shift 3
	t0=$(now_ns)
	sacc-test -d "$dev" -s "$size" "$@" >/tmp/sacc.out 2>&1
	rc=$?
	t1=$(now_ns)
	cat /tmp/sacc.out
	SACC_MS=$(( (t1 - t0) / 1000000 ))
	echo "SACC-TEST $label: $SACC_MS ms wall (guest clock), exit $rc"
	if [ $rc -eq 0 ] && [ "$(tail -n 1 /tmp/sacc.out)" = PASS ]; then
		pass "$label: sacc-test $size host->device, crc32, device->host"
	else
		fail "$label: sacc-test $size (exit $rc)"
		return 1
	fi
}

# naa_setup: modules, routing tables
naa_setup() {
	echo "topology ($TOPOLOGY): $(grep -v '^#' "$TOPOLOGY" | tr '\n' ';'); host node $HOST_NODE, naa nodes: $NAA_NODES"
	check "insmod extoll.ko $EXTOLL_KO_PARAMS" \
		insmod /lib/modules/extoll.ko $EXTOLL_KO_PARAMS || return 1
	check "insmod naa_bus.ko window_mb=$NAA_WINDOW_MB" \
		insmod /lib/modules/naa_bus.ko window_mb="$NAA_WINDOW_MB" || return 1
	naactl info
	local t0 t1 topo=$TOPOLOGY
	t0=$(now_ms)
	if naactl route --topology "$topo"; then
		t1=$(now_ms)
		pass "naactl route --topology $topo ($((t1 - t0)) ms)"
	else
		fail "naactl route --topology $topo"
		return 1
	fi
}

# sacc_teardown [LABEL]: detach NODE, rmmod sample_accel, the statistics, a
# clean dmesg
sacc_teardown() {
	naactl detach "$NODE" >/dev/null && pass "naactl detach $NODE${1:+ ($1)}" ||
		fail "naactl detach $NODE${1:+ ($1)}"
	rmmod sample_accel && pass "rmmod sample_accel" || fail "rmmod sample_accel"
	naa_stats
	naa_dmesg_clean
}

# sacc_setup [sample_accel.ko parameters]: naa_setup, then the accelerator's
# ordinary driver; NODE = the first NAA node. Returns non-zero on failure.
sacc_setup() {
	naa_setup || return 1
	sacc_insmod "$@" || return 1
	NODE=${NAA_NODES%% *}
}

# sacc_insmod [sample_accel.ko parameters]: insmod sample_accel.ko as a check;
# job_timeout_ms=SACC_JOB_TIMEOUT_MS unless the parameters set it
sacc_insmod() {
	case " $* " in
	*" job_timeout_ms="*) ;;
	*) set -- "$@" job_timeout_ms="$SACC_JOB_TIMEOUT_MS" ;;
	esac
	check "insmod sample_accel.ko $*" insmod /lib/modules/sample_accel.ko "$@"
}

rra_count() { cat "$RRA_DIR/$1" 2>/dev/null || echo 0; }

# naa_attach NODE: sets ATTACH_DOMAIN, ATTACH_ROOT_BUS, ATTACH_MS, ATTACH_REQS, ATTACH_TIMEOUTS
naa_attach() {
	local out r0 to0 t0 t1
	r0=$(rra_count requests)
	to0=$(rra_count timeouts)
	t0=$(now_ns)
	out=$(naactl attach "$1" 2>&1)
	local rc=$?
	t1=$(now_ns)
	echo "$out"
	ATTACH_MS=$(( (t1 - t0) / 1000000 ))
	ATTACH_REQS=$(( $(rra_count requests) - r0 ))
	ATTACH_TIMEOUTS=$(( $(rra_count timeouts) - to0 ))
	ATTACH_DOMAIN=$(echo "$out" | sed -n 's/.*PCI domain \([0-9a-f]*\),.*/\1/p')
	ATTACH_ROOT_BUS=$(echo "$out" | sed -n 's/.*root bus \([0-9a-f]*:[0-9a-f]*\).*/\1/p')
	if [ $rc -eq 0 ] && [ -n "$ATTACH_DOMAIN" ]; then
		pass "naactl attach $1 -> domain $ATTACH_DOMAIN ($ATTACH_MS ms)"
	else
		fail "naactl attach $1 (exit $rc)"
		dmesg | tail -n 20
		return 1
	fi
}

# naa_check_domain DDDD: root port at DDDD:00:00.0, accelerator 1ee7:0100 at DDDD:01:00.0
naa_check_domain() {
	local rp dev
	rp=$(lspci -D -n -s "$1:00:00.0")
	dev=$(lspci -D -n -s "$1:01:00.0")
	echo "$rp" | grep -q "^$1:00:00.0 .*1ee7:0002" && pass "root port $1:00:00.0 [1ee7:0002]" ||
		fail "root port $1:00:00.0 [1ee7:0002] ('$rp')"
	echo "$dev" | grep -q "^$1:01:00.0 .*1ee7:0100" && pass "accelerator $1:01:00.0 [1ee7:0100]" ||
		fail "accelerator $1:01:00.0 [1ee7:0100] ('$dev')"
}

naa_stats() {
	local f
	for f in requests timeouts errors stale; do printf 'rra/%s=%s ' "$f" "$(rra_count $f)"; done
	echo
}

naa_dmesg_clean() {
	if dmesg | grep -E 'WARNING|BUG|Oops|Call Trace'; then fail "dmesg free of WARNING/BUG/Oops"
	else pass "dmesg free of WARNING/BUG/Oops"; fi
	dmesg | grep -E 'extoll|naa' | tail -n 30
}
