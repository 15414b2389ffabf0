# SPDX-License-Identifier: Apache-2.0
#
# Timing constraints of every clock-domain crossing of the NIC, for Vivado. Sourced by a
# board's build.tcl after synth_design (the cells below exist in the synthesized netlist;
# non-project mode keeps the constraints in memory through placement and routing).
#
# Every path between unrelated clocks must start or end in one of three modules of
# rtl/lib (fw/README.md "Constraints on the crossings"):
#
#   async_fifo  Gray pointers, each into a sync_bit of the other domain; the storage,
#               read combinationally in the read domain. Pointer paths get at most one
#               period of the faster clock (bounded skew: the bits of one pointer step
#               arrive within one sample, so the reader sees at most one step old); the
#               storage into the read domain one read period (an entry is stable for
#               SYNC_STAGES read edges before the reader sees its pointer).
#   sync_bit    (outside an async_fifo) a level or Gray/toggle value into its chain:
#               one period of the destination clock.
#   sync_reset  its asynchronous assertion: a false path into the preset pins.
#
# No set_clock_groups -asynchronous between the PCIe user clock, the core clock and the
# link clocks (it would override the bounds above): any other path between them is
# timed as a synchronous one and fails timing, which is the point: a crossing that does
# not go through these modules is a bug.
#
# fw/tools/check-cdc.py (test fw-u250) checks that every cell this script names is
# declared in the module's RTL under that name.

# cells of module REF: parameterized copies are renamed (REF__parameterized0), their
# ORIG_REF_NAME is REF
proc cdc_cells {ref} {
    return [get_cells -quiet -hierarchical -filter "REF_NAME == $ref || ORIG_REF_NAME == $ref"]
}

# the smallest period of the clocks that clock CELLS (0 when none)
proc cdc_period {cells} {
    set p 0
    foreach c [get_clocks -quiet -of_objects $cells] {
        set cp [get_property PERIOD $c]
        if {$p == 0 || $cp < $p} { set p $cp }
    }
    return $p
}

set cdc_n 0

# ---------------------------------------------------------------------------
# async_fifo
# ---------------------------------------------------------------------------
foreach inst [cdc_cells async_fifo] {
    set wptr [get_cells -quiet "$inst/wgray_q_reg\[*\]"]
    set rptr [get_cells -quiet "$inst/rgray_q_reg\[*\]"]
    set wsync [get_cells -quiet "$inst/u_wptr_sync/chain_q_reg\[0\]\[*\]"]
    set rsync [get_cells -quiet "$inst/u_rptr_sync/chain_q_reg\[0\]\[*\]"]
    set mem [get_cells -quiet "$inst/mem_q_reg*"]
    set wper [cdc_period $wptr]
    set rper [cdc_period $rptr]
    if {$wper == 0 || $rper == 0 || [llength $wsync] == 0 || [llength $rsync] == 0} {
        puts "cdc.tcl: WARNING: $inst: pointers, synchronisers or clocks not found, not constrained"
        continue
    }
    set per [expr {min($wper, $rper)}]
    set_max_delay -datapath_only -from $wptr -to $wsync $per
    set_max_delay -datapath_only -from $rptr -to $rsync $per
    if {[llength $mem] > 0} {
        set_max_delay -datapath_only -from $mem -to [get_clocks -of_objects $rptr] $rper
    }
    puts "cdc.tcl: async_fifo $inst: pointers $per ns, storage $rper ns"
    incr cdc_n
}

# ---------------------------------------------------------------------------
# sync_bit (those inside an async_fifo are done above)
# ---------------------------------------------------------------------------
foreach inst [cdc_cells sync_bit] {
    set parent [get_cells -quiet [get_property PARENT $inst]]
    if {[llength $parent] > 0 && "async_fifo" in [list [get_property REF_NAME $parent] \
            [get_property ORIG_REF_NAME $parent]]} { continue }
    set first [get_cells -quiet "$inst/chain_q_reg\[0\]\[*\]"]
    set per [cdc_period $first]
    if {$per == 0} {
        puts "cdc.tcl: WARNING: $inst: chain or clock not found, not constrained"
        continue
    }
    set_max_delay -datapath_only -from [all_clocks] -to $first $per
    puts "cdc.tcl: sync_bit $inst: $per ns"
    incr cdc_n
}

# ---------------------------------------------------------------------------
# sync_reset
# ---------------------------------------------------------------------------
foreach inst [cdc_cells sync_reset] {
    set chain [get_cells -quiet "$inst/chain_q_reg\[*\]"]
    if {[llength $chain] == 0} {
        puts "cdc.tcl: WARNING: $inst: chain not found, not constrained"
        continue
    }
    set_false_path -to [get_pins -of_objects $chain -filter {IS_PRESET || IS_CLEAR}]
    puts "cdc.tcl: sync_reset $inst"
    incr cdc_n
}

puts "cdc.tcl: $cdc_n crossings constrained"
