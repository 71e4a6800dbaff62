# AMD VCU118: what boards/common/tcl/build.tcl and program.tcl need.
set part   xcvu9p-flga2104-2L-e
set top    vcu118_top
set xdc    {vcu118/vcu118.xdc common/cdc.xdc}
# QSFP28 1 = GTY quad 231 (GTYE4_CHANNEL_X1Y48..51), reference clock 156.25 MHz
# (MGTREFCLK0_231); the CMAC next to it is CMACE4_X0Y7 (as in Corundum's VCU118
# 100G design; not checked against a placed design here)
set cmac_config [list \
  CONFIG.CMAC_CAUI4_MODE {1} CONFIG.NUM_LANES {4x25} CONFIG.USER_INTERFACE {AXIS} \
  CONFIG.GT_REF_CLK_FREQ {156.25} CONFIG.GT_DRP_CLK {125} \
  CONFIG.TX_FLOW_CONTROL {0} CONFIG.RX_FLOW_CONTROL {0} \
  CONFIG.INCLUDE_RS_FEC {1} CONFIG.ENABLE_PIPELINE_REG {1} \
  CONFIG.CMAC_CORE_SELECT {CMACE4_X0Y7} CONFIG.GT_GROUP_SELECT {X1Y48~X1Y51} \
  CONFIG.LANE1_GT_LOC {X1Y48} CONFIG.LANE2_GT_LOC {X1Y49} CONFIG.LANE3_GT_LOC {X1Y50} CONFIG.LANE4_GT_LOC {X1Y51}]
# configuration flash: Micron MT25QU01G, SPI x8 (two x4 devices)
set flash_size_mb   256
set flash_interface SPIx8
set flash_part      mt25qu01g-spi-x1_x2_x4_x8
set hw_device       xcvu9p_0
