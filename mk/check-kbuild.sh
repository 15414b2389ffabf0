#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the kernel modules with W=1 and fails on any compiler warning.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
make -C "$top/kernel" W=1 >"$log" 2>&1
rc=$?
cat "$log"
if [ $rc -ne 0 ]; then echo "kernel build failed (exit $rc)"; rm -f "$log"; exit 1; fi
if grep -qE 'warning:' "$log"; then echo "kernel build has warnings"; rm -f "$log"; exit 1; fi
ls "$top"/kernel/*.ko
rm -f "$log"
