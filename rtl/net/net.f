# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit net: links, router and network node (docs/network.md).
# Read by mk/rtl-files.sh for lint, synthesis, testbenches and the co-simulation
# models (docs/rtl-build.md). One entry a line, paths relative to this file:
#   @UNIT      a unit this one depends on      FILE.sv   a source, in compile order
#   FILE.svh   a header (its dir is -I)        FILE.vlt  Verilator waivers
# Adding a file to the unit is adding its line here.

@gen/net_pkg

net_pkt_fifo.sv
net_rr_arb.sv
net_route.sv
router.sv
link_tx.sv
link_rx.sv
net_node.sv
