`default_nettype none

// roce_transport: the RoCEv2 RC transport of one NIC (docs/transport.md).
//
//   RoCE frames from net_rx -> roce_icrc_check -> roce_rx_parse -> roce_rx_split
//       requests  -> roce_resp (responder, receive queues)
//       responses -> roce_comp (completer) <-> roce_req (requester) <- roce_sq
//   roce_resp, roce_req, roce_cnp_tx -> roce_tx_mux -> roce_tx_build (42-byte
//       Eth/IPv4/UDP prefix) -> roce_icrc_insert -> frames to net_tx_arbiter
//   congestion control (docs/cc.md): every parsed packet's ECN and destination
//       QP feed cc_np (the DCQCN notification point); its CNP requests become
//       CNPs in roce_cnp_tx (a QP-table read port of its own). CNPs received
//       are taken out before roce_rx_split, counted and given to the
//       reaction point as cnp_rx_valid/cnp_rx_qpn
//   QP context and MR tables (one read port per engine), CQ (completer,
//   responder, refused posts) and the firmware's registers (regs/roce.toml)
//   roce_wrgen (work-request generator): a second WQE source into roce_sq beside
//       the register post (round robin); its tagged CQEs are diverted to it
//       before the CQ
//   user logic (docs/user-logic.md): a third WQE source (s_wr_*, round robin with
//       the other two) whose CQEs, tagged in wr_id bits 63:48, are diverted to
//       its completion stream (m_cpl_*) before the CQ
//   QP errors: every move of a QP to ERROR by the completer or the responder
//       sets its state in the QP table to ERROR (what every engine reads) and
//       a per-QP error flag (qp_hw_state.error, cleared by a context write),
//       and is queued for the firmware as an event (qp_event, docs/transport.md
//       "QP errors")
//   Requests seen: a per-QP flag set by every request the responder executes
//       on the QP (qp_hw_state.req, cleared by a context write): the firmware's
//       RDMA CM takes a QP's first request in RTR as the RTU
//   Streaming MRs (docs/user-logic.md): the responder's payload writes, its
//       READ data reads and the requester's payload reads pass a
//       roce_ustream_wr / roce_ustream_rd each, which sends a command whose
//       MR is streaming to user logic's streams (m_urx_*, m_urd_req_* /
//       s_urd_*, m_utx_req_* / s_utx_*) instead of the DMA engine
//   DMA: 2 read clients (requester payload, responder READ data) and 3 write
//   clients (responder payload, responder atomics, completer READ data), each an
//   AXI4 client of the NIC's memory arbiter (mem_axi_arb in nic_top).
module roce_transport #(
  parameter int     NQP      = 256,
  parameter int     NMR      = 256,
  // WQEs per QP (powers of two). 64: a QP keeps 64 messages in flight, enough for
  // 64 B WRITEs at the transport's message rate over its ~240-cycle round trip
  // (16 held one QP to 16.9 M/s); scripts/qp_budget.py (make qp-budget) shows the RAM
  parameter int     SQ_DEPTH = 64,
  parameter int     RQ_DEPTH = 64,
  parameter int     CQ_DEPTH = 256,
  parameter int     WINDOW   = 1024,
  parameter int     ACKREQ_EVERY = 16,
  // cycles a responder ACK may wait for more ACKs of its QP (roce_resp_tx).
  // 1: an ACK goes at most a cycle later than at once (0 would be at once,
  // but roce_resp_tx's age compare is then constant: a lint warning). The requester
  // asks for an ACK on a message's last packet and every ACKREQ_EVERY
  // packets, so two ACKs of one QP come closer than a small window only
  // when completions bunch; a wait of 8 (roce_resp's default) merged almost
  // nothing in the benches and cost 8 cycles of every round trip.
  parameter int     ACK_COALESCE = 1,
  parameter longint CLK_HZ   = 250_000_000,
  // user logic's work requests taken and not yet completed (popped from
  // m_cpl_* or, unsignaled and successful, retired): the depth of its
  // completion FIFO. SQ_DEPTH: a QP that only user logic posts to never
  // finds its ring full (docs/user-logic.md).
  parameter int     USER_OUTSTANDING = SQ_DEPTH,
  // user logic's receive WQEs posted (s_rq_*) and not yet completed (popped
  // from m_cpl_*); its completion FIFO holds USER_OUTSTANDING + this many
  parameter int     USER_RQ_OUTSTANDING = RQ_DEPTH,
  localparam int    NR       = 2,           // AXI read clients
  localparam int    NW       = 3            // AXI write clients
) (
  input  wire logic                          clk,
  input  wire logic                          rst,
  input  wire logic [47:0]                   our_mac,
  input  wire logic [31:0]                   our_ip,
  // RoCE frames from the net layer (whole Ethernet frames; tuser on tlast: drop)
  input  wire logic [roce_pkg::DATA_W-1:0]   s_axis_rx_tdata,
  input  wire logic [roce_pkg::KEEP_W-1:0]   s_axis_rx_tkeep,
  input  wire logic                          s_axis_rx_tvalid,
  output logic                               s_axis_rx_tready,
  input  wire logic                          s_axis_rx_tlast,
  input  wire logic                          s_axis_rx_tuser,
  // frames to send
  output logic [roce_pkg::DATA_W-1:0]        m_axis_tx_tdata,
  output logic [roce_pkg::KEEP_W-1:0]        m_axis_tx_tkeep,
  output logic                               m_axis_tx_tvalid,
  input  wire logic                          m_axis_tx_tready,
  output logic                               m_axis_tx_tlast,
  // the firmware's registers (sbus target, regs/roce.toml)
  input  wire logic                          req,
  input  wire logic                          we,
  input  wire logic [15:0]                   addr,
  input  wire logic [3:0]                    be,
  input  wire logic [31:0]                   wdata,
  output logic                               gnt,
  output logic                               rvalid,
  output logic [31:0]                        rdata,
  output logic                               err,
  // user logic's work requests (docs/user-logic.md; valid/ready, fields
  // stable while valid && !ready)
  input  wire logic                          s_wr_valid,
  output logic                               s_wr_ready,
  input  wire logic [3:0]                    s_wr_opcode,     // ibv_wr_opcode 0..6
  input  wire logic [23:0]                   s_wr_qpn,
  input  wire logic [63:0]                   s_wr_laddr,
  input  wire logic [31:0]                   s_wr_lkey,
  input  wire logic [63:0]                   s_wr_raddr,
  input  wire logic [31:0]                   s_wr_rkey,
  input  wire logic [31:0]                   s_wr_len,
  input  wire logic [31:0]                   s_wr_imm,
  input  wire logic [63:0]                   s_wr_compare,
  input  wire logic [63:0]                   s_wr_swap_add,
  input  wire logic [47:0]                   s_wr_wr_id,
  input  wire logic                          s_wr_signaled,
  // user logic's receive posts (docs/user-logic.md): their completions on m_cpl_*
  input  wire logic                          s_rq_valid,
  output logic                               s_rq_ready,
  input  wire logic [23:0]                   s_rq_qpn,
  input  wire logic [63:0]                   s_rq_addr,
  input  wire logic [31:0]                   s_rq_len,
  input  wire logic [31:0]                   s_rq_lkey,
  input  wire logic [47:0]                   s_rq_wr_id,
  // their completions (valid/ready, every output from a register)
  output logic                               m_cpl_valid,
  input  wire logic                          m_cpl_ready,
  output logic [47:0]                        m_cpl_wr_id,
  output logic [4:0]                         m_cpl_status,    // ibv_wc_status
  output logic [7:0]                         m_cpl_opcode,    // ibv_wc_opcode
  output logic [31:0]                        m_cpl_byte_len,
  output logic [23:0]                        m_cpl_qpn,
  output logic [31:0]                        m_cpl_imm,
  output logic                               m_cpl_has_imm,
  // user logic: the streaming MRs (docs/user-logic.md, "Streaming MRs")
  // the responder's WRITE / SEND payloads to a streaming MR, a chunk per packet
  output logic                               m_urx_valid,
  input  wire logic                          m_urx_ready,
  output logic [511:0]                       m_urx_data,
  output logic [63:0]                        m_urx_keep,
  output logic                               m_urx_last,
  output logic [63:0]                        m_urx_addr,
  output logic [31:0]                        m_urx_len,
  output logic [23:0]                        m_urx_qpn,
  output logic                               m_urx_first,
  output logic                               m_urx_msg_last,
  output logic                               m_urx_send,
  // the responder's READ response data from a streaming MR: requests out, data in
  output logic                               m_urd_req_valid,
  input  wire logic                          m_urd_req_ready,
  output logic [63:0]                        m_urd_req_addr,
  output logic [31:0]                        m_urd_req_len,
  output logic [23:0]                        m_urd_req_qpn,
  input  wire logic                          s_urd_valid,
  output logic                               s_urd_ready,
  input  wire logic [511:0]                  s_urd_data,
  input  wire logic                          s_urd_last,
  // the requester's WRITE / SEND payload from a streaming local MR
  output logic                               m_utx_req_valid,
  input  wire logic                          m_utx_req_ready,
  output logic [63:0]                        m_utx_req_addr,
  output logic [31:0]                        m_utx_req_len,
  output logic [23:0]                        m_utx_req_qpn,
  input  wire logic                          s_utx_valid,
  output logic                               s_utx_ready,
  input  wire logic [511:0]                  s_utx_data,
  input  wire logic                          s_utx_last,
  // AXI4 clients of the memory arbiter (mem_axi_arb's s_axi_* side): read
  // clients 0 requester payload, 1 responder READ data; write clients 0
  // responder payload, 1 responder atomics, 2 completer READ data
  output logic [NR*64-1:0]                   m_axi_araddr,
  output logic [NR*8-1:0]                    m_axi_arlen,
  output logic [NR-1:0]                      m_axi_arvalid,
  input  wire logic [NR-1:0]                 m_axi_arready,
  input  wire logic [mem_pkg::DATA_W-1:0]    m_axi_rdata,
  input  wire logic [1:0]                    m_axi_rresp,
  input  wire logic                          m_axi_rlast,
  input  wire logic [NR-1:0]                 m_axi_rvalid,
  output logic [NR-1:0]                      m_axi_rready,
  output logic [NW*64-1:0]                   m_axi_awaddr,
  output logic [NW*8-1:0]                    m_axi_awlen,
  output logic [NW-1:0]                      m_axi_awvalid,
  input  wire logic [NW-1:0]                 m_axi_awready,
  output logic [NW*mem_pkg::DATA_W-1:0]      m_axi_wdata,
  output logic [NW*mem_pkg::STRB_W-1:0]      m_axi_wstrb,
  output logic [NW-1:0]                      m_axi_wlast,
  output logic [NW-1:0]                      m_axi_wvalid,
  input  wire logic [NW-1:0]                 m_axi_wready,
  input  wire logic [1:0]                    m_axi_bresp,
  input  wire logic [NW-1:0]                 m_axi_bvalid,
  output logic [NW-1:0]                      m_axi_bready
);

  localparam int QW  = $clog2(NQP);
  localparam int SAW = $clog2(SQ_DEPTH);
  localparam int MW  = $clog2(NMR);
  localparam int PW  = roce_req_pkg::PTR_W;
  localparam int CW  = $clog2(CQ_DEPTH);
  localparam int DW  = roce_pkg::DATA_W;
  localparam int KW  = roce_pkg::KEEP_W;
  // READ/atomic requests outstanding per QP and direction (caps.max_rd_atomic).
  // The responder's atomic cache keeps as many results per QP: a requester may
  // resend all of its outstanding atomics, and every one must be answered.
  localparam int MAX_RD_ATOMIC = 16;
  // wr_id bits 63:48 of the work-request generator's WRs (docs/transport.md)
  localparam logic [15:0] GEN_TAG = 16'hbe6e;
  // wr_id bits 63:49 of user logic's WRs (bit 48: the WR was signaled, bits
  // 47:0 the user's wr_id; docs/user-logic.md): 0x05e4 / 0x05e5 in 63:48
  localparam logic [14:0] USER_TAG = 15'h02f2;
  localparam int UOW = $clog2(USER_OUTSTANDING + 1);
  localparam int URW = $clog2(USER_RQ_OUTSTANDING + 1);
  localparam int UCPL_DEPTH = 1 << $clog2(USER_OUTSTANDING + USER_RQ_OUTSTANDING);
  if (USER_OUTSTANDING < 2 || (1 << $clog2(USER_OUTSTANDING)) != USER_OUTSTANDING) begin : g_bad_uo
    $error("roce_transport: USER_OUTSTANDING must be a power of two >= 2");
  end
  if (USER_RQ_OUTSTANDING < 1) begin : g_bad_uro
    $error("roce_transport: USER_RQ_OUTSTANDING must be >= 1");
  end

  // ================================================================ registers
  logic [23:0] qp_qpn;
  logic [2:0]  qp_state, qp_pmtu;
  logic [23:0] qp_remote_qpn, qp_sq_psn, qp_rq_psn;
  logic [31:0] qp_remote_ip, qp_remote_mac_lo;
  logic [15:0] qp_remote_mac_hi, qp_udp_sport, qp_timers;
  logic [9:0]  qp_rd_atomic;
  logic [3:0]  qp_access;
  logic [7:0]  qp_pd;
  logic        qp_write_wdata, qp_write_we;
  logic [15:0] mr_index;
  logic [31:0] mr_key, mr_base_lo, mr_base_hi, mr_len_lo, mr_len_hi;
  logic [4:0]  mr_access;           // bit 4: stream
  logic [7:0]  mr_pd;
  logic        mr_write_wdata, mr_write_we;
  logic [23:0] rq_qpn;
  logic [31:0] rq_addr_lo, rq_addr_hi, rq_len, rq_lkey, rq_wr_id_lo, rq_wr_id_hi;
  logic        rq_post_wdata, rq_post_we, rq_recycle_wdata, rq_recycle_we;
  logic [3:0]  sq_opcode;
  logic [23:0] sq_qpn;
  logic [31:0] sq_laddr_lo, sq_laddr_hi, sq_lkey, sq_raddr_lo, sq_raddr_hi, sq_rkey, sq_len, sq_imm,
               sq_compare_lo, sq_compare_hi, sq_swap_add_lo, sq_swap_add_hi, sq_wr_id_lo, sq_wr_id_hi;
  logic [1:0]  sq_flags;
  logic        sq_post_wdata, sq_post_we, cq_pop_wdata, cq_pop_we;
  logic [7:0]  qp_hw_state;
  logic [31:0] cnt_rq_overflow_q, cnt_rq_overflow_d, cnt_sq_refused_q, cnt_sq_refused_d;
  logic [31:0] cnt_tx_pkts_q, cnt_tx_pkts_d;
  logic [31:0] cnt_usr_post_q, cnt_usr_post_d, cnt_usr_err_q, cnt_usr_err_d;   // user logic (docs/user-logic.md)
  logic [31:0] cnt_usr_rq_q, cnt_usr_rq_d;
  logic [31:0] cnt_grx_q, cnt_grx_err_q;   // the generator's receive completions (gen_recv_*)
  logic [31:0] r_rq_flushed, r_rq_flush_lost;   // the receive flush (roce_resp)
  logic [63:0] cnt_grx_bytes_q;
  logic [31:0] cnt_us_err_q, cnt_us_err_d;   // streaming MRs: user answers of the wrong length
  // the work-request generator's registers
  logic [3:0]  gen_opcode;
  logic [23:0] gen_qpn;
  logic [7:0]  gen_nqp, gen_qpn_stride, gen_max_out_qp;
  logic [31:0] gen_laddr_lo, gen_laddr_hi, gen_lkey, gen_raddr_lo, gen_raddr_hi, gen_rkey, gen_len, gen_total,
               gen_timeout;
  logic [15:0] gen_max_out, gen_sig_every, gen_window;
  logic        gen_mode;
  logic [1:0]  gen_ctrl_wdata;
  logic        gen_ctrl_we, gen_cycle_lo_re;
  logic [12:0] gen_status;
  logic [31:0] gen_posted, gen_completed, gen_err_index, gen_lat_min, gen_lat_max, gen_win_min;
  logic [63:0] gen_t_first, gen_t_last, gen_lat_sum, gen_now;
  logic [31:0] gen_cyc_hi_q, gen_cyc_hi_d;
  logic [31:0] gen_now_hi_prev_q;  // gen_now[63:32] a cycle ago: what a gen_cycle_lo read sampled beside its bits 31:0

  // counters of the engines
  logic [31:0] c_icrc_bad, c_chk_len, c_bad_opcode, c_bad_version, c_bad_len, c_pkt_ok;
  logic [31:0] r_drop_qpn, r_drop_state, r_drop_opcode, r_drop_oos, r_drop_dup, r_drop_reset,
               r_dup, r_nak_seq, r_nak_inv, r_nak_acc, r_nak_op, r_rnr, r_req_ok, r_ack_tx,
               r_nak_tx, r_rd_pkt, r_atomic, r_atomic_miss, r_dma_err, r_post_err;
  logic [31:0] q_pkt, q_locerr;
  logic [31:0] p_retry, p_timeout, p_rnr, p_nak_seq, p_nak_inv, p_nak_acc, p_nak_op, p_implicit, p_drop;
  logic [31:0] s_post_cnt, s_reject_cnt;
  logic [31:0] r_rx_write, r_rx_read, r_rx_atomic, r_rx_send, r_nak_pmtu, r_nak_pd;
  // byte counters (below)
  /* verilator lint_off UNUSEDSIGNAL */
  roce_pkg::tx_hdr_t mx_roce;  // its pay_len only
  /* verilator lint_on UNUSEDSIGNAL */
  logic [15:0] bytes_inc_q [2];
  logic [15:0] bytes_inc_d [2];
  logic [63:0] bytes_q [2];
  logic [63:0] bytes_d [2];
  logic [31:0] bytes_hi_q [2];
  logic [31:0] bytes_hi_d [2];
  logic [31:0] bytes_hi_prev_q [2];
  logic [1:0]  bytes_lo_re;

  logic             cq_valid;
  roce_qp_pkg::cqe_t cq_entry;
  logic [CW:0]      cq_count;
  logic             sq_ready;

  // counters that are sums of the engines' own, added ahead of the register block's
  // read mux (a four-operand 32-bit sum in two registered steps): they read two
  // cycles late, as counters may
  logic [31:0] sum_bad_len_q, sum_bad_len_d, sum_drop_qp_q, sum_drop_qp_d, sum_naks_q, sum_naks_d;
  logic [31:0] part_drop_q, part_drop_d, part_naks0_q, part_naks0_d, part_naks1_q, part_naks1_d;
  always_comb begin
    part_drop_d   = r_drop_qpn + r_drop_state;
    part_naks0_d  = p_nak_seq + p_nak_inv;
    part_naks1_d  = p_nak_acc + p_nak_op;
    sum_bad_len_d = c_bad_len + c_chk_len;
    sum_drop_qp_d = part_drop_q + r_drop_reset;
    sum_naks_d    = part_naks0_q + part_naks1_q;
  end
  always_ff @(posedge clk) begin
    part_drop_q   <= part_drop_d;
    part_naks0_q  <= part_naks0_d;
    part_naks1_q  <= part_naks1_d;
    sum_bad_len_q <= sum_bad_len_d;
    sum_drop_qp_q <= sum_drop_qp_d;
    sum_naks_q    <= sum_naks_d;
  end

  logic ecn_ect;   // ecn_ctrl: RoCE packets but CNPs leave ECT(0) (congestion control, docs/cc.md)
  logic [31:0] np_interval;   // the notification point's interval, cycles
  logic [31:0] np_marked, np_asked, np_req_drop, np_cnp_sent, np_ctx_drop, np_drop_q;
  logic [31:0] cnt_rx_cnp_q, cnt_rx_cnp_drop_q;
  // the reaction point's parameters, counters and a QP's state (cc_rp, cc_pacer)
  logic [16:0] rp_line_mbps, rp_min_mbps, rp_ai_mbps, rp_hai_mbps;
  logic [9:0]  rp_g;
  logic [10:0] rp_alpha_init;
  logic [2:0]  rp_f;
  logic [31:0] rp_dec_cyc, rp_alpha_cyc, rp_rai_cyc, rp_b_bytes;
  logic [17:0] rp_burst;
  logic [31:0] rp_handled, rp_ignored, rp_dec, rp_ev_drop, rp_pace_drop, rp_paced, rp_ev_drop_q;
  logic [23:0] rp_qp_sel;
  logic [45:0] rp_st;
  logic [31:0] rp_qp_rate_q;   // {active, 14'b0, Rc} (the line rate for an inactive QP), registered
  always_ff @(posedge clk) rp_qp_rate_q <= {rp_st[45], 14'd0, rp_st[45] ? rp_st[44:28] : rp_line_mbps};
  roce_regs u_regs (
    .clk, .rst, .req, .we, .addr, .be, .wdata, .gnt, .rvalid, .rdata, .err,
    .caps_i            ({7'd0, 5'(MAX_RD_ATOMIC), 5'(SAW), 5'($clog2(RQ_DEPTH)), 5'(MW), 5'(QW)}),
    .qp_qpn_q          (qp_qpn),
    .qp_state_q        (qp_state),
    .qp_pmtu_q         (qp_pmtu),
    .qp_remote_qpn_q   (qp_remote_qpn),
    .qp_remote_ip_q    (qp_remote_ip),
    .qp_remote_mac_hi_q(qp_remote_mac_hi),
    .qp_remote_mac_lo_q(qp_remote_mac_lo),
    .qp_udp_sport_q    (qp_udp_sport),
    .qp_sq_psn_q       (qp_sq_psn),
    .qp_rq_psn_q       (qp_rq_psn),
    .qp_timers_q       (qp_timers),
    .qp_rd_atomic_q    (qp_rd_atomic),
    .qp_access_q       (qp_access),
    .qp_write_wdata    (qp_write_wdata),
    .qp_write_we       (qp_write_we),
    .qp_hw_state_i     (qp_hw_state),
    .qp_pd_q           (qp_pd),
    .mr_index_q        (mr_index),
    .mr_key_q          (mr_key),
    .mr_base_lo_q      (mr_base_lo),
    .mr_base_hi_q      (mr_base_hi),
    .mr_len_lo_q       (mr_len_lo),
    .mr_len_hi_q       (mr_len_hi),
    .mr_access_q       (mr_access),
    .mr_write_wdata    (mr_write_wdata),
    .mr_write_we       (mr_write_we),
    .mr_pd_q           (mr_pd),
    .rq_qpn_q          (rq_qpn),
    .rq_addr_lo_q      (rq_addr_lo),
    .rq_addr_hi_q      (rq_addr_hi),
    .rq_len_q          (rq_len),
    .rq_lkey_q         (rq_lkey),
    .rq_wr_id_lo_q     (rq_wr_id_lo),
    .rq_wr_id_hi_q     (rq_wr_id_hi),
    .rq_post_wdata     (rq_post_wdata),
    .rq_post_we        (rq_post_we),
    .rq_recycle_wdata  (rq_recycle_wdata),
    .rq_recycle_we     (rq_recycle_we),
    .rq_overflow_i     (cnt_rq_overflow_q),
    .rq_status_i       (rq_busy_q),
    .sq_opcode_q       (sq_opcode),
    .sq_qpn_q          (sq_qpn),
    .sq_laddr_lo_q     (sq_laddr_lo),
    .sq_laddr_hi_q     (sq_laddr_hi),
    .sq_lkey_q         (sq_lkey),
    .sq_raddr_lo_q     (sq_raddr_lo),
    .sq_raddr_hi_q     (sq_raddr_hi),
    .sq_rkey_q         (sq_rkey),
    .sq_len_q          (sq_len),
    .sq_imm_q          (sq_imm),
    .sq_compare_lo_q   (sq_compare_lo),
    .sq_compare_hi_q   (sq_compare_hi),
    .sq_swap_add_lo_q  (sq_swap_add_lo),
    .sq_swap_add_hi_q  (sq_swap_add_hi),
    .sq_wr_id_lo_q     (sq_wr_id_lo),
    .sq_wr_id_hi_q     (sq_wr_id_hi),
    .sq_flags_q        (sq_flags),
    .sq_post_wdata     (sq_post_wdata),
    .sq_post_we        (sq_post_we),
    .sq_status_i       (sq_ready),
    .sq_refused_i      (cnt_sq_refused_q),
    .cq_status_i       ({cq_valid, 16'(cq_count)}),
    .cq_wr_id_lo_i     (cq_entry.wr_id[31:0]),
    .cq_wr_id_hi_i     (cq_entry.wr_id[63:32]),
    .cq_info_i         ({14'd0, cq_entry.is_recv, cq_entry.has_imm, cq_entry.opcode, 3'd0, cq_entry.status}),
    .cq_byte_len_i     (cq_entry.byte_len),
    .cq_qpn_i          (cq_entry.qpn),
    .cq_imm_i          (cq_entry.imm_data),
    .cq_pop_wdata      (cq_pop_wdata),
    .cq_pop_we         (cq_pop_we),
    .cq_overflow_i     (32'd0),  // the CQ back-pressures the engines: nothing is lost
    .rx_icrc_bad_i     (c_icrc_bad),
    .rx_bad_opcode_i   (c_bad_opcode),
    .rx_bad_version_i  (c_bad_version),
    .rx_bad_len_i      (sum_bad_len_q),
    .rx_packets_i      (c_pkt_ok),
    .resp_drop_qp_i    (sum_drop_qp_q),
    .resp_dup_i        (r_dup),
    .resp_nak_seq_i    (r_nak_seq),
    .resp_nak_inv_i    (r_nak_inv),
    .resp_nak_acc_i    (r_nak_acc),
    .resp_nak_rnr_i    (r_rnr),
    .resp_nak_op_i     (r_nak_op),
    .req_retrans_i     (p_retry),
    .req_timeouts_i    (p_timeout),
    .req_rnr_waits_i   (p_rnr),
    .req_naks_i        (sum_naks_q),
    .comp_drop_resp_i  (p_drop),
    .tx_packets_i      (cnt_tx_pkts_q),
    .resp_drop_not_rc_i    (r_drop_opcode),
    .resp_drop_oos_i       (r_drop_oos),
    .resp_drop_dup_i       (r_drop_dup),
    .rx_write_requests_i   (r_rx_write),
    .rx_read_requests_i    (r_rx_read),
    .rx_atomic_requests_i  (r_rx_atomic),
    .rx_send_requests_i    (r_rx_send),
    .resp_acks_sent_i      (r_ack_tx),
    .resp_naks_sent_i      (r_nak_tx),
    .resp_read_resp_pkts_i (r_rd_pkt),
    .resp_atomic_miss_i    (r_atomic_miss),
    .resp_dma_err_i        (r_dma_err),
    .resp_nak_pmtu_i       (r_nak_pmtu),
    .req_packets_i         (q_pkt),
    .req_local_err_i       (q_locerr),
    .comp_nak_seq_i        (p_nak_seq),
    .comp_nak_inv_i        (p_nak_inv),
    .comp_nak_acc_i        (p_nak_acc),
    .comp_nak_op_i         (p_nak_op),
    .comp_implicit_nak_i   (p_implicit),
    .rx_bytes_lo_i         (bytes_q[0][31:0]),
    .rx_bytes_lo_re        (bytes_lo_re[0]),
    .rx_bytes_hi_i         (bytes_hi_q[0]),
    .tx_bytes_lo_i         (bytes_q[1][31:0]),
    .tx_bytes_lo_re        (bytes_lo_re[1]),
    .tx_bytes_hi_i         (bytes_hi_q[1]),
    .resp_nak_pd_i         (r_nak_pd),
    .gen_opcode_q      (gen_opcode),
    .gen_qpn_q         (gen_qpn),
    .gen_nqp_q         (gen_nqp),
    .gen_qpn_stride_q  (gen_qpn_stride),
    .gen_laddr_lo_q    (gen_laddr_lo),
    .gen_laddr_hi_q    (gen_laddr_hi),
    .gen_lkey_q        (gen_lkey),
    .gen_raddr_lo_q    (gen_raddr_lo),
    .gen_raddr_hi_q    (gen_raddr_hi),
    .gen_rkey_q        (gen_rkey),
    .gen_len_q         (gen_len),
    .gen_total_q       (gen_total),
    .gen_max_out_q     (gen_max_out),
    .gen_max_out_qp_q  (gen_max_out_qp),
    .gen_sig_every_q   (gen_sig_every),
    .gen_window_q      (gen_window),
    .gen_timeout_q     (gen_timeout),
    .gen_mode_q        (gen_mode),
    .gen_ctrl_wdata    (gen_ctrl_wdata),
    .gen_ctrl_we       (gen_ctrl_we),
    .gen_status_i      (gen_status),
    .gen_posted_i      (gen_posted),
    .gen_completed_i   (gen_completed),
    .gen_err_index_i   (gen_err_index),
    .gen_t_first_lo_i  (gen_t_first[31:0]),
    .gen_t_first_hi_i  (gen_t_first[63:32]),
    .gen_t_last_lo_i   (gen_t_last[31:0]),
    .gen_t_last_hi_i   (gen_t_last[63:32]),
    .gen_lat_min_i     (gen_lat_min),
    .gen_lat_max_i     (gen_lat_max),
    .gen_lat_sum_lo_i  (gen_lat_sum[31:0]),
    .gen_lat_sum_hi_i  (gen_lat_sum[63:32]),
    .gen_win_min_i     (gen_win_min),
    .gen_cycle_lo_i    (gen_now[31:0]),
    .gen_cycle_lo_re   (gen_cycle_lo_re),
    .gen_cycle_hi_i    (gen_cyc_hi_q),
    .qp_event_i        (qev_word),
    .qp_event_re       (qev_re),
    .qp_events_lost_i  (qev_lost_q),
    .user_posted_i     (cnt_usr_post_q),
    .user_errors_i     (cnt_usr_err_q),
    .sq_rejected_i     (s_reject_cnt),
    .ustream_errors_i  (cnt_us_err_q),
    .user_rq_posted_i  (cnt_usr_rq_q),
    .gen_recv_done_i   (cnt_grx_q),
    .gen_recv_errors_i (cnt_grx_err_q),
    .gen_recv_bytes_lo_i(cnt_grx_bytes_q[31:0]),
    .gen_recv_bytes_hi_i(cnt_grx_bytes_q[63:32]),
    .rq_flushed_i      (r_rq_flushed),
    .rq_flush_lost_i   (r_rq_flush_lost),
    .ecn_ctrl_q        (ecn_ect),
    .np_interval_q     (np_interval),
    .np_ecn_marked_roce_packets_i(np_marked),
    .np_cnp_sent_i     (np_cnp_sent),
    .np_cnp_dropped_i  (np_drop_q),
    .rp_cnp_received_i (cnt_rx_cnp_q),
    .rp_cnp_dropped_i  (cnt_rx_cnp_drop_q),
    .rp_line_mbps_q    (rp_line_mbps),
    .rp_min_mbps_q     (rp_min_mbps),
    .rp_ai_mbps_q      (rp_ai_mbps),
    .rp_hai_mbps_q     (rp_hai_mbps),
    .rp_g_q            (rp_g),
    .rp_alpha_init_q   (rp_alpha_init),
    .rp_f_q            (rp_f),
    .rp_dec_cyc_q      (rp_dec_cyc),
    .rp_alpha_cyc_q    (rp_alpha_cyc),
    .rp_rai_cyc_q      (rp_rai_cyc),
    .rp_b_bytes_q      (rp_b_bytes),
    .rp_burst_q        (rp_burst),
    .rp_cnp_handled_i  (rp_handled),
    .rp_cnp_ignored_i  (rp_ignored),
    .rp_rate_dec_i     (rp_dec),
    .rp_ev_dropped_i   (rp_ev_drop_q),
    .rp_paced_i        (rp_paced),
    .rp_qp_sel_q       (rp_qp_sel),
    .rp_qp_rate_i      (rp_qp_rate_q),
    .rp_qp_target_i    (32'(rp_st[27:11])),
    .rp_qp_alpha_i     (32'(rp_st[10:0]))
  );

  // ============================================================ QP and MR tables
  // read ports: 0 responder, 1 requester, 2 completer, 3 registers (qp_hw_state),
  // 4 the CNP builder
  localparam int NRD_QP = 5;
  roce_qp_pkg::qp_ctx_t ctx_w;
  logic                 ctx_wr_valid, ctx_wr_ready;
  logic [NRD_QP-1:0]    ctx_re;
  logic [NRD_QP*QW-1:0] ctx_qa;
  logic [NRD_QP*roce_qp_pkg::QP_CTX_W-1:0] ctx_rd;
  roce_qp_pkg::qp_ctx_t ctx_rd_resp, ctx_rd_req, ctx_rd_comp, ctx_rd_regs, ctx_rd_cnp;
  logic                 ctx_re_resp, ctx_re_req, ctx_re_comp, ctx_re_cnp;
  logic [QW-1:0]        ctx_qa_resp, ctx_qa_req, ctx_qa_comp, ctx_qa_cnp;
  logic                 qp_reset;
  logic [QW-1:0]        qp_reset_q;
  logic [23:0]          qp_reset_qpn;
  logic                 qp_init_done, mr_init_done;
  logic                 ctx_pend_q, ctx_pend_d, mr_pend_q, mr_pend_d;
  logic [NQP-1:0]       qp_err_q, qp_err_d;   // the completer or the responder moved the QP to ERROR
  logic                 qp_err_valid;
  logic [23:0]          qp_err_qpn;
  logic                 rqe_v_q, rqe_v_d;     // the completer's move, with its reason (below)
  logic [23:0]          rqe_qpn_q, rqe_qpn_d;
  logic [4:0]           rqe_st_q, rqe_st_d;
  logic                 rs_err_v;             // the responder moved a QP to ERROR
  logic                 rs_req_ok;            // the responder executed a request on QP rs_err_qpn
  logic [NQP-1:0]       qp_req_q, qp_req_d;   // a request executed since the context was written
  logic                 rok_v_q;              // rs_req_ok and its QPN, a cycle late
  logic [QW-1:0]        rok_qpn_q;
  logic [QW-1:0]        rs_err_qpn;
  logic [4:0]           rs_err_st;

  // staged fields in qp_ctx_t's order (a concatenation: Yosys 0.23 has no casts to package enums)
  assign ctx_w = {qp_state, qp_pmtu, qp_remote_qpn, qp_remote_ip, qp_remote_mac_hi, qp_remote_mac_lo,
                  qp_udp_sport, qp_sq_psn, qp_rq_psn,
                  qp_timers[2:0], qp_timers[5:3], qp_timers[10:6], qp_timers[15:11],   // retry, rnr_retry,
                  qp_rd_atomic[4:0], qp_rd_atomic[9:5], qp_access, qp_pd};             // timeout, min_rnr

  // a commit waits while the table is busy (the reset sweep): it is never lost
  always_comb begin
    ctx_wr_valid = ctx_pend_q;
    ctx_pend_d   = (ctx_pend_q || (qp_write_we && qp_write_wdata)) && !(ctx_wr_valid && ctx_wr_ready);
    mr_wr_valid  = mr_pend_q;
    mr_pend_d    = (mr_pend_q || mr_write_we) && !(mr_wr_valid && mr_wr_ready);
  end

  // ERROR flags (qp_hw_state.error): set by the completer or the responder,
  // cleared when the firmware writes the context. Every move to ERROR also
  // sets the QP's state in the QP table (its state RAMs' second writer, fed
  // from the event stream below), so each engine reads ERROR in the context
  // (IBA 10.3.1: a QP has one state): the responder drops, the requester
  // flushes. The responder's own fatal NAKs also set its dynamic state's
  // error bit, exact from the next request on.
  //
  // The completer's reason: the status of the QP's first error completion,
  // taken from the completer's CQE stream (roce_comp reports only the QPN: a
  // status port there moved abc9's mapping of its S_STEP paths past 6 levels).
  // That CQE leaves the completer in the cycle of its qp_err_valid or later
  // (after the event's write-back), rarely a cycle or two before: the last
  // error CQE is kept 16 cycles (lc_*). A move waits (rp_*) for its CQE at most
  // 1024 cycles (a full CQ holds it back) and then goes with status 0; so does
  // a wait that a second move ends. The event and the QP table's ERROR follow.
  always_comb begin
    qp_err_d = qp_err_q;
    if (qp_err_valid && qp_err_qpn < 24'(NQP)) qp_err_d[qp_err_qpn[QW-1:0]] = 1'b1;
    if (rs_err_v) qp_err_d[rs_err_qpn] = 1'b1;
    if (ctx_wr_valid && ctx_wr_ready) qp_err_d[qp_qpn[QW-1:0]] = 1'b0;
  end

  // requests seen (qp_hw_state.req): set by each request the responder
  // executed, cleared by a context write (a write in the same cycle wins:
  // the request came before it)
  always_comb begin
    qp_req_d = qp_req_q;
    if (rok_v_q) qp_req_d[rok_qpn_q] = 1'b1;
    if (ctx_wr_valid && ctx_wr_ready) qp_req_d[qp_qpn[QW-1:0]] = 1'b0;
  end

  // (everything from registers: the CQE stream and the completer's move a
  // cycle late; QPNs compared on their QW bits: both are local QPNs < NQP)
  logic          ce_v_q, qe_v_q, lc_v_q, lc_v_d, rp_v_q, rp_v_d;
  logic [QW-1:0] ce_qpn_q, qe_qpn_q, lc_qpn_q, lc_qpn_d, rp_qpn_q, rp_qpn_d;
  logic [4:0]    ce_st_q, lc_st_q, lc_st_d;
  logic [3:0]    lc_age_q, lc_age_d;
  logic [9:0]    rp_age_q, rp_age_d;
  logic          rp_old_q;   // rp_age_q == 10'h3FF (registered from rp_age_d)
  // the QPN compares registered beside the QPNs they compare (hl_q: lc_qpn_q
  // == qe_qpn_q, hn_q: ce_qpn_q == qe_qpn_q, hr_q: ce_qpn_q == rp_qpn_q)
  logic          hl_q, hn_q, hr_q;
  always_comb begin
    logic hit_lc, hit_now, hit_rp;
    hit_lc   = lc_v_q && hl_q;
    hit_now  = ce_v_q && hn_q;
    hit_rp   = ce_v_q && hr_q;
    lc_v_d   = ce_v_q || (lc_v_q && lc_age_q != 4'd15);
    lc_age_d = ce_v_q ? 4'd0 : lc_age_q + 4'(lc_v_q && lc_age_q != 4'd15);
    lc_qpn_d = ce_v_q ? ce_qpn_q : lc_qpn_q;
    lc_st_d  = ce_v_q ? ce_st_q : lc_st_q;
    // a waiting move goes with its CQE's status, or status 0 when it waited
    // too long or a second move comes; a new move goes at once when its CQE
    // is here or was just seen, else it waits (the fields below matter only
    // with rqe_v_d / rp_v_d)
    rqe_v_d   = rp_v_q ? (hit_rp || rp_old_q || qe_v_q) : (qe_v_q && (hit_lc || hit_now));
    rqe_qpn_d = rp_v_q ? 24'(rp_qpn_q) : 24'(qe_qpn_q);
    rqe_st_d  = rp_v_q ? (hit_rp ? ce_st_q : 5'd0) : (hit_now ? ce_st_q : lc_st_q);
    rp_v_d    = qe_v_q ? (rp_v_q || !(hit_lc || hit_now)) : (rp_v_q && !(hit_rp || rp_old_q));
    rp_qpn_d  = qe_v_q ? qe_qpn_q : rp_qpn_q;
    rp_age_d  = qe_v_q ? 10'd0 : rp_age_q + 10'(rp_v_q);
  end

  // Asynchronous QP events (qp_event): every move to ERROR, queued for the
  // firmware, {responder, status, qpn}. The completer and the responder can
  // report in the same cycle: the responder's waits a cycle in a register
  // (each reports at most once per five cycles). The read that sees a valid
  // word takes it off (qp_event_re comes a cycle after the read sampled the
  // head: qev_hv_q says the head it sampled was valid).
  localparam int QEV_W = 1 + 5 + 24;
  logic             qev_in_v, qev_in_r, qev_out_v, qev_pop, qev_re, qev_hv_q;
  logic [QEV_W-1:0] qev_in, qev_out;
  logic             rsh_v_q, rsh_v_d;             // the responder's event held a cycle
  logic [QEV_W-1:0] rsh_q, rsh_d;
  logic [31:0]      qev_word, qev_lost_q, qev_lost_d;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [4:0]       qev_cnt;
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    logic [QEV_W-1:0] rs_w;
    rs_w     = {1'b1, rs_err_st, 24'(rs_err_qpn)};
    qev_in_v = rqe_v_q || rs_err_v || rsh_v_q;
    qev_in   = rqe_v_q ? {1'b0, rqe_st_q, rqe_qpn_q} : rsh_v_q ? rsh_q : rs_w;
    // the responder's event waits when the completer's goes first or one is held
    rsh_v_d  = rs_err_v && (rqe_v_q || rsh_v_q);
    rsh_d    = rsh_v_q && rqe_v_q ? rsh_q : rs_w;
    if (!rs_err_v && rsh_v_q && rqe_v_q) rsh_v_d = 1'b1;
    qev_pop    = qev_re && qev_hv_q;
    qev_word   = {qev_out_v, qev_out[QEV_W-1], 1'b0, qev_out[QEV_W-2:0]};
    qev_lost_d = qev_lost_q + 32'(qev_in_v && !qev_in_r);
  end
  // The receive flush (roce_rq_flush) takes every move to ERROR: the event stream's, a
  // context the firmware wrote with state ERROR (no event: the firmware knows), and a
  // receive stored into the ring of a QP already in ERROR (IBA 11.6.2: it completes with
  // WR_FLUSH_ERR too; rq_dead below says which QPs are). The event stream goes first; a
  // post's request (pdf_*) and a written ERROR (swf_*) wait in one-entry holds, the post's
  // first. None is ever overwritten: events come at most two cycles in a row, stored posts
  // at least four cycles apart, context writes far apart (asserted below). Into
  // roce_rq_flush from registers (fl_*).
  logic          swf_v_q, swf_v_d, pdf_v_q, pdf_v_d, fl_v_q, fl_v_d;
  logic [QW-1:0] swf_qpn_q, swf_qpn_d, pdf_qpn_q, pdf_qpn_d, fl_qpn_q, fl_qpn_d;
  logic          pdk_v_q, pdk_v_d;                 // a stored post's check: its QP in ERROR?
  logic [QW-1:0] pdk_qpn_q, pdk_qpn_d;
  always_comb begin
    swf_v_d   = swf_v_q;
    swf_qpn_d = swf_qpn_q;
    pdf_v_d   = pdf_v_q;
    pdf_qpn_d = pdf_qpn_q;
    fl_v_d    = qev_in_v || pdf_v_q || swf_v_q;
    fl_qpn_d  = qev_in_v ? qev_in[QW-1:0] : pdf_v_q ? pdf_qpn_q : swf_qpn_q;
    if (!qev_in_v) begin
      if (pdf_v_q) pdf_v_d = 1'b0;
      else         swf_v_d = 1'b0;
    end
    if (ctx_wr_valid && ctx_wr_ready && qp_state == roce_qp_pkg::QPS_ERR) begin
      swf_v_d   = 1'b1;
      swf_qpn_d = qp_qpn[QW-1:0];
    end
    if (pdk_v_q && rq_dead_sel_q) begin
      pdf_v_d   = 1'b1;
      pdf_qpn_d = pdk_qpn_q;
    end
  end
  always_ff @(posedge clk) begin
    swf_qpn_q <= swf_qpn_d;
    pdf_qpn_q <= pdf_qpn_d;
    fl_qpn_q  <= fl_qpn_d;
    if (rst) begin
      swf_v_q <= 1'b0;
      pdf_v_q <= 1'b0;
      fl_v_q  <= 1'b0;
    end else begin
      swf_v_q <= swf_v_d;
      pdf_v_q <= pdf_v_d;
      fl_v_q  <= fl_v_d;
    end
  end
`ifndef SYNTHESIS
  always_ff @(posedge clk) begin
    if (!rst && pdf_v_q && qev_in_v && pdk_v_q && rq_dead_sel_q)
      $error("%m: a stored post's flush request found its hold taken");
    if (!rst && swf_v_q && (qev_in_v || pdf_v_q) && ctx_wr_valid && ctx_wr_ready && qp_state == roce_qp_pkg::QPS_ERR)
      $error("%m: a written ERROR's flush request found its hold taken");
  end
