// SPDX-License-Identifier: Apache-2.0
//
// net_route: routing decision for the header flit at the head of one input
// VC buffer (combinational).
//
// Table mode: the inport's table entry for hdr.dst gives the port code and the
// VC rule; an invalid entry, or a destination beyond the table, drops the
// packet (counted by the router).
// Source mode: hop 0 of hdr.route (bits 2:0) is the port code; the router
// shifts the hop list down by one hop and records the arrival port in the top
// hop, so the delivered route field, group-reversed, is the way back
// (docs/packets.md).
// Port code 0..6 is a link; 7 (EJECT) is the local unit port EJECT_MAP[type].
// VC rule AUTO (dateline rule, docs/network.md): a packet leaves on VC0 when it
// changes dimension (or is injected), keeps its VC within a dimension, and
// moves to VC1 when it leaves on a link marked in cfg_dateline (the torus
// wrap-around link of that ring). Message classes (docs/network.md "The
// protocol part"): the output VC is {class, dateline VC}; the class is the
// one of the input VC and is never changed; an ejected packet leaves on
// dateline VC 0 of its class (a local port has one VC per class).

`default_nettype none

module net_route #(
  parameter int          N_LOCAL   = 2,      // local unit ports
  parameter int          TBL_AW    = 6,      // routing table: 2**TBL_AW destinations
  parameter logic [63:0] EJECT_MAP = 64'h0000_0001_1110_0000, // 4 bit per type: local port
  parameter int          IN_PORT   = 0,      // index of the input port this head is on
  localparam int         NP        = net_pkg::NLINK + N_LOCAL,
  localparam int         PW        = $clog2(NP)
) (
  // ---- head flit, its class and its table entry
  input  wire logic                       s_class,    // message class of the input VC
  input  wire logic [net_pkg::FLIT_W-1:0] s_hdr,
  input  wire net_pkg::net_tbl_entry_t    s_entry,    // table[IN_PORT][hdr.dst]
  input  wire logic [net_pkg::NLINK-1:0]  cfg_dateline, // links that cross the dateline
  // ---- decision
  output logic [PW-1:0]                   m_port,     // output port index
  output logic [net_pkg::VC_W-1:0]        m_vc,       // output VC {class, dateline VC}
  output logic [net_pkg::FLIT_W-1:0]      m_hdr,      // header as it leaves
  output logic [net_pkg::PLEN_W:0]        m_len,      // packet length in flits
  output logic                            m_drop      // no route: drop the packet
);

  net_pkg::net_hdr_t   h, ho;
  logic [2:0] code;
  logic [1:0] rule;
  logic [3:0] loc;
  logic       vc_auto, dl;

  function automatic logic [2:0] dim_of(input int p);
    // 0 X, 1 Y, 2 Z, 3 spare, 4 local
    if (p < 6)       dim_of = 3'(p / 2);
    else if (p == 6) dim_of = 3'd3;
    else             dim_of = 3'd4;
  endfunction

  always_comb begin
    h      = net_pkg::net_hdr_t'(s_hdr);
    ho     = h;
    m_len  = {1'b0, h.plen} + 1'b1;
    m_drop = 1'b0;
    if (h.rmode == net_pkg::NET_RMODE_SOURCE) begin
      code     = h.route[2:0];
      rule     = net_pkg::NET_VCRULE_AUTO;
      ho.route = {(IN_PORT < net_pkg::NLINK) ? 3'(IN_PORT) : 3'd7, h.route[net_pkg::HOP_W*net_pkg::NHOPS-1:net_pkg::HOP_W]};
    end else begin
      code   = s_entry.port;
      rule   = s_entry.vcrule;
      m_drop = !s_entry.valid || (h.dst[net_pkg::NODE_W-1:TBL_AW] != '0);
    end
    loc = EJECT_MAP[4*h.ptype +: 4];
    if (int'(loc) >= N_LOCAL) loc = '0;
    if (code == net_pkg::NET_PORT_EJECT) m_port = PW'(net_pkg::NLINK + int'(loc));
    else                        m_port = PW'(code);
    // Dateline rule
    if (code == net_pkg::NET_PORT_EJECT) vc_auto = h.vc;
    else vc_auto = ((dim_of(int'(code)) == dim_of(IN_PORT)) ? h.vc : 1'b0) | cfg_dateline[code];
    case (rule)
      net_pkg::NET_VCRULE_VC0:  dl = 1'b0;
      net_pkg::NET_VCRULE_VC1:  dl = 1'b1;
      net_pkg::NET_VCRULE_KEEP: dl = h.vc;
      default:         dl = vc_auto;
    endcase
    if (code == net_pkg::NET_PORT_EJECT) dl = 1'b0;
    m_vc  = {s_class, dl};
    ho.vc = dl;
    m_hdr = ho;
  end

endmodule

`default_nettype wire
