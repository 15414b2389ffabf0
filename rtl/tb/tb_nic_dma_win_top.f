# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit tb/tb_nic_dma_win_top: testbench top of the DMA window table
# (nic_dma_win and its UR completer), rtl/tb/tb_nic_dma_win.cpp.
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@nic

tb_nic_dma_win_top.sv
