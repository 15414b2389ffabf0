# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit vendor/xilinx: the Xilinx UltraScale+ PCIe (PCIE4) hard IP adapter
# (docs/hard-ip.md), and the ICAPE3 IPROG sequencer of flash.reload (fw/README.md). The NIC
# top on it, extoll_nic_usp.sv, is in unit vendor.
# Format: docs/rtl-build.md.

@lib
@pcie

pcie_usp_cq.sv
pcie_usp_rc.sv
pcie_usp_cc.sv
pcie_usp_rq.sv
pcie_usp_tx.sv
pcie_usp_msix.sv
pcie_usp_np_fc.sv
pcie_usp_dn512.sv
pcie_usp_up512.sv
pcie_usp_w512.sv
pcie_usp_if.sv
icape3_iprog.sv
