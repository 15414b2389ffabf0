# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit lib: shared primitives (TLP package and helpers, FIFO, PCIe/MSI capability logic).
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.


pcie_tlp_pkg.sv
pcie_tlp_func.svh
tlp_stream.svh
net_local_port.svh
cpuif_port.svh
sync_fifo.sv
skid_buf.sv
sync_bit.sv
sync_reset.sv
async_fifo.sv
pcie_cfg_caps.sv
pcie_cfg_func.sv
