#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One-sided put and get by the host NIC's RMA unit (docs/rma.md) between host
# memory (buffers the extoll driver registers) and the device memory of the
# sample accelerator behind an NAA (topology direct: host 0 <-> naa 1). The
# host attaches node 1 (sample_accel binds to the device); for sizes 8 B ..
# 1 MiB, at page-aligned and unaligned offsets and across 4 KiB boundaries
# of device memory: naactl rma put (a pattern, put, got back into a second
# buffer, CRC-32 compared), the accelerator's own CRC job over the same
# device memory (sacc-test --crc-only) equal to the CRC of what was put, and
# naactl rma get of it equal too; the completer's notification record a put
# leaves in device memory. Then bad descriptors, each refused by the
# driver with its errno before the NIC is touched, and the target memory
# unchanged (the accelerator's CRC before and after); a descriptor the unit
# itself refuses (BAD_DESC, posted by RRA into the NIC's own rma block) comes
# back as a notification; the bench (8 B .. 1 MiB); detach.
# topology: direct
. /lib/scenario-lib.sh
. /lib/naa-lib.sh

sacc_setup || { finish; exit 1; }
naa_attach "$NODE" || { finish; exit 1; }
DEV=$ATTACH_DOMAIN:01:00.0
driver_bound "$DEV" sample_accel && pass "sample_accel bound to $DEV" ||
	fail "sample_accel bound to $DEV"
RMA_DIR=$NIC_DEV/rma
rma_stats() {
	local f
	for f in posted done errors full stale cmp_notis; do printf 'rma/%s=%s ' "$f" "$(cat "$RMA_DIR/$f" 2>/dev/null)"; done
	echo
}

# the device memory is BAR2 of the accelerator (its first 4 MiB backed)
lspci -D -vv -s "$DEV" | grep -E 'Region|Memory at'

# Is there an RMA unit? (the driver says so at probe)
if dmesg | grep -q 'no rma register block'; then
	fail "the host NIC has an RMA unit (the driver found no rma register block)"
	NO_RMA=1
else
	pass "the host NIC has an RMA unit"
	NO_RMA=
fi

# rma_crc OUTPUT: the crc32 naactl printed ("crc32 0x...")
rma_crc() { sed -n 's/.*crc32 \(0x[0-9a-f]*\).*/\1/p' "$1" | head -1; }
# dev_crc OFF SIZE: the accelerator's CRC job over device memory
dev_crc() {
	sacc-test -d "$DEV" --crc-only -o "$1" -s "$2" >/tmp/crc.out 2>&1 || { cat /tmp/crc.out; echo none; return 1; }
	sed -n 's/.*crc32 \(0x[0-9a-f]*\).*/\1/p' /tmp/crc.out
}

# ---- put and get, 8 B .. 1 MiB; OFFSET in BAR2 (device memory offset)
# rma_case LABEL OFFSET SIZE SEED
rma_case() {
	local label=$1 off=$2 size=$3 seed=$4 t0 t1 rc c_put c_dev c_get
	t0=$(now_ns)
	naactl rma put "$DEV" --bar 2 --offset "$off" --size "$size" --seed "$seed" >/tmp/put.out 2>&1
	rc=$?
	t1=$(now_ns)
	cat /tmp/put.out
	echo "RMA-PUT $label: $(( (t1 - t0) / 1000000 )) ms wall (guest clock), exit $rc"
	c_put=$(rma_crc /tmp/put.out)
	if [ $rc -eq 0 ] && grep -q ': match' /tmp/put.out; then
		pass "$label: put $size B to BAR2+$off, got back, crc32 $c_put match"
	else
		fail "$label: put $size B to BAR2+$off, got back (exit $rc)"
		return 1
	fi
	c_dev=$(dev_crc "$off" "$size")
	[ "$c_dev" = "$c_put" ] && pass "$label: the accelerator's CRC job over BAR2+$off ($size B): $c_dev" ||
		fail "$label: the accelerator's CRC job over BAR2+$off ($size B): $c_dev, put $c_put"
	naactl rma get "$DEV" --bar 2 --offset "$off" --size "$size" >/tmp/get.out 2>&1
	rc=$?
	cat /tmp/get.out
	c_get=$(rma_crc /tmp/get.out)
	[ $rc -eq 0 ] && [ "$c_get" = "$c_put" ] && pass "$label: get $size B from BAR2+$off: crc32 $c_get" ||
		fail "$label: get $size B from BAR2+$off: crc32 $c_get, put $c_put (exit $rc)"
}

