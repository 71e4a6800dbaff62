`default_nettype none

// u55c_hbm_port: the NIC's AXI4 master (250 MHz, 512-bit, 2-bit ID) onto one
// AXI port of the HBM controller (AXI3, 256-bit, 16-beat bursts, its own
// clock hclk, 450 MHz), through three AXI infrastructure IP cores that
// boards/common/tcl/build.tcl creates from board.tcl at build time:
//   hbm_axi_cc  clock converter, asynchronous, AXI4 512-bit, ID 2 bits
//   hbm_axi_dw  data-width converter 512 -> 256 (hclk); single-threaded on
//               its master side, so no ID leaves it and responses keep order
//   hbm_axi_pc  protocol converter AXI4 -> AXI3: bursts split into at most 16
//               beats, their write responses merged back into one
// (AMD's SmartConnect, which does all three, exists only in block designs;
// this flow is RTL-only.) Port lists as the IP's instantiation templates show
// them in public designs: unverified here (no Vivado); stand-ins for lint and
// Yosys in tests/boards/ip_stubs.sv. The address keeps bits 33:0 (the HBM's
// 16 GiB global address); bits 63:34 are ignored.
module u55c_hbm_port (
  input  wire logic         clk,
  input  wire logic         rst,             // clk domain, synchronous
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
  // HBM AXI port (hclk domain)
  input  wire logic         hclk,
  input  wire logic         hrst,            // hclk domain, synchronous
  output logic [33:0]       m_axi_awaddr,
  output logic [3:0]        m_axi_awlen,
  output logic [2:0]        m_axi_awsize,
  output logic [1:0]        m_axi_awburst,
  output logic              m_axi_awvalid,
  input  wire logic         m_axi_awready,
  output logic [255:0]      m_axi_wdata,
  output logic [31:0]       m_axi_wstrb,
  output logic              m_axi_wlast,
  output logic              m_axi_wvalid,
  input  wire logic         m_axi_wready,
  input  wire logic [1:0]   m_axi_bresp,
  input  wire logic         m_axi_bvalid,
  output logic              m_axi_bready,
  output logic [33:0]       m_axi_araddr,
  output logic [3:0]        m_axi_arlen,
  output logic [2:0]        m_axi_arsize,
  output logic [1:0]        m_axi_arburst,
  output logic              m_axi_arvalid,
  input  wire logic         m_axi_arready,
  input  wire logic [255:0] m_axi_rdata,
  input  wire logic [1:0]   m_axi_rresp,
  input  wire logic         m_axi_rlast,
  input  wire logic         m_axi_rvalid,
  output logic              m_axi_rready
);

  localparam int AW = 34;

  // clock converter -> width converter (hclk, 512-bit, ID 2)
  logic [1:0]    c_awid, c_bid, c_arid, c_rid, c_awburst, c_arburst, c_bresp, c_rresp;
  logic [AW-1:0] c_awaddr, c_araddr;
  logic [7:0]    c_awlen, c_arlen;
  logic [2:0]    c_awsize, c_arsize, c_awprot, c_arprot;
  logic [3:0]    c_awcache, c_arcache, c_awregion, c_arregion, c_awqos, c_arqos;
  logic          c_awlock, c_arlock, c_awvalid, c_awready, c_wlast, c_wvalid, c_wready;
  logic          c_bvalid, c_bready, c_arvalid, c_arready, c_rlast, c_rvalid, c_rready;
  logic [511:0]  c_wdata, c_rdata;
  logic [63:0]   c_wstrb;

  hbm_axi_cc u_cc (
    .s_axi_aclk(clk), .s_axi_aresetn(!rst),
    .s_axi_awid, .s_axi_awaddr(s_axi_awaddr[AW-1:0]), .s_axi_awlen, .s_axi_awsize, .s_axi_awburst,
    .s_axi_awlock(1'b0), .s_axi_awcache(4'b0011), .s_axi_awprot(3'b000), .s_axi_awregion(4'd0),
    .s_axi_awqos(4'd0), .s_axi_awvalid, .s_axi_awready,
    .s_axi_wdata, .s_axi_wstrb, .s_axi_wlast, .s_axi_wvalid, .s_axi_wready,
    .s_axi_bid, .s_axi_bresp, .s_axi_bvalid, .s_axi_bready,
    .s_axi_arid, .s_axi_araddr(s_axi_araddr[AW-1:0]), .s_axi_arlen, .s_axi_arsize, .s_axi_arburst,
    .s_axi_arlock(1'b0), .s_axi_arcache(4'b0011), .s_axi_arprot(3'b000), .s_axi_arregion(4'd0),
    .s_axi_arqos(4'd0), .s_axi_arvalid, .s_axi_arready,
    .s_axi_rid, .s_axi_rdata, .s_axi_rresp, .s_axi_rlast, .s_axi_rvalid, .s_axi_rready,
    .m_axi_aclk(hclk), .m_axi_aresetn(!hrst),
    .m_axi_awid(c_awid), .m_axi_awaddr(c_awaddr), .m_axi_awlen(c_awlen), .m_axi_awsize(c_awsize),
    .m_axi_awburst(c_awburst), .m_axi_awlock(c_awlock), .m_axi_awcache(c_awcache),
    .m_axi_awprot(c_awprot), .m_axi_awregion(c_awregion), .m_axi_awqos(c_awqos),
    .m_axi_awvalid(c_awvalid), .m_axi_awready(c_awready),
    .m_axi_wdata(c_wdata), .m_axi_wstrb(c_wstrb), .m_axi_wlast(c_wlast), .m_axi_wvalid(c_wvalid),
    .m_axi_wready(c_wready), .m_axi_bid(c_bid), .m_axi_bresp(c_bresp), .m_axi_bvalid(c_bvalid),
    .m_axi_bready(c_bready),
    .m_axi_arid(c_arid), .m_axi_araddr(c_araddr), .m_axi_arlen(c_arlen), .m_axi_arsize(c_arsize),
    .m_axi_arburst(c_arburst), .m_axi_arlock(c_arlock), .m_axi_arcache(c_arcache),
    .m_axi_arprot(c_arprot), .m_axi_arregion(c_arregion), .m_axi_arqos(c_arqos),
    .m_axi_arvalid(c_arvalid), .m_axi_arready(c_arready),
    .m_axi_rid(c_rid), .m_axi_rdata(c_rdata), .m_axi_rresp(c_rresp), .m_axi_rlast(c_rlast),
    .m_axi_rvalid(c_rvalid), .m_axi_rready(c_rready)
  );

  // width converter -> protocol converter (hclk, 256-bit AXI4, no ID)
  logic [1:0]    d_awburst, d_arburst, d_bresp, d_rresp;
  logic [AW-1:0] d_awaddr, d_araddr;
  logic [7:0]    d_awlen, d_arlen;
  logic [2:0]    d_awsize, d_arsize, d_awprot, d_arprot;
  logic [3:0]    d_awcache, d_arcache, d_awregion, d_arregion, d_awqos, d_arqos;
  logic          d_awlock, d_arlock, d_awvalid, d_awready, d_wlast, d_wvalid, d_wready;
  logic          d_bvalid, d_bready, d_arvalid, d_arready, d_rlast, d_rvalid, d_rready;
  logic [255:0]  d_wdata, d_rdata;
  logic [31:0]   d_wstrb;

  hbm_axi_dw u_dw (
    .s_axi_aclk(hclk), .s_axi_aresetn(!hrst),
    .s_axi_awid(c_awid), .s_axi_awaddr(c_awaddr), .s_axi_awlen(c_awlen), .s_axi_awsize(c_awsize),
    .s_axi_awburst(c_awburst), .s_axi_awlock(c_awlock), .s_axi_awcache(c_awcache),
    .s_axi_awprot(c_awprot), .s_axi_awregion(c_awregion), .s_axi_awqos(c_awqos),
    .s_axi_awvalid(c_awvalid), .s_axi_awready(c_awready),
    .s_axi_wdata(c_wdata), .s_axi_wstrb(c_wstrb), .s_axi_wlast(c_wlast), .s_axi_wvalid(c_wvalid),
    .s_axi_wready(c_wready), .s_axi_bid(c_bid), .s_axi_bresp(c_bresp), .s_axi_bvalid(c_bvalid),
    .s_axi_bready(c_bready),
    .s_axi_arid(c_arid), .s_axi_araddr(c_araddr), .s_axi_arlen(c_arlen), .s_axi_arsize(c_arsize),
    .s_axi_arburst(c_arburst), .s_axi_arlock(c_arlock), .s_axi_arcache(c_arcache),
    .s_axi_arprot(c_arprot), .s_axi_arregion(c_arregion), .s_axi_arqos(c_arqos),
    .s_axi_arvalid(c_arvalid), .s_axi_arready(c_arready),
    .s_axi_rid(c_rid), .s_axi_rdata(c_rdata), .s_axi_rresp(c_rresp), .s_axi_rlast(c_rlast),
    .s_axi_rvalid(c_rvalid), .s_axi_rready(c_rready),
    .m_axi_awaddr(d_awaddr), .m_axi_awlen(d_awlen), .m_axi_awsize(d_awsize),
    .m_axi_awburst(d_awburst), .m_axi_awlock(d_awlock), .m_axi_awcache(d_awcache),
    .m_axi_awprot(d_awprot), .m_axi_awregion(d_awregion), .m_axi_awqos(d_awqos),
    .m_axi_awvalid(d_awvalid), .m_axi_awready(d_awready),
    .m_axi_wdata(d_wdata), .m_axi_wstrb(d_wstrb), .m_axi_wlast(d_wlast), .m_axi_wvalid(d_wvalid),
    .m_axi_wready(d_wready), .m_axi_bresp(d_bresp), .m_axi_bvalid(d_bvalid), .m_axi_bready(d_bready),
    .m_axi_araddr(d_araddr), .m_axi_arlen(d_arlen), .m_axi_arsize(d_arsize),
    .m_axi_arburst(d_arburst), .m_axi_arlock(d_arlock), .m_axi_arcache(d_arcache),
    .m_axi_arprot(d_arprot), .m_axi_arregion(d_arregion), .m_axi_arqos(d_arqos),
    .m_axi_arvalid(d_arvalid), .m_axi_arready(d_arready),
    .m_axi_rdata(d_rdata), .m_axi_rresp(d_rresp), .m_axi_rlast(d_rlast), .m_axi_rvalid(d_rvalid),
    .m_axi_rready(d_rready)
  );

  // protocol converter -> the HBM port (AXI3; lock, cache, prot, QoS not used by the HBM)
  logic [1:0] p_awlock, p_arlock;
  logic [3:0] p_awcache, p_arcache, p_awqos, p_arqos;
  logic [2:0] p_awprot, p_arprot;

  hbm_axi_pc u_pc (
    .aclk(hclk), .aresetn(!hrst),
    .s_axi_awaddr(d_awaddr), .s_axi_awlen(d_awlen), .s_axi_awsize(d_awsize),
    .s_axi_awburst(d_awburst), .s_axi_awlock(d_awlock), .s_axi_awcache(d_awcache),
    .s_axi_awprot(d_awprot), .s_axi_awregion(d_awregion), .s_axi_awqos(d_awqos),
    .s_axi_awvalid(d_awvalid), .s_axi_awready(d_awready),
    .s_axi_wdata(d_wdata), .s_axi_wstrb(d_wstrb), .s_axi_wlast(d_wlast), .s_axi_wvalid(d_wvalid),
    .s_axi_wready(d_wready), .s_axi_bresp(d_bresp), .s_axi_bvalid(d_bvalid), .s_axi_bready(d_bready),
    .s_axi_araddr(d_araddr), .s_axi_arlen(d_arlen), .s_axi_arsize(d_arsize),
    .s_axi_arburst(d_arburst), .s_axi_arlock(d_arlock), .s_axi_arcache(d_arcache),
    .s_axi_arprot(d_arprot), .s_axi_arregion(d_arregion), .s_axi_arqos(d_arqos),
    .s_axi_arvalid(d_arvalid), .s_axi_arready(d_arready),
    .s_axi_rdata(d_rdata), .s_axi_rresp(d_rresp), .s_axi_rlast(d_rlast), .s_axi_rvalid(d_rvalid),
    .s_axi_rready(d_rready),
    .m_axi_awaddr, .m_axi_awlen, .m_axi_awsize, .m_axi_awburst, .m_axi_awlock(p_awlock),
    .m_axi_awcache(p_awcache), .m_axi_awprot(p_awprot), .m_axi_awqos(p_awqos),
    .m_axi_awvalid, .m_axi_awready,
    .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid, .m_axi_wready,
    .m_axi_bresp, .m_axi_bvalid, .m_axi_bready,
    .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arlock(p_arlock),
    .m_axi_arcache(p_arcache), .m_axi_arprot(p_arprot), .m_axi_arqos(p_arqos),
    .m_axi_arvalid, .m_axi_arready,
    .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready
  );

  logic unused;
  assign unused = ^{s_axi_awaddr[63:AW], s_axi_araddr[63:AW], p_awlock, p_arlock, p_awcache,
                    p_arcache, p_awqos, p_arqos, p_awprot, p_arprot};

endmodule
