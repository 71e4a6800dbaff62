// roce_sq: the send queues. Per QP a ring of SQ_DEPTH send WQEs, posted from
// one WQE stream (firmware registers or user logic). A post appends the WQE
// at the QP's head and kicks the requester; a post to a QPN outside the
// table, to QPN 0, or to a full ring is refused: it completes at once with
// LOC_QP_OP_ERR on m_cqe and is counted (no post ever waits for space, so
// one full QP never blocks the others).
//
// Storage (block RAMs, simple dual port, registered reads):
//   wqe  [NQP*SQ_DEPTH] the whole WQE, read by the requester
//   cwqe [NQP*SQ_DEPTH] what the completer needs (opcode, local address,
//                       length, wr_id, signaled), read by the completer
//   head [NQP] x 2      the ring head, one copy here, one read by the requester
// Ring space comes from the completer's published retire pointer (cpub port).
// Pointers are ring index + one wrap bit (roce_req_pkg::PTR_W wide).
//
// Posts come through a register slice (lib_skid: s_wqe_ready from a
// register); a post then takes 2 cycles (read head, write) and a third for the
// kick. qp_reset (from the QP table)
// empties the QP's ring. After rst the heads are cleared in NQP cycles
// (s_wqe_ready low meanwhile).
`default_nettype none

module roce_sq #(
  parameter int NQP      = 256,
  parameter int SQ_DEPTH = 16,
  parameter int QAW      = $clog2(NQP),
  parameter int SAW      = $clog2(SQ_DEPTH)
) (
  input  wire logic                           clk,
  input  wire logic                           rst,
  // posts
  input  wire logic                           s_wqe_valid,
  output logic                                s_wqe_ready,
  input  wire roce_qp_pkg::swqe_t             s_wqe,
  // QP reset (QP table): clear the QP's ring
  input  wire logic                           qp_reset,
  input  wire logic [23:0]                    qp_reset_qpn,
  // requester read ports (data one cycle after rd_en)
  input  wire logic                           req_head_rd_en,
  input  wire logic [QAW-1:0]                 req_head_rd_qpn,
  output logic [roce_req_pkg::PTR_W-1:0]      req_head_rd_data,
  input  wire logic                           req_wqe_rd_en,
  input  wire logic [QAW+SAW-1:0]             req_wqe_rd_addr,   // {qpn, index}
  output roce_qp_pkg::swqe_t                  req_wqe_rd_data,
  // completer read port
  input  wire logic                           comp_wqe_rd_en,
  input  wire logic [QAW+SAW-1:0]             comp_wqe_rd_addr,
  output roce_req_pkg::cwqe_t                 comp_wqe_rd_data,
  // the completer's published state (ring space)
  output logic                                cpub_rd_en,
  output logic [QAW-1:0]                      cpub_rd_qpn,
  // only inited and cptr are needed here (the rest is the requester's)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire roce_req_pkg::cpub_t            cpub_rd_data,
  /* verilator lint_on UNUSEDSIGNAL */
  // kick: the QP has new work
  output logic                                m_kick_valid,
  input  wire logic                           m_kick_ready,
  output logic [23:0]                         m_kick_qpn,
  // completions of refused posts
  output logic                                m_cqe_valid,
  input  wire logic                           m_cqe_ready,
  output roce_qp_pkg::cqe_t                   m_cqe,
  // counters (wrap around)
  output logic [31:0]                         cnt_post,
  output logic [31:0]                         cnt_reject
);
  localparam int PW = roce_req_pkg::PTR_W;

  if (SQ_DEPTH < 2 || (1 << SAW) != SQ_DEPTH || SQ_DEPTH > (1 << (PW - 1))) begin : g_bad_depth
    $error("roce_sq: SQ_DEPTH must be a power of two in 2..2^(PTR_W-1)");
  end
  if ((1 << QAW) != NQP) begin : g_bad_nqp
    $error("roce_sq: NQP must be a power of two");
  end

  typedef enum logic [2:0] {
    S_INIT = 3'd0,   // clearing the heads after rst
    S_IDLE = 3'd1,
    S_CHK  = 3'd2,   // head and ring space read: store or refuse
    S_KICK = 3'd3,   // tell the requester
    S_REJ  = 3'd4    // refused: completion out
  } state_e;

  state_e              st_q, st_d;
  logic [QAW-1:0]      init_q, init_d;
  roce_qp_pkg::swqe_t  w_q, w_d;
  logic                qok_q, qok_d;
  logic [31:0]         cnt_post_q, cnt_post_d, cnt_rej_q, cnt_rej_d;

  // head RAMs
  logic                head_we;
  logic [QAW-1:0]      head_waddr;
  logic [PW-1:0]       head_wdata;
  logic                head_re;
  logic [QAW-1:0]      head_raddr;
  logic [PW-1:0]       head_rdata;
  // WQE RAMs
  logic                wqe_we;
  logic [QAW+SAW-1:0]  wqe_waddr;
  roce_req_pkg::cwqe_t cw;

  // QP resets waiting
  logic                rq_valid, rq_ready;
  logic [23:0]         rq_qpn;

  // FIFO occupancy (count) is not needed, nor the in_ready of the QP reset
  // queues (resets are register writes, far apart: the queue never fills)
  /* verilator lint_off PINCONNECTEMPTY */
  roce_fifo #(.WIDTH(24), .DEPTH(16)) u_rst_q (
    .clk, .rst,
    .in_valid(qp_reset), .in_ready(), .in_data(qp_reset_qpn),
    .out_valid(rq_valid), .out_ready(rq_ready), .out_data(rq_qpn), .count()
  );

  // posts through a register slice: s_wqe_ready from a register, and the
  // ring space is read every cycle at the QPN of the post waiting there (the
  // read of the cycle S_IDLE takes it is the one S_CHK sees)
  logic               pv, pr;
  roce_qp_pkg::swqe_t pw;
  lib_skid #(.WIDTH(roce_qp_pkg::SWQE_W)) u_post_skid (
    .clk, .rst, .s_valid(s_wqe_valid), .s_ready(s_wqe_ready), .s_data(s_wqe),
    .m_valid(pv), .m_ready(pr), .m_data(pw)
  );

  logic [PW-1:0] used, head_nx;
  logic [PW-1:0] cptr;

  // The SQ's fill, a rejected WQE's error CQE and the completer's copy of a
  // posted one: all from the WQE held in w_q and the head and cptr read for it.
  always_comb begin
    cptr    = cpub_rd_data.inited ? cpub_rd_data.cptr : '0;
    used    = (head_rdata - cptr) & PW'(2 * SQ_DEPTH - 1);
    head_nx = (head_rdata + PW'(1)) & PW'(2 * SQ_DEPTH - 1);

    m_cqe          = '0;
    m_cqe.wr_id    = w_q.wr_id;
    m_cqe.status   = roce_qp_pkg::WC_LOC_QP_OP_ERR;
    m_cqe.qpn      = w_q.qpn;
    unique case (w_q.opcode)
      roce_qp_pkg::WR_RDMA_WRITE, roce_qp_pkg::WR_RDMA_WRITE_WITH_IMM: m_cqe.opcode = roce_qp_pkg::WC_OP_RDMA_WRITE;
      roce_qp_pkg::WR_RDMA_READ:            m_cqe.opcode = roce_qp_pkg::WC_OP_RDMA_READ;
      roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP:   m_cqe.opcode = roce_qp_pkg::WC_OP_COMP_SWAP;
      roce_qp_pkg::WR_ATOMIC_FETCH_AND_ADD: m_cqe.opcode = roce_qp_pkg::WC_OP_FETCH_ADD;
      default:                              m_cqe.opcode = roce_qp_pkg::WC_OP_SEND;
    endcase

    cw.opcode   = w_q.opcode;
    cw.laddr    = w_q.local_addr;
    cw.len      = w_q.length;
    cw.wr_id    = w_q.wr_id;
    cw.signaled = w_q.signaled;
  end

  always_comb begin
    st_d       = st_q;
    init_d     = init_q;
    w_d        = w_q;
    qok_d      = qok_q;
    cnt_post_d = cnt_post_q;
    cnt_rej_d  = cnt_rej_q;

    pr           = 1'b0;
    rq_ready     = 1'b0;
    head_we      = 1'b0;
    head_waddr   = init_q;
    head_wdata   = '0;
    head_re      = 1'b0;
    head_raddr   = pw.qpn[QAW-1:0];
    wqe_we       = 1'b0;
    wqe_waddr    = {w_q.qpn[QAW-1:0], head_rdata[SAW-1:0]};
    cpub_rd_en   = 1'b1;
    cpub_rd_qpn  = pw.qpn[QAW-1:0];
    m_kick_valid = 1'b0;
    m_kick_qpn   = w_q.qpn;
    m_cqe_valid  = 1'b0;

    unique case (st_q)
      S_INIT: begin
        head_we    = 1'b1;
        head_waddr = init_q;
        init_d     = init_q + QAW'(1);
        if (init_q == QAW'(NQP - 1)) st_d = S_IDLE;
      end
      S_IDLE: begin
        if (rq_valid) begin
          rq_ready   = 1'b1;
          head_we    = rq_qpn[23:QAW] == '0;
          head_waddr = rq_qpn[QAW-1:0];
        end else begin
          pr = 1'b1;
          if (pv) begin
            w_d        = pw;
            qok_d      = pw.qpn[23:QAW] == '0 && pw.qpn != 24'd0;
            head_re    = 1'b1;
            st_d       = S_CHK;
          end
        end
      end
      S_CHK: begin
        if (qok_q && used != PW'(SQ_DEPTH)) begin
          wqe_we     = 1'b1;
          head_we    = 1'b1;
          head_waddr = w_q.qpn[QAW-1:0];
          head_wdata = head_nx;
          cnt_post_d = cnt_post_q + 32'd1;
          st_d       = S_KICK;
        end else begin
          cnt_rej_d = cnt_rej_q + 32'd1;
          st_d      = S_REJ;
        end
      end
      S_KICK: begin
        m_kick_valid = 1'b1;
        if (m_kick_ready) st_d = S_IDLE;
      end
      S_REJ: begin
        m_cqe_valid = 1'b1;
        if (m_cqe_ready) st_d = S_IDLE;
      end
      default: st_d = S_IDLE;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q       <= S_INIT;
      init_q     <= '0;
      w_q        <= '0;
      qok_q      <= 1'b0;
      cnt_post_q <= '0;
      cnt_rej_q  <= '0;
    end else begin
      st_q       <= st_d;
      init_q     <= init_d;
      w_q        <= w_d;
      qok_q      <= qok_d;
      cnt_post_q <= cnt_post_d;
      cnt_rej_q  <= cnt_rej_d;
    end
  end

  assign cnt_post   = cnt_post_q;
  assign cnt_reject = cnt_rej_q;

  // ring heads: this block's copy and the requester's copy
  roce_ram_sdp #(.WIDTH(PW), .DEPTH(NQP)) u_head (
    .clk, .wr_en(head_we), .wr_addr(head_waddr), .wr_data(head_wdata),
    .rd_en(head_re), .rd_addr(head_raddr), .rd_data(head_rdata)
  );
  roce_ram_sdp #(.WIDTH(PW), .DEPTH(NQP)) u_head_req (
    .clk, .wr_en(head_we), .wr_addr(head_waddr), .wr_data(head_wdata),
    .rd_en(req_head_rd_en), .rd_addr(req_head_rd_qpn), .rd_data(req_head_rd_data)
  );

  // the WQEs: the requester's and the completer's view
  roce_ram_sdp #(.WIDTH(roce_qp_pkg::SWQE_W), .DEPTH(NQP * SQ_DEPTH)) u_wqe (
    .clk, .wr_en(wqe_we), .wr_addr(wqe_waddr), .wr_data(w_q),
    .rd_en(req_wqe_rd_en), .rd_addr(req_wqe_rd_addr), .rd_data(req_wqe_rd_data)
  );
  roce_ram_sdp #(.WIDTH(roce_req_pkg::CWQE_W), .DEPTH(NQP * SQ_DEPTH)) u_cwqe (
    .clk, .wr_en(wqe_we), .wr_addr(wqe_waddr), .wr_data(cw),
    .rd_en(comp_wqe_rd_en), .rd_addr(comp_wqe_rd_addr), .rd_data(comp_wqe_rd_data)
  );

  /* verilator lint_on PINCONNECTEMPTY */

endmodule
