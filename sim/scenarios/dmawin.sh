#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The accelerator's DMA windows (docs/security.md, issue 11; topology direct:
# host 0 <-> naa 1). Attaching grants the node's devices the interrupt window
# (write only) and the host's System RAM (naa_bus, dma.c) and enforces it:
# naactl dma shows it, sacc-test passes. Then the holder narrows its grant
# with plain register writes: RAM read only (the job's device->host DMA is
# dropped: sacc-test fails on the stale pattern it left in its buffer, the
# node counts refused writes), then no RAM at all (the job's host->device
# reads are answered Unsupported Request: the job fails with an error);
# both end cleanly (no hang, no oops) while the interrupts still arrive.
# The grant restored, the job passes again. Detach clears the windows.
# topology: direct
. /lib/scenario-lib.sh
. /lib/naa-lib.sh
SIZE=64K

sacc_setup || { finish; exit 1; }
naa_attach "$NODE" || { finish; exit 1; }
DEV=$ATTACH_DOMAIN:01:00.0
driver_bound "$DEV" sample_accel && pass "sample_accel bound to $DEV" ||
	{ fail "sample_accel bound to $DEV"; finish; exit 1; }

# dma_field NAME: a number of naactl -j dma's output
dma_field() { naactl -j dma "$NODE" | sed -n "s/.*\"$1\":\([0-9a-z]*\).*/\1/p"; }

# ---- what attach granted
out=$(naactl dma "$NODE" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -q "^dma $NODE: enforced" &&
	echo "$out" | grep -Eq "^  window 0: 0xfd00000000-0xfd000fffff write\$" &&
	echo "$out" | grep -Eq "^  window 1: 0x[0-9a-f]+-0x[0-9a-f]+ read write\$" &&
	pass "naactl dma: enforced, the notify window write only, RAM read/write" ||
	fail "naactl dma: enforced, the notify window write only, RAM read/write (exit $rc)"
out=$(naactl -j dma "$NODE" 2>&1); echo "$out"
echo "$out" | grep -q "^{\"node\":$NODE,\"enforce\":true,\"refused_reads\":0,\"refused_writes\":0,\"last_addr\":null,\"windows\":\[{\"window\":0," &&
	pass "naactl -j dma" || fail "naactl -j dma"
sacc_job "granted" "$DEV" "$SIZE"

# ---- narrow the grant: every RAM window (1..7) read only, then off
# windows 1..7 as OFFSET=VALUE (offsets from the register table: naactl regs -j)
wins=""
for i in 1 2 3 4 5 6 7; do
	j=$(naactl -j regs "$NODE" dma.win_base$i)
	off=$(echo "$j" | sed -n 's/.*"offset":"\(0x[0-9a-f]*\)".*/\1/p')
	v=$(echo "$j" | sed -n 's/.*"value":"\(0x[0-9a-f]*\)".*/\1/p')
	wins="$wins $off=$v"
done
echo "RAM windows (offset=value):$wins"
# set_ram MASK: keep only the permission bits of MASK (1 read, 2 write) in windows 1..7
set_ram() {
	local w off v
	for w in $wins; do
		off=${w%%=*}; v=${w#*=}
		naactl rra write "$NODE" "$off" $(( v & ~3 | v & $1 )) >/dev/null ||
			fail "naactl rra write $off"
	done
}
w0=$(dma_field refused_writes); r0=$(dma_field refused_reads)
set_ram 1
naactl dma "$NODE"
t0=$(now_ns)
sacc-test -d "$DEV" -s "$SIZE" >/tmp/sacc.out 2>&1; rc=$?
ms=$(( ($(now_ns) - t0) / 1000000 ))
cat /tmp/sacc.out
w1=$(dma_field refused_writes)
[ $rc -eq 1 ] && [ "$(tail -n 1 /tmp/sacc.out)" = FAIL ] &&
	pass "RAM read only: sacc-test fails cleanly (exit 1, $ms ms): the device->host data never arrived" ||
	fail "RAM read only: sacc-test fails cleanly (exit $rc, $ms ms)"
grep -q "read back 0x5a" /tmp/sacc.out && pass "host memory untouched: the buffer still holds sacc-test's 0x5a pattern" ||
	fail "host memory untouched: the buffer still holds sacc-test's 0x5a pattern"
[ "$w1" -gt "$w0" ] && pass "refused writes counted on the node ($w0 -> $w1)" ||
	fail "refused writes counted on the node ($w0 -> $w1)"
out=$(naactl dma "$NODE"); echo "$out"
echo "$out" | grep -q "last write at 0x" && pass "naactl dma: the last refused request, a write" ||
	fail "naactl dma: the last refused request, a write"

set_ram 0
sacc-test -d "$DEV" -s "$SIZE" >/tmp/sacc.out 2>&1; rc=$?
cat /tmp/sacc.out
r1=$(dma_field refused_reads)
[ $rc -eq 1 ] && [ "$(tail -n 1 /tmp/sacc.out)" = FAIL ] && pass "no RAM: sacc-test fails cleanly (exit 1)" ||
	fail "no RAM: sacc-test fails cleanly (exit $rc)"
[ "$r1" -gt "$r0" ] && pass "refused reads counted on the node ($r0 -> $r1)" ||
	fail "refused reads counted on the node ($r0 -> $r1)"
echo "sysfs: jobs_done $(cat /sys/bus/pci/devices/$DEV/jobs_done) jobs_failed $(cat /sys/bus/pci/devices/$DEV/jobs_failed)"

# ---- the grant restored
set_ram 3
sacc_job "grant restored" "$DEV" "$SIZE"

# ---- detach: no grant left
naactl detach "$NODE" >/dev/null && pass "naactl detach $NODE" || fail "naactl detach $NODE"
out=$(naactl dma "$NODE" 2>&1); echo "$out"
echo "$out" | grep -q "^dma $NODE: not enforced" && ! echo "$out" | grep -q "window" &&
	pass "after detach: not enforced, no window" || fail "after detach: not enforced, no window"

naa_stats
naa_dmesg_clean
finish
