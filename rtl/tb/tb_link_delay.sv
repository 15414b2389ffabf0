// SPDX-License-Identifier: Apache-2.0
//
// tb_link_delay (testbench only): one direction of a network link between two
// net_node link ports, DELAY cycles of wire delay: the link symbol (data,
// framing word, CRC; docs/network.md "Link layer") of A's outgoing port to B's
// incoming port. A link is two of them. Reset drives idle symbols.

`default_nettype none

module tb_link_delay #(
  parameter int DELAY = 4            // cycles (>= 2)
) (
  input  wire logic         clk,
  input  wire logic         rst,
  // A's outgoing port -> B's incoming port
  input  wire logic [127:0] a_data,
  input  wire logic [15:0]  a_frm,
  input  wire logic [31:0]  a_crc,
  output      logic [127:0] b_data,
  output      logic [15:0]  b_frm,
  output      logic [31:0]  b_crc
);
  logic [DELAY-1:0][127:0]   d_q;
  logic [DELAY-1:0][15:0]    f_q;
  logic [DELAY-1:0][31:0]    c_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      d_q <= '0;
      f_q <= '0;
      for (int i = 0; i < DELAY; i++) c_q[i] <= net_pkg::LINK_IDLE_CRC;
    end else begin
      d_q <= {d_q[DELAY-2:0], a_data};
      f_q <= {f_q[DELAY-2:0], a_frm};
      c_q <= {c_q[DELAY-2:0], a_crc};
    end
  end

  assign b_data = d_q[DELAY-1];
  assign b_frm  = f_q[DELAY-1];
  assign b_crc  = c_q[DELAY-1];
endmodule

`default_nettype wire
