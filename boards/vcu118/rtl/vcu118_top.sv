`default_nettype none

// solonic on the AMD VCU118 (XCVU9P-L2FLGA2104E): stand-alone, no host.
//   clk_125mhz (LVDS) -> MMCM -> 250 MHz NIC clock and 125 MHz CMAC init clock
//   QSFP28 port 1 (GTY quad 231) -> cmac_usplus_0 (100GBASE-R4, RS-FEC on by
//   default; created by boards/common/tcl/build.tcl at build time, wrapped by board_cmac) -> board_nic
//   DDR4 C1 (2 GiB, vcu118_ddr4: the DDR4 controller behind an AXI clock
//   converter) as the NIC's memory when MEM = "ddr4" (the default), or 4 MiB of
//   on-chip URAM when MEM = "uram" (the DDR4 pins then idle, the DRAM held in reset)
//   USB-UART (CP2105, 115200 8N1) <-> the firmware's console
//   DIP switches 3:0 = instance number (firmware default MAC/IP), LEDs 7:0 as
//   board_nic says, centre button = reset.
// In simulation (tests/boards) the MMCM, buffers and CMAC are stand-ins.
module vcu118_top #(
  parameter              IMEM_INIT = "",
  parameter logic [31:0] GIT_HASH  = 32'h0,
  parameter int          RSFEC     = 1,         // 1: RS-FEC (clause 91) on both directions
  parameter              MEM       = "ddr4"     // the NIC's memory: "ddr4" (C1, 2 GiB) or "uram" (4 MiB)
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
  output logic            qsfp1_lpmode,
  // DDR4 C1: its controller's 250 MHz reference clock and the memory pins
  input  wire logic       clk_250mhz_1_p,
  input  wire logic       clk_250mhz_1_n,
  output logic     [16:0] ddr4_c1_adr,
  output logic      [1:0] ddr4_c1_ba,
  output logic            ddr4_c1_bg,
  output logic            ddr4_c1_ck_t,
  output logic            ddr4_c1_ck_c,
  output logic            ddr4_c1_cke,
  output logic            ddr4_c1_cs_n,
  output logic            ddr4_c1_act_n,
  output logic            ddr4_c1_odt,
  output logic            ddr4_c1_reset_n,
  inout  wire logic [63:0] ddr4_c1_dq,
  inout  wire logic [7:0] ddr4_c1_dqs_t,
  inout  wire logic [7:0] ddr4_c1_dqs_c,
  inout  wire logic [7:0] ddr4_c1_dm_dbi_n
);

  if (MEM != "ddr4" && MEM != "uram") begin : g_bad_mem
    $error("vcu118_top: MEM must be \"ddr4\" or \"uram\"");
  end

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

  logic [1:0]   mem_awid, mem_bid, mem_arid, mem_rid, mem_awburst, mem_arburst, mem_bresp, mem_rresp;
  logic [63:0]  mem_awaddr, mem_araddr, mem_wstrb;
  logic [7:0]   mem_awlen, mem_arlen;
  logic [2:0]   mem_awsize, mem_arsize;
  logic         mem_awvalid, mem_awready, mem_wlast, mem_wvalid, mem_wready, mem_bvalid, mem_bready;
  logic         mem_arvalid, mem_arready, mem_rlast, mem_rvalid, mem_rready, mem_ready;
  logic [511:0] mem_wdata, mem_rdata;

  board_nic #(.IMEM_INIT(IMEM_INIT), .GIT_HASH(GIT_HASH), .MEM_EXT(MEM == "ddr4")) u_nic (
    .clk(clk_250), .arst, .instance_id({4'd0, sw}),
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
  if (MEM == "ddr4") begin : g_ddr4
    vcu118_ddr4 u_ddr4 (
      .clk(clk_250), .arst, .ready(mem_ready),
      .s_axi_awid(mem_awid), .s_axi_awaddr(mem_awaddr), .s_axi_awlen(mem_awlen), .s_axi_awsize(mem_awsize),
      .s_axi_awburst(mem_awburst), .s_axi_awvalid(mem_awvalid), .s_axi_awready(mem_awready),
      .s_axi_wdata(mem_wdata), .s_axi_wstrb(mem_wstrb), .s_axi_wlast(mem_wlast), .s_axi_wvalid(mem_wvalid),
      .s_axi_wready(mem_wready), .s_axi_bid(mem_bid), .s_axi_bresp(mem_bresp), .s_axi_bvalid(mem_bvalid),
      .s_axi_bready(mem_bready), .s_axi_arid(mem_arid), .s_axi_araddr(mem_araddr), .s_axi_arlen(mem_arlen),
      .s_axi_arsize(mem_arsize), .s_axi_arburst(mem_arburst), .s_axi_arvalid(mem_arvalid),
      .s_axi_arready(mem_arready), .s_axi_rid(mem_rid), .s_axi_rdata(mem_rdata), .s_axi_rresp(mem_rresp),
      .s_axi_rlast(mem_rlast), .s_axi_rvalid(mem_rvalid), .s_axi_rready(mem_rready),
      .sys_clk_p(clk_250mhz_1_p), .sys_clk_n(clk_250mhz_1_n),
      .ddr4_adr(ddr4_c1_adr), .ddr4_ba(ddr4_c1_ba), .ddr4_bg(ddr4_c1_bg), .ddr4_ck_t(ddr4_c1_ck_t),
      .ddr4_ck_c(ddr4_c1_ck_c), .ddr4_cke(ddr4_c1_cke), .ddr4_cs_n(ddr4_c1_cs_n),
      .ddr4_act_n(ddr4_c1_act_n), .ddr4_odt(ddr4_c1_odt), .ddr4_reset_n(ddr4_c1_reset_n),
      .ddr4_dq(ddr4_c1_dq), .ddr4_dqs_t(ddr4_c1_dqs_t), .ddr4_dqs_c(ddr4_c1_dqs_c),
      .ddr4_dm_dbi_n(ddr4_c1_dm_dbi_n)
    );
  end else begin : g_uram
    // the NIC uses its on-chip RAM; the DRAM stays in reset, its pins idle
    assign mem_ready = 1'b1;
    assign {mem_awready, mem_wready, mem_bid, mem_bresp, mem_bvalid} = '0;
    assign {mem_arready, mem_rid, mem_rdata, mem_rresp, mem_rlast, mem_rvalid} = '0;
    assign {ddr4_c1_adr, ddr4_c1_ba, ddr4_c1_bg, ddr4_c1_cke, ddr4_c1_cs_n, ddr4_c1_odt} = '0;
    assign {ddr4_c1_act_n, ddr4_c1_reset_n} = 2'b10;
    assign ddr4_c1_ck_t = 1'b0;
    assign ddr4_c1_ck_c = 1'b1;
    logic unused_mem;
    assign unused_mem = ^{clk_250mhz_1_p, clk_250mhz_1_n, mem_awid, mem_awaddr, mem_awlen, mem_awsize,
                          mem_awburst, mem_awvalid, mem_wdata, mem_wstrb, mem_wlast, mem_wvalid,
                          mem_bready, mem_arid, mem_araddr, mem_arlen, mem_arsize, mem_arburst,
                          mem_arvalid, mem_rready};
  end

  // LED 6: a QSFP28 module is present; LED 7: its interrupt line is active
  assign led = {!qsfp1_intl, qsfp_present, nic_led[5:0]};

  logic unused;
  assign unused = ^{nic_led[7:6], nic_rst, exit_valid, exit_code, cnt_rx_frames,
                    cnt_rx_drop_full, cnt_rx_cut_long, cnt_rx_cut_link, cnt_tx_frames,
                    cnt_tx_drop_link, cnt_tx_too_long};

endmodule
