# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit vendor: the host NIC on a vendor PCIe hard IP that owns config
# space (docs/hard-ip.md): its endpoint side and the tops per IP. Format: docs/rtl-build.md.

@nic
@vendor/xilinx

nic_hip_cdc.sv
nic_hip_side.sv
xilinx/extoll_nic_usp.sv
