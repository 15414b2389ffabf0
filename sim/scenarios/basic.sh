#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Foundation test: the NIC RTL enumerates in a real Linux guest, the extoll
# driver binds and reaches its registers, and unloads cleanly.
# topology: single
. /lib/scenario-lib.sh

lspci -nn
if lspci -nn | grep -q '\[1ee7:0001\]'; then pass "lspci shows the NIC [1ee7:0001]"
else fail "lspci shows the NIC [1ee7:0001]"; fi

v=$(lspci -v -s "$NIC_BDF")
echo "$v"
echo "$v" | grep -q 'Memory at .*size=64K' && pass "BAR0 register BAR, 64K" || fail "BAR0 register BAR, 64K"
echo "$v" | grep -q 'Memory at .*size=256M' && pass "aperture BAR, 256M" || fail "aperture BAR, 256M"

# The capability list as Linux's PCI core parses it (PCIe Base Spec. 7.5.2 PM, 7.7.2 MSI-X)
vv=$(lspci -vvv -s "$NIC_BDF")
echo "$vv" | grep -E 'Capabilities|NoSoftRst|Vector table|PBA|ExtTag'
echo "$vv" | grep -q 'Capabilities: \[80\] Power Management version 3' &&
	pass "lspci -vvv: PM capability" || fail "lspci -vvv: PM capability"
echo "$vv" | grep -q 'Status: D0 NoSoftRst+' && pass "lspci -vvv: PM in D0, NoSoftRst+" ||
	fail "lspci -vvv: PM in D0, NoSoftRst+"
echo "$vv" | grep -q 'Capabilities: \[88\] MSI-X: Enable. Count=1' &&
	pass "lspci -vvv: MSI-X capability, one vector" || fail "lspci -vvv: MSI-X capability, one vector"
echo "$vv" | grep -q 'Vector table: BAR=0 offset=00001000' && pass "lspci -vvv: MSI-X table in BAR0" ||
	fail "lspci -vvv: MSI-X table in BAR0"
echo "$vv" | grep -A1 'DevCap:' | grep -q 'ExtTag+' && pass "lspci -vvv: DevCap ExtTag+" ||
	fail "lspci -vvv: DevCap ExtTag+"

# The version straight from the RTL register (before the driver claims the BAR)
setpci -s "$NIC_BDF" COMMAND=0x0002:0x0002
raw=$(reg_rd "${EXTOLL_INFO_VERSION:-0x10}")
if [ -n "$raw" ]; then
	raw=$((raw))
	hw_ver="$(( (raw >> 32) & 0xffff )).$(( (raw >> 16) & 0xffff )).$(( raw & 0xffff ))"
	pass "version register read through BAR0: $hw_ver"
else
	hw_ver=unknown
	fail "version register read through BAR0"
fi
# what the NIC booted (flash.boot.slot; 0: no image), for the build id check below
boot_slot=$(reg_rd $((EXTOLL_FLASH_BASE + EXTOLL_FLASH_BOOT)))
boot_slot=$(( ${boot_slot:-0} & 3 ))

if insmod /lib/modules/extoll.ko $EXTOLL_KO_PARAMS; then pass "insmod extoll.ko"
else fail "insmod extoll.ko"; fi
dmesg | grep -i extoll
[ -e "$NIC_DEV/driver" ] && [ "$(basename "$(readlink "$NIC_DEV/driver")")" = extoll ] &&
	pass "driver bound to $NIC_BDF" || fail "driver bound to $NIC_BDF"

if [ -r "$NIC_DEV/rtl_version" ]; then
	sw_ver=$(cat "$NIC_DEV/rtl_version")
	pass "sysfs rtl_version exists: $sw_ver"
	[ "$sw_ver" = "$hw_ver" ] && pass "rtl_version matches the RTL ($hw_ver)" ||
		fail "rtl_version '$sw_ver' matches the RTL ($hw_ver)"
else
	fail "sysfs rtl_version exists"
fi
for a in build node_id role irq_mode; do
	[ -r "$NIC_DEV/$a" ] && echo "$a: $(cat "$NIC_DEV/$a")"
