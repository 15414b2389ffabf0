// SPDX-License-Identifier: Apache-2.0
//
// tlp_stream.svh: one definition of the port group of a TLP stream
// (docs/tlp-interface.md: data, keep, sop, eop, valid, ready), for port lists,
// signal declarations and instance connections.
//
// Why macros and not an SV interface or a packed struct: the signals keep
// their flat names (p_data, p_keep, ...), which the C++ testbenches and the
// co-simulation models use on Verilated tops, Verilator does not allow
// interface ports on a top module, and Yosys reads all of this. The same
// technique as pulp-platform/axi's typedef.svh / assign.svh.
//
//   `TLP_S_PORTS(p)            sink ports:   p_data .. p_valid in, p_ready out
//   `TLP_M_PORTS(p)            source ports: p_data .. p_valid out, p_ready in
//   `TLP_WIRES(s)              logic s_data .. s_ready (one stream)
//   `TLP_WIRES_N(s, n)         n streams side by side: s_data[n*DW], s_sop[n], ...
//   `TLP_CONNECT(p, s)         .p_data(s_data), ... .p_ready(s_ready)
//   `TLP_CONNECT_AT(p, s, i)   .p_data(s_data[i*DW +: DW]), ... .p_ready(s_ready[i])
//   `TLP_CONNECT_CAT(p, a, b)  .p_data({a_data, b_data}), ...: streams a (index 1)
//                              and b (index 0) into an N = 2 port such as
//                              pcie_tlp_arb's s_*
//   `TLP_ASSIGN_AT(s, i, a)    assigns: stream a drives stream i of the n-wide
//                              s (`TLP_WIRES_N), a_ready = s_ready[i]
//
// Write a comma after a macro as after a port or connection; none after the
// last one. `include this file at the top of a file (it has a guard).

`ifndef TLP_STREAM_SVH
`define TLP_STREAM_SVH

`define TLP_S_PORTS(p) \
  input  wire logic [pcie_tlp_pkg::TLP_DATA_W-1:0] p``_data, \
  input  wire logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] p``_keep, \
  input  wire logic p``_sop, \
  input  wire logic p``_eop, \
  input  wire logic p``_valid, \
  output      logic p``_ready

`define TLP_M_PORTS(p) \
  output      logic [pcie_tlp_pkg::TLP_DATA_W-1:0] p``_data, \
  output      logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] p``_keep, \
  output      logic p``_sop, \
  output      logic p``_eop, \
  output      logic p``_valid, \
  input  wire logic p``_ready

`define TLP_WIRES(s) \
  logic [pcie_tlp_pkg::TLP_DATA_W-1:0] s``_data; \
  logic [pcie_tlp_pkg::TLP_KEEP_W-1:0] s``_keep; \
  logic s``_sop, s``_eop, s``_valid, s``_ready

`define TLP_WIRES_N(s, n) \
  logic [(n)*pcie_tlp_pkg::TLP_DATA_W-1:0] s``_data; \
  logic [(n)*pcie_tlp_pkg::TLP_KEEP_W-1:0] s``_keep; \
  logic [(n)-1:0] s``_sop, s``_eop, s``_valid, s``_ready

`define TLP_CONNECT(p, s) \
  .p``_data(s``_data), .p``_keep(s``_keep), .p``_sop(s``_sop), \
  .p``_eop(s``_eop), .p``_valid(s``_valid), .p``_ready(s``_ready)

`define TLP_CONNECT_AT(p, s, i) \
  .p``_data(s``_data[(i)*pcie_tlp_pkg::TLP_DATA_W +: pcie_tlp_pkg::TLP_DATA_W]), \
  .p``_keep(s``_keep[(i)*pcie_tlp_pkg::TLP_KEEP_W +: pcie_tlp_pkg::TLP_KEEP_W]), \
  .p``_sop(s``_sop[i]), .p``_eop(s``_eop[i]), .p``_valid(s``_valid[i]), .p``_ready(s``_ready[i])

`define TLP_CONNECT_CAT(p, a, b) \
  .p``_data({a``_data, b``_data}), .p``_keep({a``_keep, b``_keep}), \
  .p``_sop({a``_sop, b``_sop}), .p``_eop({a``_eop, b``_eop}), \
  .p``_valid({a``_valid, b``_valid}), .p``_ready({a``_ready, b``_ready})

`define TLP_ASSIGN_AT(s, i, a) \
  assign s``_data[(i)*pcie_tlp_pkg::TLP_DATA_W +: pcie_tlp_pkg::TLP_DATA_W] = a``_data; \
  assign s``_keep[(i)*pcie_tlp_pkg::TLP_KEEP_W +: pcie_tlp_pkg::TLP_KEEP_W] = a``_keep; \
  assign s``_sop[i] = a``_sop; \
  assign s``_eop[i] = a``_eop; \
  assign s``_valid[i] = a``_valid; \
  assign a``_ready = s``_ready[i]

`endif  // TLP_STREAM_SVH
