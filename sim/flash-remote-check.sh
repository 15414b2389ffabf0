#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# After the flash-remote scenario: the boot the guest expects from its last `naactl
# flash --reload` (its line `FLASH-EXPECT-BOOT nodeN SLOT VERSION`) is the boot cosimd
# logged for that node after the reload (`pcie_model nodeN: flash ...: boot from ...:
# SLOT slot: version VERSION ...`, docs/flash.md "Boot in simulation"): the guest sees the
# node answer again with that version, the harness's log is a second witness.
#   sim/flash-remote-check.sh GUEST-LOG COSIMD-LOG
set -u
guest=$1 daemon=$2
exp=$(grep -o 'FLASH-EXPECT-BOOT node[0-9]* [a-z]* [0-9.]*' "$guest" | tail -n 1)
[ -n "$exp" ] || { echo "FAIL flash-remote-check: no FLASH-EXPECT-BOOT line in $guest"; exit 1; }
set -- $exp
node=$2 slot=$3 ver=$4
boots=$(grep "^pcie_model $node: flash .*: boot from " "$daemon")
echo "$boots"
n=$(printf '%s\n' "$boots" | grep -c 'boot from')
last=$(printf '%s\n' "$boots" | tail -n 1)
if [ "$n" -ge 2 ] && printf '%s\n' "$last" | grep -q ": $slot slot: version $ver build "; then
	echo "PASS flash-remote-check: after the reload $node booted the $slot slot, version $ver ($n boots logged)"
else
	echo "FAIL flash-remote-check: expected $node to boot the $slot slot, version $ver, after the reload ($n boots logged)"
	exit 1
fi
