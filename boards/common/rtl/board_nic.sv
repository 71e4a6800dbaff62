`default_nettype none

// board_nic: what every board wraps around nic_top, between the CMAC's
// AXI4-Stream ports and the NIC: the reset synchronisers, the clock crossings
// between the CMAC's stream clock (322.265625 MHz) and the NIC clock (250 MHz)
// on RX and TX, the UART pins (nic_top with UART_SERIAL = 1) and status LEDs.
// Board tops (boards/<board>/rtl) add the clocks (MMCM), the CMAC and pins.
//
// The NIC's memory (docs/boards.md, "Memory"): with MEM_EXT = 0 its AXI4
// master goes to MEM_BYTES of on-chip RAM here (board_axi_ram, URAM; the
// m_axi_* ports are idle and mem_ready is not used); with MEM_EXT = 1 it leaves
// on the m_axi_* ports (clk domain) for the board's memory controller (VCU118
// DDR4, U55C HBM), and the NIC, with its crossings, is held in reset until
// mem_ready (any clock domain: the controller's calibration / initialisation
// done) has been high for 4 clk cycles; it is reset again if mem_ready falls.
//
// LEDs: 0 heartbeat (about 1 Hz; 4 Hz while the NIC is held in reset waiting
// for mem_ready), 1 CMAC RX aligned (link up), 2 RX frame activity, 3 TX frame
// activity, 4 a received frame was dropped by the RX crossing (sticky), 5 UART
// TX activity, 6 and 7 off.
module board_nic #(
  parameter              IMEM_INIT   = "",
  parameter logic [31:0] GIT_HASH    = 32'h0,
  parameter int          CLK_HZ      = 250000000,
  parameter int          RX_DEPTH    = 512,     // RX crossing, beats (8 RAMB36)
  parameter int          TX_DEPTH    = 256,     // TX crossing, beats
  parameter int          MAX_FRAME_BYTES = 9600,
  parameter int          LED_STRETCH_LOG2 = 22, // activity LEDs stay on 2^N cycles (16.8 ms)
  parameter bit          MEM_EXT     = 1'b0,    // 0: on-chip RAM here; 1: the m_axi_* ports
  parameter int          MEM_BYTES   = 4194304, // on-chip RAM size (MEM_EXT = 0)
  parameter              MEM_STYLE   = "ultra"
) (
  input  wire logic           clk,             // NIC clock, 250 MHz
  input  wire logic           arst,            // any reset source, active high, asynchronous
  input  wire logic [7:0]     instance_id,
  // CMAC (mac_clk domain)
  input  wire logic           mac_clk,
  input  wire logic           mac_rx_reset,    // usr_rx_reset
  input  wire logic           mac_tx_reset,    // usr_tx_reset
  input  wire logic           mac_rx_aligned,  // stat_rx_aligned
  input  wire logic [511:0]   mac_rx_tdata,
  input  wire logic [63:0]    mac_rx_tkeep,
  input  wire logic           mac_rx_tvalid,
  input  wire logic           mac_rx_tlast,
  input  wire logic           mac_rx_tuser,
  output logic [511:0]        mac_tx_tdata,
  output logic [63:0]         mac_tx_tkeep,
  output logic                mac_tx_tvalid,
  input  wire logic           mac_tx_tready,
  output logic                mac_tx_tlast,
  output logic                mac_tx_tuser,
  // pins
  output logic                uart_txd,
  input  wire logic           uart_rxd,
  output logic [7:0]          led,
  // the NIC's memory when MEM_EXT = 1 (clk domain; AXI4, 512-bit data, 64-bit address)
  input  wire logic           mem_ready,       // any domain: the memory is usable
  output logic [1:0]          m_axi_awid,
  output logic [63:0]         m_axi_awaddr,
  output logic [7:0]          m_axi_awlen,
  output logic [2:0]          m_axi_awsize,
  output logic [1:0]          m_axi_awburst,
  output logic                m_axi_awvalid,
  input  wire logic           m_axi_awready,
  output logic [511:0]        m_axi_wdata,
  output logic [63:0]         m_axi_wstrb,
  output logic                m_axi_wlast,
  output logic                m_axi_wvalid,
  input  wire logic           m_axi_wready,
  input  wire logic [1:0]     m_axi_bid,
  input  wire logic [1:0]     m_axi_bresp,
  input  wire logic           m_axi_bvalid,
  output logic                m_axi_bready,
  output logic [1:0]          m_axi_arid,
  output logic [63:0]         m_axi_araddr,
  output logic [7:0]          m_axi_arlen,
  output logic [2:0]          m_axi_arsize,
  output logic [1:0]          m_axi_arburst,
  output logic                m_axi_arvalid,
  input  wire logic           m_axi_arready,
  input  wire logic [1:0]     m_axi_rid,
  input  wire logic [511:0]   m_axi_rdata,
  input  wire logic [1:0]     m_axi_rresp,
  input  wire logic           m_axi_rlast,
  input  wire logic           m_axi_rvalid,
  output logic                m_axi_rready,
  // status (clk domain) for the board top, the tests and later the registers
  output logic                rst_out,         // the NIC's reset (held while the memory is not ready)
  output logic                exit_valid,      // simctrl (simulation only)
  output logic [31:0]         exit_code,
  output logic [31:0]         cnt_rx_frames,
  output logic [31:0]         cnt_rx_drop_full,
  output logic [31:0]         cnt_rx_cut_long,
  output logic [31:0]         cnt_rx_cut_link,
  output logic [31:0]         cnt_tx_frames,
  output logic [31:0]         cnt_tx_drop_link,
  output logic [31:0]         cnt_tx_too_long
);

  // ---------------------------------------------------------------- resets
  // rst: the NIC and the crossings, also held until the memory is ready;
  // rst_led: the heartbeat, which runs as soon as the clock does.
  logic rst, rst_led, mac_rst, rx_link_down, tx_link_down, mem_wait;

  assign mem_wait = MEM_EXT && !mem_ready;

  board_reset_sync u_rst_sys (.clk(clk),     .arst(arst || mem_wait), .rst(rst));
  board_reset_sync u_rst_led (.clk(clk),     .arst(arst),             .rst(rst_led));
  board_reset_sync u_rst_mac (.clk(mac_clk), .arst(arst || mem_wait), .rst(mac_rst));
  board_reset_sync u_rx_down (.clk(mac_clk), .arst(arst || mem_wait || mac_rx_reset), .rst(rx_link_down));
  board_reset_sync u_tx_down (.clk(mac_clk), .arst(arst || mem_wait || mac_tx_reset), .rst(tx_link_down));
  assign rst_out = rst;

  // ------------------------------------------------------------ crossings
  logic [511:0] eth_rx_tdata, eth_tx_tdata;
  logic [63:0]  eth_rx_tkeep, eth_tx_tkeep;
  logic         eth_rx_tvalid, eth_rx_tlast, eth_rx_tuser;
  logic         eth_tx_tvalid, eth_tx_tready, eth_tx_tlast;

  board_mac_rx_cdc #(.DEPTH(RX_DEPTH), .MAX_FRAME_BYTES(MAX_FRAME_BYTES)) u_rx_cdc (
    .mac_clk, .mac_rst, .link_down(rx_link_down),
    .s_axis_mac_tdata(mac_rx_tdata), .s_axis_mac_tkeep(mac_rx_tkeep),
    .s_axis_mac_tvalid(mac_rx_tvalid), .s_axis_mac_tlast(mac_rx_tlast),
    .s_axis_mac_tuser(mac_rx_tuser),
    .clk, .rst,
    .m_axis_rx_tdata(eth_rx_tdata), .m_axis_rx_tkeep(eth_rx_tkeep),
    .m_axis_rx_tvalid(eth_rx_tvalid), .m_axis_rx_tlast(eth_rx_tlast),
    .m_axis_rx_tuser(eth_rx_tuser),
    .cnt_frames(cnt_rx_frames), .cnt_drop_full(cnt_rx_drop_full),
    .cnt_cut_long(cnt_rx_cut_long), .cnt_cut_link(cnt_rx_cut_link)
  );

  board_mac_tx_cdc #(.DEPTH(TX_DEPTH), .MAX_FRAME_BYTES(MAX_FRAME_BYTES < TX_DEPTH * 64 ? MAX_FRAME_BYTES : TX_DEPTH * 64)) u_tx_cdc (
    .clk, .rst,
    .s_axis_tx_tdata(eth_tx_tdata), .s_axis_tx_tkeep(eth_tx_tkeep),
    .s_axis_tx_tvalid(eth_tx_tvalid), .s_axis_tx_tready(eth_tx_tready),
    .s_axis_tx_tlast(eth_tx_tlast),
    .mac_clk, .mac_rst, .link_down(tx_link_down),
    .m_axis_mac_tdata(mac_tx_tdata), .m_axis_mac_tkeep(mac_tx_tkeep),
    .m_axis_mac_tvalid(mac_tx_tvalid), .m_axis_mac_tready(mac_tx_tready),
    .m_axis_mac_tlast(mac_tx_tlast), .m_axis_mac_tuser(mac_tx_tuser),
    .cnt_frames(cnt_tx_frames), .cnt_drop_link(cnt_tx_drop_link), .cnt_too_long(cnt_tx_too_long)
  );

  // ------------------------------------------------------------------ NIC
  logic       uart_tx_valid, uart_rx_ready, retire, nic_txd;
  logic [7:0] uart_tx_data;

  logic [1:0]   awid, bid, arid, rid, bresp, rresp, awburst, arburst;
  logic [63:0]  awaddr, araddr, wstrb;
  logic [7:0]   awlen, arlen;
  logic [2:0]   awsize, arsize;
  logic         awvalid, awready, wlast, wvalid, wready, bvalid, bready;
  logic         arvalid, arready, rlast, rvalid, rready;
  logic [511:0] wdata, rdata;

  // no user logic: a streaming MR's receive data is dropped (m_urx_ready 1),
  // its read requests answered with zero bytes (roce_ustream_null,
  // docs/user-logic.md)
  logic urd_req_v, urd_req_r, urd_v, urd_r, urd_l, utx_req_v, utx_req_r, utx_v, utx_r, utx_l;
  logic [31:0] urd_req_len, utx_req_len;
  roce_ustream_null u_urd_null (
    .clk, .rst, .s_req_valid(urd_req_v), .s_req_ready(urd_req_r), .s_req_len(urd_req_len),
    .m_valid(urd_v), .m_ready(urd_r), .m_last(urd_l));
  roce_ustream_null u_utx_null (
    .clk, .rst, .s_req_valid(utx_req_v), .s_req_ready(utx_req_r), .s_req_len(utx_req_len),
    .m_valid(utx_v), .m_ready(utx_r), .m_last(utx_l));

  /* verilator lint_off PINCONNECTEMPTY */
  nic_top #(
    .CLK_HZ     (CLK_HZ),
    .GIT_HASH   (GIT_HASH),
    .IMEM_INIT  (IMEM_INIT),
    .UART_SERIAL(1)
  ) u_nic (
    .clk, .rst, .instance_id,
    .uart_tx_valid, .uart_tx_data, .uart_tx_ready(1'b1),
    .uart_rx_valid(1'b0), .uart_rx_data(8'd0), .uart_rx_ready,
    .uart_txd(nic_txd), .uart_rxd,
    .exit_valid, .exit_code, .retire, .irq_external(1'b0),
    .eth_tx_tdata, .eth_tx_tkeep, .eth_tx_tvalid, .eth_tx_tready, .eth_tx_tlast,
    .eth_rx_tdata, .eth_rx_tkeep, .eth_rx_tvalid, .eth_rx_tlast, .eth_rx_tuser,
    .m_axi_awid(awid), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen), .m_axi_awsize(awsize),
    .m_axi_awburst(awburst), .m_axi_awvalid(awvalid), .m_axi_awready(awready),
    .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast), .m_axi_wvalid(wvalid),
    .m_axi_wready(wready), .m_axi_bid(bid), .m_axi_bresp(bresp), .m_axi_bvalid(bvalid),
    .m_axi_bready(bready), .m_axi_arid(arid), .m_axi_araddr(araddr), .m_axi_arlen(arlen),
    .m_axi_arsize(arsize), .m_axi_arburst(arburst), .m_axi_arvalid(arvalid),
    .m_axi_arready(arready), .m_axi_rid(rid), .m_axi_rdata(rdata), .m_axi_rresp(rresp),
    .m_axi_rlast(rlast), .m_axi_rvalid(rvalid), .m_axi_rready(rready),
    // no user logic here (docs/user-logic.md): no work requests, completions taken
    .s_wr_valid(1'b0), .s_wr_ready(), .s_wr_opcode(4'd0), .s_wr_qpn(24'd0), .s_wr_laddr(64'd0), .s_wr_lkey(32'd0),
    .s_wr_raddr(64'd0), .s_wr_rkey(32'd0), .s_wr_len(32'd0), .s_wr_imm(32'd0), .s_wr_compare(64'd0),
    .s_wr_swap_add(64'd0), .s_wr_wr_id(48'd0), .s_wr_signaled(1'b0),
    .s_rq_valid(1'b0), .s_rq_ready(), .s_rq_qpn(24'd0), .s_rq_addr(64'd0), .s_rq_len(32'd0), .s_rq_lkey(32'd0),
    .s_rq_wr_id(48'd0),
    .m_cpl_valid(), .m_cpl_ready(1'b1), .m_cpl_wr_id(), .m_cpl_status(), .m_cpl_opcode(), .m_cpl_byte_len(),
    .m_cpl_qpn(), .m_cpl_imm(), .m_cpl_has_imm(),
    .m_urx_valid(), .m_urx_ready(1'b1), .m_urx_data(), .m_urx_keep(), .m_urx_last(), .m_urx_addr(),
    .m_urx_len(), .m_urx_qpn(), .m_urx_first(), .m_urx_msg_last(), .m_urx_send(),
    .m_urd_req_valid(urd_req_v), .m_urd_req_ready(urd_req_r), .m_urd_req_addr(), .m_urd_req_len(urd_req_len),
    .m_urd_req_qpn(), .s_urd_valid(urd_v), .s_urd_ready(urd_r), .s_urd_data(512'd0), .s_urd_last(urd_l),
    .m_utx_req_valid(utx_req_v), .m_utx_req_ready(utx_req_r), .m_utx_req_addr(), .m_utx_req_len(utx_req_len),
    .m_utx_req_qpn(), .s_utx_valid(utx_v), .s_utx_ready(utx_r), .s_utx_data(512'd0), .s_utx_last(utx_l)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  if (MEM_EXT) begin : g_mem_ext
    assign m_axi_awid    = awid;
    assign m_axi_awaddr  = awaddr;
    assign m_axi_awlen   = awlen;
    assign m_axi_awsize  = awsize;
    assign m_axi_awburst = awburst;
    assign m_axi_awvalid = awvalid;
    assign awready       = m_axi_awready;
    assign m_axi_wdata   = wdata;
    assign m_axi_wstrb   = wstrb;
    assign m_axi_wlast   = wlast;
    assign m_axi_wvalid  = wvalid;
    assign wready        = m_axi_wready;
    assign bid           = m_axi_bid;
    assign bresp         = m_axi_bresp;
    assign bvalid        = m_axi_bvalid;
    assign m_axi_bready  = bready;
    assign m_axi_arid    = arid;
    assign m_axi_araddr  = araddr;
    assign m_axi_arlen   = arlen;
    assign m_axi_arsize  = arsize;
    assign m_axi_arburst = arburst;
    assign m_axi_arvalid = arvalid;
    assign arready       = m_axi_arready;
    assign rid           = m_axi_rid;
    assign rdata         = m_axi_rdata;
    assign rresp         = m_axi_rresp;
    assign rlast         = m_axi_rlast;
    assign rvalid        = m_axi_rvalid;
    assign m_axi_rready  = rready;
  end else begin : g_mem_ram
    board_axi_ram #(.BYTES(MEM_BYTES), .ID_W(2), .STYLE(MEM_STYLE)) u_mem (
      .clk, .rst,
      .s_axi_awid(awid), .s_axi_awaddr(awaddr), .s_axi_awlen(awlen), .s_axi_awsize(awsize),
      .s_axi_awburst(awburst), .s_axi_awvalid(awvalid), .s_axi_awready(awready),
      .s_axi_wdata(wdata), .s_axi_wstrb(wstrb), .s_axi_wlast(wlast), .s_axi_wvalid(wvalid),
      .s_axi_wready(wready), .s_axi_bid(bid), .s_axi_bresp(bresp), .s_axi_bvalid(bvalid),
      .s_axi_bready(bready), .s_axi_arid(arid), .s_axi_araddr(araddr), .s_axi_arlen(arlen),
      .s_axi_arsize(arsize), .s_axi_arburst(arburst), .s_axi_arvalid(arvalid),
      .s_axi_arready(arready), .s_axi_rid(rid), .s_axi_rdata(rdata), .s_axi_rresp(rresp),
      .s_axi_rlast(rlast), .s_axi_rvalid(rvalid), .s_axi_rready(rready)
    );
    // the external memory port is idle
    assign {m_axi_awid, m_axi_awaddr, m_axi_awlen, m_axi_awsize, m_axi_awburst, m_axi_awvalid} = '0;
    assign {m_axi_wdata, m_axi_wstrb, m_axi_wlast, m_axi_wvalid, m_axi_bready} = '0;
    assign {m_axi_arid, m_axi_araddr, m_axi_arlen, m_axi_arsize, m_axi_arburst, m_axi_arvalid} = '0;
    assign m_axi_rready = 1'b0;
    logic unused_ext;
    assign unused_ext = ^{m_axi_awready, m_axi_wready, m_axi_bid, m_axi_bresp, m_axi_bvalid,
                          m_axi_arready, m_axi_rid, m_axi_rdata, m_axi_rresp, m_axi_rlast,
                          m_axi_rvalid};
  end

  // ----------------------------------------------------------- pins, LEDs
  localparam int SW = LED_STRETCH_LOG2;
  logic          txd_q, txd_d, aligned;
  logic [26:0]   beat_q, beat_d;
  logic [SW-1:0] rx_act_q, rx_act_d, tx_act_q, tx_act_d, uart_act_q, uart_act_d;
  logic          drop_seen_q, drop_seen_d;

  board_sync_bit u_sync_aligned (.clk, .rst, .d(mac_rx_aligned), .q(aligned));

  always_comb begin
    txd_d  = nic_txd;
    beat_d = beat_q + 1'b1;
    rx_act_d = (eth_rx_tvalid && eth_rx_tlast) ? '1 : (rx_act_q != '0 ? rx_act_q - 1'b1 : rx_act_q);
    tx_act_d = (eth_tx_tvalid && eth_tx_tready && eth_tx_tlast) ? '1
             : (tx_act_q != '0 ? tx_act_q - 1'b1 : tx_act_q);
    uart_act_d = !nic_txd ? '1 : (uart_act_q != '0 ? uart_act_q - 1'b1 : uart_act_q);
    drop_seen_d = drop_seen_q || (cnt_rx_drop_full != 32'd0);
    uart_txd = txd_q;
    led = {2'b00, uart_act_q != '0, drop_seen_q, tx_act_q != '0, rx_act_q != '0, aligned,
           rst ? beat_q[24] : beat_q[26]};
  end

  always_ff @(posedge clk) begin
    if (rst_led) beat_q <= '0;
    else         beat_q <= beat_d;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      txd_q        <= 1'b1;
      rx_act_q     <= '0;
      tx_act_q     <= '0;
      uart_act_q   <= '0;
      drop_seen_q  <= 1'b0;
    end else begin
      txd_q        <= txd_d;
      rx_act_q     <= rx_act_d;
      tx_act_q     <= tx_act_d;
      uart_act_q   <= uart_act_d;
      drop_seen_q  <= drop_seen_d;
    end
  end

  logic unused;
  assign unused = ^{uart_tx_valid, uart_tx_data, uart_rx_ready, retire, cnt_rx_cut_long[0], mem_ready};

endmodule
