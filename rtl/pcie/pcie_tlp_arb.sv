// SPDX-License-Identifier: Apache-2.0
//
// pcie_tlp_arb: round-robin arbiter that merges N TLP streams into one, a
// whole TLP at a time (the grant is held from the sop beat to the eop beat).
// The selection is combinational; once a beat is presented the grant is held
// until that TLP's eop beat has been taken, so the output obeys the
// AXI-Stream rule that data stays stable while valid && !ready. Put a
// pcie_tlp_slice behind it where flop outputs are needed.

`default_nettype none

module pcie_tlp_arb #(
  parameter int N      = 3,            // number of input streams (>= 2)
  parameter int DATA_W = 128,          // beat width in bits
  parameter int KEEP_W = DATA_W / 32   // keep bits (one per dword)
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,      // synchronous, active high

  // ---------------- input streams (index i in slice i) ----------------
  input  wire logic [N*DATA_W-1:0]   s_data,
  input  wire logic [N*KEEP_W-1:0]   s_keep,
  input  wire logic [N-1:0]          s_sop,
  input  wire logic [N-1:0]          s_eop,
  input  wire logic [N-1:0]          s_valid,
  output      logic [N-1:0]          s_ready,

  // ---------------- merged output stream ----------------
  output      logic [DATA_W-1:0]     m_data,
  output      logic [KEEP_W-1:0]     m_keep,
  output      logic                  m_sop,
  output      logic                  m_eop,
  output      logic                  m_valid,
  input  wire logic                  m_ready
);

  localparam int IW = (N > 1) ? $clog2(N) : 1;

  logic          locked_q;    // a TLP is in progress on grant_q
  logic [IW-1:0] grant_q;     // stream holding the output
  logic [IW-1:0] last_q;      // last stream granted (round-robin origin)
  logic [IW-1:0] pick;        // combinational choice when not locked
  logic          pick_any;
  logic [IW-1:0] sel;

  // Round robin: first valid stream after last_q.
  always_comb begin
    int idx;
    pick     = last_q;
    pick_any = 1'b0;
    for (int k = 1; k <= N; k++) begin
      idx = int'(last_q) + k;
      if (idx >= N) idx = idx - N;
      if (!pick_any && s_valid[idx]) begin
        pick     = IW'(idx);
        pick_any = 1'b1;
      end
    end
  end

  assign sel = locked_q ? grant_q : pick;

  always_comb begin
    m_data  = s_data[int'(sel)*DATA_W +: DATA_W];
    m_keep  = s_keep[int'(sel)*KEEP_W +: KEEP_W];
    m_sop   = s_sop[sel];
    m_eop   = s_eop[sel];
    m_valid = locked_q ? s_valid[grant_q] : pick_any;
    s_ready = '0;
    s_ready[sel] = m_ready && (locked_q || pick_any);
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      locked_q <= 1'b0;
      grant_q  <= '0;
      last_q   <= IW'(N - 1);
    end else begin
      if (m_valid) begin
        // hold the grant until the eop beat is taken
        locked_q <= !(m_ready && m_eop);
        grant_q  <= sel;
        if (!locked_q) begin
          last_q <= sel;
        end
      end
    end
  end

endmodule

`default_nettype wire
