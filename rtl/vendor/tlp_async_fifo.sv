// SPDX-License-Identifier: Apache-2.0
//
// tlp_async_fifo: asynchronous FIFO between two unrelated clocks for one
// AXI-Stream-like channel of W bits (a TLP beat with its keep/sop/eop and side
// band, packed by the caller). Gray-coded pointers, each synchronised into the
// other domain by two flip-flops; the storage is a flip-flop array read
// combinationally at the read pointer (an entry is written before the write
// pointer that publishes it, so it is stable when the reader sees it).
//
// s_idle (write domain) is 1 when everything written has been read: the
// reader's pointer, as synchronised back, has caught up. It lags the reader by
// the synchroniser, so it never claims a beat was read before it was.
// Each side has its own synchronous reset; reset both (the caller holds them
// together). DEPTH_LOG2 >= 2.

`default_nettype none

module tlp_async_fifo #(
  parameter int W          = 134,               // bits per entry
  parameter int DEPTH_LOG2 = 4                  // 2**DEPTH_LOG2 entries
) (
  // ---------------- write side ----------------
  input  wire logic         s_clk,
  input  wire logic         s_rst,              // synchronous to s_clk, active high
  input  wire logic [W-1:0] s_data,
  input  wire logic         s_valid,
  output      logic         s_ready,
  output      logic         s_idle,             // everything written has been read

  // ---------------- read side ----------------
  input  wire logic         m_clk,
  input  wire logic         m_rst,              // synchronous to m_clk, active high
  output      logic [W-1:0] m_data,
  output      logic         m_valid,
  input  wire logic         m_ready
);

  localparam int A = DEPTH_LOG2;

  logic [W-1:0] mem_q [2**A];
  logic [A:0]   wbin_q, wgray_q, rbin_q, rgray_q;
  logic [A:0]   wgray_r1_q, wgray_r2_q;           // write pointer in the read domain
  logic [A:0]   rgray_w1_q, rgray_w2_q;           // read pointer in the write domain
  logic [A:0]   wbin_nx, rbin_nx;

  function automatic logic [A:0] bin2gray(input logic [A:0] f_b);
    bin2gray = f_b ^ (f_b >> 1);
  endfunction

  // ------------------------------------------------------------------
  // Write domain
  // ------------------------------------------------------------------
  assign s_ready = wgray_q != {~rgray_w2_q[A:A-1], rgray_w2_q[A-2:0]};
  assign s_idle  = wgray_q == rgray_w2_q;
  assign wbin_nx = wbin_q + (A+1)'(s_valid && s_ready);

  always_ff @(posedge s_clk) begin
    if (s_valid && s_ready) mem_q[wbin_q[A-1:0]] <= s_data;
  end

  always_ff @(posedge s_clk) begin
    if (s_rst) begin
      wbin_q     <= '0;
      wgray_q    <= '0;
      rgray_w1_q <= '0;
      rgray_w2_q <= '0;
    end else begin
      wbin_q     <= wbin_nx;
      wgray_q    <= bin2gray(wbin_nx);
      rgray_w1_q <= rgray_q;
      rgray_w2_q <= rgray_w1_q;
    end
  end

  // ------------------------------------------------------------------
  // Read domain
  // ------------------------------------------------------------------
  assign m_valid = rgray_q != wgray_r2_q;
  assign m_data  = mem_q[rbin_q[A-1:0]];
  assign rbin_nx = rbin_q + (A+1)'(m_valid && m_ready);

  always_ff @(posedge m_clk) begin
    if (m_rst) begin
      rbin_q     <= '0;
      rgray_q    <= '0;
      wgray_r1_q <= '0;
      wgray_r2_q <= '0;
    end else begin
      rbin_q     <= rbin_nx;
      rgray_q    <= bin2gray(rbin_nx);
      wgray_r1_q <= wgray_q;
      wgray_r2_q <= wgray_r1_q;
    end
  end

endmodule

`default_nettype wire
