# solonic on the AMD VCU118: DDR4 channel C1, the NIC's memory when MEM = ddr4
# (boards/vcu118/rtl/vcu118_ddr4.sv, docs/boards.md "Memory"). Read in every
# build: with MEM = uram the pins stay ports of vcu118_top (DRAM held in reset).
# Pins: components U60..U63 (x16 each: dq, dqs, dm/dbi) as the 64-bit channel,
# the fifth component U64 (ECC byte) unused. UNVERIFIED: taken from one public
# design (Corundum's VCU118 XDC, fpga/mqnic/VCU118/fpga_100g/fpga.xdc, C1 with
# MT40A256M16GE-075E), not cross-checked here against UG1224 or AMD's VCU118
# board files. The controller's own constraints (its clocks, the I/O timing)
# come with the IP core.

# the controller's reference clock: 250 MHz, differential (UNVERIFIED: as above)
set_property -dict {PACKAGE_PIN E12 IOSTANDARD DIFF_SSTL12} [get_ports clk_250mhz_1_p]
set_property -dict {PACKAGE_PIN D12 IOSTANDARD DIFF_SSTL12} [get_ports clk_250mhz_1_n]

# adr: SSTL12_DCI
set_property IOSTANDARD SSTL12_DCI [get_ports {ddr4_c1_adr[*]}]
set_property PACKAGE_PIN D14  [get_ports {ddr4_c1_adr[0]}]
set_property PACKAGE_PIN B15  [get_ports {ddr4_c1_adr[1]}]
set_property PACKAGE_PIN B16  [get_ports {ddr4_c1_adr[2]}]
set_property PACKAGE_PIN C14  [get_ports {ddr4_c1_adr[3]}]
set_property PACKAGE_PIN C15  [get_ports {ddr4_c1_adr[4]}]
set_property PACKAGE_PIN A13  [get_ports {ddr4_c1_adr[5]}]
set_property PACKAGE_PIN A14  [get_ports {ddr4_c1_adr[6]}]
set_property PACKAGE_PIN A15  [get_ports {ddr4_c1_adr[7]}]
set_property PACKAGE_PIN A16  [get_ports {ddr4_c1_adr[8]}]
set_property PACKAGE_PIN B12  [get_ports {ddr4_c1_adr[9]}]
set_property PACKAGE_PIN C12  [get_ports {ddr4_c1_adr[10]}]
set_property PACKAGE_PIN B13  [get_ports {ddr4_c1_adr[11]}]
set_property PACKAGE_PIN C13  [get_ports {ddr4_c1_adr[12]}]
set_property PACKAGE_PIN D15  [get_ports {ddr4_c1_adr[13]}]
set_property PACKAGE_PIN H14  [get_ports {ddr4_c1_adr[14]}]
set_property PACKAGE_PIN H15  [get_ports {ddr4_c1_adr[15]}]
set_property PACKAGE_PIN F15  [get_ports {ddr4_c1_adr[16]}]

# ba: SSTL12_DCI
set_property IOSTANDARD SSTL12_DCI [get_ports {ddr4_c1_ba[*]}]
set_property PACKAGE_PIN G15  [get_ports {ddr4_c1_ba[0]}]
set_property PACKAGE_PIN G13  [get_ports {ddr4_c1_ba[1]}]

# bg: SSTL12_DCI
set_property IOSTANDARD SSTL12_DCI [get_ports ddr4_c1_bg]
set_property PACKAGE_PIN H13  [get_ports ddr4_c1_bg]

# ck_t: DIFF_SSTL12_DCI
set_property IOSTANDARD DIFF_SSTL12_DCI [get_ports ddr4_c1_ck_t]
set_property PACKAGE_PIN F14  [get_ports ddr4_c1_ck_t]

# ck_c: DIFF_SSTL12_DCI
set_property IOSTANDARD DIFF_SSTL12_DCI [get_ports ddr4_c1_ck_c]
set_property PACKAGE_PIN E14  [get_ports ddr4_c1_ck_c]

# cke: SSTL12_DCI
set_property IOSTANDARD SSTL12_DCI [get_ports ddr4_c1_cke]
set_property PACKAGE_PIN A10  [get_ports ddr4_c1_cke]

# cs_n: SSTL12_DCI
set_property IOSTANDARD SSTL12_DCI [get_ports ddr4_c1_cs_n]
set_property PACKAGE_PIN F13  [get_ports ddr4_c1_cs_n]

# act_n: SSTL12_DCI
set_property IOSTANDARD SSTL12_DCI [get_ports ddr4_c1_act_n]
set_property PACKAGE_PIN E13  [get_ports ddr4_c1_act_n]

# odt: SSTL12_DCI
set_property IOSTANDARD SSTL12_DCI [get_ports ddr4_c1_odt]
set_property PACKAGE_PIN C8   [get_ports ddr4_c1_odt]

