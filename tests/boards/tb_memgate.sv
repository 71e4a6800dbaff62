`default_nettype none

// tb_memgate: board_nic with MEM_EXT = 1 (the NIC's memory outside, as with
// the VCU118's DDR4 and the U55C's HBM) and a stand-in for nic_top
// (build/boards/nic_top_stand_in.sv, from tests/boards/nic_stand_in.py: the
// real ports, an AXI exerciser inside). The m_axi_* port goes to an AXI RAM
// here. The C++ side (tb_memgate.cpp) drives mem_ready and checks that the NIC
// is held in reset until it rises, released within a bound after, reset again
// when it falls, and that the NIC's AXI traffic passes through the port.
module tb_memgate (
  input  wire logic        clk,
  input  wire logic        mac_clk,
  input  wire logic        arst,
  input  wire logic        mem_ready,
  output logic             nic_rst,
  output logic [7:0]       led,
  output logic             x_done,
  output logic             x_err,
  output logic             axi_busy,    // any valid on the memory port
  output logic [23:0]      beat
);

  logic [1:0]   awid, bid, arid, rid, awburst, arburst, bresp, rresp;
  logic [63:0]  awaddr, araddr, wstrb;
  logic [7:0]   awlen, arlen;
  logic [2:0]   awsize, arsize;
  logic         awvalid, awready, wlast, wvalid, wready, bvalid, bready;
  logic         arvalid, arready, rlast, rvalid, rready, rst_ram;
  logic [511:0] wdata, rdata, mac_tx_tdata;
  logic [63:0]  mac_tx_tkeep;
  logic         mac_tx_tvalid, mac_tx_tlast, mac_tx_tuser, uart_txd, exit_valid;
  logic [31:0]  exit_code, c0, c1, c2, c3, c4, c5, c6;

  board_nic #(.MEM_EXT(1'b1), .CLK_HZ(1000000)) u_nic (
    .clk, .arst, .instance_id(8'd0),
    .mac_clk, .mac_rx_reset(1'b0), .mac_tx_reset(1'b0), .mac_rx_aligned(1'b1),
    .mac_rx_tdata('0), .mac_rx_tkeep('0), .mac_rx_tvalid(1'b0), .mac_rx_tlast(1'b0), .mac_rx_tuser(1'b0),
    .mac_tx_tdata, .mac_tx_tkeep, .mac_tx_tvalid, .mac_tx_tready(1'b1), .mac_tx_tlast, .mac_tx_tuser,
    .uart_txd, .uart_rxd(1'b1), .led,
    .mem_ready,
    .m_axi_awid(awid), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize),
    .m_axi_awburst(awburst), .m_axi_awvalid(awvalid), .m_axi_awready(awready),
    .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast), .m_axi_wvalid(wvalid),
    .m_axi_wready(wready), .m_axi_bid(bid), .m_axi_bresp(bresp), .m_axi_bvalid(bvalid),
    .m_axi_bready(bready), .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen),
    .m_axi_arsize(arsize), .m_axi_arburst(arburst), .m_axi_arvalid(arvalid),
    .m_axi_arready(arready), .m_axi_rid(rid), .m_axi_rdata(rdata), .m_axi_rresp(rresp),
    .m_axi_rlast(rlast), .m_axi_rvalid(rvalid), .m_axi_rready(rready),
    .rst_out(nic_rst), .exit_valid, .exit_code,
    .cnt_rx_frames(c0), .cnt_rx_drop_full(c1), .cnt_rx_cut_long(c2), .cnt_rx_cut_link(c3),
    .cnt_tx_frames(c4), .cnt_tx_drop_link(c5), .cnt_tx_too_long(c6)
  );

  // the "board memory": its own reset, independent of the NIC's
  board_reset_sync u_rst_ram (.clk, .arst, .rst(rst_ram));
  board_axi_ram #(.BYTES(65536), .ID_W(2), .STYLE("block")) u_ram (
    .clk, .rst(rst_ram),
    .s_axi_awid(awid), .s_axi_awaddr(awaddr), .s_axi_awlen(awlen), .s_axi_awsize(awsize),
    .s_axi_awburst(awburst), .s_axi_awvalid(awvalid), .s_axi_awready(awready),
    .s_axi_wdata(wdata), .s_axi_wstrb(wstrb), .s_axi_wlast(wlast), .s_axi_wvalid(wvalid),
    .s_axi_wready(wready), .s_axi_bid(bid), .s_axi_bresp(bresp), .s_axi_bvalid(bvalid),
    .s_axi_bready(bready), .s_axi_arid(arid), .s_axi_araddr(araddr), .s_axi_arlen(arlen),
    .s_axi_arsize(arsize), .s_axi_arburst(arburst), .s_axi_arvalid(arvalid),
    .s_axi_arready(arready), .s_axi_rid(rid), .s_axi_rdata(rdata), .s_axi_rresp(rresp),
    .s_axi_rlast(rlast), .s_axi_rvalid(rvalid), .s_axi_rready(rready)
  );

  assign x_done   = u_nic.u_nic.done_q;
  assign x_err    = u_nic.u_nic.err_q;
  assign axi_busy = awvalid || wvalid || arvalid;
  assign beat     = u_nic.beat_q[23:0];

  logic unused;
  assign unused = ^{mac_tx_tdata, mac_tx_tkeep, mac_tx_tvalid, mac_tx_tlast, mac_tx_tuser, uart_txd,
                    exit_valid, exit_code, c0, c1, c2, c3, c4, c5, c6};

endmodule
