# SPDX-License-Identifier: Apache-2.0
#
# Constraints of extoll_u250 (rtl/vendor/boards/u250/extoll_u250.sv) on the AMD/Xilinx
# Alveo U250, part xcu250-figd2104-2-e (fw/README.md "Board: Alveo U250").
#
# Pin locations: taken from public material, not from a card on a bench here. Source:
# the Alveo U250 constraints of Corundum (github.com/corundum/corundum,
# fpga/mqnic/AU250/fpga_100g/fpga.xdc; its locations follow AMD's U250 board files and
# user guide UG1289). Not checked against UG1289 here: check before the first build.
# fw/tools/check-xdc.py (test fw-u250) checks that every port named here is a port of
# the top and that every port of the top is constrained.
#
# The configuration flash (MT25QU01G) sits on the dedicated configuration pins (CCLK,
# FCS_B, D00..D03); the design reaches it through STARTUPE3, so it has no LOC here.

# ---------------------------------------------------------------------------
# Configuration: SPI x4 from the MT25QU01G, 32-bit addresses (a 1 Gbit part),
# fallback to the golden image at address 0 if the update image fails (docs/flash.md)
# ---------------------------------------------------------------------------
set_property CFGBVS GND                                [current_design]
set_property CONFIG_VOLTAGE 1.8                        [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE           [current_design]
set_property BITSTREAM.CONFIG.CONFIGFALLBACK ENABLE    [current_design]
set_property BITSTREAM.CONFIG.EXTMASTERCCLK_EN DISABLE [current_design]
set_property BITSTREAM.CONFIG.CONFIGRATE 63.8          [current_design]
set_property BITSTREAM.CONFIG.SPI_32BIT_ADDR YES       [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4           [current_design]
set_property BITSTREAM.CONFIG.SPI_FALL_EDGE YES        [current_design]
set_property BITSTREAM.CONFIG.UNUSEDPIN PULLUP         [current_design]

# ---------------------------------------------------------------------------
# PCIe: reference clock (MGTREFCLK0 of GTY quad 226), PERST#, lanes 0..3
# (GTY quad 227). The IP (ip/pcie4_u250.tcl) must select the same GT quad for
# a x4 link: TODO check the IP's lane placement in Vivado before the first build.
# GT pins take a location only (the _n pin follows the _p pin).
# ---------------------------------------------------------------------------
set_property -dict {LOC AM11} [get_ports pcie_refclk_p]   ;# MGTREFCLK0P_226
set_property -dict {LOC BD21 IOSTANDARD LVCMOS12 PULLUP true} [get_ports pcie_reset_n]
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_p]

set_property -dict {LOC AF2} [get_ports {pcie_rx_p[0]}]   ;# MGTYRXP3_227
set_property -dict {LOC AF7} [get_ports {pcie_tx_p[0]}]   ;# MGTYTXP3_227
set_property -dict {LOC AG4} [get_ports {pcie_rx_p[1]}]   ;# MGTYRXP2_227
set_property -dict {LOC AG9} [get_ports {pcie_tx_p[1]}]   ;# MGTYTXP2_227
set_property -dict {LOC AH2} [get_ports {pcie_rx_p[2]}]   ;# MGTYRXP1_227
set_property -dict {LOC AH7} [get_ports {pcie_tx_p[2]}]   ;# MGTYTXP1_227
set_property -dict {LOC AJ4} [get_ports {pcie_rx_p[3]}]   ;# MGTYRXP0_227
set_property -dict {LOC AJ9} [get_ports {pcie_tx_p[3]}]   ;# MGTYTXP0_227

# ---------------------------------------------------------------------------
# 300 MHz board clock (the DDR4 channel 0 reference) -> MMCM -> NIC core clock
# ---------------------------------------------------------------------------
set_property -dict {LOC AY37 IOSTANDARD LVDS} [get_ports clk_300_p]
set_property -dict {LOC AY38 IOSTANDARD LVDS} [get_ports clk_300_n]
create_clock -period 3.333 -name clk_300 [get_ports clk_300_p]

# The IP's user clock and the NIC core clock are unrelated: every path between them
# goes through nic_hip_cdc (async_fifo, sync_bit) or a sync_reset, whose paths
# fw/boards/common/cdc.tcl bounds (build.tcl sources it after synthesis). No
# set_clock_groups here: it would override those bounds, and any other path between
# the clocks must fail timing.

# ---------------------------------------------------------------------------
# DIP switches (node id strap), LEDs
# ---------------------------------------------------------------------------
set_property -dict {LOC AN22 IOSTANDARD LVCMOS12} [get_ports {sw[0]}]
set_property -dict {LOC AM19 IOSTANDARD LVCMOS12} [get_ports {sw[1]}]
set_property -dict {LOC AL19 IOSTANDARD LVCMOS12} [get_ports {sw[2]}]
set_property -dict {LOC AP20 IOSTANDARD LVCMOS12} [get_ports {sw[3]}]
set_property -dict {LOC BC21 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[0]}]
set_property -dict {LOC BB21 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[1]}]
set_property -dict {LOC BA20 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[2]}]
set_false_path -from [get_ports {sw[*]}]
set_false_path -to   [get_ports {led[*]}]

