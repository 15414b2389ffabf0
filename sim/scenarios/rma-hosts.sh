#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Host to host put and get (issue 13; docs/rma.md "Host to host"): two hosts on one
# fabric (topology torus-2x2x1-2hosts: hosts 0 and 3, two hops apart; the NAAs 1 and 2
# stay idle). Host B (index 1) exposes 1 MiB in the middle of a 2 MiB buffer
# (naactl rma expose: the rest is a guard of 0xa5 bytes), and tells host A the
# region's bus address and completer-notification address through its NIC's scratch
# register (A reads it in-band, RRA). A puts 8 B .. 1 MiB into the region with
# naactl rma put --peer (each got back and CRC-32 compared on A; B computes the
# CRC of what arrived in its own memory and compares it with A's, which A leaves in
# its scratch register); the completer notifications arrive at B, the requester
# notifications at A. Refused, each with an error at A and nothing written at B
# (B's guard and the region's CRC unchanged, its NIC's dma.refused counting): a put
# just past the region, one page before it, a get past it, one straddling its end,
# an offset beyond the handle's length (refused by naactl), a node that does not
# answer; after B revokes the region (unexpose) a put and a get into it. The
# hosts meet at cosimd's barriers (scenario-lib.sh). A's naactl rma bench into the region
# goes up to RMA_BENCH_MAX (default 64K; SIM_APPEND=RMA_BENCH_MAX=1M: about 4 minutes more).
# topology: torus-2x2x1-2hosts
. /lib/scenario-lib.sh

GUARD=0xa5
REGION=0x100000			# 1 MiB exposed ...
ROFF=0x80000			# ... at 512 KiB into a buffer of 2 MiB
BAD_NODE=200			# no such node on this fabric
# A's puts, OFFSET:SIZE:SEED each (offsets in the region; both hosts go through them)
CASES="0:8:11 0x1000:64:12 0x2004:256:13 0x3000:4096:14 0x10000:0x10000:15 0:$REGION:16"
set -- $HOST_NODES
NODE_A=$1
NODE_B=$2
RMA_DIR=$NIC_DEV/rma

# meet NAME: barrier NAME, or fail and stop
meet() {
	barrier "$1" && pass "barrier $1: both hosts there (world cycle $SIMCTL_CYCLE)" ||
		{ fail "barrier $1 ($SIMCTL_REPLY)"; finish; exit 1; }
}
must() { check "$@" || { finish; exit 1; }; }
# scratch_set VALUE: this NIC's info.scratch (sysfs); scratch_of NODE: another's, in-band
scratch_set() { echo "$1" >"$NIC_DEV/scratch"; }
scratch_of() { naactl rra read "$1" "$EXTOLL_INFO_SCRATCH" 2>&1; }
rma_crc() { sed -n 's/.*crc32 \(0x[0-9a-f]*\).*/\1/p' "$1" | head -1; }

echo "rma-hosts: host index $HOST_INDEX of $NHOSTS (node $HOST_NODE; hosts $HOST_NODES)"
[ "$NHOSTS" = 2 ] && pass "this guest is host $HOST_INDEX (node $HOST_NODE) of 2" ||
	{ fail "two hosts in the world (have $NHOSTS)"; finish; exit 1; }
must "insmod extoll.ko $EXTOLL_KO_PARAMS" \
	insmod /lib/modules/extoll.ko $EXTOLL_KO_PARAMS
naactl info
if [ "$HOST_INDEX" = 0 ]; then
	must "naactl route --topology $TOPOLOGY (host A, for every node)" \
		naactl route --topology "$TOPOLOGY"
fi
meet routed

