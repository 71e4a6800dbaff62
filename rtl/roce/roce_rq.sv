// roce_rq: receive queues, one ring of RQ_DEPTH posted receive WQEs
// (roce_qp_pkg::rwqe_t) per QP (docs/transport.md, "Tables").
//
// Post port (firmware or user logic): s_post_* is taken within two cycles
// (s_post_ready is a flip-flop: low for the cycle after a post is taken);
// a post to a full ring is refused (post_err pulses, nothing stored). A post
// taken in the cycle of a qp_reset of its QP lands in the emptied ring (the
// reset goes first, as when the post waited for it).
// Lookup port (the responder): lk_en + lk_qpn; two cycles later lk_valid
// says whether the ring holds a WQE, lk_wqe is the oldest one and lk_head
// its ring index. Consume port: cons_en + cons_qpn + cons_head (the new head,
// lk_head + 1 of a lookup) retires it; the client never consumes in a cycle
// with qp_reset_valid.
// qp_reset empties the ring of that QP (priority over every other write).
// Recycling (s_post_recycle with s_post_valid; the WQE is ignored): a QP's
// full ring becomes a recycling ring: a consumed WQE stays where it is and
// comes round again after the other RQ_DEPTH - 1, so the ring never runs
// empty and takes no more posts (refused, post_err). Refused too when the
// ring is not full. qp_reset ends it (docs/transport.md, "Receive rings in
// hardware").
//
// Storage: the WQEs in one block RAM of NQP * RQ_DEPTH rows; head and tail
// pointers in two block-RAM copies each (one per reader).
`default_nettype none

module roce_rq #(
  parameter int NQP      = 256,
  parameter int RQ_DEPTH = 16,             // WQEs per QP, power of two
  parameter int QW       = $clog2(NQP),
  parameter int PW       = $clog2(RQ_DEPTH) + 1  // pointer width (one extra bit: full vs empty)
) (
  input  wire logic                  clk,
  input  wire logic                  rst,
  input  wire logic                  qp_reset_valid,
  input  wire logic [QW-1:0]         qp_reset_qpn,
  // post
  input  wire logic                  s_post_valid,
  output logic                       s_post_ready,
  input  wire logic [QW-1:0]         s_post_qpn,
  input  wire roce_qp_pkg::rwqe_t    s_post_wqe,
  input  wire logic                  s_post_recycle,
  output logic                       post_err,
  // lookup
  input  wire logic                  lk_en,
  input  wire logic [QW-1:0]         lk_qpn,
  output logic                       lk_valid,
  output logic [PW-1:0]              lk_head,
  output roce_qp_pkg::rwqe_t         lk_wqe,
  // consume
  input  wire logic                  cons_en,
  input  wire logic [QW-1:0]         cons_qpn,
  input  wire logic [PW-1:0]         cons_head
);
  localparam int DW = $clog2(RQ_DEPTH);

  // ---- post FSM: P_IDLE -> P_CHK (pointers read) -> P_IDLE
  logic          p_busy_q, p_busy_d;
  logic          p_clr_q, p_clr_d;     // the post's ring was reset as it was taken: pointers 0
  logic          p_rcy_q, p_rcy_d;     // the post is a request to recycle
  logic [PW-1:0] p_h, p_t;             // the post's pointers
  logic          p_rc, p_full;         // the post's ring recycles; is full
  logic [QW-1:0] p_qpn_q, p_qpn_d;
  roce_qp_pkg::rwqe_t p_wqe_q, p_wqe_d;
  // the tail copies carry the ring's recycle flag above the pointer
  logic [PW-1:0] p_head, l_head;     // post's and lookup's copies
  logic [PW:0]   p_tail, l_tail;
  logic          tail_we, head_we, wqe_we;
  logic [QW-1:0] tail_wa, head_wa;
  logic [PW:0]   tail_wd;
  logic [PW-1:0] head_wd;
  logic          post_err_d;
  logic          l1_q;               // lookup: pointers valid this cycle
  logic [QW-1:0] l_qpn_q, l_qpn_d;
  logic          l_valid_q, l_valid_d;
  logic [PW-1:0] l_headr_q, l_headr_d;

  always_comb begin
    p_busy_d     = p_busy_q;
    p_clr_d      = p_clr_q;
    p_rcy_d      = p_rcy_q;
    p_qpn_d      = p_qpn_q;
    p_wqe_d      = p_wqe_q;
    s_post_ready = !p_busy_q;
    p_h          = p_clr_q ? '0 : p_head;
    p_t          = p_clr_q ? '0 : p_tail[PW-1:0];
    p_rc         = !p_clr_q && p_tail[PW];
    p_full       = (p_t - p_h) == PW'(RQ_DEPTH);
    post_err_d   = 1'b0;
    tail_we      = 1'b0;
    tail_wa      = p_qpn_q;
    tail_wd      = {p_rcy_q, p_rcy_q ? p_t : p_t + PW'(1)};
    wqe_we       = 1'b0;
    if (!p_busy_q) begin
      if (s_post_valid) begin
        p_busy_d = 1'b1;
        p_clr_d  = qp_reset_valid && qp_reset_qpn == s_post_qpn;
        p_rcy_d  = s_post_recycle;
        p_qpn_d  = s_post_qpn;
        p_wqe_d  = s_post_wqe;
      end
    end else if (qp_reset_valid) begin
      // the reset owns the pointer write ports this cycle; a reset of this
      // very QP empties the ring after the post, so the post is dropped
      if (qp_reset_qpn == p_qpn_q) p_busy_d = 1'b0;
    end else begin
      p_busy_d = 1'b0;
      // a post needs room, a recycle request a full ring; neither a recycling one
      if (p_rc || (p_full != p_rcy_q)) begin
        post_err_d = 1'b1;
      end else begin
        tail_we = 1'b1;
        wqe_we  = !p_rcy_q;
      end
    end
    head_we = cons_en;
    head_wa = cons_qpn;
    head_wd = cons_head;
    if (qp_reset_valid) begin
      tail_we = 1'b1;
      tail_wa = qp_reset_qpn;
      tail_wd = '0;
      head_we = 1'b1;
      head_wa = qp_reset_qpn;
      head_wd = '0;
    end
  end

  // lookup: cycle 0 read pointers, cycle 1 read the WQE at head, cycle 2 out
  always_comb begin
    l_valid_d = l_valid_q;
    l_qpn_d   = lk_en ? lk_qpn : l_qpn_q;
    l_headr_d = l_headr_q;
    if (l1_q) begin
      l_valid_d = l_tail[PW] || l_tail[PW-1:0] != l_head;
      l_headr_d = l_head;
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      p_busy_q  <= 1'b0;
      l1_q      <= 1'b0;
      l_valid_q <= 1'b0;
    end else begin
      p_busy_q  <= p_busy_d;
      l1_q      <= lk_en;
      l_valid_q <= l_valid_d;
    end
    p_clr_q   <= p_clr_d;
    p_rcy_q   <= p_rcy_d;
    p_qpn_q   <= p_qpn_d;
    p_wqe_q   <= p_wqe_d;
    l_qpn_q   <= l_qpn_d;
    l_headr_q <= l_headr_d;
    post_err  <= post_err_d;
  end

  assign lk_valid = l_valid_q;
  assign lk_head  = l_headr_q;

  roce_ram_sdp #(.WIDTH(PW + 1), .DEPTH(NQP)) u_tail_p (
    .clk(clk), .wr_en(tail_we), .wr_addr(tail_wa), .wr_data(tail_wd),
    .rd_en(s_post_valid && s_post_ready), .rd_addr(s_post_qpn), .rd_data(p_tail));
  roce_ram_sdp #(.WIDTH(PW), .DEPTH(NQP)) u_head_p (
    .clk(clk), .wr_en(head_we), .wr_addr(head_wa), .wr_data(head_wd),
    .rd_en(s_post_valid && s_post_ready), .rd_addr(s_post_qpn), .rd_data(p_head));
  roce_ram_sdp #(.WIDTH(PW + 1), .DEPTH(NQP)) u_tail_l (
    .clk(clk), .wr_en(tail_we), .wr_addr(tail_wa), .wr_data(tail_wd),
    .rd_en(lk_en), .rd_addr(lk_qpn), .rd_data(l_tail));
  roce_ram_sdp #(.WIDTH(PW), .DEPTH(NQP)) u_head_l (
    .clk(clk), .wr_en(head_we), .wr_addr(head_wa), .wr_data(head_wd),
    .rd_en(lk_en), .rd_addr(lk_qpn), .rd_data(l_head));
  roce_ram_sdp #(.WIDTH(roce_qp_pkg::RWQE_W), .DEPTH(NQP * RQ_DEPTH)) u_wqe (
    .clk(clk), .wr_en(wqe_we), .wr_addr({p_qpn_q, p_t[DW-1:0]}), .wr_data(p_wqe_q),
    .rd_en(l1_q), .rd_addr({l_qpn_q, l_head[DW-1:0]}), .rd_data(lk_wqe));

`ifndef SYNTHESIS
  initial begin
    if (RQ_DEPTH < 2 || (RQ_DEPTH & (RQ_DEPTH - 1)) != 0) $error("roce_rq: RQ_DEPTH %0d is not a power of two >= 2", RQ_DEPTH);
  end
`endif

endmodule
