#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Accelerator to accelerator by RMA, no host in the data path (issue 13;
# docs/accelerator.md "RMA send", docs/rma.md). Topology torus-2x2x1: host 0,
# NAA 1 (accelerator A) one hop away, NAA 3 (accelerator B) two hops away.
# The host attaches both, opens NAA 1's descriptor window (rma.win) and fills
# 1 MiB of A's memory and 1 MiB of B's by the host NIC's RMA unit (naactl rma
# put, its CRC-32 checked by the accelerators' own CRC jobs). Then A's RMA send job
# puts it into B's memory: the device writes the descriptor into its NAA's
# window and waits for the requester record in its own memory; the host only
# starts the job. Checked: B's CRC job over the destination equals A's, the
# requester record in A's memory and the completer record in B's memory
# (cookie, status OK, kind, length, valid). Access control (docs/security.md):
# while B is held by the host without a grant, A's writes are refused (job
# error WR_ERR, B's memory unchanged, own.denied_smfu counts); with
# own.peer = node 1 on B they pass; revoked, refused again; after B's detach
# its grant reads cleared. Refusals: arguments the driver refuses (EINVAL,
# nothing posted), a destination the RMA unit refuses (BAD_DESC). A small
# bench: 8 B, 256 B, 4 KiB, 64 KiB, 1 MiB (device cycles from the job's start to the
# requester record).
# topology: torus-2x2x1
. /lib/scenario-lib.sh
. /lib/naa-lib.sh

# a 1 MiB RMA send takes about 8 s of guest wall time under TCG: sacc_setup
# raises the driver's job time bound (SACC_JOB_TIMEOUT_MS, naa-lib.sh)
sacc_setup || { finish; exit 1; }
A=1
B=3
naa_attach $A || { finish; exit 1; }
DEV_A=$ATTACH_DOMAIN:01:00.0
naa_attach $B || { finish; exit 1; }
DEV_B=$ATTACH_DOMAIN:01:00.0
driver_bound "$DEV_A" sample_accel && driver_bound "$DEV_B" sample_accel &&
	pass "sample_accel bound to $DEV_A (node $A) and $DEV_B (node $B)" ||
	fail "sample_accel bound to $DEV_A and $DEV_B"

# bus_bar2 DEV: BAR2's bus address in the NAA's domain (lspci -b: as the card
# sees it), the address the RMA unit at that node uses
bus_bar2() { lspci -b -vv -s "$1" | sed -n 's/.*Region 2: Memory at \([0-9a-f]*\).*/0x\1/p' | head -1; }
BUS_B=$(bus_bar2 "$DEV_B")
echo "A: $DEV_A BAR2 bus $(bus_bar2 "$DEV_A"); B: $DEV_B BAR2 bus $BUS_B"
[ -n "$BUS_B" ] && pass "BAR2 bus address of B" || fail "BAR2 bus address of B"

# NAA A's descriptor window: high in the device's address space (docs/rma.md)
WIN=0x7f00000000
naactl rra write $A $((EXTOLL_RMA_BASE + EXTOLL_RMA_WIN)) $((WIN | EXTOLL_RMA_WIN_EN_MASK)) &&
	pass "rma.win of node $A at $WIN" || fail "rma.win of node $A at $WIN"
PEER=$((EXTOLL_OWN_BASE + EXTOLL_OWN_PEER))

