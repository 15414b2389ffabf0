// SPDX-License-Identifier: Apache-2.0
//
// sync_reset: a reset synchroniser. Asserts m_rst asynchronously when s_arst
// rises (so a clock that is not running yet, or an input that is only a
// pulse, still resets), releases it synchronously STAGES edges of clk after
// s_arst falls. The output is a synchronous reset of clk's domain for
// everything downstream (the project's flip-flops use synchronous resets:
// m_rst is high for at least STAGES - 1 full cycles of clk once clk runs).
// Typical inputs: a board's power-on/configuration-done condition (MMCM not
// locked), a push button, another clock domain's reset.

`default_nettype none

module sync_reset #(
  // --------------------------------------------------------------------------
  // Parameters
  // --------------------------------------------------------------------------
  parameter int STAGES = 3   // flip-flops in the chain, >= 2
) (
  // --------------------------------------------------------------------------
  // Destination clock
  // --------------------------------------------------------------------------
  input  wire logic clk,
  // --------------------------------------------------------------------------
  // Reset in (asynchronous, active high) and out (synchronous to clk)
  // --------------------------------------------------------------------------
  input  wire logic s_arst,
  output      logic m_rst
);

  (* ASYNC_REG = "TRUE" *) logic [STAGES-1:0] chain_q;

  always_ff @(posedge clk or posedge s_arst) begin
    if (s_arst) chain_q <= '1;
    else        chain_q <= {chain_q[STAGES-2:0], 1'b0};
  end

  assign m_rst = chain_q[STAGES-1];

endmodule

`default_nettype wire
