#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The include rules of docs/architecture.md ("Layers"), checked on the tree:
# which folder may include from which. Looks at #include lines, -I flags in
# Makefiles/Kbuild and `include lines of SystemVerilog. Test `layers`.
#
#   kernel/      may use kernel/, hw/include            never rtl/, sim/, userspace/
#   userspace/   may use userspace/, kernel/include/uapi, hw/include   never rtl/, sim/
#   rtl/ (RTL)   only rtl/                               never sim/, kernel/, userspace/
#   rtl/tb/      rtl/, hw/                               never sim/, kernel/, userspace/
#   sim/         anything but rtl/tb/ (it Verilates rtl/ units through their file lists)
#   hw/          only hw/                                (the bottom layer)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
rc=0

# $1 folder, $2 forbidden path pattern (ERE), $3 rule text
forbid() {
	local hits
	hits=$(git ls-files -- "$1" | grep -vE '\.md$' |
		xargs -r grep -nE "(#include|-I|\`include|ccflags|CFLAGS|VPATH).*($2)" 2>/dev/null |
		grep -vE '^[^:]+:[0-9]+:\s*(//|/\*|\*|#[^i]|#$)')
	if [ -n "$hits" ]; then
		echo "FAIL $3:"
		echo "$hits" | sed 's/^/  /'
		rc=1
	else
		echo "ok: $3"
	fi
}

forbid kernel/    '\.\./(rtl|sim|userspace)/|(^|[ "/])(rtl|sim|userspace)/'  "kernel/ includes nothing from rtl/, sim/, userspace/"
forbid userspace/ '\.\./(rtl|sim)/|(^|[ "/])(rtl|sim)/[a-z]'                 "userspace/ includes nothing from rtl/, sim/"
forbid rtl/tb/    '\.\./sim/|(ROOT|TOP)\)?/sim/|(^|[ "])sim/'                 "testbenches include nothing from sim/"
forbid rtl/       '\.\./\.\./(sim|kernel|userspace)/|(ROOT|TOP)\)?/(sim|kernel|userspace)/' "rtl/ includes nothing from sim/, kernel/, userspace/"
forbid hw/        '\.\./(rtl|sim|kernel|userspace)/'                           "hw/ includes nothing from the layers above it"
forbid sim/       'rtl/tb/'                                                    "sim/ includes nothing from rtl/tb/"

[ $rc -eq 0 ] && echo "PASS layers" || echo "FAIL layers"
exit $rc
