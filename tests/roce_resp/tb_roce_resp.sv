// tb_roce_resp: bench top of the responder: roce_qp_table + roce_mr_table +
// roce_resp with its DMA engines (payload write, atomic write, read), the
// AXI arbiter and the simulation memory (mem_axi_ram, C++ API). Wide structs
// are flat vectors here; tb_roce_resp.cpp drives them from a vector file.
`default_nettype none

module tb_roce_resp #(
  parameter int NQP = 256,
  parameter int NMR = 256,
  parameter int ACK_COALESCE = 8
) (
  input  wire logic                               clk,
  input  wire logic                               rst,
  output logic                                    init_done,
  input  wire logic                               hdr_valid,
  output logic                                    hdr_ready,
  input  wire logic [roce_pkg::RX_HDR_W-1:0]      hdr,
  input  wire logic [511:0]                       pay_tdata,
  input  wire logic [63:0]                        pay_tkeep,
  input  wire logic                               pay_tvalid,
  output logic                                    pay_tready,
  input  wire logic                               pay_tlast,
  // the bench's index ports are wider than the tables (a C++ side of fixed width)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic                               ctx_wr_valid,
  output logic                                    ctx_wr_ready,
  input  wire logic [23:0]                        ctx_wr_qpn,
  input  wire logic [roce_qp_pkg::QP_CTX_W-1:0]   ctx_wr,
  input  wire logic                               mr_wr_valid,
  output logic                                    mr_wr_ready,
  input  wire logic [15:0]                        mr_wr_idx,
  input  wire logic [roce_qp_pkg::MR_ENTRY_W-1:0] mr_wr,
  input  wire logic                               post_valid,
  output logic                                    post_ready,
  input  wire logic [23:0]                        post_qpn,
  input  wire logic [roce_qp_pkg::RWQE_W-1:0]     post_wqe,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                                    tx_hdr_valid,
  input  wire logic                               tx_hdr_ready,
  output logic [roce_qp_pkg::QP_TX_HDR_W-1:0]     tx_hdr,
  output logic [511:0]                            tx_tdata,
  output logic [63:0]                             tx_tkeep,
  output logic                                    tx_tvalid,
  input  wire logic                               tx_tready,
  output logic                                    tx_tlast,
  output logic                                    cqe_valid,
  input  wire logic                               cqe_ready,
  output logic [roce_qp_pkg::CQE_W-1:0]           cqe,
  output logic [26*32-1:0]                        counters,
  // where payload waits (bench figures): no payload action yet / DMA back-pressure
  output logic                                    dbg_wait_act,
  output logic                                    dbg_wait_dma,
  // the responder moved a QP to ERROR (a fatal NAK it sent): QPN and the NAK's ibv_wc_status
  output logic                                    resp_err_valid,
  output logic [$clog2(NQP)-1:0]                  resp_err_qpn,
  output logic [4:0]                              resp_err_status,
  // a request executed in order on QP resp_err_qpn (the pulse behind cnt_req_ok)
  output logic                                    resp_req_ok
);
  localparam int QW = $clog2(NQP);
  localparam int MW = $clog2(NMR);

  logic qt_done, mt_done, qp_reset_valid;
  /* verilator lint_off UNUSEDSIGNAL */
  roce_qp_pkg::dma_usr_t wc_usr, rc_usr;   // (the streaming MRs' side band: tests/rc)
  logic                  w_tuser;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [QW-1:0] qp_reset_qpn;
  assign init_done = qt_done && mt_done;

  logic          ctx_rd_en, mr_rd_en;
  logic [QW-1:0] ctx_rd_qpn;
  logic [31:0]   mr_rd_key;
  logic [roce_qp_pkg::QP_CTX_W-1:0]   ctx_rd;
  logic [roce_qp_pkg::MR_ENTRY_W-1:0] mr_rd;

  roce_qp_table #(.NQP(NQP), .NRD(1)) u_qpt (
    .clk, .rst, .wr_valid(ctx_wr_valid), .wr_ready(ctx_wr_ready), .wr_qpn(ctx_wr_qpn[QW-1:0]),
    .wr_ctx(ctx_wr), .rd_en(ctx_rd_en), .rd_qpn(ctx_rd_qpn), .rd_ctx(ctx_rd),
    .err_valid(resp_err_valid), .err_qpn(resp_err_qpn),   // the responder's moves to ERROR, as roce_transport
    .qp_reset_valid, .qp_reset_qpn, .init_done(qt_done));

  roce_mr_table #(.NMR(NMR), .NRD(1)) u_mrt (
    .clk, .rst, .wr_valid(mr_wr_valid), .wr_ready(mr_wr_ready), .wr_idx(mr_wr_idx[MW-1:0]),
    .wr_entry(mr_wr), .rd_en(mr_rd_en), .rd_key(mr_rd_key), .rd_entry(mr_rd), .init_done(mt_done));

  // DMA engines: write client 0 = payload, 1 = atomics; read client 0
  logic wc_valid, wc_ready, ac_valid, ac_ready, rc_valid, rc_ready;
  mem_pkg::dma_wr_cmd_t wc, ac;
  mem_pkg::dma_rd_cmd_t rc;
  logic [511:0] w_tdata, a_tdata, r_tdata;
  logic [63:0]  w_tkeep, a_tkeep, r_tkeep;
  logic w_tvalid, w_tready, w_tlast, a_tvalid, a_tready, a_tlast, r_tvalid, r_tready, r_tlast;
  logic wcpl_valid, wcpl_ready, acpl_valid, acpl_ready;
  mem_pkg::dma_cpl_t wcpl, acpl, r_tuser;

  /* verilator lint_off PINCONNECTEMPTY */
  roce_resp #(.NQP(NQP), .ACK_COALESCE(ACK_COALESCE)) u_resp (
    .clk, .rst, .init_done, .qp_reset_valid, .qp_reset_qpn,
    .s_hdr_valid(hdr_valid), .s_hdr_ready(hdr_ready), .s_hdr(hdr),
    .s_axis_payload_tdata(pay_tdata), .s_axis_payload_tkeep(pay_tkeep),
    .s_axis_payload_tvalid(pay_tvalid), .s_axis_payload_tready(pay_tready),
    .s_axis_payload_tlast(pay_tlast),
    .ctx_rd_en, .ctx_rd_qpn, .ctx_rd, .mr_rd_en, .mr_rd_key, .mr_rd,
    .s_post_valid(post_valid), .s_post_ready(post_ready), .s_post_qpn(post_qpn[QW-1:0]),
    .s_post_wqe(post_wqe), .s_post_recycle(1'b0), .s_post_err(),
    .m_dma_wr_cmd_valid(wc_valid), .m_dma_wr_cmd_ready(wc_ready), .m_dma_wr_cmd(wc), .m_dma_wr_cmd_usr(wc_usr),
    .m_dma_wr_axis_tdata(w_tdata), .m_dma_wr_axis_tkeep(w_tkeep), .m_dma_wr_axis_tvalid(w_tvalid),
    .m_dma_wr_axis_tready(w_tready), .m_dma_wr_axis_tlast(w_tlast), .m_dma_wr_axis_tuser(w_tuser),
    .s_dma_wr_cpl_valid(wcpl_valid), .s_dma_wr_cpl_ready(wcpl_ready), .s_dma_wr_cpl(wcpl),
    .m_dma_aw_cmd_valid(ac_valid), .m_dma_aw_cmd_ready(ac_ready), .m_dma_aw_cmd(ac),
    .m_dma_aw_axis_tdata(a_tdata), .m_dma_aw_axis_tkeep(a_tkeep), .m_dma_aw_axis_tvalid(a_tvalid),
    .m_dma_aw_axis_tready(a_tready), .m_dma_aw_axis_tlast(a_tlast),
    .s_dma_aw_cpl_valid(acpl_valid), .s_dma_aw_cpl_ready(acpl_ready), .s_dma_aw_cpl(acpl),
    .m_dma_rd_cmd_valid(rc_valid), .m_dma_rd_cmd_ready(rc_ready), .m_dma_rd_cmd(rc), .m_dma_rd_cmd_usr(rc_usr),
    .s_dma_rd_axis_tdata(r_tdata), .s_dma_rd_axis_tkeep(r_tkeep), .s_dma_rd_axis_tvalid(r_tvalid),
    .s_dma_rd_axis_tready(r_tready), .s_dma_rd_axis_tlast(r_tlast), .s_dma_rd_axis_tuser(r_tuser),
    .m_tx_hdr_valid(tx_hdr_valid), .m_tx_hdr_ready(tx_hdr_ready), .m_tx_hdr(tx_hdr),
    .m_axis_tx_tdata(tx_tdata), .m_axis_tx_tkeep(tx_tkeep), .m_axis_tx_tvalid(tx_tvalid),
    .m_axis_tx_tready(tx_tready), .m_axis_tx_tlast(tx_tlast),
    .m_cqe_valid(cqe_valid), .m_cqe_ready(cqe_ready), .m_cqe(cqe),
    .flush_valid(1'b0), .flush_qpn('0), .m_fcqe_valid(), .m_fcqe_ready(1'b1), .m_fcqe(),
    .cnt_rq_flushed(), .cnt_rq_flush_lost(),
    .cnt_drop_qpn(counters[0*32 +: 32]), .cnt_drop_state(counters[1*32 +: 32]),
    .cnt_drop_opcode(counters[2*32 +: 32]), .cnt_drop_oos(counters[3*32 +: 32]),
    .cnt_drop_dup(counters[4*32 +: 32]), .cnt_drop_reset(counters[5*32 +: 32]),
    .cnt_dup(counters[6*32 +: 32]), .cnt_nak_seq(counters[7*32 +: 32]),
    .cnt_nak_inv(counters[8*32 +: 32]), .cnt_nak_acc(counters[9*32 +: 32]),
    .cnt_nak_op(counters[10*32 +: 32]), .cnt_rnr(counters[11*32 +: 32]),
    .cnt_req_ok(counters[12*32 +: 32]), .cnt_ack_tx(counters[13*32 +: 32]),
    .cnt_nak_tx(counters[14*32 +: 32]), .cnt_rd_pkt(counters[15*32 +: 32]),
    .cnt_atomic(counters[16*32 +: 32]), .cnt_atomic_miss(counters[17*32 +: 32]),
    .cnt_dma_err(counters[18*32 +: 32]), .cnt_post_err(counters[19*32 +: 32]),
    .cnt_rx_write(counters[20*32 +: 32]), .cnt_rx_read(counters[21*32 +: 32]),
    .cnt_rx_atomic(counters[22*32 +: 32]), .cnt_rx_send(counters[23*32 +: 32]),
    .cnt_nak_pmtu(counters[24*32 +: 32]), .cnt_nak_pd(counters[25*32 +: 32]),
    .err_valid(resp_err_valid), .err_qpn(resp_err_qpn), .err_status(resp_err_status),
    .req_ok(resp_req_ok));
  /* verilator lint_on PINCONNECTEMPTY */

  assign dbg_wait_act = u_resp.pf_valid && !u_resp.act_valid;
  assign dbg_wait_dma = w_tvalid && !w_tready;

  localparam int NR = 1, NW = 2, ID_W = 1;
  logic [NR*64-1:0]  c_araddr;
  logic [NR*8-1:0]   c_arlen;
  logic [NR-1:0]     c_arvalid, c_arready, c_rvalid, c_rready;
  logic [511:0]      c_rdata;
  logic [1:0]        c_rresp;
  logic              c_rlast;
  logic [NW*64-1:0]  c_awaddr;
  logic [NW*8-1:0]   c_awlen;
  logic [NW-1:0]     c_awvalid, c_awready, c_wlast, c_wvalid, c_wready, c_bvalid, c_bready;
  logic [NW*512-1:0] c_wdata;
  logic [NW*64-1:0]  c_wstrb;
  logic [1:0]        c_bresp;

  mem_dma_rd u_rd (
    .clk, .rst, .s_cmd_valid(rc_valid), .s_cmd_ready(rc_ready), .s_cmd(rc),
    .m_axi_araddr(c_araddr), .m_axi_arlen(c_arlen), .m_axi_arvalid(c_arvalid), .m_axi_arready(c_arready),
    .m_axi_rdata(c_rdata), .m_axi_rresp(c_rresp), .m_axi_rlast(c_rlast),
    .m_axi_rvalid(c_rvalid), .m_axi_rready(c_rready),
    .m_axis_tdata(r_tdata), .m_axis_tkeep(r_tkeep), .m_axis_tvalid(r_tvalid),
    .m_axis_tready(r_tready), .m_axis_tlast(r_tlast), .m_axis_tuser(r_tuser));

  // three 4 KiB bursts of buffer: one filling, one waiting for AW, one draining
  mem_dma_wr #(.BUF_BEATS(256)) u_wr (
    .clk, .rst, .s_cmd_valid(wc_valid), .s_cmd_ready(wc_ready), .s_cmd(wc),
    .s_axis_tdata(w_tdata), .s_axis_tkeep(w_tkeep), .s_axis_tvalid(w_tvalid),
    .s_axis_tready(w_tready), .s_axis_tlast(w_tlast),
    .m_axi_awaddr(c_awaddr[0 +: 64]), .m_axi_awlen(c_awlen[0 +: 8]),
    .m_axi_awvalid(c_awvalid[0]), .m_axi_awready(c_awready[0]),
    .m_axi_wdata(c_wdata[0 +: 512]), .m_axi_wstrb(c_wstrb[0 +: 64]),
    .m_axi_wlast(c_wlast[0]), .m_axi_wvalid(c_wvalid[0]), .m_axi_wready(c_wready[0]),
    .m_axi_bresp(c_bresp), .m_axi_bvalid(c_bvalid[0]), .m_axi_bready(c_bready[0]),
    .m_cpl_valid(wcpl_valid), .m_cpl_ready(wcpl_ready), .m_cpl(wcpl));

  mem_dma_wr #(.CMD_DEPTH(2), .BUF_BEATS(64), .MAX_BURSTS(2)) u_aw (
    .clk, .rst, .s_cmd_valid(ac_valid), .s_cmd_ready(ac_ready), .s_cmd(ac),
    .s_axis_tdata(a_tdata), .s_axis_tkeep(a_tkeep), .s_axis_tvalid(a_tvalid),
    .s_axis_tready(a_tready), .s_axis_tlast(a_tlast),
    .m_axi_awaddr(c_awaddr[64 +: 64]), .m_axi_awlen(c_awlen[8 +: 8]),
    .m_axi_awvalid(c_awvalid[1]), .m_axi_awready(c_awready[1]),
    .m_axi_wdata(c_wdata[512 +: 512]), .m_axi_wstrb(c_wstrb[64 +: 64]),
    .m_axi_wlast(c_wlast[1]), .m_axi_wvalid(c_wvalid[1]), .m_axi_wready(c_wready[1]),
    .m_axi_bresp(c_bresp), .m_axi_bvalid(c_bvalid[1]), .m_axi_bready(c_bready[1]),
    .m_cpl_valid(acpl_valid), .m_cpl_ready(acpl_ready), .m_cpl(acpl));

  logic [ID_W-1:0] m_awid, m_bid, m_arid, m_rid;
  logic [63:0]     m_awaddr, m_araddr;
  logic [7:0]      m_awlen, m_arlen;
  logic [2:0]      m_awsize, m_arsize;
  logic [1:0]      m_awburst, m_arburst, m_bresp, m_rresp;
  logic            m_awvalid, m_awready, m_wlast, m_wvalid, m_wready, m_bvalid, m_bready;
  logic            m_arvalid, m_arready, m_rlast, m_rvalid, m_rready;
  logic [511:0]    m_wdata, m_rdata;
  logic [63:0]     m_wstrb;

  mem_axi_arb #(.NR(NR), .NW(NW), .ID_W(ID_W)) u_arb (
    .clk, .rst,
    .s_axi_araddr(c_araddr), .s_axi_arlen(c_arlen), .s_axi_arvalid(c_arvalid),
    .s_axi_arready(c_arready), .s_axi_rdata(c_rdata), .s_axi_rresp(c_rresp),
    .s_axi_rlast(c_rlast), .s_axi_rvalid(c_rvalid), .s_axi_rready(c_rready),
    .s_axi_awaddr(c_awaddr), .s_axi_awlen(c_awlen), .s_axi_awvalid(c_awvalid),
    .s_axi_awready(c_awready), .s_axi_wdata(c_wdata), .s_axi_wstrb(c_wstrb),
    .s_axi_wlast(c_wlast), .s_axi_wvalid(c_wvalid), .s_axi_wready(c_wready),
    .s_axi_bresp(c_bresp), .s_axi_bvalid(c_bvalid), .s_axi_bready(c_bready),
    .m_axi_awid(m_awid), .m_axi_awaddr(m_awaddr), .m_axi_awlen(m_awlen),
    .m_axi_awsize(m_awsize), .m_axi_awburst(m_awburst), .m_axi_awvalid(m_awvalid),
    .m_axi_awready(m_awready), .m_axi_wdata(m_wdata), .m_axi_wstrb(m_wstrb),
    .m_axi_wlast(m_wlast), .m_axi_wvalid(m_wvalid), .m_axi_wready(m_wready),
    .m_axi_bid(m_bid), .m_axi_bresp(m_bresp), .m_axi_bvalid(m_bvalid), .m_axi_bready(m_bready),
    .m_axi_arid(m_arid), .m_axi_araddr(m_araddr), .m_axi_arlen(m_arlen),
    .m_axi_arsize(m_arsize), .m_axi_arburst(m_arburst), .m_axi_arvalid(m_arvalid),
    .m_axi_arready(m_arready), .m_axi_rid(m_rid), .m_axi_rdata(m_rdata),
    .m_axi_rresp(m_rresp), .m_axi_rlast(m_rlast), .m_axi_rvalid(m_rvalid),
    .m_axi_rready(m_rready));

  mem_axi_ram #(.INST(0), .ID_W(ID_W)) u_ram (
    .clk, .rst, .inst_id(8'd0),
    .s_axi_awid(m_awid), .s_axi_awaddr(m_awaddr), .s_axi_awlen(m_awlen),
    .s_axi_awsize(m_awsize), .s_axi_awburst(m_awburst), .s_axi_awvalid(m_awvalid),
    .s_axi_awready(m_awready), .s_axi_wdata(m_wdata), .s_axi_wstrb(m_wstrb),
    .s_axi_wlast(m_wlast), .s_axi_wvalid(m_wvalid), .s_axi_wready(m_wready),
    .s_axi_bid(m_bid), .s_axi_bresp(m_bresp), .s_axi_bvalid(m_bvalid), .s_axi_bready(m_bready),
    .s_axi_arid(m_arid), .s_axi_araddr(m_araddr), .s_axi_arlen(m_arlen),
    .s_axi_arsize(m_arsize), .s_axi_arburst(m_arburst), .s_axi_arvalid(m_arvalid),
    .s_axi_arready(m_arready), .s_axi_rid(m_rid), .s_axi_rdata(m_rdata),
    .s_axi_rresp(m_rresp), .s_axi_rlast(m_rlast), .s_axi_rvalid(m_rvalid),
    .s_axi_rready(m_rready));

endmodule
