#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the kernel modules with W=1 for every kernel we support and fails on
# any compiler warning: Debian 12's 6.1 (build/kernel/release, in kernel/) and
# 6.12 (build/kernel-6.12), each in a copy of the sources under a temporary directory
# (kernel/Makefile's MDIR), so that the modules the co-simulation uses (kernel/,
# build/kmod-6.12) are neither rebuilt with W=1 nor rebuilt after it.
# Version checks belong in kernel/include/extoll_compat.h.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
out=$(mktemp -d)
trap 'rm -rf "$log" "$out"' EXIT
rc=0
for kver in "" 6.12; do
	name=$(cat "$top/build/kernel${kver:+-$kver}/release" 2>/dev/null || echo "${kver:-default}")
	echo "=== kernel $name"
	start=$(date +%s)
	mdir=$out/k${kver:-default}/kernel
	make -C "$top/kernel" W=1 ${kver:+KVER=$kver} MDIR="$mdir" >"$log" 2>&1
	mrc=$?
	cat "$log"
	if [ $mrc -ne 0 ]; then echo "kernel build for $name failed (exit $mrc)"; rc=1; continue; fi
	if grep -qE 'warning:' "$log"; then echo "kernel build for $name has warnings"; rc=1; continue; fi
	ls "$mdir"/*.ko "$mdir"/accel/*.ko || rc=1
	echo "=== kernel $name: no warnings ($(( $(date +%s) - start )) s)"
done
exit $rc
