// SPDX-License-Identifier: Apache-2.0
//
// net_rr_arb_fv: formal harness of the round-robin arbiter net_rr_arb
// (`make -C rtl/net formal`, docs/network.md "Formal checks"). Requests and
// take are free inputs; a requester keeps requesting until its grant is taken
// (the router's heads do: a head leaves its buffer only when granted, a
// starving head keeps asking for its reservation). Reset is the first cycle.
//
// Properties (assertions labelled for the mutation runs):
//   a_gnt   a grant exactly when some requester requests (no lost cycle);
//   a_req   the granted index is below N and requests (so the grant, one
//           index, is one-hot over the requesters);
//   a_wait  bounded waiting: while requester i waits, at most N - 1 grants
//           are taken by others (every requester is served within N grants).
// Strengthening invariants for the induction step (about the arbiter's
// pointer, probed as p_ptr: the proof script connects it to dut.ptr):
//   i_ptr   the pointer stays below N;
//   i_dist  grants i has waited plus the distance from the pointer to i
//           (in round-robin order) never exceed N - 1.

`default_nettype none

module net_rr_arb_fv #(
  parameter int N = 5  // requesters
) (
  // ---- clock (reset: the first cycle)
  input  wire logic         clk,
  // ---- free inputs
  input  wire logic [N-1:0] s_req,
  input  wire logic         s_take
);
  localparam int IW = $clog2(N);
  localparam int WW = IW + 1;  // wait counters: up to N

  logic          m_gnt;
  logic [IW-1:0] m_idx;
  logic          init = 1'b1;
  always_ff @(posedge clk) init <= 1'b0;

  net_rr_arb #(.N(N)) dut (
    .clk, .rst(init), .s_req, .s_take, .m_gnt, .m_idx
  );

  // probe: the arbiter's priority pointer (connected to dut.ptr by the script)
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [IW-1:0] p_ptr;
  /* verilator lint_on UNDRIVEN */

  // ------------------------------------------------------------------ requests persist until taken
  logic          taken;
  logic [N-1:0]  req_q;
  logic          taken_q;
  logic [IW-1:0] idx_q;
  assign taken = s_take && m_gnt;
  always_ff @(posedge clk) begin
    req_q   <= s_req;
    taken_q <= taken;
    idx_q   <= m_idx;
  end
  always_comb begin
    if (!init) begin
      for (int i = 0; i < N; i++) begin
        if (req_q[i] && !(taken_q && int'(idx_q) == i)) assume (s_req[i]);
      end
    end
  end

  // ------------------------------------------------------------------ grants taken by others while i waits
  logic [N-1:0][WW-1:0] wait_q;
  always_ff @(posedge clk) begin
    for (int i = 0; i < N; i++) begin
      if (init || !s_req[i] || (taken && int'(m_idx) == i)) wait_q[i] <= '0;
      else if (taken && wait_q[i] != WW'(N)) wait_q[i] <= wait_q[i] + 1'b1;
    end
  end

  // ------------------------------------------------------------------ properties
  logic [N-1:0] ok_wait, ok_dist;
  always_comb begin
    for (int i = 0; i < N; i++) begin
      ok_wait[i] = int'(wait_q[i]) <= N - 1;
      ok_dist[i] = int'(wait_q[i]) + (i >= int'(p_ptr) ? i - int'(p_ptr) : i + N - int'(p_ptr)) <= N - 1;
    end
  end

  always_comb begin
    if (!init) begin
      a_gnt: assert (m_gnt == |s_req);
      a_req: assert (!m_gnt || (int'(m_idx) < N && s_req[m_idx]));
      a_wait: assert (&ok_wait);
      i_ptr: assert (int'(p_ptr) < N);
      i_dist: assert (&ok_dist);
    end
  end

endmodule

`default_nettype wire
