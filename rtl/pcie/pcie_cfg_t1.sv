// SPDX-License-Identifier: Apache-2.0
//
// pcie_cfg_t1: Type-1 configuration header of the NIC's PCIe root port
// (root-port strap, docs/remote-access.md "Root-port mode"). A PCI-to-PCI
// bridge: bus 0, device 0, function 0 of the NAA's own PCIe hierarchy.
//
// Completes the CfgRd0/CfgWr0 requests that pcie_rp_up hands over (one at a
// time, Length 1) and drives the state the routing needs: command bits,
// primary/secondary/subordinate bus numbers, the memory windows, secondary
// bus reset and the completer ID captured from the last CfgWr0 (the root
// port learns its bus and device number like an endpoint does).
//
// Layout (first 256 bytes; extended space 0x100-0xfff reads as zero: the
// extended capability list is empty, writes ignored):
//   0x00 vendor/device ID
//   0x04 command (I/O space RO 0, memory space, bus master, PER, SERR#,
//        INTx disable) / status (capabilities list)
//   0x08 revision / class code 0x060400 (PCI-to-PCI bridge)
//   0x0c cache line size (RW), header type 1 (single function)
//   0x10-0x14 BAR0/1: 0 (no BAR)
//   0x18 primary, secondary, subordinate bus (RW), secondary latency timer 0
//   0x1c I/O base/limit 0 (no I/O window), secondary status 0
//   0x20 memory base/limit: 32-bit non-prefetchable window, 1 MiB granularity
//   0x24 prefetchable base/limit, 64-bit (bits 3:0 = 1), 1 MiB granularity
//   0x28/0x2c prefetchable base/limit upper 32 bits
//   0x30 I/O base/limit upper 16 bits: 0
//   0x34 capabilities pointer = 0x40; 0x38 expansion ROM: 0
//   0x3c interrupt line (RW), pin 0 (none), bridge control (parity error
//        response, SERR# enable, secondary bus reset writable)
//   0x40 PCI Express capability v2, device/port type 4 (root port), slot
//        implemented 0; root control/capabilities/status; next 0x80
//        (pcie_cfg_caps, rtl/lib)
//   0x80 MSI capability, 64-bit address, one vector, last in the list
//        (pcie_cfg_caps, rtl/lib)
//
// Window decode: memory window [base, limit] = [{base[15:4], 20'h0},
// {limit[15:4], 20'hfffff}], empty when base > limit; likewise the
// prefetchable window with the upper registers as address bits 63:32.

`default_nettype none
`include "tlp_stream.svh"

// Package items are referenced by qualified name (pcie_tlp_pkg::...):
// Yosys does not read package imports inside modules.