done
# info.build: without a flash image (flash.boot.slot 0) the run-time build id of the
# models (build/sim/build-id, docs/cosim.md "Build id"), which sim/run passes as sim.build=
want=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^sim\.build=//p')
if [ -n "$want" ]; then
	got=$(cat "$NIC_DEV/build" 2>/dev/null)
	if [ "$boot_slot" != 0 ]; then
		pass "sysfs build $got: booted from flash slot $boot_slot (not the run-time build id)"
	elif [ "$got" = "$want" ]; then
		pass "sysfs build is the run-time build id $got"
	else
		fail "sysfs build '$got' is the run-time build id $want"
	fi
else
	fail "sim.build on the kernel command line (sim/run passes the models' build id)"
fi

val=$(rand64)
if echo "$val" >"$NIC_DEV/scratch"; then
	got=$(cat "$NIC_DEV/scratch")
	hex_eq "$got" "$val" && pass "scratch round trip $val" || fail "scratch round trip: wrote $val, read $got"
else
	fail "scratch write"
fi

# naactl regs/links by name on the local NIC (BAR0, or its own RRA where
# strict devmem refuses the mapping), text and JSON (one line, no escaped /)
fv() { if [ "$1" -gt 9 ]; then printf '0x%x' "$1"; else printf '%d' "$1"; fi; }	# as naactl prints a field
out=$(naactl regs info.version 2>&1); rc=$?
echo "$out"
IFS=. read -r ma mi pa <<EOF_VER
$hw_ver
EOF_VER
echo "$out" | grep -Eq "^info\.version +0x0010 .* patch=$(fv "${pa:-x}") minor=$(fv "${mi:-x}") major=$(fv "${ma:-x}")\$" &&
	[ $rc -eq 0 ] && pass "naactl regs info.version: fields decoded ($hw_ver)" || fail "naactl regs info.version (exit $rc)"
out=$(naactl -j regs info.id 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q '"magic":1280596037' &&
	echo "$out" | grep -q '"registers":\[{"block":"info","register":"id","offset":"0x0008"' &&
	! echo "$out" | grep -qF '\/' && pass "naactl -j regs info.id: one JSON line, magic decoded" ||
	fail "naactl -j regs info.id (exit $rc)"
out=$(naactl links 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -Eq '^node [0-9]+ \(local NIC, (bar0|rra)\): [0-7] of 7 links up, CRC errors [0-9]+' &&
	[ "$(echo "$out" | grep -Ec '^ +[0-6]  [a-zXYZ+-]+ +(up|down)$')" -eq 7 ] &&
	pass "naactl links: 7 links, counters" || fail "naactl links (exit $rc)"
out=$(naactl links -j 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -q '"n_links":7,"crc_errors":[0-9]*,"unroutable":[0-9]*,"malformed":[0-9]*,"retransmissions":[0-9]*,"links":\[{"link":0,"port":"X+","state":"' &&
	pass "naactl links -j" || fail "naactl links -j (exit $rc)"

# What the udev rule (userspace/udev/60-extoll.rules) does on a real host: /dev/extollN
# to group extoll, mode 0660. A member then runs `naactl info` and `list` without root;
# before, the driver's 0600 keeps them out. (busybox su: root needs no password)
dev=/dev/$(ls "$NIC_DEV/misc" 2>/dev/null | head -1)
echo "extoll:x:900:alice" >>/etc/group
echo "alice:x:1000:1000::/tmp:/bin/sh" >>/etc/passwd
if [ -c "$dev" ]; then
	ls -l "$dev"
	su -s /bin/sh alice -c 'naactl info' >/dev/null 2>&1 &&
		fail "a user outside root cannot open $dev (0600)" || pass "a user outside root cannot open $dev (0600)"
	chgrp extoll "$dev" && chmod 0660 "$dev"
	if out=$(su -s /bin/sh alice -c 'naactl info && naactl list' 2>&1); then
		echo "$out"; pass "a member of group extoll runs naactl info and list on $dev (0660)"
	else
		echo "$out"; fail "a member of group extoll runs naactl info and list on $dev (0660)"
	fi
else
	fail "the NIC's character device (sysfs misc/) exists"
fi

if rmmod extoll; then pass "rmmod extoll"; else fail "rmmod extoll"; fi
[ -e "$NIC_DEV/driver" ] && fail "driver unbound after rmmod" || pass "driver unbound after rmmod"

if dmesg | grep -E 'WARNING|BUG|Oops|Call Trace'; then fail "dmesg free of WARNING/BUG/Oops"
else pass "dmesg free of WARNING/BUG/Oops"; fi
finish
