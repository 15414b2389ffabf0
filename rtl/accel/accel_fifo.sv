// SPDX-License-Identifier: Apache-2.0
//
// accel_fifo: small synchronous FIFO (registers, first-word fall-through).
//
// Used as the output buffer of the accelerator's TLP sources. The producer
// keeps its own credit: it starts a push only while `count` plus its
// in-flight pushes is below DEPTH; a push into a full FIFO is dropped (never
// happens with that discipline).

`default_nettype none

module accel_fifo #(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter int WIDTH = 8,   // entry width in bits
  parameter int DEPTH = 4    // entries, a power of two >= 2
) (
  // ------------------------------------------------------------------------
  // Clock and synchronous active-high reset
  // ------------------------------------------------------------------------
  input  wire logic             clk,
  input  wire logic             rst,
  // ------------------------------------------------------------------------
  // Write side
  // ------------------------------------------------------------------------
  input  wire logic             s_valid,
  input  wire logic [WIDTH-1:0] s_data,
  output      logic [$clog2(DEPTH):0] count,
  // ------------------------------------------------------------------------
  // Read side (valid/ready)
  // ------------------------------------------------------------------------
  output      logic             m_valid,
  output      logic [WIDTH-1:0] m_data,
  input  wire logic             m_ready
);

  localparam int AW = $clog2(DEPTH);

  logic [WIDTH-1:0] mem [DEPTH];
  logic [AW-1:0]    wp, rp;
  logic             push, pop;

  assign m_valid = count != '0;
  assign m_data  = mem[rp];
  assign pop     = m_valid && m_ready;
  assign push    = s_valid && (count != (AW+1)'(DEPTH));

  always_ff @(posedge clk) begin
    if (push) mem[wp] <= s_data;
    if (rst) begin
      wp    <= '0;
      rp    <= '0;
      count <= '0;
    end else begin
      if (push) wp <= wp + 1'b1;
      if (pop)  rp <= rp + 1'b1;
      count <= count + (AW+1)'(push) - (AW+1)'(pop);
    end
  end

endmodule