module pcie_cfg_t1
#(
  parameter logic [15:0] VENDOR_ID  = 16'h1ee7,   // PCI vendor ID
  parameter logic [15:0] DEVICE_ID  = 16'h0002,   // PCI device ID (NIC, root-port strap)
  parameter logic [7:0]  REVISION   = 8'h00,      // revision ID
  parameter logic [23:0] CLASS_CODE = 24'h060400, // class code (PCI-to-PCI bridge)
  parameter logic [3:0]  LINK_SPEED = 4'd2,       // reported link speed (2: 5 GT/s)
  parameter logic [5:0]  LINK_WIDTH = 6'd4        // reported link width (lanes)
) (
  // ---------------- clock and reset ----------------
  input  wire logic        clk,
  input  wire logic        rst,             // synchronous, active high

  // ---------------- request from the routing (pcie_rp_up) ----------------
  // CfgRd0 / CfgWr0 to this function, Length 1; the routing filters the rest.
  input  wire logic        req_valid,
  output      logic        req_ready,
  input  wire pcie_tlp_pkg::tlp_req_t req,  // decoded header
  input  wire logic [31:0] req_wdata,       // payload dword of a CfgWr0

  // ---------------- completion stream (to the upstream completion arbiter) ----------------
  `TLP_M_PORTS(m_cpl),

  // ---------------- configuration state ----------------
  output      logic [15:0] cpl_id,          // completer ID {bus, device, function 0}
  output      logic        mem_en,          // command: memory space enable
  output      logic        bus_master,      // command: bus master enable
  output      logic [7:0]  pri_bus,         // primary bus number
  output      logic [7:0]  sec_bus,         // secondary bus number
  output      logic [7:0]  sub_bus,         // subordinate bus number
  output      logic [31:20] mem_base,       // non-prefetchable window base, address bits 31:20
  output      logic [31:20] mem_limit,      // non-prefetchable window limit, address bits 31:20
  output      logic [63:20] pref_base,      // prefetchable window base, address bits 63:20
  output      logic [63:20] pref_limit,     // prefetchable window limit, address bits 63:20
  output      logic        sec_reset,       // bridge control: secondary bus reset (level)
  output      logic        msi_en,          // MSI enable
  output      logic [63:0] msi_addr,        // MSI address (bits 1:0 zero)
  output      logic [15:0] msi_data,        // MSI data
  output      logic [2:0]  dev_mps,         // Device Control Max_Payload_Size (7.5.3.4; 0: 128 B, 1: 256 B)
  output      logic [2:0]  dev_mrrs,        // Device Control Max_Read_Request_Size (0: 128 B .. 5: 4096 B)
  output      logic        dev_ro_en,       // Device Control Enable Relaxed Ordering (7.5.3.4, bit 4)
  output      logic        dev_ns_en,       // Device Control Enable No Snoop (7.5.3.4, bit 11)
  output      logic        dev_ext_tag,     // Device Control Extended Tag Field Enable (7.5.3.4, bit 8)

  // ---------------- status inputs ----------------
  input  wire logic        link_up,         // downstream link up (Link Status DLL active)
  input  wire logic        ur_detected      // pulse: an unsupported request was received
);

  `include "pcie_tlp_func.svh"

  // ------------------------------------------------------------------
  // Registers and their writable bits
  // ------------------------------------------------------------------
  localparam logic [15:0] CMD_MASK     = 16'h0546;  // MSE, BME, PER, SERR#, INTx disable
  localparam logic [15:0] BRCTL_MASK   = 16'h0043;  // PER, SERR#, secondary bus reset

  logic [15:0] cmd_q;
  logic [7:0]  cache_line_q;
  logic [7:0]  pri_q, sec_q, sub_q;
  logic [11:0] mem_base_q, mem_limit_q;
  logic [11:0] pref_base_q, pref_limit_q;
  logic [31:0] pref_base_hi_q, pref_limit_hi_q;
  logic [7:0]  int_line_q;
  logic [15:0] brctl_q;

  // ------------------------------------------------------------------
  // Read multiplexer
  // ------------------------------------------------------------------
  logic [9:0]  dw_idx;       // dword index 0..1023 of the register
  logic [31:0] rdata;
  logic [31:0] cap_rdata;    // PCI Express and MSI capabilities
  logic [15:0] status;

  assign dw_idx = req.addr[11:2];
  assign status = 16'h0010;                                   // capabilities list

  always_comb begin
    rdata = 32'd0;
    case (dw_idx)
      10'd0:  rdata = {DEVICE_ID, VENDOR_ID};
      10'd1:  rdata = {status, cmd_q};
      10'd2:  rdata = {CLASS_CODE, REVISION};
      10'd3:  rdata = {8'h00, 8'h01, 8'h00, cache_line_q};
      10'd6:  rdata = {8'h00, sub_q, sec_q, pri_q};
      10'd8:  rdata = {mem_limit_q, 4'h0, mem_base_q, 4'h0};
      10'd9:  rdata = {pref_limit_q, 4'h1, pref_base_q, 4'h1};
      10'd10: rdata = pref_base_hi_q;
      10'd11: rdata = pref_limit_hi_q;
      10'd13: rdata = 32'h0000_0040;
      10'd15: rdata = {brctl_q, 8'h00, int_line_q};
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
      10'd6:   wmask = 32'h00ff_ffff;
      10'd8:   wmask = 32'hfff0_fff0;
      10'd9:   wmask = 32'hfff0_fff0;
      10'd10:  wmask = 32'hffff_ffff;
      10'd11:  wmask = 32'hffff_ffff;
      10'd15:  wmask = {BRCTL_MASK, 16'h00ff};
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
      cmd_q           <= 16'd0;
      cache_line_q    <= 8'd0;
      pri_q           <= 8'd0;
      sec_q           <= 8'd0;
      sub_q           <= 8'd0;
      mem_base_q      <= 12'd0;
      mem_limit_q     <= 12'd0;
      pref_base_q     <= 12'd0;
      pref_limit_q    <= 12'd0;
      pref_base_hi_q  <= 32'd0;
      pref_limit_hi_q <= 32'd0;
      int_line_q      <= 8'd0;
      brctl_q         <= 16'd0;
    end else begin
      if (accept && is_wr) begin
        case (dw_idx)
          10'd1:  cmd_q           <= wval[15:0];
          10'd3:  cache_line_q    <= wval[7:0];
          10'd6:  {sub_q, sec_q, pri_q} <= wval[23:0];
          10'd8:  begin
            mem_base_q  <= wval[15:4];
            mem_limit_q <= wval[31:20];
          end
          10'd9:  begin
            pref_base_q  <= wval[15:4];
            pref_limit_q <= wval[31:20];
          end
          10'd10: pref_base_hi_q  <= wval;
          10'd11: pref_limit_hi_q <= wval;
          10'd15: begin
            int_line_q <= wval[7:0];
            brctl_q    <= wval[31:16];
          end
          default: ;
        endcase
      end
    end
  end

  // PCI Express capability at 0x40: v2, root port (type 4), slot not
  // implemented, next = MSI at 0x80. DevCap: MPSS 256 B (PCIe Base Spec.
  // 7.5.3.3; the SMFU sends no TLP with more payload toward the device than
  // the MPS programmed in Device Control, 2.2.2), Extended Tag Field
  // supported (bit 5: the SMFU's reads toward the device use tags 0x80..0x8f,
  // 2.2.6.2; the enable resets to 1, as on the endpoint), role-based error
  // reporting.
  // MSI at 0x80: 64-bit address, one vector, last in the list.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] devctl;       // MPS, MRRS, RO/NS/ExtTag enables exported, the other fields not honoured
  logic [2:0]  msi_mme;      // one vector: always 0
  logic        msi_mask;     // no per-vector masking
  logic [1:0]  pm_state;     // no PM or MSI-X capability
  logic        msix_en, msix_fmask;
  /* verilator lint_on UNUSEDSIGNAL */

  pcie_cfg_caps #(
    .EXP_DW (10'h10), .EXP_NEXT (8'h80), .PORT_TYPE (4'd4), .DEV_CAP (32'h0000_8021),
    .LINK_SPEED (LINK_SPEED), .LINK_WIDTH (LINK_WIDTH),
    .MSI (1'b1), .MSI_DW (10'h20), .MSI_NEXT (8'h00), .MSI_VEC_LOG2 (0), .MSI_PVM (1'b0)
  ) u_caps (
    .clk, .rst,
    .s_reg_addr (dw_idx), .s_reg_wr (accept && is_wr), .s_reg_wdata (req_wdata),
    .s_reg_be (req.first_be), .s_reg_rdata (cap_rdata),
    .link_up, .ur_detected, .msi_pending (1'b0),
    .devctl, .msi_en, .msi_mme, .msi_addr, .msi_data, .msi_mask, .pm_state, .msix_en, .msix_fmask
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
  assign mem_en     = cmd_q[1];
  assign bus_master = cmd_q[2];
  assign pri_bus    = pri_q;
  assign sec_bus    = sec_q;
  assign sub_bus    = sub_q;
  assign mem_base   = mem_base_q;
  assign mem_limit  = mem_limit_q;
  assign pref_base  = {pref_base_hi_q, pref_base_q};
  assign pref_limit = {pref_limit_hi_q, pref_limit_q};
  assign sec_reset  = brctl_q[6];

  // Fields the routing has already checked (type, length, EP, last BE).
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{req.typ, req.ep, req.len, req.last_be, req.addr[63:32], req.addr[15:12], req.addr[1:0]};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule

`default_nettype wire
