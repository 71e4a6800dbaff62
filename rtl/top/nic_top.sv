`default_nettype none

// nic_top: the board-independent solonic NIC. Boards (boards/) wrap it with
// their MAC, clocks and pins; the simulator wraps it in sim/sim_nic.sv.
//
//   soc_top (RV32 core, BRAMs, UART, timer)
//     m_ext sbus --> nic_dpbus: datapath registers (0x3000_0000 + 64 KiB per block)
//                               and the management buffers (0x4000_0000, 0x4001_0000)
//   MAC RX --> net_rx --RoCE frames--> roce_transport <--> mem_axi_arb <--> AXI4 on-board
//                                       mem_pattern (fill/check) <-->      memory
//                     --other frames--> net_mgmt_rx --> firmware (lwIP)
//   firmware --> net_mgmt_tx --\
//   roce_transport -------------+--> net_tx_arbiter --> MAC TX
//   user logic --work requests--> roce_transport --their completions--> user logic
//       (s_wr_*, m_cpl_*, and the streaming MRs' m_urx_* / m_urd_* / m_utx_*:
//       docs/user-logic.md); USER_EXAMPLES = 1 builds rtl/user's examples in
//       there (user_examples, registers at 0x3004_0000) instead of the ports
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
  parameter int          MGMT_SLOT_BYTES = 2048,
  parameter int          NQP         = 256,   // queue pairs (QPN 2..NQP-1)
  parameter int          NMR         = 256,   // memory regions
  // user logic's work requests outstanding at most (docs/user-logic.md)
  parameter int          USER_OUTSTANDING = 64,   // the SQ depth: a QP keeps a round trip of 64 B WRITEs in flight
  parameter int          USER_RQ_OUTSTANDING = 16,
  // 1: the user-logic examples (rtl/user: a streaming source, a checking sink, the
  // console's `user`) drive the transport's user ports, and nic_top's own user ports
  // are idle; 0: nic_top's user ports are the transport's (docs/user-logic.md)
  parameter int          USER_EXAMPLES = 1
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
  input  wire logic                         eth_rx_tuser,   // on tlast: the MAC saw an error
  // AXI4 master to the on-board memory (DDR/HBM; a model in simulation)
  output logic [1:0]                        m_axi_awid,
  output logic [63:0]                       m_axi_awaddr,
  output logic [7:0]                        m_axi_awlen,
  output logic [2:0]                        m_axi_awsize,
  output logic [1:0]                        m_axi_awburst,
  output logic                              m_axi_awvalid,
  input  wire logic                         m_axi_awready,
  output logic [511:0]                      m_axi_wdata,
  output logic [63:0]                       m_axi_wstrb,
  output logic                              m_axi_wlast,
  output logic                              m_axi_wvalid,
  input  wire logic                         m_axi_wready,
  input  wire logic [1:0]                   m_axi_bid,
  input  wire logic [1:0]                   m_axi_bresp,
  input  wire logic                         m_axi_bvalid,
  output logic                              m_axi_bready,
  output logic [1:0]                        m_axi_arid,
  output logic [63:0]                       m_axi_araddr,
  output logic [7:0]                        m_axi_arlen,
  output logic [2:0]                        m_axi_arsize,
  output logic [1:0]                        m_axi_arburst,
  output logic                              m_axi_arvalid,
  input  wire logic                         m_axi_arready,
  input  wire logic [1:0]                   m_axi_rid,
  input  wire logic [511:0]                 m_axi_rdata,
  input  wire logic [1:0]                   m_axi_rresp,
  input  wire logic                         m_axi_rlast,
  input  wire logic                         m_axi_rvalid,
  output logic                              m_axi_rready,
  // user logic (docs/user-logic.md): work requests in, their completions out;
  // tie s_wr_valid to 0 and m_cpl_ready to 1 when nothing is connected
  input  wire logic                         s_wr_valid,
  output logic                              s_wr_ready,
  input  wire logic [3:0]                   s_wr_opcode,
  input  wire logic [23:0]                  s_wr_qpn,
  input  wire logic [63:0]                  s_wr_laddr,
  input  wire logic [31:0]                  s_wr_lkey,
  input  wire logic [63:0]                  s_wr_raddr,
  input  wire logic [31:0]                  s_wr_rkey,
  input  wire logic [31:0]                  s_wr_len,
  input  wire logic [31:0]                  s_wr_imm,
  input  wire logic [63:0]                  s_wr_compare,
  input  wire logic [63:0]                  s_wr_swap_add,
  input  wire logic [47:0]                  s_wr_wr_id,
  input  wire logic                         s_wr_signaled,
  // tie s_rq_valid to 0 when nothing is connected
  input  wire logic                         s_rq_valid,
  output logic                              s_rq_ready,
  input  wire logic [23:0]                  s_rq_qpn,
  input  wire logic [63:0]                  s_rq_addr,
  input  wire logic [31:0]                  s_rq_len,
  input  wire logic [31:0]                  s_rq_lkey,
  input  wire logic [47:0]                  s_rq_wr_id,
  output logic                              m_cpl_valid,
  input  wire logic                         m_cpl_ready,
  output logic [47:0]                       m_cpl_wr_id,
  output logic [4:0]                        m_cpl_status,
  output logic [7:0]                        m_cpl_opcode,
  output logic [31:0]                       m_cpl_byte_len,
  output logic [23:0]                       m_cpl_qpn,
  output logic [31:0]                       m_cpl_imm,
  output logic                              m_cpl_has_imm,
  // user logic: the streaming MRs (docs/user-logic.md, "Streaming MRs"), with
  // nothing connected tie m_urx_ready to 1 and answer the two request
  // streams with roce_ustream_null (sim/sim_nic.sv, board_nic.sv)
  output logic                              m_urx_valid,
  input  wire logic                         m_urx_ready,
  output logic [511:0]                      m_urx_data,
  output logic [63:0]                       m_urx_keep,
  output logic                              m_urx_last,
  output logic [63:0]                       m_urx_addr,
  output logic [31:0]                       m_urx_len,
  output logic [23:0]                       m_urx_qpn,
  output logic                              m_urx_first,
  output logic                              m_urx_msg_last,
  output logic                              m_urx_send,
  output logic                              m_urd_req_valid,
  input  wire logic                         m_urd_req_ready,
  output logic [63:0]                       m_urd_req_addr,
  output logic [31:0]                       m_urd_req_len,
  output logic [23:0]                       m_urd_req_qpn,
  input  wire logic                         s_urd_valid,
  output logic                              s_urd_ready,
  input  wire logic [511:0]                 s_urd_data,
  input  wire logic                         s_urd_last,
  output logic                              m_utx_req_valid,
  input  wire logic                         m_utx_req_ready,
  output logic [63:0]                       m_utx_req_addr,
  output logic [31:0]                       m_utx_req_len,
  output logic [23:0]                       m_utx_req_qpn,
  input  wire logic                         s_utx_valid,
  output logic                              s_utx_ready,
  input  wire logic [511:0]                 s_utx_data,
  input  wire logic                         s_utx_last
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
  // target 0: net registers, 1: mgmt registers, 2: mgmt RX buffer, 3: mgmt TX buffer,
  // 4: RoCE transport registers, 5: fill/check engine registers
  // (6: the user-logic examples' registers, when built in)
  localparam int NT = USER_EXAMPLES != 0 ? 7 : 6;
  localparam logic [7*32-1:0] DP_BASE_ALL = {32'h3004_0000, 32'h3003_0000, 32'h3002_0000, 32'h4001_0000,
                                             32'h4000_0000, 32'h3001_0000, 32'h3000_0000};
  localparam logic [NT*32-1:0] DP_BASE = DP_BASE_ALL[NT*32-1:0];
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

  // ------------------------------------------------------- RoCE transport
  // The transport parses the headers from the frame itself (the ICRC covers
  // them): net_rx's parsed-header channel is not needed.
  logic [DW-1:0] roce_tx_tdata;
  logic [KW-1:0] roce_tx_tkeep;
  logic          roce_tx_tvalid, roce_tx_tready, roce_tx_tlast;
  logic          roce_unused;
  localparam int MEM_NR = 3, MEM_NW = 4;
  logic [MEM_NR*64-1:0] c_araddr;  logic [MEM_NR*8-1:0] c_arlen;
  logic [MEM_NR-1:0]    c_arvalid, c_arready, c_rvalid, c_rready;
  logic [DW-1:0]        c_rdata;   logic [1:0] c_rresp, c_bresp;  logic c_rlast;
  logic [MEM_NW*64-1:0] c_awaddr;  logic [MEM_NW*8-1:0] c_awlen;
  logic [MEM_NW-1:0]    c_awvalid, c_awready, c_wlast, c_wvalid, c_wready, c_bvalid, c_bready;
  logic [MEM_NW*DW-1:0] c_wdata;   logic [MEM_NW*KW-1:0] c_wstrb;
  always_comb begin
    roce_hdr_ready = 1'b1;
    roce_unused = ^{roce_hdr_valid, roce_hdr};
  end

  // The transport's user ports (x_*): the built-in examples' (USER_EXAMPLES = 1, rtl/user)
  // or nic_top's own ports (USER_EXAMPLES = 0); the other side is left idle.
  logic x_s_wr_valid;
  logic x_s_wr_ready;
  logic [3:0] x_s_wr_opcode;
  logic [23:0] x_s_wr_qpn;
  logic [63:0] x_s_wr_laddr;
  logic [31:0] x_s_wr_lkey;
  logic [63:0] x_s_wr_raddr;
  logic [31:0] x_s_wr_rkey;
  logic [31:0] x_s_wr_len;
  logic [31:0] x_s_wr_imm;
  logic [63:0] x_s_wr_compare;
  logic [63:0] x_s_wr_swap_add;
  logic [47:0] x_s_wr_wr_id;
  logic x_s_wr_signaled;
  logic x_s_rq_valid;
  logic x_s_rq_ready;
  logic [23:0] x_s_rq_qpn;
  logic [63:0] x_s_rq_addr;
  logic [31:0] x_s_rq_len;
  logic [31:0] x_s_rq_lkey;
  logic [47:0] x_s_rq_wr_id;
  logic x_m_cpl_valid;
  logic x_m_cpl_ready;
  logic [47:0] x_m_cpl_wr_id;
  logic [4:0] x_m_cpl_status;
  logic [7:0] x_m_cpl_opcode;
  logic [31:0] x_m_cpl_byte_len;
  logic [23:0] x_m_cpl_qpn;
  logic [31:0] x_m_cpl_imm;
  logic x_m_cpl_has_imm;
  logic x_m_urx_valid;
  logic x_m_urx_ready;
  logic [511:0] x_m_urx_data;
  logic [63:0] x_m_urx_keep;
  logic x_m_urx_last;
  logic [63:0] x_m_urx_addr;
  logic [31:0] x_m_urx_len;
  logic [23:0] x_m_urx_qpn;
  logic x_m_urx_first;
  logic x_m_urx_msg_last;
  logic x_m_urx_send;
  logic x_m_urd_req_valid;
  logic x_m_urd_req_ready;
  logic [63:0] x_m_urd_req_addr;
  logic [31:0] x_m_urd_req_len;
  logic [23:0] x_m_urd_req_qpn;
  logic x_s_urd_valid;
  logic x_s_urd_ready;
  logic [511:0] x_s_urd_data;
  logic x_s_urd_last;
  logic x_m_utx_req_valid;
  logic x_m_utx_req_ready;
  logic [63:0] x_m_utx_req_addr;
  logic [31:0] x_m_utx_req_len;
  logic [23:0] x_m_utx_req_qpn;
  logic x_s_utx_valid;
  logic x_s_utx_ready;
  logic [511:0] x_s_utx_data;
  logic x_s_utx_last;

  roce_transport #(.NQP(NQP), .NMR(NMR), .CLK_HZ(CLK_HZ), .USER_OUTSTANDING(USER_OUTSTANDING),
                  .USER_RQ_OUTSTANDING(USER_RQ_OUTSTANDING)) u_roce (
    .clk, .rst,
    .our_mac          ({mac_hi, mac_lo}),
    .our_ip           (our_ip),
    .s_axis_rx_tdata  (roce_rx_tdata),
    .s_axis_rx_tkeep  (roce_rx_tkeep),
    .s_axis_rx_tvalid (roce_rx_tvalid),
    .s_axis_rx_tready (roce_rx_tready),
    .s_axis_rx_tlast  (roce_rx_tlast),
    .s_axis_rx_tuser  (roce_rx_tuser),
    .m_axis_tx_tdata  (roce_tx_tdata),
    .m_axis_tx_tkeep  (roce_tx_tkeep),
    .m_axis_tx_tvalid (roce_tx_tvalid),
    .m_axis_tx_tready (roce_tx_tready),
    .m_axis_tx_tlast  (roce_tx_tlast),
    .s_wr_valid(x_s_wr_valid), .s_wr_ready(x_s_wr_ready), .s_wr_opcode(x_s_wr_opcode), .s_wr_qpn(x_s_wr_qpn),
    .s_wr_laddr(x_s_wr_laddr), .s_wr_lkey(x_s_wr_lkey), .s_wr_raddr(x_s_wr_raddr), .s_wr_rkey(x_s_wr_rkey),
    .s_wr_len(x_s_wr_len), .s_wr_imm(x_s_wr_imm), .s_wr_compare(x_s_wr_compare), .s_wr_swap_add(x_s_wr_swap_add),
    .s_wr_wr_id(x_s_wr_wr_id), .s_wr_signaled(x_s_wr_signaled),
    .s_rq_valid(x_s_rq_valid), .s_rq_ready(x_s_rq_ready), .s_rq_qpn(x_s_rq_qpn), .s_rq_addr(x_s_rq_addr),
    .s_rq_len(x_s_rq_len), .s_rq_lkey(x_s_rq_lkey), .s_rq_wr_id(x_s_rq_wr_id), .m_cpl_valid(x_m_cpl_valid), .m_cpl_ready(x_m_cpl_ready),
    .m_cpl_wr_id(x_m_cpl_wr_id), .m_cpl_status(x_m_cpl_status), .m_cpl_opcode(x_m_cpl_opcode), .m_cpl_byte_len(x_m_cpl_byte_len),
    .m_cpl_qpn(x_m_cpl_qpn), .m_cpl_imm(x_m_cpl_imm), .m_cpl_has_imm(x_m_cpl_has_imm), .m_urx_valid(x_m_urx_valid),
    .m_urx_ready(x_m_urx_ready), .m_urx_data(x_m_urx_data), .m_urx_keep(x_m_urx_keep), .m_urx_last(x_m_urx_last),
    .m_urx_addr(x_m_urx_addr), .m_urx_len(x_m_urx_len), .m_urx_qpn(x_m_urx_qpn), .m_urx_first(x_m_urx_first),
    .m_urx_msg_last(x_m_urx_msg_last), .m_urx_send(x_m_urx_send), .m_urd_req_valid(x_m_urd_req_valid), .m_urd_req_ready(x_m_urd_req_ready),
    .m_urd_req_addr(x_m_urd_req_addr), .m_urd_req_len(x_m_urd_req_len), .m_urd_req_qpn(x_m_urd_req_qpn), .s_urd_valid(x_s_urd_valid),
    .s_urd_ready(x_s_urd_ready), .s_urd_data(x_s_urd_data), .s_urd_last(x_s_urd_last), .m_utx_req_valid(x_m_utx_req_valid),
    .m_utx_req_ready(x_m_utx_req_ready), .m_utx_req_addr(x_m_utx_req_addr), .m_utx_req_len(x_m_utx_req_len), .m_utx_req_qpn(x_m_utx_req_qpn),
    .s_utx_valid(x_s_utx_valid), .s_utx_ready(x_s_utx_ready), .s_utx_data(x_s_utx_data), .s_utx_last(x_s_utx_last),
    .req   (t_req[4]),
    .we    (t_we),
    .addr  (t_addr[15:0]),
    .be    (t_be),
    .wdata (t_wdata),
    .gnt   (t_gnt[4]),
    .rvalid(t_rvalid[4]),
    .rdata (t_rdata[4*32 +: 32]),
    .err   (t_err[4]),
    .m_axi_araddr (c_araddr[0 +: 2*64]),
    .m_axi_arlen  (c_arlen[0 +: 2*8]),
    .m_axi_arvalid(c_arvalid[1:0]),
    .m_axi_arready(c_arready[1:0]),
    .m_axi_rdata  (c_rdata),
    .m_axi_rresp  (c_rresp),
    .m_axi_rlast  (c_rlast),
    .m_axi_rvalid (c_rvalid[1:0]),
    .m_axi_rready (c_rready[1:0]),
    .m_axi_awaddr (c_awaddr[0 +: 3*64]),
    .m_axi_awlen  (c_awlen[0 +: 3*8]),
    .m_axi_awvalid(c_awvalid[2:0]),
    .m_axi_awready(c_awready[2:0]),
    .m_axi_wdata  (c_wdata[0 +: 3*DW]),
    .m_axi_wstrb  (c_wstrb[0 +: 3*KW]),
    .m_axi_wlast  (c_wlast[2:0]),
    .m_axi_wvalid (c_wvalid[2:0]),
    .m_axi_wready (c_wready[2:0]),
    .m_axi_bresp  (c_bresp),
    .m_axi_bvalid (c_bvalid[2:0]),
    .m_axi_bready (c_bready[2:0])
  );

  if (USER_EXAMPLES != 0) begin : g_user
    // what the examples do not use of the transport's outputs, and nic_top's own inputs
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_user;
    assign unused_user = ^{x_m_cpl_wr_id, x_m_cpl_opcode, x_m_cpl_byte_len, x_m_cpl_qpn, x_m_cpl_imm,
                           x_m_cpl_has_imm, x_m_urx_qpn, x_m_urx_send, x_m_urd_req_qpn, x_m_utx_req_qpn,
                           s_wr_valid, s_wr_opcode, s_wr_qpn, s_wr_laddr, s_wr_lkey, s_wr_raddr, s_wr_rkey,
                           s_wr_len, s_wr_imm, s_wr_compare, s_wr_swap_add, s_wr_wr_id, s_wr_signaled,
                           s_rq_valid, s_rq_qpn, s_rq_addr, s_rq_len, s_rq_lkey, s_rq_wr_id, x_s_rq_ready,
                           m_cpl_ready, m_urx_ready, m_urd_req_ready, s_urd_valid, s_urd_data, s_urd_last,
                           m_utx_req_ready, s_utx_valid, s_utx_data, s_utx_last};
    /* verilator lint_on UNUSEDSIGNAL */
    user_examples u_user (
      .clk, .rst,
      .req(t_req[6]), .we(t_we), .addr(t_addr[15:0]), .be(t_be), .wdata(t_wdata), .gnt(t_gnt[6]),
      .rvalid(t_rvalid[6]), .rdata(t_rdata[6*32 +: 32]), .err(t_err[6]),
      .m_wr_valid(x_s_wr_valid), .m_wr_ready(x_s_wr_ready), .m_wr_opcode(x_s_wr_opcode), .m_wr_qpn(x_s_wr_qpn),
      .m_wr_laddr(x_s_wr_laddr), .m_wr_lkey(x_s_wr_lkey), .m_wr_raddr(x_s_wr_raddr), .m_wr_rkey(x_s_wr_rkey),
      .m_wr_len(x_s_wr_len), .m_wr_imm(x_s_wr_imm), .m_wr_compare(x_s_wr_compare), .m_wr_swap_add(x_s_wr_swap_add),
      .m_wr_wr_id(x_s_wr_wr_id), .m_wr_signaled(x_s_wr_signaled),
      .s_cpl_valid(x_m_cpl_valid), .s_cpl_ready(x_m_cpl_ready), .s_cpl_status(x_m_cpl_status),
      .s_utx_req_valid(x_m_utx_req_valid), .s_utx_req_ready(x_m_utx_req_ready), .s_utx_req_addr(x_m_utx_req_addr),
      .s_utx_req_len(x_m_utx_req_len),
      .m_utx_valid(x_s_utx_valid), .m_utx_ready(x_s_utx_ready), .m_utx_data(x_s_utx_data), .m_utx_last(x_s_utx_last),
      .s_urd_req_valid(x_m_urd_req_valid), .s_urd_req_ready(x_m_urd_req_ready), .s_urd_req_addr(x_m_urd_req_addr),
      .s_urd_req_len(x_m_urd_req_len),
      .m_urd_valid(x_s_urd_valid), .m_urd_ready(x_s_urd_ready), .m_urd_data(x_s_urd_data), .m_urd_last(x_s_urd_last),
      .s_urx_valid(x_m_urx_valid), .s_urx_ready(x_m_urx_ready), .s_urx_data(x_m_urx_data), .s_urx_keep(x_m_urx_keep),
      .s_urx_last(x_m_urx_last), .s_urx_addr(x_m_urx_addr), .s_urx_len(x_m_urx_len), .s_urx_first(x_m_urx_first),
      .s_urx_msg_last(x_m_urx_msg_last)
    );
    // the examples post no receives
    always_comb begin
      x_s_rq_valid = '0;
      x_s_rq_qpn = '0;
      x_s_rq_addr = '0;
      x_s_rq_len = '0;
      x_s_rq_lkey = '0;
      x_s_rq_wr_id = '0;
    end
    // nic_top's own user ports are idle: outputs zero, inputs not looked at
    always_comb begin
      s_wr_ready = '0;
      s_rq_ready = '0;
      m_cpl_valid = '0;
      m_cpl_wr_id = '0;
      m_cpl_status = '0;
      m_cpl_opcode = '0;
      m_cpl_byte_len = '0;
      m_cpl_qpn = '0;
      m_cpl_imm = '0;
      m_cpl_has_imm = '0;
      m_urx_valid = '0;
      m_urx_data = '0;
      m_urx_keep = '0;
      m_urx_last = '0;
      m_urx_addr = '0;
      m_urx_len = '0;
      m_urx_qpn = '0;
      m_urx_first = '0;
      m_urx_msg_last = '0;
      m_urx_send = '0;
      m_urd_req_valid = '0;
      m_urd_req_addr = '0;
      m_urd_req_len = '0;
      m_urd_req_qpn = '0;
      s_urd_ready = '0;
      m_utx_req_valid = '0;
      m_utx_req_addr = '0;
      m_utx_req_len = '0;
      m_utx_req_qpn = '0;
      s_utx_ready = '0;
    end
  end else begin : g_ext
    always_comb begin
      x_s_wr_valid = s_wr_valid;
      s_wr_ready = x_s_wr_ready;
      x_s_wr_opcode = s_wr_opcode;
      x_s_wr_qpn = s_wr_qpn;
      x_s_wr_laddr = s_wr_laddr;
      x_s_wr_lkey = s_wr_lkey;
      x_s_wr_raddr = s_wr_raddr;
      x_s_wr_rkey = s_wr_rkey;
      x_s_wr_len = s_wr_len;
      x_s_wr_imm = s_wr_imm;
      x_s_wr_compare = s_wr_compare;
      x_s_wr_swap_add = s_wr_swap_add;
      x_s_wr_wr_id = s_wr_wr_id;
      x_s_wr_signaled = s_wr_signaled;
      x_s_rq_valid = s_rq_valid;
      s_rq_ready = x_s_rq_ready;
      x_s_rq_qpn = s_rq_qpn;
      x_s_rq_addr = s_rq_addr;
      x_s_rq_len = s_rq_len;
      x_s_rq_lkey = s_rq_lkey;
      x_s_rq_wr_id = s_rq_wr_id;
      m_cpl_valid = x_m_cpl_valid;
      x_m_cpl_ready = m_cpl_ready;
      m_cpl_wr_id = x_m_cpl_wr_id;
      m_cpl_status = x_m_cpl_status;
      m_cpl_opcode = x_m_cpl_opcode;
      m_cpl_byte_len = x_m_cpl_byte_len;
      m_cpl_qpn = x_m_cpl_qpn;
      m_cpl_imm = x_m_cpl_imm;
      m_cpl_has_imm = x_m_cpl_has_imm;
      m_urx_valid = x_m_urx_valid;
      x_m_urx_ready = m_urx_ready;
      m_urx_data = x_m_urx_data;
      m_urx_keep = x_m_urx_keep;
      m_urx_last = x_m_urx_last;
      m_urx_addr = x_m_urx_addr;
      m_urx_len = x_m_urx_len;
      m_urx_qpn = x_m_urx_qpn;
      m_urx_first = x_m_urx_first;
      m_urx_msg_last = x_m_urx_msg_last;
      m_urx_send = x_m_urx_send;
      m_urd_req_valid = x_m_urd_req_valid;
      x_m_urd_req_ready = m_urd_req_ready;
      m_urd_req_addr = x_m_urd_req_addr;
      m_urd_req_len = x_m_urd_req_len;
      m_urd_req_qpn = x_m_urd_req_qpn;
      x_s_urd_valid = s_urd_valid;
      s_urd_ready = x_s_urd_ready;
      x_s_urd_data = s_urd_data;
      x_s_urd_last = s_urd_last;
      m_utx_req_valid = x_m_utx_req_valid;
      x_m_utx_req_ready = m_utx_req_ready;
      m_utx_req_addr = x_m_utx_req_addr;
      m_utx_req_len = x_m_utx_req_len;
      m_utx_req_qpn = x_m_utx_req_qpn;
      x_s_utx_valid = s_utx_valid;
      s_utx_ready = x_s_utx_ready;
      x_s_utx_data = s_utx_data;
      x_s_utx_last = s_utx_last;
    end
  end

  // ------------------------------------------------- fill/check engine
  logic [31:0] pat_addr_lo, pat_addr_hi, pat_len, pat_seed_lo, pat_seed_hi;
  logic        pat_start_we, pat_start_wdata, pat_busy, pat_done, pat_bad_valid;
  logic [31:0] pat_err_count, pat_cycles;
  logic [127:0] pat_peek;    // the first 16 bytes of the last check (the firmware's memory reads)
  logic [63:0] pat_bad_addr;
  logic [1:0]  pat_dma_status;

  mempat_regs u_mempat_regs (
    .clk, .rst,
    .req   (t_req[5]),
    .we    (t_we),
    .addr  (t_addr[15:0]),
    .be    (t_be),
    .wdata (t_wdata),
    .gnt   (t_gnt[5]),
    .rvalid(t_rvalid[5]),
    .rdata (t_rdata[5*32 +: 32]),
    .err   (t_err[5]),
    .addr_lo_q     (pat_addr_lo),
    .addr_hi_q     (pat_addr_hi),
    .len_q         (pat_len),
    .seed_lo_q     (pat_seed_lo),
    .seed_hi_q     (pat_seed_hi),
    .start_wdata   (pat_start_wdata),
    .start_we      (pat_start_we),
    .status_i      ({pat_dma_status, pat_bad_valid, pat_done, pat_busy}),
    .err_count_i   (pat_err_count),
    .first_bad_lo_i(pat_bad_addr[31:0]),
    .first_bad_hi_i(pat_bad_addr[63:32]),
    .cycles_i      (pat_cycles),
    .peek0_i       (pat_peek[31:0]),
    .peek1_i       (pat_peek[63:32]),
    .peek2_i       (pat_peek[95:64]),
    .peek3_i       (pat_peek[127:96])
  );

  mem_pattern u_mempat (
    .clk, .rst,
    .start          (pat_start_we && !pat_busy),
    .mode           (pat_start_wdata),   // 0 fill, 1 check (mem_pkg::pat_mode_e)
    .addr           ({pat_addr_hi, pat_addr_lo}),
    .len            (pat_len),
    .seed           ({pat_seed_hi, pat_seed_lo}),
    .busy           (pat_busy),
    .done           (pat_done),
    .err_count      (pat_err_count),
    .first_bad_valid(pat_bad_valid),
    .first_bad_addr (pat_bad_addr),
    .dma_status     (pat_dma_status),
    .cycles         (pat_cycles),
    .peek           (pat_peek),
    .m_axi_araddr (c_araddr[2*64 +: 64]),
    .m_axi_arlen  (c_arlen[2*8 +: 8]),
    .m_axi_arvalid(c_arvalid[2]),
    .m_axi_arready(c_arready[2]),
    .m_axi_rdata  (c_rdata),
    .m_axi_rresp  (c_rresp),
    .m_axi_rlast  (c_rlast),
    .m_axi_rvalid (c_rvalid[2]),
    .m_axi_rready (c_rready[2]),
    .m_axi_awaddr (c_awaddr[3*64 +: 64]),
    .m_axi_awlen  (c_awlen[3*8 +: 8]),
    .m_axi_awvalid(c_awvalid[3]),
    .m_axi_awready(c_awready[3]),
    .m_axi_wdata  (c_wdata[3*DW +: DW]),
    .m_axi_wstrb  (c_wstrb[3*KW +: KW]),
    .m_axi_wlast  (c_wlast[3]),
    .m_axi_wvalid (c_wvalid[3]),
    .m_axi_wready (c_wready[3]),
    .m_axi_bresp  (c_bresp),
    .m_axi_bvalid (c_bvalid[3]),
    .m_axi_bready (c_bready[3])
  );

  // ------------------------------------------------------- memory arbiter
  // read clients: 0-1 transport, 2 fill/check; write clients: 0-2 transport, 3 fill/check
  mem_axi_arb #(.NR(MEM_NR), .NW(MEM_NW)) u_mem_arb (
    .clk, .rst,
    .s_axi_araddr(c_araddr), .s_axi_arlen(c_arlen), .s_axi_arvalid(c_arvalid), .s_axi_arready(c_arready),
    .s_axi_rdata(c_rdata), .s_axi_rresp(c_rresp), .s_axi_rlast(c_rlast), .s_axi_rvalid(c_rvalid),
    .s_axi_rready(c_rready),
    .s_axi_awaddr(c_awaddr), .s_axi_awlen(c_awlen), .s_axi_awvalid(c_awvalid), .s_axi_awready(c_awready),
    .s_axi_wdata(c_wdata), .s_axi_wstrb(c_wstrb), .s_axi_wlast(c_wlast), .s_axi_wvalid(c_wvalid),
    .s_axi_wready(c_wready), .s_axi_bresp(c_bresp), .s_axi_bvalid(c_bvalid), .s_axi_bready(c_bready),
    .m_axi_awid, .m_axi_awaddr, .m_axi_awlen, .m_axi_awsize, .m_axi_awburst, .m_axi_awvalid,
    .m_axi_awready, .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid, .m_axi_wready,
    .m_axi_bid, .m_axi_bresp, .m_axi_bvalid, .m_axi_bready,
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arvalid,
    .m_axi_arready, .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready
  );

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

  net_tx_arbiter #(.USER_W(1)) u_tx_arb (
    .clk, .rst,
    .s_axis_roce_tdata (roce_tx_tdata),
    .s_axis_roce_tkeep (roce_tx_tkeep),
    .s_axis_roce_tvalid(roce_tx_tvalid),
    .s_axis_roce_tready(roce_tx_tready),
    .s_axis_roce_tlast (roce_tx_tlast),
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
    tx_unused = ^{eth_tx_tuser, t_addr[31:16]};  // the decoder used the upper bits
    cnt_tx_frames_d = cnt_tx_frames_q + 32'(eth_tx_tvalid && eth_tx_tready && eth_tx_tlast);
  end

  always_ff @(posedge clk) begin
    if (rst) cnt_tx_frames_q <= '0;
    else     cnt_tx_frames_q <= cnt_tx_frames_d;
  end

endmodule
