`default_nettype none

// u55c_hbm: the NIC's memory on the Alveo U55C, its 16 GiB of HBM2 (two
// stacks, 32 pseudo channels of 512 MiB) through the HBM controller (hbm_0,
// PG276, created by boards/common/tcl/build.tcl from board.tcl at build time)
// with its global addressing switch on, so each of its AXI ports reaches all
// 16 GiB (docs/boards.md, "Memory"):
//   NIC writes (AW, W, B) -> u55c_hbm_port -> AXI port 00 (stack 0)
//   NIC reads  (AR, R)    -> u55c_hbm_port -> AXI port 16 (stack 1)
// Each port is 256 bits at 450 MHz (14.4 GB/s, 115 Gb/s), so each direction
// has more than the 100 Gb/s line; AXI orders nothing between reads and
// writes, and the NIC never relies on it, so the two may take separate ports.
// Clocks: clk_100mhz_1 (100 MHz, LVDS) is the HBM reference clock, the APB
// clock and the input of an MMCM that makes the 450 MHz AXI clock.
// Resets: any board reset (arst) or that MMCM unlocked resets both converter
// sides and the HBM's AXI ports; ready = both stacks' APB initialisation
// complete (apb_complete_0/1) with the MMCM locked, which holds the NIC in
// reset until then. cattrip: either stack's catastrophic-temperature flag,
// for the card's HBM_CATTRIP pin (the card cuts power when it rises).
module u55c_hbm (
  input  wire logic         clk,             // NIC clock (250 MHz)
  input  wire logic         arst,            // the board's reset, asynchronous, active high
  output logic              ready,
  output logic              cattrip,
  input  wire logic         ref_clk_p,       // clk_100mhz_1
  input  wire logic         ref_clk_n,
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
  input  wire logic         s_axi_rready
);

  // ---------------------------------------------------------------- clocks
  logic ref_clk_in, ref_clk, hclk_mmcm, hclk, mmcm_fb, mmcm_locked, hbm_arst;
  logic rst_nic, hrst, apb_rst;

  IBUFDS u_ref_ibuf (.I(ref_clk_p), .IB(ref_clk_n), .O(ref_clk_in));
  BUFG   u_ref_bufg (.I(ref_clk_in), .O(ref_clk));

  // VCO = 100 MHz x 9 = 900 MHz; CLKOUT0 = 450 MHz (CLKOUT1, 100 MHz, unused)
  /* verilator lint_off PINCONNECTEMPTY */
  MMCME4_BASE #(
    .CLKIN1_PERIOD   (10.0),
    .DIVCLK_DIVIDE   (1),
    .CLKFBOUT_MULT_F (9.0),
    .CLKOUT0_DIVIDE_F(2.0),
    .CLKOUT1_DIVIDE  (9)
  ) u_mmcm (
    .CLKIN1(ref_clk), .CLKFBIN(mmcm_fb), .CLKFBOUT(mmcm_fb), .CLKFBOUTB(),
    .RST(arst), .PWRDWN(1'b0),
    .CLKOUT0(hclk_mmcm), .CLKOUT0B(), .CLKOUT1(), .CLKOUT1B(),
    .CLKOUT2(), .CLKOUT2B(), .CLKOUT3(), .CLKOUT3B(), .CLKOUT4(), .CLKOUT5(), .CLKOUT6(),
    .LOCKED(mmcm_locked)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  BUFG u_hclk_bufg (.I(hclk_mmcm), .O(hclk));

  assign hbm_arst = arst || !mmcm_locked;
  board_reset_sync u_rst_nic (.clk(clk),     .arst(hbm_arst), .rst(rst_nic));
  board_reset_sync u_rst_h   (.clk(hclk),    .arst(hbm_arst), .rst(hrst));
  board_reset_sync u_rst_apb (.clk(ref_clk), .arst(arst),     .rst(apb_rst));

  // ------------------------------------------------------------ AXI paths
  logic [33:0]  w_awaddr, r_araddr, w_araddr_x, r_awaddr_x;
  logic [3:0]   w_awlen, r_arlen, w_arlen_x, r_awlen_x;
  logic [2:0]   w_awsize, r_arsize, w_arsize_x, r_awsize_x;
  logic [1:0]   w_awburst, r_arburst, w_arburst_x, r_awburst_x, w_bresp, r_rresp;
  logic         w_awvalid, w_awready, w_wlast, w_wvalid, w_wready, w_bvalid, w_bready;
  logic         r_arvalid, r_arready, r_rlast, r_rvalid, r_rready;
  logic         w_arvalid_x, w_rready_x, r_awvalid_x, r_wlast_x, r_wvalid_x, r_bready_x;
  logic [255:0] w_wdata, r_rdata, r_wdata_x;
  logic [31:0]  w_wstrb, r_wstrb_x;
  // the unused direction of each path: tied off on the NIC side, idle on the HBM side
  logic         w_arready_x, w_rvalid_x, w_rlast_x, r_awready_x, r_wready_x, r_bvalid_x;
  logic [1:0]   w_rid_x, r_bid_x, w_rresp_x, r_bresp_x;
  logic [511:0] w_rdata_x;

  u55c_hbm_port u_wr (
    .clk, .rst(rst_nic),
    .s_axi_awid, .s_axi_awaddr, .s_axi_awlen, .s_axi_awsize, .s_axi_awburst, .s_axi_awvalid,
    .s_axi_awready, .s_axi_wdata, .s_axi_wstrb, .s_axi_wlast, .s_axi_wvalid, .s_axi_wready,
    .s_axi_bid, .s_axi_bresp, .s_axi_bvalid, .s_axi_bready,
    .s_axi_arid(2'd0), .s_axi_araddr(64'd0), .s_axi_arlen(8'd0), .s_axi_arsize(3'd6),
    .s_axi_arburst(2'b01), .s_axi_arvalid(1'b0), .s_axi_arready(w_arready_x),
    .s_axi_rid(w_rid_x), .s_axi_rdata(w_rdata_x), .s_axi_rresp(w_rresp_x), .s_axi_rlast(w_rlast_x),
    .s_axi_rvalid(w_rvalid_x), .s_axi_rready(1'b1),
    .hclk, .hrst,
    .m_axi_awaddr(w_awaddr), .m_axi_awlen(w_awlen), .m_axi_awsize(w_awsize), .m_axi_awburst(w_awburst),
    .m_axi_awvalid(w_awvalid), .m_axi_awready(w_awready),
    .m_axi_wdata(w_wdata), .m_axi_wstrb(w_wstrb), .m_axi_wlast(w_wlast), .m_axi_wvalid(w_wvalid),
    .m_axi_wready(w_wready), .m_axi_bresp(w_bresp), .m_axi_bvalid(w_bvalid), .m_axi_bready(w_bready),
    .m_axi_araddr(w_araddr_x), .m_axi_arlen(w_arlen_x), .m_axi_arsize(w_arsize_x),
    .m_axi_arburst(w_arburst_x), .m_axi_arvalid(w_arvalid_x), .m_axi_arready(1'b0),
    .m_axi_rdata(256'd0), .m_axi_rresp(2'd0), .m_axi_rlast(1'b0), .m_axi_rvalid(1'b0),
    .m_axi_rready(w_rready_x)
  );

  u55c_hbm_port u_rd (
    .clk, .rst(rst_nic),
    .s_axi_awid(2'd0), .s_axi_awaddr(64'd0), .s_axi_awlen(8'd0), .s_axi_awsize(3'd6),
    .s_axi_awburst(2'b01), .s_axi_awvalid(1'b0), .s_axi_awready(r_awready_x),
    .s_axi_wdata(512'd0), .s_axi_wstrb(64'd0), .s_axi_wlast(1'b0), .s_axi_wvalid(1'b0),
    .s_axi_wready(r_wready_x), .s_axi_bid(r_bid_x), .s_axi_bresp(r_bresp_x), .s_axi_bvalid(r_bvalid_x),
    .s_axi_bready(1'b1),
    .s_axi_arid, .s_axi_araddr, .s_axi_arlen, .s_axi_arsize, .s_axi_arburst, .s_axi_arvalid,
    .s_axi_arready, .s_axi_rid, .s_axi_rdata, .s_axi_rresp, .s_axi_rlast, .s_axi_rvalid, .s_axi_rready,
    .hclk, .hrst,
    .m_axi_awaddr(r_awaddr_x), .m_axi_awlen(r_awlen_x), .m_axi_awsize(r_awsize_x),
    .m_axi_awburst(r_awburst_x), .m_axi_awvalid(r_awvalid_x), .m_axi_awready(1'b0),
    .m_axi_wdata(r_wdata_x), .m_axi_wstrb(r_wstrb_x), .m_axi_wlast(r_wlast_x),
    .m_axi_wvalid(r_wvalid_x), .m_axi_wready(1'b0), .m_axi_bresp(2'd0), .m_axi_bvalid(1'b0),
    .m_axi_bready(r_bready_x),
    .m_axi_araddr(r_araddr), .m_axi_arlen(r_arlen), .m_axi_arsize(r_arsize), .m_axi_arburst(r_arburst),
    .m_axi_arvalid(r_arvalid), .m_axi_arready(r_arready),
    .m_axi_rdata(r_rdata), .m_axi_rresp(r_rresp), .m_axi_rlast(r_rlast), .m_axi_rvalid(r_rvalid),
    .m_axi_rready(r_rready)
  );

  // ------------------------------------------------------------------ HBM
  logic       apb_done_0, apb_done_1, cattrip_0, cattrip_1;
  logic [6:0] temp_0, temp_1;

  // The read half of port 00 and the write half of port 16 are idle; the
  // outputs nobody reads stay open (waiver below).
  /* verilator lint_off PINCONNECTEMPTY */
  hbm_0 u_hbm (
    .HBM_REF_CLK_0(ref_clk), .HBM_REF_CLK_1(ref_clk),
    .APB_0_PCLK(ref_clk), .APB_0_PRESET_N(!apb_rst), .APB_0_PWDATA(32'd0), .APB_0_PADDR(22'd0),
    .APB_0_PENABLE(1'b0), .APB_0_PSEL(1'b0), .APB_0_PWRITE(1'b0), .APB_0_PRDATA(), .APB_0_PREADY(),
    .APB_0_PSLVERR(), .apb_complete_0(apb_done_0),
    .APB_1_PCLK(ref_clk), .APB_1_PRESET_N(!apb_rst), .APB_1_PWDATA(32'd0), .APB_1_PADDR(22'd0),
    .APB_1_PENABLE(1'b0), .APB_1_PSEL(1'b0), .APB_1_PWRITE(1'b0), .APB_1_PRDATA(), .APB_1_PREADY(),
    .APB_1_PSLVERR(), .apb_complete_1(apb_done_1),
    // port 00: the NIC's writes
    .AXI_00_ACLK(hclk), .AXI_00_ARESET_N(!hrst),
    .AXI_00_AWADDR(w_awaddr), .AXI_00_AWBURST(w_awburst), .AXI_00_AWID(6'd0), .AXI_00_AWLEN(w_awlen),
    .AXI_00_AWSIZE(w_awsize), .AXI_00_AWVALID(w_awvalid), .AXI_00_AWREADY(w_awready),
    .AXI_00_WDATA(w_wdata), .AXI_00_WDATA_PARITY(32'd0), .AXI_00_WLAST(w_wlast), .AXI_00_WSTRB(w_wstrb),
    .AXI_00_WVALID(w_wvalid), .AXI_00_WREADY(w_wready),
    .AXI_00_BID(), .AXI_00_BRESP(w_bresp), .AXI_00_BVALID(w_bvalid), .AXI_00_BREADY(w_bready),
    .AXI_00_ARADDR(34'd0), .AXI_00_ARBURST(2'b01), .AXI_00_ARID(6'd0), .AXI_00_ARLEN(4'd0),
    .AXI_00_ARSIZE(3'd5), .AXI_00_ARVALID(1'b0), .AXI_00_ARREADY(),
    .AXI_00_RDATA(), .AXI_00_RDATA_PARITY(), .AXI_00_RID(), .AXI_00_RLAST(), .AXI_00_RRESP(),
    .AXI_00_RVALID(), .AXI_00_RREADY(1'b1),
    // port 16: the NIC's reads
    .AXI_16_ACLK(hclk), .AXI_16_ARESET_N(!hrst),
    .AXI_16_AWADDR(34'd0), .AXI_16_AWBURST(2'b01), .AXI_16_AWID(6'd0), .AXI_16_AWLEN(4'd0),
    .AXI_16_AWSIZE(3'd5), .AXI_16_AWVALID(1'b0), .AXI_16_AWREADY(),
    .AXI_16_WDATA(256'd0), .AXI_16_WDATA_PARITY(32'd0), .AXI_16_WLAST(1'b0), .AXI_16_WSTRB(32'd0),
    .AXI_16_WVALID(1'b0), .AXI_16_WREADY(),
    .AXI_16_BID(), .AXI_16_BRESP(), .AXI_16_BVALID(), .AXI_16_BREADY(1'b1),
    .AXI_16_ARADDR(r_araddr), .AXI_16_ARBURST(r_arburst), .AXI_16_ARID(6'd0), .AXI_16_ARLEN(r_arlen),
    .AXI_16_ARSIZE(r_arsize), .AXI_16_ARVALID(r_arvalid), .AXI_16_ARREADY(r_arready),
    .AXI_16_RDATA(r_rdata), .AXI_16_RDATA_PARITY(), .AXI_16_RID(), .AXI_16_RLAST(r_rlast),
    .AXI_16_RRESP(r_rresp), .AXI_16_RVALID(r_rvalid), .AXI_16_RREADY(r_rready),
    .DRAM_0_STAT_CATTRIP(cattrip_0), .DRAM_0_STAT_TEMP(temp_0),
    .DRAM_1_STAT_CATTRIP(cattrip_1), .DRAM_1_STAT_TEMP(temp_1)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  assign ready   = apb_done_0 && apb_done_1 && mmcm_locked;
  assign cattrip = cattrip_0 || cattrip_1;

  logic unused;
  assign unused = ^{w_arready_x, w_rid_x, w_rdata_x, w_rresp_x, w_rlast_x, w_rvalid_x, r_awready_x,
                    r_wready_x, r_bid_x, r_bresp_x, r_bvalid_x, w_araddr_x, w_arlen_x, w_arsize_x,
                    w_arburst_x, w_arvalid_x, w_rready_x, r_awaddr_x, r_awlen_x, r_awsize_x,
                    r_awburst_x, r_awvalid_x, r_wdata_x, r_wstrb_x, r_wlast_x, r_wvalid_x,
                    r_bready_x, temp_0, temp_1};

endmodule
