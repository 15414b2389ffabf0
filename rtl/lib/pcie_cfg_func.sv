// SPDX-License-Identifier: Apache-2.0
//
// pcie_cfg_func: Type-0 configuration space of a device function behind a
// root port: the sample accelerator (accel_top, docs/accelerator.md) and the
// PCI endpoint test function (epf_test_top, docs/epf-test.md) differ only in
// the parameters.
//
// Header: IDs and class code from the parameters, INTA, Status.Capabilities
// List, Received Master Abort (RW1C). BAR0..BAR5: memory BARs of
// 2**BARn_LOG2 bytes (0: not implemented, reads 0); bit n of BAR64 makes BAR n
// and n+1 one 64-bit prefetchable BAR (n even, BAR n+1 its upper half).
// Capability list (pcie_cfg_caps): 0x40 PCI Express (v2, endpoint, DEV_CAP)
// -> 0x80 MSI (64-bit, 2**MSI_VEC_LOG2 vectors, per-vector masking) -> 0xA0
// MSI-X (MSIX_N entries, MSIX_TABLE / MSIX_PBA in BAR0, last). Extended
// capability at 0x100, if DSN: Device Serial Number (SERIAL, last).
// Unimplemented registers read 0 and ignore writes (PCIe Base Spec 7.5.1).
//
// Accessed one dword at a time (accel_target): a read returns its data on the
// next cycle; a write applies the byte enables to the writable bits.

`default_nettype none
`include "cpuif_port.svh"