if [ -z "$NO_RMA" ]; then
	rma_case "8 B" 0x0 8 1
	rma_case "64 B" 0x1000 64 2
	rma_case "256 B" 0x2000 256 3
	rma_case "4 KiB" 0x3000 4096 4
	rma_case "unaligned 1000 B" 0x5004 1000 5
	rma_case "across 4 KiB" 0x6ff8 16 6
	rma_case "across 4 KiB, 8 KiB + 12" 0x7f04 8204 7
	rma_case "64 KiB" 0x10000 64K 8
	rma_case "1 MiB" 0x100000 1M 9
	# the completer's notification record in device memory (put with --cnoti):
	# dword 0 cookie | status OK << 16 | kind CMP << 24, dword 1 the length,
	# bit 127 valid (docs/rma.md, hw/include/extoll_records.h)
	naactl rma put "$DEV" --bar 2 --offset 0x8000 --size 256 --seed 10 --cnoti 0x380000 &&
		naactl rma get "$DEV" --bar 2 --offset 0x380000 --size 16 --hex >/tmp/rec.out
	rc=$?
	cat /tmp/rec.out
	set -- $(tail -n 1 /tmp/rec.out)
	[ $rc -eq 0 ] && [ $(( $1 >> 16 )) -eq $(( 0x100 )) ] && [ $(( $2 )) -eq 256 ] &&
		[ $(( $4 >> 31 )) -eq 1 ] &&
		pass "completer record at BAR2+0x380000: kind CMP, status OK, 256 B, valid ($*)" ||
		fail "completer record at BAR2+0x380000: kind CMP, status OK, 256 B, valid ('$*', exit $rc)"
	rma_stats
	# the two transfers per case completed by notification, none lost
	[ "$(cat $RMA_DIR/done)" -ge 18 ] && [ "$(cat $RMA_DIR/errors)" -eq 0 ] &&
		[ "$(cat $RMA_DIR/stale)" -eq 0 ] && pass "rma counters: every transfer notified OK" ||
		fail "rma counters: every transfer notified OK ($(rma_stats))"
else
	# without the unit a good transfer is refused, named as such
	naactl rma put "$DEV" --bar 2 --offset 0 --size 8 >/tmp/put.out 2>&1
	rc=$?
	cat /tmp/put.out
	[ $rc -eq 3 ] && grep -q 'no RMA unit' /tmp/put.out &&
		pass "no RMA unit: put refused with ENODEV, 'the NIC has no RMA unit' (exit 3)" ||
		fail "no RMA unit: put refused with ENODEV, 'the NIC has no RMA unit' (exit $rc)"
fi

# ---- bad descriptors: refused with their errno, nothing written
# A 4 KiB region of device memory with known contents (an RMA put, or the
# accelerator's DMA without the unit); its CRC is checked after each.
R=0x300000
if [ -z "$NO_RMA" ]; then
	naactl rma put "$DEV" --bar 2 --offset $R --size 4096 --seed 77 >/dev/null
else
	sacc-test -d "$DEV" -o $R -s 4096 -S 77 -q >/dev/null
fi
c0=$(dev_crc $R 4096)
posted0=$(cat $RMA_DIR/posted)
# the reference values must be real (a failed CRC job, or a missing counter, would make
# every "unchanged" comparison below equal)
case "$c0" in
0x[0-9a-f]*) pass "region BAR2+$R (4 KiB): crc32 $c0 (the reference)" ;;
*) fail "region BAR2+$R (4 KiB): no CRC from the accelerator ($c0)"; finish; exit 1 ;;
esac
[ -n "$posted0" ] || { fail "rma/posted readable"; finish; exit 1; }
# bad LABEL EXIT ERRNO-TEXT naactl-args...
bad() {
	local label=$1 want=$2 msg=$3 rc c
	shift 3
	naactl rma "$@" >/tmp/bad.out 2>&1
	rc=$?
	cat /tmp/bad.out
	c=$(dev_crc $R 4096)
	if [ $rc -eq "$want" ] && grep -q "$msg" /tmp/bad.out && [ "$c" = "$c0" ]; then
		pass "refused: $label ($msg, exit $rc), region unchanged"
	else
		fail "refused: $label ($msg, exit $rc, want $want; region crc32 $c, was $c0)"
	fi
}
bad "length 6 (not a multiple of 4)" 1 "Invalid argument" put "$DEV" --bar 2 --offset $R --size 6
bad "length 0" 1 "Invalid argument" put "$DEV" --bar 2 --offset $R --size 0
bad "offset not 4-byte aligned" 1 "Invalid argument" put "$DEV" --bar 2 --offset $((R + 2)) --size 8
bad "beyond the end of BAR2" 1 "Numerical result out of range" put "$DEV" --bar 2 --offset 0x3fffffc --size 8
bad "BAR 5 (no memory BAR)" 1 "Invalid argument" put "$DEV" --bar 5 --offset 0 --size 8
bad "domain of no attached node" 4 "No such file or directory" put fffd:01:00.0 --bar 2 --offset $R --size 8
bad "no such device in the domain" 4 "No such device or address" put "$ATTACH_DOMAIN:01:07.0" --bar 2 --offset $R --size 8
bad "the own node" 1 "Invalid argument" put --node "$HOST_NODE" --offset 0x1000 --size 8
bad "bus address at 2^43" 1 "Numerical result out of range" put --node "$NODE" --offset 0x80000000000 --size 8
bad "bus address not 4-byte aligned" 1 "Invalid argument" put --node "$NODE" --offset 0x1001 --size 8
bad "get, length 6" 1 "Invalid argument" get "$DEV" --bar 2 --offset $R --size 6
# reachability is asked of the network, so after the unit's presence
if [ -z "$NO_RMA" ]; then
	bad "node not answering" 4 "No route to host" put --node 200 --offset 0x1000 --size 8
