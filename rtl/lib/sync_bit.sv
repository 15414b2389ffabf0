// SPDX-License-Identifier: Apache-2.0
//
// sync_bit: a level synchroniser. WIDTH independent bits, each sampled into
// the destination clock domain by a chain of STAGES flip-flops (no reset:
// the chain takes the input's value after STAGES edges of clk). Only for
// signals that are static for several destination cycles, or whose bits may
// be seen changing one at a time (a Gray-coded counter, independent flags):
// a multi-bit value that changes in more than one bit at once can be seen
// torn for a cycle.
//
// The first flip-flop of each chain may go metastable; ASYNC_REG keeps the
// chain together in one slice on an FPGA (the board's constraints bound the
// path into it: fw/boards/*/ *.xdc).
//
// Simulation (SIM_SYNC_JITTER defined, e.g. tb_lclk): a bit that changed since
// the last edge is taken now or one edge later, at random, as metastability
// may resolve either way; so a crossing that relies on all bits of a value
// arriving together (a binary counter instead of a Gray-coded one) fails its
// test instead of passing a zero-delay simulation by luck.

`default_nettype none

module sync_bit #(
  // --------------------------------------------------------------------------
  // Parameters
  // --------------------------------------------------------------------------
  parameter int WIDTH  = 1,  // bits, each synchronised on its own
  parameter int STAGES = 2   // flip-flops in the chain, >= 2
) (
  // --------------------------------------------------------------------------
  // Destination clock
  // --------------------------------------------------------------------------
  input  wire logic             clk,
  // --------------------------------------------------------------------------
  // Asynchronous input, synchronised output
  // --------------------------------------------------------------------------
  input  wire logic [WIDTH-1:0] s_async,
  output      logic [WIDTH-1:0] m_sync
);

  (* ASYNC_REG = "TRUE" *) logic [STAGES-1:0][WIDTH-1:0] chain_q;

`ifdef SIM_SYNC_JITTER
  logic [WIDTH-1:0] last_q;                      // the input at the last edge

  always_ff @(posedge clk) begin
    last_q <= s_async;
    for (int b = 0; b < WIDTH; b++)
      if (s_async[b] == last_q[b] || $urandom_range(1) == 0) chain_q[0][b] <= s_async[b];
    for (int i = 1; i < STAGES; i++) chain_q[i] <= chain_q[i-1];
  end
`else
  always_ff @(posedge clk) begin
    chain_q[0] <= s_async;
    for (int i = 1; i < STAGES; i++) chain_q[i] <= chain_q[i-1];
  end
`endif

  assign m_sync = chain_q[STAGES-1];

endmodule

`default_nettype wire
