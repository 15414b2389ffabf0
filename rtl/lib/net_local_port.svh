// SPDX-License-Identifier: Apache-2.0
//
// net_local_port.svh: one definition of the network port groups: between a
// unit and a local port of the router (docs/network.md: flits with valid, data, last and
// vc one way, a credit pulse per VC back), for port lists and connections.
// Macros rather than an interface for the reasons given in tlp_stream.svh.
//
//   `NET_LOCAL_PORTS(s, m)    the unit's side: s_valid/s_data/s_last/s_vc in and
//                             m_credit out (flits from the router); m_valid/
//                             m_data/m_last/m_vc out and s_credit in (to it)
//   `NET_LOCAL_CONNECT(s, m, o, i)
//                             .s_*(o_*), .m_credit(o_credit): the router's
//                             outport signals o; .m_*(i_*), .s_credit(i_credit):
//                             its inport signals i
//   `NET_LOCAL_CONNECT_AT(s, m, o, i, k)   the same with o_*[k] and i_*[k]
//   `NET_LOCAL_PORTS_OI(o, i) the unit's side with the signals named after the
//                             router's port: o_valid/o_data/o_last/o_vc in and
//                             o_credit out (router outport o), i_valid/i_data/
//                             i_last/i_vc out and i_credit in (router inport i)
//   `NET_ROUTER_PORTS(o, i)   the same group seen from the router's side
//   `NET_PHY_PORTS(NL)        a node's NL torus links (port order X+ X- Y+ Y- Z+
//                             Z- spare): one link symbol per cycle each way,
//                             m_phy_data/frm/crc out and s_phy_data/frm/crc in
//                             (docs/network.md "Link layer": framing, ACK/NAK
//                             and credits all travel inside the CRC-protected
//                             symbols)
//
// `include this file at the top of a file (it has a guard).

`ifndef NET_LOCAL_PORT_SVH
`define NET_LOCAL_PORT_SVH

`define NET_LOCAL_PORTS(s, m) \
  input  wire logic         s``_valid, \
  input  wire logic [127:0] s``_data, \
  input  wire logic         s``_last, \
  input  wire logic         s``_vc, \
  output      logic [1:0]   m``_credit, \
  output      logic         m``_valid, \
  output      logic [127:0] m``_data, \
  output      logic         m``_last, \
  output      logic         m``_vc, \
  input  wire logic [1:0]   s``_credit

`define NET_LOCAL_CONNECT(s, m, o, i) \
  .s``_valid(o``_valid), .s``_data(o``_data), .s``_last(o``_last), .s``_vc(o``_vc), \
  .m``_credit(o``_credit), \
  .m``_valid(i``_valid), .m``_data(i``_data), .m``_last(i``_last), .m``_vc(i``_vc), \
  .s``_credit(i``_credit)

`define NET_LOCAL_CONNECT_AT(s, m, o, i, k) \
  .s``_valid(o``_valid[k]), .s``_data(o``_data[k]), .s``_last(o``_last[k]), .s``_vc(o``_vc[k]), \
  .m``_credit(o``_credit[k]), \
  .m``_valid(i``_valid[k]), .m``_data(i``_data[k]), .m``_last(i``_last[k]), .m``_vc(i``_vc[k]), \
  .s``_credit(i``_credit[k])

`define NET_LOCAL_PORTS_OI(o, i) \
  input  wire logic         o``_valid, \
  input  wire logic [127:0] o``_data, \
  input  wire logic         o``_last, \
  input  wire logic         o``_vc, \
  output      logic [1:0]   o``_credit, \
  output      logic         i``_valid, \
  output      logic [127:0] i``_data, \
  output      logic         i``_last, \
  output      logic         i``_vc, \
  input  wire logic [1:0]   i``_credit

`define NET_ROUTER_PORTS(o, i) \
  output      logic         o``_valid, \
  output      logic [127:0] o``_data, \
  output      logic         o``_last, \
  output      logic         o``_vc, \
  input  wire logic [1:0]   o``_credit, \
  input  wire logic         i``_valid, \
  input  wire logic [127:0] i``_data, \
  input  wire logic         i``_last, \
  input  wire logic         i``_vc, \
  output      logic [1:0]   i``_credit

`define NET_PHY_PORTS(NL) \
  output      logic [(NL)-1:0][127:0] m_phy_data, \
  output      logic [(NL)-1:0][15:0]  m_phy_frm, \
  output      logic [(NL)-1:0][31:0]  m_phy_crc, \
  input  wire logic [(NL)-1:0][127:0] s_phy_data, \
  input  wire logic [(NL)-1:0][15:0]  s_phy_frm, \
  input  wire logic [(NL)-1:0][31:0]  s_phy_crc

`endif  // NET_LOCAL_PORT_SVH
