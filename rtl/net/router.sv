// SPDX-License-Identifier: Apache-2.0
//
// router: the network crossbar of one NIC (docs/network.md).
//
// Ports 0..5 are the torus links X+ X- Y+ Y- Z+ Z-, port 6 the spare link,
// ports 7..7+N_LOCAL-1 the local unit ports. Every input has one buffer per VC
// (net_pkt_fifo; store and forward on links so partial packets are never
// forwarded, cut through on local ports); upstream senders hold credits for it.
// Every output holds credits for the buffer behind it.
//
// Switching is virtual cut-through at packet granularity: a packet is given an
// output only if that output is free and has credits for the whole packet on
// the packet's output VC; it then moves one flit per cycle and is never
// interleaved with another packet on that output. Allocation is separable:
// each idle input picks one of its VC heads that could go (round robin over
// VCs), each output grants one requesting input (round robin over inputs).
// Pipeline: route (a header is routed as it is written into its input buffer,
// from s_in, and the decision is stored with it), allocation (from registers;
// the grant is registered), traversal (from registers: the header leaves in the
// cycle after its grant). Fairness: a head
// that lacks credits for its whole packet reserves its output VC (one holder
// per output VC, chosen round robin among the waiting heads); while the
// reservation stands no other packet may start on that output VC, so the
// credits accumulate and a long packet cannot starve behind a stream of short
// ones (other output VCs are not held up). Zero load: a header flit
// written into an input buffer in cycle t is in the output register in cycle
// t+2 (three clock edges from s_in to m_out: buffer, grant, output register).
//
// Routing: per-inport tables (destination -> port code, VC rule, valid),
// written through the tbl port, or the source route in the header
// (net_route.sv). The dateline VC rule keeps the torus deadlock free.

