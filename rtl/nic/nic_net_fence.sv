// SPDX-License-Identifier: Apache-2.0
//
// nic_net_fence: the boundary between the network's reset domain (net_node:
// router, routing tables, node id / dateline, link layer; reset by rst only)
// and the NIC function's (the units on the router's local ports, the register
// file, the PCIe side; reset by rst or by fn_rst: a PCIe hot reset, a host
// reboot). docs/network.md "Reset domains".
//
// m_fn_rst is the function's reset: registered, set by rst or fn_rst, and held
// after fn_rst falls until the boundary is clean, so that a unit leaving reset
// (full credits, empty buffers) finds the router in the matching state. While
// m_fn_rst is set the fence stands in for the units on each local port:
//
//   router -> unit  every flit is dropped and its credit returned to the
//                   router (one per class and cycle); so are the credits of
//                   the flits the unit held when its reset began (owe: flits
//                   the router sent that it has no credit back for). A packet
//                   cut by the reset is dropped to its last flit: m_fn_rst
//                   holds until it has ended. Packets are counted in m_drop_cnt (once each,
//                   at their first dropped flit).
//   unit -> router  the unit's flits and credits are ignored. A packet the
//                   unit had begun (the router holds its head, maybe an output
//                   link) is ended by the fence with filler flits (data 0) so
//                   that its flit count differs from the header's plen + 1:
//                   the next hop's link_rx discards it as malformed (a packet
//                   to a local port of this node is dropped above). Counted in
//                   m_cut_cnt. The router's credits are absorbed (used: flits
//                   in the router's local inport buffer).
//
// Clean: no flit owed to the router, none left in its local inport buffers, no
// packet open in either direction, and no flit from the router in this cycle.
// Then m_fn_rst falls (if fn_rst has) and the
// fence passes everything through (combinationally, no added latency).
//
// Synchronous to clk, reset rst (sync, high).

