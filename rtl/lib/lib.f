# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit lib: shared primitives (TLP package and helpers, FIFO, PCIe/MSI capability logic).
# Read by mk/rtl-files.sh for lint, synthesis, testbenches and the co-simulation
# models (docs/rtl-build.md). One entry a line, paths relative to this file:
#   @UNIT      a unit this one depends on      FILE.sv   a source, in compile order
#   FILE.svh   a header (its dir is -I)        FILE.vlt  Verilator waivers
# Adding a file to the unit is adding its line here.


pcie_tlp_pkg.sv
pcie_tlp_func.svh
tlp_stream.svh
net_local_port.svh
cpuif_port.svh
sync_fifo.sv
pcie_cfg_caps.sv