`default_nettype none

module router #(
  parameter int          N_LOCAL       = 2,   // local unit ports
  parameter int          LINK_BUF_DEPTH  = 64, // flits per VC buffer of a link inport (power of 2, >= 32 = longest
                                               // packet; 64 covers the credit round trip of a 256 B packet)
  parameter int          LOCAL_BUF_DEPTH = 32, // flits per VC buffer of a local inport (power of 2, >= 32)
  parameter int          TBL_AW        = 6,   // table index bits: destinations 0 .. 2**TBL_AW-1
  parameter int          LINK_CREDITS  = 64,  // credits per VC of a link output (= far LINK_BUF_DEPTH)
  parameter int          LOCAL_CREDITS = 32,  // credits per VC of a local output (unit's buffer, >= 32)
  parameter logic [63:0] EJECT_MAP     = 64'h0000_0001_1110_0000, // local port per packet type (4 bit each)
  localparam int         NP            = net_pkg::NLINK + N_LOCAL,  // ports
  localparam int         PW            = $clog2(NP),
  localparam int         NVC           = net_pkg::NVC,   // {class, dateline VC}
  localparam int         VW            = net_pkg::VC_W,
  localparam int         FW            = net_pkg::FLIT_W
) (
  // ---- clock and reset (synchronous, active high)
  input  wire logic                       clk,
  input  wire logic                       rst,

  // ---- configuration (from the NIC register file)
  input  wire logic [net_pkg::NLINK-1:0]  cfg_dateline,  // output links that cross the torus dateline
  input  wire logic [net_pkg::NLINK-1:0]  s_dead,        // dead output links (link_rx m_dead): packets into them are dropped

  // ---- routing table access (from the NIC register file)
  // address = {port[3:0], destination[TBL_AW-1:0]}; port 15 writes all inports
  input  wire logic                       s_tbl_we,
  input  wire logic [TBL_AW+3:0]          s_tbl_addr,
  input  wire logic [5:0]                 s_tbl_wdata,   // net_tbl_entry_t
  input  wire logic [TBL_AW+3:0]          s_tbl_raddr,
  output logic [5:0]                      m_tbl_rdata,   // combinational read

  // ---- input ports (from link_rx / local units), credit flow control
  input  wire logic [NP-1:0]              s_in_valid,
  input  wire logic [NP-1:0][FW-1:0]      s_in_data,
  input  wire logic [NP-1:0]              s_in_last,
  input  wire logic [NP-1:0][VW-1:0]     s_in_vc,       // {class, dateline VC}; local ports: dateline VC 0
  input  wire logic [NP-1:0]              s_in_drop,     // no valid: discard the partial packet of VC s_in_vc (links only)
  output logic      [NP-1:0][NVC-1:0]     m_in_credit,   // one buffer slot of that VC freed

  // ---- output ports (to link_tx / local units), credit flow control
  output logic      [NP-1:0]              m_out_valid,
  output logic      [NP-1:0][FW-1:0]      m_out_data,
  output logic      [NP-1:0]              m_out_last,
  output logic      [NP-1:0][VW-1:0]     m_out_vc,      // local ports: dateline VC 0
  input  wire logic [NP-1:0][NVC-1:0]     s_out_credit,  // downstream freed one slot of that VC

  // ---- status
  output logic [31:0]                     m_noroute_cnt, // packets dropped: no route, or routed to a dead link
  output logic                            m_ovf          // sticky: an input buffer was overrun
);

  localparam int TN  = 1 << TBL_AW;
  localparam int LW  = net_pkg::PLEN_W + 1;
  localparam int CRW = 8;  // credit counter width

  // Simulation speed (Verilator): per-port and per-VC signals are unpacked
  // arrays, not packed vectors of all ports. A packed [NP][NVC][FW] vector is
  // one 2304-bit variable that a Verilated model re-assembles (wide
  // concatenations) whenever any element changes and reads with wide shifts;
  // unpacked elements are separate words. Same logic in synthesis.

  // ------------------------------------------------------------------ tables
  // One table per inport: 2**TBL_AW entries of 6 bits (net_tbl_entry_t).
  logic [3:0]        tw_port, tr_port;
  logic [TBL_AW-1:0] tw_idx, tr_idx;
  logic [5:0]        tbl_rd [NP];  // read-back of every inport's table at tr_idx
  assign {tw_port, tw_idx} = s_tbl_addr;
  assign {tr_port, tr_idx} = s_tbl_raddr;

  always_comb begin
    m_tbl_rdata = '0;
    for (int p = 0; p < NP; p++)
      if (int'(tr_port) == p) m_tbl_rdata = tbl_rd[p];
  end

  // ------------------------------------------------------------------ routing and input buffers
  // Routing at the buffer's write side (lookahead): the header of every packet is
  // routed as it is written (its inport's table at hdr.dst, net_route), and the
  // decision {port, VC, no route} is stored next to it in the buffer (side band);
  // the header is stored as it will leave (net_route's m_hdr). So the decision of
  // a head is in a register when the head reaches the buffer output, and a table
  // write applies to the packets that arrive after it. w_hdr: the next flit
  // written into that VC's buffer starts a packet.
  localparam int XW = PW + VW + 1 + LW;
  logic [NVC-1:0]         f_avail [NP];
  logic [NVC-1:0]         f_last  [NP];
  logic [NVC-1:0]         f_pop   [NP];
  logic [NP-1:0][NVC-1:0] f_ovf;
  logic [FW-1:0]          f_data  [NP][NVC];
  logic [XW-1:0]          f_x     [NP][NVC];   // the head's decision (valid for a header)
  logic [NVC-1:0]         f_avail2 [NP];       // a visible flit behind the head
  logic [XW-1:0]          f_x2    [NP][NVC];   // its decision (valid for a header)
  logic [PW-1:0]          r_port  [NP][NVC];
  logic [VW-1:0]          r_vc    [NP][NVC];
  logic [NVC-1:0]         r_nort  [NP];  // no route (table)
  logic [NVC-1:0]         r_drop  [NP];  // no route, or routed to a dead link
  logic [LW-1:0]          r_len   [NP][NVC];
  // the same for the flit behind the head (n_*)
  logic [PW-1:0]          n_port  [NP][NVC];
  logic [VW-1:0]          n_vc    [NP][NVC];
  logic [NVC-1:0]         n_nort  [NP];
  logic [LW-1:0]          n_len   [NP][NVC];

  for (genvar p = 0; p < NP; p++) begin : g_in
    logic [5:0] tbl [TN];  // this inport's routing table
    always_ff @(posedge clk) begin
      if (rst) begin
        for (int d = 0; d < TN; d++) tbl[d] <= '0;
      end else if (s_tbl_we && (tw_port == 4'hF || int'(tw_port) == p)) begin
        tbl[tw_idx] <= s_tbl_wdata;
      end
    end
    assign tbl_rd[p] = tbl[tr_idx];

    // the decision for the flit being written (meaningful for a header)
    logic [PW-1:0]  w_port;
    logic [VW-1:0]  w_vc;
    logic           w_nort;
    logic [FW-1:0]  w_hdrout, w_data;
    logic [NVC-1:0] w_hdr;   // per VC: the next flit written starts a packet
    logic [LW-1:0]  w_len;
    // the class of a packet is the class of its VC, kept on every hop
    net_route #(.N_LOCAL(N_LOCAL), .TBL_AW(TBL_AW), .EJECT_MAP(EJECT_MAP), .IN_PORT(p)) u_route (
      .s_class     (1'(int'(s_in_vc[p]) / net_pkg::NCLS)),
      .s_hdr       (s_in_data[p]),
      .s_entry     (net_pkg::net_tbl_entry_t'(tbl[s_in_data[p][TBL_AW-1:0]])),
      .cfg_dateline(cfg_dateline),
      .m_port      (w_port),
      .m_vc        (w_vc),
      .m_hdr       (w_hdrout),
      .m_len       (w_len),
      .m_drop      (w_nort)
    );
    assign w_data = w_hdr[s_in_vc[p]] ? w_hdrout : s_in_data[p];
    always_ff @(posedge clk) begin
      for (int v = 0; v < NVC; v++) begin
        if (rst) w_hdr[v] <= 1'b1;
        else if (s_in_vc[p] == VW'(v) && s_in_valid[p]) w_hdr[v] <= s_in_last[p];
        else if (s_in_vc[p] == VW'(v) && s_in_drop[p]) w_hdr[v] <= 1'b1;
      end
    end

    for (genvar v = 0; v < NVC; v++) begin : g_vc
      // A local inport has one buffer per class (dateline VC 0): a unit's
      // packets enter a dimension on dateline VC 0 anyway.
      if (p < net_pkg::NLINK || v % net_pkg::NCLS == 0) begin : g_buf
        net_pkt_fifo #(.DEPTH(p < net_pkg::NLINK ? LINK_BUF_DEPTH : LOCAL_BUF_DEPTH), .SAF(p < net_pkg::NLINK),
                       .XW(XW)) u_fifo (
          .clk, .rst,
          .s_valid (s_in_valid[p] && s_in_vc[p] == VW'(v)),
          .s_data  (w_data),
          .s_last  (s_in_last[p]),
          .s_xdata ({w_port, w_vc, w_nort, w_len}),
          .s_drop  (s_in_drop[p] && s_in_vc[p] == VW'(v)),
          .m_credit(m_in_credit[p][v]),
          .m_avail (f_avail[p][v]),
          .m_data  (f_data[p][v]),
          .m_last  (f_last[p][v]),
          .m_xdata (f_x[p][v]),
          .m_avail2(f_avail2[p][v]),
          .m_xdata2(f_x2[p][v]),
          .s_pop   (f_pop[p][v]),
          .m_ovf   (f_ovf[p][v])
        );
      end else begin : g_nobuf
        assign m_in_credit[p][v] = 1'b0;
        assign f_avail[p][v]     = 1'b0;
        assign f_data[p][v]      = '0;
        assign f_last[p][v]      = 1'b0;
        assign f_x[p][v]         = '0;
        assign f_avail2[p][v]    = 1'b0;
        assign f_x2[p][v]        = '0;
        assign f_ovf[p][v]       = 1'b0;
      end
      assign {r_port[p][v], r_vc[p][v], r_nort[p][v], r_len[p][v]} = f_x[p][v];
      assign {n_port[p][v], n_vc[p][v], n_nort[p][v], n_len[p][v]} = f_x2[p][v];
    end
  end

  // A packet routed to a dead link (s_dead: it never came up, i.e. no cable
  // or no partner, or it has been out of UP for link_rx's DEAD_TIME: the
  // partner died) is dropped like one without a route, so it cannot hold up
  // its input VC, or the output's reservation, for good. Heads that were
  // already waiting for the link are dropped too once it turns dead.
  always_comb
    for (int p = 0; p < NP; p++)
      for (int v = 0; v < NVC; v++)
        r_drop[p][v] = r_nort[p][v] || (int'(r_port[p][v]) < net_pkg::NLINK && s_dead[int'(r_port[p][v])]);

  always_ff @(posedge clk) begin
    if (rst) m_ovf <= 1'b0;
    else if (|f_ovf) m_ovf <= 1'b1;
  end

  // ------------------------------------------------------------------ state
  // Output o is busy from the cycle after its grant until it sends the packet's last
  // flit: from input o_own, VC o_ivc, leaving on o_ovc.
  logic [NP-1:0]                  o_busy;
  logic [NP-1:0][PW-1:0]          o_own;
  logic [VW-1:0]                  o_ivc [NP];
  logic [VW-1:0]                  o_ovc [NP];
  logic [CRW-1:0]                 cred [NP][NVC];
  // Input i drains (drops) a packet without a route from VC d_vc.
  logic [NP-1:0]                  d_busy;
  logic [VW-1:0]                  d_vc  [NP];
  logic [VW-1:0]                  vc_rr [NP];   // VC preferred next by each input
  // Credit reservation of output VC (o, w) by the head of input VC rsv_id = {input, VC}
  // (index input * NVC + VC = {input, VC}: NVC = 4).
  localparam int HW = $clog2(NP * NVC);
  logic [NVC-1:0]                 rsv_v  [NP];
  logic [HW-1:0]                  rsv_id [NP][NVC];

  // ------------------------------------------------------------------ switch traversal (registers only)
  // A busy output sends the flit at the head of its input VC whenever there is one
  // (its header in the first cycle after the grant).
  logic [NP-1:0]         x_send, x_last;
  logic [PW-1:0]         x_in [NP];
  logic [VW-1:0]         x_ivc [NP];
  logic [NP-1:0]         o_fin;     // output o sends its packet's last flit now
  logic [NVC-1:0]        snd_vc [NP]; // input VC an output carries from (its head: no new header)
  logic [NVC-1:0]        fin_vc [NP]; // ... and sends its packet's last flit now

  always_comb begin
    for (int i = 0; i < NP; i++) begin
      f_pop[i]  = '0;
      snd_vc[i] = '0;
      fin_vc[i] = '0;
    end
    for (int o = 0; o < NP; o++) begin
      x_in[o]   = o_own[o];
      x_ivc[o]  = o_ivc[o];
      x_send[o] = o_busy[o] && f_avail[x_in[o]][x_ivc[o]];
      x_last[o] = f_last[x_in[o]][x_ivc[o]];
      o_fin[o]  = x_send[o] && x_last[o];
      if (o_busy[o]) snd_vc[int'(o_own[o])][o_ivc[o]] = 1'b1;
      if (o_fin[o]) fin_vc[int'(o_own[o])][o_ivc[o]] = 1'b1;
      if (x_send[o]) f_pop[x_in[o]][x_ivc[o]] = 1'b1;
    end
    for (int i = 0; i < NP; i++)
      if (d_busy[i] && f_avail[i][d_vc[i]]) f_pop[i][d_vc[i]] = 1'b1;
  end

  // ------------------------------------------------------------------ allocation (one cycle ahead)
  // An output may be granted when it is idle or sends its last flit now (o_free); the
  // grant is registered (o_busy, o_own, ...) and the header leaves in the next cycle.
  // The input VC an output carries from (snd_vc) has a granted header or a body flit
  // at its head; it is a candidate only in the cycle its last flit leaves (fin_vc),
  // with the packet behind it (n_*: the buffer's second read port), which then leaves
  // without a bubble. The candidate head of every input VC: h_*.
  // Credits: a grant needs credits for the whole packet; while the output still sends
  // its last flit, one more (that flit's credit is spent at this edge).
  logic [NP-1:0]                  o_free;
  logic [NVC-1:0]                 h_av   [NP];
  logic [PW-1:0]                  h_port [NP][NVC];
  logic [VW-1:0]                  h_vc   [NP][NVC];
  logic [LW-1:0]                  h_len  [NP][NVC];
  logic [NVC-1:0]                 h_drop [NP];
  logic [NP-1:0]                  in_busy;   // input carries (beyond this cycle) or drops a packet
  logic [NVC-1:0]                 cand [NP];
  logic [NP-1:0]                  req, drop_start;
  logic [VW-1:0]                  sel_vc  [NP];
  logic [VW-1:0]                  drop_vc [NP];
  logic [PW-1:0]                  req_port [NP];
  logic [NP-1:0]                  o_req [NP]; // [output][input]
  logic [NP-1:0]                  g_valid;
  logic [NP-1:0][PW-1:0]          g_idx;
  logic [NVC-1:0]                 starve [NP];            // head lacks credits for its packet
  logic [NP*NVC-1:0]              rs_req [NP][NVC];       // [output][output VC][{input, VC}]
  logic [NVC-1:0]                 rs_gnt [NP];
  logic [HW-1:0]                  rs_idx [NP][NVC];
  logic [NVC-1:0]                 rsv_keep [NP];          // reservation stands next cycle
  logic [NP-1:0]                  x_grant;   // a new packet is granted output o this cycle
  logic [VW-1:0]                  x_vc [NP]; // its output VC

  always_comb
    for (int i = 0; i < NP; i++)
      for (int v = 0; v < NVC; v++) begin
        h_av[i][v]   = snd_vc[i][v] ? fin_vc[i][v] && f_avail2[i][v] : f_avail[i][v];
        h_port[i][v] = snd_vc[i][v] ? n_port[i][v] : r_port[i][v];
        h_vc[i][v]   = snd_vc[i][v] ? n_vc[i][v] : r_vc[i][v];
        h_len[i][v]  = snd_vc[i][v] ? n_len[i][v] : r_len[i][v];
        h_drop[i][v] = snd_vc[i][v] ? n_nort[i][v] || (int'(n_port[i][v]) < net_pkg::NLINK && s_dead[int'(n_port[i][v])])
                                    : r_drop[i][v];
      end

  always_comb begin
    in_busy = d_busy;
    for (int o = 0; o < NP; o++) begin
      o_free[o] = !o_busy[o] || o_fin[o];
      if (o_busy[o] && !o_fin[o]) in_busy[int'(o_own[o])] = 1'b1;
    end
    for (int o = 0; o < NP; o++)
      for (int w = 0; w < NVC; w++) rs_req[o][w] = '0;
    for (int i = 0; i < NP; i++) begin
      drop_start[i] = 1'b0;
      drop_vc[i]    = '0;
      for (int v = 0; v < NVC; v++) begin
        logic [CRW:0] need;
        need = (CRW + 1)'(h_len[i][v]) + (CRW + 1)'(o_busy[int'(h_port[i][v])]);
        starve[i][v] = f_avail[i][v] && !snd_vc[i][v] && !r_drop[i][v]
                       && cred[int'(r_port[i][v])][r_vc[i][v]] < CRW'(r_len[i][v]);
        rs_req[int'(r_port[i][v])][r_vc[i][v]][i * NVC + v] = starve[i][v];
        cand[i][v] = !in_busy[i] && h_av[i][v] && !h_drop[i][v]
                     && o_free[int'(h_port[i][v])]
                     && {1'b0, cred[int'(h_port[i][v])][h_vc[i][v]]} >= need
                     && !(rsv_v[int'(h_port[i][v])][h_vc[i][v]]
                          && int'(rsv_id[int'(h_port[i][v])][h_vc[i][v]]) != i * NVC + v);
        if (!in_busy[i] && f_avail[i][v] && !snd_vc[i][v] && r_drop[i][v] && !drop_start[i]) begin
          drop_start[i] = 1'b1;
          drop_vc[i]    = VW'(v);
        end
      end
      // round robin over the VCs, starting at vc_rr
      sel_vc[i] = vc_rr[i];
      for (int k = NVC - 1; k >= 0; k--)
        if (cand[i][VW'(int'(vc_rr[i]) + k)]) sel_vc[i] = VW'(int'(vc_rr[i]) + k);
      req[i]      = (|cand[i]) && !drop_start[i];
      req_port[i] = h_port[i][sel_vc[i]];
    end
    for (int o = 0; o < NP; o++)
      for (int i = 0; i < NP; i++)
        o_req[o][i] = req[i] && int'(req_port[i]) == o;
  end

  always_comb begin
    for (int o = 0; o < NP; o++) begin
      x_grant[o] = g_valid[o];
      x_vc[o]    = h_vc[int'(g_idx[o])][sel_vc[int'(g_idx[o])]];
    end
  end

  for (genvar o = 0; o < NP; o++) begin : g_arb
    net_rr_arb #(.N(NP)) u_arb (
      .clk, .rst,
      .s_req (o_req[o]),
      .s_take(o_free[o]),
      .m_gnt (g_valid[o]),
      .m_idx (g_idx[o])
    );
    // next holder of a free reservation of output VC w: round robin over the starving heads
    for (genvar w = 0; w < NVC; w++) begin : g_rsv
      net_rr_arb #(.N(NP * NVC)) u_rsv_arb (
        .clk, .rst,
        .s_req (rs_req[o][w]),
        .s_take(!rsv_keep[o][w]),
        .m_gnt (rs_gnt[o][w]),
        .m_idx (rs_idx[o][w])
      );
    end
  end

  // A reservation ends when its holder is granted the output, or when the holder's
  // head no longer waits for that output VC (dropped: its link turned dead).
  always_comb begin
    for (int o = 0; o < NP; o++)
      for (int w = 0; w < NVC; w++) begin
        logic [PW-1:0] hi;
        logic [VW-1:0] hv;
        {hi, hv} = (PW + VW)'(rsv_id[o][w]);
        rsv_keep[o][w] = rsv_v[o][w] && f_avail[hi][hv] && !snd_vc[hi][hv] && !r_drop[hi][hv]
                         && int'(r_port[hi][hv]) == o && int'(r_vc[hi][hv]) == w
                         && !(x_grant[o] && g_idx[o] == hi && sel_vc[hi] == hv);
      end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      o_busy        <= '0;
      o_own         <= '0;
      d_busy        <= '0;
      for (int i = 0; i < NP; i++) begin
        o_ivc[i] <= '0;
        o_ovc[i] <= '0;
        d_vc[i]  <= '0;
        vc_rr[i] <= '0;
      end
      m_out_valid   <= '0;
      for (int o = 0; o < NP; o++) begin
        rsv_v[o] <= '0;
        for (int w = 0; w < NVC; w++) rsv_id[o][w] <= '0;
      end
      m_noroute_cnt <= '0;
      for (int o = 0; o < NP; o++)
        for (int v = 0; v < NVC; v++)
          cred[o][v] <= (o < net_pkg::NLINK) ? CRW'(LINK_CREDITS) : CRW'(LOCAL_CREDITS);
    end else begin
      for (int o = 0; o < NP; o++) begin
        m_out_valid[o] <= x_send[o];
        if (o_fin[o]) o_busy[o] <= 1'b0;
        if (x_grant[o]) begin
          o_busy[o] <= 1'b1;
          o_own[o]  <= g_idx[o];
          o_ivc[o]  <= sel_vc[int'(g_idx[o])];
          o_ovc[o]  <= x_vc[o];
          vc_rr[int'(g_idx[o])] <= sel_vc[int'(g_idx[o])] + 1'b1;
        end
        for (int v = 0; v < NVC; v++)
          cred[o][v] <= cred[o][v] + CRW'(s_out_credit[o][v])
                        - CRW'(x_send[o] && int'(o_ovc[o]) == v);
        for (int w = 0; w < NVC; w++) begin
          rsv_v[o][w] <= rsv_keep[o][w] || rs_gnt[o][w];
          if (!rsv_keep[o][w]) rsv_id[o][w] <= rs_idx[o][w];
        end
      end
      m_noroute_cnt <= m_noroute_cnt + 32'($countones(drop_start));
      for (int i = 0; i < NP; i++) begin
        if (drop_start[i]) begin
          d_busy[i] <= 1'b1;
          d_vc[i]   <= drop_vc[i];
        end
        if (d_busy[i] && f_avail[i][d_vc[i]] && f_last[i][d_vc[i]]) d_busy[i] <= 1'b0;
      end
    end
  end

`ifdef FORMAL
  // Formal checks (rtl/net/formal/router_fv.sv, docs/network.md "Formal checks"), in
  // every state: a packet is granted an output only when it is idle or sends its last
  // flit now (r_idle), with credits for the whole packet on its output VC, and one more
  // if that last flit leaves on the same VC (r_cred), and, while that output VC is
  // reserved, only if it is the reservation's holder (r_rsv).
  logic ok_idle, ok_cred, ok_rsv;
  always_comb begin
    ok_idle = 1'b1;
    ok_cred = 1'b1;
    ok_rsv  = 1'b1;
    for (int o = 0; o < NP; o++) begin
      logic [PW-1:0] gi;
      logic [VW-1:0] gv;
      gi = g_idx[o];
      gv = sel_vc[gi];
      if (x_grant[o]) begin
        if (o_busy[o] && !o_fin[o]) ok_idle = 1'b0;
        if ({1'b0, cred[o][x_vc[o]]} < (CRW + 1)'(h_len[gi][gv]) + (CRW + 1)'(o_fin[o] && o_ovc[o] == x_vc[o]))
          ok_cred = 1'b0;
        if (rsv_v[o][x_vc[o]] && int'(rsv_id[o][x_vc[o]]) != int'(gi) * NVC + int'(gv)) ok_rsv = 1'b0;
      end
    end
  end
  always_comb begin
    if (!rst) begin
      r_idle: assert (ok_idle);
      r_cred: assert (ok_cred);
      r_rsv: assert (ok_rsv);
    end
  end
`endif

  // Output registers (no reset needed on the data path): the flit at the head of the
  // output's input VC (a header was rewritten by net_route when it was written).
  always_ff @(posedge clk) begin
    for (int o = 0; o < NP; o++) begin
      if (x_send[o]) begin
        m_out_data[o] <= f_data[x_in[o]][x_ivc[o]];
        m_out_last[o] <= x_last[o];
        m_out_vc[o]   <= o_ovc[o];
      end
    end
  end

endmodule

`default_nettype wire
