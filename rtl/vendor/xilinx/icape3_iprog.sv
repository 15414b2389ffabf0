// SPDX-License-Identifier: Apache-2.0
//
// icape3_iprog: the NIC's reconfiguration request (nic_flash's reload_req /
// reload_addr, docs/flash.md "Reload") as the IPROG command sequence into an
// UltraScale+ ICAPE3 primitive (UG570, "IPROG Using ICAP"): the FPGA then
// reconfigures from the flash address in WBSTAR, the update slot; if that
// image fails, the configuration logic falls back to address 0 (the fallback
// image), as on a power-up.
//
//   s_req, s_addr --> icape3_iprog --> m_icap_csib / m_icap_rdwrb / m_icap_data
//                                  <-- s_icap_avail
//
// The sequence, one 32-bit word per clock with CSIB low and RDWRB low (write),
// each word bit-swapped within each of its bytes as ICAPE3 expects (UG570,
// "Parallel Bus Bit Order": the sync word 0xAA995566 goes in as 0x5599AA66):
//
//   FFFFFFFF  dummy word
//   AA995566  sync word
//   20000000  type 1 NOOP
//   30020001  type 1 write, 1 word, to WBSTAR (register 0x10)
//   addr      WBSTAR: START_ADDR[28:0] = s_addr (in SPI modes the byte
//             address sent to the flash), RS_TS_B and RS[1:0] = 0 (BPI only)
//   30008001  type 1 write, 1 word, to CMD (register 0x04)
//   0000000F  IPROG
//   20000000  type 1 NOOP
//
// RDWRB goes low one cycle before CSIB and stays low until a cycle after CSIB
// is high again (ICAPE3 aborts when RDWRB changes while CSIB is low). A
// request waits for s_icap_avail (ICAPE3 is not available during and right
// after configuration); a request while a sequence runs is dropped (the FPGA
// reconfigures at its end anyway). s_busy: a sequence is pending or running.
// CSIB and RDWRB come from flip-flops holding their inverse (sel_q, wr_q), so
// that the state a flip-flop has after configuration, before the first reset
// edge (0 unless set otherwise), is "not selected, read".
// CLK of the ICAPE3 at most 200 MHz on UltraScale+ (the U250 top clocks it
// with the NIC core clock, 125 MHz).

`default_nettype none

module icape3_iprog (
  // ---------------- clock and reset ----------------
  input  wire logic        clk,
  input  wire logic        rst,           // synchronous, active high

  // ---------------- the request (nic_flash) ----------------
  input  wire logic        s_req,         // one-cycle pulse
  input  wire logic [28:0] s_addr,        // flash byte address of the image, valid with s_req
  output      logic        s_busy,

  // ---------------- ICAPE3 ----------------
  input  wire logic        s_icap_avail,  // ICAPE3 AVAIL
  output      logic        m_icap_csib,   // ICAPE3 CSIB, active low
  output      logic        m_icap_rdwrb,  // ICAPE3 RDWRB, 0 = write
  output      logic [31:0] m_icap_data    // ICAPE3 I[31:0], bit-swapped per byte
);

  typedef enum logic [1:0] {S_IDLE, S_WAIT, S_SEND} state_t;

  state_t      state_q;
  logic [2:0]  idx_q;                     // the next word of the eight (wraps to 0 after the last)
  logic [28:0] addr_q;
  logic [31:0] word;
  logic        sel_q, wr_q;               // CSIB and RDWRB, inverted

  // UG570's byte order inside the word is kept; each byte's bits are reversed
  function automatic logic [31:0] bitswap(input logic [31:0] w);
    for (int b = 0; b < 32; b++) bitswap[b] = w[(b & ~7) + 7 - (b & 7)];
  endfunction

  always_comb begin
    unique case (idx_q)
      3'd0: word = 32'hFFFF_FFFF;
      3'd1: word = 32'hAA99_5566;
      3'd2: word = 32'h2000_0000;
      3'd3: word = 32'h3002_0001;
      3'd4: word = {3'b000, addr_q};
      3'd5: word = 32'h3000_8001;
      3'd6: word = 32'h0000_000F;
      default: word = 32'h2000_0000;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q      <= S_IDLE;
      idx_q        <= '0;
      addr_q       <= '0;
      sel_q        <= 1'b0;
      wr_q         <= 1'b0;
      m_icap_data  <= '0;
    end else begin
      unique case (state_q)
        S_IDLE: begin
          wr_q <= 1'b0;
          if (s_req) begin
            addr_q  <= s_addr;
            state_q <= S_WAIT;
          end
        end
        S_WAIT: if (s_icap_avail) begin    // RDWRB low a cycle ahead of CSIB
          wr_q         <= 1'b1;
          idx_q        <= '0;
          state_q      <= S_SEND;
        end
        default: begin                     // S_SEND: CSIB low from the first word on
          if (sel_q && idx_q == '0) begin  // the last word went out in the cycle before (idx wrapped)
            sel_q       <= 1'b0;
            m_icap_data <= '0;
            state_q     <= S_IDLE;
          end else begin
            sel_q       <= 1'b1;
            m_icap_data <= bitswap(word);
            idx_q       <= idx_q + 3'd1;
          end
        end
      endcase
    end
  end

  assign m_icap_csib  = !sel_q;
  assign m_icap_rdwrb = !wr_q;
  assign s_busy       = state_q != S_IDLE;

endmodule

`default_nettype wire
