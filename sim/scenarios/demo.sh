#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Demo: what a Linux guest sees of the co-simulated NIC, and a network-attached
# accelerator used by its ordinary driver.  Runs on cosimd's default topology
# (no `topology:` line): the host NIC and the NAA node(s) in the world.
. /lib/scenario-lib.sh
. /lib/naa-lib.sh
say() { echo; echo "### $*"; }
# drop kernel log lines already shown
DMESG_SEEN=0
dmesg_new() { dmesg | tail -n +$((DMESG_SEEN + 1)) | grep -E "$1"; DMESG_SEEN=$(dmesg | wc -l); }
DMESG_SEEN=$(dmesg | wc -l)

say "the co-simulated world ($TOPOLOGY): host node $HOST_NODE, NAA node(s) $NAA_NODES"
grep -v '^#' "$TOPOLOGY"

say "lspci -nn -v: the NIC RTL, enumerated by the guest's PCI core"
lspci -nn -v -s "$NIC_BDF"

say "insmod extoll.ko $EXTOLL_KO_PARAMS"
check "insmod extoll" insmod /lib/modules/extoll.ko $EXTOLL_KO_PARAMS || { finish; exit 1; }
say "driver messages"
dmesg_new 'extoll'
say "version registers through sysfs ($NIC_DEV)"
for a in rtl_version build node_id role irq_mode scratch; do
	[ -r "$NIC_DEV/$a" ] && printf '  %-12s %s\n' "$a" "$(cat "$NIC_DEV/$a")"
done
if command -v devlink >/dev/null; then
	say "devlink dev info"
	devlink dev info 2>&1
fi
say "scratch register round trip"
val=$(rand64)
echo "$val" >"$NIC_DEV/scratch"
got=$(cat "$NIC_DEV/scratch")
echo "  wrote $val, read $got"
hex_eq "$got" "$val" && pass "scratch round trip" || fail "scratch round trip"

say "insmod naa_bus.ko window_mb=$NAA_WINDOW_MB, sample_accel.ko job_timeout_ms=$SACC_JOB_TIMEOUT_MS (the accelerator's ordinary PCI driver)"
check "insmod naa_bus" insmod /lib/modules/naa_bus.ko window_mb="$NAA_WINDOW_MB"
sacc_insmod

say "naactl route: every node's routing tables, programmed in-band from this host"
check "naactl route" naactl route --topology "$TOPOLOGY"

ACCELS=
for n in $NAA_NODES; do
	say "naactl attach $n"
	out=$(naactl attach "$n" 2>&1)
	rc=$?
	echo "$out"
	dom=$(echo "$out" | sed -n 's/.*PCI domain \([0-9a-f]*\),.*/\1/p')
	[ $rc -eq 0 ] && [ -n "$dom" ] && pass "naactl attach $n" || { fail "naactl attach $n (exit $rc)"; continue; }
	ACCELS="$ACCELS $dom:01:00.0"
done
# the story needs an accelerator: a world without NAA nodes, or none attached, fails
[ -n "$ACCELS" ] && pass "accelerator(s) attached:$ACCELS" || fail "an accelerator attached (NAA nodes: '$NAA_NODES')"
dmesg_new 'naa_bus|sample_accel' | grep -v 'enabling device'

say "lspci -D -tv: the remote hierarchies as new PCI domains"
lspci -D -tv

for dev in $ACCELS; do
	say "lspci -vv -s $dev: the remote accelerator (config space through the network)"
	lspci -vv -s "$dev"
	drv=$(basename "$(readlink "/sys/bus/pci/devices/$dev/driver" 2>/dev/null)")
	[ "$drv" = sample_accel ] && pass "$dev: driver sample_accel bound" || fail "$dev: driver sample_accel bound (is '$drv')"

	irq=$(ls "/sys/bus/pci/devices/$dev/msi_irqs" 2>/dev/null | sort -n | head -1)
	say "an accelerator job over the network: sacc-test -d $dev (4 MiB: DMA host->device, CRC-32, DMA device->host)"
	c0=$( [ -n "$irq" ] && grep "^ *$irq:" /proc/interrupts | awk '{ print $2 }')
	sacc-test -d "$dev" >/tmp/sacc.out 2>&1
	rc=$?
	cat /tmp/sacc.out
	[ $rc -eq 0 ] && [ "$(tail -n 1 /tmp/sacc.out)" = PASS ] && pass "$dev: sacc-test verified (crc32 match, data identical)" ||
		fail "$dev: sacc-test (exit $rc)"
	if [ -n "$irq" ]; then
		say "/proc/interrupts: the accelerator's MSI-X, forwarded by the NIC's notification queue (before the job: ${c0:-?})"
		head -n 1 /proc/interrupts
		grep "^ *$irq:" /proc/interrupts
	else
		echo "(no interrupt vector: irq_mode $(cat /sys/bus/pci/devices/$dev/irq_mode))"
	fi
done

say "naactl detach, rmmod"
for n in $NAA_NODES; do naactl detach "$n" || fail "naactl detach $n"; done
rmmod sample_accel naa_bus && rmmod extoll && pass "rmmod" || fail "rmmod"
dmesg | grep -E 'WARNING|BUG|Oops' && fail "dmesg clean"
finish
