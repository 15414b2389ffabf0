# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit gen/accel_regs: the sample accelerator's register package, generated from
# hw/regs/sample_accel.rdl by mk/gen.sh.
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.


accel_regs_pkg.sv
