// SPDX-License-Identifier: Apache-2.0
//
// accel_top: a sample PCIe accelerator endpoint (stands in for a Xeon Phi
// behind a network-attached-accelerator NIC). See docs/accelerator.md.
//
//   s_tlp -> RX demux -+- requests ----> accel_target -- completions --+
//                      |                  |  |   |                     |
//                      | pcie_cfg_func <--+  |   +--> accel_devmem A   +-> accel_tx_arb -> m_tlp
//                      |   accel_regs <------+        accel_devmem B   |
//                      +- completions --> accel_job -- MRd/MWr/MSI ----+
//
// Config space: vendor 0x1ee7 device 0x0100 class 0x120000; BAR0 4 KiB
// control registers; BAR2(/3) device memory; PCIe, MSI, MSI-X capabilities;
// Device Serial Number at 0x100. TLP streams per docs/tlp-interface.md.
// Completions can always pass the request path: the RX demux
// (accel_rx_demux) sends them to the job engine, which never stalls them.

`default_nettype none
`include "tlp_stream.svh"
`include "cpuif_port.svh"

// Package items are referenced by qualified name (accel_pkg::...): Yosys reads
// no package imports inside modules.

module accel_top
#(
  // ------------------------------------------------------------------------
  // Parameters
  // ------------------------------------------------------------------------
  parameter int          DEVMEM_LOG2      = 26,  // BAR2 size, log2 bytes (64 MiB); <= 30 if !BAR64
  parameter int          DEVMEM_IMPL_LOG2 = 22,  // backed on-chip memory, log2 bytes (4 MiB),
                                                 // 6..DEVMEM_LOG2; BAR offsets above alias
  parameter bit          BAR64            = 1'b1, // 1: BAR2/3 64-bit prefetchable
                                                 // 0: BAR2 32-bit non-prefetchable (QEMU proxy)
  parameter int          NTAGS            = 8,   // outstanding DMA reads, 2..32
  parameter int          TIMEOUT_LOG2     = 20,  // DMA completion timeout, log2 cycles
  parameter int          RMA_WAIT_LOG2    = 24,  // RMA send: requester record wait bound, log2 cycles
  parameter logic [63:0] SERIAL           = 64'h0001_1ee7_acce_0001  // Device Serial Number
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
  output      logic         busy          // a job (DMA, CRC) is running: keep the clock going
);


  localparam int AW = DEVMEM_IMPL_LOG2 - 2;

  // ------------------------------------------------------------------------
  // RX demux: completions to the job engine, everything else to the target
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
  logic        mem_enable, bus_master, intx_disable;
  logic [63:0] bar0_base, bar2_base;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [5:0][31:0] bar_base;  // BAR0, BAR2(/3) implemented
  /* verilator lint_on UNUSEDSIGNAL */
  logic [2:0]  max_payload, max_read_req;
  logic        msi_enable, msix_enable, msix_fmask;
  logic [2:0]  msi_mme;
  logic [63:0] msi_addr;
  logic [15:0] msi_data;
  logic [3:0]  msi_mask, msi_pending;
  logic [15:0] my_id;
  logic        ur_detected, master_abort;

  logic         reg_rd_en, reg_wr_en;
  logic [9:0]   reg_rd_addr, reg_wr_addr;
  logic [127:0] reg_rd_data;
  logic [31:0]  reg_wr_data;
  logic [3:0]   reg_wr_be;

  logic          a_en, b_en;
  logic [AW-1:0] a_addr, b_addr;
  logic [15:0]   a_wstrb, b_wstrb;
  logic [127:0]  a_wdata, b_wdata, a_rdata, b_rdata;

  logic        job_go, job_ack, job_busy, job_fin;
  logic [3:0]  job_op, job_err;
  logic [63:0] job_host, job_result;
  logic [31:0] job_dev_off, job_len, job_cycles;
  logic [63:0] rma_win, job_cnoti;
  logic [15:0] rma_node, job_dst_node, job_cookie;
  logic [31:0] job_rnoti;
  logic [1:0]  irq_status, irq_enable, irq_vector;
  logic [accel_regs_pkg::MSIX_VECTORS-1:0][63:0] msix_addr;
  logic [accel_regs_pkg::MSIX_VECTORS-1:0][31:0] msix_data;
  logic [accel_regs_pkg::MSIX_VECTORS-1:0]       msix_mask, msix_pba;

  logic  t_m_valid, t_m_ready, j_m_valid, j_m_ready;
  accel_pkg::beat_t t_m_beat, j_m_beat;

  // INTx: job interrupt level while neither MSI nor MSI-X is enabled
  logic irq_level;
  assign irq_level = (irq_status & irq_enable) != 2'b00 && !msi_enable && !msix_enable;
  assign intx      = irq_level && !intx_disable;
  assign busy      = job_busy;

  // ------------------------------------------------------------------------
  // Blocks
  // ------------------------------------------------------------------------
  // Config space: BAR0 4 KiB registers; BAR2(/3) device memory, 64-bit
  // prefetchable (BAR64) or 32-bit non-prefetchable; MSI-X table and PBA in
  // BAR0; DevCap MPSS 256 B; Device Serial Number.
  pcie_cfg_func #(
    .VENDOR_ID(accel_regs_pkg::VENDOR_ID), .DEVICE_ID(accel_regs_pkg::DEVICE_ID),
    .REVISION(accel_regs_pkg::REVISION_ID), .CLASS_CODE(accel_regs_pkg::CLASS_CODE),
    .SUBSYS_VID(accel_regs_pkg::SUBSYS_VID), .SUBSYS_ID(accel_regs_pkg::SUBSYS_ID),
    .BAR0_LOG2(12), .BAR2_LOG2(DEVMEM_LOG2), .BAR64({3'b000, BAR64, 2'b00}),
    .DEV_CAP(32'h0000_8001), .MSI_VEC_LOG2(accel_pkg::MSI_VECTORS_LOG2),
    .MSIX_N(accel_regs_pkg::MSIX_VECTORS), .MSIX_TABLE(32'(accel_regs_pkg::R_MSIX_TABLE)),
    .MSIX_PBA(32'(accel_regs_pkg::R_MSIX_PBA)), .DSN(1'b1), .SERIAL(SERIAL)
  ) u_cfg (
    .clk, .rst,
    `CFG_SPACE_CONNECT(cfg),
    .intx_pending(irq_level), .ur_detected, .master_abort, .msi_pending,
    .mem_enable, .bus_master, .intx_disable, .bar_base,
    .max_payload, .max_read_req, .msi_enable, .msi_mme, .msi_addr, .msi_data, .msi_mask,
    .msix_enable, .msix_fmask
  );

  assign bar0_base = {32'h0, bar_base[0]};
  assign bar2_base = BAR64 ? {bar_base[3], bar_base[2]} : {32'h0, bar_base[2]};
  // Device memory's bus address (BAR2 without its flag bits): the RMA send
  // job's source address and requester-record address
  logic [63:0] devmem_base;
  assign devmem_base = bar2_base & ~((64'd1 << DEVMEM_LOG2) - 64'd1);

  accel_target #(.DEVMEM_LOG2(DEVMEM_LOG2), .DEVMEM_IMPL_LOG2(DEVMEM_IMPL_LOG2)) u_target (
    .clk, .rst,
    .s_valid(t_valid), .s_data(s_tlp_data), .s_keep(s_tlp_keep),
    .s_sop(s_tlp_sop), .s_eop(s_tlp_eop), .s_ready(t_ready),
    .m_valid(t_m_valid), .m_beat(t_m_beat), .m_ready(t_m_ready),
    .cfg_rd_en, .cfg_wr_en, .cfg_addr, .cfg_wr_data, .cfg_wr_be, .cfg_rd_data,
    .mem_enable, .bar0_base, .bar2_base, .max_payload, .my_id, .ur_detected,
    .reg_rd_en, .reg_rd_addr, .reg_rd_data, .reg_wr_en, .reg_wr_addr, .reg_wr_data, .reg_wr_be,
    .mem_en(a_en), .mem_addr(a_addr), .mem_wstrb(a_wstrb), .mem_wdata(a_wdata),
    .mem_rdata(a_rdata)
  );

  accel_regs #(.DEVMEM_LOG2(DEVMEM_LOG2), .DEVMEM_IMPL_LOG2(DEVMEM_IMPL_LOG2), .NTAGS(NTAGS))
  u_regs (
    .clk, .rst,
    .rd_en(reg_rd_en), .rd_addr(reg_rd_addr), .rd_data(reg_rd_data),
    .wr_en(reg_wr_en), .wr_addr(reg_wr_addr), .wr_data(reg_wr_data), .wr_be(reg_wr_be),
    .job_go, .job_ack, .job_op, .job_host, .job_dev_off, .job_len, .job_busy, .job_fin,
    .job_err, .job_result, .job_cycles,
    .rma_win, .rma_node, .job_dst_node, .job_cookie, .job_rnoti, .job_cnoti,
    .irq_status, .irq_enable, .irq_vector, .msix_addr, .msix_data, .msix_mask, .msix_pba
  );

  accel_job #(.DEVMEM_IMPL_LOG2(DEVMEM_IMPL_LOG2), .NTAGS(NTAGS), .TIMEOUT_LOG2(TIMEOUT_LOG2),
            .RMA_WAIT_LOG2(RMA_WAIT_LOG2))
  u_job (
    .clk, .rst,
    .go(job_go), .ack(job_ack), .op(job_op), .host_addr(job_host), .dev_off(job_dev_off),
    .len(job_len), .rma_win, .rma_node, .dst_node(job_dst_node), .cookie(job_cookie),
    .rnoti(job_rnoti), .cnoti(job_cnoti), .devmem_base, .busy(job_busy), .fin(job_fin), .fin_err(job_err), .fin_result(job_result),
    .fin_cycles(job_cycles),
    .irq_enable, .irq_vector, .msix_enable, .msix_fmask, .msix_addr, .msix_data, .msix_mask,
    .msix_pba, .msi_enable, .msi_mme, .msi_addr, .msi_data, .msi_mask, .msi_pending,
    .bus_master, .my_id, .max_payload, .max_read_req, .master_abort,
    .c_valid(c_valid), .c_data(s_tlp_data), .c_keep(s_tlp_keep),
    .c_sop(s_tlp_sop), .c_eop(s_tlp_eop),
    .m_valid(j_m_valid), .m_beat(j_m_beat), .m_ready(j_m_ready),
    .mem_en(b_en), .mem_addr(b_addr), .mem_wstrb(b_wstrb), .mem_wdata(b_wdata),
    .mem_rdata(b_rdata)
  );

  accel_devmem #(.IMPL_LOG2(DEVMEM_IMPL_LOG2)) u_devmem (
    .clk,
    .a_en, .a_addr, .a_wstrb, .a_wdata, .a_rdata,
    .b_en, .b_addr, .b_wstrb, .b_wdata, .b_rdata
  );

  accel_tx_arb u_arb (
    .clk, .rst,
    .a_valid(t_m_valid), .a_beat(t_m_beat), .a_ready(t_m_ready),
    .b_valid(j_m_valid), .b_beat(j_m_beat), .b_ready(j_m_ready),
    `TLP_CONNECT(m_tlp, m_tlp)
  );

endmodule
