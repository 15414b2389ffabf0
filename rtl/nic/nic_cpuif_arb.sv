// SPDX-License-Identifier: Apache-2.0
//
// nic_cpuif_arb: shares the register block's single passthrough cpuif
// (PeakRDL-regblock) between two masters: 0 = the PCIe BAR0 bridge, 1 = the
// network RRA responder.
//
// Passthrough protocol (per master): a request is taken in the cycle where
// req && !stall; its rd_ack/wr_ack comes in the same cycle or later, exactly
// once. The arbiter grants one request per cycle when no access is
// outstanding, round robin when both ask (the master that did not get the
// last grant wins), so neither master can starve the other: each waits for at
// most one access of the other. A stalled master holds its request (the BAR0
// bridge and the responder both do). Acks are routed to the master that owns
// the outstanding access. m_src is the network node an access comes from
// (the ownership block decides claims by it): s0_src for BAR0 (this node),
// s1_src for the RRA responder (the request's source node).

`default_nettype none
`include "cpuif_port.svh"

module nic_cpuif_arb #(
  parameter int ADDR_W = 12                    // register block address width
) (
  // ---------------- clock and reset ----------------
  input  wire logic               clk,
  input  wire logic               rst,          // synchronous, active high

  // ---------------- masters: 0 the BAR0 bridge, 1 the network (RRA responder) ----------------
  `CPUIF_S_PORTS(s0, ADDR_W),
  `CPUIF_S_PORTS(s1, ADDR_W),
  input  wire logic [15:0]        s0_src,       // node an access of master 0 comes from
  input  wire logic [15:0]        s1_src,       // ... of master 1

  // ---------------- register block ----------------
  `REGBLK_M_PORTS(m, ADDR_W),
  output      logic [15:0]        m_src         // node the access presented to the block comes from
);

  logic busy_q;          // an access was taken and its ack is outstanding
  logic owner_q;         // master of the outstanding access
  logic last_q;          // master granted last (round robin)
  logic grant;           // master presented to the block this cycle
  logic any;
  logic own;             // master the acks belong to this cycle
  logic taken, acked;

  // The two masters as arrays, index = master number. A master's stall goes
  // to both req_stall_wr and req_stall_rd of the block; rd_data is shared,
  // valid with the master's rd_ack.
  logic [1:0]             s_req, s_req_is_wr;
  logic [1:0][ADDR_W-1:0] s_addr;
  logic [1:0][63:0]       s_wr_data, s_wr_biten;
  logic [1:0]             s_stall, s_rd_ack, s_rd_err, s_wr_ack, s_wr_err;

  assign s_req       = {s1_req, s0_req};
  assign s_req_is_wr = {s1_req_is_wr, s0_req_is_wr};
  assign s_addr      = {s1_addr, s0_addr};
  assign s_wr_data   = {s1_wr_data, s0_wr_data};
  assign s_wr_biten  = {s1_wr_biten, s0_wr_biten};
  assign {s1_stall, s0_stall}   = s_stall;
  assign {s1_rd_ack, s0_rd_ack} = s_rd_ack;
  assign {s1_rd_err, s0_rd_err} = s_rd_err;
  assign {s1_wr_ack, s0_wr_ack} = s_wr_ack;
  assign {s1_wr_err, s0_wr_err} = s_wr_err;
  assign s0_rd_data  = m_rd_data;
  assign s1_rd_data  = m_rd_data;

  always_comb begin
    any = |s_req && !busy_q;
    if (s_req[0] && s_req[1]) grant = !last_q;
    else                      grant = s_req[1];
  end

  assign m_req       = any && s_req[grant];
  assign m_req_is_wr = s_req_is_wr[grant];
  assign m_addr      = s_addr[grant];
  assign m_wr_data   = s_wr_data[grant];
  assign m_wr_biten  = s_wr_biten[grant];
  assign m_src       = grant ? s1_src : s0_src;

  assign taken = m_req && !(m_req_is_wr ? m_req_stall_wr : m_req_stall_rd);
  assign acked = m_rd_ack || m_wr_ack;
  assign own   = busy_q ? owner_q : grant;

  always_comb begin
    s_stall = 2'b11;
    if (any && !(m_req_is_wr ? m_req_stall_wr : m_req_stall_rd)) begin
      s_stall[grant] = 1'b0;
    end
    s_rd_ack = '0;
    s_rd_err = '0;
    s_wr_ack = '0;
    s_wr_err = '0;
    s_rd_ack[own] = m_rd_ack;
    s_rd_err[own] = m_rd_err;
    s_wr_ack[own] = m_wr_ack;
    s_wr_err[own] = m_wr_err;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      busy_q  <= 1'b0;
      owner_q <= 1'b0;
      last_q  <= 1'b1;
    end else begin
      if (taken) begin
        last_q  <= grant;
        owner_q <= grant;
        busy_q  <= !acked;
      end else if (busy_q && acked) begin
        busy_q  <= 1'b0;
      end
    end
  end

endmodule

`default_nettype wire
