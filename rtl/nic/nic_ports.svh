// SPDX-License-Identifier: Apache-2.0
//
// nic_ports.svh: port groups that the NIC's register side (nic_core,
// nic_reg_map) and the role sides (nic_side_ports.svh: nic_ep_side,
// nic_rp_side) declare with opposite directions. Written once here; the
// direction of each half is a macro argument: `output` or `input wire`.
//
//   `NIC_PCIE_STATE_PORTS(o, i)  pcie.* state and events the side drives (o),
//                                msix.* table entry 0 it reads (i):
//       cpl_id        captured bus/dev/fn (pcie.status)
//       mem_en, bus_master, intx_disable    Command register bits
//       ev_rx_tlp, ev_tx_tlp, ev_ur, ev_drop, ev_aperture   counter pulses
//       pcie_ev       {requester completion dropped by the hard IP's adapter
//                      (RC error code 3 and up; 0 without a hard IP), poisoned
//                      sent, MSI-X message, CA sent, UR/CA completion received,
//                      poisoned received} counter pulses
//       pcie_st       {D3hot, MSI-X enable, MSI-X pending}
//       msix_addr, msix_data, msix_mask     msix.addr, msix.ctrl (entry 0)
//   `NIC_SMFU_CFG_PORTS(i)       smfu.* / notify.* configuration the side reads:
//       sm_timeout, sm_passthru, sm_up_node   smfu.ctrl
//       sm_eg_start/end/valid/node[i]       egress interval i (smfu.eg_*i)
//       sm_in_base[i]                       ingress base of interval i
//       nq_win_base, nq_win_size, nq_ring_base, nq_enable, nq_log2, nq_cons
//       rma_win_en, rma_win_base                rma.win (root-port role: nic_rma_win)
//                                           notify.* (ring, window, consumer)
//       dma_enforce, dma_base[w], dma_limit[w], dma_perm[w]   dma.* (root-port role:
//                                           nic_dma_win): enforce, window w's first and
//                                           last page (address bits 63:12), {write, read};
//                                           8 windows (dma.win_base0..7)
//   `NIC_SMFU_ST_PORTS(o)        smfu.* / notify.* status the side drives (the
//                                other role's read 0), irq_notify: pulse,
//                                info.irq_status.notify hwset; dma.refused
//                                {writes, reads}, dma.last (address, {write, valid})
//
//   `NIC_FLASH_PORTS(o, i)       the configuration flash and the boot identity
//                                (nic_flash, docs/flash.md "Controller"):
//       flash_sck, flash_cs_n, flash_dq0 (o), flash_dq1 (i)   SPI x1 pins
//       reload_req (o, pulse), reload_addr (o)   reconfiguration request
//       boot_slot (i)     what the identity came from: 0 build-time parameters,
//                         1 fallback slot, 2 update slot (static, registered)
//       boot_version, boot_build (i)   info.version / info.build when
//                         boot_slot != 0 (the image's identity); with boot_slot 0
//                         boot_build is ORed into the BUILD_* parameters (the
//                         co-simulation's run-time build id; a board ties it 0)
//   `NIC_FLASH_CONNECT           the same names connected to the same names
//
// Uses the parameter NIVL. Write a comma after a macro as after a port.
// `include this file at the top of a file (it has a guard).

`ifndef NIC_PORTS_SVH
`define NIC_PORTS_SVH

`define NIC_FLASH_PORTS(o, i) \
  o logic        flash_sck, \
  o logic        flash_cs_n, \
  o logic        flash_dq0, \
  i logic        flash_dq1, \
  o logic        reload_req, \
  o logic [31:0] reload_addr, \
  i logic [1:0]  boot_slot, \
  i logic [47:0] boot_version, \
  i logic [63:0] boot_build

`define NIC_FLASH_CONNECT \
  .flash_sck, .flash_cs_n, .flash_dq0, .flash_dq1, .reload_req, .reload_addr, \
  .boot_slot, .boot_version, .boot_build

`define NIC_PCIE_STATE_PORTS(o, i) \
  o logic [15:0] cpl_id, \
  o logic        mem_en, \
  o logic        bus_master, \
  o logic        intx_disable, \
  o logic        ev_rx_tlp, \
  o logic        ev_tx_tlp, \
  o logic        ev_ur, \
  o logic        ev_drop, \
  o logic        ev_aperture, \
  o logic [5:0]  pcie_ev, \
  o logic [2:0]  pcie_st, \
  i logic [63:0] msix_addr, \
  i logic [31:0] msix_data, \
  i logic        msix_mask

`define NIC_SMFU_CFG_PORTS(i) \
  i logic [15:0]           sm_timeout, \
  i logic                  sm_passthru, \
  i logic [15:0]           sm_up_node, \
  i logic [NIVL-1:0][63:0] sm_eg_start, \
  i logic [NIVL-1:0][63:0] sm_eg_end, \
  i logic [NIVL-1:0]       sm_eg_valid, \
  i logic [NIVL-1:0][15:0] sm_eg_node, \
  i logic [NIVL-1:0][63:0] sm_in_base, \
  i logic [63:0]           nq_win_base, \
  i logic [63:0]           nq_win_size, \
  i logic [63:0]           nq_ring_base, \
  i logic                  nq_enable, \
  i logic [3:0]            nq_log2, \
  i logic [31:0]           nq_cons, \
  i logic                  rma_win_en, \
  i logic [63:0]           rma_win_base, \
  i logic                  dma_enforce, \
  i logic [7:0][51:0]      dma_base, \
  i logic [7:0][51:0]      dma_limit, \
  i logic [7:0][1:0]       dma_perm

`define NIC_SMFU_ST_PORTS(o) \
  o logic [31:0] st_eg_hits, \
  o logic [31:0] st_eg_misses, \
  o logic [31:0] st_timeouts, \
  o logic [31:0] st_up_reqs, \
  o logic [31:0] st_in_reqs, \
  o logic [31:0] st_nq_prod, \
  o logic [31:0] st_nq_full_stalls, \
  o logic [31:0] st_nq_events, \
  o logic        irq_notify, \
  o logic [1:0][31:0] st_dma_refused, \
  o logic [63:2] st_dma_last_addr, \
  o logic [1:0]  st_dma_last_kind

`endif  // NIC_PORTS_SVH
