#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# devlink dev flash on the host NIC (docs/flash.md "devlink"): images made in
# the guest with naaimg into /lib/firmware; a good update image is written to
# the update slot of the NIC's simulated MT25QU01G (build/sim/flash/, persists
# across runs) with progress notifications, devlink dev info shows it as the
# stored version; every kind of bad image is refused with a message before
# anything is erased, and the stored version stays.
# topology: single
. /lib/scenario-lib.sh

DL=pci/$NIC_BDF
FW=/lib/firmware
mkdir -p "$FW"

if insmod /lib/modules/extoll.ko $EXTOLL_KO_PARAMS; then pass "insmod extoll.ko"
else fail "insmod extoll.ko"; finish; exit 1; fi
driver_bound "$NIC_BDF" extoll || fail "driver bound to $NIC_BDF"

# stored VERSION: the "fw" line of devlink dev info's stored section
stored() { devlink dev info "$DL" | awk '/^ *stored:/ { s = 1; next } /^ *[a-z]+:$/ { s = 0 } s && $1 == "fw" { print $2 }'; }

# a version this run has not seen before (the flash file persists)
patch=$(( $(od -An -N2 -tu2 /dev/urandom) ))
ver=7.3.$patch
build=$(printf '%08x' $(( $(od -An -N4 -tu4 /dev/urandom) )))
naaimg create --board sim --part mt25qu01g --role update --version "$ver" --build "$build" \
	--date 20261125 -o $FW/good.img --sim || fail "naaimg create (good update image)"
naaimg verify --board sim --part mt25qu01g $FW/good.img

devlink dev info "$DL"
running=$(devlink dev info "$DL" | awk '/^ *running:/ { s = 1; next } /^ *[a-z]+:$/ { s = 0 } s && $1 == "fw" { print $2 }')

# devlink prints the percentages only to a terminal: run it on one (ptyrun)
mountpoint -q /dev/pts || { mkdir -p /dev/pts && mount -t devpts devpts /dev/pts; }
out=$(ptyrun devlink dev flash "$DL" file good.img 2>&1); rc=$?
echo "$out" | tr '\r\b' '\n\n' | sed '/^ *$/d'
[ $rc -eq 0 ] && pass "devlink dev flash good.img ($ver, build $build)" || fail "devlink dev flash good.img (exit $rc)"
for s in Erasing Programming Verifying; do
	echo "$out" | tr '\r' '\n' | grep -Eq "$s.*100%" && pass "progress: $s ... 100%" ||
		fail "progress: $s ... 100%"
done

info=$(devlink dev info "$DL"); echo "$info"
s=$(stored)
[ "$s" = "$ver" ] && pass "devlink dev info: stored fw $s" || fail "devlink dev info: stored fw '$s', expected $ver"
echo "$info" | grep -Eq "fw.build +20261125-$build" && pass "devlink dev info: stored fw.build 20261125-$build" ||
	fail "devlink dev info: stored fw.build 20261125-$build"
echo "$info" | grep -Eq "board.id +0x0001" && pass "devlink dev info: board.id 0x0001" || fail "devlink dev info: board.id 0x0001"
r=$(devlink dev info "$DL" | awk '/^ *running:/ { s = 1; next } /^ *[a-z]+:$/ { s = 0 } s && $1 == "fw" { print $2 }')
[ -n "$r" ] && [ "$r" = "$running" ] && pass "running version unchanged ($r)" || fail "running version '$r', was '$running'"

# --- bad images: each refused with its message, the stored version unchanged

head -c 100 /dev/urandom >/tmp/bitstream
naaimg create --board u250 --part mt25qu01g --role update --version 9.9.9 --build 1 \
	-o $FW/board.img /tmp/bitstream || fail "naaimg create (u250 image)"
naaimg create --board sim --part mt25qu01g --role fallback --version 9.9.8 --build 1 \
	-o $FW/fallback.img --sim || fail "naaimg create (fallback image)"
sz=$(wc -c <$FW/good.img)
head -c $((sz - 1)) $FW/good.img >$FW/trunc.img
cp $FW/good.img $FW/crc.img
last=$(( $(tail -c 1 $FW/good.img | od -An -tu1) ))
wr $FW/crc.img "$(printf '\\%03o' $(( (last + 1) % 256 )))" $((sz - 1))	# the payload's last byte
# too large: payload_len 0x04000000 (64 + that > the 64 MiB slot), header CRC fixed
head -c 64 $FW/good.img >$FW/large.img
wr $FW/large.img '\000\000\000\004' 20
head -c 60 $FW/large.img >/tmp/hdr60
wr $FW/large.img "$(crc_le /tmp/hdr60)" 60
naaimg show $FW/large.img
# another part: part_id 0x20BB22 (the capacity byte), header CRC fixed
cp $FW/good.img $FW/part.img
wr $FW/part.img '\042' 12
head -c 60 $FW/part.img >/tmp/hdr60
wr $FW/part.img "$(crc_le /tmp/hdr60)" 60
# a header byte changed (version), header CRC not fixed
cp $FW/good.img $FW/hcrc.img
flip_byte $FW/hcrc.img 24
# one byte more than header + payload
cp $FW/good.img $FW/trailing.img
printf 'x' >>$FW/trailing.img

