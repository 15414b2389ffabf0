// SPDX-License-Identifier: Apache-2.0
//
// nic_pkt_port.svh: one definition of the packet port between the packet
// sources of local port 0 (nic_rra_rsp, nic_fwd_pkt, nic_rra_req) and the
// transmit mux (nic_net_tx): a whole packet of 1..3 flits presented at once.
//
//   `NIC_PKT_M_PORTS(p)          source ports: p_valid, p_nflit, p_f0..p_f2 out,
//                                p_ready in (p_nflit: flits 1..3; unused flits 0)
//   `NIC_PKT_CONNECT_AT(p, s, i) .p_valid(s_valid[i]), ... : source i of the
//                                mux's arrays s_valid[N], s_f0[N], ...
//
// Write a comma after a macro as after a port or connection; none after the
// last one. `include this file at the top of a file (it has a guard).

`ifndef NIC_PKT_PORT_SVH
`define NIC_PKT_PORT_SVH

`define NIC_PKT_M_PORTS(p) \
  output      logic         p``_valid, \
  input  wire logic         p``_ready, \
  output      logic [1:0]   p``_nflit, \
  output      logic [127:0] p``_f0, \
  output      logic [127:0] p``_f1, \
  output      logic [127:0] p``_f2

`define NIC_PKT_CONNECT_AT(p, s, i) \
  .p``_valid(s``_valid[i]), .p``_ready(s``_ready[i]), .p``_nflit(s``_nflit[i]), \
  .p``_f0(s``_f0[i]), .p``_f1(s``_f1[i]), .p``_f2(s``_f2[i])

`endif  // NIC_PKT_PORT_SVH
