# AMD VCU118: what boards/common/tcl/build.tcl and program.tcl need.
set part   xcvu9p-flga2104-2L-e
set top    vcu118_top
set xdc    {vcu118/vcu118.xdc vcu118/vcu118_ddr4.xdc common/cdc.xdc}
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

# ---- the NIC's memory (docs/boards.md, "Memory"); make bitstream MEM=ddr4|uram
#   ddr4  DDR4 channel C1 (vcu118_ddr4.sv): ddr4_c1 = the DDR4 controller (PG150),
#         64-bit (U60..U63 of the five MT40A256M16GE components; U64 unused),
#         2 GiB, DDR4-2666 (750 ps), reference clock 250 MHz on E12/D12, AXI4
#         512-bit at the 333 MHz ui clock, byte writes by data mask, no ECC;
#         ddr4_axi_cc = the AXI clock converter from the NIC's 250 MHz clock.
#   uram  4 MiB of on-chip URAM in board_nic; no IP core.
set mem_options {ddr4 uram}
set mem_default ddr4
set mem_ips(uram) {}
set mem_ips(ddr4) [list \
  [list ddr4 ddr4_c1 [list \
    CONFIG.C0.DDR4_MemoryType {Components} CONFIG.C0.DDR4_MemoryPart {MT40A256M16GE-075E} \
    CONFIG.C0.DDR4_DataWidth {64} CONFIG.C0.DDR4_DataMask {DM_NO_DBI} CONFIG.C0.DDR4_Ecc {false} \
    CONFIG.C0.DDR4_TimePeriod {750} CONFIG.C0.DDR4_InputClockPeriod {4000} \
    CONFIG.C0.DDR4_CasLatency {18} CONFIG.C0.DDR4_CasWriteLatency {14} \
    CONFIG.C0.DDR4_AxiSelection {true} CONFIG.C0.DDR4_AxiDataWidth {512} \
    CONFIG.C0.DDR4_AxiAddressWidth {31} CONFIG.C0.DDR4_AxiIDWidth {2} \
    CONFIG.C0.DDR4_AxiArbitrationScheme {RD_PRI_REG} \
    CONFIG.C0.DDR4_Mem_Add_Map {ROW_COLUMN_BANK_INTLV}]] \
  [list axi_clock_converter ddr4_axi_cc [list \
    CONFIG.PROTOCOL {AXI4} CONFIG.DATA_WIDTH {512} CONFIG.ADDR_WIDTH {31} CONFIG.ID_WIDTH {2} \
    CONFIG.ACLK_ASYNC {1} CONFIG.SYNCHRONIZATION_STAGES {3}]]]
