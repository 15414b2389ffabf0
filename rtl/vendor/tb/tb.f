# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit vendor/tb: the cocotb top of the hard-IP test (rtl/vendor/tb,
# docs/hard-ip.md). Format: docs/rtl-build.md.

@vendor

tb_extoll_nic_usp.sv
