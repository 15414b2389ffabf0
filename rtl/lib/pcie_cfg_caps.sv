// SPDX-License-Identifier: Apache-2.0
//
// pcie_cfg_caps: the capability structures every configuration space of the
// tree shares: the PCI Express capability (PCIe Base Spec. 7.5.3, ID 0x10,
// version 2) and, optionally, an MSI capability with a 64-bit address (PCI
// Local Bus Spec. 6.8.1, ID 0x05), the Power Management capability (PCIe
// Base Spec. 7.5.2, ID 0x01) and an MSI-X capability (PCIe Base Spec.
// 7.7.2, ID 0x11). Used by the NIC's endpoint (pcie_cfg_t0: PCIe + PM +
// MSI-X), its root port (pcie_cfg_t1: PCIe root port + MSI, one vector)
// and the device functions (pcie_cfg_func: PCIe + MSI with per-vector
// masking + MSI-X, for the sample accelerator and the endpoint test function): one place for the register layout, the writable bits and the
// reset values.
//
// PCI Express capability (dword offsets from EXP_DW):
//   +0  capability header, PCI Express Capabilities (version 2, PORT_TYPE)
//   +1  Device Capabilities (DEV_CAP)
//   +2  Device Control (RW, reset: MRRS 512 B, no snoop and relaxed ordering
//       enabled; Extended Tag Field Enable RW and reset 1 when DEV_CAP
//       advertises 8-bit tags, bit 5: its default is implementation
//       specific, 7.5.3.4) / Device Status (UR Detected, RW1C; a new event
//       wins over the clear)
//   +3  Link Capabilities (LINK_WIDTH, LINK_SPEED; root port: DLL link active
//       reporting capable)
//   +4  Link Control (RW: ASPM, RCB, common clock, extended synch; root port
//       also link disable) / Link Status (current speed and width, slot
//       clock; root port: DLL link active = link_up)
//   +7  root port only: Root Control (RW: SERR on errors, PME interrupt),
//       Root Capabilities 0
//   +11 Link Capabilities 2 (every speed up to LINK_SPEED)
//   +12 Link Control 2: target link speed (RW if LNKCTL2_RW, reset
//       LINK_SPEED; else reads LINK_SPEED)
// MSI capability, if MSI (dword offsets from MSI_DW):
//   +0  capability header, Message Control: enable (RW), multiple message
//       capable = MSI_VEC_LOG2, multiple message enable (RW; a request above
//       the capability is granted the capability), 64-bit, per-vector masking
//   +1  message address, bits 31:2 (RW)   +2  message upper address (RW)
//   +3  message data, 16 bits (RW)
//   +4  MSI_PVM only: mask bits (RW)      +5  MSI_PVM only: pending bits
// PM capability, if PM (dword offsets from PM_DW; version 3 = PCI PM 1.2,
// D0 and D3hot only, no PME):
//   +0  capability header, Power Management Capabilities
//   +1  PMCSR: PowerState (RW; writes of the unsupported D1/D2 are ignored,
//       7.5.2.2), No_Soft_Reset = 1 (RO: D3hot -> D0 keeps the configuration)
// MSI-X capability, if MSIX (dword offsets from MSIX_DW):
//   +0  capability header, Message Control: table size MSIX_N - 1, Function
//       Mask (RW), MSI-X Enable (RW)
//   +1  Table Offset/BIR (MSIX_TABLE)    +2  PBA Offset/BIR (MSIX_PBA)
//       (the table and PBA themselves live in the BAR of the caller)
// Every other dword reads as zero and ignores writes.
//
// The register port is the configuration space's: s_reg_rdata is the
// combinational read value of the dword at s_reg_addr (zero outside both
// structures, so the caller ORs it into its own read multiplexer); a write
// (s_reg_wr) applies the byte enables to the writable bits.

