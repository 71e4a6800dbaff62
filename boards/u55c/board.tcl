# AMD Alveo U55C: what boards/common/tcl/build.tcl and program.tcl need.
set part   xcu55c-fsvh2892-2L-e
set top    u55c_top
set xdc    {u55c/u55c.xdc common/cdc.xdc}
# QSFP28 0 = GTY quad 130, reference clock 161.1328125 MHz from the card's
# SI5394 (MGTREFCLK0_130); CMACE4_X0Y3 with GT group X0Y24~X0Y27, as two public
# U55C 100G designs use (not checked against a placed design here)
set cmac_config [list \
  CONFIG.CMAC_CAUI4_MODE {1} CONFIG.NUM_LANES {4x25} CONFIG.USER_INTERFACE {AXIS} \
  CONFIG.GT_REF_CLK_FREQ {161.1328125} CONFIG.GT_DRP_CLK {125} \
  CONFIG.TX_FLOW_CONTROL {0} CONFIG.RX_FLOW_CONTROL {0} \
  CONFIG.INCLUDE_RS_FEC {1} CONFIG.ENABLE_PIPELINE_REG {1} \
  CONFIG.CMAC_CORE_SELECT {CMACE4_X0Y3} CONFIG.GT_GROUP_SELECT {X0Y24~X0Y27} \
  CONFIG.LANE1_GT_LOC {X0Y24} CONFIG.LANE2_GT_LOC {X0Y25} CONFIG.LANE3_GT_LOC {X0Y26} CONFIG.LANE4_GT_LOC {X0Y27}]
# configuration flash: 1 Gb SPI x4 (the U55C's user flash; check the part in UG1468)
set flash_size_mb   128
set flash_interface SPIx4
set flash_part      mt25qu01g-spi-x1_x2_x4
set hw_device       xcu55c_0
