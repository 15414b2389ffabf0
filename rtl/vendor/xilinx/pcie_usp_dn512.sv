// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_dn512: 512-bit to 128-bit AXI-Stream width converter for the
// receive interfaces (CQ, RC) of a Xilinx UltraScale+ PCIe (PCIE4) hard IP
// with dword alignment and straddling off (docs/hard-ip.md "512 bits").
//
// A 512-bit beat carries up to 16 dwords, one packet (no straddling),
// contiguous from lane 0 of the packet's first beat; only the last beat of a
// packet may be partial. The beat leaves as its 128-bit slices 0..n, where n
// is the highest slice with a tkeep bit set (3 for a full beat): slice k is
// dwords 4k..4k+3 with their tkeep bits, tlast on the last slice of the
// packet's last beat. No storage: the input beat stays on s_* (AXI-Stream
// keeps it stable) and is taken with the last slice; m_idx tells the caller
// which slice is on m_* (to pick the slice's tuser bits), m_sop marks the
// packet's first slice. Synchronous to clk (the IP's user_clk), rst.

`default_nettype none

module pcie_usp_dn512 (
  // ---------------- clock and reset ----------------
  input  wire logic         clk,
  input  wire logic         rst,             // synchronous, active high

  // ---------------- 512 bits from the hard IP ----------------
  input  wire logic [511:0] s_tdata,
  input  wire logic [15:0]  s_tkeep,         // one bit per dword
  input  wire logic         s_tlast,
  input  wire logic         s_tvalid,
  output      logic         s_tready,

  // ---------------- 128 bits to the adapter ----------------
  output      logic [127:0] m_tdata,
  output      logic [3:0]   m_tkeep,
  output      logic         m_tlast,
  output      logic         m_tvalid,
  input  wire logic         m_tready,
  output      logic [1:0]   m_idx,           // slice of the input beat on m_*
  output      logic         m_sop            // m_* is the first slice of a packet
);

  logic [1:0] idx_q;                         // slice on the output
  logic       in_pkt_q;                      // a packet is in progress (next slice is not its first)
  logic [1:0] last_idx;                      // last slice of the input beat with a dword
  logic       last_slice;

  always_comb begin
    if (s_tkeep[15:12] != 4'd0)     last_idx = 2'd3;
    else if (s_tkeep[11:8] != 4'd0) last_idx = 2'd2;
    else if (s_tkeep[7:4] != 4'd0)  last_idx = 2'd1;
    else                            last_idx = 2'd0;
  end

  assign last_slice = idx_q == last_idx;
  assign m_tdata    = s_tdata[128*idx_q +: 128];
  assign m_tkeep    = s_tkeep[4*idx_q +: 4];
  assign m_tlast    = s_tlast && last_slice;
  assign m_tvalid   = s_tvalid;
  assign s_tready   = m_tready && last_slice;
  assign m_idx      = idx_q;
  assign m_sop      = !in_pkt_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      idx_q    <= '0;
      in_pkt_q <= 1'b0;
    end else if (m_tvalid && m_tready) begin
      idx_q    <= last_slice ? 2'd0 : idx_q + 2'd1;
      in_pkt_q <= !m_tlast;
    end
  end

endmodule

`default_nettype wire
