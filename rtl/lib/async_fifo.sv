// SPDX-License-Identifier: Apache-2.0
//
// async_fifo: asynchronous FIFO between two unrelated clocks, valid/ready on
// both sides, first-word fall-through. Gray-coded pointers, each carried into
// the other domain by a sync_bit chain of SYNC_STAGES flip-flops (a Gray
// count changes one bit per step, so a pointer is never seen torn: at worst
// one step old). The storage is a flip-flop array (or LUTRAM) read
// combinationally at the read pointer: an entry is written at the write edge
// that publishes its pointer, so it has been stable for SYNC_STAGES read
// edges when the reader sees it (its path into the read domain is bounded
// like the pointers': fw/boards/common/cdc.tcl). Used by link_phy_cdc and
// nic_hip_cdc.
//
// Flags: s_ready (not full) and m_valid (not empty) are exact on their own
// side and conservative about the other (it lags by the synchroniser): the
// writer sees a read SYNC_STAGES write edges after it (one more when the
// first flip-flop resolves late: sync_bit), the reader sees an entry
// SYNC_STAGES (+1) read edges after the write edge that published it and
// takes it at the next. So a writer that must never find the FIFO full needs
// more entries than it writes during that round trip (link_phy_cdc's header).
// s_idle (write domain): everything written has been read.
//
// Resets: one per side, synchronous to its clock, active high. Both sides
// must be in reset together: a side still running while the other's pointer
// returns to 0 sees a false fill level (a reader takes stale entries, a writer
// sees the FIFO full), and a side released while its synchroniser still holds
// the other side's pointer from before the reset does too. So assert both
// within a cycle of each other (an OR of the two domains' resets into a
// sync_reset per side: link_phy_cdc) and release each after its pointer
// synchroniser has taken the other side's reset value (SYNC_STAGES + 1 of its
// edges after the other side entered reset); which side is released first
// does not matter.

`default_nettype none

module async_fifo #(
  // --------------------------------------------------------------------------
  // Parameters
  // --------------------------------------------------------------------------
  parameter int W           = 8,   // bits per entry
  parameter int DEPTH_LOG2  = 4,   // 2**DEPTH_LOG2 entries, >= 2
  parameter int SYNC_STAGES = 2    // flip-flops per pointer synchroniser, >= 2
) (
  // --------------------------------------------------------------------------
  // Write side (s_clk domain)
  // --------------------------------------------------------------------------
  input  wire logic         s_clk,
  input  wire logic         s_rst,
  input  wire logic [W-1:0] s_data,
  input  wire logic         s_valid,
  output      logic         s_ready,   // not full (a write with s_ready low is ignored)
  output      logic         s_idle,    // everything written has been read
  // --------------------------------------------------------------------------
  // Read side (m_clk domain)
  // --------------------------------------------------------------------------
  input  wire logic         m_clk,
  input  wire logic         m_rst,
  output      logic [W-1:0] m_data,
  output      logic         m_valid,   // not empty: m_data is the oldest entry
  input  wire logic         m_ready
);

  localparam int A = DEPTH_LOG2;

  logic [W-1:0] mem_q [2**A];
  logic [A:0]   wbin_q, wgray_q, rbin_q, rgray_q;
  logic [A:0]   wgray_m, rgray_s;       // the other side's pointer, synchronised
  logic [A:0]   wbin_nx, rbin_nx;

  function automatic logic [A:0] bin2gray(input logic [A:0] f_b);
    bin2gray = f_b ^ (f_b >> 1);
  endfunction

  // ------------------------------------------------------------------
  // Write domain
  // ------------------------------------------------------------------
  sync_bit #(.WIDTH (A + 1), .STAGES (SYNC_STAGES)) u_rptr_sync (
    .clk (s_clk), .s_async (rgray_q), .m_sync (rgray_s)
  );

  // full: the write pointer is one lap ahead of the read pointer (Gray: the
  // two top bits inverted, the rest equal)
  assign s_ready = wgray_q != {~rgray_s[A:A-1], rgray_s[A-2:0]};
  assign s_idle  = wgray_q == rgray_s;
  assign wbin_nx = wbin_q + (A+1)'(s_valid && s_ready);

  always_ff @(posedge s_clk) begin
    if (s_valid && s_ready) mem_q[wbin_q[A-1:0]] <= s_data;
  end

  always_ff @(posedge s_clk) begin
    if (s_rst) begin
      wbin_q  <= '0;
      wgray_q <= '0;
    end else begin
      wbin_q  <= wbin_nx;
      wgray_q <= bin2gray(wbin_nx);
    end
  end

  // ------------------------------------------------------------------
  // Read domain
  // ------------------------------------------------------------------
  sync_bit #(.WIDTH (A + 1), .STAGES (SYNC_STAGES)) u_wptr_sync (
    .clk (m_clk), .s_async (wgray_q), .m_sync (wgray_m)
  );

  assign m_valid = rgray_q != wgray_m;
  assign m_data  = mem_q[rbin_q[A-1:0]];
  assign rbin_nx = rbin_q + (A+1)'(m_valid && m_ready);

  always_ff @(posedge m_clk) begin
    if (m_rst) begin
      rbin_q  <= '0;
      rgray_q <= '0;
    end else begin
      rbin_q  <= rbin_nx;
      rgray_q <= bin2gray(rbin_nx);
    end
  end

endmodule

`default_nettype wire
