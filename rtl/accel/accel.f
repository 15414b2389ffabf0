# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit accel: the sample PCIe accelerator accel_top (docs/accelerator.md).
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@lib
@gen/accel_regs
@gen/net_pkg

accel_pkg.sv
accel_func.svh
accel_devmem.sv
accel_regs.sv
accel_target.sv
accel_job.sv
accel_beat_fifo.sv
accel_tx_arb.sv
accel_rx_demux.sv
accel_top.sv
