# SPDX-License-Identifier: Apache-2.0
# RTL file list of unit vendor/boards/u250: the host NIC on an Alveo U250 (board top,
# wiring only; fw/README.md "Board: Alveo U250"). The Vivado build (fw/boards/u250/build.sh)
# reads exactly this unit; lint adds vendor/boards/stubs for the primitives and the IP.
# Format: docs/rtl-build.md.

@vendor

extoll_u250.sv
