`default_nettype none

// board_cmac: the 100G CMAC hard IP (cmac_usplus_0, created by
// boards/common/tcl/build.tcl at build time; a stand-in in tests/boards) with the
// control inputs every board sets the same way: RS-FEC (clause 91) on both
// directions when RSFEC is 1, RX and TX enabled, no test patterns, no loopback,
// the DRP unused. One 512-bit AXI4-Stream each way on mac_clk (the CMAC's
// 322.27 MHz TX user clock, also used for RX).
module board_cmac #(
  parameter int RSFEC = 1
) (
  // QSFP28 lanes and the 156.25 MHz reference clock
  input  wire logic [3:0]   gt_rxp,
  input  wire logic [3:0]   gt_rxn,
  output logic      [3:0]   gt_txp,
  output logic      [3:0]   gt_txn,
  input  wire logic         gt_refclk_p,
  input  wire logic         gt_refclk_n,
  // init/DRP clock (125 MHz) and its reset
  input  wire logic         init_clk,
  input  wire logic         sys_reset,
  // user side
  output logic              mac_clk,
  output logic              mac_rx_reset,
  output logic              mac_tx_reset,
  output logic              mac_rx_aligned,
  output logic              rx_tvalid,
  output logic [511:0]      rx_tdata,
  output logic [63:0]       rx_tkeep,
  output logic              rx_tlast,
  output logic              rx_tuser,
  input  wire logic         tx_tvalid,
  output logic              tx_tready,
  input  wire logic [511:0] tx_tdata,
  input  wire logic [63:0]  tx_tkeep,
  input  wire logic         tx_tlast,
  input  wire logic         tx_tuser
);

  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] drp_do;
  logic        drp_rdy;
  /* verilator lint_on UNUSEDSIGNAL */

  cmac_usplus_0 u_cmac (
    .gt_rxp_in(gt_rxp), .gt_rxn_in(gt_rxn),
    .gt_txp_out(gt_txp), .gt_txn_out(gt_txn),
    .gt_ref_clk_p(gt_refclk_p), .gt_ref_clk_n(gt_refclk_n),
    .gt_txusrclk2(mac_clk),
    .gt_loopback_in(12'd0),
    .gtwiz_reset_tx_datapath(1'b0), .gtwiz_reset_rx_datapath(1'b0),
    .sys_reset(sys_reset), .init_clk(init_clk),
    .ctl_tx_rsfec_enable(RSFEC != 0), .ctl_rx_rsfec_enable(RSFEC != 0),
    .ctl_rsfec_ieee_error_indication_mode(1'b0),
    .ctl_rx_rsfec_enable_correction(RSFEC != 0), .ctl_rx_rsfec_enable_indication(RSFEC != 0),
    .rx_clk(mac_clk), .core_rx_reset(1'b0),
    .ctl_rx_enable(1'b1), .ctl_rx_force_resync(1'b0), .ctl_rx_test_pattern(1'b0),
    .usr_rx_reset(mac_rx_reset), .stat_rx_aligned(mac_rx_aligned),
    .rx_axis_tvalid(rx_tvalid), .rx_axis_tdata(rx_tdata), .rx_axis_tlast(rx_tlast),
    .rx_axis_tkeep(rx_tkeep), .rx_axis_tuser(rx_tuser),
    .core_tx_reset(1'b0),
    .ctl_tx_enable(1'b1), .ctl_tx_send_idle(1'b0), .ctl_tx_send_rfi(1'b0),
    .ctl_tx_send_lfi(1'b0), .ctl_tx_test_pattern(1'b0),
    .usr_tx_reset(mac_tx_reset),
    .tx_axis_tvalid(tx_tvalid), .tx_axis_tready(tx_tready), .tx_axis_tdata(tx_tdata),
    .tx_axis_tlast(tx_tlast), .tx_axis_tkeep(tx_tkeep), .tx_axis_tuser(tx_tuser),
    .tx_preamblein(56'd0),
    .core_drp_reset(1'b0), .drp_clk(init_clk), .drp_addr(10'd0), .drp_di(16'd0),
    .drp_en(1'b0), .drp_we(1'b0), .drp_do(drp_do), .drp_rdy(drp_rdy)
  );

endmodule
