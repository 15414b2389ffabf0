# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit net: links, router and network node (docs/network.md).
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@gen/net_pkg
@lib

net_pkt_fifo.sv
net_rr_arb.sv
net_route.sv
router.sv
link_tx.sv
link_rx.sv
net_node.sv
link_phy_cdc.sv
net_phy_cdc.sv
net_node_lclk.sv