# dev_crc DEV OFF SIZE: the accelerator's CRC job over its memory
dev_crc() {
	sacc-test -d "$1" --crc-only -o "$2" -s "$3" >/tmp/crc.out 2>&1 || { cat /tmp/crc.out; echo none; return 1; }
	sed -n 's/.*crc32 \(0x[0-9a-f]*\).*/\1/p' /tmp/crc.out
}
# rec DEV OFF: the 16-byte record at device offset OFF as 4 dwords (naactl rma get)
# (its error message on the console and -1 -1 -1 -1 when the get fails)
rec() {
	local out
	out=$(naactl rma get "$1" --bar 2 --offset "$2" --size 16 --hex 2>&1)
	if echo "$out" | tail -n 1 | grep -qE '^(0x[0-9a-f]+ ){3}0x[0-9a-f]+$'; then
		echo "$out" | tail -n 1
	else
		echo "$out" | sed 's/^/  [rec] /' >&2
		echo "-1 -1 -1 -1"
	fi
}
# fill DEV OFF SEED: 1 MiB of a pattern by the host's RMA unit; prints its crc32
fill() {
	naactl rma put "$1" --bar 2 --offset "$2" --size 1M --seed "$3" >/tmp/fill.out 2>&1 &&
		grep -q ': match' /tmp/fill.out || { cat /tmp/fill.out; echo none; return 1; }
	sed -n 's/.*crc32 \(0x[0-9a-f]*\).*/\1/p' /tmp/fill.out | head -1
}
# send LABEL SIZE DST_OFF [sacc-test options]: A's RMA send job of A's memory
# at 0 to B's memory at DST_OFF; output in /tmp/send.out, exit status in SEND_RC
send() {
	local label=$1 size=$2 off=$3
	shift 3
	sacc-test -d "$DEV_A" -o 0 -s "$size" --rma-send "$B:$((BUS_B + off))" --rma-win $WIN \
		--rma-self $A "$@" >/tmp/send.out 2>&1
	SEND_RC=$?
	sed "s/^/  [$label] /" /tmp/send.out
}
denied() { naactl rra read $B $((EXTOLL_OWN_BASE + EXTOLL_OWN_DENIED_SMFU)); }

# ---- A's source: 1 MiB of random data; B's destination: other data
SRC_CRC=$(fill "$DEV_A" 0 11)
DST_CRC0=$(fill "$DEV_B" 0x100000 22)
a=$(dev_crc "$DEV_A" 0 1M)
b=$(dev_crc "$DEV_B" 0x100000 1M)
echo "A 0..1M crc32 $SRC_CRC (A's CRC job $a); B 1M..2M crc32 $DST_CRC0 (B's CRC job $b, before)"
[ "$SRC_CRC" != none ] && [ "$a" = "$SRC_CRC" ] && [ "$b" = "$DST_CRC0" ] && [ "$SRC_CRC" != "$DST_CRC0" ] &&
	pass "source and destination filled (naactl rma put), different, CRC jobs agree" ||
	fail "source and destination filled, different ($SRC_CRC/$a, $DST_CRC0/$b)"

# ---- B held by the host, no grant: A's writes refused, B unchanged
d0=$(denied)
send "no grant" 4096 0x100000 --rma-cookie 1
d1=$(denied)
[ $SEND_RC -eq 1 ] && grep -q 'WR_ERR' /tmp/send.out && [ "$(dev_crc "$DEV_B" 0x100000 1M)" = "$DST_CRC0" ] &&
	[ $((d1)) -gt $((d0)) ] &&
	pass "without a grant: refused at B (job error WR_ERR), B unchanged, own.denied_smfu $d0 -> $d1" ||
	fail "without a grant: refused at B (exit $SEND_RC, own.denied_smfu $d0 -> $d1)"

# ---- the holder grants node A on B
naactl rra write $B $PEER $(( EXTOLL_OWN_PEER_EN_MASK | A )) &&
	[ $(( $(naactl rra read $B $PEER) )) -eq $(( EXTOLL_OWN_PEER_EN_MASK | A )) ] &&
	pass "own.peer of node $B = node $A" || fail "own.peer of node $B = node $A"

# ---- 1 MiB, A -> B, records at both ends
RNOTI=0x3ffff0                  # in A's memory (requester record)
CNOTI=0x3f0000                  # in B's memory (completer record)
send "1 MiB" 1M 0x100000 --rma-cookie 0x1234 --rma-rnoti $RNOTI --rma-cnoti $((BUS_B + CNOTI))
grep 'rma-send' /tmp/send.out | sed 's/^/RMA-ACCEL 1 MiB: /'
c=$(dev_crc "$DEV_B" 0x100000 1M)
[ $SEND_RC -eq 0 ] && [ "$c" = "$SRC_CRC" ] &&
	pass "A put 1 MiB into B: B's CRC job $c = A's" ||
	fail "A put 1 MiB into B: B's CRC job $c, A's $SRC_CRC (exit $SEND_RC)"
