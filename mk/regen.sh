#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerate everything that comes from the SystemRDL register description.
#   mk/regen.sh OUTDIR   writes OUTDIR/{rtl/gen,kernel/include,docs}/...
# `make regs` runs it on the tree; `make test` runs it into build/ and diffs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
mkdir -p "$out"; outabs=$(cd "$out" && pwd)
venv=${VENV:-$top/build/venv}
cd "$top"
rdl=rtl/regs/extoll_nic.rdl
mkdir -p "$outabs/rtl/gen" "$outabs/kernel/include" "$outabs/docs"

# RTL decode. Yosys reads only packed structs, so make the hwif structs packed
# (they are plain bit bundles; Verilator treats both the same).
"$venv/bin/peakrdl" regblock "$rdl" -o "$outabs/rtl/gen" --cpuif passthrough \
	--module-name extoll_regs --package-name extoll_regs_pkg >/dev/null
sed -i -E 's/\bstruct \{/struct packed {/' "$outabs/rtl/gen/extoll_regs.sv" "$outabs/rtl/gen/extoll_regs_pkg.sv"

"$venv/bin/python" "$top/rtl/regs/gen_cheader.py" "$rdl" "$outabs/kernel/include/extoll_regs.h"

"$venv/bin/peakrdl" markdown "$rdl" -o "$outabs/docs/registers.md" >/dev/null