# reset_n: LVCMOS12
set_property IOSTANDARD LVCMOS12 [get_ports ddr4_c1_reset_n]
set_property PACKAGE_PIN N20  [get_ports ddr4_c1_reset_n]

# dq: POD12_DCI
set_property IOSTANDARD POD12_DCI [get_ports {ddr4_c1_dq[*]}]
set_property PACKAGE_PIN F11  [get_ports {ddr4_c1_dq[0]}]
set_property PACKAGE_PIN E11  [get_ports {ddr4_c1_dq[1]}]
set_property PACKAGE_PIN F10  [get_ports {ddr4_c1_dq[2]}]
set_property PACKAGE_PIN F9   [get_ports {ddr4_c1_dq[3]}]
set_property PACKAGE_PIN H12  [get_ports {ddr4_c1_dq[4]}]
set_property PACKAGE_PIN G12  [get_ports {ddr4_c1_dq[5]}]
set_property PACKAGE_PIN E9   [get_ports {ddr4_c1_dq[6]}]
set_property PACKAGE_PIN D9   [get_ports {ddr4_c1_dq[7]}]
set_property PACKAGE_PIN R19  [get_ports {ddr4_c1_dq[8]}]
set_property PACKAGE_PIN P19  [get_ports {ddr4_c1_dq[9]}]
set_property PACKAGE_PIN M18  [get_ports {ddr4_c1_dq[10]}]
set_property PACKAGE_PIN M17  [get_ports {ddr4_c1_dq[11]}]
set_property PACKAGE_PIN N19  [get_ports {ddr4_c1_dq[12]}]
set_property PACKAGE_PIN N18  [get_ports {ddr4_c1_dq[13]}]
set_property PACKAGE_PIN N17  [get_ports {ddr4_c1_dq[14]}]
set_property PACKAGE_PIN M16  [get_ports {ddr4_c1_dq[15]}]
set_property PACKAGE_PIN L16  [get_ports {ddr4_c1_dq[16]}]
set_property PACKAGE_PIN K16  [get_ports {ddr4_c1_dq[17]}]
set_property PACKAGE_PIN L18  [get_ports {ddr4_c1_dq[18]}]
set_property PACKAGE_PIN K18  [get_ports {ddr4_c1_dq[19]}]
set_property PACKAGE_PIN J17  [get_ports {ddr4_c1_dq[20]}]
set_property PACKAGE_PIN H17  [get_ports {ddr4_c1_dq[21]}]
set_property PACKAGE_PIN H19  [get_ports {ddr4_c1_dq[22]}]
set_property PACKAGE_PIN H18  [get_ports {ddr4_c1_dq[23]}]
set_property PACKAGE_PIN F19  [get_ports {ddr4_c1_dq[24]}]
set_property PACKAGE_PIN F18  [get_ports {ddr4_c1_dq[25]}]
set_property PACKAGE_PIN E19  [get_ports {ddr4_c1_dq[26]}]
set_property PACKAGE_PIN E18  [get_ports {ddr4_c1_dq[27]}]
set_property PACKAGE_PIN G20  [get_ports {ddr4_c1_dq[28]}]
set_property PACKAGE_PIN F20  [get_ports {ddr4_c1_dq[29]}]
set_property PACKAGE_PIN E17  [get_ports {ddr4_c1_dq[30]}]
set_property PACKAGE_PIN D16  [get_ports {ddr4_c1_dq[31]}]
set_property PACKAGE_PIN D17  [get_ports {ddr4_c1_dq[32]}]
set_property PACKAGE_PIN C17  [get_ports {ddr4_c1_dq[33]}]
set_property PACKAGE_PIN C19  [get_ports {ddr4_c1_dq[34]}]
set_property PACKAGE_PIN C18  [get_ports {ddr4_c1_dq[35]}]
set_property PACKAGE_PIN D20  [get_ports {ddr4_c1_dq[36]}]
set_property PACKAGE_PIN D19  [get_ports {ddr4_c1_dq[37]}]
set_property PACKAGE_PIN C20  [get_ports {ddr4_c1_dq[38]}]
set_property PACKAGE_PIN B20  [get_ports {ddr4_c1_dq[39]}]
set_property PACKAGE_PIN N23  [get_ports {ddr4_c1_dq[40]}]
set_property PACKAGE_PIN M23  [get_ports {ddr4_c1_dq[41]}]
set_property PACKAGE_PIN R21  [get_ports {ddr4_c1_dq[42]}]
set_property PACKAGE_PIN P21  [get_ports {ddr4_c1_dq[43]}]
set_property PACKAGE_PIN R22  [get_ports {ddr4_c1_dq[44]}]
set_property PACKAGE_PIN P22  [get_ports {ddr4_c1_dq[45]}]
set_property PACKAGE_PIN T23  [get_ports {ddr4_c1_dq[46]}]
set_property PACKAGE_PIN R23  [get_ports {ddr4_c1_dq[47]}]
set_property PACKAGE_PIN K24  [get_ports {ddr4_c1_dq[48]}]
set_property PACKAGE_PIN J24  [get_ports {ddr4_c1_dq[49]}]
set_property PACKAGE_PIN M21  [get_ports {ddr4_c1_dq[50]}]
set_property PACKAGE_PIN L21  [get_ports {ddr4_c1_dq[51]}]
set_property PACKAGE_PIN K21  [get_ports {ddr4_c1_dq[52]}]
set_property PACKAGE_PIN J21  [get_ports {ddr4_c1_dq[53]}]
set_property PACKAGE_PIN K22  [get_ports {ddr4_c1_dq[54]}]
set_property PACKAGE_PIN J22  [get_ports {ddr4_c1_dq[55]}]
set_property PACKAGE_PIN H23  [get_ports {ddr4_c1_dq[56]}]
set_property PACKAGE_PIN H22  [get_ports {ddr4_c1_dq[57]}]
set_property PACKAGE_PIN E23  [get_ports {ddr4_c1_dq[58]}]
set_property PACKAGE_PIN E22  [get_ports {ddr4_c1_dq[59]}]
set_property PACKAGE_PIN F21  [get_ports {ddr4_c1_dq[60]}]
set_property PACKAGE_PIN E21  [get_ports {ddr4_c1_dq[61]}]
set_property PACKAGE_PIN F24  [get_ports {ddr4_c1_dq[62]}]
set_property PACKAGE_PIN F23  [get_ports {ddr4_c1_dq[63]}]

