`default_nettype none

// vcu118_ddr4: the NIC's memory on the VCU118, DDR4 channel C1 (docs/boards.md,
// "Memory"): four of its five x16 DDR4-2666 components as a 64-bit channel,
// 2 GiB, byte writes through the data-mask pins, no ECC.
//   NIC AXI4 master (clk, 250 MHz, 512-bit) -> ddr4_axi_cc (AXI clock
//   converter, asynchronous) -> ddr4_c1 (the DDR4 memory controller, PG150)
//   AXI4 slave (its ui clock, 333 MHz, 512-bit = the 64-bit channel at 4:1)
// Both IP cores are created by boards/common/tcl/build.tcl from the
// board.tcl settings at build time (no IP files checked in); their port
// lists here follow their instantiation templates as public designs show them
// (unverified here, no Vivado). Stand-ins for lint and Yosys: tests/boards/ip_stubs.sv.
// Address map: the NIC's address bits 30:0 select the byte in the 2 GiB;
// bits 63:31 are ignored (the memory repeats every 2 GiB).
// Reset: the converter's two sides are reset together from any source (arst,
// or the controller's ui reset); ready (the controller's calibration done,
// its ui clock domain) holds the NIC in reset until the memory works.
module vcu118_ddr4 (
  // NIC side
  input  wire logic         clk,
  input  wire logic         arst,            // the board's reset, asynchronous, active high
  output logic              ready,           // calibration done (ui clock domain)
  input  wire logic [1:0]   s_axi_awid,
  input  wire logic [63:0]  s_axi_awaddr,
  input  wire logic [7:0]   s_axi_awlen,
  input  wire logic [2:0]   s_axi_awsize,
  input  wire logic [1:0]   s_axi_awburst,
  input  wire logic         s_axi_awvalid,
  output logic              s_axi_awready,
  input  wire logic [511:0] s_axi_wdata,
  input  wire logic [63:0]  s_axi_wstrb,
  input  wire logic         s_axi_wlast,
  input  wire logic         s_axi_wvalid,
  output logic              s_axi_wready,
  output logic [1:0]        s_axi_bid,
  output logic [1:0]        s_axi_bresp,
  output logic              s_axi_bvalid,
  input  wire logic         s_axi_bready,
  input  wire logic [1:0]   s_axi_arid,
  input  wire logic [63:0]  s_axi_araddr,
  input  wire logic [7:0]   s_axi_arlen,
  input  wire logic [2:0]   s_axi_arsize,
  input  wire logic [1:0]   s_axi_arburst,
  input  wire logic         s_axi_arvalid,
  output logic              s_axi_arready,
  output logic [1:0]        s_axi_rid,
  output logic [511:0]      s_axi_rdata,
  output logic [1:0]        s_axi_rresp,
  output logic              s_axi_rlast,
  output logic              s_axi_rvalid,
  input  wire logic         s_axi_rready,
  // the controller's 250 MHz reference clock and the DDR4 C1 pins
  input  wire logic         sys_clk_p,
  input  wire logic         sys_clk_n,
  output logic      [16:0]  ddr4_adr,
  output logic      [1:0]   ddr4_ba,
  output logic              ddr4_bg,
  output logic              ddr4_ck_t,
  output logic              ddr4_ck_c,
  output logic              ddr4_cke,
  output logic              ddr4_cs_n,
  output logic              ddr4_act_n,
  output logic              ddr4_odt,
  output logic              ddr4_reset_n,
  inout  wire logic [63:0]  ddr4_dq,
  inout  wire logic [7:0]   ddr4_dqs_t,
  inout  wire logic [7:0]   ddr4_dqs_c,
  inout  wire logic [7:0]   ddr4_dm_dbi_n
);

  localparam int AW = 31;   // 2 GiB

  logic ui_clk, ui_rst, calib_done, rst_s, rst_m, cc_arst;

  // both sides of the converter in reset together, whichever side asks
  assign cc_arst = arst || ui_rst;
  board_reset_sync u_rst_s (.clk(clk),    .arst(cc_arst), .rst(rst_s));
  board_reset_sync u_rst_m (.clk(ui_clk), .arst(cc_arst), .rst(rst_m));

  logic [1:0]    m_awid, m_bid, m_arid, m_rid, m_awburst, m_arburst, m_bresp, m_rresp;
  logic [AW-1:0] m_awaddr, m_araddr;
  logic [7:0]    m_awlen, m_arlen;
  logic [2:0]    m_awsize, m_arsize, m_awprot, m_arprot;
  logic [3:0]    m_awcache, m_arcache, m_awqos, m_arqos, m_awregion, m_arregion;
  logic          m_awlock, m_arlock;
  logic          m_awvalid, m_awready, m_wlast, m_wvalid, m_wready, m_bvalid, m_bready;
  logic          m_arvalid, m_arready, m_rlast, m_rvalid, m_rready;
  logic [511:0]  m_wdata, m_rdata;
  logic [63:0]   m_wstrb;

  ddr4_axi_cc u_cc (
    .s_axi_aclk(clk), .s_axi_aresetn(!rst_s),
    .s_axi_awid, .s_axi_awaddr(s_axi_awaddr[AW-1:0]), .s_axi_awlen, .s_axi_awsize, .s_axi_awburst,
    .s_axi_awlock(1'b0), .s_axi_awcache(4'b0011), .s_axi_awprot(3'b000), .s_axi_awregion(4'd0),
    .s_axi_awqos(4'd0), .s_axi_awvalid, .s_axi_awready,
    .s_axi_wdata, .s_axi_wstrb, .s_axi_wlast, .s_axi_wvalid, .s_axi_wready,
    .s_axi_bid, .s_axi_bresp, .s_axi_bvalid, .s_axi_bready,
    .s_axi_arid, .s_axi_araddr(s_axi_araddr[AW-1:0]), .s_axi_arlen, .s_axi_arsize, .s_axi_arburst,
    .s_axi_arlock(1'b0), .s_axi_arcache(4'b0011), .s_axi_arprot(3'b000), .s_axi_arregion(4'd0),
    .s_axi_arqos(4'd0), .s_axi_arvalid, .s_axi_arready,
    .s_axi_rid, .s_axi_rdata, .s_axi_rresp, .s_axi_rlast, .s_axi_rvalid, .s_axi_rready,
    .m_axi_aclk(ui_clk), .m_axi_aresetn(!rst_m),
    .m_axi_awid(m_awid), .m_axi_awaddr(m_awaddr), .m_axi_awlen(m_awlen), .m_axi_awsize(m_awsize),
    .m_axi_awburst(m_awburst), .m_axi_awlock(m_awlock), .m_axi_awcache(m_awcache),
    .m_axi_awprot(m_awprot), .m_axi_awregion(m_awregion), .m_axi_awqos(m_awqos),
    .m_axi_awvalid(m_awvalid), .m_axi_awready(m_awready),
    .m_axi_wdata(m_wdata), .m_axi_wstrb(m_wstrb), .m_axi_wlast(m_wlast), .m_axi_wvalid(m_wvalid),
    .m_axi_wready(m_wready), .m_axi_bid(m_bid), .m_axi_bresp(m_bresp), .m_axi_bvalid(m_bvalid),
    .m_axi_bready(m_bready),
    .m_axi_arid(m_arid), .m_axi_araddr(m_araddr), .m_axi_arlen(m_arlen), .m_axi_arsize(m_arsize),
    .m_axi_arburst(m_arburst), .m_axi_arlock(m_arlock), .m_axi_arcache(m_arcache),
    .m_axi_arprot(m_arprot), .m_axi_arregion(m_arregion), .m_axi_arqos(m_arqos),
    .m_axi_arvalid(m_arvalid), .m_axi_arready(m_arready),
    .m_axi_rid(m_rid), .m_axi_rdata(m_rdata), .m_axi_rresp(m_rresp), .m_axi_rlast(m_rlast),
    .m_axi_rvalid(m_rvalid), .m_axi_rready(m_rready)
  );

  // The controller's debug outputs are not used (waiver below).
  /* verilator lint_off PINCONNECTEMPTY */
  ddr4_c1 u_ddr4 (
    .c0_sys_clk_p(sys_clk_p), .c0_sys_clk_n(sys_clk_n), .sys_rst(arst),
    .c0_init_calib_complete(calib_done),
    .dbg_clk(), .dbg_bus(),
    .c0_ddr4_adr(ddr4_adr), .c0_ddr4_ba(ddr4_ba), .c0_ddr4_bg(ddr4_bg),
    .c0_ddr4_ck_t(ddr4_ck_t), .c0_ddr4_ck_c(ddr4_ck_c), .c0_ddr4_cke(ddr4_cke),
    .c0_ddr4_cs_n(ddr4_cs_n), .c0_ddr4_act_n(ddr4_act_n), .c0_ddr4_odt(ddr4_odt),
    .c0_ddr4_reset_n(ddr4_reset_n),
    .c0_ddr4_dq(ddr4_dq), .c0_ddr4_dqs_t(ddr4_dqs_t), .c0_ddr4_dqs_c(ddr4_dqs_c),
    .c0_ddr4_dm_dbi_n(ddr4_dm_dbi_n),
    .c0_ddr4_ui_clk(ui_clk), .c0_ddr4_ui_clk_sync_rst(ui_rst),
    .c0_ddr4_aresetn(!rst_m),
    .c0_ddr4_s_axi_awid(m_awid), .c0_ddr4_s_axi_awaddr(m_awaddr), .c0_ddr4_s_axi_awlen(m_awlen),
    .c0_ddr4_s_axi_awsize(m_awsize), .c0_ddr4_s_axi_awburst(m_awburst),
    .c0_ddr4_s_axi_awlock(m_awlock), .c0_ddr4_s_axi_awcache(m_awcache),
    .c0_ddr4_s_axi_awprot(m_awprot), .c0_ddr4_s_axi_awqos(m_awqos),
    .c0_ddr4_s_axi_awvalid(m_awvalid), .c0_ddr4_s_axi_awready(m_awready),
    .c0_ddr4_s_axi_wdata(m_wdata), .c0_ddr4_s_axi_wstrb(m_wstrb), .c0_ddr4_s_axi_wlast(m_wlast),
    .c0_ddr4_s_axi_wvalid(m_wvalid), .c0_ddr4_s_axi_wready(m_wready),
    .c0_ddr4_s_axi_bready(m_bready), .c0_ddr4_s_axi_bid(m_bid), .c0_ddr4_s_axi_bresp(m_bresp),
    .c0_ddr4_s_axi_bvalid(m_bvalid),
    .c0_ddr4_s_axi_arid(m_arid), .c0_ddr4_s_axi_araddr(m_araddr), .c0_ddr4_s_axi_arlen(m_arlen),
    .c0_ddr4_s_axi_arsize(m_arsize), .c0_ddr4_s_axi_arburst(m_arburst),
    .c0_ddr4_s_axi_arlock(m_arlock), .c0_ddr4_s_axi_arcache(m_arcache),
    .c0_ddr4_s_axi_arprot(m_arprot), .c0_ddr4_s_axi_arqos(m_arqos),
    .c0_ddr4_s_axi_arvalid(m_arvalid), .c0_ddr4_s_axi_arready(m_arready),
    .c0_ddr4_s_axi_rready(m_rready), .c0_ddr4_s_axi_rlast(m_rlast), .c0_ddr4_s_axi_rvalid(m_rvalid),
    .c0_ddr4_s_axi_rresp(m_rresp), .c0_ddr4_s_axi_rid(m_rid), .c0_ddr4_s_axi_rdata(m_rdata)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  assign ready = calib_done;

  logic unused;
  assign unused = ^{s_axi_awaddr[63:AW], s_axi_araddr[63:AW], m_awregion, m_arregion};

endmodule
