# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit pcie: PCIe endpoint (Type-0), root port (Type-1), backdoor, TLP helpers.
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@lib

pcie_tlp_slice.sv
pcie_tlp_arb.sv
pcie_cpl_ur.sv
pcie_cfg_cpl.sv
pcie_cfg_t0.sv
pcie_ep_rx.sv
pcie_err_mon.sv
pcie_msix.sv
pcie_reg_bridge.sv
pcie_ep.sv
pcie_cfg_t1.sv
pcie_rp_up.sv
pcie_rp_dn.sv
pcie_rp.sv
backdoor_port.svh
pcie_backdoor.sv
