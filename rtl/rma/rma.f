# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit rma: the RMA unit (one-sided put / get by descriptor over the SMFU's
# pass-through packets, docs/rma.md).
# Format (@UNIT, FILE.sv, FILE.svh, FILE.vlt): docs/rtl-build.md.

@gen/net_pkg
@lib
@smfu

rma_sbuf.sv
rma_unit.sv
rma_port.sv
