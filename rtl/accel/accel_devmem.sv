// SPDX-License-Identifier: Apache-2.0
//
// accel_devmem: the accelerator's on-chip device memory (behind BAR2).
//
// 2**IMPL_LOG2 bytes in four 32-bit-wide banks (bank j holds the dwords whose
// dword address is j mod 4), so each port reads or writes four consecutive
// dwords starting at ANY dword address in one cycle: the request/completion
// datapaths never need a realignment shifter. Two ports: A serves the host's
// requests (accel_target), B the job engine (accel_job). Reads have one cycle
// of latency; a write and a read of the same port in one cycle return the old
// data. Simultaneous writes of both ports to one byte: port B wins. Addresses
// wrap modulo the memory size.

`default_nettype none

module accel_devmem #(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter int IMPL_LOG2 = 22,            // memory size: 2**IMPL_LOG2 bytes (>= 6)
  localparam int AW = IMPL_LOG2 - 2        // dword address width
) (
  // ---------------- clock ----------------
  input  wire logic          clk,
  // ------------------------------------------------------------------------
  // Port A: four dwords from dword address a_addr; a_wstrb bit 4*i+b writes
  // byte b of dword i; a_rdata dword i = memory dword a_addr+i (next cycle)
  // ------------------------------------------------------------------------
  input  wire logic          a_en,
  input  wire logic [AW-1:0] a_addr,
  input  wire logic [15:0]   a_wstrb,
  input  wire logic [127:0]  a_wdata,
  output      logic [127:0]  a_rdata,

  // ---------------- port B: same as port A ----------------
  input  wire logic          b_en,
  input  wire logic [AW-1:0] b_addr,
  input  wire logic [15:0]   b_wstrb,
  input  wire logic [127:0]  b_wdata,
  output      logic [127:0]  b_rdata
);

  localparam int RW   = AW - 2;  // row address width of a bank
  localparam int ROWS = 1 << RW;

  logic [3:0][31:0] a_bank_q, b_bank_q;   // read data of each bank
  logic [1:0]  a_sel_q, b_sel_q;

  for (genvar j = 0; j < 4; j++) begin : g_bank
    logic [31:0]   mem [ROWS];
    logic [1:0]    ka, kb;        // which dword of the access lands in this bank
    /* verilator lint_off UNUSEDSIGNAL */
    logic [AW-1:0] da, db;        // its dword address (bits 1:0 select the bank)
    /* verilator lint_on UNUSEDSIGNAL */
    logic [31:0]   wa, wb;
    logic [3:0]    sa, sb;

    always_comb begin
      ka = 2'(j) - a_addr[1:0];
      kb = 2'(j) - b_addr[1:0];
      da = a_addr + AW'(ka);
      db = b_addr + AW'(kb);
      wa = a_wdata[32*ka +: 32];
      wb = b_wdata[32*kb +: 32];
      sa = a_wstrb[4*ka +: 4];
      sb = b_wstrb[4*kb +: 4];
    end

    always_ff @(posedge clk) begin
      if (a_en) begin
        for (int b = 0; b < 4; b++) begin
          if (sa[b]) mem[da[AW-1:2]][8*b +: 8] <= wa[8*b +: 8];
        end
        a_bank_q[j] <= mem[da[AW-1:2]];
      end
      if (b_en) begin
        for (int b = 0; b < 4; b++) begin
          if (sb[b]) mem[db[AW-1:2]][8*b +: 8] <= wb[8*b +: 8];
        end
        b_bank_q[j] <= mem[db[AW-1:2]];
      end
    end
  end

  always_ff @(posedge clk) begin
    if (a_en) a_sel_q <= a_addr[1:0];
    if (b_en) b_sel_q <= b_addr[1:0];
  end

  always_comb begin
    for (int i = 0; i < 4; i++) begin
      a_rdata[32*i +: 32] = a_bank_q[2'(a_sel_q + 2'(i))];
      b_rdata[32*i +: 32] = b_bank_q[2'(b_sel_q + 2'(i))];
    end
  end

endmodule
