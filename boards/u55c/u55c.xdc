# solonic on the AMD Alveo U55C (xcu55c-fsvh2892-2L-e).
# Pins: as in public U55C designs (FPGA Ninja's taxi XDC for U55C/U55N/C1100,
# github.com/fpganinja/taxi; DouglasWWolf/u55c_100gbe_template for the QSFP
# reference clocks and CMAC location). Not checked against the card or its user
# guide (UG1468) here: UNVERIFIED lines first when a card does not come up.

set_property CFGBVS GND                                [current_design]
set_property CONFIG_VOLTAGE 1.8                        [current_design]
set_property BITSTREAM.CONFIG.CONFIGFALLBACK ENABLE    [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE           [current_design]
set_property CONFIG_MODE SPIx4                         [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4           [current_design]
set_property BITSTREAM.CONFIG.CONFIGRATE 85.0          [current_design]
set_property BITSTREAM.CONFIG.EXTMASTERCCLK_EN DISABLE [current_design]
set_property BITSTREAM.CONFIG.SPI_FALL_EDGE YES        [current_design]
set_property BITSTREAM.CONFIG.UNUSEDPIN PULLUP         [current_design]
set_property BITSTREAM.CONFIG.SPI_32BIT_ADDR YES       [current_design]

# 100 MHz clock 0 (LVDS, from the SI5394)
set_property -dict {LOC BK10 IOSTANDARD LVDS} [get_ports clk_100mhz_0_p]
set_property -dict {LOC BL10 IOSTANDARD LVDS} [get_ports clk_100mhz_0_n]
create_clock -period 10.000 -name clk_100mhz_0 [get_ports clk_100mhz_0_p]

# 100 MHz clock 1 (LVDS, from the SI5394): the HBM's reference and APB clock and
# its 450 MHz AXI clock's MMCM input (u55c_hbm.sv). UNVERIFIED: pins as in
# Corundum's Alveo XDC (fpga_au55.xdc), not checked against UG1468. The HBM
# controller may constrain its reference clock itself; if Vivado reports this
# clock defined twice, drop this create_clock.
set_property -dict {LOC BK43 IOSTANDARD LVDS} [get_ports clk_100mhz_1_p]
set_property -dict {LOC BK44 IOSTANDARD LVDS} [get_ports clk_100mhz_1_n]
create_clock -period 10.000 -name clk_100mhz_1 [get_ports clk_100mhz_1_p]

# QSFP0 LEDs
set_property -dict {LOC BL13 IOSTANDARD LVCMOS18 SLEW SLOW DRIVE 8} [get_ports qsfp0_led_act]
set_property -dict {LOC BK11 IOSTANDARD LVCMOS18 SLEW SLOW DRIVE 8} [get_ports qsfp0_led_stat_g]
set_property -dict {LOC BJ11 IOSTANDARD LVCMOS18 SLEW SLOW DRIVE 8} [get_ports qsfp0_led_stat_y]
set_false_path -to [get_ports {qsfp0_led_act qsfp0_led_stat_g qsfp0_led_stat_y}]

# HBM catastrophic temperature to the card (its power is cut when high): either
# HBM stack's CATTRIP flag with MEM = hbm, low with MEM = uram
set_property -dict {LOC BE45 IOSTANDARD LVCMOS18} [get_ports hbm_cattrip]
set_false_path -to [get_ports hbm_cattrip]

# UART: the FPGA UART on the card's USB debug port (FTDI). UNVERIFIED: public
# XDCs list three FPGA UART pairs (BJ41/BK41, BN47/BP47, BL45/BL46); a U55C
# XDC named after AMD's "U55C_xdc_1v00" calls BN47/BP47 fpga_uart0. If no
# console appears on the USB serial ports, move these two pins to the next pair.
set_property -dict {LOC BN47 IOSTANDARD LVCMOS18 SLEW SLOW DRIVE 8} [get_ports uart_txd]
set_property -dict {LOC BP47 IOSTANDARD LVCMOS18} [get_ports uart_rxd]
set_false_path -to [get_ports uart_txd]
set_false_path -from [get_ports uart_rxd]

# QSFP28 0: GTY quad 130 (the CMAC IP places its GTs itself, GT_GROUP_SELECT in
# board.tcl; package pins for the record)
set_property -dict {LOC AD51} [get_ports {qsfp0_rx_p[0]}] ;# MGTYRXP0_130
set_property -dict {LOC AD52} [get_ports {qsfp0_rx_n[0]}]
set_property -dict {LOC AD46} [get_ports {qsfp0_tx_p[0]}]
set_property -dict {LOC AD47} [get_ports {qsfp0_tx_n[0]}]
set_property -dict {LOC AC53} [get_ports {qsfp0_rx_p[1]}] ;# MGTYRXP1_130
set_property -dict {LOC AC54} [get_ports {qsfp0_rx_n[1]}]
set_property -dict {LOC AC44} [get_ports {qsfp0_tx_p[1]}]
set_property -dict {LOC AC45} [get_ports {qsfp0_tx_n[1]}]
set_property -dict {LOC AC49} [get_ports {qsfp0_rx_p[2]}] ;# MGTYRXP2_130
set_property -dict {LOC AC50} [get_ports {qsfp0_rx_n[2]}]
set_property -dict {LOC AB46} [get_ports {qsfp0_tx_p[2]}]
set_property -dict {LOC AB47} [get_ports {qsfp0_tx_n[2]}]
set_property -dict {LOC AB51} [get_ports {qsfp0_rx_p[3]}] ;# MGTYRXP3_130
set_property -dict {LOC AB52} [get_ports {qsfp0_rx_n[3]}]
set_property -dict {LOC AA48} [get_ports {qsfp0_tx_p[3]}]
set_property -dict {LOC AA49} [get_ports {qsfp0_tx_n[3]}]
# 161.1328125 MHz reference clock (SI5394 OUT0)
set_property -dict {LOC AD42} [get_ports qsfp0_mgt_refclk_p] ;# MGTREFCLK0P_130
set_property -dict {LOC AD43} [get_ports qsfp0_mgt_refclk_n]
create_clock -period 6.206 -name qsfp0_mgt_refclk [get_ports qsfp0_mgt_refclk_p]
