// SPDX-License-Identifier: Apache-2.0
//
// net_pkt_fifo: one virtual channel's input buffer of a router port.
//
// A flit FIFO whose space is managed by credits: the upstream sender holds
// DEPTH credits, spends one per flit written, and gets one back (m_credit
// pulse) for every flit that leaves the buffer.
//
// SAF = 1 (store and forward, used behind link_rx): flits become visible to
// the reader only when their packet's last flit has been written. s_drop (in a
// cycle without s_valid) discards the partial packet: the write pointer
// rewinds to the last commit. No credits are returned for it: the link layer
// resends the packet (link_tx replay), and the resent flits take the same
// slots the sender's credits reserved.
// SAF = 0 (cut through, local unit ports): flits are visible as soon as they
// are written; s_drop must be 0.
//
// Overrun (a write while full, i.e. the sender broke the credit protocol) sets
// the sticky m_ovf and, in simulation, stops with an error.
//
// Storage: a RAM with one write and one registered read port, so that FPGA
// synthesis maps it to block RAM (DP16KD on ECP5, RAMB on UltraScale+) rather
// than LUT RAM or flip-flops. The read port reads, at every clock edge, the
// entry the read pointer points at after that edge (rd_next) into head_q,
// which is m_data/m_last; a flit written to that very entry at the same edge
// is taken from the write side instead (transparent read). So head_q always
// equals the entry at rd_ptr, as an asynchronous read did: same cycle timing.
//
// Side band (the router's routing decision of a header, made as it is written):
// XW bits per entry in a RAM of their own with two registered read ports, the
// entry at rd_ptr (m_xdata) and the one after it (m_xdata2, with m_avail2: it
// is visible), so the router can allocate the packet behind a last flit while
// that flit leaves.

`default_nettype none

module net_pkt_fifo #(
  parameter int DEPTH = 32,  // flits, power of two, >= longest packet when SAF = 1
  parameter bit SAF   = 1'b1, // 1: release whole packets only; 0: cut through
  parameter int XW    = 1     // side-band bits per entry
) (
  // ---- clock and reset (synchronous, active high)
  input  wire logic                       clk,
  input  wire logic                       rst,
  // ---- write side (from link_rx or a local unit)
  input  wire logic                       s_valid,  // flit written this cycle
  input  wire logic [net_pkg::FLIT_W-1:0] s_data,
  input  wire logic                       s_last,   // last flit of the packet
  input  wire logic [XW-1:0]              s_xdata,  // side-band bits of the flit
  input  wire logic                       s_drop,   // discard the partial packet (no s_valid)
  output logic                            m_credit, // one buffer slot freed
  // ---- read side (router crossbar)
  output logic                            m_avail,  // a visible flit is at the head
  output logic [net_pkg::FLIT_W-1:0]      m_data,
  output logic                            m_last,
  output logic [XW-1:0]                   m_xdata,  // side band of the head
  output logic                            m_avail2, // a second visible flit behind the head
  output logic [XW-1:0]                   m_xdata2, // its side band
  input  wire logic                       s_pop,    // take the head flit (only when m_avail)
  // ---- status
  output logic                            m_ovf     // sticky: written while full
);
  localparam int AW = $clog2(DEPTH);

  logic [net_pkg::FLIT_W:0] mem [DEPTH];  // {last, data}: a RAM, registered read (block RAM)
  logic [net_pkg::FLIT_W:0] head_q;       // the entry at rd_ptr (the RAM's read register)
  logic [AW:0] wr_ptr, cm_ptr, rd_ptr;        // write, commit, read
  logic [AW:0] used, vis, wr_next;
  logic [AW-1:0] rd_next;                     // index of the entry at rd_ptr after this edge
  logic [AW-1:0] rd_next2;                    // the entry after it
  logic [XW-1:0] xmem [DEPTH];                // side band: a RAM, two registered read ports
  logic [XW-1:0] x_q, x2_q;                   // the side band at rd_ptr, rd_ptr + 1
  logic drop_now;

  assign used     = wr_ptr - rd_ptr;
  assign vis      = (SAF ? cm_ptr : wr_ptr) - rd_ptr;
  assign m_avail  = vis != '0;
  assign m_data   = head_q[net_pkg::FLIT_W-1:0];
  assign m_last   = head_q[net_pkg::FLIT_W];
  assign m_xdata  = x_q;
  assign m_xdata2 = x2_q;
  assign m_avail2 = vis > (AW + 1)'(1);
  assign drop_now = s_drop && !s_valid;
  assign wr_next  = wr_ptr + 1'b1;
  assign rd_next  = rst ? '0 : rd_ptr[AW-1:0] + AW'(s_pop);
  assign rd_next2 = rd_next + 1'b1;

  // the read port: the entry at rd_ptr after this edge, or the flit written there now
  always_ff @(posedge clk) begin
    if (!rst && s_valid && wr_ptr[AW-1:0] == rd_next) begin
      head_q <= {s_last, s_data};
    end else if (rst || s_pop) begin
      head_q <= mem[rd_next];
    end
  end

  always_ff @(posedge clk) begin
    if (!rst && s_valid && wr_ptr[AW-1:0] == rd_next) x_q <= s_xdata;
    else x_q <= xmem[rd_next];
    if (!rst && s_valid && wr_ptr[AW-1:0] == rd_next2) x2_q <= s_xdata;
    else x2_q <= xmem[rd_next2];
    if (!rst && s_valid) xmem[wr_ptr[AW-1:0]] <= s_xdata;
  end

  // One credit per popped flit.
  assign m_credit = s_pop;

  always_ff @(posedge clk) begin
    if (rst) begin
      wr_ptr <= '0;
      cm_ptr <= '0;
      rd_ptr <= '0;
      m_ovf  <= 1'b0;
    end else begin
      if (s_valid) begin
        mem[wr_ptr[AW-1:0]] <= {s_last, s_data};
        wr_ptr <= wr_next;
        if (s_last) cm_ptr <= wr_next;
      end else if (drop_now) begin
        wr_ptr <= cm_ptr;
      end
      if (s_pop) rd_ptr <= rd_ptr + 1'b1;
      if (s_valid && used == DEPTH[AW:0]) m_ovf <= 1'b1;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk) begin
    if (!rst && s_valid && used == DEPTH[AW:0])
      $error("net_pkt_fifo: overrun (flit written while %0d of %0d used)", used, DEPTH);
    if (!rst && s_pop && !m_avail)
      $error("net_pkt_fifo: pop while empty");
    if (!rst && s_drop && s_valid)
      $error("net_pkt_fifo: s_drop with s_valid");
    if (!rst && !SAF && s_drop)
      $error("net_pkt_fifo: s_drop on a cut-through buffer");
  end
`endif

endmodule

`default_nettype wire
