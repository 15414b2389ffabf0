# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit vendor/boards/u250_lint: the U250 board top with the lint-only
# black boxes of the Xilinx primitives and the PCIe IP (`make -C rtl/vendor lint`).
# Vivado reads vendor/boards/u250 instead. Format: docs/rtl-build.md.

@vendor/boards/u250
@vendor/boards/stubs
