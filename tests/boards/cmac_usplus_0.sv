`default_nettype none

// Simulation stand-in for the CMAC (cmac_usplus_0, 100G Ethernet MAC + PCS +
// RS-FEC + GTs) with the same ports as the generated IP in AXI4-Stream mode.
// The stream clock gt_txusrclk2 is the reference-clock pin itself: the bench
// drives that pin at 322.265625 MHz with its own period (independent of the
// NIC clock). The line side is a C++ model (tests/boards/cmac_model.cpp)
// reached over DPI: it paces RX frames to 100 Gb/s (no back-pressure, as the
// CMAC), drives tx_axis_tready, collects TX frames and checks the CMAC's TX
// rule (a frame's beats without gaps) and the minimum frame size.
module cmac_usplus_0 (
  input  wire logic [3:0]   gt_rxp_in,
  input  wire logic [3:0]   gt_rxn_in,
  output logic      [3:0]   gt_txp_out,
  output logic      [3:0]   gt_txn_out,
  input  wire logic         gt_ref_clk_p,
  input  wire logic         gt_ref_clk_n,
  output logic              gt_txusrclk2,
  input  wire logic [11:0]  gt_loopback_in,
  input  wire logic         gtwiz_reset_tx_datapath,
  input  wire logic         gtwiz_reset_rx_datapath,
  input  wire logic         sys_reset,
  input  wire logic         init_clk,
  input  wire logic         ctl_tx_rsfec_enable,
  input  wire logic         ctl_rx_rsfec_enable,
  input  wire logic         ctl_rsfec_ieee_error_indication_mode,
  input  wire logic         ctl_rx_rsfec_enable_correction,
  input  wire logic         ctl_rx_rsfec_enable_indication,
  input  wire logic         rx_clk,
  input  wire logic         core_rx_reset,
  input  wire logic         ctl_rx_enable,
  input  wire logic         ctl_rx_force_resync,
  input  wire logic         ctl_rx_test_pattern,
  output logic              usr_rx_reset,
  output logic              stat_rx_aligned,
  output logic              rx_axis_tvalid,
  output logic [511:0]      rx_axis_tdata,
  output logic              rx_axis_tlast,
  output logic [63:0]       rx_axis_tkeep,
  output logic              rx_axis_tuser,
  input  wire logic         core_tx_reset,
  input  wire logic         ctl_tx_enable,
  input  wire logic         ctl_tx_send_idle,
  input  wire logic         ctl_tx_send_rfi,
  input  wire logic         ctl_tx_send_lfi,
  input  wire logic         ctl_tx_test_pattern,
  output logic              usr_tx_reset,
  input  wire logic         tx_axis_tvalid,
  output logic              tx_axis_tready,
  input  wire logic [511:0] tx_axis_tdata,
  input  wire logic         tx_axis_tlast,
  input  wire logic [63:0]  tx_axis_tkeep,
  input  wire logic         tx_axis_tuser,
  input  wire logic [55:0]  tx_preamblein,
  input  wire logic         core_drp_reset,
  input  wire logic         drp_clk,
  input  wire logic [9:0]   drp_addr,
  input  wire logic [15:0]  drp_di,
  input  wire logic         drp_en,
  input  wire logic         drp_we,
  output logic [15:0]       drp_do,
  output logic              drp_rdy
);

  import "DPI-C" function int cmac_sim_open(input string path, input bit rsfec);
  import "DPI-C" function void cmac_sim_rx(input int h, output bit valid, output bit [511:0] data,
                                           output bit [63:0] keep, output bit last, output bit user);
  import "DPI-C" function bit cmac_sim_tx(input int h, input bit valid, input bit ready,
                                          input bit [511:0] data, input bit [63:0] keep,
                                          input bit last, input bit user);

  int          h;
  logic        rst_mac_q0, rst_mac_q1;     // sys_reset brought to the stream clock
  logic [7:0]  up_cnt_q;                   // cycles since the reset ended
  logic        rx_v, rx_l, rx_u, tx_rdy;
  logic [511:0] rx_d;
  logic [63:0]  rx_k;

  initial h = cmac_sim_open($sformatf("%m"), ctl_rx_rsfec_enable);

  assign gt_txusrclk2 = gt_ref_clk_p;

  always_ff @(posedge gt_txusrclk2) begin
    rst_mac_q0 <= sys_reset;
    rst_mac_q1 <= rst_mac_q0;
    if (rst_mac_q1) up_cnt_q <= '0;
    else if (up_cnt_q != 8'hff) up_cnt_q <= up_cnt_q + 1'b1;
  end

  // the user-side resets stay high for 64 stream cycles after sys_reset, then the
  // RX lanes align 128 cycles later
  assign usr_tx_reset    = rst_mac_q1 || up_cnt_q < 8'd64;
  assign usr_rx_reset    = rst_mac_q1 || up_cnt_q < 8'd64;
  assign stat_rx_aligned = up_cnt_q >= 8'd192;

  // a bench model: the DPI results land in temporaries before they are registered
  /* verilator lint_off BLKSEQ */
  always_ff @(posedge gt_txusrclk2) begin
    if (usr_rx_reset) begin
      rx_axis_tvalid <= 1'b0;
      rx_axis_tlast  <= 1'b0;
      rx_axis_tuser  <= 1'b0;
      tx_axis_tready <= 1'b0;
    end else begin
      // TX: report this cycle's handshake, get the next cycle's tready
      tx_rdy = cmac_sim_tx(h, tx_axis_tvalid, tx_axis_tready, tx_axis_tdata, tx_axis_tkeep,
                           tx_axis_tlast, tx_axis_tuser);
      tx_axis_tready <= tx_rdy;
      // RX: the next beat from the line (paced at 100 Gb/s)
      if (stat_rx_aligned) cmac_sim_rx(h, rx_v, rx_d, rx_k, rx_l, rx_u);
      else begin
        rx_v = 1'b0; rx_d = '0; rx_k = '0; rx_l = 1'b0; rx_u = 1'b0;
      end
      rx_axis_tvalid <= rx_v;
      rx_axis_tlast  <= rx_l;
      rx_axis_tuser  <= rx_u;
    end
    rx_axis_tdata <= rx_d;
    rx_axis_tkeep <= rx_k;
  end
  /* verilator lint_on BLKSEQ */

  assign gt_txp_out = 4'b0;
  assign gt_txn_out = 4'b1111;
  assign drp_do     = 16'd0;
  assign drp_rdy    = 1'b0;

  logic unused;
  assign unused = ^{gt_rxp_in, gt_rxn_in, gt_ref_clk_n, gt_loopback_in, gtwiz_reset_tx_datapath,
                    gtwiz_reset_rx_datapath, init_clk, ctl_tx_rsfec_enable,
                    ctl_rsfec_ieee_error_indication_mode, ctl_rx_rsfec_enable_correction,
                    ctl_rx_rsfec_enable_indication, rx_clk, core_rx_reset, ctl_rx_enable,
                    ctl_rx_force_resync, ctl_rx_test_pattern, core_tx_reset, ctl_tx_enable,
                    ctl_tx_send_idle, ctl_tx_send_rfi, ctl_tx_send_lfi, ctl_tx_test_pattern,
                    tx_preamblein, core_drp_reset, drp_clk, drp_addr, drp_di, drp_en, drp_we};

endmodule
