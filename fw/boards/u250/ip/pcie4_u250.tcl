# SPDX-License-Identifier: Apache-2.0
#
# The PCIe hard IP of extoll_u250: Xilinx UltraScale+ Integrated Block for PCI Express
# (pcie4_uscale_plus, PG213), configured the way the adapter rtl/vendor/xilinx expects
# (docs/hard-ip.md "IP configuration the adapter expects"). Sourced by
# fw/boards/u250/build.tcl inside an in-memory project (create_project -in_memory), which
# sets ipdir (where the IP's files go);
# the instance's module name is pcie4_u250 (the lint-only black box of the same name is
# rtl/vendor/boards/stubs/pcie4_u250.sv).
#
# Link and width: the adapter's AXI-Stream interfaces are 128 bits wide today, and a
# 128-bit PCIE4 interface at 250 MHz carries Gen3 x4 (the cocotb test's configuration).
# The U250's edge is x16: a x4 endpoint trains at x4 in the x16 slot (about 3.9 GB/s per
# direction instead of 15.8). Gen3 x16 needs the 512-bit interface at 250 MHz, and with
# it: a 512 <-> 128-bit width converter in front of pcie_usp_if (or 512-bit versions of
# its four converters), the 512-bit tuser layouts (CQ 183, CC 81, RQ 137, RC 161 bits),
# straddling left off (AXISTEN_IF_EXT_512_*_STRADDLE false) so that one TLP starts per
# beat, and the NIC core clock at 250 MHz or a wider NIC datapath to keep up
# (fw/README.md, "Board: Alveo U250").
#
# Property names as in AMD's IP catalog (report_property [get_ips pcie4_u250] lists
# them all). Not run here (no Vivado): TODO check in Vivado that every value takes.

create_ip -name pcie4_uscale_plus -vendor xilinx.com -library ip -module_name pcie4_u250 \
    -dir $ipdir

set_property -dict [list \
    CONFIG.mode_selection               {Advanced} \
    CONFIG.device_port_type             {PCI_Express_Endpoint_device} \
    CONFIG.PL_LINK_CAP_MAX_LINK_SPEED   {8.0_GT/s} \
    CONFIG.PL_LINK_CAP_MAX_LINK_WIDTH   {X4} \
    CONFIG.axisten_if_width             {128_bit} \
    CONFIG.axisten_freq                 {250} \
    CONFIG.axisten_if_enable_client_tag {true} \
    CONFIG.extended_tag_field           {false} \
    CONFIG.pf0_dev_cap_max_payload      {256_bytes} \
    CONFIG.vendor_id                    {1ee7} \
    CONFIG.PF0_DEVICE_ID                {0001} \
    CONFIG.PF0_CLASS_CODE               {028000} \
    CONFIG.PF0_INTERRUPT_PIN            {NONE} \
    CONFIG.pf0_bar0_enabled             {true} \
    CONFIG.pf0_bar0_64bit               {false} \
    CONFIG.pf0_bar0_prefetchable        {false} \
    CONFIG.pf0_bar0_scale               {Kilobytes} \
    CONFIG.pf0_bar0_size                {64} \
    CONFIG.pf0_bar2_enabled             {true} \
    CONFIG.pf0_bar2_64bit               {false} \
    CONFIG.pf0_bar2_prefetchable        {false} \
    CONFIG.pf0_bar2_scale               {Megabytes} \
    CONFIG.pf0_bar2_size                {256} \
    CONFIG.pf0_bar4_enabled             {false} \
    CONFIG.pf0_msi_enabled              {false} \
    CONFIG.pf0_msix_enabled             {true} \
    CONFIG.MSI_X_OPTIONS                {MSI-X_External} \
    CONFIG.PF0_MSIX_CAP_TABLE_SIZE      {000} \
    CONFIG.PF0_MSIX_CAP_TABLE_BIR       {BAR_0} \
    CONFIG.PF0_MSIX_CAP_TABLE_OFFSET    {00001000} \
    CONFIG.PF0_MSIX_CAP_PBA_BIR         {BAR_0} \
    CONFIG.PF0_MSIX_CAP_PBA_OFFSET      {00001800} \
] [get_ips pcie4_u250]

# What the adapter also relies on and the IP gives by default at 128 bits: dword-aligned
# CQ/CC/RQ/RC (not address-aligned), no straddling, tuser widths CQ 88, CC 33, RQ 62,
# RC 75. TODO (Vivado): the GT quad for the x4 link must be the one u250.xdc places
# lanes 0..3 in (GTY quad 227, reference clock in quad 226).
