// roce_rq_flush: the receive flush (IBA 11.6.2, 10.3.1): when a QP enters
// ERROR, every receive WQE in its ring completes with WR_FLUSH_ERR, oldest
// first (docs/transport.md, "QP errors").
//
// s_valid/s_qpn: a QP moved to ERROR (roce_transport: its QP event stream, one
// per move, and contexts the firmware wrote with state ERROR; never waits): queued in a FIFO of QDEPTH; a move that finds it
// full is counted in cnt_lost, its ring not flushed (RESET still empties it).
// For each queued QP the flusher walks the ring through roce_rq's lookup and
// consume ports, which it shares with roce_resp_check (and the consume with a
// QP reset, which owns roce_rq's head port in its cycle): its requests are
// registers (lk_req, cons_req) and roce_resp grants them in cycles the
// responder leaves free (lk_gnt, cons_gnt). Per WQE: look up (the answer two
// cycles after the grant), hand out its CQE {wr_id, WR_FLUSH_ERR, RECV, QPN,
// is_recv} on m_cqe_* (a register), consume it (head + 1). The walk ends at
// an empty ring, after RQ_DEPTH WQEs (a recycling ring never runs empty: each
// of its WQEs is flushed once per move), or when the QP is reset (a CQE
// already offered still goes out). A second move of the same QP (the
// completer's after the responder's) walks again and finds the ring empty.
// The responder drops every request of a QP in ERROR, so it consumes nothing
// there meanwhile.
`default_nettype none

module roce_rq_flush #(
  parameter int NQP      = 256,
  parameter int RQ_DEPTH = 16,
  parameter int QDEPTH   = 32,
  parameter int QW       = $clog2(NQP),
  parameter int PW       = $clog2(RQ_DEPTH) + 1
) (
  input  wire logic                  clk,
  input  wire logic                  rst,
  input  wire logic                  s_valid,
  input  wire logic [QW-1:0]         s_qpn,
  input  wire logic                  qp_reset_valid,
  input  wire logic [QW-1:0]         qp_reset_qpn,
  // roce_rq's lookup port (shared)
  output logic                       lk_req,
  output logic [QW-1:0]              lk_qpn,
  input  wire logic                  lk_gnt,
  input  wire logic                  lk_valid,
  input  wire logic [PW-1:0]         lk_head,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire roce_qp_pkg::rwqe_t    lk_wqe,        // its wr_id is what counts
  /* verilator lint_on UNUSEDSIGNAL */
  // roce_rq's consume port (shared)
  output logic                       cons_req,
  output logic [PW-1:0]              cons_head,
  input  wire logic                  cons_gnt,
  // the flush completions
  output logic                       m_cqe_valid,
  input  wire logic                  m_cqe_ready,
  output roce_qp_pkg::cqe_t          m_cqe,
  output logic [31:0]                cnt_flushed,
  output logic [31:0]                cnt_lost
);
  typedef enum logic [2:0] {F_IDLE, F_LK, F_W1, F_W2, F_CQE, F_CONS} st_e;
  st_e           st_q, st_d;
  logic          q_valid, q_ready, q_in_ready;
  logic [QW-1:0] q_qpn;
  logic [QW-1:0] qpn_q, qpn_d;
  logic [PW-1:0] n_q, n_d, head_q, head_d;   // head_q: the WQE's index + 1 (the new head)
  logic          rs_q, rs_d;        // the QP was reset during the walk
  logic          cv_q, cv_d;
  roce_qp_pkg::cqe_t cqe_q, cqe_d;
  logic [31:0]   fl_q, fl_d, lost_q, lost_d;

  lib_fifo #(.WIDTH(QW), .DEPTH(QDEPTH)) u_q (
    .clk, .rst,
    .s_valid(s_valid), .s_ready(q_in_ready), .s_data(s_qpn),
    .m_valid(q_valid), .m_ready(q_ready), .m_data(q_qpn),
    /* verilator lint_off PINCONNECTEMPTY */
    .count()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  always_comb begin
    st_d    = st_q;
    qpn_d   = qpn_q;
    n_d     = n_q;
    head_d  = head_q;
    rs_d    = rs_q || (qp_reset_valid && qp_reset_qpn == qpn_q);
    cv_d    = cv_q && !m_cqe_ready;
    cqe_d   = cqe_q;
    fl_d    = fl_q;
    lost_d  = lost_q + 32'(s_valid && !q_in_ready);
    q_ready = 1'b0;
    case (st_q)
      F_IDLE: if (q_valid) begin
        q_ready = 1'b1;
        qpn_d   = q_qpn;
        n_d     = '0;
        rs_d    = 1'b0;
        st_d    = F_LK;
      end
      F_LK: if (rs_q) st_d = F_IDLE;
            else if (lk_gnt) st_d = F_W1;
      F_W1: st_d = F_W2;
      F_W2: begin
        head_d = lk_head + PW'(1);
        if (rs_d || !lk_valid || n_q == PW'(RQ_DEPTH)) begin
          st_d = F_IDLE;
        end else begin
          cv_d                  = 1'b1;
          cqe_d                 = '0;
          cqe_d.wr_id           = lk_wqe.wr_id;
          cqe_d.status          = roce_qp_pkg::WC_WR_FLUSH_ERR;
          cqe_d.opcode          = roce_qp_pkg::WC_OP_RECV;
          cqe_d.qpn             = 24'(qpn_q);
          cqe_d.is_recv         = 1'b1;
          fl_d                  = fl_q + 32'd1;
          st_d                  = F_CQE;
        end
      end
      F_CQE: if (!cv_q || m_cqe_ready) st_d = rs_q ? F_IDLE : F_CONS;
      F_CONS: if (rs_q) st_d = F_IDLE;
              else if (cons_gnt) begin
                n_d  = n_q + PW'(1);
                st_d = F_LK;
              end
      default: st_d = F_IDLE;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q   <= F_IDLE;
      cv_q   <= 1'b0;
      fl_q   <= '0;
      lost_q <= '0;
    end else begin
      st_q   <= st_d;
      cv_q   <= cv_d;
      fl_q   <= fl_d;
      lost_q <= lost_d;
    end
    qpn_q  <= qpn_d;
    n_q    <= n_d;
    head_q <= head_d;
    rs_q   <= rs_d;
    cqe_q  <= cqe_d;
  end

  assign lk_req      = st_q == F_LK && !rs_q;
  assign lk_qpn      = qpn_q;
  assign cons_req    = st_q == F_CONS && !rs_q;
  assign cons_head   = head_q;
  assign m_cqe_valid = cv_q;
  assign m_cqe       = cqe_q;
  assign cnt_flushed = fl_q;
  assign cnt_lost    = lost_q;
endmodule
