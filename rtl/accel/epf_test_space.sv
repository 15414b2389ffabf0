// SPDX-License-Identifier: Apache-2.0
//
// epf_test_space: what the host reaches through the BARs of the endpoint
// test function (epf_test_top, docs/epf-test.md): BAR0's test registers,
// MSI-X table and PBA, and the memory behind BAR1..BAR5.
//
// It serves accel_target's device-memory port (four dwords from any dword
// address per cycle, byte strobes, read data one cycle later). epf_test_top
// translates every BAR hit into an internal byte address whose bits 22:20
// name the BAR (0..5) and whose low bits are the offset in it, so one
// accel_target serves all six BARs.
//
// BAR0 (pci-epf-test's test register BAR, struct pci_epf_test_reg):
//   0x00 MAGIC  0x04 COMMAND  0x08 STATUS  0x0c/0x10 SRC_ADDR lo/hi
//   0x14/0x18 DST_ADDR lo/hi  0x1c SIZE  0x20 CHECKSUM  0x24 IRQ_TYPE
//   0x28 IRQ_NUMBER  0x2c FLAGS: all read/write, as pci-epf-test's memory;
//   the function (epf_test_dma) takes a non-zero COMMAND, clears COMMAND
//   and STATUS, and sets STATUS bits and CHECKSUM as it works.
//   0x200 MSI-X PBA (read only)    0x8000 MSI-X table (16 bytes an entry)
// BAR1..BAR5: plain memory of the BAR's size (accel_devmem each).

