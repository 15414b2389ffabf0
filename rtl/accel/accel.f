# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit accel: the sample PCIe accelerator accel_top (docs/accelerator.md).
# Read by mk/rtl-files.sh for lint, synthesis, testbenches and the co-simulation
# models (docs/rtl-build.md). One entry a line, paths relative to this file:
#   @UNIT      a unit this one depends on      FILE.sv   a source, in compile order
#   FILE.svh   a header (its dir is -I)        FILE.vlt  Verilator waivers
# Adding a file to the unit is adding its line here.

@lib
@gen/accel_regs

accel_pkg.sv
accel_func.svh
accel_devmem.sv
accel_cfg.sv
accel_regs.sv
accel_target.sv
accel_job.sv
accel_tx_arb.sv
accel_rx_demux.sv
accel_top.sv
