# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit tb/tb_nic_remote_top: testbench top of NICs joined by delayed links
# (host NIC - [intermediate NICs] - naa_node), rtl/tb/tb_nic_remote.cpp, tb_nic_smfu.cpp.
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@nic

tb_link_delay.sv
tb_nic_remote_top.sv
