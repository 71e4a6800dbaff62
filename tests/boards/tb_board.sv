`default_nettype none

// tb_board: one VCU118 board top (boards/vcu118/rtl/vcu118_top.sv) as it is
// built for the FPGA, with simulation stand-ins for the Xilinx primitives
// (sim_prims.sv) and the CMAC (cmac_usplus_0.sv, line side in C++). Two clocks
// from the bench: the board clock pin at the NIC clock (250 MHz) and the QSFP
// reference clock pin at the CMAC stream clock (322.265625 MHz).
// The board's memory is its on-chip URAM (MEM = "uram"): the DDR4 controller
// is a Vivado IP core with no simulation model here, so its pins stay idle.
// Status the board has no pins for is read from inside the board.
module tb_board (
  input  wire logic        clk_sys,      // -> clk_125mhz_p (see sim_prims.sv)
  input  wire logic        clk_mac,      // -> qsfp1_mgt_refclk_0_p (see cmac_usplus_0.sv)
  input  wire logic        btnc,
  input  wire logic [3:0]  sw,
  output logic [7:0]       led,
  output logic             uart_txd,
  input  wire logic        uart_rxd,
  output logic             nic_rst,
  output logic             exit_valid,
  output logic [31:0]      exit_code,
  output logic [31:0]      cnt_rx_frames,
  output logic [31:0]      cnt_rx_drop_full,
  output logic [31:0]      cnt_rx_cut_long,
  output logic [31:0]      cnt_rx_cut_link,
  output logic [31:0]      cnt_tx_frames,
  output logic [31:0]      cnt_tx_drop_link
);

  logic [3:0] tx_p, tx_n;
  logic       modsell, resetl, lpmode;
  // DDR4 C1 pins, idle with MEM = "uram"
  logic [16:0] ddr_adr;
  logic [1:0]  ddr_ba;
  logic        ddr_bg, ddr_ck_t, ddr_ck_c, ddr_cke, ddr_cs_n, ddr_act_n, ddr_odt, ddr_reset_n;
  wire  [63:0] ddr_dq;
  wire  [7:0]  ddr_dqs_t, ddr_dqs_c, ddr_dm_dbi_n;

  vcu118_top #(.MEM("uram")) u_board (
    .clk_125mhz_p(clk_sys), .clk_125mhz_n(!clk_sys),
    .btnc, .sw, .led, .uart_txd, .uart_rxd,
    .qsfp1_tx_p(tx_p), .qsfp1_tx_n(tx_n), .qsfp1_rx_p(4'b0), .qsfp1_rx_n(4'b1111),
    .qsfp1_mgt_refclk_0_p(clk_mac), .qsfp1_mgt_refclk_0_n(!clk_mac),
    .qsfp1_modsell(modsell), .qsfp1_resetl(resetl), .qsfp1_modprsl(1'b0), .qsfp1_intl(1'b1),
    .qsfp1_lpmode(lpmode),
    .clk_250mhz_1_p(1'b0), .clk_250mhz_1_n(1'b1),
    .ddr4_c1_adr(ddr_adr), .ddr4_c1_ba(ddr_ba), .ddr4_c1_bg(ddr_bg), .ddr4_c1_ck_t(ddr_ck_t),
    .ddr4_c1_ck_c(ddr_ck_c), .ddr4_c1_cke(ddr_cke), .ddr4_c1_cs_n(ddr_cs_n), .ddr4_c1_act_n(ddr_act_n),
    .ddr4_c1_odt(ddr_odt), .ddr4_c1_reset_n(ddr_reset_n), .ddr4_c1_dq(ddr_dq),
    .ddr4_c1_dqs_t(ddr_dqs_t), .ddr4_c1_dqs_c(ddr_dqs_c), .ddr4_c1_dm_dbi_n(ddr_dm_dbi_n)
  );

  assign nic_rst          = u_board.nic_rst;
  assign exit_valid       = u_board.exit_valid;
  assign exit_code        = u_board.exit_code;
  assign cnt_rx_frames    = u_board.cnt_rx_frames;
  assign cnt_rx_drop_full = u_board.cnt_rx_drop_full;
  assign cnt_rx_cut_long  = u_board.cnt_rx_cut_long;
  assign cnt_rx_cut_link  = u_board.cnt_rx_cut_link;
  assign cnt_tx_frames    = u_board.cnt_tx_frames;
  assign cnt_tx_drop_link = u_board.cnt_tx_drop_link;

  logic unused;
  assign unused = ^{tx_p, tx_n, modsell, resetl, lpmode, ddr_adr, ddr_ba, ddr_bg, ddr_ck_t, ddr_ck_c,
                    ddr_cke, ddr_cs_n, ddr_act_n, ddr_odt, ddr_reset_n, ddr_dq, ddr_dqs_t, ddr_dqs_c,
                    ddr_dm_dbi_n};

endmodule
