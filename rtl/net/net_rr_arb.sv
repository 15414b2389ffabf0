// SPDX-License-Identifier: Apache-2.0
//
// net_rr_arb: round-robin arbiter. Combinational grant of the first requester
// at or after the priority pointer; when the grant is taken (s_take) the
// pointer moves past the winner, so every requester is served within N grants.

`default_nettype none

module net_rr_arb #(
  parameter int N = 9  // requesters
) (
  // ---- clock and reset
  input  wire logic                 clk,
  input  wire logic                 rst,
  // ---- requests and grant
  input  wire logic [N-1:0]         s_req,   // requesters
  input  wire logic                 s_take,  // the grant is used this cycle
  output logic                      m_gnt,   // some requester granted
  output logic [$clog2(N)-1:0]      m_idx    // the granted requester
);
  localparam int IW = $clog2(N);
  logic [IW-1:0] ptr;

  always_comb begin
    int j;
    m_gnt = 1'b0;
    m_idx = '0;
    j     = 0;
    // no request: nothing to search (an idle port costs a Verilated model one test)
    if (s_req != '0)
    for (int k = N - 1; k >= 0; k--) begin
      // candidate j = (ptr + k) mod N; the loop runs downwards so k = 0 wins last
      j = int'(ptr) + k;
      if (j >= N) j = j - N;
      if (s_req[j]) begin
        m_gnt = 1'b1;
        m_idx = IW'(j);
      end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) ptr <= '0;
    else if (s_take && m_gnt) ptr <= (int'(m_idx) == N - 1) ? '0 : m_idx + 1'b1;
  end

endmodule

`default_nettype wire
