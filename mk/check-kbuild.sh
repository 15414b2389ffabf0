#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the kernel modules with W=1 for every kernel we support and fails on
# any compiler warning: Debian 12's 6.1 (build/kernel/release, in kernel/) and
# 6.12 (build/kernel-6.12, in build/kmod-6.12/kernel; see kernel/Makefile).
# Version checks belong in kernel/include/extoll_compat.h.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
for kver in "" 6.12; do
	name=$(cat "$top/build/kernel${kver:+-$kver}/release" 2>/dev/null || echo "${kver:-default}")
	echo "=== kernel $name"
	start=$(date +%s)
	make -C "$top/kernel" W=1 ${kver:+KVER=$kver} >"$log" 2>&1
	mrc=$?
	cat "$log"
	if [ $mrc -ne 0 ]; then echo "kernel build for $name failed (exit $mrc)"; rc=1; continue; fi
	if grep -qE 'warning:' "$log"; then echo "kernel build for $name has warnings"; rc=1; continue; fi
	if [ -n "$kver" ]; then ls "$top/build/kmod-$kver"/kernel/*.ko "$top/build/kmod-$kver"/kernel/accel/*.ko || rc=1
	else ls "$top"/kernel/*.ko "$top"/kernel/accel/*.ko || rc=1; fi
	echo "=== kernel $name: no warnings ($(( $(date +%s) - start )) s)"
done
exit $rc