`default_nettype none

module epf_test_space
#(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter int MSIX_VECTORS = 2048,   // MSI-X table entries, 4..2048, a power of two
  parameter int BAR1_LOG2    = 9,      // BAR sizes, log2 bytes (6..20)
  parameter int BAR2_LOG2    = 10,
  parameter int BAR3_LOG2    = 14,
  parameter int BAR4_LOG2    = 17,
  parameter int BAR5_LOG2    = 20,
  localparam int VW = $clog2(MSIX_VECTORS)
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic              clk,
  input  wire logic              rst,

  // ---------------- host port (accel_target's device-memory port A), dword addresses ----------------
  input  wire logic              a_en,
  /* verilator lint_off UNUSEDSIGNAL */  // offset bits above the largest BAR
  input  wire logic [20:0]       a_addr,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [15:0]       a_wstrb,
  input  wire logic [127:0]      a_wdata,
  output      logic [127:0]      a_rdata,

  // ---------------- test registers for the function (epf_test_dma) ----------------
  output      logic [31:0]       command,
  output      logic [31:0]       status,
  output      logic [63:0]       src_addr,
  output      logic [63:0]       dst_addr,
  output      logic [31:0]       size,
  output      logic [31:0]       checksum,
  output      logic [31:0]       irq_type,
  output      logic [31:0]       irq_number,
  output      logic [31:0]       flags,
  input  wire logic              cmd_take,     // pulse: COMMAND and STATUS := 0
  input  wire logic [31:0]       status_set,   // STATUS bits to set (this cycle)
  input  wire logic              csum_wr,      // CHECKSUM := csum_data
  input  wire logic [31:0]       csum_data,

  // ---------------- MSI-X table (read port of the function) and pending bits ----------------
  input  wire logic              tbl_rd,
  input  wire logic [VW-1:0]     tbl_vec,      // entry to read
  output      logic [127:0]      tbl_entry,    // {control, data, address hi, lo}, next cycle
  input  wire logic              pba_set,
  input  wire logic              pba_clr,
  input  wire logic [VW-1:0]     pba_vec,
  output      logic              retry_valid,  // an entry with its pending bit was written
  output      logic [VW-1:0]     retry_vec,
  input  wire logic              retry_take
);

  localparam int TBL_LOG2 = VW + 4;        // table bytes
  localparam int TAW      = TBL_LOG2 - 2;  // table dword address width

  // ------------------------------------------------------------------------
  // Decode of the access: region (BAR) and, in BAR0, the part
  // ------------------------------------------------------------------------
  logic [2:0]  region;
  logic [13:0] off0;        // BAR0 dword offset (64 KiB)
  logic        in_tbl;
  assign region = a_addr[20:18];
  assign off0   = a_addr[13:0];
  assign in_tbl = region == 3'd0 && off0[13];

  // ------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------
  logic [11:0][31:0] regs;
  logic [MSIX_VECTORS-1:0] pba;

  assign command    = regs[1];
  assign status     = regs[2];
  assign src_addr   = {regs[4], regs[3]};
  assign dst_addr   = {regs[6], regs[5]};
  assign size       = regs[7];
  assign checksum   = regs[8];
  assign irq_type   = regs[9];
  assign irq_number = regs[10];
  assign flags      = regs[11];

  // the dword at BAR0 dword offset f_off as the host reads it (not the table)
  function automatic logic [31:0] bar0_dw(input logic [13:0] f_off);
    bar0_dw = 32'd0;
    if (f_off < 14'd12) bar0_dw = regs[4'(f_off)];
    else if (f_off[13:6] == 8'h02 && 32'(f_off[5:0]) < (MSIX_VECTORS + 31) / 32)
      bar0_dw = pba[32*f_off[5:0] +: 32];
  endfunction

  // the table entry whose vector control dword a table write touches
  logic [3:0]    ctl_wr;
  logic [3:0][VW-1:0] ctl_vec;
  always_comb begin
    for (int i = 0; i < 4; i++) begin
      logic [13:0] o;
      o = off0 + 14'(i);
      ctl_wr[i]  = a_en && in_tbl && o[13] && o[1:0] == 2'd3 && a_wstrb[4*i] && !a_wdata[32*i];
      ctl_vec[i] = VW'(o[12:2]);
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      regs        <= '0;
      pba         <= '0;
      retry_valid <= 1'b0;
    end else begin
      if (a_en && region == 3'd0) begin
        for (int i = 0; i < 4; i++) begin
          logic [13:0] o;
          o = off0 + 14'(i);
          if (o < 14'd12) begin
            for (int b = 0; b < 4; b++) begin
              if (a_wstrb[4*i+b]) regs[4'(o)][8*b +: 8] <= a_wdata[32*i+8*b +: 8];
            end
          end
        end
      end
      if (cmd_take) begin
        regs[1] <= 32'd0;
        regs[2] <= 32'd0;
      end
      if (status_set != 32'd0) regs[2] <= (cmd_take ? 32'd0 : regs[2]) | status_set;
      if (csum_wr) regs[8] <= csum_data;
      if (pba_set) pba[pba_vec] <= 1'b1;
      if (pba_clr) pba[pba_vec] <= 1'b0;
      // an unmasking write to an entry with its pending bit: the function
      // sends the message (one request outstanding; more wait in the PBA
      // until that entry's control is written again)
      if (retry_take) retry_valid <= 1'b0;
      for (int i = 0; i < 4; i++) begin
        if (ctl_wr[i] && pba[ctl_vec[i]] && !retry_valid) begin
          retry_valid <= 1'b1;
          retry_vec   <= ctl_vec[i];
        end
      end
    end
  end

  // ------------------------------------------------------------------------
  // MSI-X table: port A the host, port B the function
  // ------------------------------------------------------------------------
  logic [127:0] tbl_a_rdata;
  accel_devmem #(.IMPL_LOG2(TBL_LOG2)) u_tbl (
    .clk,
    .a_en(a_en && in_tbl), .a_addr(TAW'(off0[12:0])), .a_wstrb(a_wstrb), .a_wdata(a_wdata),
    .a_rdata(tbl_a_rdata),
    .b_en(tbl_rd), .b_addr({tbl_vec, 2'b00}), .b_wstrb(16'h0), .b_wdata(128'h0),
    .b_rdata(tbl_entry)
  );

  // ------------------------------------------------------------------------
  // BAR1..BAR5 memories
  // ------------------------------------------------------------------------
  localparam int BAR_LOG2 [6] = '{0, BAR1_LOG2, BAR2_LOG2, BAR3_LOG2, BAR4_LOG2, BAR5_LOG2};
  logic [5:1][127:0] mem_rdata;

  for (genvar n = 1; n < 6; n++) begin : g_bar
    /* verilator lint_off UNUSEDSIGNAL */
    logic [127:0] b_rdata;
    /* verilator lint_on UNUSEDSIGNAL */
    accel_devmem #(.IMPL_LOG2(BAR_LOG2[n])) u_mem (
      .clk,
      .a_en(a_en && region == 3'(n)), .a_addr(a_addr[BAR_LOG2[n]-3:0]), .a_wstrb, .a_wdata,
      .a_rdata(mem_rdata[n]),
      .b_en(1'b0), .b_addr('0), .b_wstrb(16'h0), .b_wdata(128'h0), .b_rdata
    );
  end

  // ------------------------------------------------------------------------
  // Read data, one cycle after the access
  // ------------------------------------------------------------------------
  logic [2:0]   region_q;
  logic         in_tbl_q;
  logic [127:0] bar0_q;
  always_ff @(posedge clk) begin
    if (a_en) begin
      region_q <= region;
      in_tbl_q <= in_tbl;
      for (int i = 0; i < 4; i++) bar0_q[32*i +: 32] <= bar0_dw(off0 + 14'(i));
    end
  end

  always_comb begin
    a_rdata = 128'd0;
    if (region_q == 3'd0) a_rdata = in_tbl_q ? tbl_a_rdata : bar0_q;
    else begin
      for (int n = 1; n < 6; n++) begin
        if (region_q == 3'(n)) a_rdata = mem_rdata[n];
      end
    end
  end

endmodule

`default_nettype wire
