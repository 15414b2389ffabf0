# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit tb/tb_flash_top: testbench top of the flash controller (the
# register file and nic_flash), rtl/tb/tb_flash.cpp.
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@nic

tb_flash_top.sv
