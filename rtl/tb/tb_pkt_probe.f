# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit tb/tb_pkt_probe: testbench top that packs and unpacks net_pkg records
# (rtl/tb/net/tb_pkt.cpp).
# Read by mk/rtl-files.sh for lint, synthesis, testbenches and the co-simulation
# models (docs/rtl-build.md). One entry a line, paths relative to this file:
#   @UNIT      a unit this one depends on      FILE.sv   a source, in compile order
#   FILE.svh   a header (its dir is -I)        FILE.vlt  Verilator waivers
# Adding a file to the unit is adding its line here.

@gen/net_pkg

net/tb_pkt_probe.sv
