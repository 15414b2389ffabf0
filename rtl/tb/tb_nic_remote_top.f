# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit tb/tb_nic_remote_top: testbench top of NICs joined by delayed links
# (host NIC - [intermediate NICs] - naa_node), rtl/tb/tb_nic_remote.cpp, tb_nic_smfu.cpp.
# Read by mk/rtl-files.sh for lint, synthesis, testbenches and the co-simulation
# models (docs/rtl-build.md). One entry a line, paths relative to this file:
#   @UNIT      a unit this one depends on      FILE.sv   a source, in compile order
#   FILE.svh   a header (its dir is -I)        FILE.vlt  Verilator waivers
# Adding a file to the unit is adding its line here.

@nic

tb_link_delay.sv
tb_nic_remote_top.sv
