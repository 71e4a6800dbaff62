# tcl_dryrun.tcl: run the board flow's Tcl (build.tcl, program.tcl) and the
# XDC files with tclsh instead of Vivado, every Vivado command replaced by a
# stub that records its call; any other unknown command is an error. What it
# checks by running: Tcl syntax, the flow's logic (the board.tcl variables it
# needs, the MEM option, the IP cores it creates, the files it reads), and the
# XDC's port constraints, which tests/boards/test_flow_tcl.py compares with the
# RTL. Output: one record per line on stdout, its fields separated by tabs:
#   ip NAME MODULE KEY VALUE... create_ip + set_property -dict on it
#   xdc FILE                   read_xdc
#   generic TEXT               synth_design -generic
#   port NAME PROP VALUE       set_property on [get_ports NAME] in an XDC
#   hw CMD                     a hardware-manager command of program.tcl
#
# usage: tclsh tcl_dryrun.tcl build BOARDS_DIR BOARD MEM
#        tclsh tcl_dryrun.tcl program BOARDS_DIR BOARD jtag|flash BITFILE
#        tclsh tcl_dryrun.tcl xdc FILE...
# Run it in a scratch directory: build.tcl creates ip/ and writes imem_brams.csv.

set mode [lindex $argv 0]
set sub [interp create]

proc rec {args} { puts [join $args \t] }
interp alias $sub rec {} rec

$sub eval {
  rename unknown _tcl_unknown
  proc unknown {args} { error "tcl_dryrun: unknown command '[lindex $args 0]' (not Tcl, not a stubbed Vivado command)" }

  # an object returned by a get_* stub: {kind names}
  proc obj {kind names} { return [list __obj $kind $names] }
  proc is_obj {x} { expr {[llength $x] == 3 && [lindex $x 0] eq "__obj"} }

  # ---- build.tcl
  foreach c {create_project write_checkpoint report_utilization opt_design place_design
             phys_opt_design route_design report_timing_summary report_clock_interaction
             report_cdc write_mem_info write_bitstream write_cfgmem generate_target synth_ip
             read_verilog} {
    proc $c {args} {}
  }
  proc current_project {args} { obj project current }
  proc current_design {args} { obj design current }
  proc get_ips {name} { obj ip $name }
  proc create_ip {args} {
    array set o {}
    foreach {k v} $args { set o($k) $v }
    foreach k {-name -vendor -library -module_name} {
      if {![info exists o($k)]} { error "create_ip without $k" }
    }
    set ::ips($o(-module_name)) $o(-name)
  }
  proc read_xdc {f} {
    if {![file exists $f]} { error "read_xdc: no file $f" }
    rec xdc $f
  }
  proc synth_design {args} {
    foreach {k v} $args { if {$k eq "-generic"} { rec generic $v } }
  }
  proc get_cells {args} { obj cell {u_imem/mem_reg_0} }
  proc get_property {prop obj} { obj property $prop }

  # ---- XDC
  proc get_ports {pattern} { obj port $pattern }
  proc get_pins {args} { obj pin $args }
  proc get_clocks {args} { obj clock $args }
  foreach c {create_clock set_false_path set_max_delay set_bus_skew set_input_delay
             set_output_delay set_clock_groups} {
    proc $c {args} {}
  }

  proc set_property {args} {
    if {[lindex $args 0] eq "-dict"} {
      set d [lindex $args 1]; set target [lindex $args 2]
    } else {
      set d [list [lindex $args 0] [lindex $args 1]]; set target [lindex $args 2]
    }
    if {![is_obj $target]} { error "set_property: '$target' is not an object (get_ports, get_ips, ...)" }
    if {[llength $d] % 2} { error "set_property: odd property list '$d'" }
    lassign $target - kind names
    switch $kind {
      ip {
        if {![info exists ::ips($names)]} { error "set_property on IP $names, which was not created" }
        rec ip $::ips($names) $names {*}$d
      }
      port { foreach n $names { foreach {k v} $d { rec port $n $k $v } } }
      default {}
    }
  }

  # ---- program.tcl
  foreach c {open_hw_manager connect_hw_server open_hw_target current_hw_device
             refresh_hw_device program_hw_devices create_hw_cfgmem create_hw_bitstream
             program_hw_cfgmem boot_hw_device close_hw_manager} {
    proc $c {args} [list rec hw $c]
  }
  proc get_hw_devices {args} { list [obj hw_device $args] }
  proc get_cfgmem_parts {args} { list [obj cfgmem_part $args] }
}

switch $mode {
  build {
    lassign [lrange $argv 1 end] boards_dir board mem
    $sub eval [list set argv [list $board $boards_dir fw.hex 0123abcd $mem rtl_a.sv rtl_b.sv]]
    $sub eval [list set argc 7]
    $sub eval [list source [file join $boards_dir common tcl build.tcl]]
  }
  program {
    lassign [lrange $argv 1 end] boards_dir board what bit
    close [open [file rootname $bit].mcs w]
    $sub eval [list set argv [list $board $what $bit]]
    $sub eval [list source [file join $boards_dir common tcl program.tcl]]
  }
  xdc {
    foreach f [lrange $argv 1 end] { $sub eval [list source $f] }
  }
  default { error "usage: tcl_dryrun.tcl build|program|xdc ..." }
}
