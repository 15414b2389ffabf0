// SPDX-License-Identifier: Apache-2.0
//
// epf_test_top: a PCIe endpoint that implements Linux's PCI endpoint test
// function (pci-epf-test) register interface, as
// Documentation/PCI/endpoint/pci-test-function.rst and the host driver
// drivers/misc/pci_endpoint_test.c define it, so that driver and its tool
// pcitest (tools/pci) test a device behind our NICs from outside
// (docs/epf-test.md). A variant of the sample accelerator: same ports as
// accel_top, built from its RX demux, completer (accel_target), device memory
// and TX arbiter.
//
//   s_tlp -> accel_rx_demux -+- requests -> BAR translation -> accel_target -+
//                            |                                 |   |        |
//                            |             pcie_cfg_func <-----+   v        +-> accel_tx_arb -> m_tlp
//                            |                        epf_test_space        |
//                            |                   (BAR0 regs, MSI-X, BAR1-5) |
//                            +- completions -> epf_test_dma -- MRd/MWr/MSI -+
//
// BARs (32-bit memory): BAR0 64 KiB test registers + MSI-X table/PBA,
// BAR1..BAR5 512 B, 1 KiB, 16 KiB, 128 KiB, 1 MiB of memory (pci-epf-test's
// default sizes). accel_target decodes one memory BAR: every BAR hit is
// translated on the request's header beat to an internal address (bits 22:20
// the BAR number, the low bits the offset) inside that BAR; a miss to an
// address beyond it, so accel_target answers UR as for any miss.

