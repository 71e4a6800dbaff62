# solonic: non-project Vivado flow for one board (make bitstream BOARD=...).
#   vivado -mode batch -source build.tcl -tclargs BOARD BOARDS_DIR FW_HEX GIT_HASH MEM RTL...
# MEM: the NIC's memory, one of the board's mem_options (board.tcl), or
# "default" for its mem_default.
# Runs in build/boards/<board>/. Creates the CMAC and the memory's IP cores
# from Tcl (no checked-in IP), synthesises with the firmware image in the
# instruction BRAM (IMEM_INIT) and the top's MEM parameter,
# places, routes, writes the bitstream, the reports, and the instruction BRAM's
# cells (imem_brams.csv) from which boards/common/mmi.py writes the MMI file
# updatemem needs.
set board      [lindex $argv 0]
set boards_dir [lindex $argv 1]
set fw_hex     [lindex $argv 2]
set git_hash   [lindex $argv 3]
set mem        [lindex $argv 4]
set rtl        [lrange $argv 5 end]

source [file join $boards_dir $board board.tcl]   ;# part, top, xdc, cmac_config, mem_*

if {$mem eq "default"} { set mem $mem_default }
if {$mem ni $mem_options} {
  error "build.tcl: MEM=$mem is not a memory of $board (one of: $mem_options)"
}
puts "build.tcl: $board with MEM=$mem"

create_project -in_memory -part $part
set_property target_language Verilog [current_project]

# ---- the IP cores: the CMAC and the memory's, each created and synthesised
# out of context; {ip module_name config} each
file mkdir ip
foreach core [concat [list [list cmac_usplus cmac_usplus_0 $cmac_config]] $mem_ips($mem)] {
  lassign $core ip_name module config
  create_ip -name $ip_name -vendor xilinx.com -library ip -module_name $module -dir ip
  set_property -dict $config [get_ips $module]
  generate_target {synthesis implementation instantiation_template} [get_ips $module]
  synth_ip [get_ips $module]
}

# ---- our RTL and constraints
read_verilog -sv $rtl
foreach x $xdc { read_xdc [file join $boards_dir $x] }

synth_design -top $top -part $part \
  -generic "IMEM_INIT=\"$fw_hex\"" -generic "GIT_HASH=32'h$git_hash" -generic "MEM=\"$mem\""
write_checkpoint -force post_synth.dcp
report_utilization -file util_synth.rpt

opt_design
place_design
phys_opt_design
route_design
write_checkpoint -force post_route.dcp
report_utilization -hierarchical -file util_hier.rpt
report_utilization -file util.rpt
report_timing_summary -max_paths 20 -file timing.rpt
report_clock_interaction -file clock_interaction.rpt
report_cdc -file cdc.rpt

# ---- the instruction BRAM's cells for the MMI (updatemem)
set f [open imem_brams.csv w]
puts $f "cell,site,bram_addr_begin,bram_addr_end,bram_slice_begin,bram_slice_end"
set cells [get_cells -hierarchical -filter {PRIMITIVE_TYPE =~ BLOCKRAM.BRAM.* && NAME =~ *u_imem*}]
if {[llength $cells] == 0} { error "no block RAM cells under u_imem: the instruction memory was not mapped to BRAM" }
foreach c $cells {
  puts $f "$c,[get_property LOC $c],[get_property bram_addr_begin $c],[get_property bram_addr_end $c],[get_property bram_slice_begin $c],[get_property bram_slice_end $c]"
}
close $f
# Vivado's own memory map, for comparison where it supports the design
catch { write_mem_info -force vivado_mem_info.mmi }

write_bitstream -force solonic_$board.bit
# configuration-flash image
write_cfgmem -force -format mcs -size $flash_size_mb -interface $flash_interface \
  -loadbit "up 0x00000000 solonic_$board.bit" solonic_$board.mcs
