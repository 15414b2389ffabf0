// SPDX-License-Identifier: Apache-2.0
//
// epf_test_cfg: Type-0 configuration space of the PCI endpoint test function
// (epf_test_top, docs/epf-test.md), the RTL counterpart of Linux's
// pci-epf-test as drivers/misc/pci_endpoint_test.c sees it.
//
// Header: vendor 0x1ee7, device 0x0101, class 0xff0000 (unassigned, as
// pci-epf-test), INTA. BAR0..BAR5: 32-bit non-prefetchable memory BARs of
// 2**BAR_LOG2[n] bytes (BAR0: the test registers, the MSI-X table and PBA;
// BAR1..5: memory, the sizes pci-epf-test gives them by default).
// Capability list: 0x40 PCI Express (v2, endpoint; DevCap Max_Payload_Size
// Supported 4096 B) -> 0x80 MSI (64-bit, 32 vectors, per-vector masking) ->
// 0xA0 MSI-X (MSIX_VECTORS entries, table BAR0 + 0x8000, PBA BAR0 + 0x200,
// last). The PCI Express and MSI capabilities are rtl/lib's pcie_cfg_caps.
// Unimplemented registers read 0 and ignore writes.
//
// Accessed by accel_target one dword at a time: a read returns its data on
// the next cycle; a write applies the byte enables to the writable bits.

`default_nettype none
`include "cpuif_port.svh"

