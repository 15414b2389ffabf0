// SPDX-License-Identifier: Apache-2.0
//
// smfu_wr_stamp: the sender's half of the read-after-write fence between the
// two message classes (docs/network.md "The protocol part"). SMFU_WR travels
// in the response class, SMFU_RD in the request class, so a read can overtake
// the writes its sender issued before it; PCIe forbids that (a read must not
// pass an earlier posted write of the same requester). This module numbers,
// per destination node, the SMFU_WR packets that pass it (0, 1, 2, ... in
// net_smfu_ext_t.wcnt), and writes the count of earlier writes to the read's
// destination into every SMFU_RD header that passes it (wcnt; winj = INJ in
// both names this sender); the receiver (smfu_net_if) issues the read only
// after the write numbered wcnt - 1 from this sender has entered its in-order
// path. Counts are modulo 4096. When the source id in the headers changes
// (router.node set in-band), the numbering restarts at 0: the receiver keeps
// its state per source id and takes the number from each write, so it follows.
//
// One instance per sender of SMFU packets: the SMFU's smfu_net_if (INJ 0) and
// the RMA unit's rma_port (INJ 1). Combinational on the header flit (s_hdr
// marks it); the table is updated at the clock edge. Destinations are taken
// modulo 2**NODE_AW (the routers' tables reach 2**TBL_AW nodes; SMFU packets
// are always table routed). Synchronous to clk, reset rst (sync, high).

`default_nettype none

module smfu_wr_stamp #(
  parameter int   NODE_AW = 6,    // destinations counted: 2**NODE_AW (the routing table size)
  parameter logic INJ     = 1'b0  // this sender's id in the stamp (0 SMFU, 1 RMA unit)
) (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,            // synchronous, active high

  // ---------------- a flit on its way to the router ----------------
  input  wire logic         s_hdr,          // s_data is a header flit that is sent this cycle
  input  wire logic [127:0] s_data,
  output      logic [127:0] m_data          // s_data, an SMFU_RD header stamped
);

  localparam int N  = 1 << NODE_AW;
  localparam int CW = 12;                   // net_smfu_ext_t.wcnt

  logic [CW-1:0]          cnt_q [N];        // SMFU_WR sent per destination
  net_pkg::net_hdr_t      h, ho;
  net_pkg::net_smfu_ext_t x;
  logic [NODE_AW-1:0]     d;
  logic                   is_rd, is_wr, new_src;
  logic [15:0]            src_q;            // source id of the last SMFU request
  logic [CW-1:0]          c;                // count for this header

  always_comb begin
    h     = net_pkg::net_hdr_t'(s_data);
    d     = h.dst[NODE_AW-1:0];
    is_rd = s_hdr && h.ptype == net_pkg::NET_TYPE_SMFU_RD;
    is_wr = s_hdr && h.ptype == net_pkg::NET_TYPE_SMFU_WR;
    new_src = h.src != src_q;
    c     = new_src ? '0 : cnt_q[d];
    x     = net_pkg::net_smfu_ext_t'(h.route);
    if (is_rd || is_wr) x.wcnt = c;
    x.winj   = INJ;
    ho       = h;
    ho.route = x;
    m_data   = (is_rd || is_wr) ? 128'(ho) : s_data;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      for (int i = 0; i < N; i++) cnt_q[i] <= '0;
      src_q <= '0;
    end else if (is_rd || is_wr) begin
      src_q <= h.src;
      if (new_src)
        for (int i = 0; i < N; i++) cnt_q[i] <= '0;
      if (is_wr) cnt_q[d] <= c + 1'b1;
    end
  end

endmodule

`default_nettype wire
