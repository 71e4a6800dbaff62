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

# ---- the NIC's memory (docs/boards.md, "Memory"); make bitstream MEM=hbm|uram
#   hbm   the 16 GiB HBM2 (u55c_hbm.sv): hbm_0 = the HBM controller (PG276), two
#         stacks, global addressing (both switches on), AXI ports 00 (the NIC's
#         writes) and 16 (its reads) at 450 MHz, reference and APB clocks 100 MHz
#         (clk_100mhz_1); per port hbm_axi_cc (clock converter 250 -> 450 MHz,
#         512-bit), hbm_axi_dw (512 -> 256 bits), hbm_axi_pc (AXI4 -> AXI3, bursts
#         of at most 16).
#   uram  4 MiB of on-chip URAM in board_nic; no IP core.
set mem_options {hbm uram}
set mem_default hbm
set mem_ips(uram) {}
set hbm_config [list \
  CONFIG.USER_HBM_DENSITY {16GB} CONFIG.USER_HBM_STACK {2} \
  CONFIG.USER_SWITCH_ENABLE_00 {TRUE} CONFIG.USER_SWITCH_ENABLE_01 {TRUE} \
  CONFIG.USER_HBM_REF_CLK_0 {100} CONFIG.USER_HBM_REF_CLK_1 {100} \
  CONFIG.USER_APB_PCLK_0 {100} CONFIG.USER_APB_PCLK_1 {100} \
  CONFIG.USER_AXI_CLK_FREQ {450} CONFIG.USER_AXI_INPUT_CLK_FREQ {450} \
  CONFIG.USER_CLK_SEL_LIST0 {AXI_00_ACLK} CONFIG.USER_CLK_SEL_LIST1 {AXI_16_ACLK}]
for {set i 0} {$i < 32} {incr i} {
  lappend hbm_config CONFIG.USER_SAXI_[format %02d $i] [expr {$i == 0 || $i == 16 ? {true} : {false}}]
}
set mem_ips(hbm) [list \
  [list hbm hbm_0 $hbm_config] \
  [list axi_clock_converter hbm_axi_cc [list \
    CONFIG.PROTOCOL {AXI4} CONFIG.DATA_WIDTH {512} CONFIG.ADDR_WIDTH {34} CONFIG.ID_WIDTH {2} \
    CONFIG.ACLK_ASYNC {1} CONFIG.SYNCHRONIZATION_STAGES {3}]] \
  [list axi_dwidth_converter hbm_axi_dw [list \
    CONFIG.PROTOCOL {AXI4} CONFIG.SI_DATA_WIDTH {512} CONFIG.MI_DATA_WIDTH {256} \
    CONFIG.ADDR_WIDTH {34} CONFIG.SI_ID_WIDTH {2}]] \
  [list axi_protocol_converter hbm_axi_pc [list \
    CONFIG.SI_PROTOCOL {AXI4} CONFIG.MI_PROTOCOL {AXI3} CONFIG.TRANSLATION_MODE {2} \
    CONFIG.DATA_WIDTH {256} CONFIG.ADDR_WIDTH {34} CONFIG.ID_WIDTH {0}]]]
