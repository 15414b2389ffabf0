#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# naactl flash of an NAA node across the network (docs/flash.md "naactl
# flash"); node 1's flash files are their own, build/sim/flash-remote/, and
# persist from one run to the next.
# First: what runs follows the boot rule for what the slots hold (the flash of
# the previous run). Images made in the guest with naaimg; a fallback and an
# update image written to node 1's simulated MT25QU01G over RRA with progress
# and read-back; bad images refused with the stored versions unchanged; flash
# and reload refused for an attached node (also the host NIC's devlink dev
# reload, which goes through once it is detached); a power cut (the flashing
# process killed while programming a larger image) leaves an update slot that
# does not boot; --reload: the node is reset, comes back on the network (its partner's
# link layer re-initialises, docs/network.md "Partner reset") and runs its
# fallback; flashed again with a new update, which --reload boots; then its
# tables are written again, it is attached and a job passes. Each reload's boot
# is also compared with cosimd's log (sim/flash-remote-check.sh).
# topology: direct
. /lib/scenario-lib.sh
. /lib/naa-lib.sh

naa_setup || { finish; exit 1; }
NODE=${NAA_NODES%% *}
T=/tmp/img
mkdir -p $T

# from `naactl flash --info`: the running version and slot, a slot's version and state
running() { naactl flash --info "$NODE" | sed -n 's/.* running \([0-9.]*\) build .* from \(the \)*\([a-z]*\) slot.*$/\1 \3/p'; }
slot() { naactl flash --info "$NODE" | awk -v s="$1" '$1 == s { print $3 }'; }
state() { naactl flash --info "$NODE" | awk -v s="$1" '$1 == s { $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print }'; }
# expect_boot SLOT VERSION: for sim/flash-remote-check.sh, which compares it with
# the boot cosimd logs for node 1 after the reload
expect_boot() { echo "FLASH-EXPECT-BOOT node$NODE $1 $2"; }
# reload SLOT VERSION: the node resets, comes back on the network and runs VERSION
# from SLOT; its routing tables were reset with it: written again
reload() {
	local out rc
	expect_boot "$1" "$2"
	out=$(naactl flash --reload "$NODE" --timeout 30000 2>&1); rc=$?
	echo "$out"
	echo "$out" | grep -q "node $NODE: reload requested" && pass "naactl flash --reload $NODE: reload requested" ||
		fail "naactl flash --reload $NODE: reload requested (exit $rc)"
	[ $rc -eq 0 ] && echo "$out" | grep -Eq "^node $NODE reloaded: running $2 build 20261125-[0-9a-f]+ from the $1 slot \(back after [0-9]+ ms\)" &&
		pass "node $NODE back on the network after the reload: running $2 from the $1 slot ($(echo "$out" | grep -o 'back after [0-9]* ms'))" ||
		fail "node $NODE back after the reload running $2 from the $1 slot (exit $rc)"
	naactl route --topology "$TOPOLOGY" && pass "naactl route after the reload" || fail "naactl route after the reload"
	[ "$(running)" = "$2 $1" ] && pass "--info after the reload (table-routed): running $2 $1" ||
		fail "--info after the reload: running '$(running)', expected '$2 $1'"
}

# ---- what runs follows the boot rule for what the slots hold
info=$(naactl flash --info "$NODE"); echo "$info"
r=$(running)
if [ "$(state update)" = ok ]; then want="$(slot update) update"
elif [ "$(state fallback)" = ok ]; then want="$(slot fallback) fallback"
else want=none; fi
case $want in
none) echo "$info" | grep -q 'from no slot (the build-time identity)' && pass "at start: no good image, the build-time identity runs" ||
	fail "at start: expected the build-time identity" ;;
*) [ "$r" = "$want" ] && pass "at start: running $r, as the boot rule says for the slots" ||
	fail "at start: running '$r', the boot rule says '$want'" ;;
esac

b=$(printf '%08x' $(( $(od -An -N4 -tu4 /dev/urandom) )))
mk() {	# ROLE VERSION OUT [BITSTREAM]
	naaimg create --board sim --part mt25qu01g --role "$1" --version "$2" --build "$b" \
		--date 20261125 -o "$3" ${4:-"--sim"} || fail "naaimg create $3"
}

# ---- versions this run has not seen before (the flash file persists)
p=$(( $(od -An -N2 -tu2 /dev/urandom) ))
fb=1.0.$p; up1=7.4.$p; up2=7.5.$p
mk fallback $fb $T/fallback.img
mk update $up1 $T/up1.img
mk update $up2 $T/up2.img
before=$(running)

