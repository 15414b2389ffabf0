# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit tb/tb_smfu_pair: testbench top of a host SMFU and an NAA SMFU on a wire
# (rtl/tb/smfu/tb_smfu.cpp).
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@smfu

smfu/tb_smfu_pair.sv