`endif

  roce_fifo #(.WIDTH(QEV_W), .DEPTH(16)) u_qev (
    .clk, .rst,
    .in_valid(qev_in_v), .in_ready(qev_in_r), .in_data(qev_in),
    .out_valid(qev_out_v), .out_ready(qev_pop), .out_data(qev_out), .count(qev_cnt));

  always_comb begin
    ctx_re = {ctx_re_cnp, 1'b1, ctx_re_comp, ctx_re_req, ctx_re_resp};
    ctx_qa = {ctx_qa_cnp, qp_qpn[QW-1:0], ctx_qa_comp, ctx_qa_req, ctx_qa_resp};
  end
  assign {ctx_rd_cnp, ctx_rd_regs, ctx_rd_comp, ctx_rd_req, ctx_rd_resp} = ctx_rd;
  // the addressed QP's ERROR flag (qp_hw_state, read a few cycles after qp_qpn is
  // written): an NQP:1 mux in two registered steps, a word of 2^ELO flags per group
  localparam int ELO = QW / 2;
  localparam int ENG = NQP >> ELO;
  logic [ENG-1:0] qp_err_grp_q, qp_err_grp_d, qp_req_grp_q, qp_req_grp_d;
  logic           qp_err_sel_q, qp_err_sel_d, qp_req_sel_q, qp_req_sel_d;
  always_comb begin
    for (int g = 0; g < ENG; g++) begin
      qp_err_grp_d[g] = qp_err_q[g * (1 << ELO) + 32'(qp_qpn[ELO-1:0])];
      qp_req_grp_d[g] = qp_req_q[g * (1 << ELO) + 32'(qp_qpn[ELO-1:0])];
    end
    qp_err_sel_d = qp_err_grp_q[qp_qpn[QW-1:ELO]];
    qp_req_sel_d = qp_req_grp_q[qp_qpn[QW-1:ELO]];
  end
  always_ff @(posedge clk) begin
    qp_err_grp_q <= qp_err_grp_d;
    qp_err_sel_q <= qp_err_sel_d;
    qp_req_grp_q <= qp_req_grp_d;
    qp_req_sel_q <= qp_req_sel_d;
    rok_qpn_q    <= rs_err_qpn;
    rsh_q        <= rsh_d;
    ce_qpn_q     <= cp_cqe.qpn[QW-1:0];
    ce_st_q      <= cp_cqe.status;
    qe_qpn_q     <= qp_err_qpn[QW-1:0];
    lc_qpn_q     <= lc_qpn_d;
    lc_st_q      <= lc_st_d;
    lc_age_q     <= lc_age_d;
    rp_qpn_q     <= rp_qpn_d;
    rp_old_q     <= rp_age_d == 10'h3FF;
    hl_q         <= lc_qpn_d == qp_err_qpn[QW-1:0];
    hn_q         <= cp_cqe.qpn[QW-1:0] == qp_err_qpn[QW-1:0];
    hr_q         <= cp_cqe.qpn[QW-1:0] == rp_qpn_d;
    rp_age_q     <= rp_age_d;
    rqe_qpn_q    <= rqe_qpn_d;
    rqe_st_q     <= rqe_st_d;
    if (rst) begin
      ce_v_q     <= 1'b0;
      qe_v_q     <= 1'b0;
      lc_v_q     <= 1'b0;
      rp_v_q     <= 1'b0;
      rqe_v_q    <= 1'b0;
      rsh_v_q    <= 1'b0;
      qev_hv_q   <= 1'b0;
      qev_lost_q <= '0;
    end else begin
      ce_v_q     <= cp_cqe_v && cp_cqe_r && !cp_cqe.is_recv && cp_cqe.status != roce_qp_pkg::WC_SUCCESS;
      qe_v_q     <= qp_err_valid;
      lc_v_q     <= lc_v_d;
      rp_v_q     <= rp_v_d;
      rqe_v_q    <= rqe_v_d;
      rsh_v_q    <= rsh_v_d;
      qev_hv_q   <= qev_out_v;
      qev_lost_q <= qev_lost_d;
    end
  end
  assign qp_hw_state = {qp_err_sel_q, qp_req_sel_q, 3'd0, ctx_rd_regs[roce_qp_pkg::QP_CTX_W-1 -: 3]};  // .state

  roce_qp_table #(.NQP(NQP), .NRD(NRD_QP)) u_qpt (
    .clk, .rst,
    .wr_valid(ctx_wr_valid), .wr_ready(ctx_wr_ready), .wr_qpn(qp_qpn[QW-1:0]), .wr_ctx(ctx_w),
    .err_valid(qev_in_v), .err_qpn(qev_in[QW-1:0]),
    .rd_en(ctx_re), .rd_qpn(ctx_qa), .rd_ctx(ctx_rd),
    .qp_reset_valid(qp_reset), .qp_reset_qpn(qp_reset_q), .init_done(qp_init_done)
  );
  assign qp_reset_qpn = 24'(qp_reset_q);

  // MR read ports: 0 responder, 1 requester
  roce_qp_pkg::mr_entry_t mr_w, mr_rd_resp, mr_rd_req;
  logic                   mr_wr_valid, mr_wr_ready, mr_re_resp, mr_re_req;
  logic [31:0]            mr_rk_resp, mr_rk_req;
  logic                   mr_valid_q, mr_valid_d;   // the commit's valid bit, held while it waits
  assign mr_valid_d = mr_write_we ? mr_write_wdata : mr_valid_q;
  // the key's index bits are the row's (a key reads only the row of its index bits, so
  // roce_req compares the bits above them only)
  assign mr_w = {mr_access[4], mr_valid_q, mr_access[3:0], mr_key[31:MW], mr_index[MW-1:0], {mr_base_hi, mr_base_lo},
                 {mr_len_hi, mr_len_lo}, mr_pd};

  roce_mr_table #(.NMR(NMR), .NRD(2)) u_mrt (
    .clk, .rst,
    .wr_valid(mr_wr_valid), .wr_ready(mr_wr_ready), .wr_idx(mr_index[MW-1:0]), .wr_entry(mr_w),
    .rd_en({mr_re_req, mr_re_resp}), .rd_key({mr_rk_req, mr_rk_resp}), .rd_entry({mr_rd_req, mr_rd_resp}),
    .init_done(mr_init_done)
  );

  // ============================================================ receive path
  logic [DW-1:0] ck_d;  logic [KW-1:0] ck_k;  logic ck_v, ck_r, ck_l, ck_meta, rxh_meta;
  roce_icrc_check u_icrc_check (
    .clk, .rst,
    .s_axis_frame_tdata(s_axis_rx_tdata), .s_axis_frame_tkeep(s_axis_rx_tkeep),
    .s_axis_frame_tvalid(s_axis_rx_tvalid), .s_axis_frame_tready(s_axis_rx_tready),
    .s_axis_frame_tlast(s_axis_rx_tlast), .s_axis_frame_tuser(s_axis_rx_tuser),
    .s_frame_meta(1'b0),
    .m_axis_frame_tdata(ck_d), .m_axis_frame_tkeep(ck_k), .m_axis_frame_tvalid(ck_v),
    .m_axis_frame_tready(ck_r), .m_axis_frame_tlast(ck_l), .m_axis_frame_tuser(ck_meta),
    .cnt_drop_icrc(c_icrc_bad), .cnt_drop_len(c_chk_len)
  );

  roce_pkg::rx_hdr_t rxh;  logic rxh_v, rxh_r;
  logic [DW-1:0] rxp_d;  logic [KW-1:0] rxp_k;  logic rxp_v, rxp_r, rxp_l;
  roce_rx_parse #(.HDR_DEPTH(4)) u_parse (
    .clk, .rst,
    .s_axis_frame_tdata(ck_d), .s_axis_frame_tkeep(ck_k), .s_axis_frame_tvalid(ck_v),
    .s_axis_frame_tready(ck_r), .s_axis_frame_tlast(ck_l), .s_axis_frame_tuser(1'b0),
    .m_hdr_valid(rxh_v), .m_hdr_ready(rxh_r), .m_hdr(rxh), .m_hdr_user(rxh_meta),
    .m_axis_payload_tdata(rxp_d), .m_axis_payload_tkeep(rxp_k), .m_axis_payload_tvalid(rxp_v),
    .m_axis_payload_tready(rxp_r), .m_axis_payload_tlast(rxp_l),
    .cnt_drop_opcode(c_bad_opcode), .cnt_drop_version(c_bad_version), .cnt_drop_len(c_bad_len),
    .cnt_pkt_ok(c_pkt_ok)
  );

  roce_pkg::rx_hdr_t qh, ph;  logic qh_v, qh_r, ph_v, ph_r;
  logic [DW-1:0] qp_d, pp_d;  logic [KW-1:0] qp_k, pp_k;
  logic qp_v, qp_r, qp_l, pp_v, pp_r, pp_l;
  // CNPs (header only) end here: counted and handed to the reaction point as
  // cnp_rx_valid/cnp_rx_qpn (registered), never to the completer
  logic rxh_cnp, sp_hdr_v;
  logic cnp_rx_valid;   // the reaction point's input (cc_rp, docs/cc.md)
  logic [23:0] cnp_rx_qpn;
  logic cnp_rx_v_q, cnp_rx_bad_q;
  logic [23:0] cnp_rx_qpn_q;
  always_comb begin
    rxh_cnp  = rxh.info.kind == roce_pkg::KIND_CNP;
    sp_hdr_v = rxh_v && !rxh_cnp;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      cnp_rx_v_q        <= 1'b0;
      cnt_rx_cnp_q      <= '0;
      cnt_rx_cnp_drop_q <= '0;
    end else begin
      cnp_rx_v_q        <= rxh_v && rxh_r && rxh_cnp;
      cnt_rx_cnp_q      <= cnt_rx_cnp_q + 32'(cnp_rx_v_q);
      cnt_rx_cnp_drop_q <= cnt_rx_cnp_drop_q + 32'(cnp_rx_v_q && cnp_rx_bad_q);
    end
    cnp_rx_qpn_q <= rxh.hdr.bth.dqpn;
    cnp_rx_bad_q <= rxh.hdr.bth.dqpn[23:QW] != '0;
  end
  // one cycle after the count: the QP number's range registered
  logic cnp_rx_ok_v_q;
  logic [23:0] cnp_rx_ok_qpn_q;
  always_ff @(posedge clk) begin
    if (rst) cnp_rx_ok_v_q <= 1'b0;
    else     cnp_rx_ok_v_q <= cnp_rx_v_q && !cnp_rx_bad_q;
    cnp_rx_ok_qpn_q <= cnp_rx_qpn_q;
  end
  assign cnp_rx_valid = cnp_rx_ok_v_q;
  assign cnp_rx_qpn   = cnp_rx_ok_qpn_q;

  // the notification point: every packet parsed, its ECN and destination QP
  logic          np_req_v, np_req_r;
  logic [23:0]   np_req_qpn;
  cc_np #(.NQP(NQP)) u_np (
    .clk, .rst, .cfg_int_cyc(np_interval),
    .pkt_valid(rxh_v && rxh_r), .pkt_ce(rxh.ip_ecn == 2'b11), .pkt_qpn(rxh.hdr.bth.dqpn),
    .m_cnp_valid(np_req_v), .m_cnp_ready(np_req_r), .m_cnp_qpn(np_req_qpn),
    .cnt_ecn_marked(np_marked), .cnt_cnp_sent(np_asked), .cnt_dropped(np_req_drop)
  );
  always_ff @(posedge clk) begin
    if (rst) np_drop_q <= '0;
    else     np_drop_q <= np_req_drop + np_ctx_drop;
  end

  // the reaction point (cc_rp: DCQCN's rate per QP) and its pacer (cc_pacer:
  // each QP's packets held to the rate); docs/cc.md "The reaction point in
  // the datapath". The pacer takes the requester's packets and the CNPs
  // received and hands both to cc_rp, a CNP in a cycle of its own.
  logic           txp_v, pace_ok;
  logic [QW-1:0]  txp_q, pace_q, rate_qa;
  logic [7:0]     txp_op;
  logic [15:0]    txp_pl;
  logic [16:0]    rate_mbps;
  logic           rpc_v, rpt_v;
  logic [23:0]    rpc_q, rpt_q;
  logic [15:0]    rpt_b;
  cc_pacer #(.NQP(NQP)) u_pacer (
    .clk, .rst, .cfg_burst(rp_burst), .cfg_line_mbps(rp_line_mbps),
    .tx_valid(txp_v), .tx_qpn(txp_q), .tx_opcode(txp_op), .tx_paylen(txp_pl),
    .cnp_valid(cnp_rx_valid), .cnp_qpn(cnp_rx_qpn[QW-1:0]),
    .rate_rd_qpn(rate_qa), .rate_rd_mbps(rate_mbps),
    .rp_cnp_valid(rpc_v), .rp_cnp_qpn(rpc_q), .rp_tx_valid(rpt_v), .rp_tx_qpn(rpt_q), .rp_tx_bytes(rpt_b),
    .ok_qpn(pace_q), .ok(pace_ok),
    .cnt_paced(rp_paced), .cnt_ev_dropped(rp_pace_drop)
  );
  cc_rp #(.NQP(NQP)) u_rp (
    .clk, .rst,
    .cfg_line_mbps(rp_line_mbps), .cfg_min_mbps(rp_min_mbps), .cfg_ai_mbps(rp_ai_mbps),
    .cfg_hai_mbps(rp_hai_mbps), .cfg_g(rp_g), .cfg_alpha_init(rp_alpha_init), .cfg_f(rp_f),
    .cfg_dec_cyc(rp_dec_cyc), .cfg_alpha_cyc(rp_alpha_cyc), .cfg_rai_cyc(rp_rai_cyc), .cfg_b_bytes(rp_b_bytes),
    .cnp_valid(rpc_v), .cnp_qpn(rpc_q), .tx_valid(rpt_v), .tx_qpn(rpt_q), .tx_bytes(rpt_b),
    .rate_rd_qpn(rate_qa), .rate_rd_mbps(rate_mbps),
    .st_rd_qpn(rp_qp_sel[QW-1:0]), .st_rd_data(rp_st),
    .cnt_cnp_handled(rp_handled), .cnt_cnp_ignored(rp_ignored), .cnt_rate_dec(rp_dec), .cnt_ev_dropped(rp_ev_drop)
  );
  always_ff @(posedge clk) begin
    if (rst) rp_ev_drop_q <= '0;
    else     rp_ev_drop_q <= rp_ev_drop + rp_pace_drop;
  end

  roce_rx_split u_split (
    .clk, .rst,
    .s_hdr_valid(sp_hdr_v), .s_hdr_ready(rxh_r), .s_hdr(rxh),
    .s_axis_payload_tdata(rxp_d), .s_axis_payload_tkeep(rxp_k), .s_axis_payload_tvalid(rxp_v),
    .s_axis_payload_tready(rxp_r), .s_axis_payload_tlast(rxp_l),
    .m_req_hdr_valid(qh_v), .m_req_hdr_ready(qh_r), .m_req_hdr(qh),
    .m_req_axis_payload_tdata(qp_d), .m_req_axis_payload_tkeep(qp_k), .m_req_axis_payload_tvalid(qp_v),
    .m_req_axis_payload_tready(qp_r), .m_req_axis_payload_tlast(qp_l),
    .m_rsp_hdr_valid(ph_v), .m_rsp_hdr_ready(ph_r), .m_rsp_hdr(ph),
    .m_rsp_axis_payload_tdata(pp_d), .m_rsp_axis_payload_tkeep(pp_k), .m_rsp_axis_payload_tvalid(pp_v),
    .m_rsp_axis_payload_tready(pp_r), .m_rsp_axis_payload_tlast(pp_l)
  );

  // ============================================================ DMA clients
  // read clients: 0 requester payload, 1 responder READ data
  // write clients: 0 responder payload, 1 responder atomics, 2 completer READ data
  logic [NR-1:0] drc_v, drc_r;  mem_pkg::dma_rd_cmd_t drc [NR];
  logic [DW-1:0] dr_d [NR];  logic [KW-1:0] dr_k [NR];  logic [NR-1:0] dr_v, dr_r, dr_l;
  mem_pkg::dma_cpl_t dr_u [NR];
  logic [NW-1:0] dwc_v, dwc_r;  mem_pkg::dma_wr_cmd_t dwc [NW];
  logic [DW-1:0] dw_d [NW];  logic [KW-1:0] dw_k [NW];  logic [NW-1:0] dw_v, dw_r, dw_l;
  logic [NW-1:0] dwp_v, dwp_r;  mem_pkg::dma_cpl_t dwp [NW];
  // the engines' side of the three ports that a streaming MR sends to user
  // logic instead (docs/user-logic.md): responder payload writes (rw*),
  // responder READ data (rr*), requester payload reads (qr*); each through a
  // roce_ustream_wr / roce_ustream_rd in front of its DMA engine
  logic rwc_v, rwc_r, rw_v, rw_r, rw_l, rw_u, rwp_v, rwp_r;
  mem_pkg::dma_wr_cmd_t rwc;  roce_qp_pkg::dma_usr_t rwu;  logic [DW-1:0] rw_d;  logic [KW-1:0] rw_k;
  mem_pkg::dma_cpl_t rwp;
  logic rrc_v, rrc_r, rr_v, rr_r, rr_l, qrc_v, qrc_r, qr_v, qr_r, qr_l, urd_err, utx_err;
  mem_pkg::dma_rd_cmd_t rrc, qrc;  roce_qp_pkg::dma_usr_t rru, qru;
  logic [DW-1:0] rr_d, qr_d;  logic [KW-1:0] rr_k, qr_k;  mem_pkg::dma_cpl_t rr_u, qr_u;


  for (genvar i = 0; i < NR; i++) begin : g_rd
    mem_dma_rd u_dma_rd (
      .clk, .rst,
      .s_cmd_valid(drc_v[i]), .s_cmd_ready(drc_r[i]), .s_cmd(drc[i]),
      .m_axi_araddr(m_axi_araddr[i*64 +: 64]), .m_axi_arlen(m_axi_arlen[i*8 +: 8]), .m_axi_arvalid(m_axi_arvalid[i]),
      .m_axi_arready(m_axi_arready[i]),
      .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast), .m_axi_rvalid(m_axi_rvalid[i]),
      .m_axi_rready(m_axi_rready[i]),
      .m_axis_tdata(dr_d[i]), .m_axis_tkeep(dr_k[i]), .m_axis_tvalid(dr_v[i]), .m_axis_tready(dr_r[i]),
      .m_axis_tlast(dr_l[i]), .m_axis_tuser(dr_u[i])
    );
  end

  for (genvar i = 0; i < NW; i++) begin : g_wr
    mem_dma_wr u_dma_wr (
      .clk, .rst,
      .s_cmd_valid(dwc_v[i]), .s_cmd_ready(dwc_r[i]), .s_cmd(dwc[i]),
      .s_axis_tdata(dw_d[i]), .s_axis_tkeep(dw_k[i]), .s_axis_tvalid(dw_v[i]), .s_axis_tready(dw_r[i]),
      .s_axis_tlast(dw_l[i]),
      .m_axi_awaddr(m_axi_awaddr[i*64 +: 64]), .m_axi_awlen(m_axi_awlen[i*8 +: 8]), .m_axi_awvalid(m_axi_awvalid[i]),
      .m_axi_awready(m_axi_awready[i]),
      .m_axi_wdata(m_axi_wdata[i*DW +: DW]), .m_axi_wstrb(m_axi_wstrb[i*KW +: KW]), .m_axi_wlast(m_axi_wlast[i]),
      .m_axi_wvalid(m_axi_wvalid[i]), .m_axi_wready(m_axi_wready[i]),
      .m_axi_bresp(m_axi_bresp), .m_axi_bvalid(m_axi_bvalid[i]), .m_axi_bready(m_axi_bready[i]),
      .m_cpl_valid(dwp_v[i]), .m_cpl_ready(dwp_r[i]), .m_cpl(dwp[i])
    );
  end


  // ============================================================ streaming MRs
  // (docs/user-logic.md): per command, memory or user logic, in order
  roce_ustream_wr u_us_rx (
    .clk, .rst,
    .s_cmd_valid(rwc_v), .s_cmd_ready(rwc_r), .s_cmd(rwc), .s_cmd_usr(rwu),
    .s_axis_tdata(rw_d), .s_axis_tkeep(rw_k), .s_axis_tvalid(rw_v), .s_axis_tready(rw_r), .s_axis_tlast(rw_l),
    .s_axis_tuser(rw_u),
    .m_cpl_valid(rwp_v), .m_cpl_ready(rwp_r), .m_cpl(rwp),
    .m_cmd_valid(dwc_v[0]), .m_cmd_ready(dwc_r[0]), .m_cmd(dwc[0]),
    .m_axis_tdata(dw_d[0]), .m_axis_tkeep(dw_k[0]), .m_axis_tvalid(dw_v[0]), .m_axis_tready(dw_r[0]),
    .m_axis_tlast(dw_l[0]),
    .s_cpl_valid(dwp_v[0]), .s_cpl_ready(dwp_r[0]), .s_cpl(dwp[0]),
    .m_urx_valid, .m_urx_ready, .m_urx_data, .m_urx_keep, .m_urx_last, .m_urx_addr, .m_urx_len,
    .m_urx_qpn, .m_urx_first, .m_urx_msg_last, .m_urx_send
  );
  roce_ustream_rd u_us_rd (
    .clk, .rst,
    .s_cmd_valid(rrc_v), .s_cmd_ready(rrc_r), .s_cmd(rrc), .s_cmd_usr(rru),
    .m_axis_tdata(rr_d), .m_axis_tkeep(rr_k), .m_axis_tvalid(rr_v), .m_axis_tready(rr_r),
    .m_axis_tlast(rr_l), .m_axis_tuser(rr_u),
    .m_cmd_valid(drc_v[1]), .m_cmd_ready(drc_r[1]), .m_cmd(drc[1]),
    .s_axis_tdata(dr_d[1]), .s_axis_tkeep(dr_k[1]), .s_axis_tvalid(dr_v[1]), .s_axis_tready(dr_r[1]),
    .s_axis_tlast(dr_l[1]), .s_axis_tuser(dr_u[1]),
    .m_ureq_valid(m_urd_req_valid), .m_ureq_ready(m_urd_req_ready), .m_ureq_addr(m_urd_req_addr),
    .m_ureq_len(m_urd_req_len), .m_ureq_qpn(m_urd_req_qpn),
    .s_ud_valid(s_urd_valid), .s_ud_ready(s_urd_ready), .s_ud_data(s_urd_data), .s_ud_last(s_urd_last),
    .err(urd_err)
  );
  roce_ustream_rd u_us_tx (
    .clk, .rst,
    .s_cmd_valid(qrc_v), .s_cmd_ready(qrc_r), .s_cmd(qrc), .s_cmd_usr(qru),
    .m_axis_tdata(qr_d), .m_axis_tkeep(qr_k), .m_axis_tvalid(qr_v), .m_axis_tready(qr_r),
    .m_axis_tlast(qr_l), .m_axis_tuser(qr_u),
    .m_cmd_valid(drc_v[0]), .m_cmd_ready(drc_r[0]), .m_cmd(drc[0]),
    .s_axis_tdata(dr_d[0]), .s_axis_tkeep(dr_k[0]), .s_axis_tvalid(dr_v[0]), .s_axis_tready(dr_r[0]),
    .s_axis_tlast(dr_l[0]), .s_axis_tuser(dr_u[0]),
    .m_ureq_valid(m_utx_req_valid), .m_ureq_ready(m_utx_req_ready), .m_ureq_addr(m_utx_req_addr),
    .m_ureq_len(m_utx_req_len), .m_ureq_qpn(m_utx_req_qpn),
    .s_ud_valid(s_utx_valid), .s_ud_ready(s_utx_ready), .s_ud_data(s_utx_data), .s_ud_last(s_utx_last),
    .err(utx_err)
  );
  assign cnt_us_err_d = cnt_us_err_q + 32'(urd_err) + 32'(utx_err);

  // handshake checks of the user streams (simulation)
  roce_axis_assert #(.W(512 + 64 + 1 + 64 + 32 + 24 + 3)) u_chk_urx (
    .clk, .rst, .valid(m_urx_valid), .ready(m_urx_ready),
    .payload({m_urx_data, m_urx_keep, m_urx_last, m_urx_addr, m_urx_len, m_urx_qpn, m_urx_first,
              m_urx_msg_last, m_urx_send}));
  roce_axis_assert #(.W(64 + 32 + 24)) u_chk_urd_req (
    .clk, .rst, .valid(m_urd_req_valid), .ready(m_urd_req_ready),
    .payload({m_urd_req_addr, m_urd_req_len, m_urd_req_qpn}));
  roce_axis_assert #(.W(512 + 1)) u_chk_urd (
    .clk, .rst, .valid(s_urd_valid), .ready(s_urd_ready), .payload({s_urd_data, s_urd_last}));
  roce_axis_assert #(.W(64 + 32 + 24)) u_chk_utx_req (
    .clk, .rst, .valid(m_utx_req_valid), .ready(m_utx_req_ready),
    .payload({m_utx_req_addr, m_utx_req_len, m_utx_req_qpn}));
  roce_axis_assert #(.W(512 + 1)) u_chk_utx (
    .clk, .rst, .valid(s_utx_valid), .ready(s_utx_ready), .payload({s_utx_data, s_utx_last}));

  // ============================================================ responder
  roce_qp_pkg::qp_tx_hdr_t rs_hdr;  logic rs_hdr_v, rs_hdr_r;
  logic [DW-1:0] rs_d;  logic [KW-1:0] rs_k;  logic rs_v, rs_r, rs_l;
  logic rs_cqe_v, rs_cqe_r;  roce_qp_pkg::cqe_t rs_cqe;
  logic fl_cqe_v, fl_cqe_r;  roce_qp_pkg::cqe_t fl_cqe;   // the receive flush's WR_FLUSH_ERR completions
  // Receive posts: two sources into roce_rq, the firmware's register post and
  // user logic's s_rq_* (docs/user-logic.md), each through a one-entry hold;
  // the firmware's goes first (a firmware rq_recycle request travels the same
  // way, fwr_rcy_q). roce_rq takes one post at a time and says its
  // outcome (rq_perr: refused, the ring full) in the cycle its ready is back;
  // rq_pend_q / rq_pusr_q: a post is in roce_rq, and whose. A firmware post
  // with a QPN >= NQP, refused, or written while rq_status.busy is counted
  // in rq_overflow; a user post with a QPN >= NQP or refused completes with
  // LOC_QP_OP_ERR (urf_*, through roce_cq_merge to the divert below). User
  // receive WQEs carry USER_TAG like its sends (bit 48 set: always signaled),
  // so their CQEs (and their errors) go to m_cpl_*; at most
  // USER_RQ_OUTSTANDING of them are posted and not yet completed (their own
  // credit pool, apart from the sends').
  logic rq_post_valid, rq_post_ready, rq_perr, rq_in_v, rq_take, rq_out;
  logic rq_pend_q, rq_pend_d, rq_pusr_q, rq_pusr_d, rq_busy_q, rq_busy_d;
  logic fwr_rcy_q, fwr_rcy_d, rq_in_rcy;
  logic fwr_v_q, fwr_v_d, urq_v_q, urq_v_d, urq_rdy_q, urq_rdy_d, urq_take, urq_bad_q, urq_bad_d;
  logic urf_v_q, urf_v_d, urf_r, urq_cpl_pop;
  logic [QW-1:0] fwr_qpn_q, fwr_qpn_d, rq_in_qpn;
  logic [23:0]   urq_qpn_q, urq_qpn_d;
  roce_qp_pkg::rwqe_t rq_wqe, fwr_wqe_q, fwr_wqe_d, urq_wqe_q, urq_wqe_d;
  roce_qp_pkg::cqe_t  urf_cqe;
  logic [URW-1:0] urq_out_q, urq_out_d;

  always_comb begin
    rq_post_valid = (rq_post_we && rq_post_wdata) || (rq_recycle_we && rq_recycle_wdata);
    // the hold the firmware's post waits in
    fwr_v_d       = fwr_v_q;
    fwr_rcy_d     = fwr_rcy_q;
    fwr_qpn_d     = fwr_qpn_q;
    fwr_wqe_d     = fwr_wqe_q;
    if (fwr_v_q && rq_post_ready) fwr_v_d = 1'b0;
    if (rq_post_valid && !fwr_v_q && rq_qpn < 24'(NQP)) begin
      fwr_v_d   = 1'b1;
      fwr_rcy_d = rq_recycle_we;
      fwr_qpn_d = rq_qpn[QW-1:0];
      fwr_wqe_d = {rq_addr_hi, rq_addr_lo, rq_len, rq_lkey, rq_wr_id_hi, rq_wr_id_lo};   // rwqe_t's fields in order
    end
    // into roce_rq: the firmware's hold first, else the user's
    rq_in_v   = fwr_v_q || (urq_v_q && !urq_bad_q);
    rq_in_qpn = fwr_v_q ? fwr_qpn_q : urq_qpn_q[QW-1:0];
    rq_wqe    = fwr_v_q ? fwr_wqe_q : urq_wqe_q;
    rq_in_rcy = fwr_v_q && fwr_rcy_q;
    rq_take   = rq_in_v && rq_post_ready;
    rq_out    = rq_pend_q && rq_post_ready;   // the outcome of the post in roce_rq, rq_perr
    rq_pend_d = rq_take || (rq_pend_q && !rq_post_ready);
    rq_pusr_d = rq_take ? !fwr_v_q : rq_pusr_q;
    rq_busy_d = fwr_v_d || (rq_pend_d && !rq_pusr_d);
    cnt_rq_overflow_d = cnt_rq_overflow_q + 32'(rq_post_valid && (fwr_v_q || rq_qpn >= 24'(NQP)))
                      + 32'(rq_out && !rq_pusr_q && rq_perr);
    // user logic's post: taken into its hold, which is free again once
    // roce_rq has stored or refused it (or its QPN >= NQP has completed)
    urq_take  = s_rq_valid && urq_rdy_q;
    urq_bad_d = urq_take ? s_rq_qpn >= 24'(NQP) : urq_bad_q;
    urf_v_d   = urf_v_q ? !urf_r : ((urq_v_q && urq_bad_q) || (rq_out && rq_pusr_q && rq_perr));
    urq_v_d   = urq_take || (urq_v_q && !(rq_take && !fwr_v_q) && !urq_bad_q);
    urq_qpn_d = urq_take ? s_rq_qpn : urq_qpn_q;
    urq_wqe_d = urq_take ? {s_rq_addr, s_rq_len, s_rq_lkey, USER_TAG, 1'b1, s_rq_wr_id} : urq_wqe_q;
    urq_cpl_pop = ucpl_pop && m_cpl_opcode[7];   // a receive's completion (opcode 128 / 129)
    urq_out_d = urq_out_q + URW'(urq_take) - URW'(urq_cpl_pop);
    urq_rdy_d = !urq_v_d && !(rq_pend_d && rq_pusr_d) && !urf_v_d && urq_out_d != URW'(USER_RQ_OUTSTANDING);
    cnt_usr_rq_d = cnt_usr_rq_q + 32'(urq_take);
    // the refusal's completion: LOC_QP_OP_ERR, opcode RECV, the QPN as posted
    urf_cqe          = '0;
    urf_cqe.wr_id    = urq_wqe_q.wr_id;
    urf_cqe.status   = roce_qp_pkg::WC_LOC_QP_OP_ERR;
    urf_cqe.opcode   = roce_qp_pkg::WC_OP_RECV;
    urf_cqe.qpn      = urq_qpn_q;
    urf_cqe.is_recv  = 1'b1;
  end
  assign s_rq_ready = urq_rdy_q;

  // rq_dead: the QP is in ERROR (a move of the completer or the responder, or a context
  // written ERROR; any other context write clears it). A receive stored into its ring
  // (rq_out without rq_perr: the WQE is in the ring) is looked up here, an NQP:1 mux in
  // two registered steps like qp_hw_state's, and a QP in ERROR gets its ring flushed
  // again (pdf_* above).
  logic [NQP-1:0] rq_dead_q, rq_dead_d;
  logic [ENG-1:0] rq_dead_grp_q, rq_dead_grp_d;
  logic           rq_dead_sel_q, rq_dead_sel_d, pdg_v_q, pdg_v_d;
  logic [QW-1:0]  rq_pq_qpn_q, rq_pq_qpn_d, pdg_qpn_q, pdg_qpn_d;
  always_comb begin
    rq_dead_d = rq_dead_q;
    if (qp_err_valid && qp_err_qpn < 24'(NQP)) rq_dead_d[qp_err_qpn[QW-1:0]] = 1'b1;
    if (rs_err_v) rq_dead_d[rs_err_qpn] = 1'b1;
    if (ctx_wr_valid && ctx_wr_ready) rq_dead_d[qp_qpn[QW-1:0]] = qp_state == roce_qp_pkg::QPS_ERR;
    rq_pq_qpn_d = rq_take ? rq_in_qpn : rq_pq_qpn_q;   // the QPN of the post in roce_rq
    pdg_v_d     = rq_out && !rq_perr;
    pdg_qpn_d   = rq_pq_qpn_q;
    for (int g = 0; g < ENG; g++) rq_dead_grp_d[g] = rq_dead_q[g * (1 << ELO) + 32'(rq_pq_qpn_q[ELO-1:0])];
    pdk_v_d       = pdg_v_q;
    pdk_qpn_d     = pdg_qpn_q;
    rq_dead_sel_d = rq_dead_grp_q[pdg_qpn_q[QW-1:ELO]];
  end
  always_ff @(posedge clk) begin
    rq_pq_qpn_q   <= rq_pq_qpn_d;
    pdg_qpn_q     <= pdg_qpn_d;
    pdk_qpn_q     <= pdk_qpn_d;
    rq_dead_grp_q <= rq_dead_grp_d;
    rq_dead_sel_q <= rq_dead_sel_d;
    if (rst) begin
      rq_dead_q <= '0;
      pdg_v_q   <= 1'b0;
      pdk_v_q   <= 1'b0;
    end else begin
      rq_dead_q <= rq_dead_d;
      pdg_v_q   <= pdg_v_d;
      pdk_v_q   <= pdk_v_d;
    end
  end

  roce_resp #(.NQP(NQP), .RQ_DEPTH(RQ_DEPTH), .NATOM(MAX_RD_ATOMIC), .ACK_COALESCE(ACK_COALESCE)) u_resp (
    .clk, .rst, .init_done(qp_init_done && mr_init_done),
    .qp_reset_valid(qp_reset), .qp_reset_qpn(qp_reset_q),
    .s_hdr_valid(qh_v), .s_hdr_ready(qh_r), .s_hdr(qh),
    .s_axis_payload_tdata(qp_d), .s_axis_payload_tkeep(qp_k), .s_axis_payload_tvalid(qp_v),
    .s_axis_payload_tready(qp_r), .s_axis_payload_tlast(qp_l),
    .ctx_rd_en(ctx_re_resp), .ctx_rd_qpn(ctx_qa_resp), .ctx_rd(ctx_rd_resp),
    .mr_rd_en(mr_re_resp), .mr_rd_key(mr_rk_resp), .mr_rd(mr_rd_resp),
    .s_post_valid(rq_in_v), .s_post_ready(rq_post_ready), .s_post_qpn(rq_in_qpn), .s_post_wqe(rq_wqe),
    .s_post_recycle(rq_in_rcy), .s_post_err(rq_perr),
    .m_dma_wr_cmd_valid(rwc_v), .m_dma_wr_cmd_ready(rwc_r), .m_dma_wr_cmd(rwc), .m_dma_wr_cmd_usr(rwu),
    .m_dma_wr_axis_tdata(rw_d), .m_dma_wr_axis_tkeep(rw_k), .m_dma_wr_axis_tvalid(rw_v),
    .m_dma_wr_axis_tready(rw_r), .m_dma_wr_axis_tlast(rw_l), .m_dma_wr_axis_tuser(rw_u),
    .s_dma_wr_cpl_valid(rwp_v), .s_dma_wr_cpl_ready(rwp_r), .s_dma_wr_cpl(rwp),
    .m_dma_aw_cmd_valid(dwc_v[1]), .m_dma_aw_cmd_ready(dwc_r[1]), .m_dma_aw_cmd(dwc[1]),
    .m_dma_aw_axis_tdata(dw_d[1]), .m_dma_aw_axis_tkeep(dw_k[1]), .m_dma_aw_axis_tvalid(dw_v[1]),
    .m_dma_aw_axis_tready(dw_r[1]), .m_dma_aw_axis_tlast(dw_l[1]),
    .s_dma_aw_cpl_valid(dwp_v[1]), .s_dma_aw_cpl_ready(dwp_r[1]), .s_dma_aw_cpl(dwp[1]),
    .m_dma_rd_cmd_valid(rrc_v), .m_dma_rd_cmd_ready(rrc_r), .m_dma_rd_cmd(rrc), .m_dma_rd_cmd_usr(rru),
    .s_dma_rd_axis_tdata(rr_d), .s_dma_rd_axis_tkeep(rr_k), .s_dma_rd_axis_tvalid(rr_v),
    .s_dma_rd_axis_tready(rr_r), .s_dma_rd_axis_tlast(rr_l), .s_dma_rd_axis_tuser(rr_u),
    .m_tx_hdr_valid(rs_hdr_v), .m_tx_hdr_ready(rs_hdr_r), .m_tx_hdr(rs_hdr),
    .m_axis_tx_tdata(rs_d), .m_axis_tx_tkeep(rs_k), .m_axis_tx_tvalid(rs_v), .m_axis_tx_tready(rs_r),
    .m_axis_tx_tlast(rs_l),
    .m_cqe_valid(rs_cqe_v), .m_cqe_ready(rs_cqe_r), .m_cqe(rs_cqe),
    .flush_valid(fl_v_q), .flush_qpn(fl_qpn_q),   // moves to ERROR, written ERROR, posts in ERROR
    .m_fcqe_valid(fl_cqe_v), .m_fcqe_ready(fl_cqe_r), .m_fcqe(fl_cqe),
    .cnt_rq_flushed(r_rq_flushed), .cnt_rq_flush_lost(r_rq_flush_lost),
    .cnt_drop_qpn(r_drop_qpn), .cnt_drop_state(r_drop_state), .cnt_drop_opcode(r_drop_opcode),
    .cnt_drop_oos(r_drop_oos), .cnt_drop_dup(r_drop_dup), .cnt_drop_reset(r_drop_reset),
    .cnt_dup(r_dup), .cnt_nak_seq(r_nak_seq), .cnt_nak_inv(r_nak_inv), .cnt_nak_acc(r_nak_acc),
    .cnt_nak_op(r_nak_op), .cnt_rnr(r_rnr), .cnt_req_ok(r_req_ok), .cnt_ack_tx(r_ack_tx),
    .cnt_nak_tx(r_nak_tx), .cnt_rd_pkt(r_rd_pkt), .cnt_atomic(r_atomic), .cnt_atomic_miss(r_atomic_miss),
    .cnt_dma_err(r_dma_err), .cnt_post_err(r_post_err),
    .cnt_rx_write(r_rx_write), .cnt_rx_read(r_rx_read), .cnt_rx_atomic(r_rx_atomic), .cnt_rx_send(r_rx_send),
    .cnt_nak_pmtu(r_nak_pmtu), .cnt_nak_pd(r_nak_pd),
    .err_valid(rs_err_v), .err_qpn(rs_err_qpn), .err_status(rs_err_st), .req_ok(rs_req_ok)
  );

  // ============================================================ requester side
  // Three WQE sources share roce_sq, round robin: the firmware's register post
  // (held in fw_wqe_q until roce_sq takes it; sq_status.ready = the hold is
  // free), the work-request generator (roce_wrgen) and user logic (held in
  // usr_wqe_q). last_q: the source served last (0 firmware, 1 generator, 2
  // user); the next one after it in that order goes first.
  roce_qp_pkg::swqe_t sq_wqe, fw_wqe_q, fw_wqe_d, gen_wqe, usr_wqe_q, usr_wqe_d;
  logic sq_post_valid, sq_in_valid, sq_in_ready, fw_v_q, fw_v_d, gen_wqe_v, gen_wqe_r;
  logic sel_fw, sel_gen, sel_usr, usr_v_q, usr_v_d;
  logic [1:0] last_q, last_d;
  always_comb begin
    sq_post_valid = sq_post_we && sq_post_wdata;
    unique case (last_q)
      2'd0: begin   // generator, user, firmware
        sel_gen = gen_wqe_v;
        sel_usr = usr_v_q && !gen_wqe_v;
        sel_fw  = fw_v_q && !gen_wqe_v && !usr_v_q;
      end
      2'd1: begin   // user, firmware, generator
        sel_usr = usr_v_q;
        sel_fw  = fw_v_q && !usr_v_q;
        sel_gen = gen_wqe_v && !usr_v_q && !fw_v_q;
      end
      default: begin   // firmware, generator, user
        sel_fw  = fw_v_q;
        sel_gen = gen_wqe_v && !fw_v_q;
        sel_usr = usr_v_q && !fw_v_q && !gen_wqe_v;
      end
    endcase
    sq_in_valid   = fw_v_q || gen_wqe_v || usr_v_q;
    sq_wqe        = sel_fw ? fw_wqe_q : sel_usr ? usr_wqe_q : gen_wqe;
    gen_wqe_r     = sq_in_ready && sel_gen;
    sq_ready      = !fw_v_q;
    fw_v_d        = fw_v_q;
    fw_wqe_d      = fw_wqe_q;
    last_d        = last_q;
    if (sq_in_valid && sq_in_ready) begin
      last_d = sel_fw ? 2'd0 : sel_gen ? 2'd1 : 2'd2;
      if (sel_fw) fw_v_d = 1'b0;
    end
    if (sq_post_valid && !fw_v_q) begin
      fw_v_d = 1'b1;
      // swqe_t's fields in order (a concatenation: Yosys 0.23 has no casts to package enums)
      fw_wqe_d = {sq_opcode, sq_qpn, sq_laddr_hi, sq_laddr_lo, sq_lkey, sq_raddr_hi, sq_raddr_lo, sq_rkey,
                  sq_len, sq_imm, sq_compare_hi, sq_compare_lo, sq_swap_add_hi, sq_swap_add_lo,
                  sq_wr_id_hi, sq_wr_id_lo, sq_flags[0], sq_flags[1]};
    end
    cnt_sq_refused_d = cnt_sq_refused_q + 32'(sq_post_valid && fw_v_q);
    // gen_cycle_lo_re comes the cycle after the read sampled bits 31:0: latch the bits 63:32 of that cycle
    gen_cyc_hi_d     = gen_cycle_lo_re ? gen_now_hi_prev_q : gen_cyc_hi_q;
  end

  // User logic's WRs (docs/user-logic.md). A WR is taken (s_wr_ready, from a
  // register) while the hold is free and fewer than USER_OUTSTANDING of its
  // WRs are outstanding, so its completion FIFO never overflows and user
  // logic that does not take completions stops only its own posts. Every
  // user WQE is posted signaled (each has exactly one CQE: a refusal, an
  // error or a success); wr_id = {USER_TAG, signaled as asked, user wr_id};
  // the successes of WRs user logic posted unsignaled are dropped at the
  // divert below. An opcode above 6 is posted to QPN 0, which roce_sq
  // refuses with LOC_QP_OP_ERR.
  logic           usr_take, usr_rdy_q, usr_rdy_d, usr_opc_ok, usr_sup_q, usr_sup_d, ucpl_pop;
  logic [UOW-1:0] usr_out_q, usr_out_d;
  always_comb begin
    usr_take   = s_wr_valid && usr_rdy_q;
    usr_opc_ok = s_wr_opcode <= 4'd6;
    usr_v_d    = usr_take || (usr_v_q && !(sq_in_ready && sel_usr));
    usr_wqe_d  = usr_wqe_q;
    if (usr_take)
      usr_wqe_d = {usr_opc_ok ? s_wr_opcode : 4'd2, usr_opc_ok ? s_wr_qpn : 24'd0, s_wr_laddr, s_wr_lkey,
                   s_wr_raddr, s_wr_rkey, s_wr_len, s_wr_imm, s_wr_compare, s_wr_swap_add,
                   {USER_TAG, s_wr_signaled, s_wr_wr_id}, 1'b1, 1'b0};
    usr_out_d  = usr_out_q + UOW'(usr_take) - UOW'(ucpl_pop && !m_cpl_opcode[7]) - UOW'(usr_sup_q);
    usr_rdy_d  = !usr_v_d && usr_out_d != UOW'(USER_OUTSTANDING);
    cnt_usr_post_d = cnt_usr_post_q + 32'(usr_take);
    cnt_usr_err_d  = cnt_usr_err_q + 32'(ucpl_pop && m_cpl_status != 5'd0);
  end
  assign s_wr_ready = usr_rdy_q;

  logic gcq_v;  roce_qp_pkg::cqe_t gcq;
  roce_wrgen #(.SQ_DEPTH(SQ_DEPTH), .GEN_TAG(GEN_TAG)) u_wrgen (
    .clk, .rst,
    .cfg_opcode(gen_opcode), .cfg_qpn(gen_qpn), .cfg_nqp(gen_nqp), .cfg_stride(gen_qpn_stride),
    .cfg_laddr({gen_laddr_hi, gen_laddr_lo}), .cfg_lkey(gen_lkey), .cfg_raddr({gen_raddr_hi, gen_raddr_lo}),
    .cfg_rkey(gen_rkey), .cfg_len(gen_len), .cfg_total(gen_total), .cfg_max_out(gen_max_out),
    .cfg_max_out_qp(gen_max_out_qp), .cfg_sig_every(gen_sig_every), .cfg_window(gen_window),
    .cfg_timeout(gen_timeout), .cfg_lat(gen_mode),
    .start(gen_ctrl_we && gen_ctrl_wdata[0]), .abort(gen_ctrl_we && gen_ctrl_wdata[1]),
    .m_wqe_valid(gen_wqe_v), .m_wqe_ready(gen_wqe_r), .m_wqe(gen_wqe),
    .s_cqe_valid(gcq_v), .s_cqe(gcq),
    .qp_reset, .qp_reset_qpn,
    .status(gen_status), .posted(gen_posted), .completed(gen_completed), .err_index(gen_err_index),
    .t_first(gen_t_first), .t_last(gen_t_last), .lat_min(gen_lat_min), .lat_max(gen_lat_max),
    .lat_sum(gen_lat_sum), .win_min(gen_win_min), .now(gen_now)
  );

  logic sq_kick_v, sq_kick_r;  logic [23:0] sq_kick_q;
  logic c_kick_v, c_kick_r;    logic [23:0] c_kick_q;
  logic cmd_v, cmd_r;          roce_req_pkg::rcmd_t cmd;
  logic ev_v, ev_r;            roce_req_pkg::rev_t ev;
  logic arm_v, arm_r;          roce_req_pkg::tcmd_t arm;
  logic tc_v, tc_r;            roce_req_pkg::tcmd_t tc;
  logic tx_v, tx_r;            roce_req_pkg::texp_t tx;
  logic head_re;               logic [QW-1:0] head_qa;  logic [PW-1:0] head_rd;
  logic wqe_re;                logic [QW+SAW-1:0] wqe_a;  roce_qp_pkg::swqe_t wqe_rd;
  logic cwqe_re;               logic [QW+SAW-1:0] cwqe_a; roce_req_pkg::cwqe_t cwqe_rd;
  logic sq_cpub_re;            logic [QW-1:0] sq_cpub_qa;  roce_req_pkg::cpub_t sq_cpub;
  logic req_cpub_re;           logic [QW-1:0] req_cpub_qa; roce_req_pkg::cpub_t req_cpub;
  logic rpub_re;               logic [QW-1:0] rpub_qa;     roce_req_pkg::rpub_t rpub;
  logic sq_cqe_v, sq_cqe_r;    roce_qp_pkg::cqe_t sq_cqe;
  logic cp_cqe_v, cp_cqe_r;    roce_qp_pkg::cqe_t cp_cqe;
  roce_qp_pkg::qp_tx_hdr_t rq_hdr;  logic rq_hdr_v, rq_hdr_r;
  logic [DW-1:0] rq_d;  logic [KW-1:0] rq_k;  logic rq_v, rq_r, rq_l;

  roce_sq #(.NQP(NQP), .SQ_DEPTH(SQ_DEPTH)) u_sq (
    .clk, .rst,
    .s_wqe_valid(sq_in_valid), .s_wqe_ready(sq_in_ready), .s_wqe(sq_wqe),
    .qp_reset, .qp_reset_qpn,
    .req_head_rd_en(head_re), .req_head_rd_qpn(head_qa), .req_head_rd_data(head_rd),
    .req_wqe_rd_en(wqe_re), .req_wqe_rd_addr(wqe_a), .req_wqe_rd_data(wqe_rd),
    .comp_wqe_rd_en(cwqe_re), .comp_wqe_rd_addr(cwqe_a), .comp_wqe_rd_data(cwqe_rd),
    .cpub_rd_en(sq_cpub_re), .cpub_rd_qpn(sq_cpub_qa), .cpub_rd_data(sq_cpub),
    .m_kick_valid(sq_kick_v), .m_kick_ready(sq_kick_r), .m_kick_qpn(sq_kick_q),
    .m_cqe_valid(sq_cqe_v), .m_cqe_ready(sq_cqe_r), .m_cqe(sq_cqe),
    .cnt_post(s_post_cnt), .cnt_reject(s_reject_cnt)
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
    .mr_rd_en(mr_re_req), .mr_rd_key(mr_rk_req), .mr_rd_data(mr_rd_req),
    .rpub_rd_en(rpub_re), .rpub_rd_qpn(rpub_qa), .rpub_rd_data(rpub),
    .m_ev_valid(ev_v), .m_ev_ready(ev_r), .m_ev(ev),
    .m_tcmd_valid(arm_v), .m_tcmd_ready(arm_r), .m_tcmd(arm),
    .m_dma_cmd_valid(qrc_v), .m_dma_cmd_ready(qrc_r), .m_dma_cmd(qrc), .m_dma_cmd_usr(qru),
    .s_axis_dma_tdata(qr_d), .s_axis_dma_tkeep(qr_k), .s_axis_dma_tvalid(qr_v),
    .s_axis_dma_tready(qr_r), .s_axis_dma_tlast(qr_l), .s_axis_dma_tuser(qr_u),
    .m_hdr_valid(rq_hdr_v), .m_hdr_ready(rq_hdr_r), .m_hdr(rq_hdr),
    .m_axis_payload_tdata(rq_d), .m_axis_payload_tkeep(rq_k), .m_axis_payload_tvalid(rq_v),
    .m_axis_payload_tready(rq_r), .m_axis_payload_tlast(rq_l),
    .pace_qpn(pace_q), .pace_ok(pace_ok),
    .m_txp_valid(txp_v), .m_txp_qpn(txp_q), .m_txp_opcode(txp_op), .m_txp_paylen(txp_pl),
    .cnt_pkt(q_pkt), .cnt_locerr(q_locerr)
  );

  roce_comp #(.NQP(NQP), .SQ_DEPTH(SQ_DEPTH)) u_comp (
    .clk, .rst, .qp_reset, .qp_reset_qpn,
    .s_rsp_hdr_valid(ph_v), .s_rsp_hdr_ready(ph_r), .s_rsp_hdr(ph),
    .s_axis_rsp_payload_tdata(pp_d), .s_axis_rsp_payload_tkeep(pp_k), .s_axis_rsp_payload_tvalid(pp_v),
    .s_axis_rsp_payload_tready(pp_r), .s_axis_rsp_payload_tlast(pp_l),
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
    .m_dma_cmd_valid(dwc_v[2]), .m_dma_cmd_ready(dwc_r[2]), .m_dma_cmd(dwc[2]),
    .m_axis_dma_tdata(dw_d[2]), .m_axis_dma_tkeep(dw_k[2]), .m_axis_dma_tvalid(dw_v[2]),
    .m_axis_dma_tready(dw_r[2]), .m_axis_dma_tlast(dw_l[2]),
    .s_dma_cpl_valid(dwp_v[2]), .s_dma_cpl_ready(dwp_r[2]), .s_dma_cpl(dwp[2]),
    .m_cqe_valid(cp_cqe_v), .m_cqe_ready(cp_cqe_r), .m_cqe(cp_cqe),
    .qp_err_valid, .qp_err_qpn,
    .cnt_retry(p_retry), .cnt_timeout(p_timeout), .cnt_rnr(p_rnr), .cnt_nak_seq(p_nak_seq),
    .cnt_nak_inv(p_nak_inv), .cnt_nak_acc(p_nak_acc), .cnt_nak_op(p_nak_op),
    .cnt_implicit(p_implicit), .cnt_drop(p_drop)
  );

  roce_comp_timer #(.NQP(NQP), .CLK_HZ(CLK_HZ)) u_timer (
    .clk, .rst, .qp_reset, .qp_reset_qpn,
    .s_arm_valid(arm_v), .s_arm_ready(arm_r), .s_arm(arm),
    .s_tcmd_valid(tc_v), .s_tcmd_ready(tc_r), .s_tcmd(tc),
    .m_texp_valid(tx_v), .m_texp_ready(tx_r), .m_texp(tx)
  );

  // ============================================================ completions
  // the responder's CQE valid comes from the process that reads its ready (see
  // the header slice above): a register slice keeps the merge's choice apart
  logic rsk_cqe_v, rsk_cqe_r;  roce_qp_pkg::cqe_t rsk_cqe;
  lib_skid #(.WIDTH(roce_qp_pkg::CQE_W)) u_resp_cqe_slice (
    .clk, .rst,
    .s_valid(rs_cqe_v), .s_ready(rs_cqe_r), .s_data(rs_cqe),
    .m_valid(rsk_cqe_v), .m_ready(rsk_cqe_r), .m_data(rsk_cqe)
  );

  logic mg_cqe_v, mg_cqe_r;  roce_qp_pkg::cqe_t mg_cqe;
  // the two rare streams (the receive flush, user logic's refused receive
  // posts) share one input: a five-way round robin is 7 LUT levels deep
  logic rare_v, rare_r;  roce_qp_pkg::cqe_t rare_cqe;
  roce_cq_merge #(.NIN(2)) u_merge_rare (
    .clk, .rst,
    .s_cqe_valid({fl_cqe_v, urf_v_q}), .s_cqe_ready({fl_cqe_r, urf_r}), .s_cqe({fl_cqe, urf_cqe}),
    .m_cqe_valid(rare_v), .m_cqe_ready(rare_r), .m_cqe(rare_cqe)
  );
  roce_cq_merge #(.NIN(4)) u_merge (
    .clk, .rst,
    .s_cqe_valid({rare_v, rsk_cqe_v, sq_cqe_v, cp_cqe_v}), .s_cqe_ready({rare_r, rsk_cqe_r, sq_cqe_r, cp_cqe_r}),
    .s_cqe({rare_cqe, rsk_cqe, sq_cqe, cp_cqe}),
    .m_cqe_valid(mg_cqe_v), .m_cqe_ready(mg_cqe_r), .m_cqe(mg_cqe)
  );

  // the generator's completions (its wr_id tag) go to it (its sends') or to
  // the gen_recv_* counters (receives, e.g. of a recycling ring), user
  // logic's (its sends' and its receives') to its completion FIFO (through a
  // register; the successes of its unsignaled WRs only return their credit),
  // the rest to the CQ; neither diverted stream ever waits
  logic cq_in_r, gen_hit, grx_hit, usr_hit, ucq_v_q, ucq_v_d;
  logic grx_v_q, grx_ok_q;
  logic [31:0] grx_len_q;
  // the user completion: {wr_id, status, opcode, byte_len, qpn, imm, has_imm}
  localparam int UCPL_W = 48 + 5 + 8 + 32 + 24 + 32 + 1;
  logic [UCPL_W-1:0] ucq_q, ucq_d, ucpl;
  always_comb begin
    gen_hit   = !mg_cqe.is_recv && mg_cqe.wr_id[63:48] == GEN_TAG;
    grx_hit   = mg_cqe.is_recv && mg_cqe.wr_id[63:48] == GEN_TAG;
    usr_hit   = mg_cqe.wr_id[63:49] == USER_TAG;   // its sends' and its receives'
    gcq_v     = mg_cqe_v && gen_hit;
    gcq       = mg_cqe;
    mg_cqe_r  = gen_hit || grx_hit || usr_hit || cq_in_r;
    usr_sup_d = mg_cqe_v && usr_hit && !mg_cqe.wr_id[48] && mg_cqe.status == roce_qp_pkg::WC_SUCCESS;
    ucq_v_d   = mg_cqe_v && usr_hit && !usr_sup_d;
    ucq_d     = {mg_cqe.wr_id[47:0], mg_cqe.status, mg_cqe.opcode, mg_cqe.byte_len, mg_cqe.qpn, mg_cqe.imm_data,
                 mg_cqe.has_imm};
  end

  /* verilator lint_off PINCONNECTEMPTY */
  lib_fifo #(.WIDTH(UCPL_W), .DEPTH(UCPL_DEPTH), .MUST_ACCEPT(1'b1)) u_user_cpl (
    .clk, .rst,
    .s_valid(ucq_v_q), .s_ready(), .s_data(ucq_q),
    .m_valid(m_cpl_valid), .m_ready(m_cpl_ready), .m_data(ucpl), .count()
  );
  /* verilator lint_on PINCONNECTEMPTY */
  assign ucpl_pop = m_cpl_valid && m_cpl_ready;

  // gen_recv_*: the generator's receive completions, registered, then counted
  always_ff @(posedge clk) begin
    if (rst) begin
      grx_v_q         <= 1'b0;
      cnt_grx_q       <= '0;
      cnt_grx_err_q   <= '0;
      cnt_grx_bytes_q <= '0;
    end else begin
      grx_v_q         <= mg_cqe_v && grx_hit;
      cnt_grx_q       <= cnt_grx_q + 32'(grx_v_q);
      cnt_grx_err_q   <= cnt_grx_err_q + 32'(grx_v_q && !grx_ok_q);
      cnt_grx_bytes_q <= cnt_grx_bytes_q + (grx_v_q && grx_ok_q ? 64'(grx_len_q) : 64'd0);
    end
    grx_ok_q  <= mg_cqe.status == roce_qp_pkg::WC_SUCCESS;
    grx_len_q <= mg_cqe.byte_len;
  end
  assign {m_cpl_wr_id, m_cpl_status, m_cpl_opcode, m_cpl_byte_len, m_cpl_qpn, m_cpl_imm, m_cpl_has_imm} = ucpl;

  // the valid/ready rule on both user streams (simulation): user logic's requests and our completions
  roce_axis_assert #(.W(4 + 24 + 64 + 32 + 64 + 32 + 32 + 32 + 64 + 64 + 48 + 1)) u_chk_user_wr (
    .clk, .rst, .valid(s_wr_valid), .ready(s_wr_ready),
    .payload({s_wr_opcode, s_wr_qpn, s_wr_laddr, s_wr_lkey, s_wr_raddr, s_wr_rkey, s_wr_len, s_wr_imm, s_wr_compare,
              s_wr_swap_add, s_wr_wr_id, s_wr_signaled}));
  roce_axis_assert #(.W(24 + 64 + 32 + 32 + 48)) u_chk_user_rq (
    .clk, .rst, .valid(s_rq_valid), .ready(s_rq_ready), .payload({s_rq_qpn, s_rq_addr, s_rq_len, s_rq_lkey, s_rq_wr_id}));
  roce_axis_assert #(.W(UCPL_W)) u_chk_user_cpl (
    .clk, .rst, .valid(m_cpl_valid), .ready(m_cpl_ready), .payload(ucpl));

  roce_cq #(.DEPTH(CQ_DEPTH)) u_cq (
    .clk, .rst,
    .s_cqe_valid(mg_cqe_v && !gen_hit && !grx_hit && !usr_hit), .s_cqe_ready(cq_in_r), .s_cqe(mg_cqe),
    .cq_valid, .cq_entry, .cq_pop(cq_pop_we && cq_pop_wdata), .cq_count
  );

  // ============================================================ transmit path
  roce_qp_pkg::qp_tx_hdr_t mx_hdr;  logic mx_hdr_v, mx_hdr_r;
  logic [DW-1:0] mx_d;  logic [KW-1:0] mx_k;  logic mx_v, mx_r, mx_l;
  // The responder's header channel goes straight to the mux: its valid and
  // data come from roce_resp_tx's header FIFO register (lib_fifo) and the
  // mux's s_resp_hdr_ready from a flip-flop (its hold register is empty), so
  // neither side sees the other's decision (no slice, no cycle).
  roce_qp_pkg::qp_tx_hdr_t rsk_hdr;  logic rsk_hdr_v, rsk_hdr_r;
  always_comb begin
    rsk_hdr_v = rs_hdr_v;
    rsk_hdr   = rs_hdr;
    rs_hdr_r  = rsk_hdr_r;
  end

  // A register slice on its payload (READ responses): the responder decides
  // its payload valid in the same process that reads the ready, so without it
  // the mux's ready-from-valid choice would close a (false) combinational loop.
  logic [DW-1:0] rsk_d;  logic [KW-1:0] rsk_k;  logic rsk_v, rsk_r, rsk_l, rsk_u;
  net_axis_skid #(.DATA_W(DW), .USER_W(1)) u_resp_pay_slice (
    .clk, .rst,
    .s_axis_tdata(rs_d), .s_axis_tkeep(rs_k), .s_axis_tvalid(rs_v), .s_axis_tready(rs_r),
    .s_axis_tlast(rs_l), .s_axis_tuser(1'b0),
    .m_axis_tdata(rsk_d), .m_axis_tkeep(rsk_k), .m_axis_tvalid(rsk_v), .m_axis_tready(rsk_r),
    .m_axis_tlast(rsk_l), .m_axis_tuser(rsk_u)
  );

  // CNPs: the notification point's requests looked up in the QP table
  roce_qp_pkg::qp_tx_hdr_t cn_hdr;  logic cn_hdr_v, cn_hdr_r;
  roce_cnp_tx #(.NQP(NQP)) u_cnp_tx (
    .clk, .rst,
    .s_cnp_valid(np_req_v), .s_cnp_ready(np_req_r), .s_cnp_qpn(np_req_qpn[QW-1:0]),
    .ctx_rd_en(ctx_re_cnp), .ctx_rd_qpn(ctx_qa_cnp), .ctx_rd(ctx_rd_cnp),
    .m_hdr_valid(cn_hdr_v), .m_hdr_ready(cn_hdr_r), .m_hdr(cn_hdr),
    .cnt_sent(np_cnp_sent), .cnt_drop(np_ctx_drop)
  );

  roce_tx_mux u_mux (
    .clk, .rst,
    .s_resp_hdr_valid(rsk_hdr_v), .s_resp_hdr_ready(rsk_hdr_r), .s_resp_hdr(rsk_hdr),
    .s_axis_resp_payload_tdata(rsk_d), .s_axis_resp_payload_tkeep(rsk_k), .s_axis_resp_payload_tvalid(rsk_v),
    .s_axis_resp_payload_tready(rsk_r), .s_axis_resp_payload_tlast(rsk_l),
    .s_req_hdr_valid(rq_hdr_v), .s_req_hdr_ready(rq_hdr_r), .s_req_hdr(rq_hdr),
    .s_axis_req_payload_tdata(rq_d), .s_axis_req_payload_tkeep(rq_k), .s_axis_req_payload_tvalid(rq_v),
    .s_axis_req_payload_tready(rq_r), .s_axis_req_payload_tlast(rq_l),
    .s_cnp_hdr_valid(cn_hdr_v), .s_cnp_hdr_ready(cn_hdr_r), .s_cnp_hdr(cn_hdr),
    .m_hdr_valid(mx_hdr_v), .m_hdr_ready(mx_hdr_r), .m_hdr(mx_hdr),
    .m_axis_payload_tdata(mx_d), .m_axis_payload_tkeep(mx_k), .m_axis_payload_tvalid(mx_v),
    .m_axis_payload_tready(mx_r), .m_axis_payload_tlast(mx_l)
  );

  // the Eth/IPv4/UDP header in front of the BTH, as rxe fills it (three registered stages)
  roce_pkg::tx_hdr_t  px_roce;
  roce_pkg::opcode_info_t px_info;
  logic [335:0]       px_prefix;
  logic               px_v, px_r;
  roce_tx_prefix u_prefix (
    .clk, .rst, .our_mac, .our_ip, .ect(ecn_ect),
    .s_hdr_valid(mx_hdr_v), .s_hdr_ready(mx_hdr_r), .s_hdr(mx_hdr),
    .m_hdr_valid(px_v), .m_hdr_ready(px_r), .m_hdr(px_roce), .m_info(px_info), .m_prefix(px_prefix)
  );

  logic [DW-1:0] bf_d;  logic [KW-1:0] bf_k;  logic bf_v, bf_r, bf_l;
  roce_tx_build #(.PREFIX_BYTES(42)) u_build (
    .clk, .rst,
    .s_hdr_valid(px_v), .s_hdr_ready(px_r), .s_hdr(px_roce), .s_hdr_info(px_info), .s_hdr_prefix(px_prefix),
    .s_axis_payload_tdata(mx_d), .s_axis_payload_tkeep(mx_k), .s_axis_payload_tvalid(mx_v),
    .s_axis_payload_tready(mx_r), .s_axis_payload_tlast(mx_l),
    .m_axis_frame_tdata(bf_d), .m_axis_frame_tkeep(bf_k), .m_axis_frame_tvalid(bf_v),
    .m_axis_frame_tready(bf_r), .m_axis_frame_tlast(bf_l)
  );

  roce_icrc_insert u_icrc_insert (
    .clk, .rst,
    .s_axis_frame_tdata(bf_d), .s_axis_frame_tkeep(bf_k), .s_axis_frame_tvalid(bf_v),
    .s_axis_frame_tready(bf_r), .s_axis_frame_tlast(bf_l),
    .m_axis_frame_tdata(m_axis_tx_tdata), .m_axis_frame_tkeep(m_axis_tx_tkeep),
    .m_axis_frame_tvalid(m_axis_tx_tvalid), .m_axis_frame_tready(m_axis_tx_tready),
    .m_axis_frame_tlast(m_axis_tx_tlast)
  );

  // ============================================================ byte counters
  // Payload bytes parsed (the RX header channel) and sent (the TX mux's header
  // channel), 64 bits each: the header's payload length is registered a cycle
  // ahead of the add. A read of *_lo latches *_hi of the cycle it sampled (its
  // re pulse comes a cycle after the read, as gen_cycle_lo's).
  assign mx_roce = mx_hdr.roce;
  always_comb begin
    bytes_inc_d[0] = (rxh_v && rxh_r) ? rxh.pay_len : 16'd0;
    bytes_inc_d[1] = (mx_hdr_v && mx_hdr_r) ? mx_roce.pay_len : 16'd0;
    for (int i = 0; i < 2; i++) begin
      bytes_d[i]    = bytes_q[i] + 64'(bytes_inc_q[i]);
      bytes_hi_d[i] = bytes_lo_re[i] ? bytes_hi_prev_q[i] : bytes_hi_q[i];
    end
  end
  always_ff @(posedge clk) begin
    for (int i = 0; i < 2; i++) begin
      if (rst) begin
        bytes_inc_q[i] <= '0;
        bytes_q[i]     <= '0;
        bytes_hi_q[i]  <= '0;
      end else begin
        bytes_inc_q[i] <= bytes_inc_d[i];
        bytes_q[i]     <= bytes_d[i];
        bytes_hi_q[i]  <= bytes_hi_d[i];
      end
      bytes_hi_prev_q[i] <= bytes_q[i][63:32];
    end
  end

  // ============================================================ state
  logic unused;
  always_comb begin
    cnt_tx_pkts_d = cnt_tx_pkts_q + 32'(m_axis_tx_tvalid && m_axis_tx_tready && m_axis_tx_tlast);
    unused = ^{np_asked, np_req_qpn[23:QW], cnp_rx_qpn[23:QW], rp_qp_sel[23:QW], r_req_ok, r_atomic, r_post_err, s_post_cnt, rsk_u, ck_meta, rxh_meta, ctx_rd_regs, qp_qpn[23:QW], mr_index[15:MW],
               mr_key[MW-1:0]};   // the row index stands for the key's index bits
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      ctx_pend_q        <= 1'b0;
      mr_pend_q         <= 1'b0;
      mr_valid_q        <= 1'b0;
      qp_err_q          <= '0;
      qp_req_q          <= '0;
      rok_v_q           <= 1'b0;
      cnt_rq_overflow_q <= '0;
      cnt_sq_refused_q  <= '0;
      cnt_tx_pkts_q     <= '0;
      fw_v_q            <= 1'b0;
      fw_wqe_q          <= '0;
      last_q            <= 2'd0;
      usr_v_q           <= 1'b0;
      usr_rdy_q         <= 1'b0;
      usr_out_q         <= '0;
      usr_sup_q         <= 1'b0;
      ucq_v_q           <= 1'b0;
      cnt_usr_post_q    <= '0;
      cnt_usr_rq_q      <= '0;
      fwr_v_q           <= 1'b0;
      urq_v_q           <= 1'b0;
      urq_rdy_q         <= 1'b0;
      urq_out_q         <= '0;
      urf_v_q           <= 1'b0;
      rq_pend_q         <= 1'b0;
      rq_busy_q         <= 1'b0;
      cnt_usr_err_q     <= '0;
      cnt_us_err_q      <= '0;
      gen_cyc_hi_q      <= '0;
    end else begin
      ctx_pend_q        <= ctx_pend_d;
      mr_pend_q         <= mr_pend_d;
      mr_valid_q        <= mr_valid_d;
      qp_err_q          <= qp_err_d;
      qp_req_q          <= qp_req_d;
      rok_v_q           <= rs_req_ok;
      cnt_rq_overflow_q <= cnt_rq_overflow_d;
      cnt_sq_refused_q  <= cnt_sq_refused_d;
      cnt_tx_pkts_q     <= cnt_tx_pkts_d;
      fw_v_q            <= fw_v_d;
      fw_wqe_q          <= fw_wqe_d;
      last_q            <= last_d;
      usr_v_q           <= usr_v_d;
      usr_rdy_q         <= usr_rdy_d;
      usr_out_q         <= usr_out_d;
      usr_sup_q         <= usr_sup_d;
      ucq_v_q           <= ucq_v_d;
      cnt_usr_post_q    <= cnt_usr_post_d;
      cnt_usr_rq_q      <= cnt_usr_rq_d;
      fwr_v_q           <= fwr_v_d;
      urq_v_q           <= urq_v_d;
      urq_rdy_q         <= urq_rdy_d;
      urq_out_q         <= urq_out_d;
      urf_v_q           <= urf_v_d;
      rq_pend_q         <= rq_pend_d;
      rq_busy_q         <= rq_busy_d;
      cnt_usr_err_q     <= cnt_usr_err_d;
      cnt_us_err_q      <= cnt_us_err_d;
      gen_cyc_hi_q      <= gen_cyc_hi_d;
    end
    gen_now_hi_prev_q <= gen_now[63:32];
    usr_wqe_q         <= usr_wqe_d;
    ucq_q             <= ucq_d;
    rq_pusr_q         <= rq_pusr_d;
    fwr_qpn_q         <= fwr_qpn_d;
    fwr_rcy_q         <= fwr_rcy_d;
    fwr_wqe_q         <= fwr_wqe_d;
    urq_qpn_q         <= urq_qpn_d;
    urq_bad_q         <= urq_bad_d;
    urq_wqe_q         <= urq_wqe_d;
  end

endmodule
