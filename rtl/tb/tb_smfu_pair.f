# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit tb/tb_smfu_pair: testbench top of a host SMFU and an NAA SMFU on a wire
# (rtl/tb/smfu/tb_smfu.cpp).
# Read by mk/rtl-files.sh for lint, synthesis, testbenches and the co-simulation
# models (docs/rtl-build.md). One entry a line, paths relative to this file:
#   @UNIT      a unit this one depends on      FILE.sv   a source, in compile order
#   FILE.svh   a header (its dir is -I)        FILE.vlt  Verilator waivers
# Adding a file to the unit is adding its line here.

@smfu

smfu/tb_smfu_pair.sv