# ================= host B: expose, then serve the checks =================
if [ "$HOST_INDEX" = 1 ]; then
	# the server: naactl rma expose, its commands through a FIFO (fd 4), answers in a file
	mkfifo /tmp/ex.in
	naactl rma expose --size 2M --offset $ROFF --len $REGION --guard $GUARD \
		</tmp/ex.in >/tmp/ex.out 2>&1 &
	EX_PID=$!
	exec 4>/tmp/ex.in
	i=0
	while ! grep -q '^handle ' /tmp/ex.out && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	cat /tmp/ex.out
	HANDLE=$(sed -n 's/^handle //p' /tmp/ex.out)
	ADDR=$(echo "$HANDLE" | cut -d: -f2)
	CNOTI=$(echo "$HANDLE" | cut -d: -f4)
	[ "$(echo "$HANDLE" | cut -d: -f1)" = "$NODE_B" ] && [ "$(echo "$HANDLE" | cut -d: -f3)" = $((REGION)) ] &&
		pass "host B: 1 MiB exposed: handle $HANDLE" ||
		{ fail "host B: naactl rma expose ($(cat /tmp/ex.out))"; finish; exit 1; }
	# ex CMD...: one command to the server, its answer line in $EX
	ex() {
		local n
		n=$(wc -l </tmp/ex.out)
		echo "$*" >&4
		i=0
		while [ "$(wc -l </tmp/ex.out)" -le "$n" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
		EX=$(sed -n "$((n + 1))p" /tmp/ex.out)
		echo "expose> $*: $EX"
	}
	guard_ok() {
		ex guard
		case $EX in "guard intact"*) pass "host B: $1: guard intact ($EX)" ;;
		*) fail "host B: $1: guard ($EX)" ;; esac
	}
	refused() { naactl -j regs dma.refused | sed -n 's/.*"value":"\(0x[0-9a-f]*\)".*/\1/p'; }
	scratch_set "$ADDR"
	meet addr
	meet addr-read
	scratch_set "$CNOTI"
	meet cnoti
	cmp0=$(cat "$RMA_DIR/cmp_notis")
	# ---- A's puts: each checked here against the CRC A leaves in its scratch register
	c=0
	for k in $CASES; do
		c=$((c + 1))
		off=$(echo "$k" | cut -d: -f1); size=$(echo "$k" | cut -d: -f2)
		meet "put-$c"
		v=$(scratch_of "$NODE_A")
		crc=$(printf '0x%08x' $((v & 0xffffffff)))
		ex crc "$off" "$size"
		[ "$EX" = "crc32 $crc" ] && pass "host B: put $c: $((size)) B at region offset $off arrived, crc32 $crc as A put it" ||
			fail "host B: put $c: $((size)) B at region offset $off: $EX, A put crc32 $crc (scratch '$v')"
	done
	guard_ok "after the puts"
	cmp1=$(cat "$RMA_DIR/cmp_notis")
	[ $((cmp1 - cmp0)) -ge 6 ] && pass "host B: completer notifications of A's puts arrived ($cmp0 -> $cmp1)" ||
		fail "host B: completer notifications of A's puts arrived ($cmp0 -> $cmp1)"
	meet puts-checked
	meet bench-done
	guard_ok "after A's bench"
	ex crc 0 $REGION
	CRC_B=${EX#crc32 }
	ref0=$(refused)
	meet bad-start
	# ---- A's refused transfers
	meet bad-done
	guard_ok "after the refused transfers"
	ex crc 0 $REGION
	[ "$EX" = "crc32 $CRC_B" ] && pass "host B: the region unchanged by the refused transfers ($EX)" ||
		fail "host B: the region unchanged by the refused transfers ($EX, was $CRC_B)"
	ref1=$(refused)
	echo "dma.refused: $ref0 -> $ref1"
	[ -n "$ref1" ] && [ $(( (ref1 >> 32) - (ref0 >> 32) )) -ge 2 ] && [ $(( (ref1 & 0xffffffff) - (ref0 & 0xffffffff) )) -ge 2 ] &&
		pass "host B: its NIC refused A's writes and reads outside the region (dma.refused $ref0 -> $ref1)" ||
		fail "host B: its NIC refused A's writes and reads outside the region (dma.refused $ref0 -> $ref1)"
	# ---- revoke
	ex unexpose
	case $EX in unexposed*) pass "host B: region revoked ($EX)" ;; *) fail "host B: unexpose ($EX)" ;; esac
	meet revoked
	meet revoked-done
	guard_ok "after the transfers into the revoked region"
	ex crc 0 $REGION
	[ "$EX" = "crc32 $CRC_B" ] && pass "host B: the revoked region unchanged ($EX)" ||
		fail "host B: the revoked region unchanged ($EX, was $CRC_B)"
	ex quit
	exec 4>&-
	wait $EX_PID && pass "host B: naactl rma expose ended (exit 0)" || fail "host B: naactl rma expose ended"
	cat /tmp/ex.out
	meet end
	dmesg | grep -i -E 'extoll|rma' | tail -n 5
	finish
	exit $?
fi

# ================= host A: put and get into B's region =================
meet addr
ADDR=$(printf '0x%x' $(($(scratch_of "$NODE_B"))))
meet addr-read
meet cnoti
CNOTI=$(printf '0x%x' $(($(scratch_of "$NODE_B"))))
HANDLE=$NODE_B:$ADDR:$((REGION)):$CNOTI
echo "host A: B's handle $HANDLE"
case $ADDR in 0x0) fail "host A: B's region address ($ADDR)"; finish; exit 1 ;;
0x*) pass "host A: B's region address read in-band: $ADDR" ;;
*) fail "host A: B's region address ($ADDR)"; finish; exit 1 ;; esac
out=$(naactl dma "$NODE_B" 2>&1); echo "$out"
echo "$out" | grep -q "^dma $NODE_B: enforced" &&
	echo "$out" | grep -Eq "^  window 1: $ADDR-0x[0-9a-f]+ read write\$" &&
	[ "$(echo "$out" | grep -c '^  window')" = 2 ] &&
	pass "host A: node $NODE_B's NIC polices RMA: the notify window and the region only" ||
	fail "host A: node $NODE_B's window table"
done0=$(cat "$RMA_DIR/done")

