# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit tb/tb_pkt_probe: testbench top that packs and unpacks net_pkg records
# (rtl/tb/net/tb_pkt.cpp).
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@gen/net_pkg

net/tb_pkt_probe.sv
