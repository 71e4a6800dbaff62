// tb_mgmt: the management buffers as the NIC top wires them: net_mgmt_rx,
// net_mgmt_tx and their register block mgmt_regs (generated from
// regs/mgmt.toml) behind one sbus decoder (soc_xbar) at the SoC addresses:
//   0x3001_0000 mgmt registers, 0x4000_0000 RX slots, 0x4001_0000 TX slots.
// This is also the reference wiring for rtl/top.
`default_nettype none

module tb_mgmt #(
  parameter int unsigned RX_SLOTS   = 8,
  parameter int unsigned TX_SLOTS   = 4,
  parameter int unsigned SLOT_BYTES = 2048
) (
  input  wire logic          clk,
  input  wire logic          rst,
  input  wire logic [7:0]    instance_id,  // the NIC top ties this to its INSTANCE parameter
  // sbus master (the bench plays the core)
  input  wire logic          req,
  input  wire logic [31:0]   addr,
  input  wire logic          we,
  input  wire logic [3:0]    be,
  input  wire logic [31:0]   wdata,
  output logic               gnt,
  output logic               rvalid,
  output logic [31:0]        rdata,
  output logic               err,
  // management frames in (from the RX demux)
  input  wire logic [511:0]  s_axis_mgmt_tdata,
  input  wire logic [63:0]   s_axis_mgmt_tkeep,
  input  wire logic          s_axis_mgmt_tvalid,
  output logic               s_axis_mgmt_tready,
  input  wire logic          s_axis_mgmt_tlast,
  input  wire logic          s_axis_mgmt_tuser,
  // management frames out (to the TX arbiter)
  output logic [511:0]       m_axis_mgmt_tdata,
  output logic [63:0]        m_axis_mgmt_tkeep,
  output logic               m_axis_mgmt_tvalid,
  input  wire logic          m_axis_mgmt_tready,
  output logic               m_axis_mgmt_tlast,
  output logic               m_axis_mgmt_tuser
);
  localparam int N = 3;  // 0: registers, 1: RX window, 2: TX window
  logic [N-1:0]    t_req, t_gnt, t_rvalid, t_err;
  logic [31:0]     t_addr, t_wdata;
  logic            t_we;
  logic [3:0]      t_be;
  logic [N*32-1:0] t_rdata;

  soc_xbar #(
    .N(N),
    .BASE({32'h4001_0000, 32'h4000_0000, 32'h3001_0000}),
    .MASK({32'hffff_0000, 32'hffff_0000, 32'hffff_0000})
  ) u_xbar (
    .clk, .rst,
    .s_req(req), .s_addr(addr), .s_we(we), .s_be(be), .s_wdata(wdata),
    .s_gnt(gnt), .s_rvalid(rvalid), .s_rdata(rdata), .s_err(err),
    .m_req(t_req), .m_addr(t_addr), .m_we(t_we), .m_be(t_be), .m_wdata(t_wdata),
    .m_gnt(t_gnt), .m_rvalid(t_rvalid), .m_rdata(t_rdata), .m_err(t_err)
  );

  logic        rx_pop_we, rx_pop_wdata, tx_send_we;
  logic [15:0] tx_send_wdata;
  logic [31:0] rx_head, tx_status;
  logic [7:0]  rx_count;
  logic [31:0] rx_frames, rx_drop_full, rx_drop_too_long, rx_drop_bad, tx_frames, tx_err;
  logic        unused;

  mgmt_regs u_regs (
    .clk, .rst,
    .req(t_req[0]), .we(t_we), .addr(t_addr[15:0]), .be(t_be), .wdata(t_wdata),
    .gnt(t_gnt[0]), .rvalid(t_rvalid[0]), .rdata(t_rdata[31:0]), .err(t_err[0]),
    .instance_i(instance_id),
    .config_i({16'(SLOT_BYTES), 8'(TX_SLOTS), 8'(RX_SLOTS)}),
    .rx_head_i(rx_head),
    .rx_count_i(rx_count),
    .rx_pop_wdata, .rx_pop_we,
    .tx_status_i(tx_status),
    .tx_send_wdata, .tx_send_we,
    .rx_frames_i(rx_frames),
    .rx_drop_full_i(rx_drop_full),
    .rx_drop_too_long_i(rx_drop_too_long),
    .rx_drop_bad_i(rx_drop_bad),
    .tx_frames_i(tx_frames),
    .tx_err_i(tx_err)
  );
  assign unused = ^{rx_pop_wdata, t_addr[31:16]};  // any write pops; the decoder used the high bits

  net_mgmt_rx #(.SLOTS(RX_SLOTS), .SLOT_BYTES(SLOT_BYTES)) u_rx (
    .clk, .rst,
    .s_axis_mgmt_tdata, .s_axis_mgmt_tkeep, .s_axis_mgmt_tvalid, .s_axis_mgmt_tready,
    .s_axis_mgmt_tlast, .s_axis_mgmt_tuser,
    .req(t_req[1]), .we(t_we), .addr(t_addr[15:0]), .be(t_be), .wdata(t_wdata),
    .gnt(t_gnt[1]), .rvalid(t_rvalid[1]), .rdata(t_rdata[63:32]), .err(t_err[1]),
    .rx_pop(rx_pop_we), .rx_head, .rx_count,
    .rx_frames, .rx_drop_full, .rx_drop_too_long, .rx_drop_bad
  );

  net_mgmt_tx #(.SLOTS(TX_SLOTS), .SLOT_BYTES(SLOT_BYTES)) u_tx (
    .clk, .rst,
    .req(t_req[2]), .we(t_we), .addr(t_addr[15:0]), .be(t_be), .wdata(t_wdata),
    .gnt(t_gnt[2]), .rvalid(t_rvalid[2]), .rdata(t_rdata[95:64]), .err(t_err[2]),
    .tx_send(tx_send_we), .tx_send_len(tx_send_wdata), .tx_status,
    .tx_frames, .tx_err,
    .m_axis_mgmt_tdata, .m_axis_mgmt_tkeep, .m_axis_mgmt_tvalid, .m_axis_mgmt_tready,
    .m_axis_mgmt_tlast, .m_axis_mgmt_tuser
  );
endmodule
