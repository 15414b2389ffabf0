#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fails when regenerating from rtl/regs/extoll_nic.rdl would change a committed file.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$top/build/regs-check
rm -rf "$tmp"
"$top/mk/regen.sh" "$tmp"
rc=0
for f in rtl/gen/extoll_regs.sv rtl/gen/extoll_regs_pkg.sv kernel/include/extoll_regs.h docs/registers.md; do
	if ! diff -u "$top/$f" "$tmp/$f"; then
		echo "STALE: $f differs from what rtl/regs/extoll_nic.rdl generates; run 'make regs'"
		rc=1
	else
		echo "ok: $f"
	fi
done
exit $rc