`default_nettype none

module pcie_cfg_caps #(
  // --------------------------------------------------------------------------
  // PCI Express capability
  // --------------------------------------------------------------------------
  parameter logic [9:0]  EXP_DW       = 10'h10,         // dword index of the structure (0x40)
  parameter logic [7:0]  EXP_NEXT     = 8'h00,          // its next capability pointer (0: last)
  parameter logic [3:0]  PORT_TYPE    = 4'd0,           // device/port type: 0 endpoint, 4 root port
  parameter logic [31:0] DEV_CAP      = 32'h0000_8000,  // Device Capabilities register
  parameter logic [3:0]  LINK_SPEED   = 4'd2,           // link speed (1: 2.5, 2: 5, 3: 8 GT/s)
  parameter logic [5:0]  LINK_WIDTH   = 6'd4,           // link width (lanes)
  parameter bit          LNKCTL2_RW   = 1'b1,           // Link Control 2 target speed writable
  // --------------------------------------------------------------------------
  // MSI capability
  // --------------------------------------------------------------------------
  parameter bit          MSI          = 1'b0,           // implement the MSI capability
  parameter logic [9:0]  MSI_DW       = 10'h20,         // dword index of the structure (0x80)
  parameter logic [7:0]  MSI_NEXT     = 8'h00,          // its next capability pointer (0: last)
  parameter int          MSI_VEC_LOG2 = 0,              // log2 of the vectors (0..5)
  parameter bit          MSI_PVM      = 1'b0,           // per-vector masking (mask and pending bits)
  // --------------------------------------------------------------------------
  // Power Management capability
  // --------------------------------------------------------------------------
  parameter bit          PM           = 1'b0,           // implement the PM capability
  parameter logic [9:0]  PM_DW        = 10'h20,         // dword index of the structure
  parameter logic [7:0]  PM_NEXT      = 8'h00,          // its next capability pointer (0: last)
  // --------------------------------------------------------------------------
  // MSI-X capability
  // --------------------------------------------------------------------------
  parameter bit          MSIX         = 1'b0,           // implement the MSI-X capability
  parameter logic [9:0]  MSIX_DW      = 10'h22,         // dword index of the structure
  parameter logic [7:0]  MSIX_NEXT    = 8'h00,          // its next capability pointer (0: last)
  parameter int          MSIX_N       = 1,              // table entries (1..2048)
  parameter logic [31:0] MSIX_TABLE   = 32'h0000_0000,  // Table Offset (8-byte aligned) | BIR
  parameter logic [31:0] MSIX_PBA     = 32'h0000_0000   // PBA Offset (8-byte aligned) | BIR
) (
  // --------------------------------------------------------------------------
  // Clock and synchronous active-high reset
  // --------------------------------------------------------------------------
  input  wire logic                          clk,
  input  wire logic                          rst,
  // --------------------------------------------------------------------------
  // Register access (dword index = configuration byte offset / 4)
  // --------------------------------------------------------------------------
  input  wire logic [9:0]                    s_reg_addr,
  input  wire logic                          s_reg_wr,     // write the dword at s_reg_addr
  input  wire logic [31:0]                   s_reg_wdata,
  input  wire logic [3:0]                    s_reg_be,
  output      logic [31:0]                   s_reg_rdata,  // read value, 0 outside the structures
  // --------------------------------------------------------------------------
  // Status inputs
  // --------------------------------------------------------------------------
  input  wire logic                          link_up,      // root port: Link Status DLL link active
  input  wire logic                          ur_detected,  // pulse: an unsupported request was received
  input  wire logic [(1<<MSI_VEC_LOG2)-1:0]  msi_pending,  // MSI_PVM: pending bits
  // --------------------------------------------------------------------------
  // Configuration state
  // --------------------------------------------------------------------------
  output      logic [15:0]                   devctl,       // Device Control (MPS 7:5, MRRS 14:12, ...)
  output      logic                          msi_en,       // MSI enable
  output      logic [2:0]                    msi_mme,      // multiple message enable (log2 vectors)
  output      logic [63:0]                   msi_addr,     // message address (bits 1:0 zero)
  output      logic [15:0]                   msi_data,     // message data
  output      logic [(1<<MSI_VEC_LOG2)-1:0]  msi_mask,     // MSI_PVM: mask bits (0 without)
  output      logic [1:0]                    pm_state,     // PM: PowerState (0 D0, 3 D3hot; 0 without)
  output      logic                          msix_en,      // MSIX: MSI-X Enable
  output      logic                          msix_fmask    // MSIX: Function Mask
);

  `include "pcie_tlp_func.svh"

  localparam bit ROOT = (PORT_TYPE == 4'd4);
  localparam int NVEC = 1 << MSI_VEC_LOG2;

  // --------------------------------------------------------------------------
  // Constant registers and writable bits
  // --------------------------------------------------------------------------
  localparam logic [31:0] EXP_HDR      = {8'h00, PORT_TYPE, 4'h2, EXP_NEXT, 8'h10};
  localparam logic [31:0] LINK_CAP     = {11'd0, ROOT, 10'd0, LINK_WIDTH, LINK_SPEED};
  localparam logic [31:0] LINK_CAP2    = {24'd0, 7'((8'd1 << LINK_SPEED) - 8'd1), 1'b0};
  localparam bit          EXT_TAG      = DEV_CAP[5];  // 8-bit tags supported
  // error reporting, RO, MPS, NS, MRRS; Extended Tag Field Enable if supported
  localparam logic [15:0] DEVCTL_MASK  = 16'h78ff | {7'd0, EXT_TAG, 8'd0};
  // MRRS 512 B, NS and RO enabled; Extended Tag Field enabled if supported
  localparam logic [15:0] DEVCTL_RESET = 16'h2810 | {7'd0, EXT_TAG, 8'd0};
  // PM capabilities: version 3 (PCI PM 1.2), no D1/D2, no PME, no aux current
  localparam logic [15:0] PMC          = 16'h0003;
  localparam logic [9:0]  A_PM         = PM_DW,        A_PMCSR  = PM_DW + 10'd1;
  localparam logic [9:0]  A_MSIX       = MSIX_DW,      A_MSIX_T = MSIX_DW + 10'd1;
  localparam logic [9:0]  A_MSIX_P     = MSIX_DW + 10'd2;
  // ASPM, RCB, common clock, ext. synch; link disable on a root port only
  localparam logic [15:0] LNKCTL_MASK  = ROOT ? 16'h00db : 16'h00cb;
  localparam logic [15:0] RTCTL_MASK   = 16'h000f;  // SERR on errors, PME interrupt enable
  localparam logic [15:0] LNKCTL2_MASK = 16'h000f;  // target link speed

  localparam logic [9:0] A_EXP     = EXP_DW;
  localparam logic [9:0] A_DEVCAP  = EXP_DW + 10'd1;
  localparam logic [9:0] A_DEVCTL  = EXP_DW + 10'd2;
  localparam logic [9:0] A_LNKCAP  = EXP_DW + 10'd3;
  localparam logic [9:0] A_LNKCTL  = EXP_DW + 10'd4;
  localparam logic [9:0] A_RTCTL   = EXP_DW + 10'd7;
  localparam logic [9:0] A_LNKCAP2 = EXP_DW + 10'd11;
  localparam logic [9:0] A_LNKCTL2 = EXP_DW + 10'd12;
  // MSI: control, address low/high, data, mask, pending
  localparam logic [9:0] A_MSI    = MSI_DW,         A_MSI_AL  = MSI_DW + 10'd1;
  localparam logic [9:0] A_MSI_AH = MSI_DW + 10'd2, A_MSI_D   = MSI_DW + 10'd3;
  localparam logic [9:0] A_MSI_MSK = MSI_DW + 10'd4, A_MSI_PND = MSI_DW + 10'd5;

  logic [15:0]     devctl_q, lnkctl_q, rtctl_q;
  logic            devsta_ur_q;
  logic [3:0]      lnkctl2_q;
  logic            msi_en_q;
  logic [2:0]      msi_mme_q;
  logic [31:2]     msi_al_q;
  logic [31:0]     msi_ah_q;
  logic [15:0]     msi_d_q;
  logic [NVEC-1:0] msi_mask_q;
  logic [15:0]     lnksta;
  logic [1:0]      pm_state_q;
  logic            msix_en_q, msix_fm_q;

  // current speed and width, slot clock; DLL link active on a root port
  assign lnksta = {2'b00, ROOT && link_up, 1'b1, 2'b00, LINK_WIDTH, LINK_SPEED};

  // --------------------------------------------------------------------------
  // Read multiplexer
  // --------------------------------------------------------------------------
  always_comb begin
    s_reg_rdata = 32'd0;
    case (s_reg_addr)
      A_EXP:     s_reg_rdata = EXP_HDR;
      A_DEVCAP:  s_reg_rdata = DEV_CAP;
      A_DEVCTL:  s_reg_rdata = {12'd0, devsta_ur_q, 3'd0, devctl_q};
      A_LNKCAP:  s_reg_rdata = LINK_CAP;
      A_LNKCTL:  s_reg_rdata = {lnksta, lnkctl_q};
      A_RTCTL:   s_reg_rdata = ROOT ? {16'd0, rtctl_q} : 32'd0;
      A_LNKCAP2: s_reg_rdata = LINK_CAP2;
      A_LNKCTL2: s_reg_rdata = {28'd0, LNKCTL2_RW ? lnkctl2_q : LINK_SPEED};
      default: ;
    endcase
    if (MSI) begin
      case (s_reg_addr)
        A_MSI:     s_reg_rdata = {7'd0, MSI_PVM, 1'b1, msi_mme_q, 3'(MSI_VEC_LOG2), msi_en_q,
                                  MSI_NEXT, 8'h05};
        A_MSI_AL:  s_reg_rdata = {msi_al_q, 2'b00};
        A_MSI_AH:  s_reg_rdata = msi_ah_q;
        A_MSI_D:   s_reg_rdata = {16'd0, msi_d_q};
        A_MSI_MSK: s_reg_rdata = MSI_PVM ? 32'(msi_mask_q) : 32'd0;
        A_MSI_PND: s_reg_rdata = MSI_PVM ? 32'(msi_pending) : 32'd0;
        default: ;
      endcase
    end
    if (PM) begin
      case (s_reg_addr)
        A_PM:    s_reg_rdata = {PMC, PM_NEXT, 8'h01};
        A_PMCSR: s_reg_rdata = {28'd0, 1'b1, 1'b0, pm_state_q};   // No_Soft_Reset
        default: ;
      endcase
    end
    if (MSIX) begin
      case (s_reg_addr)
        A_MSIX:   s_reg_rdata = {msix_en_q, msix_fm_q, 3'd0, 11'(MSIX_N - 1), MSIX_NEXT, 8'h11};
        A_MSIX_T: s_reg_rdata = MSIX_TABLE;
        A_MSIX_P: s_reg_rdata = MSIX_PBA;
        default: ;
      endcase
    end
  end

  // --------------------------------------------------------------------------
  // Writes: the enabled bytes of the writable bits of the addressed register
  // (merged with the register itself, so read-only bits stay constant);
  // wd/be are short names for the write data and byte enables
  // --------------------------------------------------------------------------
  logic [31:0] wd;
  logic [3:0]  be;
  assign wd = s_reg_wdata;
  assign be = s_reg_be;

  always_ff @(posedge clk) begin
    if (rst) begin
      devctl_q    <= DEVCTL_RESET;
      devsta_ur_q <= 1'b0;
      lnkctl_q    <= 16'd0;
      lnkctl2_q   <= LINK_SPEED;
      rtctl_q     <= 16'd0;
      msi_en_q    <= 1'b0;
      msi_mme_q   <= 3'd0;
      msi_al_q    <= 30'd0;
      msi_ah_q    <= 32'd0;
      msi_d_q     <= 16'd0;
      msi_mask_q  <= '0;
      pm_state_q  <= 2'd0;
      msix_en_q   <= 1'b0;
      msix_fm_q   <= 1'b0;
    end else begin
      if (s_reg_wr) begin
        case (s_reg_addr)
          A_DEVCTL:  devctl_q <= 16'(cfg_wr_merge({16'd0, devctl_q}, wd, be, {16'd0, DEVCTL_MASK}));
          A_LNKCTL:  lnkctl_q <= 16'(cfg_wr_merge({16'd0, lnkctl_q}, wd, be, {16'd0, LNKCTL_MASK}));
          A_RTCTL:   if (ROOT) rtctl_q <= 16'(cfg_wr_merge({16'd0, rtctl_q}, wd, be, {16'd0, RTCTL_MASK}));
          A_LNKCTL2: if (LNKCTL2_RW) lnkctl2_q <= 4'(cfg_wr_merge({28'd0, lnkctl2_q}, wd, be,
                                                                  {16'd0, LNKCTL2_MASK}));
          default: ;
        endcase
        if (MSI) begin
          case (s_reg_addr)
            A_MSI: begin
              // enable, and the vectors granted (at most the capability)
              if (s_reg_be[2]) begin
                msi_en_q  <= s_reg_wdata[16];
                msi_mme_q <= (s_reg_wdata[22:20] > 3'(MSI_VEC_LOG2)) ? 3'(MSI_VEC_LOG2)
                                                                      : s_reg_wdata[22:20];
              end
            end
            A_MSI_AL:  msi_al_q   <= 30'(cfg_wr_merge({msi_al_q, 2'b00}, wd, be, 32'hffff_fffc) >> 2);
            A_MSI_AH:  msi_ah_q   <= cfg_wr_merge(msi_ah_q, wd, be, 32'hffff_ffff);
            A_MSI_D:   msi_d_q    <= 16'(cfg_wr_merge({16'd0, msi_d_q}, wd, be, 32'h0000_ffff));
            A_MSI_MSK: if (MSI_PVM) msi_mask_q <= NVEC'(cfg_wr_merge(32'(msi_mask_q), wd, be,
                                                                   32'({NVEC{1'b1}})));
            default: ;
          endcase
        end
        // PowerState: D0 (0) and D3hot (3) only; a write of D1/D2 completes
        // and changes nothing (PCIe Base Spec. 7.5.2.2)
        if (PM && s_reg_addr == A_PMCSR && s_reg_be[0] &&
            (s_reg_wdata[1:0] == 2'd0 || s_reg_wdata[1:0] == 2'd3)) begin
          pm_state_q <= s_reg_wdata[1:0];
        end
        if (MSIX && s_reg_addr == A_MSIX && s_reg_be[3]) begin
          msix_en_q <= s_reg_wdata[31];
          msix_fm_q <= s_reg_wdata[30];
        end
      end
      // Device status: UR detected, RW1C; a new event wins over the clear.
      if (ur_detected) begin
        devsta_ur_q <= 1'b1;
      end else if (s_reg_wr && s_reg_addr == A_DEVCTL && s_reg_be[2] && s_reg_wdata[19]) begin
        devsta_ur_q <= 1'b0;
      end
    end
  end

  // --------------------------------------------------------------------------
  // State outputs
  // --------------------------------------------------------------------------
  assign devctl   = devctl_q;
  assign msi_en   = msi_en_q;
  assign msi_mme  = msi_mme_q;
  assign msi_addr = {msi_ah_q, msi_al_q, 2'b00};
  assign msi_data = msi_d_q;
  assign msi_mask = MSI_PVM ? msi_mask_q : '0;
  assign pm_state   = PM ? pm_state_q : 2'd0;
  assign msix_en    = MSIX && msix_en_q;
  assign msix_fmask = MSIX && msix_fm_q;

endmodule

`default_nettype wire
