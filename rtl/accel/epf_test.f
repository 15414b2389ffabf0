# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit accel/epf_test: the PCI endpoint test function epf_test_top, a variant
# of the sample accelerator that implements Linux's pci-epf-test interface (docs/epf-test.md).
# Read by mk/rtl-files.sh for lint, testbenches and the co-simulation models
# (docs/rtl-build.md). One entry a line, paths relative to this file.

@accel

epf_test_space.sv
epf_test_dma.sv
epf_test_bar_xlate.sv
epf_test_top.sv
