// SPDX-License-Identifier: Apache-2.0
//
// smfu_fifo: synchronous FIFO with valid/ready on both sides (first-word
// fall-through: m_data shows the head entry while m_valid). Used as the
// receive buffers of smfu_net_if. One write and one read per cycle; a write
// into a full FIFO is refused (s_ready low), so the producer must respect
// s_ready or, as smfu_net_if does, guarantee space by credits.

`default_nettype none

module smfu_fifo
#(
    parameter int W     = 8,    // entry width in bits
    parameter int DEPTH = 4     // entries (power of two, >= 2)
) (
    // ---------------- clock and reset ----------------
    input  wire logic         clk,
    input  wire logic         rst,        // synchronous, active high

    // ---------------- write side ----------------
    input  wire logic [W-1:0] s_data,
    input  wire logic         s_valid,
    output      logic         s_ready,

    // ---------------- read side ----------------
    output      logic [W-1:0] m_data,
    output      logic         m_valid,
    input  wire logic         m_ready
);

    localparam int AW = $clog2(DEPTH);

    logic [W-1:0] mem_q [DEPTH];
    logic [AW:0]  wp_q, rp_q;
    logic         wr, rd;

    assign s_ready = (wp_q - rp_q) != (AW+1)'(DEPTH);
    assign m_valid = wp_q != rp_q;
    assign m_data  = mem_q[rp_q[AW-1:0]];
    assign wr      = s_valid && s_ready;
    assign rd      = m_valid && m_ready;

    always_ff @(posedge clk) begin
        if (rst) begin
            wp_q <= '0;
            rp_q <= '0;
        end else begin
            if (wr) wp_q <= wp_q + 1'b1;
            if (rd) rp_q <= rp_q + 1'b1;
        end
    end

    always_ff @(posedge clk) begin
        if (wr) mem_q[wp_q[AW-1:0]] <= s_data;
    end

endmodule

`default_nettype wire
