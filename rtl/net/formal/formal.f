# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit net/formal: formal harnesses of rtl/net (lint only; the proofs
# read their files themselves: rtl/net/formal/formal.list, docs/network.md "Formal checks").

@net

net_rr_arb_fv.sv
link_cred_fv.sv
net_pkt_fifo_fv.sv
router_fv.sv
