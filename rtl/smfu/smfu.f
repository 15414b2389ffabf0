# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit smfu: SMFU intervals, pass-through and notification queue (docs/smfu.md).
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@gen/net_pkg
@pcie

smfu_func.svh
smfu_wr_stamp.sv
smfu_net_if.sv
smfu_rd_cpl.sv
smfu_cpl2pkt.sv
smfu_eg.sv
smfu_in.sv
nq_ring.sv
smfu_cpl_order.sv
smfu_host.sv
smfu_naa.sv
