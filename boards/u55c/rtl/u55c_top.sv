`default_nettype none

// solonic on the AMD Alveo U55C (XCU55C-FSVH2892-2L-E): powered by its host's
// PCIe slot, but no host software: the PCIe block is not used.
//   clk_100mhz_0 (LVDS) -> MMCM -> 250 MHz NIC clock and 125 MHz CMAC init clock
//   QSFP28 port 0 (GTY quad 130, CMACE4_X0Y3) -> cmac_usplus_0 (100GBASE-R4,
//   RS-FEC on by default; created by boards/common/tcl/build.tcl, wrapped by board_cmac) -> board_nic
//   UART: the FPGA UART that the card's USB debug port (FTDI) carries, 115200
//   8N1 (pins in boards/u55c/u55c.xdc, see docs/boards.md for what is verified)
//   no switches: INSTANCE sets the instance number; QSFP0 LEDs: activity, link
//   (green), heartbeat (yellow); the HBM catastrophic-temperature pin is held low.
module u55c_top #(
  parameter              IMEM_INIT = "",
  parameter logic [31:0] GIT_HASH  = 32'h0,
  parameter int          RSFEC     = 1,         // 1: RS-FEC (clause 91) on both directions
  parameter logic [7:0]  INSTANCE  = 8'd0
) (
  input  wire logic       clk_100mhz_0_p,
  input  wire logic       clk_100mhz_0_n,
  output logic            qsfp0_led_act,
  output logic            qsfp0_led_stat_g,
  output logic            qsfp0_led_stat_y,
  output logic            hbm_cattrip,
  output logic            uart_txd,
  input  wire logic       uart_rxd,
  // QSFP28 0 (the card's QSFP module control goes through its satellite controller)
  output logic      [3:0] qsfp0_tx_p,
  output logic      [3:0] qsfp0_tx_n,
  input  wire logic [3:0] qsfp0_rx_p,
  input  wire logic [3:0] qsfp0_rx_n,
  input  wire logic       qsfp0_mgt_refclk_p,   // 161.1328125 MHz
  input  wire logic       qsfp0_mgt_refclk_n
);

  // ---------------------------------------------------------------- clocks
  logic clk_250, clk_125, arst, rst_125;

  board_clocks #(.CLKIN_PERIOD(10.0), .DIV_250(4.0), .DIV_125(8)) u_clocks (
    .clk_in_p(clk_100mhz_0_p), .clk_in_n(clk_100mhz_0_n), .rst_in(1'b0),
    .clk_250, .clk_125, .arst, .rst_125
  );

  // ------------------------------------------------------------------ CMAC
  logic         mac_clk, mac_rx_reset, mac_tx_reset, mac_rx_aligned;
  logic [511:0] mac_rx_tdata, mac_tx_tdata;
  logic [63:0]  mac_rx_tkeep, mac_tx_tkeep;
  logic         mac_rx_tvalid, mac_rx_tlast, mac_rx_tuser;
  logic         mac_tx_tvalid, mac_tx_tready, mac_tx_tlast, mac_tx_tuser;

  board_cmac #(.RSFEC(RSFEC)) u_cmac (
    .gt_rxp(qsfp0_rx_p), .gt_rxn(qsfp0_rx_n), .gt_txp(qsfp0_tx_p), .gt_txn(qsfp0_tx_n),
    .gt_refclk_p(qsfp0_mgt_refclk_p), .gt_refclk_n(qsfp0_mgt_refclk_n),
    .init_clk(clk_125), .sys_reset(rst_125),
    .mac_clk, .mac_rx_reset, .mac_tx_reset, .mac_rx_aligned,
    .rx_tvalid(mac_rx_tvalid), .rx_tdata(mac_rx_tdata), .rx_tkeep(mac_rx_tkeep),
    .rx_tlast(mac_rx_tlast), .rx_tuser(mac_rx_tuser),
    .tx_tvalid(mac_tx_tvalid), .tx_tready(mac_tx_tready), .tx_tdata(mac_tx_tdata),
    .tx_tkeep(mac_tx_tkeep), .tx_tlast(mac_tx_tlast), .tx_tuser(mac_tx_tuser)
  );

  // the HBM is not used: its catastrophic-temperature output to the card stays low
  assign hbm_cattrip = 1'b0;

  // ------------------------------------------------------------------- NIC
  logic [7:0]  nic_led;
  logic        nic_rst, exit_valid;
  // the NIC's status without pins here (the simulation reads them inside; later registers)
  logic [31:0] exit_code, cnt_rx_frames, cnt_rx_drop_full, cnt_rx_cut_long, cnt_rx_cut_link,
               cnt_tx_frames, cnt_tx_drop_link, cnt_tx_too_long;

  board_nic #(.IMEM_INIT(IMEM_INIT), .GIT_HASH(GIT_HASH)) u_nic (
    .clk(clk_250), .arst, .instance_id(INSTANCE),
    .mac_clk, .mac_rx_reset, .mac_tx_reset, .mac_rx_aligned,
    .mac_rx_tdata, .mac_rx_tkeep, .mac_rx_tvalid, .mac_rx_tlast, .mac_rx_tuser,
    .mac_tx_tdata, .mac_tx_tkeep, .mac_tx_tvalid, .mac_tx_tready, .mac_tx_tlast, .mac_tx_tuser,
    .uart_txd, .uart_rxd,
    .led(nic_led),
    .rst_out(nic_rst), .exit_valid, .exit_code,
    .cnt_rx_frames, .cnt_rx_drop_full, .cnt_rx_cut_long, .cnt_rx_cut_link,
    .cnt_tx_frames, .cnt_tx_drop_link, .cnt_tx_too_long
  );

  assign qsfp0_led_act    = nic_led[2] || nic_led[3];   // RX or TX frames
  assign qsfp0_led_stat_g = nic_led[1];                 // CMAC RX aligned
  assign qsfp0_led_stat_y = nic_led[0];                 // heartbeat

  logic unused;
  assign unused = ^{nic_led[7:4], nic_rst, exit_valid, exit_code, cnt_rx_frames,
                    cnt_rx_drop_full, cnt_rx_cut_long, cnt_rx_cut_link, cnt_tx_frames,
                    cnt_tx_drop_link, cnt_tx_too_long};

endmodule