# each put (with the get back, CRC-32 compared here) into B's region; its CRC to B
# in this NIC's scratch register
c=0
for k in $CASES; do
	c=$((c + 1))
	off=$(echo "$k" | cut -d: -f1); size=$(echo "$k" | cut -d: -f2); seed=$(echo "$k" | cut -d: -f3)
	t0=$(cut -d' ' -f1 /proc/uptime)
	naactl rma put --peer "$HANDLE" --offset "$off" --size "$size" --seed "$seed" >/tmp/put.out 2>&1
	rc=$?
	echo "RMA-HOSTS-PUT $((size)) B: $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.2f", b - a }') s (guest), exit $rc"
	cat /tmp/put.out
	crc=$(rma_crc /tmp/put.out)
	[ $rc -eq 0 ] && grep -q ': match' /tmp/put.out &&
		pass "host A: put $c: $((size)) B into B's region at $off, got back: crc32 $crc match" ||
		fail "host A: put $c: $((size)) B into B's region at $off (exit $rc)"
	scratch_set "${crc:-0}"
	meet "put-$c"
done
CRC_A=$crc
naactl rma get --peer "$HANDLE" --size 1M >/tmp/get.out 2>&1; rc=$?
cat /tmp/get.out
[ $rc -eq 0 ] && [ "$(rma_crc /tmp/get.out)" = "$CRC_A" ] &&
	pass "host A: get 1 MiB from B's region: crc32 $CRC_A as put" ||
	fail "host A: get 1 MiB from B's region (exit $rc, $(rma_crc /tmp/get.out))"
done1=$(cat "$RMA_DIR/done")
[ $((done1 - done0)) -ge 13 ] && [ "$(cat "$RMA_DIR/errors")" = 0 ] &&
	pass "host A: requester notifications: every transfer OK ($done0 -> $done1)" ||
	fail "host A: requester notifications ($done0 -> $done1, errors $(cat "$RMA_DIR/errors"))"
meet puts-checked

# ---- the bench into B's region (latency and bandwidth in this NIC's cycles)
naactl rma bench --node "$NODE_B" --offset "$ADDR" --max "${RMA_BENCH_MAX:-64K}" --iters 1 >/tmp/bench.out 2>&1; rc=$?
cat /tmp/bench.out
sed -n 's/^ *\([0-9][0-9]*\) .*/RMA-HOSTS-BENCH &/p' /tmp/bench.out
[ $rc -eq 0 ] && pass "host A: naactl rma bench into B's region, 8 B .. ${RMA_BENCH_MAX:-64K}" ||
	fail "host A: naactl rma bench into B's region (exit $rc)"
meet bench-done
meet bad-start

# ---- refused: an error here, nothing written at B
# bad LABEL EXIT TEXT naactl-rma-args...
bad() {
	local label=$1 want=$2 msg=$3 rc
	shift 3
	naactl rma "$@" >/tmp/bad.out 2>&1
	rc=$?
	cat /tmp/bad.out
	[ $rc -eq "$want" ] && grep -q "$msg" /tmp/bad.out &&
		pass "host A: refused: $label ($msg, exit $rc)" ||
		fail "host A: refused: $label (exit $rc, want $want '$msg')"
}
E0=$(cat "$RMA_DIR/errors")
END=$(printf '0x%x' $((ADDR + REGION)))
bad "put just past the region" 1 "Input/output error" put --node "$NODE_B" --offset "$END" --size 8
bad "put one page before the region" 1 "Input/output error" put --node "$NODE_B" --offset $((ADDR - 4096)) --size 4096
bad "get past the region" 1 "Input/output error" get --node "$NODE_B" --offset "$END" --size 8
bad "get straddling the region's end" 1 "Input/output error" get --node "$NODE_B" --offset $((ADDR + REGION - 8)) --size 16
bad "offset beyond the handle's length" 2 "beyond the peer's exposed region" put --peer "$HANDLE" --offset $REGION --size 8
bad "a node that does not answer" 4 "No route to host" put --peer "$BAD_NODE:$ADDR:$((REGION)):$CNOTI" --size 8
E1=$(cat "$RMA_DIR/errors")
[ $((E1 - E0)) -eq 4 ] && pass "host A: 4 error notifications (RD_ERR/WR_ERR) for the 4 transfers B's NIC refused" ||
	fail "host A: error notifications $E0 -> $E1 (want 4)"
meet bad-done

# ---- B revokes the region: a put and a get into it refused
meet revoked
out=$(naactl dma "$NODE_B" 2>&1); echo "$out"
[ "$(echo "$out" | grep -c '^  window')" = 1 ] && pass "host A: node $NODE_B's region window closed" ||
	fail "host A: node $NODE_B's region window closed"
bad "put after revocation" 1 "Input/output error" put --peer "$HANDLE" --size 8 --seed 99
bad "get after revocation" 1 "Input/output error" get --peer "$HANDLE" --size 8
meet revoked-done
meet end
dmesg | grep -i -E 'extoll|rma' | tail -n 5
finish
