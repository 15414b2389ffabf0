// SPDX-License-Identifier: Apache-2.0
//
// cpuif_port.svh: one definition of the register-access port groups
// (docs/registers.md): PeakRDL regblock's passthrough CPU interface and the
// arbiter's master ports, for port lists, wires and connections. Macros
// rather than an interface for the reasons given in tlp_stream.svh.
//
//   `CPUIF_M_PORTS(p, AW)    a master of nic_cpuif_arb: p_req, p_req_is_wr,
//                            p_addr[AW], p_wr_data, p_wr_biten out; p_stall
//                            (both stalls of the regblock), p_rd_ack, p_rd_err,
//                            p_rd_data, p_wr_ack, p_wr_err in
//   `CPUIF_S_PORTS(p, AW)    the same group seen from the arbiter's side
//   `CPUIF_CONNECT(p, s)     .p_req(s_req) ... .p_wr_err(s_wr_err)
//   `REGBLK_M_PORTS(p, AW)   PeakRDL passthrough master: as CPUIF_M_PORTS but
//                            with p_req_stall_wr and p_req_stall_rd
//   `REGBLK_WIRES(s, AW)     logic s_req ... s_wr_err of a passthrough cpuif
//   `REGBLK_CONNECT(p, s)    .p_req(s_req) ... .p_wr_err(s_wr_err)
//   `CFG_SPACE_PORTS         a configuration space's register port (pcie_cfg_func):
//                            rd_en, wr_en, addr (dword = byte
//                            offset / 4), wr_data, wr_be in; rd_data out, valid
//                            the cycle after rd_en
//   `CFG_SPACE_WIRES(s)      logic s_rd_en ... s_rd_data
//   `CFG_SPACE_CONNECT(s)    .rd_en(s_rd_en) ... .rd_data(s_rd_data)
//
// `include this file at the top of a file (it has a guard).

`ifndef CPUIF_PORT_SVH
`define CPUIF_PORT_SVH

`define CPUIF_M_PORTS(p, AW) \
  output      logic          p``_req, \
  output      logic          p``_req_is_wr, \
  output      logic [AW-1:0] p``_addr, \
  output      logic [63:0]   p``_wr_data, \
  output      logic [63:0]   p``_wr_biten, \
  input  wire logic          p``_stall, \
  input  wire logic          p``_rd_ack, \
  input  wire logic          p``_rd_err, \
  input  wire logic [63:0]   p``_rd_data, \
  input  wire logic          p``_wr_ack, \
  input  wire logic          p``_wr_err

`define CPUIF_S_PORTS(p, AW) \
  input  wire logic          p``_req, \
  input  wire logic          p``_req_is_wr, \
  input  wire logic [AW-1:0] p``_addr, \
  input  wire logic [63:0]   p``_wr_data, \
  input  wire logic [63:0]   p``_wr_biten, \
  output      logic          p``_stall, \
  output      logic          p``_rd_ack, \
  output      logic          p``_rd_err, \
  output      logic [63:0]   p``_rd_data, \
  output      logic          p``_wr_ack, \
  output      logic          p``_wr_err

`define CPUIF_CONNECT(p, s) \
  .p``_req(s``_req), .p``_req_is_wr(s``_req_is_wr), .p``_addr(s``_addr), \
  .p``_wr_data(s``_wr_data), .p``_wr_biten(s``_wr_biten), .p``_stall(s``_stall), \
  .p``_rd_ack(s``_rd_ack), .p``_rd_err(s``_rd_err), .p``_rd_data(s``_rd_data), \
  .p``_wr_ack(s``_wr_ack), .p``_wr_err(s``_wr_err)

`define REGBLK_M_PORTS(p, AW) \
  output      logic          p``_req, \
  output      logic          p``_req_is_wr, \
  output      logic [AW-1:0] p``_addr, \
  output      logic [63:0]   p``_wr_data, \
  output      logic [63:0]   p``_wr_biten, \
  input  wire logic          p``_req_stall_wr, \
  input  wire logic          p``_req_stall_rd, \
  input  wire logic          p``_rd_ack, \
  input  wire logic          p``_rd_err, \
  input  wire logic [63:0]   p``_rd_data, \
  input  wire logic          p``_wr_ack, \
  input  wire logic          p``_wr_err

`define REGBLK_WIRES(s, AW) \
  logic          s``_req, s``_req_is_wr; \
  logic [AW-1:0] s``_addr; \
  logic [63:0]   s``_wr_data, s``_wr_biten, s``_rd_data; \
  logic          s``_req_stall_wr, s``_req_stall_rd; \
  logic          s``_rd_ack, s``_rd_err, s``_wr_ack, s``_wr_err

`define REGBLK_CONNECT(p, s) \
  .p``_req(s``_req), .p``_req_is_wr(s``_req_is_wr), .p``_addr(s``_addr), \
  .p``_wr_data(s``_wr_data), .p``_wr_biten(s``_wr_biten), \
  .p``_req_stall_wr(s``_req_stall_wr), .p``_req_stall_rd(s``_req_stall_rd), \
  .p``_rd_ack(s``_rd_ack), .p``_rd_err(s``_rd_err), .p``_rd_data(s``_rd_data), \
  .p``_wr_ack(s``_wr_ack), .p``_wr_err(s``_wr_err)

`define CFG_SPACE_PORTS \
  input  wire logic        rd_en, \
  input  wire logic        wr_en, \
  input  wire logic [9:0]  addr, \
  input  wire logic [31:0] wr_data, \
  input  wire logic [3:0]  wr_be, \
  output      logic [31:0] rd_data

`define CFG_SPACE_WIRES(s) \
  logic        s``_rd_en, s``_wr_en; \
  logic [9:0]  s``_addr; \
  logic [31:0] s``_wr_data, s``_rd_data; \
  logic [3:0]  s``_wr_be

`define CFG_SPACE_CONNECT(s) \
  .rd_en(s``_rd_en), .wr_en(s``_wr_en), .addr(s``_addr), .wr_data(s``_wr_data), \
  .wr_be(s``_wr_be), .rd_data(s``_rd_data)

`endif  // CPUIF_PORT_SVH
