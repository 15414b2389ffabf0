# SPDX-License-Identifier: Apache-2.0
#
# Non-project Vivado build of extoll_u250 for the Alveo U250: IP, synthesis, placement,
# routing, bitstream, configuration-memory file for the MT25QU01G (SPI x4).
# Run by fw/boards/u250/build.sh, which resolves the RTL unit lists and writes
# sources.tcl (the only input this script reads besides the files it names):
#
#   vivado -mode batch -source fw/boards/u250/build.tcl -tclargs OUT/sources.tcl
#
# sources.tcl sets: PART, TOP, OUT, SRCS (SystemVerilog, compile order), INCDIRS, XDC,
# CDC_TCL (the crossings' constraints, sourced after synthesis), IP_TCL, GENERICS (name=value), CFGMEM_SIZE (MiB of the flash part).
# Products in OUT: extoll_u250.bit, extoll_u250.bin (+ .prm, from write_cfgmem),
# checkpoints and reports (utilization, timing summary). Not run here: there is no
# Vivado on the project's machines (fw/README.md).

if {[llength $argv] != 1} {
    puts stderr "usage: vivado -mode batch -source build.tcl -tclargs OUT/sources.tcl"
    exit 2
}
source [lindex $argv 0]
file mkdir $OUT

# ---------------------------------------------------------------------------
# IP: generated in memory from its Tcl (ip/pcie4_u250.tcl), synthesized out of context
# ---------------------------------------------------------------------------
create_project -in_memory -part $PART
set_property target_language Verilog [current_project]
set ipdir $OUT/ip
file mkdir $ipdir
source $IP_TCL
foreach ip [get_ips] {
    set_property GENERATE_SYNTH_CHECKPOINT true [get_files [get_property IP_FILE $ip]]
    generate_target all $ip
    synth_ip $ip
}

# ---------------------------------------------------------------------------
# RTL from the unit lists (rtl/**/*.f, resolved by mk/rtl-files.sh), constraints
# ---------------------------------------------------------------------------
read_verilog -sv $SRCS
read_xdc $XDC

set generic_args {}
foreach g $GENERICS { lappend generic_args -generic $g }
synth_design -top $TOP -part $PART -include_dirs $INCDIRS -verilog_define SYNTHESIS \
    {*}$generic_args
# the clock-domain crossings (fw/boards/common/cdc.tcl): on the synthesized cells
source $CDC_TCL
write_checkpoint -force $OUT/post_synth.dcp
report_utilization -hierarchical -file $OUT/utilization_synth.rpt

opt_design
place_design
phys_opt_design
write_checkpoint -force $OUT/post_place.dcp
route_design
write_checkpoint -force $OUT/post_route.dcp
report_utilization -file $OUT/utilization.rpt
report_timing_summary -max_paths 20 -file $OUT/timing_summary.rpt

# Fail on timing: a bitstream with negative slack is not written.
set wns [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]]
if {$wns < 0} {
    puts stderr "build.tcl: timing not met (WNS $wns ns): see $OUT/timing_summary.rpt"
    exit 1
}

# ---------------------------------------------------------------------------
# Bitstream and the flash file (SPI x4, 1 Gbit part), laid out from address 0: the
# image is the same for either slot; build.sh wraps the .bin into the project's flash
# image with naaimg, and whoever programs it (devlink dev flash) puts it at its slot's
# offset (fallback 0, update 64 MiB: docs/flash.md)
# ---------------------------------------------------------------------------
write_bitstream -force $OUT/$TOP.bit
write_cfgmem -force -format bin -interface SPIx4 -size $CFGMEM_SIZE \
    -loadbit "up 0x00000000 $OUT/$TOP.bit" -file $OUT/$TOP.bin
puts "build.tcl: $OUT/$TOP.bit, $OUT/$TOP.bin"
