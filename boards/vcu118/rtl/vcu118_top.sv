`default_nettype none

// solonic on the AMD VCU118 (XCVU9P-L2FLGA2104E): stand-alone, no host.
//   clk_125mhz (LVDS) -> MMCM -> 250 MHz NIC clock and 125 MHz CMAC init clock
//   QSFP28 port 1 (GTY quad 231) -> cmac_usplus_0 (100GBASE-R4, RS-FEC on by
//   default; created by boards/common/tcl/build.tcl at build time, wrapped by board_cmac) -> board_nic
//   USB-UART (CP2105, 115200 8N1) <-> the firmware's console
//   DIP switches 3:0 = instance number (firmware default MAC/IP), LEDs 7:0 as
//   board_nic says, centre button = reset.
// In simulation (tests/boards) the MMCM, buffers and CMAC are stand-ins.
module vcu118_top #(
  parameter              IMEM_INIT = "",
  parameter logic [31:0] GIT_HASH  = 32'h0,
  parameter int          RSFEC     = 1          // 1: RS-FEC (clause 91) on both directions
) (
  input  wire logic       clk_125mhz_p,
  input  wire logic       clk_125mhz_n,
  input  wire logic       btnc,                 // reset
  input  wire logic [3:0] sw,
  output logic      [7:0] led,
  output logic            uart_txd,             // to the CP2105's RXD
  input  wire logic       uart_rxd,             // from the CP2105's TXD
  // QSFP28 1
  output logic      [3:0] qsfp1_tx_p,
  output logic      [3:0] qsfp1_tx_n,
  input  wire logic [3:0] qsfp1_rx_p,
  input  wire logic [3:0] qsfp1_rx_n,
  input  wire logic       qsfp1_mgt_refclk_0_p, // 156.25 MHz
  input  wire logic       qsfp1_mgt_refclk_0_n,
  output logic            qsfp1_modsell,
  output logic            qsfp1_resetl,
  input  wire logic       qsfp1_modprsl,
  input  wire logic       qsfp1_intl,
  output logic            qsfp1_lpmode
);

  // ---------------------------------------------------------------- clocks
  logic clk_250, clk_125, arst, rst_125;

  board_clocks #(.CLKIN_PERIOD(8.0), .DIV_250(5.0), .DIV_125(10)) u_clocks (
    .clk_in_p(clk_125mhz_p), .clk_in_n(clk_125mhz_n), .rst_in(btnc),
    .clk_250, .clk_125, .arst, .rst_125
  );

  // ------------------------------------------------------------------ CMAC
  logic         mac_clk, mac_rx_reset, mac_tx_reset, mac_rx_aligned;
  logic [511:0] mac_rx_tdata, mac_tx_tdata;
  logic [63:0]  mac_rx_tkeep, mac_tx_tkeep;
  logic         mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
  logic         mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;

  board_cmac #(.RSFEC(RSFEC)) u_cmac (
    .gt_rxp(qsfp1_rx_p), .gt_rxn(qsfp1_rx_n), .gt_txp(qsfp1_tx_p), .gt_txn(qsfp1_tx_n),
    .gt_refclk_p(qsfp1_mgt_refclk_0_p), .gt_refclk_n(qsfp1_mgt_refclk_0_n),
    .init_clk(clk_125), .sys_reset(rst_125),
    .mac_clk, .mac_rx_reset, .mac_tx_reset, .mac_rx_aligned,
    .rx_tvalid(mac_rx_tvalid), .rx_tdata(mac_rx_tdata), .rx_tkeep(mac_rx_tkeep),
    .rx_tlast(mac_rx_tlast), .rx_tuser(mac_rx_tuser),
    .tx_tvalid(mac_tx_tvalid), .tx_tready(mac_tx_tready), .tx_tdata(mac_tx_tdata),
    .tx_tkeep(mac_tx_tkeep), .tx_tlast(mac_tx_tlast), .tx_tuser(mac_tx_tuser)
  );

  // QSFP28 module control: selected, out of reset, high-power mode
  assign qsfp1_modsell = 1'b0;
  assign qsfp1_resetl  = 1'b1;
  assign qsfp1_lpmode  = 1'b0;

  // ------------------------------------------------------------------- NIC
  logic [7:0]  nic_led;
  logic        qsfp_present, nic_rst, exit_valid;
  // the NIC's status without pins here (the simulation reads them inside; later registers)
  logic [31:0] exit_code, cnt_rx_frames, cnt_rx_drop_full, cnt_rx_cut_long, cnt_rx_cut_link,
               cnt_tx_frames, cnt_tx_drop_link, cnt_tx_too_long;

  board_sync_bit u_sync_present (.clk(clk_250), .rst(1'b0), .d(!qsfp1_modprsl), .q(qsfp_present));

  board_nic #(.IMEM_INIT(IMEM_INIT), .GIT_HASH(GIT_HASH)) u_nic (
    .clk(clk_250), .arst, .instance_id({4'd0, sw}),
    .mac_clk, .mac_rx_reset, .mac_tx_reset, .mac_rx_aligned,
    .mac_rx_tdata, .mac_rx_tkeep, .mac_rx_tvalid, .mac_rx_tlast, .mac_rx_tuser,
    .mac_tx_tdata, .mac_tx_tkeep, .mac_tx_tvalid, .mac_tx_tready, .mac_tx_tlast, .mac_tx_tuser,
    .uart_txd, .uart_rxd,
    .led(nic_led),
    .rst_out(nic_rst), .exit_valid, .exit_code,
    .cnt_rx_frames, .cnt_rx_drop_full, .cnt_rx_cut_long, .cnt_rx_cut_link,
    .cnt_tx_frames, .cnt_tx_drop_link, .cnt_tx_too_long
  );

  // LED 6: a QSFP28 module is present; LED 7: its interrupt line is active
  assign led = {!qsfp1_intl, qsfp_present, nic_led[5:0]};

  logic unused;
  assign unused = ^{nic_led[7:6], nic_rst, exit_valid, exit_code, cnt_rx_frames,
                    cnt_rx_drop_full, cnt_rx_cut_long, cnt_rx_cut_link, cnt_tx_frames,
                    cnt_tx_drop_link, cnt_tx_too_long};

endmodule
