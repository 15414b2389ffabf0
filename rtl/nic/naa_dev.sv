// SPDX-License-Identifier: Apache-2.0
//
// naa_dev: the PCIe device below an NAA's root port (rtl/nic/naa_node), chosen
// by a parameter: DEVICE 0 the sample accelerator (accel_top), 1 the PCI
// endpoint test function (epf_test_top, docs/epf-test.md) with pci-epf-test's
// BAR sizes, 2 the same with 4 KiB BAR4 and BAR5 (the co-simulation: the
// driver's BAR test reads and writes every dword, and a remote access costs
// about a millisecond of wall time there). All have the same ports; the
// accelerator's parameters apply to it only. The endpoint test function's
// sources (unit accel/epf_test) are not in the nic unit: only builds with
// DEVICE 1 or 2 read them (sim/world/world.mk), so synthesis and lint of
// naa_node need none of them.

`default_nettype none
`include "tlp_stream.svh"

module naa_dev
#(
  parameter int DEVICE           = 0,      // 0 accel_top, 1 epf_test_top, 2 epf_test_top small BAR4/5
  parameter int DEVMEM_LOG2      = 26,     // accel_top: BAR2 size, log2 bytes
  parameter int DEVMEM_IMPL_LOG2 = 22,     // accel_top: backed device memory, log2 bytes
  parameter bit BAR64            = 1'b1,   // accel_top: BAR2/3 64-bit prefetchable
  parameter int NTAGS            = 8,      // accel_top: outstanding DMA reads
  parameter int TIMEOUT_LOG2     = 20      // DMA completion timeout, log2 cycles
) (
  input  wire logic         clk,
  input  wire logic         rst,
  `TLP_S_PORTS(s_tlp),
  `TLP_M_PORTS(m_tlp),
  output      logic         intx,
  output      logic         busy
);

  if (DEVICE == 1 || DEVICE == 2) begin : g_epf
    epf_test_top #(
      .TIMEOUT_LOG2(TIMEOUT_LOG2), .BAR4_LOG2(DEVICE == 2 ? 12 : 17), .BAR5_LOG2(DEVICE == 2 ? 12 : 20)
    ) u_dev (
      .clk, .rst,
      .s_tlp_data, .s_tlp_keep, .s_tlp_sop, .s_tlp_eop, .s_tlp_valid, .s_tlp_ready,
      .m_tlp_data, .m_tlp_keep, .m_tlp_sop, .m_tlp_eop, .m_tlp_valid, .m_tlp_ready,
      .intx, .busy
    );
  end else begin : g_accel
    accel_top #(
      .DEVMEM_LOG2(DEVMEM_LOG2), .DEVMEM_IMPL_LOG2(DEVMEM_IMPL_LOG2), .BAR64(BAR64), .NTAGS(NTAGS),
      .TIMEOUT_LOG2(TIMEOUT_LOG2)
    ) u_dev (
      .clk, .rst,
      .s_tlp_data, .s_tlp_keep, .s_tlp_sop, .s_tlp_eop, .s_tlp_valid, .s_tlp_ready,
      .m_tlp_data, .m_tlp_keep, .m_tlp_sop, .m_tlp_eop, .m_tlp_valid, .m_tlp_ready,
      .intx, .busy
    );
  end

endmodule

`default_nettype wire
