// SPDX-License-Identifier: Apache-2.0
//
// accel_cfg: Type-0 configuration space of the sample accelerator.
//
// Header: vendor 0x1ee7, device 0x0100, class 0x120000 (processing
// accelerator), INTA. BAR0: 4 KiB 32-bit non-prefetchable (control registers).
// BAR2/3: 2**DEVMEM_LOG2 bytes of device memory, 64-bit prefetchable (BAR64=1)
// or 32-bit non-prefetchable in BAR2 alone (BAR64=0).
// Capability list: 0x40 PCI Express (v2, endpoint) -> 0x80 MSI (64-bit,
// 4 vectors, per-vector masking) -> 0xA0 MSI-X (4 vectors, table BAR0+0x800,
// PBA BAR0+0xC00). Extended capability at 0x100: Device Serial Number (last).
// The PCI Express and MSI capabilities are the shared rtl/lib module
// pcie_cfg_caps.
// Unimplemented registers read 0 and ignore writes.
//
// Accessed by accel_target one dword at a time: a read returns its data on
// the next cycle; a write applies the byte enables to the writable bits.

`default_nettype none
`include "cpuif_port.svh"

// Package items are referenced by qualified name (accel_pkg::...): Yosys reads
// no package imports inside modules.

module accel_cfg
#(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter int          DEVMEM_LOG2 = 26,       // BAR2 size (log2 bytes), 12..(BAR64 ? 47 : 30)
  parameter bit          BAR64       = 1'b1,     // 1: BAR2/3 64-bit prefetchable; 0: BAR2 32-bit
  parameter logic [63:0] SERIAL      = 64'h0001_1ee7_acce_0001  // Device Serial Number
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic        clk,
  input  wire logic        rst,
  // ---------------- register access (cpuif_port.svh) ----------------
  `CFG_SPACE_PORTS,

  // ---------------- events from the device ----------------
  input  wire logic        intx_pending,   // Status.Interrupt Status
  input  wire logic        ur_detected,    // pulse: Device Status.UR Detected
  input  wire logic        master_abort,   // pulse: a UR completion was received
  input  wire logic [3:0]  msi_pending,    // MSI Pending Bits

  // ---------------- configuration state for the device ----------------
  output      logic        mem_enable,
  output      logic        bus_master,
  output      logic        intx_disable,
  output      logic [63:0] bar0_base,
  output      logic [63:0] bar2_base,
  output      logic [2:0]  max_payload,    // Device Control MPS encoding
  output      logic [2:0]  max_read_req,   // Device Control MRRS encoding
  output      logic        msi_enable,
  output      logic [2:0]  msi_mme,        // multiple message enable (log2 vectors)
  output      logic [63:0] msi_addr,
  output      logic [15:0] msi_data,
  output      logic [3:0]  msi_mask,
  output      logic        msix_enable,
  output      logic        msix_fmask
);


  localparam logic [63:0] BAR2_MASK = ~((64'd1 << DEVMEM_LOG2) - 64'd1);

  // Dword addresses of the registers
  localparam logic [9:0] A_ID      = 10'h00;
  localparam logic [9:0] A_CMD     = 10'h01;
  localparam logic [9:0] A_CLASS   = 10'h02;
  localparam logic [9:0] A_HDR     = 10'h03;
  localparam logic [9:0] A_BAR0    = 10'h04;
  localparam logic [9:0] A_BAR2    = 10'h06;
  localparam logic [9:0] A_BAR3    = 10'h07;
  localparam logic [9:0] A_SUBSYS  = 10'h0b;
  localparam logic [9:0] A_CAPPTR  = 10'h0d;
  localparam logic [9:0] A_INTR    = 10'h0f;
  localparam logic [9:0] A_PCIE    = 10'h10;  // 0x40
  localparam logic [9:0] A_MSI     = 10'h20;  // 0x80
  localparam logic [9:0] A_MSIX    = 10'h28;  // 0xA0
  localparam logic [9:0] A_MSIX_T  = 10'h29;
  localparam logic [9:0] A_MSIX_P  = 10'h2a;
  localparam logic [9:0] A_DSN     = 10'h40;  // 0x100
  localparam logic [9:0] A_DSN_LO  = 10'h41;
  localparam logic [9:0] A_DSN_HI  = 10'h42;

  // ------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------
  logic [15:0] command;       // implemented bits: 1 mem, 2 bus master, 6 PERR, 8 SERR, 10 INTx dis
  logic        sta_rma;       // Status.Received Master Abort (RW1C)
  logic [7:0]  cache_line, int_line;
  logic [63:0] bar0_q, bar2_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] devctl;        // Device Control: MPS and MRRS used
  logic [1:0]  caps_pm_state; // PM and MSI-X are not taken from pcie_cfg_caps here
  logic        caps_msix_en, caps_msix_fmask;
  /* verilator lint_on UNUSEDSIGNAL */
  logic        msix_en_q, msix_fm_q;
  logic [31:0] cap_rdata;     // PCI Express and MSI capabilities

  assign mem_enable   = command[1];
  assign bus_master   = command[2];
  assign intx_disable = command[10];
  assign bar0_base    = bar0_q;
  assign bar2_base    = bar2_q;
  assign max_payload  = devctl[7:5];
  assign max_read_req = devctl[14:12];
  assign msix_enable  = msix_en_q;
  assign msix_fmask   = msix_fm_q;

  // ------------------------------------------------------------------------
  // Read mux
  // ------------------------------------------------------------------------
  logic [31:0] rd;
  always_comb begin
    rd = 32'h0;
    case (addr)
      A_ID:     rd = {accel_regs_pkg::DEVICE_ID, accel_regs_pkg::VENDOR_ID};
      A_CMD:    rd = {2'b00, sta_rma, 8'b0, 1'b1, intx_pending, 3'b000, command};
      A_CLASS:  rd = {accel_regs_pkg::CLASS_CODE, accel_regs_pkg::REVISION_ID};
      A_HDR:    rd = {8'h00, 8'h00, 8'h00, cache_line};
      A_BAR0:   rd = {bar0_q[31:12], 12'h000};
      A_BAR2:   rd = BAR64 ? {bar2_q[31:4], 4'b1100} : {bar2_q[31:4], 4'b0000};
      A_BAR3:   rd = BAR64 ? bar2_q[63:32] : 32'h0;
      A_SUBSYS: rd = {accel_regs_pkg::SUBSYS_ID, accel_regs_pkg::SUBSYS_VID};
      A_CAPPTR: rd = 32'h0000_0040;
      A_INTR:   rd = {8'h00, 8'h00, 8'h01, int_line};
      // MSI-X: table size 4, last capability
      A_MSIX:   rd = {msix_en_q, msix_fm_q, 3'b000, 11'(accel_regs_pkg::MSIX_VECTORS - 1), 8'h00, 8'h11};
      A_MSIX_T: rd = {20'h0, accel_regs_pkg::R_MSIX_TABLE[11:3], 3'd0};  // BIR 0
      A_MSIX_P: rd = {20'h0, accel_regs_pkg::R_MSIX_PBA[11:3], 3'd0};
      // Extended: Device Serial Number, version 1, last
      A_DSN:    rd = {12'h000, 4'h1, 16'h0003};
      A_DSN_LO: rd = SERIAL[31:0];
      A_DSN_HI: rd = SERIAL[63:32];
      default:  rd = cap_rdata;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rd_en) rd_data <= rd;
  end

  // ------------------------------------------------------------------------
  // Writes
  // ------------------------------------------------------------------------
  logic [31:0] bm;    // byte mask of the write
  always_comb begin
    for (int i = 0; i < 4; i++) bm[8*i +: 8] = {8{wr_be[i]}};
  end

  // new = old with the written bytes of the writable bits replaced
  function automatic logic [31:0] upd(input logic [31:0] old, input logic [31:0] wmask,
                                      input logic [31:0] d, input logic [31:0] bmask);
    upd = (old & ~(wmask & bmask)) | (d & wmask & bmask);
  endfunction

  always_ff @(posedge clk) begin
    if (rst) begin
      command    <= 16'h0;
      sta_rma    <= 1'b0;
      cache_line <= 8'h0;
      int_line   <= 8'h0;
      bar0_q     <= 64'h0;
      bar2_q     <= 64'h0;
      msix_en_q  <= 1'b0;
      msix_fm_q  <= 1'b0;
    end else begin
      if (master_abort) sta_rma <= 1'b1;
      if (wr_en) begin
        case (addr)
          A_CMD: begin
            command <= 16'(upd({16'h0, command}, 32'h0000_0546, wr_data, bm));
            if (wr_be[3] && wr_data[29]) sta_rma <= 1'b0;
          end
          A_HDR:  cache_line <= 8'(upd({24'h0, cache_line}, 32'h0000_00ff, wr_data, bm));
          A_INTR: int_line <= 8'(upd({24'h0, int_line}, 32'h0000_00ff, wr_data, bm));
          A_BAR0: bar0_q[31:0] <= upd(bar0_q[31:0], 32'hffff_f000, wr_data, bm);
          A_BAR2: bar2_q[31:0] <= upd(bar2_q[31:0], BAR2_MASK[31:0] & 32'hffff_fff0, wr_data, bm);
          A_BAR3: if (BAR64) bar2_q[63:32] <= upd(bar2_q[63:32], BAR2_MASK[63:32], wr_data, bm);
          A_MSIX: begin
            if (wr_be[3]) begin
              msix_en_q <= wr_data[31];
              msix_fm_q <= wr_data[30];
            end
          end
          default: ;
        endcase
      end
    end
  end

  // ------------------------------------------------------------------------
  // PCI Express capability v2 at 0x40: endpoint, 8 GT/s x8, next -> MSI at
  // 0x80. DevCap: MPS 256 B, role-based error reporting. Link Control 2
  // reads the link speed and ignores writes. MSI at 0x80: 64-bit,
  // per-vector masking, 4 vectors, next -> MSI-X at 0xA0.
  // ------------------------------------------------------------------------
  pcie_cfg_caps #(
    .EXP_DW(A_PCIE), .EXP_NEXT(8'h80), .PORT_TYPE(4'd0), .DEV_CAP(32'h0000_8001),
    .LINK_SPEED(4'd3), .LINK_WIDTH(6'd8), .LNKCTL2_RW(1'b0),
    .MSI(1'b1), .MSI_DW(A_MSI), .MSI_NEXT(8'ha0), .MSI_VEC_LOG2(accel_pkg::MSI_VECTORS_LOG2),
    .MSI_PVM(1'b1)
  ) u_caps (
    .clk, .rst,
    .s_reg_addr(addr), .s_reg_wr(wr_en), .s_reg_wdata(wr_data), .s_reg_be(wr_be),
    .s_reg_rdata(cap_rdata),
    .link_up(1'b1), .ur_detected, .msi_pending,
    .devctl, .msi_en(msi_enable), .msi_mme, .msi_addr, .msi_data, .msi_mask,
    .pm_state(caps_pm_state), .msix_en(caps_msix_en), .msix_fmask(caps_msix_fmask)
  );

endmodule