bad() {	# IMAGE MESSAGE-REGEX ERRNO-TEXT
	local out rc s
	out=$(devlink dev flash "$DL" file "$1" 2>&1); rc=$?
	echo "$out"
	[ $rc -ne 0 ] && echo "$out" | grep -Eq "$2" && pass "$1 refused: $(echo "$out" | grep -E "$2" | head -n 1)" ||
		fail "$1 refused with /$2/ (exit $rc)"
	s=$(stored)
	[ "$s" = "$ver" ] && pass "$1: stored fw still $ver" || fail "$1: stored fw '$s', expected $ver"
}
bad board.img 'wrong board id \(image for board 0x0250, expected 0x0001\)'
bad trunc.img 'image truncated'
bad crc.img 'payload CRC-32 mismatch'
bad large.img 'image too large'
bad fallback.img 'not an update image'
bad part.img 'wrong flash part \(image for JEDEC ID 0x20bb22, flash is 0x20bb21\)'
bad hcrc.img 'image header CRC-32 mismatch'
bad trailing.img 'trailing bytes'
bad nonexistent.img 'rror|No such file'

running_fw() { devlink dev info "$DL" | awk '/^ *running:/ { s = 1; next } /^ *[a-z]+:$/ { s = 0 } s && $1 == "fw" { print $2 }'; }
SYS=/sys/bus/pci/devices/$NIC_BDF

# --- devlink dev reload action fw_activate (docs/flash.md "Reloading the host
# NIC"): the driver stops, writes flash.reload, waits for the NIC to answer
# config reads again, restores its config space and initialises again; the NIC
# now runs the image written above
out=$(devlink dev reload "$DL" action fw_activate 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -q "fw_activate" &&
	pass "devlink dev reload $DL action fw_activate: $(echo "$out" | tr '\n' ' ')" ||
	fail "devlink dev reload $DL action fw_activate (exit $rc)"
dmesg | grep -E "extoll.*reload" | tail -n 3
r=$(running_fw)
[ "$r" = "$ver" ] && pass "devlink dev info: running fw $ver after devlink reload" ||
	fail "devlink dev info: running fw '$r' after devlink reload, expected $ver"
devlink dev info "$DL" | grep -Eq "^ *fw.build +20261125-$build" &&
	pass "devlink dev info: running fw.build 20261125-$build" || fail "devlink dev info: running fw.build 20261125-$build"
[ "$(cat $SYS/rtl_version)" = "$ver" ] && [ "$(cat $SYS/build)" = "20261125-$build" ] &&
	pass "sysfs rtl_version $ver, build 20261125-$build" ||
	fail "sysfs rtl_version '$(cat $SYS/rtl_version)' build '$(cat $SYS/build)', expected $ver 20261125-$build"
dmesg | grep -q "EXTOLL NIC rtl $ver build 20261125 commit $build" && pass "the driver logged the new version at re-init" ||
	fail "the driver logged the new version at re-init"
ms=$(dmesg | sed -n 's/.*reload (fw_activate) done in \([0-9]*\) ms.*/\1/p' | tail -n 1)
[ -n "$ms" ] && pass "reload took $ms ms (guest time, reload_down to the end of reload_up)" || fail "reload time logged"
# the driver works afterwards: a register through BAR0, the RRA path, the interrupt
echo 0x5a5a1234cafe0001 >$SYS/scratch
[ "$(cat $SYS/scratch)" = "0x5a5a1234cafe0001" ] && pass "scratch register written and read back after the reload" ||
	fail "scratch register after the reload: '$(cat $SYS/scratch)'"
out=$(naactl info 2>&1); echo "$out"
echo "$out" | grep -q "node" && pass "naactl info after the reload" || fail "naactl info after the reload"
driver_bound "$NIC_BDF" extoll && pass "extoll still bound to $NIC_BDF" || fail "extoll still bound to $NIC_BDF"

# --- naactl flash --reload (the tool's path, for NAA nodes and as before for
# the host NIC): unbind, flash.reload through BAR0, remove, rescan; the driver
# probes the NIC again, which runs a second image written now
ver2=7.4.$patch
naaimg create --board sim --part mt25qu01g --role update --version "$ver2" --build "$build" \
	--date 20261125 -o $FW/good2.img --sim || fail "naaimg create (second update image)"
devlink dev flash "$DL" file good2.img >/dev/null 2>&1 && pass "devlink dev flash good2.img ($ver2)" ||
	fail "devlink dev flash good2.img"
hn=$(naactl info | sed -n 's/.*, node \([0-9]*\),.*/\1/p')
out=$(naactl flash --reload "$hn" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -q "reloaded: running $ver2 build 20261125-$build from the update slot" &&
	pass "naactl flash --reload $hn (this host's NIC): running $ver2 from the update slot" ||
	fail "naactl flash --reload $hn (exit $rc)"
driver_bound "$NIC_BDF" extoll && pass "extoll bound to $NIC_BDF again" || fail "extoll bound to $NIC_BDF again"
r=$(running_fw)
[ "$r" = "$ver2" ] && pass "devlink dev info: running fw $ver2 after the reload" || fail "devlink dev info: running fw '$r', expected $ver2"
dmesg | grep -q "EXTOLL NIC rtl $ver2 build 20261125 commit $build" && pass "the driver logged the new version at probe" ||
	fail "the driver logged the new version at probe"

dmesg | grep -E 'extoll.*flash'
if dmesg | grep -E 'WARNING|BUG|Oops|Call Trace'; then fail "dmesg free of WARNING/BUG/Oops"
else pass "dmesg free of WARNING/BUG/Oops"; fi
rmmod extoll && pass "rmmod extoll" || fail "rmmod extoll"
finish
