#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run every generator of the hardware contract (hw/) into OUTDIR.
#   mk/gen.sh OUTDIR   writes OUTDIR/<path> for every path in GENERATED below
# `make gen` runs it on the tree; mk/check-generated.sh (test regs-generated) runs it
# into build/ and fails if any committed file differs.
#
# Sources (hw/):                     generated:
#   regs/extoll_nic.rdl (SystemRDL)  rtl/gen/extoll_regs{,_pkg}.sv, hw/include/extoll_regs.h,
#                                    rtl/gen/extoll_addr_pkg.sv (addresses for the RTL),
#                                    hw/include/extoll_regs_table.h (registers by name),
#                                    docs/registers.md
#   gen/gen_net.py (tables)          rtl/gen/net_pkg.sv, hw/include/net_packet.h,
#                                    hw/include/extoll_records.h (host-memory records),
#                                    tools/wireshark/extoll_tables.lua (the tables of
#                                    the dissector tools/wireshark/extoll.lua)
#   regs/sample_accel.rdl (SystemRDL) hw/include/accel_hw.h, rtl/gen/accel_regs_pkg.sv
#                                    (gen/gen_accel.py; with the NIC's rma staging layout
#                                    from regs/extoll_nic.rdl), docs/accel-registers.md
#   gen/gen_flash.py (tables)        hw/include/flash_image.h, userspace/python/flash_image.py
#                                    (the flash image format, docs/flash.md)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
mkdir -p "$out"; outabs=$(cd "$out" && pwd)
venv=${VENV:-$top/build/venv}
py=$venv/bin/python
cd "$top"
mkdir -p "$outabs/rtl/gen" "$outabs/hw/include" "$outabs/docs" "$outabs/tools/wireshark" \
	"$outabs/userspace/python"

# --- NIC register file -----------------------------------------------------
rdl=hw/regs/extoll_nic.rdl
# RTL decode. Yosys reads only packed structs, so make the hwif structs packed
# (they are plain bit bundles; Verilator treats both the same).
"$venv/bin/peakrdl" regblock "$rdl" -o "$outabs/rtl/gen" --cpuif passthrough \
	--module-name extoll_regs --package-name extoll_regs_pkg >/dev/null
sed -i -E 's/\bstruct \{/struct packed {/' "$outabs/rtl/gen/extoll_regs.sv" "$outabs/rtl/gen/extoll_regs_pkg.sv"
"$py" hw/gen/gen_cheader.py "$rdl" "$outabs/hw/include/extoll_regs.h" \
	"$outabs/hw/include/extoll_regs_table.h" "$outabs/rtl/gen/extoll_addr_pkg.sv"
"$venv/bin/peakrdl" markdown "$rdl" -o "$outabs/docs/registers.md" >/dev/null

# --- Network packets and records --------------------------------------------
"$py" hw/gen/gen_net.py "$outabs/rtl/gen/net_pkg.sv" "$outabs/hw/include/net_packet.h" \
	"$outabs/hw/include/extoll_records.h" "$outabs/tools/wireshark/extoll_tables.lua"

# --- Sample accelerator registers --------------------------------------------
rdl=hw/regs/sample_accel.rdl
"$py" hw/gen/gen_accel.py "$rdl" "$outabs/hw/include/accel_hw.h" "$outabs/rtl/gen/accel_regs_pkg.sv" \
	hw/regs/extoll_nic.rdl
"$venv/bin/peakrdl" markdown "$rdl" -o "$outabs/docs/accel-registers.md" >/dev/null

# --- Flash image format -------------------------------------------------------
"$py" hw/gen/gen_flash.py "$outabs/hw/include/flash_image.h" "$outabs/userspace/python/flash_image.py"