# records: dword 0 cookie | status << 16 | kind << 24, dword 1 length, bit 127 valid
set -- $(rec "$DEV_A" $RNOTI)
r0=${1:-0} r1=${2:-0} r3=${4:-0}
echo "requester record in A: $*"
[ $((r0)) -eq $(( 0x1234 | EXTOLL_RMA_ST_OK << 16 | EXTOLL_RMA_KIND_REQ << 24 )) ] && [ $((r1)) -eq 1048576 ] &&
	[ $(( r3 >> 31 )) -eq 1 ] && pass "requester record in A's memory: cookie 0x1234, OK, REQ, 1 MiB, valid" ||
	fail "requester record in A's memory ($r0 $r1 $r3)"
set -- $(rec "$DEV_B" $CNOTI)
c0=${1:-0} c1=${2:-0} c3=${4:-0}
echo "completer record in B: $*"
[ $((c0)) -eq $(( 0x1234 | EXTOLL_RMA_ST_OK << 16 | EXTOLL_RMA_KIND_CMP << 24 )) ] && [ $((c1)) -eq 1048576 ] &&
	[ $(( c3 >> 31 )) -eq 1 ] && pass "completer record in B's memory: cookie 0x1234, OK, CMP, 1 MiB, valid" ||
	fail "completer record in B's memory ($c0 $c1 $c3)"

# ---- refusals: by the driver (nothing posted), by the RMA unit (BAD_DESC)
n0=$(naactl rra read $A $((EXTOLL_RMA_BASE + EXTOLL_RMA_ERRORS)))
send "record inside the range" 4096 0 --rma-rnoti 0x100
[ $SEND_RC -eq 1 ] && grep -q 'Invalid argument' /tmp/send.out &&
	pass "record inside the sent range: EINVAL from the driver" || fail "record inside the sent range (exit $SEND_RC)"
send "length above 1 MiB" 1052672 0
[ $SEND_RC -eq 1 ] && grep -q 'Invalid argument' /tmp/send.out &&
	pass "length above 1 MiB: EINVAL from the driver" || fail "length above 1 MiB (exit $SEND_RC)"
n1=$(naactl rra read $A $((EXTOLL_RMA_BASE + EXTOLL_RMA_ERRORS)))
[ "$n0" = "$n1" ] && pass "nothing posted for the driver's refusals (rma.errors $n1)" ||
	fail "nothing posted for the driver's refusals (rma.errors $n0 -> $n1)"
sacc-test -d "$DEV_A" -o 0 -s 256 --rma-send "$B:0x80000000000" --rma-win $WIN --rma-self $A >/tmp/send.out 2>&1
SEND_RC=$?
sed "s/^/  [2^43] /" /tmp/send.out
[ $SEND_RC -eq 1 ] && grep -q 'BAD_DESC' /tmp/send.out &&
	pass "destination at 2^43: refused by the RMA unit (job error BAD_DESC)" ||
	fail "destination at 2^43: BAD_DESC (exit $SEND_RC)"

# ---- bench: device cycles from the job's start to the requester record
for s in 8 256 4096 65536 1048576; do
	send "bench $s" $s 0x100000 --rma-cookie 7
	cyc=$(sed -n 's/.*: \([0-9]*\) device cycles.*/\1/p' /tmp/send.out)
	[ $SEND_RC -eq 0 ] && [ -n "$cyc" ] &&
		echo "RMA-ACCEL-BENCH $s bytes: $cyc cycles, $(awk "BEGIN { printf \"%.2f\", $s / $cyc }") B/cycle" ||
		fail "bench $s bytes (exit $SEND_RC)"
done

# ---- grant revoked: refused again; B's grant cleared with the holding
naactl rra write $B $PEER 0
send "revoked" 4096 0x100000
[ $SEND_RC -eq 1 ] && grep -q 'WR_ERR' /tmp/send.out && pass "grant revoked: refused again (WR_ERR)" ||
	fail "grant revoked: refused again (exit $SEND_RC)"
naactl rra write $B $PEER $(( EXTOLL_OWN_PEER_EN_MASK | A ))
naactl detach $B >/dev/null && pass "naactl detach $B" || fail "naactl detach $B"
[ $(( $(naactl rra read $B $PEER) & EXTOLL_OWN_PEER_EN_MASK )) -eq 0 ] &&
	pass "B released: its own.peer grant reads cleared" || fail "B released: own.peer $(naactl rra read $B $PEER)"
NODE=$A
sacc_teardown end
finish
