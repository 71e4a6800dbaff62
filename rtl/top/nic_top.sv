`default_nettype none

// nic_top: the board-independent solonic NIC. Boards (boards/) wrap it with
// their MAC, clocks and pins; the simulator wraps it in sim/sim_nic.sv.
//
//   soc_top (RV32 core, BRAMs, UART, timer)
//     m_ext sbus --> nic_dpbus: datapath registers (0x3000_0000 + 64 KiB per block)
//                               and the management buffers (0x4000_0000, 0x4001_0000)
//   MAC RX --> net_rx --RoCE frames--> (RoCE transport)
//                     --other frames--> net_mgmt_rx --> firmware (lwIP)
//   firmware --> net_mgmt_tx --\
//   (RoCE transport) -----------+--> net_tx_arbiter --> MAC TX
//
// The MAC streams carry Ethernet frames without FCS, byte 0 in tdata[7:0];
// RX has no tready (a MAC cannot be back-pressured).
module nic_top #(
  parameter int          IMEM_BYTES  = 262144,
  parameter int          DMEM_BYTES  = 262144,
  parameter int          CLK_HZ      = 250000000,
  parameter logic [31:0] GIT_HASH    = 32'h0,
  parameter              IMEM_INIT   = "",
  parameter              FW_PLUSARG  = "fw",
  parameter int          UART_SERIAL = 0,
  parameter int          MGMT_RX_SLOTS = 8,
  parameter int          MGMT_TX_SLOTS = 4,
  parameter int          MGMT_SLOT_BYTES = 2048
) (
  input  wire logic                         clk,
  input  wire logic                         rst,
  input  wire logic [7:0]                   instance_id,   // which NIC this is (firmware default MAC/IP)
  // UART: character interface (simulation) or pins (UART_SERIAL = 1)
  output logic                              uart_tx_valid,
  output logic [7:0]                        uart_tx_data,
  input  wire logic                         uart_tx_ready,
  input  wire logic                         uart_rx_valid,
  input  wire logic [7:0]                   uart_rx_data,
  output logic                              uart_rx_ready,
  output logic                              uart_txd,
  input  wire logic                         uart_rxd,
  // simulation control and observation
  output logic                              exit_valid,
  output logic [31:0]                       exit_code,
  output logic                              retire,
  input  wire logic                         irq_external,
  // MAC TX
  output logic [net_pkg::DATA_W-1:0]        eth_tx_tdata,
  output logic [net_pkg::KEEP_W-1:0]        eth_tx_tkeep,
  output logic                              eth_tx_tvalid,
  input  wire logic                         eth_tx_tready,
  output logic                              eth_tx_tlast,
  // MAC RX (no tready)
  input  wire logic [net_pkg::DATA_W-1:0]   eth_rx_tdata,
  input  wire logic [net_pkg::KEEP_W-1:0]   eth_rx_tkeep,
  input  wire logic                         eth_rx_tvalid,
  input  wire logic                         eth_rx_tlast,
  input  wire logic                         eth_rx_tuser    // on tlast: the MAC saw an error
);

  localparam int DW = net_pkg::DATA_W;
  localparam int KW = net_pkg::KEEP_W;

  // ------------------------------------------------------------------ SoC
  logic        ext_req, ext_we, ext_gnt, ext_rvalid, ext_err;
  logic [31:0] ext_addr, ext_wdata, ext_rdata;
  logic [3:0]  ext_be;

  soc_top #(
    .IMEM_BYTES (IMEM_BYTES),
    .DMEM_BYTES (DMEM_BYTES),
    .CLK_HZ     (CLK_HZ),
    .GIT_HASH   (GIT_HASH),
    .IMEM_INIT  (IMEM_INIT),
    .FW_PLUSARG (FW_PLUSARG),
    .UART_SERIAL(UART_SERIAL)
  ) u_soc (
    .clk, .rst,
    .m_ext_req   (ext_req),
    .m_ext_addr  (ext_addr),
    .m_ext_we    (ext_we),
    .m_ext_be    (ext_be),
    .m_ext_wdata (ext_wdata),
    .m_ext_gnt   (ext_gnt),
    .m_ext_rvalid(ext_rvalid),
    .m_ext_rdata (ext_rdata),
    .m_ext_err   (ext_err),
    .uart_tx_valid, .uart_tx_data, .uart_tx_ready,
    .uart_rx_valid, .uart_rx_data, .uart_rx_ready,
    .uart_txd, .uart_rxd,
    .exit_valid, .exit_code, .retire, .irq_external
  );

  // ------------------------------------------- datapath bus (m_ext decode)
  // target 0: net registers, 1: mgmt registers, 2: mgmt RX buffer, 3: mgmt TX buffer
  localparam int NT = 4;
  localparam logic [NT*32-1:0] DP_BASE = {32'h4001_0000, 32'h4000_0000, 32'h3001_0000, 32'h3000_0000};
  localparam logic [NT*32-1:0] DP_MASK = {NT{32'hFFFF_0000}};

  logic [NT-1:0]    t_req, t_gnt, t_rvalid, t_err;
  logic [NT*32-1:0] t_rdata;
  logic [31:0]      t_addr, t_wdata;
  logic             t_we;
  logic [3:0]       t_be;

  soc_xbar #(.N(NT), .BASE(DP_BASE), .MASK(DP_MASK)) u_dpbus (
    .clk, .rst,
    .s_req   (ext_req),
    .s_addr  (ext_addr),
    .s_we    (ext_we),
    .s_be    (ext_be),
    .s_wdata (ext_wdata),
    .s_gnt   (ext_gnt),
    .s_rvalid(ext_rvalid),
    .s_rdata (ext_rdata),
    .s_err   (ext_err),
    .m_req   (t_req),
    .m_addr  (t_addr),
    .m_we    (t_we),
    .m_be    (t_be),
    .m_wdata (t_wdata),
    .m_gnt   (t_gnt),
    .m_rvalid(t_rvalid),
    .m_rdata (t_rdata),
    .m_err   (t_err)
  );

  // ------------------------------------------------------------- net layer
  logic [15:0] mac_hi;
  logic [31:0] mac_lo, our_ip;
  logic [31:0] cnt_rx_roce, cnt_rx_mgmt, cnt_drop_bad_csum, cnt_drop_trunc, cnt_drop_bad_hdr,
               cnt_drop_malformed, cnt_drop_mac_err, cnt_drop_not_for_us, cnt_drop_roce_full,
               cnt_drop_mgmt_full;
  logic [31:0] cnt_tx_frames_q, cnt_tx_frames_d;

  logic [DW-1:0] roce_rx_tdata;
  logic [KW-1:0] roce_rx_tkeep;
  logic          roce_rx_tvalid, roce_rx_tready, roce_rx_tlast, roce_rx_tuser;
  logic          roce_hdr_valid, roce_hdr_ready;
  net_pkg::net_hdr_t roce_hdr;

  logic [DW-1:0] mgmt_rx_tdata;
  logic [KW-1:0] mgmt_rx_tkeep;
  logic          mgmt_rx_tvalid, mgmt_rx_tready, mgmt_rx_tlast, mgmt_rx_tuser;

  net_rx u_net_rx (
    .clk, .rst,
    .our_mac             ({mac_hi, mac_lo}),
    .our_ip              (our_ip),
    .s_axis_rx_tdata     (eth_rx_tdata),
    .s_axis_rx_tkeep     (eth_rx_tkeep),
    .s_axis_rx_tvalid    (eth_rx_tvalid),
    .s_axis_rx_tlast     (eth_rx_tlast),
    .s_axis_rx_tuser     (eth_rx_tuser),
    .m_axis_roce_tdata   (roce_rx_tdata),
    .m_axis_roce_tkeep   (roce_rx_tkeep),
    .m_axis_roce_tvalid  (roce_rx_tvalid),
    .m_axis_roce_tready  (roce_rx_tready),
    .m_axis_roce_tlast   (roce_rx_tlast),
    .m_axis_roce_tuser   (roce_rx_tuser),
    .m_roce_hdr_valid    (roce_hdr_valid),
    .m_roce_hdr_ready    (roce_hdr_ready),
    .m_roce_hdr          (roce_hdr),
    .m_axis_mgmt_tdata   (mgmt_rx_tdata),
    .m_axis_mgmt_tkeep   (mgmt_rx_tkeep),
    .m_axis_mgmt_tvalid  (mgmt_rx_tvalid),
    .m_axis_mgmt_tready  (mgmt_rx_tready),
    .m_axis_mgmt_tlast   (mgmt_rx_tlast),
    .m_axis_mgmt_tuser   (mgmt_rx_tuser),
    .cnt_rx_roce, .cnt_rx_mgmt, .cnt_drop_bad_csum, .cnt_drop_trunc, .cnt_drop_bad_hdr,
    .cnt_drop_malformed, .cnt_drop_mac_err, .cnt_drop_not_for_us, .cnt_drop_roce_full,
    .cnt_drop_mgmt_full
  );

  // The RoCE transport is not attached yet: its frames are taken and dropped
  // (they are counted in rx_roce).
  logic roce_unused;
  always_comb begin
    roce_rx_tready = 1'b1;
    roce_hdr_ready = 1'b1;
    roce_unused = ^{roce_rx_tdata, roce_rx_tkeep, roce_rx_tvalid, roce_rx_tlast, roce_rx_tuser,
                    roce_hdr_valid, roce_hdr};
  end

  net_regs u_net_regs (
    .clk, .rst,
    .req   (t_req[0]),
    .we    (t_we),
    .addr  (t_addr[15:0]),
    .be    (t_be),
    .wdata (t_wdata),
    .gnt   (t_gnt[0]),
    .rvalid(t_rvalid[0]),
    .rdata (t_rdata[0*32 +: 32]),
    .err   (t_err[0]),
    .mac_hi_q          (mac_hi),
    .mac_lo_q          (mac_lo),
    .ip_q              (our_ip),
    .rx_roce_i         (cnt_rx_roce),
    .rx_mgmt_i         (cnt_rx_mgmt),
    .drop_bad_csum_i   (cnt_drop_bad_csum),
    .drop_trunc_i      (cnt_drop_trunc),
    .drop_bad_hdr_i    (cnt_drop_bad_hdr),
    .drop_malformed_i  (cnt_drop_malformed),
    .drop_mac_err_i    (cnt_drop_mac_err),
    .drop_not_for_us_i (cnt_drop_not_for_us),
    .drop_roce_full_i  (cnt_drop_roce_full),
    .drop_mgmt_full_i  (cnt_drop_mgmt_full),
    .tx_frames_i       (cnt_tx_frames_q)
  );

  // ------------------------------------------------------ management path
  logic        rx_pop_we, rx_pop_wdata, tx_send_we;
  logic [15:0] tx_send_wdata;
  logic [31:0] mgmt_rx_head, mgmt_rx_frames, mgmt_rx_drop_full, mgmt_rx_drop_too_long, mgmt_rx_drop_bad;
  logic [7:0]  mgmt_rx_count;
  logic [31:0] mgmt_tx_status, mgmt_tx_frames, mgmt_tx_err;

  logic [DW-1:0] mgmt_tx_tdata;
  logic [KW-1:0] mgmt_tx_tkeep;
  logic          mgmt_tx_tvalid, mgmt_tx_tready, mgmt_tx_tlast, mgmt_tx_tuser;

  net_mgmt_rx #(.SLOTS(MGMT_RX_SLOTS), .SLOT_BYTES(MGMT_SLOT_BYTES)) u_mgmt_rx (
    .clk, .rst,
    .s_axis_mgmt_tdata (mgmt_rx_tdata),
    .s_axis_mgmt_tkeep (mgmt_rx_tkeep),
    .s_axis_mgmt_tvalid(mgmt_rx_tvalid),
    .s_axis_mgmt_tready(mgmt_rx_tready),
    .s_axis_mgmt_tlast (mgmt_rx_tlast),
    .s_axis_mgmt_tuser (mgmt_rx_tuser),
    .req   (t_req[2]),
    .we    (t_we),
    .addr  (t_addr[15:0]),
    .be    (t_be),
    .wdata (t_wdata),
    .gnt   (t_gnt[2]),
    .rvalid(t_rvalid[2]),
    .rdata (t_rdata[2*32 +: 32]),
    .err   (t_err[2]),
    .rx_pop          (rx_pop_we && rx_pop_wdata),
    .rx_head         (mgmt_rx_head),
    .rx_count        (mgmt_rx_count),
    .rx_frames       (mgmt_rx_frames),
    .rx_drop_full    (mgmt_rx_drop_full),
    .rx_drop_too_long(mgmt_rx_drop_too_long),
    .rx_drop_bad     (mgmt_rx_drop_bad)
  );

  net_mgmt_tx #(.SLOTS(MGMT_TX_SLOTS), .SLOT_BYTES(MGMT_SLOT_BYTES)) u_mgmt_tx (
    .clk, .rst,
    .req   (t_req[3]),
    .we    (t_we),
    .addr  (t_addr[15:0]),
    .be    (t_be),
    .wdata (t_wdata),
    .gnt   (t_gnt[3]),
    .rvalid(t_rvalid[3]),
    .rdata (t_rdata[3*32 +: 32]),
    .err   (t_err[3]),
    .tx_send    (tx_send_we),
    .tx_send_len(tx_send_wdata),
    .tx_status  (mgmt_tx_status),
    .tx_frames  (mgmt_tx_frames),
    .tx_err     (mgmt_tx_err),
    .m_axis_mgmt_tdata (mgmt_tx_tdata),
    .m_axis_mgmt_tkeep (mgmt_tx_tkeep),
    .m_axis_mgmt_tvalid(mgmt_tx_tvalid),
    .m_axis_mgmt_tready(mgmt_tx_tready),
    .m_axis_mgmt_tlast (mgmt_tx_tlast),
    .m_axis_mgmt_tuser (mgmt_tx_tuser)
  );

  mgmt_regs u_mgmt_regs (
    .clk, .rst,
    .req   (t_req[1]),
    .we    (t_we),
    .addr  (t_addr[15:0]),
    .be    (t_be),
    .wdata (t_wdata),
    .gnt   (t_gnt[1]),
    .rvalid(t_rvalid[1]),
    .rdata (t_rdata[1*32 +: 32]),
    .err   (t_err[1]),
    .instance_i        (instance_id),
    .config_i          ({16'(MGMT_SLOT_BYTES), 8'(MGMT_TX_SLOTS), 8'(MGMT_RX_SLOTS)}),
    .rx_head_i         (mgmt_rx_head),
    .rx_count_i        (mgmt_rx_count),
    .rx_pop_wdata      (rx_pop_wdata),
    .rx_pop_we         (rx_pop_we),
    .tx_status_i       (mgmt_tx_status),
    .tx_send_wdata     (tx_send_wdata),
    .tx_send_we        (tx_send_we),
    .rx_frames_i       (mgmt_rx_frames),
    .rx_drop_full_i    (mgmt_rx_drop_full),
    .rx_drop_too_long_i(mgmt_rx_drop_too_long),
    .rx_drop_bad_i     (mgmt_rx_drop_bad),
    .tx_frames_i       (mgmt_tx_frames),
    .tx_err_i          (mgmt_tx_err)
  );

  // ------------------------------------------------------------------- TX
  logic eth_tx_tuser;
  logic roce_tx_tready;  // no RoCE transmitter yet

  net_tx_arbiter #(.USER_W(1)) u_tx_arb (
    .clk, .rst,
    .s_axis_roce_tdata ('0),
    .s_axis_roce_tkeep ('0),
    .s_axis_roce_tvalid(1'b0),
    .s_axis_roce_tready(roce_tx_tready),
    .s_axis_roce_tlast (1'b0),
    .s_axis_roce_tuser (1'b0),
    .s_axis_mgmt_tdata (mgmt_tx_tdata),
    .s_axis_mgmt_tkeep (mgmt_tx_tkeep),
    .s_axis_mgmt_tvalid(mgmt_tx_tvalid),
    .s_axis_mgmt_tready(mgmt_tx_tready),
    .s_axis_mgmt_tlast (mgmt_tx_tlast),
    .s_axis_mgmt_tuser (mgmt_tx_tuser),
    .m_axis_tx_tdata   (eth_tx_tdata),
    .m_axis_tx_tkeep   (eth_tx_tkeep),
    .m_axis_tx_tvalid  (eth_tx_tvalid),
    .m_axis_tx_tready  (eth_tx_tready),
    .m_axis_tx_tlast   (eth_tx_tlast),
    .m_axis_tx_tuser   (eth_tx_tuser)
  );

  logic tx_unused;
  always_comb begin
    tx_unused = ^{eth_tx_tuser, roce_tx_tready, t_addr[31:16]};  // the decoder used the upper bits
    cnt_tx_frames_d = cnt_tx_frames_q + 32'(eth_tx_tvalid && eth_tx_tready && eth_tx_tlast);
  end

  always_ff @(posedge clk) begin
    if (rst) cnt_tx_frames_q <= '0;
    else     cnt_tx_frames_q <= cnt_tx_frames_d;
  end

endmodule