# ---------------------------------------------------------------------------
# QSFP28 management pins (the modules are held in reset: no link PHY yet)
# ---------------------------------------------------------------------------
set_property -dict {LOC BE16 IOSTANDARD LVCMOS12} [get_ports qsfp0_modsell]
set_property -dict {LOC BE17 IOSTANDARD LVCMOS12} [get_ports qsfp0_resetl]
set_property -dict {LOC BE20 IOSTANDARD LVCMOS12} [get_ports qsfp0_modprsl]
set_property -dict {LOC BE21 IOSTANDARD LVCMOS12} [get_ports qsfp0_intl]
set_property -dict {LOC BD18 IOSTANDARD LVCMOS12} [get_ports qsfp0_lpmode]
set_property -dict {LOC AY20 IOSTANDARD LVCMOS12} [get_ports qsfp1_modsell]
set_property -dict {LOC BC18 IOSTANDARD LVCMOS12} [get_ports qsfp1_resetl]
set_property -dict {LOC BC19 IOSTANDARD LVCMOS12} [get_ports qsfp1_modprsl]
set_property -dict {LOC AV21 IOSTANDARD LVCMOS12} [get_ports qsfp1_intl]
set_property -dict {LOC AV22 IOSTANDARD LVCMOS12} [get_ports qsfp1_lpmode]
set_false_path -to   [get_ports {qsfp0_modsell qsfp0_resetl qsfp0_lpmode qsfp1_modsell qsfp1_resetl qsfp1_lpmode}]
set_false_path -from [get_ports {qsfp0_modprsl qsfp0_intl qsfp1_modprsl qsfp1_intl}]

# ---------------------------------------------------------------------------
# For the link PHY (not written: fw/README.md). Not ports of the top today, so not
# constrained; the locations, from the same source, for whoever writes it:
#   QSFP0 (cage 0): GTY quad 231, lanes 1..4 RX N4 M2 L4 K2, TX N9 M7 L9 K7;
#          reference clocks MGTREFCLK0_231 M11 (SI570, 156.25 MHz),
#          MGTREFCLK1_231 K11 (SI5335, 156.25 or 161.1328125 MHz by its FS pins
#          AT20/AU22, reset AT22)
#   QSFP1 (cage 1): GTY quad 230, lanes 1..4 RX U4 T2 R4 P2, TX U9 T7 R9 P7;
#          MGTREFCLK0_230 T11 (SI570), MGTREFCLK1_230 P11 (SI5335, FS AR22/AU20,
#          reset AR21)
# ---------------------------------------------------------------------------
