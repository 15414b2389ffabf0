// SPDX-License-Identifier: Apache-2.0
//
// naa_node: a network-attached accelerator node (docs/nic.md): an extoll_nic
// in the root-port role with the sample accelerator (accel_top) below it,
// connected by the TLP streams (docs/tlp-interface.md). No CPU: everything is
// configured in-band from a host (RRA, config tunnel; docs/remote-access.md).
//
//   network links <-> extoll_nic #(.ROLE(1)) --m_tlp--> accel_top
//                                            <--s_tlp--
//
// The accelerator is held in reset while the root port's Bridge Control
// secondary bus reset bit is set. Its INTx level is brought out (dev_intx)
// and forwarded to the owner host by naa_intx (messages into the interrupt
// window, between the device's TLPs; docs/epf-test.md).

`default_nettype none
`include "tlp_stream.svh"
`include "net_local_port.svh"
`include "nic_ports.svh"

module naa_node
#(
  // ---------------- NIC ----------------
  parameter logic [15:0] NODE_ID          = 16'd0,   // ORed with cfg_node_id (keep 0 when strapped)
  parameter int          TBL_AW           = 6,       // routing table index bits
  parameter int          LINK_BUF_DEPTH   = 64,      // flits per VC of a link inport buffer (>= 32; 4 VCs; 64: a 256-B stream is not credit bound)
  parameter logic [31:0] BUILD_DATE       = 32'h0000_0000, // info.build.date, BCD 0xYYYYMMDD
  parameter logic [31:0] BUILD_COMMIT     = 32'h0000_0000, // info.build.commit

  // ---------------- the device: 0 accel_top, 1 epf_test_top (naa_dev, docs/epf-test.md) ----------------
  parameter int          DEVICE           = 0,
  // ---------------- accelerator (accel_top) ----------------
  parameter int          DEVMEM_LOG2      = 26,      // BAR2 size, log2 bytes
  parameter int          DEVMEM_IMPL_LOG2 = 22,      // backed device memory, log2 bytes
  parameter bit          BAR64            = 1'b1,    // BAR2/3 64-bit prefetchable
  parameter int          NTAGS            = 8,       // outstanding DMA reads
  parameter int          TIMEOUT_LOG2     = 20       // DMA completion timeout, log2 cycles
) (
  // ---------------- clock and reset ----------------
  input  wire logic                  clk,
  input  wire logic                  rst,            // synchronous, active high

  // ---------------- straps ----------------
  input  wire logic [15:0]           cfg_node_id,    // network node id
  input  wire logic [6:0]            cfg_dateline,   // links that cross a torus dateline

  // ---------------- network links (net_local_port.svh: NET_PHY_PORTS) ----------------
  `NET_PHY_PORTS(7),

  // ---------------- configuration flash and boot identity of the NIC (nic_ports.svh) ----------------
  `NIC_FLASH_PORTS(output, input wire),

  // ---------------- status ----------------
  output      logic                  net_ovf,        // sticky: a network buffer overran
  output      logic                  dev_intx,       // accelerator INTA# level (forwarded: naa_intx)
  output      logic                  dev_busy        // accelerator job running (work without traffic)
);

  // NIC -> device
  logic [127:0] dn_data;
  logic [3:0]   dn_keep;
  logic         dn_sop, dn_eop, dn_valid, dn_ready;
  // device -> NIC: through a register slice (what a vendor PCIe core would
  // add anyway). It also cuts the ready/valid path between accel_tx_arb
  // (m_valid and a_ready/b_ready computed in one always_comb) and the root
  // port's completion merge, which Verilator otherwise reports as UNOPTFLAT.
  logic [127:0] dv_data;
  logic [3:0]   dv_keep;
  logic         dv_sop, dv_eop, dv_valid, dv_ready;
  logic [127:0] up_data;
  logic [3:0]   up_keep;
  logic         up_sop, up_eop, up_valid, up_ready;

  logic nic_intx, sec_reset;
  // device -> naa_intx (INTx messages between its TLPs) -> slice
  logic [127:0] ix_data;
  logic [3:0]   ix_keep;
  logic         ix_sop, ix_eop, ix_valid, ix_ready, intx_sent;

  naa_intx u_intx (
    .clk, .rst (rst || sec_reset), .intx (dev_intx),
    .s_tlp_data (dv_data), .s_tlp_keep (dv_keep), .s_tlp_sop (dv_sop), .s_tlp_eop (dv_eop),
    .s_tlp_valid (dv_valid), .s_tlp_ready (dv_ready),
    .m_tlp_data (ix_data), .m_tlp_keep (ix_keep), .m_tlp_sop (ix_sop), .m_tlp_eop (ix_eop),
    .m_tlp_valid (ix_valid), .m_tlp_ready (ix_ready),
    .sent_level (intx_sent)
  );

  extoll_nic #(
    .ROLE           (1),
    .NODE_ID        (NODE_ID),
    .TBL_AW         (TBL_AW),
    .LINK_BUF_DEPTH (LINK_BUF_DEPTH),
    .BUILD_DATE     (BUILD_DATE),
    .BUILD_COMMIT   (BUILD_COMMIT)
  ) u_nic (
    .clk, .rst,
    .fn_rst (1'b0),        // the NAA has no host whose reset is the function's alone
    .cfg_node_id, .cfg_dateline,
    `TLP_CONNECT(s_tlp, up),
    `TLP_CONNECT(m_tlp, dn),
    .intx           (nic_intx),
    .pcie_link_up   (1'b1),
    .pcie_sec_reset (sec_reset),
    .m_phy_data, .m_phy_frm, .m_phy_crc, .s_phy_data, .s_phy_frm, .s_phy_crc,
    `NIC_FLASH_CONNECT,
    .net_ovf
  );

  naa_dev #(
    .DEVICE           (DEVICE),
    .DEVMEM_LOG2      (DEVMEM_LOG2),
    .DEVMEM_IMPL_LOG2 (DEVMEM_IMPL_LOG2),
    .BAR64            (BAR64),
    .NTAGS            (NTAGS),
    .TIMEOUT_LOG2     (TIMEOUT_LOG2)
  ) u_dev (
    .clk,
    .rst         (rst || sec_reset),
    `TLP_CONNECT(s_tlp, dn),
    `TLP_CONNECT(m_tlp, dv),
    .intx        (dev_intx),
    .busy        (dev_busy)
  );

  pcie_tlp_slice #(.DATA_W(128)) u_up_slice (
    .clk, .rst,
    .s_data (ix_data), .s_keep (ix_keep), .s_sop (ix_sop), .s_eop (ix_eop),
    .s_valid (ix_valid), .s_ready (ix_ready),
    .m_data (up_data), .m_keep (up_keep), .m_sop (up_sop), .m_eop (up_eop),
    .m_valid (up_valid), .m_ready (up_ready)
  );

  logic unused;
  assign unused = nic_intx ^ intx_sent;

endmodule

`default_nettype wire