module epf_test_cfg
#(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter logic [15:0]    DEVICE_ID    = 16'h0101,
  parameter int             MSIX_VECTORS = 2048,          // MSI-X table size, 1..2048
  parameter int             BAR0_LOG2    = 16,            // BAR sizes, log2 bytes (>= 4)
  parameter int             BAR1_LOG2    = 9,
  parameter int             BAR2_LOG2    = 10,
  parameter int             BAR3_LOG2    = 14,
  parameter int             BAR4_LOG2    = 17,
  parameter int             BAR5_LOG2    = 20
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic             clk,
  input  wire logic             rst,
  // ---------------- register access (cpuif_port.svh) ----------------
  `CFG_SPACE_PORTS,

  // ---------------- events from the device ----------------
  input  wire logic             intx_pending, // Status.Interrupt Status
  input  wire logic             ur_detected,  // pulse: Device Status.UR Detected
  input  wire logic             master_abort, // pulse: a UR completion was received
  input  wire logic [31:0]      msi_pending,  // MSI Pending Bits

  // ---------------- configuration state for the device ----------------
  output      logic             mem_enable,
  output      logic             bus_master,
  output      logic             intx_disable,
  output      logic [5:0][31:0] bar_base,     // BARn base (bits below the size 0)
  output      logic [2:0]       max_payload,  // Device Control MPS encoding
  output      logic [2:0]       max_read_req, // Device Control MRRS encoding
  output      logic             msi_enable,
  output      logic [2:0]       msi_mme,      // multiple message enable (log2 vectors)
  output      logic [63:0]      msi_addr,
  output      logic [15:0]      msi_data,
  output      logic [31:0]      msi_mask,
  output      logic             msix_enable,
  output      logic             msix_fmask
);

  localparam int BAR_LOG2 [6] = '{BAR0_LOG2, BAR1_LOG2, BAR2_LOG2, BAR3_LOG2, BAR4_LOG2,
                                  BAR5_LOG2};

  localparam logic [9:0] A_ID      = 10'h00;
  localparam logic [9:0] A_CMD     = 10'h01;
  localparam logic [9:0] A_CLASS   = 10'h02;
  localparam logic [9:0] A_HDR     = 10'h03;
  localparam logic [9:0] A_BAR0    = 10'h04;   // .. A_BAR0 + 5
  localparam logic [9:0] A_SUBSYS  = 10'h0b;
  localparam logic [9:0] A_CAPPTR  = 10'h0d;
  localparam logic [9:0] A_INTR    = 10'h0f;
  localparam logic [9:0] A_PCIE    = 10'h10;  // 0x40
  localparam logic [9:0] A_MSI     = 10'h20;  // 0x80
  localparam logic [9:0] A_MSIX    = 10'h28;  // 0xA0
  localparam logic [9:0] A_MSIX_T  = 10'h29;
  localparam logic [9:0] A_MSIX_P  = 10'h2a;

  // MSI-X table at BAR0 + 0x8000, PBA at BAR0 + 0x200 (BIR 0)
  localparam logic [31:0] MSIX_TABLE = 32'h0000_8000;
  localparam logic [31:0] MSIX_PBA   = 32'h0000_0200;

  logic [15:0]      command;     // implemented bits: 1 mem, 2 bus master, 6 PERR, 8 SERR, 10 INTx dis
  logic             sta_rma;     // Status.Received Master Abort (RW1C)
  logic [7:0]       cache_line, int_line;
  logic [5:0][31:0] bar_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0]      devctl;      // Device Control: MPS and MRRS used
  /* verilator lint_on UNUSEDSIGNAL */
  logic             msix_en_q, msix_fm_q;
  logic [31:0]      cap_rdata;

  assign mem_enable   = command[1];
  assign bus_master   = command[2];
  assign intx_disable = command[10];
  assign bar_base     = bar_q;
  assign max_payload  = devctl[7:5];
  assign max_read_req = devctl[14:12];
  assign msix_enable  = msix_en_q;
  assign msix_fmask   = msix_fm_q;

  // writable bits of BAR n: the address bits above its size
  /* verilator lint_off UNUSEDSIGNAL */  // 0..5
  function automatic logic [31:0] bar_mask(input int f_n);
    bar_mask = ~((32'd1 << BAR_LOG2[f_n]) - 32'd1);
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ------------------------------------------------------------------------
  // Read mux
  // ------------------------------------------------------------------------
  logic [31:0] rd;
  always_comb begin
    rd = 32'h0;
    case (addr)
      A_ID:     rd = {DEVICE_ID, 16'h1ee7};
      A_CMD:    rd = {2'b00, sta_rma, 8'b0, 1'b1, intx_pending, 3'b000, command};
      A_CLASS:  rd = {24'hff0000, 8'h00};
      A_HDR:    rd = {8'h00, 8'h00, 8'h00, cache_line};
      A_SUBSYS: rd = {16'h0001, 16'h1ee7};
      A_CAPPTR: rd = 32'h0000_0040;
      A_INTR:   rd = {8'h00, 8'h00, 8'h01, int_line};
      A_MSIX:   rd = {msix_en_q, msix_fm_q, 3'b000, 11'(MSIX_VECTORS - 1), 8'h00, 8'h11};
      A_MSIX_T: rd = MSIX_TABLE;
      A_MSIX_P: rd = MSIX_PBA;
      default:  rd = cap_rdata;
    endcase
    for (int n = 0; n < 6; n++) begin
      if (addr == A_BAR0 + 10'(n)) rd = bar_q[n];   // memory, 32-bit, non-prefetchable
    end
  end

  always_ff @(posedge clk) begin
    if (rd_en) rd_data <= rd;
  end

  // ------------------------------------------------------------------------
  // Writes
  // ------------------------------------------------------------------------
  `include "pcie_tlp_func.svh"

  always_ff @(posedge clk) begin
    if (rst) begin
      command    <= 16'h0;
      sta_rma    <= 1'b0;
      cache_line <= 8'h0;
      int_line   <= 8'h0;
      bar_q      <= '0;
      msix_en_q  <= 1'b0;
      msix_fm_q  <= 1'b0;
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
          A_MSIX: begin
            if (wr_be[3]) begin
              msix_en_q <= wr_data[31];
              msix_fm_q <= wr_data[30];
            end
          end
          default: ;
        endcase
        for (int n = 0; n < 6; n++) begin
          if (addr == A_BAR0 + 10'(n)) bar_q[n] <= cfg_wr_merge(bar_q[n], wr_data, wr_be, bar_mask(n));
        end
      end
    end
  end

  // ------------------------------------------------------------------------
  // PCI Express capability v2 at 0x40: endpoint, 8 GT/s x8, DevCap MPSS
  // 4096 B, role-based error reporting; next -> MSI at 0x80: 64-bit,
  // per-vector masking, 32 vectors, next -> MSI-X at 0xA0.
  // ------------------------------------------------------------------------
  // PM and MSI-X of pcie_cfg_caps are not used: MSI-X is this module's own.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [1:0] caps_pm_state;
  logic       caps_msix_en, caps_msix_fmask;
  /* verilator lint_on UNUSEDSIGNAL */
  pcie_cfg_caps #(
    .EXP_DW(A_PCIE), .EXP_NEXT(8'h80), .PORT_TYPE(4'd0), .DEV_CAP(32'h0000_8005),
    .LINK_SPEED(4'd3), .LINK_WIDTH(6'd8), .LNKCTL2_RW(1'b0),
    .MSI(1'b1), .MSI_DW(A_MSI), .MSI_NEXT(8'ha0), .MSI_VEC_LOG2(5), .MSI_PVM(1'b1)
  ) u_caps (
    .clk, .rst,
    .s_reg_addr(addr), .s_reg_wr(wr_en), .s_reg_wdata(wr_data), .s_reg_be(wr_be),
    .s_reg_rdata(cap_rdata),
    .link_up(1'b1), .ur_detected, .msi_pending,
    .devctl, .msi_en(msi_enable), .msi_mme, .msi_addr, .msi_data, .msi_mask,
    .pm_state(caps_pm_state), .msix_en(caps_msix_en), .msix_fmask(caps_msix_fmask)
  );

endmodule

`default_nettype wire