else
	bad "a good node transfer without the unit" 3 "no RMA unit" put --node "$NODE" --offset 0x1000 --size 8
fi
[ "$(cat $RMA_DIR/posted)" = "$posted0" ] && pass "no refused transfer reached the NIC (rma/posted $posted0)" ||
	fail "no refused transfer reached the NIC (rma/posted $(cat $RMA_DIR/posted), was $posted0)"

if [ -n "$NO_RMA" ]; then
	naa_dmesg_clean
	finish
	exit 1
fi

# ---- a descriptor the unit refuses itself (length 6): BAD_DESC notification,
# posted by RRA into this NIC's own rma block (source route 7: this node; the
# driver never posts one);
# (register offsets and the notify window's RMA part: /lib/extoll_regs.sh,
# generated from hw/include/extoll_regs.h and extoll_records.h)
RMA_BASE=$EXTOLL_RMA_BASE
s0=$(cat $RMA_DIR/stale)
naactl rra write - $((RMA_BASE + EXTOLL_RMA_D_SRC)) $(( (HOST_NODE << 48) | 0x1000 )) --route 7 &&
naactl rra write - $((RMA_BASE + EXTOLL_RMA_D_DST)) $(( (NODE << 48) | 0x1000 )) --route 7 &&
naactl rra write - $((RMA_BASE + EXTOLL_RMA_D_LEN)) \
	$(( EXTOLL_RMA_D_LEN_NOTI_REQ_MASK | (0x1234 << EXTOLL_RMA_D_LEN_COOKIE_SHIFT) | 6 )) --route 7 &&
naactl rra write - $((RMA_BASE + EXTOLL_RMA_D_RNOTI)) \
	$((EXTOLL_NOTIFY_WIN_BASE_ADDR_RESET + EXTOLL_NQ_WIN_RMA_OFF)) --route 7 &&
naactl rra write - $((RMA_BASE + EXTOLL_RMA_POST)) 1 --route 7
rc=$?
sleep 1
naactl regs rma.errors; naactl regs rma.status
s1=$(cat $RMA_DIR/stale)
[ $rc -eq 0 ] && [ "$s1" -gt "$s0" ] && pass "BAD_DESC from the unit: its notification arrived (no transfer of the driver: rma/stale $s0 -> $s1)" ||
	fail "BAD_DESC from the unit: its notification arrived (rma/stale $s0 -> $s1, rra exit $rc)"
c=$(dev_crc $R 4096)
[ "$c" = "$c0" ] && pass "BAD_DESC: region unchanged" || fail "BAD_DESC: region unchanged (crc32 $c, was $c0)"

# ---- bench: latency and bandwidth, 8 B .. 1 MiB
t0=$(now_ns)
naactl rma bench "$DEV" --bar 2 --offset 0x200000 --max 1M --iters 1
rc=$?
t1=$(now_ns)
echo "RMA-BENCH: $(( (t1 - t0) / 1000000 )) ms wall (guest clock), exit $rc"
[ $rc -eq 0 ] && pass "naactl rma bench 8 B .. 1 MiB" || fail "naactl rma bench (exit $rc)"
naactl regs rma
rma_stats

sacc_teardown end
finish
