// roce_resp: the RC responder (docs/transport.md, "Responder").
//
//   s_hdr + s_axis_payload (requests from roce_rx_split)
//     -> roce_resp_check: the chain of checks, one header at a time, using
//        the QP context and MR read ports (tables outside, shared with the
//        requester) and the receive queues (roce_rq, inside)
//     -> DMA write commands (m_dma_wr_cmd) + payload (m_dma_wr_axis): the
//        payload waits in a PAY_DEPTH-beat FIFO while its header is checked,
//        then goes to memory or is discarded
//     -> events -> roce_resp_tx: ACK/NAK (coalesced), READ responses
//        (m_dma_rd_*), atomics (m_dma_rd_*, m_dma_aw_*), receive CQEs
//     -> m_tx_hdr + m_axis_tx (to the TX mux / roce_tx_build)
// Throughput: one payload beat per cycle while packets are at least three
// beats long; shorter packets are limited by the check chain's three cycles
// per header (roce_resp_check).
//
// Boundaries (timing, docs/timing.md): the payload FIFO is a lib_fifo
// (registered s_ready and m_valid: s_axis_payload_tready and
// m_dma_wr_axis_tvalid from registers; a beat reaches its output two cycles
// after it came in, while its header is still in the check chain), and
// s_dma_wr_cpl_ready is registered (see u_wr_cpl).
//
// Counters wrap around; the drop, NAK and duplicate counts are per packet.
`default_nettype none

module roce_resp #(
  parameter int NQP          = 256,
  parameter int RQ_DEPTH     = 16,
  parameter int ACK_COALESCE = 8,
  parameter int NATOM        = 4,
  parameter int RD_CTX       = 8,    // READ responses served at once, round robin (roce_resp_tx)
  parameter int PAY_DEPTH    = 16,
  parameter int CPL_DEPTH    = 16,   // payload DMA completions (> outstanding commands, see u_wr_cpl)
  parameter int QW           = $clog2(NQP)
) (
  input  wire logic                        clk,
  input  wire logic                        rst,
  input  wire logic                        init_done,       // tables swept (roce_qp_table, roce_mr_table)
  input  wire logic                        qp_reset_valid,
  input  wire logic [QW-1:0]               qp_reset_qpn,
  // requests
  input  wire logic                        s_hdr_valid,
  output logic                             s_hdr_ready,
  input  wire roce_pkg::rx_hdr_t           s_hdr,
  input  wire logic [roce_pkg::DATA_W-1:0] s_axis_payload_tdata,
  input  wire logic [roce_pkg::KEEP_W-1:0] s_axis_payload_tkeep,
  input  wire logic                        s_axis_payload_tvalid,
  output logic                             s_axis_payload_tready,
  input  wire logic                        s_axis_payload_tlast,
  // QP context read port (roce_qp_table)
  output logic                             ctx_rd_en,
  output logic [QW-1:0]                    ctx_rd_qpn,
  input  wire roce_qp_pkg::qp_ctx_t        ctx_rd,
  // MR read port (roce_mr_table)
  output logic                             mr_rd_en,
  output logic [31:0]                      mr_rd_key,
  input  wire roce_qp_pkg::mr_entry_t      mr_rd,
  // receive WQE post port
  input  wire logic                        s_post_valid,
  output logic                             s_post_ready,
  input  wire logic [QW-1:0]               s_post_qpn,
  input  wire roce_qp_pkg::rwqe_t          s_post_wqe,
  input  wire logic                        s_post_recycle,  // make the QP's full ring recycle (roce_rq)
  output logic                             s_post_err,   // the last post taken was refused (full ring): in the cycle s_post_ready is back
  // DMA write of payload
  output logic                             m_dma_wr_cmd_valid,
  input  wire logic                        m_dma_wr_cmd_ready,
  output mem_pkg::dma_wr_cmd_t             m_dma_wr_cmd,
  output roce_qp_pkg::dma_usr_t            m_dma_wr_cmd_usr,   // streaming MR: to user logic (docs/user-logic.md)
  output logic [mem_pkg::DATA_W-1:0]       m_dma_wr_axis_tdata,
  output logic [mem_pkg::STRB_W-1:0]       m_dma_wr_axis_tkeep,
  output logic                             m_dma_wr_axis_tvalid,
  input  wire logic                        m_dma_wr_axis_tready,
  output logic                             m_dma_wr_axis_tlast,
  output logic                             m_dma_wr_axis_tuser,   // the packet is for a streaming MR (user logic)
  input  wire logic                        s_dma_wr_cpl_valid,
  output logic                             s_dma_wr_cpl_ready,
  input  wire mem_pkg::dma_cpl_t           s_dma_wr_cpl,
  // DMA write of atomics
  output logic                             m_dma_aw_cmd_valid,
  input  wire logic                        m_dma_aw_cmd_ready,
  output mem_pkg::dma_wr_cmd_t             m_dma_aw_cmd,
  output logic [mem_pkg::DATA_W-1:0]       m_dma_aw_axis_tdata,
  output logic [mem_pkg::STRB_W-1:0]       m_dma_aw_axis_tkeep,
  output logic                             m_dma_aw_axis_tvalid,
  input  wire logic                        m_dma_aw_axis_tready,
  output logic                             m_dma_aw_axis_tlast,
  input  wire logic                        s_dma_aw_cpl_valid,
  output logic                             s_dma_aw_cpl_ready,
  input  wire mem_pkg::dma_cpl_t           s_dma_aw_cpl,
  // DMA read
  output logic                             m_dma_rd_cmd_valid,
  input  wire logic                        m_dma_rd_cmd_ready,
  output mem_pkg::dma_rd_cmd_t             m_dma_rd_cmd,
  output roce_qp_pkg::dma_usr_t            m_dma_rd_cmd_usr,
  input  wire logic [mem_pkg::DATA_W-1:0]  s_dma_rd_axis_tdata,
  input  wire logic [mem_pkg::STRB_W-1:0]  s_dma_rd_axis_tkeep,
  input  wire logic                        s_dma_rd_axis_tvalid,
  output logic                             s_dma_rd_axis_tready,
  input  wire logic                        s_dma_rd_axis_tlast,
  input  wire mem_pkg::dma_cpl_t           s_dma_rd_axis_tuser,
  // TX
  output logic                             m_tx_hdr_valid,
  input  wire logic                        m_tx_hdr_ready,
  output roce_qp_pkg::qp_tx_hdr_t          m_tx_hdr,
  output logic [roce_pkg::DATA_W-1:0]      m_axis_tx_tdata,
  output logic [roce_pkg::KEEP_W-1:0]      m_axis_tx_tkeep,
  output logic                             m_axis_tx_tvalid,
  input  wire logic                        m_axis_tx_tready,
  output logic                             m_axis_tx_tlast,
  // receive completions
  output logic                             m_cqe_valid,
  input  wire logic                        m_cqe_ready,
  output roce_qp_pkg::cqe_t                m_cqe,
  // the receive flush (roce_rq_flush): a QP moved to ERROR, and its WR_FLUSH_ERR completions
  input  wire logic                        flush_valid,
  input  wire logic [QW-1:0]               flush_qpn,
  output logic                             m_fcqe_valid,
  input  wire logic                        m_fcqe_ready,
  output roce_qp_pkg::cqe_t                m_fcqe,
  output logic [31:0]                      cnt_rq_flushed,   // receive WQEs completed with WR_FLUSH_ERR
  output logic [31:0]                      cnt_rq_flush_lost,// moves to ERROR whose ring was not flushed (queue full)
  // counters
  output logic [31:0]                      cnt_drop_qpn,     // QPN invalid or >= NQP
  output logic [31:0]                      cnt_drop_state,   // QP not RTR/RTS/SQD/SQE
  output logic [31:0]                      cnt_drop_opcode,  // not an RC request
  output logic [31:0]                      cnt_drop_oos,     // out of sequence after the episode's NAK
  output logic [31:0]                      cnt_drop_dup,     // duplicate READ failing its checks
  output logic [31:0]                      cnt_drop_reset,   // QP reset while the packet was checked
  output logic [31:0]                      cnt_dup,          // duplicate requests
  output logic [31:0]                      cnt_nak_seq,      // NAK PSN sequence error
  output logic [31:0]                      cnt_nak_inv,      // NAK invalid request
  output logic [31:0]                      cnt_nak_acc,      // NAK remote access error
  output logic [31:0]                      cnt_nak_op,       // NAK remote operational error (bad receive WQE)
  output logic [31:0]                      cnt_rnr,          // RNR NAK
  output logic [31:0]                      cnt_req_ok,       // requests executed in order
  output logic [31:0]                      cnt_ack_tx,       // ACK packets sent
  output logic [31:0]                      cnt_nak_tx,       // NAK packets sent
  output logic [31:0]                      cnt_rd_pkt,       // READ response packets sent
  output logic [31:0]                      cnt_atomic,       // atomics executed
  output logic [31:0]                      cnt_atomic_miss,  // duplicate atomic no longer cached
  output logic [31:0]                      cnt_dma_err,      // DMA errors
  output logic [31:0]                      cnt_post_err,     // receive WQE posted to a full ring
  output logic [31:0]                      cnt_rx_write,     // WRITE request messages executed
  output logic [31:0]                      cnt_rx_read,      // READ requests executed
  output logic [31:0]                      cnt_rx_atomic,    // atomic requests executed
  output logic [31:0]                      cnt_rx_send,      // SEND request messages executed
  output logic [31:0]                      cnt_nak_pmtu,     // of cnt_nak_inv: payload longer than the path MTU
  output logic [31:0]                      cnt_nak_pd,       // of cnt_nak_acc + cnt_nak_op: the MR belongs to another PD
  // the responder moved a QP to ERROR after a fatal NAK (roce_resp_check: a
  // registered pulse, the QPN and the NAK's ibv_wc_status)
  output logic                             err_valid,
  output logic [QW-1:0]                    err_qpn,
  output logic [4:0]                       err_status,
  // a request executed in order on QP err_qpn (a registered pulse, the one that
  // counts cnt_req_ok): roce_transport's per-QP qp_hw_state.req
  output logic                             req_ok
);
  localparam int PW   = $clog2(RQ_DEPTH) + 1;
  localparam int NCNT = 26;

  // ---- receive queues: lookups and consumes from the checks, and from the
  // flush in the cycles the checks leave free (their requests are registers)
  logic                rq_lk_en, rq_lk_valid, rq_cons_en, post_err;
  logic [QW-1:0]       rq_lk_qpn, rq_cons_qpn;
  logic [PW-1:0]       rq_lk_head, rq_cons_head;
  roce_qp_pkg::rwqe_t  rq_lk_wqe;
  logic                ck_lk_en, ck_cons_en, fl_lk_req, fl_cons_req, fl_lk_gnt, fl_cons_gnt;
  logic [QW-1:0]       ck_lk_qpn, ck_cons_qpn, fl_qpn;
  logic [PW-1:0]       ck_cons_head, fl_cons_head;
  assign fl_lk_gnt    = fl_lk_req && !ck_lk_en;
  assign fl_cons_gnt  = fl_cons_req && !ck_cons_en && !qp_reset_valid;   // a reset owns roce_rq's head port
  assign rq_lk_en     = ck_lk_en || fl_lk_req;
  assign rq_lk_qpn    = ck_lk_en ? ck_lk_qpn : fl_qpn;
  assign rq_cons_en   = ck_cons_en || fl_cons_gnt;
  assign rq_cons_qpn  = ck_cons_en ? ck_cons_qpn : fl_qpn;
  assign rq_cons_head = ck_cons_en ? ck_cons_head : fl_cons_head;

  roce_rq #(.NQP(NQP), .RQ_DEPTH(RQ_DEPTH)) u_rq (
    .clk, .rst, .qp_reset_valid, .qp_reset_qpn,
    .s_post_valid, .s_post_ready, .s_post_qpn, .s_post_wqe, .s_post_recycle, .post_err,
    .lk_en(rq_lk_en), .lk_qpn(rq_lk_qpn), .lk_valid(rq_lk_valid), .lk_head(rq_lk_head), .lk_wqe(rq_lk_wqe),
    .cons_en(rq_cons_en), .cons_qpn(rq_cons_qpn), .cons_head(rq_cons_head));
  assign s_post_err = post_err;

  roce_rq_flush #(.NQP(NQP), .RQ_DEPTH(RQ_DEPTH)) u_flush (
    .clk, .rst, .s_valid(flush_valid), .s_qpn(flush_qpn), .qp_reset_valid, .qp_reset_qpn,
    .lk_req(fl_lk_req), .lk_qpn(fl_qpn), .lk_gnt(fl_lk_gnt),
    .lk_valid(rq_lk_valid), .lk_head(rq_lk_head), .lk_wqe(rq_lk_wqe),
    .cons_req(fl_cons_req), .cons_head(fl_cons_head), .cons_gnt(fl_cons_gnt),
    .m_cqe_valid(m_fcqe_valid), .m_cqe_ready(m_fcqe_ready), .m_cqe(m_fcqe),
    .cnt_flushed(cnt_rq_flushed), .cnt_lost(cnt_rq_flush_lost));

  // ---- checks
  logic                  act_valid, act_ready, act_sink, act_stream;
  logic                  ev_valid, ev_ready;
  roce_qp_pkg::resp_ev_t ev;
  logic [NCNT-1:0]       inc;

  roce_resp_check #(.NQP(NQP), .RQ_DEPTH(RQ_DEPTH)) u_check (
    .clk, .rst, .init_done, .qp_reset_valid, .qp_reset_qpn,
    .s_hdr_valid, .s_hdr_ready, .s_hdr,
    .ctx_rd_en, .ctx_rd_qpn, .ctx_rd,
    .mr_rd_en, .mr_rd_key, .mr_rd,
    .rq_lk_en(ck_lk_en), .rq_lk_qpn(ck_lk_qpn), .rq_lk_valid, .rq_lk_head, .rq_lk_wqe,
    .rq_cons_en(ck_cons_en), .rq_cons_qpn(ck_cons_qpn), .rq_cons_head(ck_cons_head),
    .m_dma_cmd_valid(m_dma_wr_cmd_valid), .m_dma_cmd_ready(m_dma_wr_cmd_ready), .m_dma_cmd(m_dma_wr_cmd), .m_dma_cmd_usr(m_dma_wr_cmd_usr),
    .m_act_valid(act_valid), .m_act_ready(act_ready), .m_act_sink(act_sink), .m_act_stream(act_stream),
    .m_ev_valid(ev_valid), .m_ev_ready(ev_ready), .m_ev(ev),
    .inc_drop_qpn(inc[0]), .inc_drop_state(inc[1]), .inc_drop_opcode(inc[2]), .inc_drop_oos(inc[3]),
    .inc_drop_dup(inc[4]), .inc_drop_reset(inc[5]), .inc_dup(inc[6]), .inc_nak_seq(inc[7]),
    .inc_nak_inv(inc[8]), .inc_nak_acc(inc[9]), .inc_nak_op(inc[10]), .inc_rnr(inc[11]), .inc_ok(inc[12]),
    .inc_rx_write(inc[20]), .inc_rx_read(inc[21]), .inc_rx_atomic(inc[22]), .inc_rx_send(inc[23]),
    .inc_nak_pmtu(inc[24]), .inc_nak_pd(inc[25]),
    .err_valid, .err_qpn, .err_status);

  // ---- payload: FIFO, then to DMA or discarded, one packet per action
  // (lib_fifo: its s_ready and m_valid come from registers, so
  // s_axis_payload_tready and m_dma_wr_axis_tvalid are registered outputs;
  // a beat is on its output two cycles after it came in, one more than
  // before, while its header is still in the check chain)
  localparam int PAYW = roce_pkg::DATA_W + roce_pkg::KEEP_W + 1;
  logic            pf_valid, pf_ready;
  logic [PAYW-1:0] pf_data;
  logic            pf_last;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [$clog2(PAY_DEPTH+1)-1:0] pf_count;   // occupancy is not needed
  /* verilator lint_on UNUSEDSIGNAL */

  lib_fifo #(.WIDTH(PAYW), .DEPTH(PAY_DEPTH)) u_pay (
    .clk, .rst,
    .s_valid(s_axis_payload_tvalid), .s_ready(s_axis_payload_tready),
    .s_data({s_axis_payload_tlast, s_axis_payload_tkeep, s_axis_payload_tdata}),
    .m_valid(pf_valid), .m_ready(pf_ready), .m_data(pf_data), .count(pf_count));

  assign pf_last              = pf_data[PAYW-1];
  assign m_dma_wr_axis_tdata  = pf_data[roce_pkg::DATA_W-1:0];
  assign m_dma_wr_axis_tkeep  = pf_data[roce_pkg::DATA_W +: roce_pkg::KEEP_W];
  assign m_dma_wr_axis_tlast  = pf_last;
  assign m_dma_wr_axis_tuser  = act_stream;
  assign m_dma_wr_axis_tvalid = pf_valid && act_valid && act_sink;
  assign pf_ready             = act_valid && (act_sink ? m_dma_wr_axis_tready : 1'b1);
  assign act_ready            = pf_valid && pf_ready && pf_last;

  // ---- payload DMA completions: always accepted
  // roce_resp_tx takes a payload write's completion only when that packet's
  // event reaches the head of its queue, e.g. not while it waits for an
  // atomic's write. (mem_dma_wr now buffers completions itself and never
  // withholds bready, but would stop taking payload commands while its
  // completions wait: this FIFO keeps the payload path moving.) It takes
  // every completion at once. It cannot fill: a payload command is issued together with its
  // event, which stays in roce_resp_check's event output (an 8-entry FIFO and
  // the register in front of it) until roce_resp_tx has taken the completion,
  // so at most 9 are outstanding.
  // s_dma_wr_cpl_ready is registered: high while at most CPL_DEPTH-2 are
  // held (so a completion taken in the cycle it was computed still fits).
  logic              wc_valid, wc_ready, wc_in_ready, wcr_q, wcr_d;
  mem_pkg::dma_cpl_t wc;
  logic [$clog2(CPL_DEPTH):0] wc_count;

  roce_fifo #(.WIDTH(mem_pkg::CPL_W), .DEPTH(CPL_DEPTH)) u_wr_cpl (
    .clk, .rst,
    .in_valid(s_dma_wr_cpl_valid && wcr_q), .in_ready(wc_in_ready), .in_data(s_dma_wr_cpl),
    .out_valid(wc_valid), .out_ready(wc_ready), .out_data(wc), .count(wc_count));
  assign wcr_d              = wc_count < ($clog2(CPL_DEPTH)+1)'(CPL_DEPTH - 1);
  assign s_dma_wr_cpl_ready = wcr_q;
  always_ff @(posedge clk) begin
    if (rst) wcr_q <= 1'b1;
    else     wcr_q <= wcr_d;
  end

  // ---- answers
  roce_resp_tx #(.NQP(NQP), .ACK_COALESCE(ACK_COALESCE), .NATOM(NATOM), .RD_CTX(RD_CTX)) u_tx (
    .clk, .rst, .qp_reset_valid, .qp_reset_qpn,
    .s_ev_valid(ev_valid), .s_ev_ready(ev_ready), .s_ev(ev),
    .s_cpl_valid(wc_valid), .s_cpl_ready(wc_ready), .s_cpl(wc),
    .m_rd_cmd_valid(m_dma_rd_cmd_valid), .m_rd_cmd_ready(m_dma_rd_cmd_ready), .m_rd_cmd(m_dma_rd_cmd), .m_rd_cmd_usr(m_dma_rd_cmd_usr),
    .s_rd_axis_tdata(s_dma_rd_axis_tdata), .s_rd_axis_tkeep(s_dma_rd_axis_tkeep),
    .s_rd_axis_tvalid(s_dma_rd_axis_tvalid), .s_rd_axis_tready(s_dma_rd_axis_tready),
    .s_rd_axis_tlast(s_dma_rd_axis_tlast), .s_rd_axis_tuser(s_dma_rd_axis_tuser),
    .m_aw_cmd_valid(m_dma_aw_cmd_valid), .m_aw_cmd_ready(m_dma_aw_cmd_ready), .m_aw_cmd(m_dma_aw_cmd),
    .m_aw_axis_tdata(m_dma_aw_axis_tdata), .m_aw_axis_tkeep(m_dma_aw_axis_tkeep),
    .m_aw_axis_tvalid(m_dma_aw_axis_tvalid), .m_aw_axis_tready(m_dma_aw_axis_tready),
    .m_aw_axis_tlast(m_dma_aw_axis_tlast),
    .s_aw_cpl_valid(s_dma_aw_cpl_valid), .s_aw_cpl_ready(s_dma_aw_cpl_ready), .s_aw_cpl(s_dma_aw_cpl),
    .m_tx_hdr_valid, .m_tx_hdr_ready, .m_tx_hdr,
    .m_axis_tx_tdata, .m_axis_tx_tkeep, .m_axis_tx_tvalid, .m_axis_tx_tready, .m_axis_tx_tlast,
    .m_cqe_valid, .m_cqe_ready, .m_cqe,
    .inc_ack(inc[13]), .inc_nak(inc[14]), .inc_rd_pkt(inc[15]), .inc_atomic(inc[16]),
    .inc_atomic_miss(inc[17]), .inc_dma_err(inc[18]));

  assign inc[19] = post_err;
  assign req_ok  = inc[12];

  // ---- counters
  logic [31:0] cnt_q [NCNT];
  logic [31:0] cnt_d [NCNT];
  always_comb begin
    for (int i = 0; i < NCNT; i++) cnt_d[i] = cnt_q[i] + 32'(inc[i]);
  end
  always_ff @(posedge clk) begin
    for (int i = 0; i < NCNT; i++) begin
      if (rst) cnt_q[i] <= '0;
      else     cnt_q[i] <= cnt_d[i];
    end
  end
  assign cnt_drop_qpn    = cnt_q[0];
  assign cnt_drop_state  = cnt_q[1];
  assign cnt_drop_opcode = cnt_q[2];
  assign cnt_drop_oos    = cnt_q[3];
  assign cnt_drop_dup    = cnt_q[4];
  assign cnt_drop_reset  = cnt_q[5];
  assign cnt_dup         = cnt_q[6];
  assign cnt_nak_seq     = cnt_q[7];
  assign cnt_nak_inv     = cnt_q[8];
  assign cnt_nak_acc     = cnt_q[9];
  assign cnt_nak_op      = cnt_q[10];
  assign cnt_rnr         = cnt_q[11];
  assign cnt_req_ok      = cnt_q[12];
  assign cnt_ack_tx      = cnt_q[13];
  assign cnt_nak_tx      = cnt_q[14];
  assign cnt_rd_pkt      = cnt_q[15];
  assign cnt_atomic      = cnt_q[16];
  assign cnt_atomic_miss = cnt_q[17];
  assign cnt_dma_err     = cnt_q[18];
  assign cnt_post_err    = cnt_q[19];
  assign cnt_rx_write    = cnt_q[20];
  assign cnt_rx_read     = cnt_q[21];
  assign cnt_rx_atomic   = cnt_q[22];
  assign cnt_rx_send     = cnt_q[23];
  assign cnt_nak_pmtu    = cnt_q[24];
  assign cnt_nak_pd      = cnt_q[25];

`ifndef SYNTHESIS
  // handshake rules on the outputs: valid holds until ready, data stable
  logic hv_q, tv_q, cv_q;
  roce_qp_pkg::qp_tx_hdr_t h_q;
  always_ff @(posedge clk) begin
    hv_q <= !rst && m_tx_hdr_valid && !m_tx_hdr_ready;
    tv_q <= !rst && m_axis_tx_tvalid && !m_axis_tx_tready;
    cv_q <= !rst && m_cqe_valid && !m_cqe_ready;
    h_q  <= m_tx_hdr;
    if (!rst && hv_q && !(m_tx_hdr_valid && m_tx_hdr == h_q))
      $error("roce_resp: m_tx_hdr dropped or changed while stalled");
    if (!rst && tv_q && !m_axis_tx_tvalid) $error("roce_resp: m_axis_tx_tvalid dropped while stalled");
    if (!rst && cv_q && !m_cqe_valid) $error("roce_resp: m_cqe_valid dropped while stalled");
    if (!rst && s_dma_wr_cpl_valid && wcr_q && !wc_in_ready)
      $error("roce_resp: payload DMA completion FIFO: a completion taken without room");
    if (!rst && s_dma_wr_cpl_valid && !s_dma_wr_cpl_ready)
      $error("roce_resp: payload DMA completion FIFO full (it must never hold the shared B channel)");
  end
`endif

endmodule
