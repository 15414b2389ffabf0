// SPDX-License-Identifier: Apache-2.0
//
// net_pkt_fifo_fv: formal harness of a router input buffer in store-and-forward
// mode (net_pkt_fifo, SAF = 1, as behind every link_rx; `make -C rtl/net
// formal`, docs/network.md "Formal checks"). The harness is the upstream side:
//   c     the sender's credits (start DEPTH, +1 per m_credit pulse, -1 per
//         flit it sends);
//   p     flits sent but not yet written into the buffer (on the link, or
//         being resent): a write takes one; a dropped partial packet (s_drop)
//         returns its flits to p, because link_tx resends them with the
//         credits already spent (link_rx never returns credits for them).
// Free inputs: send, write (only with p > 0), last, drop (never with a write),
// pop (only when m_avail).
//
// Properties (assertions labelled for the mutation runs):
//   f_ovf   the buffer is never overrun (m_ovf stays low);
//   f_cons  credits are conserved: c + p + flits in the buffer == DEPTH;
//   f_vis   store and forward: a flit is visible (m_avail) exactly when a
//           whole packet not yet read is in the buffer.
// Strengthening invariants for the induction step (probes p_wr, p_cm, p_rd =
// dut.wr_ptr, cm_ptr, rd_ptr): the pointers' distances equal the harness's
// counts of flits written, committed and not yet read.

`default_nettype none

module net_pkt_fifo_fv #(
  parameter int DEPTH = 32  // flits
) (
  // ---- clock (reset: the first cycle)
  input  wire logic clk,
  // ---- free inputs
  input  wire logic s_send,   // the sender spends a credit on a flit
  input  wire logic s_valid,  // a flit is written
  input  wire logic s_last,
  input  wire logic s_drop,   // the partial packet is discarded
  input  wire logic s_pop     // the head flit is taken
);
  localparam int AW = $clog2(DEPTH);
  localparam int CW = AW + 2;  // harness counters: up to 2 x DEPTH

  logic init = 1'b1;
  always_ff @(posedge clk) init <= 1'b0;

  /* verilator lint_off UNUSEDSIGNAL */
  logic [net_pkg::FLIT_W-1:0] m_data;
  logic                       m_last;
  logic                       m_xdata, m_avail2, m_xdata2;
  /* verilator lint_on UNUSEDSIGNAL */
  logic m_credit, m_avail, m_ovf;
  net_pkt_fifo #(.DEPTH(DEPTH), .SAF(1)) dut (
    .clk, .rst(init),
    .s_valid, .s_data('0), .s_last, .s_xdata(1'b0), .s_drop, .m_credit,
    .m_avail, .m_data, .m_last, .m_xdata, .m_avail2, .m_xdata2, .s_pop,
    .m_ovf
  );

  // probes: the buffer's pointers (connected to dut.wr_ptr, cm_ptr, rd_ptr by the script)
  /* verilator lint_off UNDRIVEN */
  (* keep *) logic [AW:0] p_wr, p_cm, p_rd;
  /* verilator lint_on UNDRIVEN */

  // ------------------------------------------------------------------ the sender and the link
  logic [CW-1:0] c, p;
  logic [CW-1:0] used, part, vis;  // flits in the buffer; of them written since the last commit; committed, unread
  logic          drop;
  assign drop = s_drop && !s_valid;
  always_ff @(posedge clk) begin
    if (init) begin
      c    <= CW'(DEPTH);
      p    <= '0;
      used <= '0;
      part <= '0;
      vis  <= '0;
    end else begin
      c    <= c + CW'(m_credit) - CW'(s_send);
      p    <= p + CW'(s_send) - CW'(s_valid) + (drop ? part : '0);
      used <= used + CW'(s_valid) - CW'(s_pop) - (drop ? part : '0);
      part <= s_valid ? (s_last ? '0 : part + 1'b1) : (drop ? '0 : part);
      vis  <= vis + (s_valid && s_last ? part + 1'b1 : '0) - CW'(s_pop);
    end
  end

  always_comb begin
    if (!init) begin
      if (s_send) assume (c != '0);
      if (s_valid) assume (p != '0);
      if (s_drop) assume (!s_valid);
      if (s_pop) assume (m_avail);
    end
  end

  // ------------------------------------------------------------------ properties
  always_comb begin
    if (!init) begin
      f_ovf: assert (!m_ovf);
      f_cons: assert (c + p + used == CW'(DEPTH));
      f_vis: assert (m_avail == (vis != '0));
      i_ptr: assert ((AW+1)'(p_wr - p_rd) == (AW+1)'(used) && (AW+1)'(p_cm - p_rd) == (AW+1)'(vis)
                     && (AW+1)'(p_wr - p_cm) == (AW+1)'(part) && used == vis + part
                     && vis <= used && part <= used
                     && used <= CW'(DEPTH) && c <= CW'(DEPTH) && p <= CW'(DEPTH));
    end
  end

endmodule

`default_nettype wire
