// SPDX-License-Identifier: Apache-2.0
//
// smfu_cpl_order: PCIe ordering between the two receive buffers of the host
// SMFU (docs/smfu.md). A completion (SMFU_CPL, answer to a host read of the
// device) must not pass a posted write (SMFU_WR, device DMA / MSI) that
// arrived from the network before it.
//
// Writes are counted as they arrive on the network port (s_net_*, watched,
// not consumed) and as the pass-through receiver retires them (wr_done: MWr
// eop handed to the host, or dropped). Each completion header records the
// arrival count in a FIFO; the completion leaves the completion buffer
// (s_cpl -> m_cpl) only once the retire count has reached it. Writes that
// arrive after the completion do not hold it. Counts are modulo 2^16.

`default_nettype none

module smfu_cpl_order #(
  // --------------------------------------------------------------------------
  // Parameters
  // --------------------------------------------------------------------------
  parameter int RX_DEPTH = 64  // flits of the completion buffer (bounds the completions held)
) (
  // --------------------------------------------------------------------------
  // Clock and synchronous active-high reset
  // --------------------------------------------------------------------------
  input  wire logic         clk,
  input  wire logic         rst,
  // --------------------------------------------------------------------------
  // Network port toward the SMFU (watched only)
  // --------------------------------------------------------------------------
  input  wire logic         s_net_valid,
  input  wire logic [3:0]   s_net_type,   // header flit: packet type (bits 35:32)
  input  wire logic         s_net_last,
  // --------------------------------------------------------------------------
  // Write retired by the pass-through receiver (pulse)
  // --------------------------------------------------------------------------
  input  wire logic         wr_done,
  // --------------------------------------------------------------------------
  // Completion packets: from the completion buffer, to the egress unit
  // --------------------------------------------------------------------------
  input  wire logic [127:0] s_cpl_data,
  input  wire logic         s_cpl_last,
  input  wire logic         s_cpl_valid,
  output      logic         s_cpl_ready,
  output      logic [127:0] m_cpl_data,
  output      logic         m_cpl_last,
  output      logic         m_cpl_valid,
  input  wire logic         m_cpl_ready
);

  logic        net_in_pkt_q, net_hdr;
  logic [15:0] wr_in_q, wr_done_q, snap, wr_gap;
  logic        snap_valid, cpl_in_pkt_q, cpl_release;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        snap_in_ready;          // never full: at most RX_DEPTH completions are buffered
  logic [$clog2(RX_DEPTH):0] snap_count;
  /* verilator lint_on UNUSEDSIGNAL */

  assign net_hdr = s_net_valid && !net_in_pkt_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      net_in_pkt_q <= 1'b0;
      wr_in_q      <= '0;
      wr_done_q    <= '0;
      cpl_in_pkt_q <= 1'b0;
    end else begin
      if (s_net_valid) net_in_pkt_q <= !s_net_last;
      if (net_hdr && s_net_type == 4'(net_pkg::NET_TYPE_SMFU_WR)) wr_in_q <= wr_in_q + 16'd1;
      if (wr_done) wr_done_q <= wr_done_q + 16'd1;
      if (m_cpl_valid && m_cpl_ready) cpl_in_pkt_q <= !m_cpl_last;
    end
  end

  sync_fifo #(.WIDTH(16), .DEPTH(RX_DEPTH)) u_snap (
    .clk, .rst,
    .s_data  (wr_in_q),
    .s_valid (net_hdr && s_net_type == 4'(net_pkg::NET_TYPE_SMFU_CPL)),
    .s_ready (snap_in_ready),
    .m_data  (snap),
    .m_valid (snap_valid),
    .m_ready (m_cpl_valid && m_cpl_ready && !cpl_in_pkt_q),
    .count   (snap_count)
  );

  assign wr_gap      = snap - wr_done_q;            // writes still to retire (mod 2^16)
  assign cpl_release = cpl_in_pkt_q || (snap_valid && (wr_gap == 16'd0 || wr_gap[15]));
  assign m_cpl_data  = s_cpl_data;
  assign m_cpl_last  = s_cpl_last;
  assign m_cpl_valid = s_cpl_valid && cpl_release;
  assign s_cpl_ready = m_cpl_ready && cpl_release;

endmodule

`default_nettype wire
