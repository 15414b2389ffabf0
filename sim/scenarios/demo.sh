#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Demo: what a Linux guest sees of the co-simulated NIC.
. /lib/scenario-lib.sh
say() { echo; echo "### $*"; }

say "lspci -nn -v: the NIC RTL, enumerated by the guest's PCI core"
lspci -nn -v -s "$NIC_BDF"
say "insmod extoll.ko"
insmod /lib/modules/extoll.ko || fail "insmod"
say "driver messages"
dmesg | grep -i extoll
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
say "rmmod extoll"
rmmod extoll && pass "rmmod" || fail "rmmod"
dmesg | grep -E 'WARNING|BUG|Oops' && fail "dmesg clean"
finish