module pcie_cfg_func
#(
  parameter logic [15:0] VENDOR_ID    = 16'h1ee7,
  parameter logic [15:0] DEVICE_ID    = 16'h0100,
  parameter logic [7:0]  REVISION     = 8'h00,
  parameter logic [23:0] CLASS_CODE   = 24'h120000,
  parameter logic [15:0] SUBSYS_VID   = 16'h1ee7,
  parameter logic [15:0] SUBSYS_ID    = 16'h0001,
  parameter int          BAR0_LOG2    = 12,          // BAR sizes, log2 bytes (4..31; 64-bit: ..47)
  parameter int          BAR1_LOG2    = 0,           //   0: no BAR
  parameter int          BAR2_LOG2    = 0,
  parameter int          BAR3_LOG2    = 0,
  parameter int          BAR4_LOG2    = 0,
  parameter int          BAR5_LOG2    = 0,
  parameter logic [5:0]  BAR64        = 6'b000000,   // bit n: BAR n/n+1 64-bit prefetchable
  parameter logic [31:0] DEV_CAP      = 32'h0000_8001, // PCIe Device Capabilities (MPSS, RBER)
  parameter int          MSI_VEC_LOG2 = 2,           // MSI vectors, log2 (0..5)
  parameter int          MSIX_N       = 4,           // MSI-X table entries (1..2048)
  parameter logic [31:0] MSIX_TABLE   = 32'h0000_0800, // Table Offset | BIR
  parameter logic [31:0] MSIX_PBA     = 32'h0000_0c00, // PBA Offset | BIR
  parameter bit          DSN          = 1'b0,        // Device Serial Number capability at 0x100
  parameter logic [63:0] SERIAL       = 64'h0        // its serial number
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic                             clk,
  input  wire logic                             rst,

  // ---------------- register access (cpuif_port.svh) ----------------
  `CFG_SPACE_PORTS,

  // ---------------- events from the device ----------------
  input  wire logic                             intx_pending,  // Status.Interrupt Status
  input  wire logic                             ur_detected,   // pulse: Device Status.UR Detected
  input  wire logic                             master_abort,  // pulse: a UR completion was received
  input  wire logic [(1<<MSI_VEC_LOG2)-1:0]     msi_pending,   // MSI Pending Bits

  // ---------------- configuration state for the device ----------------
  output      logic                             mem_enable,
  output      logic                             bus_master,
  output      logic                             intx_disable,
  output      logic [5:0][31:0]                 bar_base,      // BARn: the bits above its size
  output      logic [2:0]                       max_payload,   // Device Control MPS encoding
  output      logic [2:0]                       max_read_req,  // Device Control MRRS encoding
  output      logic                             msi_enable,
  output      logic [2:0]                       msi_mme,       // multiple message enable (log2)
  output      logic [63:0]                      msi_addr,
  output      logic [15:0]                      msi_data,
  output      logic [(1<<MSI_VEC_LOG2)-1:0]     msi_mask,
  output      logic                             msix_enable,
  output      logic                             msix_fmask
);

  `include "pcie_tlp_func.svh"

  // log2 size of BAR n (a function: Yosys reads no unpacked array parameters)
  function automatic int bar_log2(input int f_n);
    case (f_n)
      0:       bar_log2 = BAR0_LOG2;
      1:       bar_log2 = BAR1_LOG2;
      2:       bar_log2 = BAR2_LOG2;
      3:       bar_log2 = BAR3_LOG2;
      4:       bar_log2 = BAR4_LOG2;
      default: bar_log2 = BAR5_LOG2;
    endcase
  endfunction

  // Dword addresses of the registers of the header and the DSN capability
  localparam logic [9:0] A_ID     = 10'h00;
  localparam logic [9:0] A_CMD    = 10'h01;
  localparam logic [9:0] A_CLASS  = 10'h02;
  localparam logic [9:0] A_HDR    = 10'h03;
  localparam logic [9:0] A_BAR0   = 10'h04;   // .. A_BAR0 + 5
  localparam logic [9:0] A_SUBSYS = 10'h0b;
  localparam logic [9:0] A_CAPPTR = 10'h0d;
  localparam logic [9:0] A_INTR   = 10'h0f;
  localparam logic [9:0] A_PCIE   = 10'h10;   // 0x40
  localparam logic [9:0] A_MSI    = 10'h20;   // 0x80
  localparam logic [9:0] A_MSIX   = 10'h28;   // 0xA0
  localparam logic [9:0] A_DSN    = 10'h40;   // 0x100
  localparam logic [9:0] A_DSN_LO = 10'h41;
  localparam logic [9:0] A_DSN_HI = 10'h42;

  // Writable bits of BAR n (7.5.1.2.1): the address bits above its size; the
  // upper half of a 64-bit BAR holds bits 63:32 of the 64-bit mask.
  function automatic logic [31:0] bar_mask(input int f_n);
    logic [63:0] m;
    if (f_n > 0 && BAR64[f_n-1]) begin
      m = ~((64'd1 << bar_log2(f_n - 1)) - 64'd1);
      bar_mask = m[63:32];
    end else if (bar_log2(f_n) == 0) begin
      bar_mask = 32'd0;
    end else begin
      m = ~((64'd1 << bar_log2(f_n)) - 64'd1);
      bar_mask = m[31:0] & 32'hffff_fff0;
    end
  endfunction

  // ------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------
  logic [15:0]      command;     // implemented bits: 1 mem, 2 bus master, 6 PERR, 8 SERR, 10 INTx dis
  logic             sta_rma;     // Status.Received Master Abort (RW1C)
  logic [7:0]       cache_line, int_line;
  logic [5:0][31:0] bar_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0]      devctl;      // Device Control: MPS and MRRS used
  logic [1:0]       caps_pm_state;  // no PM capability
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0]      cap_rdata;   // PCI Express, MSI and MSI-X capabilities

  assign mem_enable   = command[1];
  assign bus_master   = command[2];
  assign intx_disable = command[10];
  assign bar_base     = bar_q;
  assign max_payload  = devctl[7:5];
  assign max_read_req = devctl[14:12];

  // ------------------------------------------------------------------------
  // Read mux
  // ------------------------------------------------------------------------
  logic [31:0] rd;
  always_comb begin
    rd = 32'h0;
    case (addr)
      A_ID:     rd = {DEVICE_ID, VENDOR_ID};
      A_CMD:    rd = {2'b00, sta_rma, 8'b0, 1'b1, intx_pending, 3'b000, command};
      A_CLASS:  rd = {CLASS_CODE, REVISION};
      A_HDR:    rd = {8'h00, 8'h00, 8'h00, cache_line};
      A_SUBSYS: rd = {SUBSYS_ID, SUBSYS_VID};
      A_CAPPTR: rd = 32'h0000_0040;
      A_INTR:   rd = {8'h00, 8'h00, 8'h01, int_line};
      // Extended: Device Serial Number, version 1, last
      A_DSN:    rd = DSN ? {12'h000, 4'h1, 16'h0003} : 32'h0;
      A_DSN_LO: rd = DSN ? SERIAL[31:0] : 32'h0;
      A_DSN_HI: rd = DSN ? SERIAL[63:32] : 32'h0;
      default:  rd = cap_rdata;
    endcase
    for (int n = 0; n < 6; n++) begin
      // read-only low bits: memory, 64-bit (type 10b) and prefetchable for the
      // lower half of a 64-bit BAR, 32-bit non-prefetchable otherwise
      if (addr == A_BAR0 + 10'(n)) rd = bar_q[n] | (BAR64[n] ? 32'h0000_000c : 32'h0);
    end
  end

  always_ff @(posedge clk) begin
    if (rd_en) rd_data <= rd;
  end

  // ------------------------------------------------------------------------
  // Writes
  // ------------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (rst) begin
      command    <= 16'h0;
      sta_rma    <= 1'b0;
      cache_line <= 8'h0;
      int_line   <= 8'h0;
      bar_q      <= '0;
    end else begin
      if (master_abort) sta_rma <= 1'b1;
      if (wr_en) begin
        case (addr)
          A_CMD: begin
            command <= 16'(cfg_wr_merge({16'h0, command}, wr_data, wr_be, 32'h0000_0546));
            if (wr_be[3] && wr_data[29]) sta_rma <= 1'b0;
          end
          A_HDR:  cache_line <= 8'(cfg_wr_merge({24'h0, cache_line}, wr_data, wr_be, 32'h0000_00ff));
          A_INTR: int_line <= 8'(cfg_wr_merge({24'h0, int_line}, wr_data, wr_be, 32'h0000_00ff));
          default: ;
        endcase
        for (int n = 0; n < 6; n++) begin
          if (addr == A_BAR0 + 10'(n)) bar_q[n] <= cfg_wr_merge(bar_q[n], wr_data, wr_be, bar_mask(n));
        end
      end
    end
  end

  // ------------------------------------------------------------------------
  // PCI Express capability v2 at 0x40: endpoint, 8 GT/s x8, DEV_CAP; Link
  // Control 2 reads the link speed and ignores writes; next -> MSI at 0x80:
  // 64-bit, per-vector masking, next -> MSI-X at 0xA0 (last).
  // ------------------------------------------------------------------------
  pcie_cfg_caps #(
    .EXP_DW(A_PCIE), .EXP_NEXT(8'h80), .PORT_TYPE(4'd0), .DEV_CAP(DEV_CAP),
    .LINK_SPEED(4'd3), .LINK_WIDTH(6'd8), .LNKCTL2_RW(1'b0),
    .MSI(1'b1), .MSI_DW(A_MSI), .MSI_NEXT(8'ha0), .MSI_VEC_LOG2(MSI_VEC_LOG2), .MSI_PVM(1'b1),
    .MSIX(1'b1), .MSIX_DW(A_MSIX), .MSIX_NEXT(8'h00), .MSIX_N(MSIX_N),
    .MSIX_TABLE(MSIX_TABLE), .MSIX_PBA(MSIX_PBA)
  ) u_caps (
    .clk, .rst,
    .s_reg_addr(addr), .s_reg_wr(wr_en), .s_reg_wdata(wr_data), .s_reg_be(wr_be),
    .s_reg_rdata(cap_rdata),
    .link_up(1'b1), .ur_detected, .msi_pending,
    .devctl, .msi_en(msi_enable), .msi_mme, .msi_addr, .msi_data, .msi_mask,
    .pm_state(caps_pm_state), .msix_en(msix_enable), .msix_fmask
  );

endmodule

`default_nettype wire
