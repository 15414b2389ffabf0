// SPDX-License-Identifier: Apache-2.0
//
// backdoor_port.svh: one definition of pcie_backdoor's two side channels
// (docs/nic.md, docs/remote-access.md), for port lists, wires and connections. Macros rather
// than an interface for the reasons given in rtl/lib/tlp_stream.svh.
//
// Raw TLP inject (a TLP_RAW packet from the network, sent toward the PCIe side):
//   p_valid, p_ready; p_hdr[127:0] header dword i in bits 32*i+31:32*i;
//   p_data[63:0] payload dwords 1 (63:32), 0 (31:0); p_hdr_dw header dwords
//   (4, else 3); p_data_dw payload dwords 0-2 (3: 2).
// Forwarded completion (extracted by the RX filter, sent to a node):
//   p_valid, p_ready; p_hdr completion header dwords 0-2 (dword 3 zero);
//   p_data payload dwords 1, 0 (absent: 0); p_data_dw payload dwords 0-2;
//   p_node rx_filter.fwd_node and p_addr rx_fwd_addr at extraction.
//
//   `BD_INJ_S_PORTS(p) / `BD_INJ_M_PORTS(p) / `BD_INJ_WIRES(s) / `BD_INJ_CONNECT(p, s)
//   `BD_FWD_S_PORTS(p) / `BD_FWD_M_PORTS(p) / `BD_FWD_WIRES(s) / `BD_FWD_CONNECT(p, s)

`ifndef BACKDOOR_PORT_SVH
`define BACKDOOR_PORT_SVH

`define BD_INJ_S_PORTS(p) \
  input  wire logic         p``_valid, \
  output      logic         p``_ready, \
  input  wire logic [127:0] p``_hdr, \
  input  wire logic [63:0]  p``_data, \
  input  wire logic [2:0]   p``_hdr_dw, \
  input  wire logic [1:0]   p``_data_dw

`define BD_INJ_M_PORTS(p) \
  output      logic         p``_valid, \
  input  wire logic         p``_ready, \
  output      logic [127:0] p``_hdr, \
  output      logic [63:0]  p``_data, \
  output      logic [2:0]   p``_hdr_dw, \
  output      logic [1:0]   p``_data_dw

`define BD_INJ_WIRES(s) \
  logic s``_valid, s``_ready; logic [127:0] s``_hdr; logic [63:0] s``_data; \
  logic [2:0] s``_hdr_dw; logic [1:0] s``_data_dw

`define BD_INJ_CONNECT(p, s) \
  .p``_valid(s``_valid), .p``_ready(s``_ready), .p``_hdr(s``_hdr), \
  .p``_data(s``_data), .p``_hdr_dw(s``_hdr_dw), .p``_data_dw(s``_data_dw)

`define BD_FWD_S_PORTS(p) \
  input  wire logic         p``_valid, \
  output      logic         p``_ready, \
  input  wire logic [127:0] p``_hdr, \
  input  wire logic [63:0]  p``_data, \
  input  wire logic [1:0]   p``_data_dw, \
  input  wire logic [15:0]  p``_node, \
  input  wire logic [63:0]  p``_addr

`define BD_FWD_M_PORTS(p) \
  output      logic         p``_valid, \
  input  wire logic         p``_ready, \
  output      logic [127:0] p``_hdr, \
  output      logic [63:0]  p``_data, \
  output      logic [1:0]   p``_data_dw, \
  output      logic [15:0]  p``_node, \
  output      logic [63:0]  p``_addr

`define BD_FWD_WIRES(s) \
  logic s``_valid, s``_ready; logic [127:0] s``_hdr; logic [63:0] s``_data; \
  logic [1:0] s``_data_dw; logic [15:0] s``_node; logic [63:0] s``_addr

`define BD_FWD_CONNECT(p, s) \
  .p``_valid(s``_valid), .p``_ready(s``_ready), .p``_hdr(s``_hdr), .p``_data(s``_data), \
  .p``_data_dw(s``_data_dw), .p``_node(s``_node), .p``_addr(s``_addr)

`endif  // BACKDOOR_PORT_SVH