`default_nettype none
`include "tlp_stream.svh"
`include "cpuif_port.svh"

module epf_test_top
#(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter logic [15:0] DEVICE_ID    = 16'h0101,
  parameter int          MSIX_VECTORS = 2048,   // MSI-X table size (power of two, 4..2048)
  parameter int          TIMEOUT_LOG2 = 20,     // DMA read completion timeout, log2 cycles
  parameter int          BAR1_LOG2    = 9,      // BAR1..5 sizes, log2 bytes (6..20)
  parameter int          BAR2_LOG2    = 10,
  parameter int          BAR3_LOG2    = 14,
  parameter int          BAR4_LOG2    = 17,
  parameter int          BAR5_LOG2    = 20
) (
  // ---------------- clock and reset (synchronous, active high) ----------------
  input  wire logic         clk,
  input  wire logic         rst,

  // ---------------- TLP stream in: requests from upstream, completions for our requests ----------------
  `TLP_S_PORTS(s_tlp),

  // ---------------- TLP stream out: completions, DMA requests, MSI/MSI-X writes ----------------
  `TLP_M_PORTS(m_tlp),

  // ---------------- side band ----------------
  output      logic         intx,         // INTA# level
  output      logic         busy          // a command is being worked on
);

  localparam int BAR0_LOG2 = 16;
  localparam int VW        = $clog2(MSIX_VECTORS);
  localparam int BAR_LOG2 [6] = '{BAR0_LOG2, BAR1_LOG2, BAR2_LOG2, BAR3_LOG2, BAR4_LOG2,
                                  BAR5_LOG2};

  // ------------------------------------------------------------------------
  // RX demux: completions to the function, everything else to the target
  // ------------------------------------------------------------------------
  logic t_valid, t_ready, c_valid;

  accel_rx_demux u_rx (
    .clk, .rst,
    .s_hdr_dw0(s_tlp_data[31:0]), .s_sop(s_tlp_sop), .s_valid(s_tlp_valid), .s_ready(s_tlp_ready),
    .m_req_valid(t_valid), .m_req_ready(t_ready),
    .m_cpl_valid(c_valid)
  );

  // ------------------------------------------------------------------------
  // Interconnect
  // ------------------------------------------------------------------------
  `CFG_SPACE_WIRES(cfg);
  logic             mem_enable, bus_master, intx_disable;
  logic [5:0][31:0] bar_base;
  logic [2:0]       max_payload, max_read_req;
  logic             msi_enable, msix_enable, msix_fmask;
  logic [2:0]       msi_mme;
  logic [63:0]      msi_addr;
  logic [15:0]      msi_data;
  logic [31:0]      msi_mask, msi_pending;
  logic [15:0]      my_id;
  logic             ur_detected, master_abort;

  logic          a_en;
  logic [20:0]   a_addr;
  logic [15:0]   a_wstrb;
  logic [127:0]  a_wdata, a_rdata;

  logic [31:0]   command, status, size, checksum, irq_type, irq_number, flags;
  logic [63:0]   src_addr, dst_addr;
  logic          cmd_take, csum_wr;
  logic [31:0]   status_set, csum_data;
  logic          tbl_rd, pba_set, pba_clr, retry_valid, retry_take;
  logic [VW-1:0] tbl_vec, pba_vec, retry_vec;
  logic [127:0]  tbl_entry;

  logic  t_m_valid, t_m_ready, j_m_valid, j_m_ready;
  accel_pkg::beat_t t_m_beat, j_m_beat;

  logic irq_level;
  assign intx = irq_level && !intx_disable;

  // ------------------------------------------------------------------------
  // BAR translation of the request's header beat (memory requests only)
  // ------------------------------------------------------------------------
  logic [127:0] t_data;
  epf_test_bar_xlate #(.BAR_LOG2(BAR_LOG2)) u_xlate (
    .mem_enable, .bar_base,
    .s_sop(s_tlp_sop), .s_data(s_tlp_data), .m_data(t_data)
  );

  // ------------------------------------------------------------------------
  // Blocks
  // ------------------------------------------------------------------------
  // Config space as pci-epf-test's: six 32-bit BARs, DevCap MPSS 4096 B, MSI
  // 32 vectors, MSI-X table at BAR0 + 0x8000, PBA at BAR0 + 0x200
  pcie_cfg_func #(
    .VENDOR_ID(16'h1ee7), .DEVICE_ID(DEVICE_ID), .REVISION(8'h00), .CLASS_CODE(24'hff0000),
    .SUBSYS_VID(16'h1ee7), .SUBSYS_ID(16'h0001),
    .BAR0_LOG2(BAR0_LOG2), .BAR1_LOG2(BAR1_LOG2), .BAR2_LOG2(BAR2_LOG2), .BAR3_LOG2(BAR3_LOG2),
    .BAR4_LOG2(BAR4_LOG2), .BAR5_LOG2(BAR5_LOG2), .BAR64(6'b000000),
    .DEV_CAP(32'h0000_8005), .MSI_VEC_LOG2(5), .MSIX_N(MSIX_VECTORS),
    .MSIX_TABLE(32'h0000_8000), .MSIX_PBA(32'h0000_0200), .DSN(1'b0)
  ) u_cfg (
    .clk, .rst,
    `CFG_SPACE_CONNECT(cfg),
    .intx_pending(irq_level), .ur_detected, .master_abort, .msi_pending,
    .mem_enable, .bus_master, .intx_disable, .bar_base,
    .max_payload, .max_read_req, .msi_enable, .msi_mme, .msi_addr, .msi_data, .msi_mask,
    .msix_enable, .msix_fmask
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic         reg_rd_en, reg_wr_en;
  logic [9:0]   reg_rd_addr, reg_wr_addr;
  logic [31:0]  reg_wr_data;
  logic [3:0]   reg_wr_be;
  /* verilator lint_on UNUSEDSIGNAL */

  accel_target #(.DEVMEM_LOG2(23), .DEVMEM_IMPL_LOG2(23)) u_target (
    .clk, .rst,
    .s_valid(t_valid), .s_data(t_data), .s_keep(s_tlp_keep),
    .s_sop(s_tlp_sop), .s_eop(s_tlp_eop), .s_ready(t_ready),
    .m_valid(t_m_valid), .m_beat(t_m_beat), .m_ready(t_m_ready),
    .cfg_rd_en, .cfg_wr_en, .cfg_addr, .cfg_wr_data, .cfg_wr_be, .cfg_rd_data,
    .mem_enable, .bar0_base(64'hffff_ffff_ffff_f000), .bar2_base(64'd0), .max_payload, .my_id,
    .ur_detected,
    .reg_rd_en, .reg_rd_addr, .reg_rd_data(128'd0), .reg_wr_en, .reg_wr_addr, .reg_wr_data,
    .reg_wr_be,
    .mem_en(a_en), .mem_addr(a_addr), .mem_wstrb(a_wstrb), .mem_wdata(a_wdata),
    .mem_rdata(a_rdata)
  );

  epf_test_space #(
    .MSIX_VECTORS(MSIX_VECTORS), .BAR1_LOG2(BAR1_LOG2), .BAR2_LOG2(BAR2_LOG2),
    .BAR3_LOG2(BAR3_LOG2), .BAR4_LOG2(BAR4_LOG2), .BAR5_LOG2(BAR5_LOG2)
  ) u_space (
    .clk, .rst,
    .a_en, .a_addr, .a_wstrb, .a_wdata, .a_rdata,
    .command, .status, .src_addr, .dst_addr, .size, .checksum, .irq_type, .irq_number, .flags,
    .cmd_take, .status_set, .csum_wr, .csum_data,
    .tbl_rd, .tbl_vec, .tbl_entry, .pba_set, .pba_clr, .pba_vec,
    .retry_valid, .retry_vec, .retry_take
  );

  epf_test_dma #(.MSIX_VECTORS(MSIX_VECTORS), .TIMEOUT_LOG2(TIMEOUT_LOG2)) u_dma (
    .clk, .rst,
    .command, .status, .src_addr, .dst_addr, .size, .checksum, .irq_type, .irq_number, .flags,
    .cmd_take, .status_set, .csum_wr, .csum_data,
    .tbl_rd, .tbl_vec, .tbl_entry, .pba_set, .pba_clr, .pba_vec,
    .retry_valid, .retry_vec, .retry_take,
    .bus_master, .my_id, .max_payload, .max_read_req,
    .msi_enable, .msi_mme, .msi_addr, .msi_data, .msi_mask, .msi_pending,
    .msix_enable, .msix_fmask, .master_abort, .intx_level(irq_level), .busy,
    .c_valid, .c_data(s_tlp_data), .c_keep(s_tlp_keep), .c_sop(s_tlp_sop), .c_eop(s_tlp_eop),
    .m_valid(j_m_valid), .m_beat(j_m_beat), .m_ready(j_m_ready)
  );

  accel_tx_arb u_arb (
    .clk, .rst,
    .a_valid(t_m_valid), .a_beat(t_m_beat), .a_ready(t_m_ready),
    .b_valid(j_m_valid), .b_beat(j_m_beat), .b_ready(j_m_ready),
    `TLP_CONNECT(m_tlp, m_tlp)
  );

endmodule

`default_nettype wire
