// SPDX-License-Identifier: Apache-2.0
//
// nic_rra_req: the RRA requester (register block `rra`, docs/remote-access.md).
// A write of rra.req.seq (swmod) launches one request, built from the new
// value of rra.req (merged here from the cpuif write itself and the field
// values before it, so the launch costs no extra cycle) and from rra.wdata /
// tlp_hdr0/1 / route / cmp_addr:
//
//   op 0 READ   RRA_RD   cmd (net_cmd_rra_t) {seq, register address}, payload {cmp_addr, 0}
//   op 1 WRITE  RRA_WR   cmd (net_cmd_rra_t) {seq, register address}, payload {cmp_addr, wdata}
//   op 2 TLP    TLP_RAW  cmd (net_cmd_tlp_t) {ndw = tlp_len, dir inject, seq},
//                        flit 1 {tlp_hdr1, tlp_hdr0}, flit 2 {0, wdata} if tlp_len > 0
//
// routed by the tables, or by the hop list rra.route when srcroute is set.
// The packet waits in a one-packet slot for the transmit mux; a launch while
// the slot is still full, an unknown op, or any launch in the root-port role
// (the requester needs a host to write completion records to) is dropped and
// counted (ev_drop -> rra.dropped). ev_sent pulses when the packet leaves.

`default_nettype none
`include "nic_pkt_port.svh"

module nic_rra_req (
  // ---------------- clock and reset ----------------
  input  wire logic          clk,
  input  wire logic          rst,          // synchronous, active high

  // ---------------- configuration ----------------
  input  wire logic          enable,       // endpoint role
  input  wire logic [15:0]   my_node,

  // ---------------- launch and request fields (register block) ----------------
  input  wire logic          launch,       // rra.req.seq written this cycle
  input  wire logic [63:0]   req_q,        // rra.req before that write (its fields, packed)
  input  wire logic [63:0]   wr_data,      // the cpuif write of that cycle: data
  input  wire logic [63:0]   wr_biten,     // and bit enables
  input  wire logic [63:0]   wdata,        // rra.wdata
  input  wire logic [63:0]   tlp_hdr0,     // rra.tlp_hdr0: header dwords 1, 0
  input  wire logic [63:0]   tlp_hdr1,     // rra.tlp_hdr1: header dwords 3, 2
  input  wire logic [63:0]   route,        // rra.route (hops in bits 20:0)
  input  wire logic [63:0]   cmp_addr,     // rra.cmp_addr

  // ---------------- packet to the transmit mux ----------------
  `NIC_PKT_M_PORTS(m),

  // ---------------- events ----------------
  output      logic          ev_sent,
  output      logic          ev_drop
);

  // the new value of rra.req: the written bits, the others as they were
  logic [63:0] req;
  assign req = (wr_data & wr_biten) | (req_q & ~wr_biten);

  // rra.req fields
  logic [15:0] r_node;
  logic [23:0] r_addr;
  logic [2:0]  r_op;
  logic        r_srcroute;
  logic [1:0]  r_tlp_len;
  logic [15:0] r_seq;
  assign r_node     = req[15:0];
  assign r_addr     = req[39:16];
  assign r_op       = req[42:40];
  assign r_srcroute = req[43];
  assign r_tlp_len  = req[45:44];
  assign r_seq      = req[63:48];

  logic ok;
  assign ok = enable && !m_valid && (r_op <= 3'd2);

  net_pkg::net_hdr_t     h;
  net_pkg::net_cmd_rra_t rc;
  net_pkg::net_cmd_tlp_t tc;
  logic [1:0]            ndw;
  always_comb begin
    ndw        = (r_tlp_len == 2'd3) ? 2'd2 : r_tlp_len;
    rc         = '0;
    rc.seq     = r_seq;
    rc.addr    = 48'(r_addr);
    tc         = '0;                     // rec 0 (inject)
    tc.ndw     = ndw;
    tc.dir     = net_pkg::NET_TLP_DIR_INJECT;
    tc.seq     = r_seq;
    h          = '0;
    h.dst      = r_node;
    h.src      = my_node;
    h.vc       = 1'b0;
    h.rmode    = r_srcroute ? net_pkg::NET_RMODE_SOURCE : net_pkg::NET_RMODE_TABLE;
    h.route    = r_srcroute ? route[20:0] : 21'd0;
    case (r_op)
      3'd0: begin
        h.ptype = net_pkg::NET_TYPE_RRA_RD;
        h.plen  = 5'd1;
        h.cmd   = rc;
      end
      3'd1: begin
        h.ptype = net_pkg::NET_TYPE_RRA_WR;
        h.plen  = 5'd1;
        h.cmd   = rc;
      end
      default: begin
        h.ptype = net_pkg::NET_TYPE_TLP_RAW;
        h.plen  = (ndw == 2'd0) ? 5'd1 : 5'd2;
        h.cmd   = tc;
      end
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      m_valid <= 1'b0;
    end else begin
      if (m_valid && m_ready) m_valid <= 1'b0;
      if (launch && ok) m_valid <= 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (launch && ok) begin
      m_f0 <= h;
      if (r_op == 3'd2) begin
        m_nflit <= (ndw == 2'd0) ? 2'd2 : 2'd3;
        m_f1    <= {tlp_hdr1, tlp_hdr0};
        m_f2    <= {64'd0, (ndw == 2'd1) ? {32'd0, wdata[31:0]} : wdata};
      end else begin
        m_nflit <= 2'd2;
        m_f1    <= {cmp_addr, (r_op == 3'd1) ? wdata : 64'd0};
        m_f2    <= '0;
      end
    end
  end

  assign ev_sent = m_valid && m_ready;

  logic unused;
  assign unused = ^{req[47:46], route[63:21]};
  assign ev_drop = launch && !ok;

endmodule

`default_nettype wire