`default_nettype none

module nic_net_fence #(
  parameter int N_LOCAL         = 2,   // local ports
  parameter int LOCAL_BUF_DEPTH = 32,  // flits per class of a local inport buffer (the unit's credits)
  parameter int LOCAL_CREDITS   = 32,  // flits per class the router's local outport may send (the unit's buffer)
  localparam int NCLS           = net_pkg::NCLS,
  localparam int FW             = net_pkg::FLIT_W
) (
  // ---------------- clock and reset ----------------
  input  wire logic                          clk,
  input  wire logic                          rst,        // the node's reset (both domains), sync, high
  input  wire logic                          fn_rst,     // the function's reset request, sync, high
  output      logic                          m_fn_rst,   // the function's reset: rst | fn_rst, held until clean

  // ---------------- network side: into the router's local inports ----------------
  output      logic [N_LOCAL-1:0]            m_net_valid,
  output      logic [N_LOCAL-1:0][FW-1:0]    m_net_data,
  output      logic [N_LOCAL-1:0]            m_net_last,
  output      logic [N_LOCAL-1:0]            m_net_vc,
  input  wire logic [N_LOCAL-1:0][NCLS-1:0]  s_net_credit,

  // ---------------- network side: from the router's local outports ----------------
  input  wire logic [N_LOCAL-1:0]            s_net_valid,
  input  wire logic [N_LOCAL-1:0][FW-1:0]    s_net_data,
  input  wire logic [N_LOCAL-1:0]            s_net_last,
  input  wire logic [N_LOCAL-1:0]            s_net_vc,
  output      logic [N_LOCAL-1:0][NCLS-1:0]  m_net_credit,

  // ---------------- function side: from the units ----------------
  input  wire logic [N_LOCAL-1:0]            s_fn_valid,
  input  wire logic [N_LOCAL-1:0][FW-1:0]    s_fn_data,
  input  wire logic [N_LOCAL-1:0]            s_fn_last,
  input  wire logic [N_LOCAL-1:0]            s_fn_vc,
  output      logic [N_LOCAL-1:0][NCLS-1:0]  m_fn_credit,

  // ---------------- function side: to the units ----------------
  output      logic [N_LOCAL-1:0]            m_fn_valid,
  output      logic [N_LOCAL-1:0][FW-1:0]    m_fn_data,
  output      logic [N_LOCAL-1:0]            m_fn_last,
  output      logic [N_LOCAL-1:0]            m_fn_vc,
  input  wire logic [N_LOCAL-1:0][NCLS-1:0]  s_fn_credit,

  // ---------------- status (network domain) ----------------
  output      logic [31:0]                   m_drop_cnt, // packets to the units dropped while in reset
  output      logic [31:0]                   m_cut_cnt,  // packets from the units cut by a reset
  output      logic                          m_clean     // the boundary is clean (see above)
);

  localparam int UW = $clog2(LOCAL_BUF_DEPTH) + 1;
  localparam int OW = $clog2(LOCAL_CREDITS) + 1;

  logic act;                                          // the function is in reset
  assign act = m_fn_rst;

  // per port and class
  logic [N_LOCAL-1:0][NCLS-1:0]         i_open, o_open, o_drop;
  logic [N_LOCAL-1:0][NCLS-1:0][5:0]    i_cnt;        // flits of the open injected packet so far
  logic [N_LOCAL-1:0][NCLS-1:0][4:0]    i_plen;       // its header's plen
  logic [N_LOCAL-1:0][NCLS-1:0][UW-1:0] used;         // flits in the router's local inport buffer
  logic [N_LOCAL-1:0][NCLS-1:0][OW-1:0] owe;          // flits sent to the unit, not credited back

  // filler: the class whose open packet the fence ends (lowest first)
  logic [N_LOCAL-1:0]                   f_valid, f_vc;
  logic [N_LOCAL-1:0]                   o_drop_now;   // the flit from the router is dropped
  logic [N_LOCAL-1:0]                   o_new_drop;   // ... and it is the first of its packet dropped

  always_comb begin
    for (int u = 0; u < N_LOCAL; u++) begin
      f_valid[u] = 1'b0;
      f_vc[u]    = 1'b0;
      for (int c = NCLS - 1; c >= 0; c--) begin
        if (i_open[u][c] && used[u][c] != UW'(LOCAL_BUF_DEPTH)) begin
          f_valid[u] = 1'b1;
          f_vc[u]    = 1'(c);
        end
      end
      // into the router: the unit's flits, or the fence's filler
      m_net_valid[u] = act ? f_valid[u] : s_fn_valid[u];
      m_net_vc[u]    = act ? f_vc[u] : s_fn_vc[u];
      m_net_data[u]  = act ? '0 : s_fn_data[u];
      m_net_last[u]  = act ? (i_cnt[u][f_vc[u]] != 6'(i_plen[u][f_vc[u]])) : s_fn_last[u];
      m_fn_credit[u] = act ? '0 : s_net_credit[u];
      // out of the router
      // m_fn_rst falls only with no packet open (clean), so a packet the reset
      // cut is dropped to its end while act holds
      o_drop_now[u]  = act;
      o_new_drop[u]  = s_net_valid[u] && act
                       && !(o_open[u][s_net_vc[u]] && o_drop[u][s_net_vc[u]]);
      m_fn_valid[u]  = s_net_valid[u] && !o_drop_now[u];
      m_fn_data[u]   = s_net_data[u];
      m_fn_last[u]   = s_net_last[u];
      m_fn_vc[u]     = s_net_vc[u];
      for (int c = 0; c < NCLS; c++) begin
        m_net_credit[u][c] = act ? owe[u][c] != '0 : s_fn_credit[u][c];
      end
    end
  end

  always_comb begin
    m_clean = 1'b1;
    for (int u = 0; u < N_LOCAL; u++) begin
      for (int c = 0; c < NCLS; c++) begin
        if (i_open[u][c] || o_open[u][c] || used[u][c] != '0 || owe[u][c] != '0) m_clean = 1'b0;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      m_fn_rst   <= 1'b1;
      i_open     <= '0;
      i_cnt      <= '0;
      i_plen     <= '0;
      o_open     <= '0;
      o_drop     <= '0;
      used       <= '0;
      owe        <= '0;
      m_drop_cnt <= '0;
      m_cut_cnt  <= '0;
    end else begin
      // released only in a cycle without a flit from the router: that flit is
      // dropped now, and its credit (and the rest of its packet) would be left
      // to the units
      m_fn_rst <= fn_rst || (m_fn_rst && !(m_clean && s_net_valid == '0));
      m_drop_cnt <= m_drop_cnt + 32'($countones(o_new_drop));
      // a packet the unit had open when its reset began: counted at the
      // filler that ends it
      m_cut_cnt  <= m_cut_cnt + 32'($countones(act ? m_net_valid & m_net_last : '0));
      for (int u = 0; u < N_LOCAL; u++) begin
        for (int c = 0; c < NCLS; c++) begin
          logic i_fl, o_fl;
          i_fl = m_net_valid[u] && m_net_vc[u] == 1'(c);
          o_fl = s_net_valid[u] && s_net_vc[u] == 1'(c);
          used[u][c] <= used[u][c] + UW'(i_fl) - UW'(s_net_credit[u][c]);
          owe[u][c]  <= owe[u][c] + OW'(o_fl) - OW'(m_net_credit[u][c]);
          if (i_fl) begin
            if (m_net_last[u]) begin
              i_open[u][c] <= 1'b0;
            end else if (!i_open[u][c]) begin
              i_open[u][c] <= 1'b1;
              i_cnt[u][c]  <= 6'd1;
              i_plen[u][c] <= m_net_data[u][42:38];   // net_hdr_t.plen
            end else begin
              i_cnt[u][c]  <= i_cnt[u][c] + 6'd1;
            end
          end
          if (o_fl) begin
            o_open[u][c] <= !s_net_last[u];
            o_drop[u][c] <= !s_net_last[u] && o_drop_now[u];
          end
        end
      end
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk) begin
    for (int u = 0; u < N_LOCAL; u++) begin
      for (int c = 0; c < NCLS; c++) begin
        if (!rst && m_net_valid[u] && m_net_vc[u] == 1'(c) && used[u][c] == UW'(LOCAL_BUF_DEPTH))
          $error("nic_net_fence: port %0d class %0d: flit into a full local inport buffer", u, c);
        if (!rst && s_net_valid[u] && s_net_vc[u] == 1'(c) && owe[u][c] == OW'(LOCAL_CREDITS))
          $error("nic_net_fence: port %0d class %0d: router sent beyond its credits", u, c);
      end
    end
  end
`endif

endmodule

`default_nettype wire
