// SPDX-License-Identifier: Apache-2.0
//
// tb_link_delay (testbench only): one network link between two net_node
// link ports with DELAY cycles of wire delay in both directions (flits with
// their CRC side band one way, credit pulses the other way).

`default_nettype none

module tb_link_delay #(
  parameter int DELAY = 4            // cycles per direction (>= 1)
) (
  input  wire logic         clk,
  input  wire logic         rst,
  // A's outgoing port -> B's incoming port
  input  wire logic         a_valid,
  input  wire logic [127:0] a_data,
  input  wire logic         a_last,
  input  wire logic         a_vc,
  input  wire logic [31:0]  a_crc,
  output      logic         b_valid,
  output      logic [127:0] b_data,
  output      logic         b_last,
  output      logic         b_vc,
  output      logic [31:0]  b_crc,
  // B's credit return -> A
  input  wire logic [1:0]   b_credit,
  output      logic [1:0]   a_credit
);
  logic [DELAY-1:0]          v_q, l_q, c_q;
  logic [DELAY-1:0][127:0]   d_q;
  logic [DELAY-1:0][31:0]    crc_q;
  logic [DELAY-1:0][1:0]     cr_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      v_q  <= '0;
      cr_q <= '0;
    end else begin
      v_q  <= {v_q[DELAY-2:0], a_valid};
      cr_q <= {cr_q[DELAY-2:0], b_credit};
    end
    d_q   <= {d_q[DELAY-2:0], a_data};
    l_q   <= {l_q[DELAY-2:0], a_last};
    c_q   <= {c_q[DELAY-2:0], a_vc};
    crc_q <= {crc_q[DELAY-2:0], a_crc};
  end

  assign b_valid  = v_q[DELAY-1];
  assign b_data   = d_q[DELAY-1];
  assign b_last   = l_q[DELAY-1];
  assign b_vc     = c_q[DELAY-1];
  assign b_crc    = crc_q[DELAY-1];
  assign a_credit = cr_q[DELAY-1];
endmodule

`default_nettype wire