# dqs_t: DIFF_POD12_DCI
set_property IOSTANDARD DIFF_POD12_DCI [get_ports {ddr4_c1_dqs_t[*]}]
set_property PACKAGE_PIN D11  [get_ports {ddr4_c1_dqs_t[0]}]
set_property PACKAGE_PIN P17  [get_ports {ddr4_c1_dqs_t[1]}]
set_property PACKAGE_PIN K19  [get_ports {ddr4_c1_dqs_t[2]}]
set_property PACKAGE_PIN F16  [get_ports {ddr4_c1_dqs_t[3]}]
set_property PACKAGE_PIN A19  [get_ports {ddr4_c1_dqs_t[4]}]
set_property PACKAGE_PIN N22  [get_ports {ddr4_c1_dqs_t[5]}]
set_property PACKAGE_PIN M20  [get_ports {ddr4_c1_dqs_t[6]}]
set_property PACKAGE_PIN H24  [get_ports {ddr4_c1_dqs_t[7]}]

# dqs_c: DIFF_POD12_DCI
set_property IOSTANDARD DIFF_POD12_DCI [get_ports {ddr4_c1_dqs_c[*]}]
set_property PACKAGE_PIN D10  [get_ports {ddr4_c1_dqs_c[0]}]
set_property PACKAGE_PIN P16  [get_ports {ddr4_c1_dqs_c[1]}]
set_property PACKAGE_PIN J19  [get_ports {ddr4_c1_dqs_c[2]}]
set_property PACKAGE_PIN E16  [get_ports {ddr4_c1_dqs_c[3]}]
set_property PACKAGE_PIN A18  [get_ports {ddr4_c1_dqs_c[4]}]
set_property PACKAGE_PIN M22  [get_ports {ddr4_c1_dqs_c[5]}]
set_property PACKAGE_PIN L20  [get_ports {ddr4_c1_dqs_c[6]}]
set_property PACKAGE_PIN G23  [get_ports {ddr4_c1_dqs_c[7]}]

# dm_dbi_n: POD12_DCI
set_property IOSTANDARD POD12_DCI [get_ports {ddr4_c1_dm_dbi_n[*]}]
set_property PACKAGE_PIN G11  [get_ports {ddr4_c1_dm_dbi_n[0]}]
set_property PACKAGE_PIN R18  [get_ports {ddr4_c1_dm_dbi_n[1]}]
set_property PACKAGE_PIN K17  [get_ports {ddr4_c1_dm_dbi_n[2]}]
set_property PACKAGE_PIN G18  [get_ports {ddr4_c1_dm_dbi_n[3]}]
set_property PACKAGE_PIN B18  [get_ports {ddr4_c1_dm_dbi_n[4]}]
set_property PACKAGE_PIN P20  [get_ports {ddr4_c1_dm_dbi_n[5]}]
set_property PACKAGE_PIN L23  [get_ports {ddr4_c1_dm_dbi_n[6]}]
set_property PACKAGE_PIN G22  [get_ports {ddr4_c1_dm_dbi_n[7]}]
