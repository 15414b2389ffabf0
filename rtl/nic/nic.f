# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit nic: the NIC tops extoll_nic (both roles) and naa_node (NIC + sample
# accelerator), and their units (docs/nic.md).
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@gen/extoll_regs
@pcie
@net
@smfu
@accel
@rma

nic_cpuif_arb.sv
nic_own.sv
nic_smfu_gate.sv
nic_net_rx.sv
nic_net_tx.sv
nic_pkt_port.svh
nic_rra_req.sv
nic_rra_rsp.sv
nic_host_wr.sv
nic_pkt_dispatch.sv
nic_fwd_pkt.sv
nic_rra_unit.sv
nic_reg_hw.sv
nic_flash.sv
nic_reg_map.sv
nic_net_fence.sv
nic_core.sv
nic_cpl_split.sv
nic_rma_win.sv
nic_dma_win.sv
nic_ports.svh
nic_side_ports.svh
nic_side_params.svh
nic_ep_side.sv
nic_rp_side.sv
extoll_nic.sv
naa_intx.sv
naa_dev.sv
naa_node.sv