# the fallback slot, then the update slot with progress and read-back
out=$(naactl flash --fallback "$NODE" $T/fallback.img 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -q "fallback slot written and verified .*version $fb" &&
	pass "naactl flash --fallback $NODE: $fb" || fail "naactl flash --fallback $NODE (exit $rc)"
out=$(naactl flash "$NODE" $T/up1.img 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -q "update slot written and verified (80 bytes, version $up1 build 20261125-$b)" &&
	pass "naactl flash $NODE: update $up1" || fail "naactl flash $NODE up1.img (exit $rc)"
for s in Erasing Programming Verifying; do
	echo "$out" | grep -Eq "^$s 1/1 100%" && pass "progress: $s 1/1 100%" || fail "progress: $s 1/1 100%"
done
info=$(naactl flash --info "$NODE"); echo "$info"
[ "$(slot update)" = "$up1" ] && [ "$(slot fallback)" = "$fb" ] &&
	pass "--info: stored update $up1, fallback $fb" || fail "--info: stored update '$(slot update)', fallback '$(slot fallback)'"
echo "$info" | grep -Eq "^update +0x04000000 +$up1 +20261125-$b +ok$" && pass "--info: update slot ok" ||
	fail "--info: update slot ok"
[ "$(running)" = "$before" ] && pass "running version unchanged before a reload ($before)" ||
	fail "running '$(running)', was '$before'"
j=$(naactl -j flash --info "$NODE")
echo "$j"
echo "$j" | grep -q "\"slots\":\[{\"slot\":\"update\",\"offset\":67108864,\"version\":\"$up1\",\"build\":\"20261125-$b\",\"state\":\"ok\",\"size\":80}" &&
	pass "--info -j: the update slot" || fail "--info -j: the update slot"
own=$(naactl regs "$NODE" own.owner); echo "$own"
echo "$own" | grep -q 'held=0' && pass "the node is free again after flashing (claimed and released)" ||
	fail "the node is free again after flashing"

# ---- bad images: refused before anything is written, the stored update unchanged
sz=$(wc -c <$T/up2.img)
cp $T/up2.img $T/crc.img
last=$(( $(tail -c 1 $T/up2.img | od -An -tu1) ))
wr $T/crc.img "$(printf '\\%03o' $(( (last + 1) % 256 )))" $((sz - 1))
head -c $((sz - 1)) $T/up2.img >$T/trunc.img
head -c 40 $T/up2.img >$T/short.img
cp $T/up2.img $T/trailing.img; printf 'x' >>$T/trailing.img
head -c 100 /dev/urandom >$T/bits
naaimg create --board u250 --part mt25qu01g --role update --version 9.9.9 --build 1 -o $T/board.img $T/bits
cp $T/up2.img $T/part.img
wr $T/part.img '\042' 12
head -c 60 $T/part.img >$T/hdr60
wr $T/part.img "$(crc_le $T/hdr60)" 60
cp $T/up2.img $T/hcrc.img
flip_byte $T/hcrc.img 24
bad() {	# EXIT MESSAGE-REGEX ARGS...
	local want=$1 re=$2 out rc s
	shift 2
	out=$(naactl flash "$@" 2>&1); rc=$?
	echo "$out"
	[ $rc -eq "$want" ] && echo "$out" | grep -Eq "$re" && pass "flash $*: refused, exit $rc: $(echo "$out" | grep -E "$re" | head -n 1)" ||
		fail "flash $*: /$re/, exit $want (exit $rc)"
	s=$(slot update)
	[ "$s" = "$up1" ] && pass "flash $*: stored update still $up1" || fail "flash $*: stored update '$s', expected $up1"
}
bad 1 'crc.img: payload CRC-32 mismatch \(computed .*\): nothing written' "$NODE" $T/crc.img
bad 1 'trunc.img: file shorter than its header or its payload length \(79 bytes, header and payload need 80\): nothing written' "$NODE" $T/trunc.img
bad 1 'short.img: file shorter .* \(40 bytes, a header has 64\)' "$NODE" $T/short.img
bad 1 'trailing.img: file longer than header plus payload length' "$NODE" $T/trailing.img
bad 1 'fallback.img: not an update image \(role fallback; .*--fallback writes the fallback slot\): nothing written' "$NODE" $T/fallback.img
bad 1 'up2.img: not a fallback image \(role update' --fallback "$NODE" $T/up2.img
bad 1 'board.img: wrong board id \(image for board 0x0250, expected 0x0001\)' "$NODE" $T/board.img
bad 1 "part.img: wrong flash part id \(image for part 0x20BB22, expected 0x20BB21, node $NODE\)" "$NODE" $T/part.img
bad 1 'hcrc.img: header CRC-32 mismatch' "$NODE" $T/hcrc.img
bad 3 'nonexistent.img: No such file' "$NODE" $T/nonexistent.img
bad 4 'node 9 does not answer' 9 $T/up2.img
[ "$(slot fallback)" = "$fb" ] && pass "stored fallback still $fb" || fail "stored fallback '$(slot fallback)'"

# ---- an attached node: flash and reload refused, nothing changes
sacc_insmod
if naa_attach "$NODE"; then
	bad 5 "node $NODE is attached to this host: detach it first" "$NODE" $T/up2.img
	out=$(naactl flash --reload "$NODE" 2>&1); rc=$?
	echo "$out"
	[ $rc -eq 5 ] && echo "$out" | grep -q "is attached to this host" && pass "flash --reload of an attached node refused (exit 5)" ||
		fail "flash --reload of an attached node refused (exit $rc)"
	# the host NIC's devlink dev reload is refused too while an NAA is attached
	# through it (the NAA's PCI domain lives on this NIC); the NAA stays usable
	for a in fw_activate driver_reinit; do
		out=$(devlink dev reload "pci/$NIC_BDF" action $a 2>&1); rc=$?
		echo "$out"
		[ $rc -ne 0 ] && echo "$out" | grep -q "NAA nodes are attached through this NIC: detach them first" &&
			pass "devlink dev reload action $a refused while node $NODE is attached" ||
			fail "devlink dev reload action $a refused while node $NODE is attached (exit $rc)"
	done
	sacc_job "after the refused reloads" "$ATTACH_DOMAIN:01:00.0" 64K
	naactl detach "$NODE" && pass "naactl detach $NODE" || fail "naactl detach $NODE"
	# detached, driver_reinit goes through; the attach after the node's own
	# reload below runs on the re-initialised driver
	out=$(devlink dev reload "pci/$NIC_BDF" action driver_reinit 2>&1); rc=$?
	echo "$out"
	[ $rc -eq 0 ] && echo "$out" | grep -q "driver_reinit" &&
		pass "devlink dev reload action driver_reinit with no node attached" ||
		fail "devlink dev reload action driver_reinit with no node attached (exit $rc)"
	dmesg | grep -q "reload (driver_reinit) done in" && pass "the driver logged the re-init" ||
		fail "the driver logged the re-init"
fi

# ---- a power cut: the flashing process killed while programming a larger image
head -c 32768 /dev/urandom >$T/big.bit
naaimg create --board sim --part mt25qu01g --role update --version 9.9.$p --build "$b" -o $T/big.img $T/big.bit
naactl flash "$NODE" $T/big.img >$T/big.out 2>&1 &
pid=$!
n=0
until grep -Eq '^Programming [0-9]+/129 ([2-9][0-9])%' $T/big.out || [ $n -ge 3000 ]; do
	kill -0 $pid 2>/dev/null || break
	sleep 0.1; n=$((n + 1))
done
kill -9 $pid 2>/dev/null; wait $pid; rc=$?
cat $T/big.out
[ $rc -eq 137 ] && grep -q '^Programming' $T/big.out && ! grep -q '^Verifying' $T/big.out &&
	pass "naactl flash killed while programming ($(grep '^Programming' $T/big.out | tail -n 1))" ||
	fail "naactl flash killed while programming (exit $rc)"
info=$(naactl flash --info "$NODE"); echo "$info"
[ "$(slot update)" = "9.9.$p" ] && [ "$(state update)" != ok ] && [ "$(state fallback)" = ok ] &&
	pass "after the power cut: the update slot holds the partial image's header (9.9.$p, not ok), the fallback is intact" ||
	fail "after the power cut: update '$(slot update)' '$(state update)', fallback '$(state fallback)'"
# the node is still held by this host (killed before its release): a reload may
out=$(naactl regs "$NODE" own.owner); echo "$out"
reload fallback "$fb"
out=$(naactl regs "$NODE" own.owner); echo "$out"
echo "$out" | grep -q 'held=0' && pass "the reload released the node (its holder reset with it)" ||
	fail "the node is still held after the reload"

# ---- flashed again after the power cut: the new update boots
out=$(naactl -j flash "$NODE" $T/up2.img 2>&1); rc=$?	# -j: one JSON object, no progress lines
echo "$out"
[ $rc -eq 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] &&
	echo "$out" | grep -Eq "^\{\"node\":$NODE,\"slot\":\"update\",\"file\":\"$T/up2.img\",\"offset\":67108864,\"bytes\":80,\"version\":\"$up2\",\"build\":\"20261125-$b\",\"ms\":[0-9]+\}\$" &&
	pass "flashed again after the power cut: update $up2 (naactl -j flash)" || fail "naactl -j flash $NODE up2.img (exit $rc)"
[ "$(slot update)" = "$up2" ] && [ "$(state update)" = ok ] && pass "--info: stored update $up2, ok" ||
	fail "--info: stored update '$(slot update)' '$(state update)'"
[ "$(running)" = "$fb fallback" ] && pass "running unchanged until the reload ($fb fallback)" ||
	fail "running '$(running)', was '$fb fallback'"
reload update "$up2"

# ---- the reloaded node in use: attached, a job passes
if naa_attach "$NODE"; then
	driver_bound "$ATTACH_DOMAIN:01:00.0" sample_accel && pass "sample_accel bound after the reload" ||
		fail "sample_accel not bound after the reload"
	sacc_job "after the reload" "$ATTACH_DOMAIN:01:00.0" 64K
	naactl detach "$NODE" && pass "naactl detach $NODE" || fail "naactl detach $NODE"
fi
naa_stats
naa_dmesg_clean
finish
