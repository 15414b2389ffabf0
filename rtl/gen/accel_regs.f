# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit gen/accel_regs: the sample accelerator's register package, generated from
# hw/regs/sample_accel.rdl by mk/gen.sh.
# Read by mk/rtl-files.sh for lint, synthesis, testbenches and the co-simulation
# models (docs/rtl-build.md). One entry a line, paths relative to this file:
#   @UNIT      a unit this one depends on      FILE.sv   a source, in compile order
#   FILE.svh   a header (its dir is -I)        FILE.vlt  Verilator waivers
# Adding a file to the unit is adding its line here.


accel_regs_pkg.sv
