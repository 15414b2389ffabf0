// SPDX-License-Identifier: Apache-2.0
//
// pcie_usp_up512: 128-bit to 512-bit AXI-Stream width converter for the
// transmit interfaces (CC, RQ) of a Xilinx UltraScale+ PCIe (PCIE4) hard IP
// with dword alignment and straddling off (docs/hard-ip.md "512 bits").
//
// The 128-bit beats of a packet (all full but the last, as the adapter makes
// them) are packed four to a 512-bit beat: beat k of the packet goes to
// dwords 4(k mod 4)..4(k mod 4)+3. A 512-bit beat leaves when it is full or
// holds the packet's last beat, so every packet starts at lane 0 of a fresh
// beat (no straddling). s_user is taken from the packet's first beat (where
// the adapter puts first/last BE and the sequence number) and held for all
// its 512-bit beats (m_user); m_sop marks the packet's first 512-bit beat,
// m_eop_ptr the index of the last dword with tlast (PG213 is_sop / is_eop /
// is_eop0_ptr). One 512-bit register; the input waits only while a full
// beat is not taken. Synchronous to clk (the IP's user_clk), rst.

`default_nettype none

module pcie_usp_up512 #(
  parameter int USER_W = 62                    // s_user / m_user width
) (
  // ---------------- clock and reset ----------------
  input  wire logic              clk,
  input  wire logic              rst,          // synchronous, active high

  // ---------------- 128 bits from the adapter ----------------
  input  wire logic [127:0]      s_tdata,
  input  wire logic [3:0]        s_tkeep,      // one bit per dword, contiguous from bit 0
  input  wire logic              s_tlast,
  input  wire logic [USER_W-1:0] s_user,       // used from the packet's first beat
  input  wire logic              s_tvalid,
  output      logic              s_tready,

  // ---------------- 512 bits to the hard IP ----------------
  output      logic [511:0]      m_tdata,
  output      logic [15:0]       m_tkeep,
  output      logic              m_tlast,
  output      logic [USER_W-1:0] m_user,       // s_user of the packet's first beat
  output      logic              m_sop,        // first 512-bit beat of a packet
  output      logic [3:0]        m_eop_ptr,    // with m_tlast: index of the last dword
  output      logic              m_tvalid,
  input  wire logic              m_tready
);

  logic [511:0]      data_q;
  logic [15:0]       keep_q;
  logic              last_q, sop_q, valid_q;
  logic [3:0]        ptr_q;
  logic [USER_W-1:0] user_q;
  logic [1:0]        pos_q;                    // slot of the next input beat
  logic              in_pkt_q;                 // the next input beat is not a packet's first
  logic [1:0]        last_dw;                  // last dword of the input beat

  always_comb begin
    case (s_tkeep)
      4'b0001: last_dw = 2'd0;
      4'b0011: last_dw = 2'd1;
      4'b0111: last_dw = 2'd2;
      default: last_dw = 2'd3;
    endcase
  end

  assign s_tready = !valid_q || m_tready;

  always_ff @(posedge clk) begin
    if (rst) begin
      data_q   <= '0;
      keep_q   <= '0;
      last_q   <= 1'b0;
      sop_q    <= 1'b0;
      valid_q  <= 1'b0;
      ptr_q    <= '0;
      user_q   <= '0;
      pos_q    <= '0;
      in_pkt_q <= 1'b0;
    end else begin
      if (valid_q && m_tready) valid_q <= 1'b0;
      if (s_tvalid && s_tready) begin
        // the beat into its slot; a new 512-bit beat clears the other slots' keep
        // (their data lanes keep old dwords, outside tkeep)
        for (int k = 0; k < 4; k++) begin
          if (pos_q == 2'(k)) begin
            data_q[128*k +: 128] <= s_tdata;
            keep_q[4*k +: 4]     <= s_tkeep;
          end else if (pos_q == 2'd0) begin
            keep_q[4*k +: 4]     <= 4'd0;
          end
        end
        if (pos_q == 2'd0) sop_q <= !in_pkt_q;
        if (!in_pkt_q) user_q <= s_user;
        ptr_q    <= {pos_q, last_dw};
        last_q   <= s_tlast;
        in_pkt_q <= !s_tlast;
        if (s_tlast || pos_q == 2'd3) begin
          valid_q <= 1'b1;
          pos_q   <= 2'd0;
        end else begin
          pos_q   <= pos_q + 2'd1;
        end
      end
    end
  end

  assign m_tdata   = data_q;
  assign m_tkeep   = keep_q;
  assign m_tlast   = last_q;
  assign m_user    = user_q;
  assign m_sop     = sop_q;
  assign m_eop_ptr = ptr_q;
  assign m_tvalid  = valid_q;

endmodule

`default_nettype wire
