// SPDX-License-Identifier: Apache-2.0
//
// sync_fifo: synchronous FIFO with valid/ready on both sides, first-word
// fall-through (m_data shows the head entry while m_valid), registers only.
// One write and one read per cycle. A write into a full FIFO is refused
// (s_ready low).
//
// Shared by the receive buffers of smfu_net_if, the completion ordering of
// smfu_host and the output buffers of the accelerator's TLP sources. Users
// either respect s_ready or guarantee space by a credit of their own: the
// accelerator's sources start a push only while `count` plus their in-flight
// pushes is below DEPTH; smfu_net_if's space is the router's credits.

`default_nettype none

module sync_fifo #(
  // --------------------------------------------------------------------------
  // Parameters
  // --------------------------------------------------------------------------
  parameter int WIDTH = 8,  // entry width in bits
  parameter int DEPTH = 4   // entries, a power of two >= 2
) (
  // --------------------------------------------------------------------------
  // Clock and synchronous active-high reset
  // --------------------------------------------------------------------------
  input  wire logic                   clk,
  input  wire logic                   rst,
  // --------------------------------------------------------------------------
  // Write side
  // --------------------------------------------------------------------------
  input  wire logic [WIDTH-1:0]       s_data,
  input  wire logic                   s_valid,
  output      logic                   s_ready,  // not full
  // --------------------------------------------------------------------------
  // Read side
  // --------------------------------------------------------------------------
  output      logic [WIDTH-1:0]       m_data,
  output      logic                   m_valid,
  input  wire logic                   m_ready,
  // --------------------------------------------------------------------------
  // Status
  // --------------------------------------------------------------------------
  output      logic [$clog2(DEPTH):0] count     // entries held, 0..DEPTH
);

  localparam int AW = $clog2(DEPTH);

  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [AW:0]      wp_q, rp_q;   // one wrap bit above the index
  logic             wr, rd;

  assign count   = wp_q - rp_q;
  assign s_ready = count != (AW+1)'(DEPTH);
  assign m_valid = wp_q != rp_q;
  assign m_data  = mem_q[rp_q[AW-1:0]];
  assign wr      = s_valid && s_ready;
  assign rd      = m_valid && m_ready;

  always_ff @(posedge clk) begin
    if (rst) begin
      wp_q <= '0;
      rp_q <= '0;
    end else begin
      if (wr) wp_q <= wp_q + 1'b1;
      if (rd) rp_q <= rp_q + 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (wr) mem_q[wp_q[AW-1:0]] <= s_data;
  end

endmodule

`default_nettype wire
