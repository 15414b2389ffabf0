// SPDX-License-Identifier: Apache-2.0
//
// pcie_cfg_t0: Type-0 configuration space of a single-function PCIe endpoint.
//
// Completes CfgRd0/CfgWr0 requests handed over by the receive path (one at a
// time) and drives the state the rest of the endpoint needs: the memory
// space enable, bus master enable and INTx disable bits of the command
// register, the BAR0/BAR2 base addresses and the completer ID captured from
// the last CfgWr0 (PCIe rule: an endpoint learns its bus and device number
// from the configuration writes it receives), and the MSI-X enables.
//
// Layout (only the first 256 bytes are implemented; QEMU's proxy device
// shows no more; extended space 0x100-0xfff reads as zero, writes ignored):
//   0x00 vendor/device ID        0x2c subsystem vendor/ID (= vendor/device)
//   0x04 command/status (error bits: see below)  0x34 capabilities pointer = 0x40
//   0x08 revision/class code     0x3c interrupt line (RW), pin = INTA
//   0x0c cache line size (RW), header type 0 (single function)
//   0x10 BAR0: registers, 32-bit non-prefetchable memory, 2^REG_BAR_LOG2 bytes
//   0x14 BAR1: 0 (unimplemented)
//   0x18 BAR2: SMFU aperture, 2^APERTURE_LOG2 bytes: 32-bit non-prefetchable
//        memory (APERTURE_64 = 0, the default), or with APERTURE_64 = 1 the
//        low half of a 64-bit prefetchable BAR2/3 pair (0x1c: upper half), so
//        the aperture can map a device BAR of GiBs above 4 GiB (docs/nic.md)
//   0x1c-0x24 BAR3-5: 0 (BAR3: see above), 0x30 expansion ROM: 0
//   0x40 PCI Express capability (version 2, endpoint; DevCap: 8-bit tags,
//        the NIC's requests use tags 0x80..0x8f and 0xff) -> 0x80
//   0x80 Power Management capability (D0, D3hot; No_Soft_Reset) -> 0x88
//   0x88 MSI-X capability (one vector; table BAR0 + MSIX_TABLE, PBA BAR0 +
//        MSIX_PBA), last in the list
//        (all three: pcie_cfg_caps, rtl/lib)
//
// In D3hot the function takes configuration requests only (PCI PM 1.2
// Table 5-4; PCIe Base Spec. 5.3.1.4.1): mem_en and bus_master read as 0,
// so memory requests get UR and the NIC masters nothing; the Command
// register keeps its value (No_Soft_Reset) for the return to D0.
//
// Status error bits (PCIe Base Spec. 7.5.1.1.4), RW1C, a new event wins over
// the clear: Master Data Parity Error (8: Parity Error Response set and a
// poisoned completion for our read received, or a poisoned write sent),
// Signaled Target Abort (11: a CA completion sent), Received Target Abort
// (12: a CA completion received), Received Master Abort (13: a UR completion
// received), Detected Parity Error (15: any poisoned TLP received).
// Signaled System Error (14) stays 0: the NIC sends no ERR_* messages.
// Device Status UR Detected only for unsupported requests (ur_detected).
//
// BAR sizing: the bits below the BAR size are hard-wired zero, so writing
// all ones reads back the size mask (0xffff0000 for 64 KiB).

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_cfg_t0
#(
  parameter logic [15:0] VENDOR_ID     = 16'h1ee7,   // PCI vendor ID
  parameter logic [15:0] DEVICE_ID     = 16'h0001,   // PCI device ID
  parameter logic [7:0]  REVISION      = 8'h00,      // revision ID
  parameter logic [23:0] CLASS_CODE    = 24'h028000, // class code (network, other)
  parameter int          REG_BAR_LOG2  = 16,         // BAR0 size, log2 bytes (>= 12)
  parameter int          APERTURE_LOG2 = 28,         // BAR2 size, log2 bytes (<= 31; APERTURE_64: <= 47)
  parameter bit          APERTURE_64   = 1'b0,       // BAR2/3: 64-bit prefetchable
  parameter logic [31:0] MSIX_TABLE    = 32'h0000_1000, // MSI-X table offset in BAR0 (BIR 0)
  parameter logic [31:0] MSIX_PBA      = 32'h0000_1800, // MSI-X PBA offset in BAR0 (BIR 0)
  parameter logic [3:0]  LINK_SPEED    = 4'd2,       // reported link speed (2: 5 GT/s)
  parameter logic [5:0]  LINK_WIDTH    = 6'd4        // reported link width (lanes)
) (
  // ---------------- clock and reset ----------------
  input  wire logic        clk,
  input  wire logic        rst,             // synchronous, active high

  // ---------------- request from the receive path ----------------
  // CfgRd0 / CfgWr0 (Length 1) only; the receive path filters the rest.
  input  wire logic        req_valid,
  output      logic        req_ready,
  input  wire pcie_tlp_pkg::tlp_req_t    req,             // decoded header
  input  wire logic [31:0] req_wdata,       // payload dword of a CfgWr0

  // ---------------- completion stream (to the transmit arbiter) ----------------
  `TLP_M_PORTS(m_cpl),

  // ---------------- configuration state ----------------
  output      logic [15:0] cpl_id,          // completer ID {bus, device, function 0}
  output      logic        mem_en,          // command: memory space enable
  output      logic        bus_master,      // command: bus master enable
  output      logic        intx_disable,    // command: INTx disable
  output      logic [31:0] bar0,            // BAR0 base (low bits zero)
  output      logic [63:0] bar2,            // BAR2(/3) base (low bits zero)
  output      logic        msix_en,         // MSI-X Enable
  output      logic        msix_fmask,      // MSI-X Function Mask
  output      logic        d3hot,           // PowerState D3hot
  output      logic [2:0]  dev_mps,         // Device Control Max_Payload_Size (7.5.3.4; 0: 128 B, 1: 256 B)
  output      logic [2:0]  dev_mrrs,        // Device Control Max_Read_Request_Size (0: 128 B .. 5: 4096 B)
  output      logic        dev_ro_en,       // Device Control Enable Relaxed Ordering (7.5.3.4, bit 4)
  output      logic        dev_ns_en,       // Device Control Enable No Snoop (7.5.3.4, bit 11)
  output      logic        dev_ext_tag,     // Device Control Extended Tag Field Enable (7.5.3.4, bit 8)

  // ---------------- status inputs ----------------
  input  wire logic        intx_pending,    // status.InterruptStatus (before masking)
  input  wire logic        ur_detected,     // pulse: an unsupported request was received
  input  wire logic        ev_sig_ca,       // pulse: a CA completion was sent
  input  wire logic        ev_rcv_ca,       // pulse: a CA completion for our read was received
  input  wire logic        ev_rcv_ur,       // pulse: a UR completion for our read was received
  input  wire logic        ev_poisoned,     // pulse: a poisoned TLP was received
  input  wire logic        ev_mdpe          // pulse: a poisoned completion for our read received,
                                            //        or a poisoned write sent
);

  `include "pcie_tlp_func.svh"

  // ------------------------------------------------------------------
  // Registers and their writable bits
  // ------------------------------------------------------------------
  localparam logic [31:0] BAR0_MASK    = ~((32'd1 << REG_BAR_LOG2) - 32'd1);
  localparam logic [63:0] BAR2_MASK    = ~((64'd1 << APERTURE_LOG2) - 64'd1);
  localparam logic [3:0]  BAR2_TYPE    = APERTURE_64 ? 4'b1100 : 4'b0000;  // prefetchable, 64-bit
  localparam logic [15:0] CMD_MASK     = 16'h0546;  // MSE, BME, PER, SERR#, INTx disable

  logic [15:0] cmd_q;
  logic [7:0]  cache_line_q;
  logic [31:0] bar0_q;
  logic [63:0] bar2_q;
  // Status error bits, RW1C: 15 DPE, 13 RMA, 12 RTA, 11 STA, 8 MDPE
  localparam logic [15:0] STA_ERR_MASK = 16'hb900;
  logic [15:0] sta_err_q, sta_err_set;
  logic [7:0]  int_line_q;

  // ------------------------------------------------------------------
  // Read multiplexer
  // ------------------------------------------------------------------
  logic [9:0]  dw_idx;       // dword index 0..1023 of the register
  logic [31:0] rdata;
  logic [31:0] cap_rdata;    // PCI Express capability
  logic [15:0] status;

  assign dw_idx = req.addr[11:2];
  // error bits, capabilities list, interrupt status
  assign status = sta_err_q | {11'd0, 1'b1, intx_pending, 3'd0};

  always_comb begin
    rdata = 32'd0;
    case (dw_idx)
      10'd0:  rdata = {DEVICE_ID, VENDOR_ID};
      10'd1:  rdata = {status, cmd_q};
      10'd2:  rdata = {CLASS_CODE, REVISION};
      10'd3:  rdata = {8'h00, 8'h00, 8'h00, cache_line_q};
      10'd4:  rdata = bar0_q;
      10'd6:  rdata = {bar2_q[31:4], BAR2_TYPE};
      10'd7:  rdata = APERTURE_64 ? bar2_q[63:32] : 32'd0;
      10'd11: rdata = {DEVICE_ID, VENDOR_ID};
      10'd13: rdata = 32'h0000_0040;
      10'd15: rdata = {8'h00, 8'h00, 8'h01, int_line_q};
      default: rdata = cap_rdata;
    endcase
  end

  // Writable bits of each register (all others read-only)
  logic [31:0] wmask;
  logic [31:0] wval;       // register value after the write
  always_comb begin
    case (dw_idx)
      10'd1:   wmask = {16'd0, CMD_MASK};
      10'd3:   wmask = 32'h0000_00ff;
      10'd4:   wmask = BAR0_MASK;
      10'd6:   wmask = BAR2_MASK[31:0] & 32'hffff_fff0;
      10'd7:   wmask = APERTURE_64 ? BAR2_MASK[63:32] : 32'd0;
      10'd15:  wmask = 32'h0000_00ff;
      default: wmask = 32'd0;
    endcase
    wval = cfg_wr_merge(rdata, req_wdata, req.first_be, wmask);
  end

  // ------------------------------------------------------------------
  // Request handling and register writes
  // ------------------------------------------------------------------
  logic                  is_wr;
  logic                  accept;

  assign accept    = req_valid && req_ready;
  assign is_wr     = req.fmt[1];

  always_ff @(posedge clk) begin
    if (rst) begin
      cmd_q        <= 16'd0;
      cache_line_q <= 8'd0;
      bar0_q       <= 32'd0;
      bar2_q       <= 64'd0;
      int_line_q   <= 8'd0;
      sta_err_q    <= 16'd0;
    end else begin
      // Status error bits: RW1C with the upper bytes enabled; a new event wins
      sta_err_q <= (sta_err_q & ~(accept && is_wr && dw_idx == 10'd1 ?
                                  {req_wdata[31:24] & {8{req.first_be[3]}},
                                   req_wdata[23:16] & {8{req.first_be[2]}}} : 16'd0))
                   | sta_err_set;
      if (accept && is_wr) begin
        case (dw_idx)
          10'd1:  cmd_q        <= wval[15:0];
          10'd3:  cache_line_q <= wval[7:0];
          10'd4:  bar0_q       <= wval;
          10'd6:  bar2_q[31:0] <= {wval[31:4], 4'd0};   // not the type bits
          10'd7:  bar2_q[63:32] <= wval;
          10'd15: int_line_q   <= wval[7:0];
          default: ;
        endcase
      end
    end
  end

  // Status error events (7.5.1.1.4); MDPE only with Parity Error Response
  assign sta_err_set = STA_ERR_MASK & {ev_poisoned, 1'b0, ev_rcv_ur, ev_rcv_ca, ev_sig_ca, 2'b00,
                                       ev_mdpe && cmd_q[6], 8'd0};

  // PCI Express capability at 0x40: version 2, endpoint, next PM at 0x80.
  // DevCap: MPSS 256 B (PCIe Base Spec. 7.5.3.3: the SMFU splits its MWr at
  // the MPS programmed in Device Control, 2.2.2), Extended Tag Field supported
  // (8-bit tags), L0s/L1 acceptable latency no limit, role-based error
  // reporting. PM at 0x80, MSI-X at 0x88 (one vector), last.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] devctl;            // MPS, MRRS, RO/NS/ExtTag enables exported, the other fields not honoured
  logic        msi_en, msi_mask;  // no MSI capability
  logic [2:0]  msi_mme;
  logic [63:0] msi_addr;
  logic [15:0] msi_data;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [1:0]  pm_state;

  pcie_cfg_caps #(
    .EXP_DW (10'h10), .EXP_NEXT (8'h80), .PORT_TYPE (4'd0), .DEV_CAP (32'h0000_8fe1),
    .LINK_SPEED (LINK_SPEED), .LINK_WIDTH (LINK_WIDTH),
    .MSI (1'b0),
    .PM (1'b1), .PM_DW (10'h20), .PM_NEXT (8'h88),
    .MSIX (1'b1), .MSIX_DW (10'h22), .MSIX_NEXT (8'h00), .MSIX_N (1),
    .MSIX_TABLE (MSIX_TABLE), .MSIX_PBA (MSIX_PBA)
  ) u_caps (
    .clk, .rst,
    .s_reg_addr (dw_idx), .s_reg_wr (accept && is_wr), .s_reg_wdata (req_wdata),
    .s_reg_be (req.first_be), .s_reg_rdata (cap_rdata),
    .link_up (1'b1), .ur_detected, .msi_pending (1'b0),
    .devctl, .msi_en, .msi_mme, .msi_addr, .msi_data, .msi_mask,
    .pm_state, .msix_en, .msix_fmask
  );

  assign dev_mps  = devctl[7:5];
  assign dev_mrrs = devctl[14:12];
  assign dev_ro_en = devctl[4];
  assign dev_ns_en = devctl[11];
  assign dev_ext_tag = devctl[8];

  // Completion: CplD with one dword for reads, Cpl for writes; byte count 4,
  // lower address 0; completer ID = the target ID of the request.
  pcie_cfg_cpl u_cpl (
    .clk         (clk),
    .rst         (rst),
    .req_valid   (req_valid),
    .req_ready   (req_ready),
    .req         (req),
    .req_rdata   (rdata),
    .cpl_id      (cpl_id),
    `TLP_CONNECT(m_cpl, m_cpl)
  );

  // ------------------------------------------------------------------
  // State outputs
  // ------------------------------------------------------------------
  assign d3hot        = (pm_state == 2'd3);
  assign mem_en       = cmd_q[1] && !d3hot;
  assign bus_master   = cmd_q[2] && !d3hot;
  assign intx_disable = cmd_q[10];
  assign bar0         = bar0_q;
  assign bar2         = bar2_q;

  // Fields the receive path has already checked (type, length, EP, last BE).
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{req.typ, req.ep, req.len, req.last_be, req.addr[63:32], req.addr[15:12], req.addr[1:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
