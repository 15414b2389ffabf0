# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit vendor/boards/stubs: black-box declarations of the Xilinx
# primitives and the generated PCIe IP that the board tops instantiate, for Verilator
# lint only (`make -C rtl/vendor lint`). Vivado never reads this list: it has the real
# primitives (UNISIM) and generates the IP from fw/boards/<board>/ip/*.tcl.
# Each stub declares only the ports and parameters the tops use, drives its outputs
# with 0 and does nothing. Format: docs/rtl-build.md.

BUFG.sv
IBUFDS.sv
IBUFDS_GTE4.sv
ICAPE3.sv
MMCME4_BASE.sv
STARTUPE3.sv
pcie4_u250.sv
