# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit smfu: SMFU intervals, pass-through and notification queue (docs/smfu.md).
# Read by mk/rtl-files.sh for lint, synthesis, testbenches and the co-simulation
# models (docs/rtl-build.md). One entry a line, paths relative to this file:
#   @UNIT      a unit this one depends on      FILE.sv   a source, in compile order
#   FILE.svh   a header (its dir is -I)        FILE.vlt  Verilator waivers
# Adding a file to the unit is adding its line here.

@gen/net_pkg
@pcie

smfu_func.svh
smfu_net_if.sv
smfu_rd_cpl.sv
smfu_cpl2pkt.sv
smfu_eg.sv
smfu_in.sv
nq_ring.sv
smfu_cpl_order.sv
smfu_host.sv
smfu_naa.sv
