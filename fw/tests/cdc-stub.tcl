# SPDX-License-Identifier: Apache-2.0
#
# fw/tests/cdc-stub.tcl CDC.tcl: runs the crossings' constraints (fw/boards/common/cdc.tcl)
# in plain tclsh, with the Vivado commands it uses as stubs over a made-up netlist (one
# async_fifo with its two sync_bits, one sync_bit outside it, one sync_reset; two
# clocks of 4.0 and 6.4 ns). What it checks is the script's Tcl and its flow (quoting,
# the instance search, which constraints it issues), not Vivado's behaviour: test fw-u250.
set cells {
    u/fifo async_fifo u u/fifo/u_wptr_sync sync_bit u/fifo u/fifo/u_rptr_sync sync_bit u/fifo
    u/sb sync_bit u u/rs sync_reset u
}
array set ref {}; array set par {}
foreach {c r p} $cells { set ref($c) $r; set par($c) $p }
set ref(u) top; set par(u) {}
proc get_cells {args} {
    global ref
    set a [lsearch -inline -not -all $args -*]
    set f [lindex $args [expr {[lsearch $args -filter] + 1}]]
    if {[lsearch $args -filter] >= 0} {
        regexp {REF_NAME == (\w+)} $f -> want
        set out {}
        foreach c [array names ref] { if {$ref($c) eq $want} { lappend out $c } }
        return [lsort $out]
    }
    set p [lindex $a 0]
    if {[info exists ref($p)]} { return $p }
    if {[regexp {^(u/fifo)/(wgray_q|rgray_q)_reg\[\*\]$} $p]} { return "$p.0 $p.1" }
    if {[regexp {^u/fifo/u_[wr]ptr_sync/chain_q_reg\[0\]\[\*\]$} $p]} { return "$p.0" }
    if {[regexp {^u/fifo/mem_q_reg\*$} $p]} { return "$p.ram" }
    if {[regexp {^u/sb/chain_q_reg\[0\]\[\*\]$} $p]} { return "$p.0" }
    if {[regexp {^u/rs/chain_q_reg\[\*\]$} $p]} { return "$p.0 $p.1" }
    return {}
}
proc get_clocks {args} { return {clk_a clk_b} }
proc all_clocks {} { return {clk_a clk_b} }
proc get_pins {args} { return {pin} }
proc get_property {name obj} {
    global ref par
    switch $name {
        PERIOD { return [expr {$obj eq "clk_a" ? 4.0 : 6.4}] }
        PARENT { return $par($obj) }
        REF_NAME - ORIG_REF_NAME { return [expr {[info exists ref($obj)] ? $ref($obj) : ""}] }
    }
}
set ::n_max 0; set ::n_false 0
proc set_max_delay {args} { incr ::n_max; puts "set_max_delay $args" }
proc set_false_path {args} { incr ::n_false; puts "set_false_path $args" }
source [lindex $argv 0]
puts "stub: $::n_max set_max_delay, $::n_false set_false_path"
