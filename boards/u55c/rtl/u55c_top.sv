`default_nettype none

// solonic on the AMD Alveo U55C (XCU55C-FSVH2892-2L-E): powered by its host's
// PCIe slot, but no host software: the PCIe block is not used.
//   clk_100mhz_0 (LVDS) -> MMCM -> 250 MHz NIC clock and 125 MHz CMAC init clock
//   QSFP28 port 0 (GTY quad 130, CMACE4_X0Y3) -> cmac_usplus_0 (100GBASE-R4,
//   RS-FEC on by default; created by boards/common/tcl/build.tcl, wrapped by board_cmac) -> board_nic
//   UART: the FPGA UART that the card's USB debug port (FTDI) carries, 115200
//   8N1 (pins in boards/u55c/u55c.xdc, see docs/boards.md for what is verified)
//   the NIC's memory: the 16 GiB HBM (u55c_hbm: the HBM controller, reference
//   clock clk_100mhz_1, its catastrophic-temperature flag on hbm_cattrip) when
//   MEM = "hbm" (the default), or 4 MiB of on-chip URAM when MEM = "uram"
//   (hbm_cattrip then held low)
//   no switches: INSTANCE sets the instance number; QSFP0 LEDs: activity, link
//   (green), heartbeat (yellow; fast while the NIC waits for the HBM).
module u55c_top #(
  parameter              IMEM_INIT = "",
  parameter logic [31:0] GIT_HASH  = 32'h0,
  parameter int          RSFEC     = 1,         // 1: RS-FEC (clause 91) on both directions
  parameter logic [7:0]  INSTANCE  = 8'd0,
  parameter              MEM       = "hbm"      // the NIC's memory: "hbm" (16 GiB) or "uram" (4 MiB)
) (
  input  wire logic       clk_100mhz_0_p,
  input  wire logic       clk_100mhz_0_n,
  input  wire logic       clk_100mhz_1_p,       // HBM reference clock
  input  wire logic       clk_100mhz_1_n,
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

  // MEM is a string whose width is its length; comparing "hbm" with "uram"
  // widens the shorter one with zeros, which is what the comparison needs.
  /* verilator lint_off WIDTH */
  localparam bit USE_HBM = (MEM == "hbm");
  if (MEM != "hbm" && MEM != "uram") begin : g_bad_mem
    $error("u55c_top: MEM must be \"hbm\" or \"uram\"");
  end
  /* verilator lint_on WIDTH */

  // ------------------------------------------------------------------- NIC
  logic [7:0]  nic_led;
  logic        nic_rst, exit_valid;
  // the NIC's status without pins here (the simulation reads them inside; later registers)
  logic [31:0] exit_code, cnt_rx_frames, cnt_rx_drop_full, cnt_rx_cut_long, cnt_rx_cut_link,
               cnt_tx_frames, cnt_tx_drop_link, cnt_tx_too_long;

  logic [1:0]   mem_awid, mem_bid, mem_arid, mem_rid, mem_awburst, mem_arburst, mem_bresp, mem_rresp;
  logic [63:0]  mem_awaddr, mem_araddr, mem_wstrb;
  logic [7:0]   mem_awlen, mem_arlen;
  logic [2:0]   mem_awsize, mem_arsize;
  logic         mem_awvalid, mem_awready, mem_wlast, mem_wvalid, mem_wready, mem_bvalid, mem_bready;
  logic         mem_arvalid, mem_arready, mem_rlast, mem_rvalid, mem_rready, mem_ready;
  logic [511:0] mem_wdata, mem_rdata;

  board_nic #(.IMEM_INIT(IMEM_INIT), .GIT_HASH(GIT_HASH), .MEM_EXT(USE_HBM)) u_nic (
    .clk(clk_250), .arst, .instance_id(INSTANCE),
    .mac_clk, .mac_rx_reset, .mac_tx_reset, .mac_rx_aligned,
    .mac_rx_tdata, .mac_rx_tkeep, .mac_rx_tvalid, .mac_rx_tlast, .mac_rx_tuser,
    .mac_tx_tdata, .mac_tx_tkeep, .mac_tx_tvalid, .mac_tx_tready, .mac_tx_tlast, .mac_tx_tuser,
    .uart_txd, .uart_rxd,
    .led(nic_led),
    .mem_ready,
    .m_axi_awid(mem_awid), .m_axi_awaddr(mem_awaddr), .m_axi_awlen(mem_awlen), .m_axi_awsize(mem_awsize),
    .m_axi_awburst(mem_awburst), .m_axi_awvalid(mem_awvalid), .m_axi_awready(mem_awready),
    .m_axi_wdata(mem_wdata), .m_axi_wstrb(mem_wstrb), .m_axi_wlast(mem_wlast), .m_axi_wvalid(mem_wvalid),
    .m_axi_wready(mem_wready), .m_axi_bid(mem_bid), .m_axi_bresp(mem_bresp), .m_axi_bvalid(mem_bvalid),
    .m_axi_bready(mem_bready), .m_axi_arid(mem_arid), .m_axi_araddr(mem_araddr), .m_axi_arlen(mem_arlen),
    .m_axi_arsize(mem_arsize), .m_axi_arburst(mem_arburst), .m_axi_arvalid(mem_arvalid),
    .m_axi_arready(mem_arready), .m_axi_rid(mem_rid), .m_axi_rdata(mem_rdata), .m_axi_rresp(mem_rresp),
    .m_axi_rlast(mem_rlast), .m_axi_rvalid(mem_rvalid), .m_axi_rready(mem_rready),
    .rst_out(nic_rst), .exit_valid, .exit_code,
    .cnt_rx_frames, .cnt_rx_drop_full, .cnt_rx_cut_long, .cnt_rx_cut_link,
    .cnt_tx_frames, .cnt_tx_drop_link, .cnt_tx_too_long
  );

  // --------------------------------------------------------------- memory
  if (USE_HBM) begin : g_hbm
    u55c_hbm u_hbm (
      .clk(clk_250), .arst, .ready(mem_ready), .cattrip(hbm_cattrip),
      .ref_clk_p(clk_100mhz_1_p), .ref_clk_n(clk_100mhz_1_n),
      .s_axi_awid(mem_awid), .s_axi_awaddr(mem_awaddr), .s_axi_awlen(mem_awlen), .s_axi_awsize(mem_awsize),
      .s_axi_awburst(mem_awburst), .s_axi_awvalid(mem_awvalid), .s_axi_awready(mem_awready),
      .s_axi_wdata(mem_wdata), .s_axi_wstrb(mem_wstrb), .s_axi_wlast(mem_wlast), .s_axi_wvalid(mem_wvalid),
      .s_axi_wready(mem_wready), .s_axi_bid(mem_bid), .s_axi_bresp(mem_bresp), .s_axi_bvalid(mem_bvalid),
      .s_axi_bready(mem_bready), .s_axi_arid(mem_arid), .s_axi_araddr(mem_araddr), .s_axi_arlen(mem_arlen),
      .s_axi_arsize(mem_arsize), .s_axi_arburst(mem_arburst), .s_axi_arvalid(mem_arvalid),
      .s_axi_arready(mem_arready), .s_axi_rid(mem_rid), .s_axi_rdata(mem_rdata), .s_axi_rresp(mem_rresp),
      .s_axi_rlast(mem_rlast), .s_axi_rvalid(mem_rvalid), .s_axi_rready(mem_rready)
    );
  end else begin : g_uram
    // the NIC uses its on-chip RAM; the HBM is not instantiated, its
    // catastrophic-temperature output to the card stays low
    assign mem_ready   = 1'b1;
    assign hbm_cattrip = 1'b0;
    assign {mem_awready, mem_wready, mem_bid, mem_bresp, mem_bvalid} = '0;
    assign {mem_arready, mem_rid, mem_rdata, mem_rresp, mem_rlast, mem_rvalid} = '0;
    logic unused_mem;
    assign unused_mem = ^{clk_100mhz_1_p, clk_100mhz_1_n, mem_awid, mem_awaddr, mem_awlen, mem_awsize,
                          mem_awburst, mem_awvalid, mem_wdata, mem_wstrb, mem_wlast, mem_wvalid,
                          mem_bready, mem_arid, mem_araddr, mem_arlen, mem_arsize, mem_arburst,
                          mem_arvalid, mem_rready};
  end

  assign qsfp0_led_act    = nic_led[2] || nic_led[3];   // RX or TX frames
  assign qsfp0_led_stat_g = nic_led[1];                 // CMAC RX aligned
  assign qsfp0_led_stat_y = nic_led[0];                 // heartbeat

  logic unused;
  assign unused = ^{nic_led[7:4], nic_rst, exit_valid, exit_code, cnt_rx_frames,
                    cnt_rx_drop_full, cnt_rx_cut_long, cnt_rx_cut_link, cnt_tx_frames,
                    cnt_tx_drop_link, cnt_tx_too_long};

endmodule
