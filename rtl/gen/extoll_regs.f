# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit gen/extoll_regs: the NIC register block, generated from hw/regs/extoll_nic.rdl by
# mk/gen.sh (PeakRDL-regblock; extoll_addr_pkg by hw/gen/gen_cheader.py), with its Verilator waivers.
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

extoll_regs_pkg.sv
extoll_addr_pkg.sv
extoll_regs.sv
../lint.vlt
