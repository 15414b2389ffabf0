// SPDX-License-Identifier: Apache-2.0
//
// pcie_tlp_slice: a register slice (skid buffer) for the TLP stream. Full
// throughput, every output registered, s_ready registered as well, so it cuts
// all combinational paths between its two sides. Used at the NIC's m_tlp edge
// so the vendor layer sees flop outputs that obey the AXI-Stream rules even
// though the arbiter in front of it is combinational.

`default_nettype none

module pcie_tlp_slice #(
  parameter int DATA_W = 128,          // beat width in bits
  parameter int KEEP_W = DATA_W / 32   // keep bits (one per dword)
) (
  // ---------------- clock and reset ----------------
  input  wire logic              clk,
  input  wire logic              rst,      // synchronous, active high

  // ---------------- input stream ----------------
  input  wire logic [DATA_W-1:0] s_data,
  input  wire logic [KEEP_W-1:0] s_keep,
  input  wire logic              s_sop,
  input  wire logic              s_eop,
  input  wire logic              s_valid,
  output      logic              s_ready,

  // ---------------- output stream ----------------
  output      logic [DATA_W-1:0] m_data,
  output      logic [KEEP_W-1:0] m_keep,
  output      logic              m_sop,
  output      logic              m_eop,
  output      logic              m_valid,
  input  wire logic              m_ready
);

  localparam int W = DATA_W + KEEP_W + 2;

  logic [W-1:0] out_q, tmp_q;
  logic         out_valid_q, tmp_valid_q;
  logic         s_fire, m_take;

  assign s_ready = !tmp_valid_q;
  assign s_fire  = s_valid && s_ready;
  assign m_take  = !out_valid_q || m_ready;

  always_ff @(posedge clk) begin
    if (rst) begin
      out_valid_q <= 1'b0;
      tmp_valid_q <= 1'b0;
    end else if (m_take) begin
      if (tmp_valid_q) begin
        out_valid_q <= 1'b1;
        tmp_valid_q <= 1'b0;
      end else begin
        out_valid_q <= s_fire;
      end
    end else if (s_fire) begin
      tmp_valid_q <= 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (m_take) begin
      if (tmp_valid_q) begin
        out_q <= tmp_q;
      end else if (s_fire) begin
        out_q <= {s_data, s_keep, s_sop, s_eop};
      end
    end else if (s_fire) begin
      tmp_q <= {s_data, s_keep, s_sop, s_eop};
    end
  end

  assign {m_data, m_keep, m_sop, m_eop} = out_q;
  assign m_valid = out_valid_q;

endmodule

`default_nettype wire
