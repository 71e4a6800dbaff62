// tb_roce_req: bench of the send side of the RC transport.
//
//   posts -> roce_sq -> roce_req --hdr--> roce_tx_mux -> roce_tx_build (42-byte
//            Eth/IPv4/UDP prefix) -> frames to the C++ peer (no ICRC)
//   frames from the C++ peer -> roce_rx_parse -> roce_comp -> CQEs
//   roce_comp_timer; roce_cq_merge (completer, refused posts) -> roce_cq
//   mem_dma_rd (requester payload), mem_dma_wr (READ data, atomic results)
//     -> mem_axi_arb -> mem_axi_ram (C++ memory model, instance 0)
// The QP context and MR tables are the responder engineer's roce_qp_table
// (2 read ports, qp_reset broadcast) and roce_mr_table.
// The responder side of the mux is driven by the bench (ACK headers).
`default_nettype none
// A bench: some outputs of the blocks are not looked at, some inputs are
// wider than the stand-ins use.
/* verilator lint_off PINCONNECTEMPTY */
/* verilator lint_off UNUSEDSIGNAL */

module tb_roce_req #(
  parameter int NQP      = 256,
  parameter int SQ_DEPTH = 16,
  parameter int NMR      = 16,
  parameter int WINDOW   = 1024,
  parameter int ACKREQ_EVERY = 16,
  parameter longint CLK_HZ = 250_000_000
) (
  input  wire logic          clk,
  input  wire logic          rst,
  // posts
  input  wire logic          post_valid,
  output logic               post_ready,
  input  wire logic [3:0]    post_opcode,
  input  wire logic [23:0]   post_qpn,
  input  wire logic [63:0]   post_laddr,
  input  wire logic [31:0]   post_lkey,
  input  wire logic [63:0]   post_raddr,
  input  wire logic [31:0]   post_rkey,
  input  wire logic [31:0]   post_len,
  input  wire logic [31:0]   post_imm,
  input  wire logic [63:0]   post_compare,
  input  wire logic [63:0]   post_swap_add,
  input  wire logic [63:0]   post_wr_id,
  input  wire logic          post_signaled,
  // QP context writes
  input  wire logic          ctx_we,
  input  wire logic [23:0]   ctx_qpn,
  input  wire logic [2:0]    ctx_state,
  input  wire logic [2:0]    ctx_pmtu,
  input  wire logic [23:0]   ctx_remote_qpn,
  input  wire logic [31:0]   ctx_remote_ip,
  input  wire logic [47:0]   ctx_remote_mac,
  input  wire logic [15:0]   ctx_udp_sport,
  input  wire logic [23:0]   ctx_sq_psn,
  input  wire logic [2:0]    ctx_retry_cnt,
  input  wire logic [2:0]    ctx_rnr_retry,
  input  wire logic [4:0]    ctx_timeout,
  input  wire logic [4:0]    ctx_max_rd_atomic,
  // MR writes
  input  wire logic          mr_we,
  input  wire logic [7:0]    mr_idx,
  input  wire logic          mr_valid,
  input  wire logic [3:0]    mr_access,
  input  wire logic [31:0]   mr_key,
  input  wire logic [63:0]   mr_base,
  input  wire logic [63:0]   mr_length,
  // frames to the peer
  output logic [511:0]       tx_tdata,
  output logic [63:0]        tx_tkeep,
  output logic               tx_tvalid,
  input  wire logic          tx_tready,
  output logic               tx_tlast,
  // the requester's payload stream into the mux (latency probe)
  output logic               req_pay_beat,
  // frames from the peer
  input  wire logic [511:0]  rx_tdata,
  input  wire logic [63:0]   rx_tkeep,
  input  wire logic          rx_tvalid,
  output logic               rx_tready,
  input  wire logic          rx_tlast,
  // responder stand-in: ACK headers into the mux
  input  wire logic          rsp_valid,
  output logic               rsp_ready,
  input  wire logic [23:0]   rsp_psn,
  input  wire logic [15:0]   rsp_paylen,     // 0: ACK; else READ RESPONSE ONLY with this payload (byte i = i)
  // CQ
  output logic               cq_valid,
  input  wire logic          cq_pop,
  output logic [63:0]        cq_wr_id,
  output logic [4:0]         cq_status,
  output logic [7:0]         cq_opcode,
  output logic [31:0]        cq_byte_len,
  output logic [23:0]        cq_qpn,
  // QP to ERROR notifications
  output logic               qp_err_valid,
  output logic [23:0]        qp_err_qpn,
  // counters
  output logic [31:0]        cnt_pkt,
  output logic [31:0]        cnt_locerr,
  output logic [31:0]        cnt_retry,
  output logic [31:0]        cnt_timeout,
  output logic [31:0]        cnt_rnr,
  output logic [31:0]        cnt_nak_seq,
  output logic [31:0]        cnt_nak_inv,
  output logic [31:0]        cnt_nak_acc,
  output logic [31:0]        cnt_nak_op,
  output logic [31:0]        cnt_implicit,
  output logic [31:0]        cnt_drop,
  output logic [31:0]        cnt_post,
  output logic [31:0]        cnt_reject,
  // debug: FSM states
  output logic [31:0]        dbg
);
  localparam int QAW = $clog2(NQP);
  localparam int SAW = $clog2(SQ_DEPTH);
  localparam int MAW = $clog2(NMR);
  localparam int PW  = roce_req_pkg::PTR_W;

  // ------------------------------------------------ QP context and MR tables
  roce_qp_pkg::qp_ctx_t ctx_w, ctx_rd_req, ctx_rd_comp;
  logic                 ctx_re_req, ctx_re_comp;
  logic [QAW-1:0]       ctx_qa_req, ctx_qa_comp;
  logic                 qp_reset;
  logic [QAW-1:0]       qp_reset_q;
  logic [23:0]          qp_reset_qpn;

  always_comb begin
    ctx_w                    = '0;
    ctx_w.state              = roce_qp_pkg::qp_state_e'(ctx_state);
    ctx_w.pmtu               = ctx_pmtu;
    ctx_w.remote_qpn         = ctx_remote_qpn;
    ctx_w.remote_ip          = ctx_remote_ip;
    ctx_w.remote_mac         = ctx_remote_mac;
    ctx_w.udp_sport          = ctx_udp_sport;
    ctx_w.sq_psn             = ctx_sq_psn;
    ctx_w.retry_cnt          = ctx_retry_cnt;
    ctx_w.rnr_retry          = ctx_rnr_retry;
    ctx_w.timeout            = ctx_timeout;
    ctx_w.max_rd_atomic      = ctx_max_rd_atomic;
  end

  roce_qp_table #(.NQP(NQP), .NRD(2)) u_qpt (
    .clk, .rst,
    .wr_valid(ctx_we), .wr_ready(), .wr_qpn(ctx_qpn[QAW-1:0]), .wr_ctx(ctx_w),
    .rd_en({ctx_re_comp, ctx_re_req}), .rd_qpn({ctx_qa_comp, ctx_qa_req}), .rd_ctx({ctx_rd_comp, ctx_rd_req}),
    .err_valid(qp_err_valid), .err_qpn(qp_err_qpn[QAW-1:0]),   // the completer's moves to ERROR, as roce_transport
    .qp_reset_valid(qp_reset), .qp_reset_qpn(qp_reset_q), .init_done()
  );
  assign qp_reset_qpn = 24'(qp_reset_q);

  roce_qp_pkg::mr_entry_t mr_rd, mr_w;
  roce_qp_pkg::dma_usr_t  drc_usr;   // (the streaming MRs' side band: tests/rc)
  logic                   mr_re;
  logic [31:0]            mr_rk;
  assign mr_w = {1'b0, mr_valid, mr_access, mr_key, mr_base, mr_length, 8'd0};   // PD 0, as every context here; not streaming
  roce_mr_table #(.NMR(NMR), .NRD(1)) u_mrt (
    .clk, .rst,
    .wr_valid(mr_we), .wr_ready(), .wr_idx(mr_idx[MAW-1:0]), .wr_entry(mr_w),
    .rd_en(mr_re), .rd_key(mr_rk), .rd_entry(mr_rd), .init_done()
  );

  // ------------------------------------------------ wiring
  roce_qp_pkg::swqe_t      post;
  always_comb begin
    post.opcode      = roce_qp_pkg::wr_opcode_e'(post_opcode);
    post.qpn         = post_qpn;
    post.local_addr  = post_laddr;
    post.lkey        = post_lkey;
    post.remote_addr = post_raddr;
    post.rkey        = post_rkey;
    post.length      = post_len;
    post.imm         = post_imm;
    post.compare     = post_compare;
    post.swap_add    = post_swap_add;
    post.wr_id       = post_wr_id;
    post.signaled    = post_signaled;
    post.solicited   = 1'b0;
  end

  logic sq_kick_v, sq_kick_r;  logic [23:0] sq_kick_q;
  logic c_kick_v, c_kick_r;    logic [23:0] c_kick_q;
  logic cmd_v, cmd_r;          roce_req_pkg::rcmd_t cmd;
  logic ev_v, ev_r;            roce_req_pkg::rev_t ev;
  logic arm_v, arm_r;          roce_req_pkg::tcmd_t arm;
  logic tc_v, tc_r;            roce_req_pkg::tcmd_t tc;
  logic tx_v, tx_r;            roce_req_pkg::texp_t tx;
  logic head_re;               logic [QAW-1:0] head_qa;  logic [PW-1:0] head_rd;
  logic wqe_re;                logic [QAW+SAW-1:0] wqe_a;  roce_qp_pkg::swqe_t wqe_rd;
  logic cwqe_re;               logic [QAW+SAW-1:0] cwqe_a; roce_req_pkg::cwqe_t cwqe_rd;
  logic sq_cpub_re;            logic [QAW-1:0] sq_cpub_qa;  roce_req_pkg::cpub_t sq_cpub;
  logic req_cpub_re;           logic [QAW-1:0] req_cpub_qa; roce_req_pkg::cpub_t req_cpub;
  logic rpub_re;               logic [QAW-1:0] rpub_qa;     roce_req_pkg::rpub_t rpub;
  logic sq_cqe_v, sq_cqe_r;    roce_qp_pkg::cqe_t sq_cqe;
  logic cp_cqe_v, cp_cqe_r;    roce_qp_pkg::cqe_t cp_cqe;
  logic mg_cqe_v, mg_cqe_r;    roce_qp_pkg::cqe_t mg_cqe;
  roce_qp_pkg::cqe_t cq_e;

  // requester TX
  logic rq_hdr_v, rq_hdr_r;    roce_qp_pkg::qp_tx_hdr_t rq_hdr;
  logic [511:0] rq_pay_d;  logic [63:0] rq_pay_k;  logic rq_pay_v, rq_pay_r, rq_pay_l;
  // DMA read
  logic drc_v, drc_r;          mem_pkg::dma_rd_cmd_t drc;
  logic [511:0] dr_d;  logic [63:0] dr_k;  logic dr_v, dr_r, dr_l;  mem_pkg::dma_cpl_t dr_u;
  // DMA write
  logic dwc_v, dwc_r;          mem_pkg::dma_wr_cmd_t dwc;
  logic [511:0] dw_d;  logic [63:0] dw_k;  logic dw_v, dw_r, dw_l;
  logic dwp_v, dwp_r;          mem_pkg::dma_cpl_t dwp;
  // RX parse
  roce_pkg::rx_hdr_t rxh;  logic rxh_v, rxh_r;
  logic [511:0] rxp_d;  logic [63:0] rxp_k;  logic rxp_v, rxp_r, rxp_l;
  // mux out
  logic mx_hdr_v, mx_hdr_r;    roce_qp_pkg::qp_tx_hdr_t mx_hdr;
  logic [511:0] mx_d;  logic [63:0] mx_k;  logic mx_v, mx_r, mx_l;
  roce_qp_pkg::qp_tx_hdr_t rsp_hdr;

  roce_sq #(.NQP(NQP), .SQ_DEPTH(SQ_DEPTH)) u_sq (
    .clk, .rst,
    .s_wqe_valid(post_valid), .s_wqe_ready(post_ready), .s_wqe(post),
    .qp_reset, .qp_reset_qpn,
    .req_head_rd_en(head_re), .req_head_rd_qpn(head_qa), .req_head_rd_data(head_rd),
    .req_wqe_rd_en(wqe_re), .req_wqe_rd_addr(wqe_a), .req_wqe_rd_data(wqe_rd),
    .comp_wqe_rd_en(cwqe_re), .comp_wqe_rd_addr(cwqe_a), .comp_wqe_rd_data(cwqe_rd),
    .cpub_rd_en(sq_cpub_re), .cpub_rd_qpn(sq_cpub_qa), .cpub_rd_data(sq_cpub),
    .m_kick_valid(sq_kick_v), .m_kick_ready(sq_kick_r), .m_kick_qpn(sq_kick_q),
    .m_cqe_valid(sq_cqe_v), .m_cqe_ready(sq_cqe_r), .m_cqe(sq_cqe),
    .cnt_post, .cnt_reject
  );

  roce_req #(.NQP(NQP), .SQ_DEPTH(SQ_DEPTH), .NMR(NMR), .WINDOW(WINDOW), .ACKREQ_EVERY(ACKREQ_EVERY)) u_req (
    .clk, .rst, .qp_reset, .qp_reset_qpn,
    .s_kick_valid(sq_kick_v), .s_kick_ready(sq_kick_r), .s_kick_qpn(sq_kick_q),
    .s_ckick_valid(c_kick_v), .s_ckick_ready(c_kick_r), .s_ckick_qpn(c_kick_q),
    .s_cmd_valid(cmd_v), .s_cmd_ready(cmd_r), .s_cmd(cmd),
    .head_rd_en(head_re), .head_rd_qpn(head_qa), .head_rd_data(head_rd),
    .wqe_rd_en(wqe_re), .wqe_rd_addr(wqe_a), .wqe_rd_data(wqe_rd),
    .cpub_rd_en(req_cpub_re), .cpub_rd_qpn(req_cpub_qa), .cpub_rd_data(req_cpub),
    .ctx_rd_en(ctx_re_req), .ctx_rd_qpn(ctx_qa_req), .ctx_rd_data(ctx_rd_req),
    .mr_rd_en(mr_re), .mr_rd_key(mr_rk), .mr_rd_data(mr_rd),
    .rpub_rd_en(rpub_re), .rpub_rd_qpn(rpub_qa), .rpub_rd_data(rpub),
    .m_ev_valid(ev_v), .m_ev_ready(ev_r), .m_ev(ev),
    .m_tcmd_valid(arm_v), .m_tcmd_ready(arm_r), .m_tcmd(arm),
    .m_dma_cmd_valid(drc_v), .m_dma_cmd_ready(drc_r), .m_dma_cmd(drc), .m_dma_cmd_usr(drc_usr),
    .s_axis_dma_tdata(dr_d), .s_axis_dma_tkeep(dr_k), .s_axis_dma_tvalid(dr_v),
    .s_axis_dma_tready(dr_r), .s_axis_dma_tlast(dr_l), .s_axis_dma_tuser(dr_u),
    .m_hdr_valid(rq_hdr_v), .m_hdr_ready(rq_hdr_r), .m_hdr(rq_hdr),
    .m_axis_payload_tdata(rq_pay_d), .m_axis_payload_tkeep(rq_pay_k), .m_axis_payload_tvalid(rq_pay_v),
    .m_axis_payload_tready(rq_pay_r), .m_axis_payload_tlast(rq_pay_l),
    // no pacer here: every QP may send (the transport's cc_pacer, tests/rc rp)
    .pace_qpn(), .pace_ok(1'b1), .m_txp_valid(), .m_txp_qpn(), .m_txp_opcode(), .m_txp_paylen(),
    .cnt_pkt, .cnt_locerr
  );

  roce_comp #(.NQP(NQP), .SQ_DEPTH(SQ_DEPTH)) u_comp (
    .clk, .rst, .qp_reset, .qp_reset_qpn,
    .s_rsp_hdr_valid(rxh_v), .s_rsp_hdr_ready(rxh_r), .s_rsp_hdr(rxh),
    .s_axis_rsp_payload_tdata(rxp_d), .s_axis_rsp_payload_tkeep(rxp_k), .s_axis_rsp_payload_tvalid(rxp_v),
    .s_axis_rsp_payload_tready(rxp_r), .s_axis_rsp_payload_tlast(rxp_l),
    .s_ev_valid(ev_v), .s_ev_ready(ev_r), .s_ev(ev),
    .s_texp_valid(tx_v), .s_texp_ready(tx_r), .s_texp(tx),
    .m_cmd_valid(cmd_v), .m_cmd_ready(cmd_r), .m_cmd(cmd),
    .m_kick_valid(c_kick_v), .m_kick_ready(c_kick_r), .m_kick_qpn(c_kick_q),
    .m_tcmd_valid(tc_v), .m_tcmd_ready(tc_r), .m_tcmd(tc),
    .wqe_rd_en(cwqe_re), .wqe_rd_addr(cwqe_a), .wqe_rd_data(cwqe_rd),
    .ctx_rd_en(ctx_re_comp), .ctx_rd_qpn(ctx_qa_comp), .ctx_rd_data(ctx_rd_comp),
    .rpub_rd_en(rpub_re), .rpub_rd_qpn(rpub_qa), .rpub_rd_data(rpub),
    .sq_cpub_rd_en(sq_cpub_re), .sq_cpub_rd_qpn(sq_cpub_qa), .sq_cpub_rd_data(sq_cpub),
    .req_cpub_rd_en(req_cpub_re), .req_cpub_rd_qpn(req_cpub_qa), .req_cpub_rd_data(req_cpub),
    .m_dma_cmd_valid(dwc_v), .m_dma_cmd_ready(dwc_r), .m_dma_cmd(dwc),
    .m_axis_dma_tdata(dw_d), .m_axis_dma_tkeep(dw_k), .m_axis_dma_tvalid(dw_v),
    .m_axis_dma_tready(dw_r), .m_axis_dma_tlast(dw_l),
    .s_dma_cpl_valid(dwp_v), .s_dma_cpl_ready(dwp_r), .s_dma_cpl(dwp),
    .m_cqe_valid(cp_cqe_v), .m_cqe_ready(cp_cqe_r), .m_cqe(cp_cqe),
    .qp_err_valid, .qp_err_qpn,
    .cnt_retry, .cnt_timeout, .cnt_rnr, .cnt_nak_seq, .cnt_nak_inv, .cnt_nak_acc, .cnt_nak_op,
    .cnt_implicit, .cnt_drop
  );

  roce_comp_timer #(.NQP(NQP), .CLK_HZ(CLK_HZ)) u_timer (
    .clk, .rst, .qp_reset, .qp_reset_qpn,
    .s_arm_valid(arm_v), .s_arm_ready(arm_r), .s_arm(arm),
    .s_tcmd_valid(tc_v), .s_tcmd_ready(tc_r), .s_tcmd(tc),
    .m_texp_valid(tx_v), .m_texp_ready(tx_r), .m_texp(tx)
  );

  roce_cq_merge #(.NIN(2)) u_merge (
    .clk, .rst,
    .s_cqe_valid({sq_cqe_v, cp_cqe_v}), .s_cqe_ready({sq_cqe_r, cp_cqe_r}), .s_cqe({sq_cqe, cp_cqe}),
    .m_cqe_valid(mg_cqe_v), .m_cqe_ready(mg_cqe_r), .m_cqe(mg_cqe)
  );

  roce_cq #(.DEPTH(64)) u_cq (
    .clk, .rst,
    .s_cqe_valid(mg_cqe_v), .s_cqe_ready(mg_cqe_r), .s_cqe(mg_cqe),
    .cq_valid, .cq_entry(cq_e), .cq_pop, .cq_count()
  );
  assign cq_wr_id    = cq_e.wr_id;
  assign cq_status   = cq_e.status;
  assign cq_opcode   = cq_e.opcode;
  assign cq_byte_len = cq_e.byte_len;
  assign cq_qpn      = cq_e.qpn;

  // responder stand-in: ACK headers
  always_comb begin
    roce_pkg::tx_hdr_t t;
    t = '0;
    t.hdr.bth.opcode     = (rsp_paylen != '0) ? roce_pkg::OP_RC_READ_RESPONSE_ONLY : roce_pkg::OP_RC_ACKNOWLEDGE;
    t.pay_len            = rsp_paylen;
    t.hdr.bth.pkey       = 16'hFFFF;
    t.hdr.bth.dqpn       = 24'h00ABCD;
    t.hdr.bth.psn        = rsp_psn;
    t.hdr.aeth.syndrome  = roce_qp_pkg::AETH_ACK;
    rsp_hdr              = '0;
    rsp_hdr.roce         = t;
    rsp_hdr.remote_ip    = 32'h0A000063;
    rsp_hdr.remote_mac   = 48'h02_00_00_00_00_63;
    rsp_hdr.udp_sport    = 16'hC0DE;
  end

  // responder stand-in payload: one packet per granted READ RESPONSE header,
  // byte i of the payload = i mod 256
  logic [15:0]  rp_left_q, rp_left_d, rp_off_q, rp_off_d;
  logic         rp_v, rp_r, rp_l, rsp_ready_m;
  // one READ RESPONSE at a time: the next is offered once its payload is out
  assign rsp_ready = rsp_ready_m && (rsp_paylen == '0 || rp_left_q == '0);
  logic [511:0] rp_d;
  assign rp_v = rp_left_q != '0;
  assign rp_l = rp_left_q <= 16'd64;
  always_comb begin
    rp_left_d = rp_left_q;
    rp_off_d  = rp_off_q;
    for (int i = 0; i < 64; i++) rp_d[8*i +: 8] = 8'(rp_off_q + 16'(i));
    if (rp_v && rp_r) begin
      rp_left_d = rp_l ? 16'd0 : rp_left_q - 16'd64;
      rp_off_d  = rp_off_q + 16'd64;
    end
    if (rsp_valid && rsp_ready && rsp_paylen != '0) begin
      rp_left_d = rp_left_d + rsp_paylen;   // queued behind the payload under way (the bench waits)
      if (!rp_v) rp_off_d = '0;
    end
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      rp_left_q <= '0;
      rp_off_q  <= '0;
    end else begin
      rp_left_q <= rp_left_d;
      rp_off_q  <= rp_off_d;
    end
  end

  roce_tx_mux u_mux (
    .clk, .rst,
    .s_resp_hdr_valid(rsp_valid && (rsp_paylen == '0 || rp_left_q == '0)), .s_resp_hdr_ready(rsp_ready_m),
    .s_resp_hdr(rsp_hdr),
    .s_axis_resp_payload_tdata(rp_d), .s_axis_resp_payload_tkeep('1), .s_axis_resp_payload_tvalid(rp_v),
    .s_axis_resp_payload_tready(rp_r), .s_axis_resp_payload_tlast(rp_l),
    .s_req_hdr_valid(rq_hdr_v), .s_req_hdr_ready(rq_hdr_r), .s_req_hdr(rq_hdr),
    .s_axis_req_payload_tdata(rq_pay_d), .s_axis_req_payload_tkeep(rq_pay_k), .s_axis_req_payload_tvalid(rq_pay_v),
    .s_axis_req_payload_tready(rq_pay_r), .s_axis_req_payload_tlast(rq_pay_l),
    .s_cnp_hdr_valid(1'b0), .s_cnp_hdr_ready(), .s_cnp_hdr('0),
    .m_hdr_valid(mx_hdr_v), .m_hdr_ready(mx_hdr_r), .m_hdr(mx_hdr),
    .m_axis_payload_tdata(mx_d), .m_axis_payload_tkeep(mx_k), .m_axis_payload_tvalid(mx_v),
    .m_axis_payload_tready(mx_r), .m_axis_payload_tlast(mx_l)
  );
  assign req_pay_beat = rq_pay_v && rq_pay_r;
  assign dbg = {4'(u_req.st_q), 4'(u_comp.st_q), 3'(u_comp.post_q), 1'b0, 2'(u_timer.st_q), 2'b0,
                rq_hdr_v, rq_hdr_r, rq_pay_v, rq_pay_r, drc_v, drc_r, dwc_v, dwc_r,
                dw_v, dw_r, rxh_v, rxh_r, rxp_v, rxp_r, cmd_v, cmd_r};

  // Eth/IPv4/UDP prefix of the frame
  logic [335:0]           prefix;
  roce_pkg::tx_hdr_t      mx_roce;
  roce_pkg::opcode_info_t mx_info;
  net_pkg::tx_hdr_t       nh;
  always_comb begin
    mx_roce        = mx_hdr.roce;
    mx_info        = roce_pkg::roce_opcode_info(mx_roce.hdr.bth.opcode);
    nh.dst_mac     = mx_hdr.remote_mac;
    nh.src_mac     = 48'h02_00_00_00_00_01;
    nh.src_ip      = 32'h0A000001;
    nh.dst_ip      = mx_hdr.remote_ip;
    nh.ip_id       = 16'd0;
    nh.src_port    = mx_hdr.udp_sport;
    nh.dst_port    = 16'd4791;
    nh.payload_len = roce_pkg::roce_udp_payload_len(mx_info.hdr_len, mx_info.has_payload ? mx_roce.pay_len : 16'd0);
    prefix         = net_pkg::hdr_to_bytes(net_pkg::tx_hdr_fill(nh));
  end

  roce_tx_build #(.PREFIX_BYTES(42)) u_build (
    .clk, .rst,
    .s_hdr_valid(mx_hdr_v), .s_hdr_ready(mx_hdr_r), .s_hdr(mx_roce), .s_hdr_info(mx_info), .s_hdr_prefix(prefix),
    .s_axis_payload_tdata(mx_d), .s_axis_payload_tkeep(mx_k), .s_axis_payload_tvalid(mx_v),
    .s_axis_payload_tready(mx_r), .s_axis_payload_tlast(mx_l),
    .m_axis_frame_tdata(tx_tdata), .m_axis_frame_tkeep(tx_tkeep), .m_axis_frame_tvalid(tx_tvalid),
    .m_axis_frame_tready(tx_tready), .m_axis_frame_tlast(tx_tlast)
  );

  roce_rx_parse #(.HDR_DEPTH(4)) u_parse (
    .clk, .rst,
    .s_axis_frame_tdata(rx_tdata), .s_axis_frame_tkeep(rx_tkeep), .s_axis_frame_tvalid(rx_tvalid),
    .s_axis_frame_tready(rx_tready), .s_axis_frame_tlast(rx_tlast), .s_axis_frame_tuser(1'b0),
    .m_hdr_valid(rxh_v), .m_hdr_ready(rxh_r), .m_hdr(rxh), .m_hdr_user(),
    .m_axis_payload_tdata(rxp_d), .m_axis_payload_tkeep(rxp_k), .m_axis_payload_tvalid(rxp_v),
    .m_axis_payload_tready(rxp_r), .m_axis_payload_tlast(rxp_l),
    .cnt_drop_opcode(), .cnt_drop_version(), .cnt_drop_len(), .cnt_pkt_ok()
  );

  // ------------------------------------------------ memory
  logic [63:0] ar_a, aw_a;  logic [7:0] ar_l, aw_l;  logic ar_v, ar_r, aw_v, aw_r;
  logic [511:0] r_d, w_d;  logic [1:0] r_resp, b_resp;  logic r_last, r_v, r_r, w_last, w_v, w_r, b_v, b_r;
  logic [63:0] w_s;
  logic [0:0] m_awid, m_bid, m_arid, m_rid;
  logic [63:0] m_awaddr, m_araddr;  logic [7:0] m_awlen, m_arlen;  logic [2:0] m_awsize, m_arsize;
  logic [1:0] m_awburst, m_arburst, m_bresp, m_rresp;
  logic m_awvalid, m_awready, m_wlast, m_wvalid, m_wready, m_bvalid, m_bready;
  logic m_arvalid, m_arready, m_rlast, m_rvalid, m_rready;
  logic [511:0] m_wdata, m_rdata;  logic [63:0] m_wstrb;

  mem_dma_rd u_dma_rd (
    .clk, .rst,
    .s_cmd_valid(drc_v), .s_cmd_ready(drc_r), .s_cmd(drc),
    .m_axi_araddr(ar_a), .m_axi_arlen(ar_l), .m_axi_arvalid(ar_v), .m_axi_arready(ar_r),
    .m_axi_rdata(r_d), .m_axi_rresp(r_resp), .m_axi_rlast(r_last), .m_axi_rvalid(r_v), .m_axi_rready(r_r),
    .m_axis_tdata(dr_d), .m_axis_tkeep(dr_k), .m_axis_tvalid(dr_v), .m_axis_tready(dr_r),
    .m_axis_tlast(dr_l), .m_axis_tuser(dr_u)
  );

  mem_dma_wr u_dma_wr (
    .clk, .rst,
    .s_cmd_valid(dwc_v), .s_cmd_ready(dwc_r), .s_cmd(dwc),
    .s_axis_tdata(dw_d), .s_axis_tkeep(dw_k), .s_axis_tvalid(dw_v), .s_axis_tready(dw_r), .s_axis_tlast(dw_l),
    .m_axi_awaddr(aw_a), .m_axi_awlen(aw_l), .m_axi_awvalid(aw_v), .m_axi_awready(aw_r),
    .m_axi_wdata(w_d), .m_axi_wstrb(w_s), .m_axi_wlast(w_last), .m_axi_wvalid(w_v), .m_axi_wready(w_r),
    .m_axi_bresp(b_resp), .m_axi_bvalid(b_v), .m_axi_bready(b_r),
    .m_cpl_valid(dwp_v), .m_cpl_ready(dwp_r), .m_cpl(dwp)
  );

  mem_axi_arb #(.NR(1), .NW(1)) u_arb (
    .clk, .rst,
    .s_axi_araddr(ar_a), .s_axi_arlen(ar_l), .s_axi_arvalid(ar_v), .s_axi_arready(ar_r),
    .s_axi_rdata(r_d), .s_axi_rresp(r_resp), .s_axi_rlast(r_last), .s_axi_rvalid(r_v), .s_axi_rready(r_r),
    .s_axi_awaddr(aw_a), .s_axi_awlen(aw_l), .s_axi_awvalid(aw_v), .s_axi_awready(aw_r),
    .s_axi_wdata(w_d), .s_axi_wstrb(w_s), .s_axi_wlast(w_last), .s_axi_wvalid(w_v), .s_axi_wready(w_r),
    .s_axi_bresp(b_resp), .s_axi_bvalid(b_v), .s_axi_bready(b_r),
    .m_axi_awid(m_awid), .m_axi_awaddr(m_awaddr), .m_axi_awlen(m_awlen), .m_axi_awsize(m_awsize), .m_axi_awburst(m_awburst), .m_axi_awvalid(m_awvalid), .m_axi_awready(m_awready), .m_axi_wdata(m_wdata), .m_axi_wstrb(m_wstrb), .m_axi_wlast(m_wlast), .m_axi_wvalid(m_wvalid), .m_axi_wready(m_wready), .m_axi_bid(m_bid), .m_axi_bresp(m_bresp), .m_axi_bvalid(m_bvalid), .m_axi_bready(m_bready), .m_axi_arid(m_arid), .m_axi_araddr(m_araddr), .m_axi_arlen(m_arlen), .m_axi_arsize(m_arsize), .m_axi_arburst(m_arburst), .m_axi_arvalid(m_arvalid), .m_axi_arready(m_arready), .m_axi_rid(m_rid), .m_axi_rdata(m_rdata), .m_axi_rresp(m_rresp), .m_axi_rlast(m_rlast), .m_axi_rvalid(m_rvalid), .m_axi_rready(m_rready)
  );

  mem_axi_ram #(.INST(0), .ID_W(1)) u_ram (
    .clk, .rst, .inst_id(8'd0),
    .s_axi_awid(m_awid), .s_axi_awaddr(m_awaddr), .s_axi_awlen(m_awlen), .s_axi_awsize(m_awsize),
    .s_axi_awburst(m_awburst), .s_axi_awvalid(m_awvalid), .s_axi_awready(m_awready),
    .s_axi_wdata(m_wdata), .s_axi_wstrb(m_wstrb), .s_axi_wlast(m_wlast), .s_axi_wvalid(m_wvalid),
    .s_axi_wready(m_wready),
    .s_axi_bid(m_bid), .s_axi_bresp(m_bresp), .s_axi_bvalid(m_bvalid), .s_axi_bready(m_bready),
    .s_axi_arid(m_arid), .s_axi_araddr(m_araddr), .s_axi_arlen(m_arlen), .s_axi_arsize(m_arsize),
    .s_axi_arburst(m_arburst), .s_axi_arvalid(m_arvalid), .s_axi_arready(m_arready),
    .s_axi_rid(m_rid), .s_axi_rdata(m_rdata), .s_axi_rresp(m_rresp), .s_axi_rlast(m_rlast),
    .s_axi_rvalid(m_rvalid), .s_axi_rready(m_rready)
  );

endmodule
