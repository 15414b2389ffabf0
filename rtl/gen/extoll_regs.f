# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit gen/extoll_regs: the NIC register block, generated from hw/regs/extoll_nic.rdl by
# mk/gen.sh (PeakRDL-regblock), with its Verilator waivers.
# Read by mk/rtl-files.sh for lint, synthesis, testbenches and the co-simulation
# models (docs/rtl-build.md). One entry a line, paths relative to this file:
#   @UNIT      a unit this one depends on      FILE.sv   a source, in compile order
#   FILE.svh   a header (its dir is -I)        FILE.vlt  Verilator waivers
# Adding a file to the unit is adding its line here.

extoll_regs_pkg.sv
extoll_regs.sv
../lint.vlt
