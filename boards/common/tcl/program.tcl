# solonic: load a bitstream over JTAG, or write the configuration flash.
#   vivado -mode batch -source program.tcl -tclargs BOARD jtag|flash FILE.bit
# The board's USB-JTAG must be the only target on the local hw_server.
set board [lindex $argv 0]
set what  [lindex $argv 1]
set bit   [lindex $argv 2]
source [file join [file dirname [info script]] .. .. $board board.tcl]

open_hw_manager
connect_hw_server
open_hw_target
set dev [lindex [get_hw_devices $hw_device] 0]
current_hw_device $dev
refresh_hw_device -update_hw_probes false $dev

if {$what eq "jtag"} {
  set_property PROGRAM.FILE $bit $dev
  program_hw_devices $dev
  puts "program: $bit loaded into $hw_device (lost at power-off; 'make flash' keeps it)"
} else {
  set mcs [file rootname $bit].mcs
  if {![file exists $mcs]} { error "no $mcs: run make bitstream first" }
  create_hw_cfgmem -hw_device $dev [lindex [get_cfgmem_parts $flash_part] 0]
  set mem [get_property PROGRAM.HW_CFGMEM $dev]
  set_property PROGRAM.FILES [list $mcs] $mem
  set_property PROGRAM.ADDRESS_RANGE {use_file} $mem
  set_property PROGRAM.ERASE 1 $mem
  set_property PROGRAM.CFG_PROGRAM 1 $mem
  set_property PROGRAM.VERIFY 1 $mem
  create_hw_bitstream -hw_device $dev [get_property PROGRAM.HW_CFGMEM_BITFILE $dev]
  program_hw_devices $dev
  program_hw_cfgmem -hw_cfgmem $mem
  boot_hw_device $dev
  puts "flash: $mcs written to $flash_part; the board boots it at power-on"
}
close_hw_manager
