// roce_comp: the completer of the RC transport (docs/transport.md).
//
// One event at a time, each against the QP's completer state (a RAM row):
//   response header (ACK, NAK, RNR NAK, READ RESPONSE *, ATOMIC ACK) from
//     the RX path, with its payload stream;
//   requester events (EV_LOCERR, EV_FLUSH); timer expiries (roce_comp_timer).
// The state holds the oldest unretired WQE (cptr), its first PSN (fpsn) and
// the oldest unacknowledged PSN (una, inside WQE cptr). PSNs are contiguous
// over the WQEs, so a WQE's PSNs follow from fpsn, its length and the PMTU.
//
// Acknowledging up to PSN lim (exclusive; ACK psn+1, NAK psn) retires WQEs
// in order, one step per WQE (bounded by the SQ depth):
//   WQE cptr failed locally (EV_LOCERR)  -> complete with that status, ERROR
//   nothing new acknowledged (una >= lim) -> stop
//   WQE cptr is a READ/atomic             -> implicit NAK: resend from una
//   the whole WQE acknowledged            -> retire (CQE if signaled), next
//   else                                  -> una = lim, stop
// Then by the response: sequence NAK -> resend from una (once per NAK
// episode; a retry, counted against retry_cnt); RNR NAK -> requester paused,
// the timer waits the AETH's RNR time, then resend (rnr_retry, 7 = forever);
// invalid request / remote access / remote operational NAK -> the WQE
// completes with that status and the QP goes to ERROR.
// READ RESPONSE with PSN una: its payload is written (DMA) at
// laddr + (psn - fpsn) x PMTU unless it reaches beyond the WQE's length; the
// last PSN retires the READ. A READ RESPONSE beyond una means responses were
// lost: resend from una. ATOMIC ACK with PSN una writes the 8 original bytes
// (little endian) to laddr and retires the atomic. Responses for PSNs not
// outstanding, or for a QP in ERROR, are dropped and counted.
// Timer: ACK timeout with PSNs outstanding -> resend from una (a retry);
// retries exhausted -> RETRY_EXC_ERR (RNR: RNR_RETRY_EXC_ERR), ERROR.
// In ERROR every WQE from cptr to the SQ head completes with WR_FLUSH_ERR
// (EV_FLUSH from the requester, after RC_ERROR).
//
// A CQE leaves only once every DMA write issued before it has completed, so
// READ data is in memory when its completion is seen.
//
// Cycle plan (every decision from flip-flops, arithmetic a stage ahead):
//   (slices) response headers, requester events and timer expiries arrive
//            through lib_skid register slices (their ready from a flip-flop;
//            a cycle of latency); the state row, QP context and requester's
//            published state are read at the QPN of the first waiting one
//   S_IDLE   take a QP reset, else a response header, requester event or
//            timer expiry (S_WB does this too, when done)
//   S_LD     the row (as S_WB wrote it when it wrote it in the same cycle; a
//            fresh row for a QP never used); psn - una, maxpsn - una,
//            maxpsn = una, psn + 1
//   S_EVAL   outstanding or not (the response's ACK/NAK class comes
//            classified with its header, sx_*), lim; reads the WQE at cptr
//   S_WQE    the WQE (RAM output) registered, its PSN count from the RAM
//            output; psn - fpsn and its byte offset; lim - fpsn + 1,
//            una0 - fpsn
//   S_WX     from the registered WQE: its kind, last PSN + 1, last PSN < lim,
//            last PSN + 1 = lim, the response's fit and DMA address; una <
//            lim; which S_STEP block decides (brt, brs) and the retire
//            step's sub-case (rk_*: flush, local error, implicit NAK, WQEs
//            acknowledged), as flags
//   S_STEP   one retire step or the post action; reads the WQE at cptr + 1
//            (a step that moves cptr on goes on at S_WQE: 3 cycles per WQE)
//   S_WB     every output of the event at once, when all have room (a flag
//            registered a cycle ahead from the FIFO counts); the retry
//            budgets back to full when una moved (in the row written)
// The post kind is kept one-hot beside post_q (pf_q, p31_q), so S_STEP's
// decisions test flip-flops; the counters count registered increments (a
// cycle late).
// A plain ACK or a READ response takes 6 cycles, S_LD to S_WB. Commands,
// kicks, timer commands, DMA commands and CQEs leave through lib_fifo
// queues (valid, data and ready from flip-flops), the DMA data through a
// lib_skid, a CQE through an output register.
`default_nettype none

module roce_comp #(
  parameter int NQP       = 256,
  parameter int SQ_DEPTH  = 16,
  parameter int CQE_DEPTH = 2 * SQ_DEPTH,   // > SQ_DEPTH: one event may complete a whole ring
  parameter int PAY_DEPTH = 32,             // response payload beats taken ahead of their decision (power of two)
  parameter int QAW       = $clog2(NQP),
  parameter int SAW       = $clog2(SQ_DEPTH)
) (
  input  wire logic                           clk,
  input  wire logic                           rst,
  input  wire logic                           qp_reset,
  input  wire logic [23:0]                    qp_reset_qpn,
  // responses from the RX path
  input  wire logic                           s_rsp_hdr_valid,
  output logic                                s_rsp_hdr_ready,
  // IP addresses, ports, ECN and most header fields are not needed here
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire roce_pkg::rx_hdr_t              s_rsp_hdr,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [roce_pkg::DATA_W-1:0]    s_axis_rsp_payload_tdata,
  // the DMA write takes its length from the command
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [roce_pkg::KEEP_W-1:0]    s_axis_rsp_payload_tkeep,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic                           s_axis_rsp_payload_tvalid,
  output logic                                s_axis_rsp_payload_tready,
  input  wire logic                           s_axis_rsp_payload_tlast,
  // requester events, timer expiries
  input  wire logic                           s_ev_valid,
  output logic                                s_ev_ready,
  input  wire roce_req_pkg::rev_t             s_ev,
  input  wire logic                           s_texp_valid,
  output logic                                s_texp_ready,
  input  wire roce_req_pkg::texp_t            s_texp,
  // to the requester: commands and kicks; to the timer: commands
  output logic                                m_cmd_valid,
  input  wire logic                           m_cmd_ready,
  output roce_req_pkg::rcmd_t                 m_cmd,
  output logic                                m_kick_valid,
  input  wire logic                           m_kick_ready,
  output logic [23:0]                         m_kick_qpn,
  output logic                                m_tcmd_valid,
  input  wire logic                           m_tcmd_ready,
  output roce_req_pkg::tcmd_t                 m_tcmd,
  // SQ (completer view of the WQEs), QP context, requester's published state
  output logic                                wqe_rd_en,
  output logic [QAW+SAW-1:0]                  wqe_rd_addr,
  input  wire roce_req_pkg::cwqe_t            wqe_rd_data,
  output logic                                ctx_rd_en,
  output logic [QAW-1:0]                      ctx_rd_qpn,
  input  wire roce_qp_pkg::qp_ctx_t           ctx_rd_data,
  output logic                                rpub_rd_en,
  output logic [QAW-1:0]                      rpub_rd_qpn,
  input  wire roce_req_pkg::rpub_t            rpub_rd_data,
  // our published state: read ports of the SQ and of the requester
  input  wire logic                           sq_cpub_rd_en,
  input  wire logic [QAW-1:0]                 sq_cpub_rd_qpn,
  output roce_req_pkg::cpub_t                 sq_cpub_rd_data,
  input  wire logic                           req_cpub_rd_en,
  input  wire logic [QAW-1:0]                 req_cpub_rd_qpn,
  output roce_req_pkg::cpub_t                 req_cpub_rd_data,
  // DMA write of READ response data and atomic results
  output logic                                m_dma_cmd_valid,
  input  wire logic                           m_dma_cmd_ready,
  output mem_pkg::dma_wr_cmd_t                m_dma_cmd,
  output logic [mem_pkg::DATA_W-1:0]          m_axis_dma_tdata,
  output logic [mem_pkg::STRB_W-1:0]          m_axis_dma_tkeep,
  output logic                                m_axis_dma_tvalid,
  input  wire logic                           m_axis_dma_tready,
  output logic                                m_axis_dma_tlast,
  // write completions: counted (in order); the status is not acted on
  input  wire logic                           s_dma_cpl_valid,
  output logic                                s_dma_cpl_ready,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire mem_pkg::dma_cpl_t              s_dma_cpl,
  /* verilator lint_on UNUSEDSIGNAL */
  // completions
  output logic                                m_cqe_valid,
  input  wire logic                           m_cqe_ready,
  output roce_qp_pkg::cqe_t                   m_cqe,
  // the QP went to ERROR (one cycle; for the QP table's state)
  output logic                                qp_err_valid,
  output logic [23:0]                         qp_err_qpn,
  // counters (wrap around)
  output logic [31:0]                         cnt_retry,      // resends started (NAK, timeout, implicit NAK)
  output logic [31:0]                         cnt_timeout,    // local ACK timeouts
  output logic [31:0]                         cnt_rnr,        // RNR NAKs waited on
  output logic [31:0]                         cnt_nak_seq,    // NAK PSN sequence error
  output logic [31:0]                         cnt_nak_inv,    // NAK invalid request (and invalid RD request)
  output logic [31:0]                         cnt_nak_acc,    // NAK remote access error
  output logic [31:0]                         cnt_nak_op,     // NAK remote operational error
  output logic [31:0]                         cnt_implicit,   // implicit NAKs (ACK beyond a READ/atomic)
  output logic [31:0]                         cnt_drop        // responses dropped (not outstanding, beyond the buffer, QP in ERROR)
);
  localparam int PW = roce_req_pkg::PTR_W;
  localparam int RW = roce_req_pkg::RDC_W;
  localparam logic [PW-1:0] PMASK = PW'(2 * SQ_DEPTH - 1);

  if ((1 << QAW) != NQP || (1 << SAW) != SQ_DEPTH) begin : g_bad
    $error("roce_comp: NQP and SQ_DEPTH must be powers of two");
  end
  if (SQ_DEPTH >= (1 << roce_req_pkg::RDC_W)) begin : g_bad_rdc
    $error("roce_comp: SQ_DEPTH must be below 2^RDC_W (progress counts READs retired in one event)");
  end
  if (CQE_DEPTH <= SQ_DEPTH) begin : g_bad_cqe
    $error("roce_comp: CQE_DEPTH must exceed SQ_DEPTH (an event may complete every WQE of a ring)");
  end

  // ------------------------------------------------------ per-QP state (RAM)
  typedef struct packed {
    logic           inited;
    logic           err;
    logic [PW-1:0]  cptr;
    logic [23:0]    fpsn;
    logic [23:0]    una;
    logic [2:0]     retry_left;
    logic [2:0]     rnr_left;
    logic [RW-1:0]  rd_done;
    logic           nak_v;       // a resend from una is under way (ignore repeats)
    logic           lerr_v;      // WQE lerr_ptr failed locally
    logic [PW-1:0]  lerr_ptr;
    logic [4:0]     lerr_st;
  } cst_t;
  localparam int CST_W = 2 + PW + 24 + 24 + 3 + 3 + RW + 1 + 1 + PW + 5;

  typedef enum logic [3:0] {
    S_INIT = 4'd0,
    S_IDLE = 4'd1,
    S_LD   = 4'd2,   // state, context, requester state read
    S_EVAL = 4'd3,
    S_WQE  = 4'd5,   // WQE data valid
    S_STEP = 4'd6,   // one retire step / the post action
    S_WB   = 4'd7,   // the event's outputs (and the next event taken)
    S_WX   = 4'd8    // WQE arithmetic from the registered WQE
  } state_e;

  typedef enum logic [2:0] {
    E_RSP   = 3'd0,
    E_ERR   = 3'd1,  // requester EV_LOCERR
    E_FLUSH = 3'd2,
    E_TEXP  = 3'd3
  } ev_e;

  // what follows the retire loop
  typedef enum logic [2:0] {
    P_NONE   = 3'd0,
    P_SEQ    = 3'd1,  // resend from una (sequence NAK, response gap)
    P_RNR    = 3'd2,
    P_FATAL  = 3'd3,  // complete WQE cptr with post_st, ERROR
    P_RDRESP = 3'd4,
    P_ATACK  = 3'd5,
    P_FLUSH  = 3'd6,
    P_TMO    = 3'd7   // ACK timeout
  } post_e;
  function automatic logic [7:0] post_oh(input post_e p);   // one-hot of a post kind
    post_oh = 8'(1) << p;
  endfunction

  state_e                 st_q, st_d;
  logic [QAW-1:0]         init_q, init_d;
  logic [QAW-1:0]         q_q, q_d;
  logic                   qok_q, qok_d;
  ev_e                    ev_q, ev_d;
  post_e                  post_q, post_d;
  logic [4:0]             post_st_q, post_st_d;
  logic [23:0]            lim_q, lim_d;
  logic [PW-1:0]          fhead_q, fhead_d;     // E_FLUSH: flush up to here
  // the response
  logic [23:0]            psn_q, psn_d;
  logic [7:0]             syn_q, syn_d;
  logic [15:0]            plen_q, plen_d;
  logic                   haspay_q, haspay_d;
  logic [63:0]            orig_q, orig_d;
  logic                   trnr_q, trnr_d;       // E_TEXP: RNR wait over
  // the QP
  cst_t                   ws_q, ws_d;
  cst_t                   wb_ws;                // ws_q as S_WB writes it back
  logic [23:0]            una0_q, una0_d;       // una when the event started
  logic [RW-1:0]          rdd0_q, rdd0_d;
  roce_qp_pkg::qp_ctx_t   ctx_q, ctx_d;
  roce_req_pkg::cwqe_t    wqe_q, wqe_d;
  // outputs of the event, pushed in S_WB
  logic                   cmd_v_q, cmd_v_d;
  roce_req_pkg::rcmd_kind_e cmdk_q, cmdk_d;
  logic                   rnrt_v_q, rnrt_v_d;   // TC_RNR instead of TC_UNA
  logic                   wr_v_q, wr_v_d;       // payload written (else dropped)
  logic                   gen_v_q, gen_v_d;     // atomic result written
  logic [63:0]            wr_addr_q, wr_addr_d;
  logic                   perr_q, perr_d;       // QP entered ERROR in this event

  logic [31:0] c_retry_q, c_retry_d, c_tmo_q, c_tmo_d, c_rnr_q, c_rnr_d, c_seq_q, c_seq_d;
  logic [31:0] c_inv_q, c_inv_d, c_acc_q, c_acc_d, c_op_q, c_op_d, c_imp_q, c_imp_d, c_drop_q, c_drop_d;
  logic [31:0] dma_iss_q, dma_iss_d, dma_done_q, dma_done_d;

  // state RAM
  logic                   sr_we, sr_re;
  logic [QAW-1:0]         sr_waddr, sr_raddr;
  cst_t                   sr_wdata, sr_rdata;
  roce_req_pkg::cpub_t    pub_wdata;

  // QP resets
  logic        rq_valid, rq_ready;
  logic [23:0] rq_qpn;
  // FIFO occupancy (count) is not needed, nor the in_ready of the QP reset
  // queues (resets are register writes, far apart: the queue never fills)
  /* verilator lint_off PINCONNECTEMPTY */
  lib_fifo #(.WIDTH(24), .DEPTH(16)) u_rst_q (
    .clk, .rst,
    .s_valid(qp_reset), .s_ready(), .s_data(qp_reset_qpn),
    .m_valid(rq_valid), .m_ready(rq_ready), .m_data(rq_qpn), .count()
  );

  // ------------------------------------------------------------ output FIFOs
  localparam int DEC_W = 2 + 64;   // {kind, atomic data}
  localparam logic [1:0] D_DROP = 2'd0, D_WRITE = 2'd1, D_GEN = 2'd2;
  logic                   cmd_push, cmd_in_ready;
  roce_req_pkg::rcmd_t    cmd_in;
  logic                   kick_push, kick_in_ready;
  logic                   tc_push, tc_in_ready;
  roce_req_pkg::tcmd_t    tc_in;
  logic                   dc_push, dc_in_ready;
  mem_pkg::dma_wr_cmd_t   dc_in;
  logic                   dec_push, dec_in_ready, dec_valid, dec_pop;
  logic [DEC_W-1:0]       dec_in, dec_out;
  logic                   cq_push, cq_in_ready, cq_valid, cq_pop;
  roce_qp_pkg::cqe_t      cq_in_cqe, cq_out_cqe;
  logic [31:0]            cq_in_tag, cq_out_tag;
  logic [$clog2(CQE_DEPTH):0] cq_count, cq_new_q, cq_new_d;   // CQEs pushed by the event under way
  logic [2:0]             cmd_cnt, kick_cnt, tc_cnt, dc_cnt;
  logic [3:0]             dec_cnt;

  // lib_fifo: valid, data and ready from flip-flops (a word is out 2 cycles
  // after its push)
  lib_fifo #(.WIDTH(roce_req_pkg::RCMD_W), .DEPTH(4)) u_cmd_q (
    .clk, .rst, .s_valid(cmd_push), .s_ready(cmd_in_ready), .s_data(cmd_in),
    .m_valid(m_cmd_valid), .m_ready(m_cmd_ready), .m_data(m_cmd), .count(cmd_cnt)
  );
  lib_fifo #(.WIDTH(24), .DEPTH(4)) u_kick_q (
    .clk, .rst, .s_valid(kick_push), .s_ready(kick_in_ready), .s_data(24'(q_q)),
    .m_valid(m_kick_valid), .m_ready(m_kick_ready), .m_data(m_kick_qpn), .count(kick_cnt)
  );
  lib_fifo #(.WIDTH(roce_req_pkg::TCMD_W), .DEPTH(4)) u_tc_q (
    .clk, .rst, .s_valid(tc_push), .s_ready(tc_in_ready), .s_data(tc_in),
    .m_valid(m_tcmd_valid), .m_ready(m_tcmd_ready), .m_data(m_tcmd), .count(tc_cnt)
  );
  lib_fifo #(.WIDTH(mem_pkg::ADDR_W + mem_pkg::LEN_W + mem_pkg::TAG_W), .DEPTH(4)) u_dc_q (
    .clk, .rst, .s_valid(dc_push), .s_ready(dc_in_ready), .s_data(dc_in),
    .m_valid(m_dma_cmd_valid), .m_ready(m_dma_cmd_ready), .m_data(m_dma_cmd), .count(dc_cnt)
  );
  lib_fifo #(.WIDTH(DEC_W), .DEPTH(8)) u_dec_q (
    .clk, .rst, .s_valid(dec_push), .s_ready(dec_in_ready), .s_data(dec_in),
    .m_valid(dec_valid), .m_ready(dec_pop), .m_data(dec_out), .count(dec_cnt)
  );
  lib_fifo #(.WIDTH(roce_qp_pkg::CQE_W + 32), .DEPTH(CQE_DEPTH)) u_cq_q (
    .clk, .rst, .s_valid(cq_push), .s_ready(cq_in_ready), .s_data({cq_in_cqe, cq_in_tag}),
    .m_valid(cq_valid), .m_ready(cq_pop), .m_data({cq_out_cqe, cq_out_tag}), .count(cq_count)
  );

  // CQE release into the output register: a CQE leaves once its event has
  // written the QP's state back (so a post that follows the CQE finds the
  // ring space) and every DMA write issued before it has completed
  // (dma_done - tag in [0, 2^31]).
  logic [31:0]       cq_ahead;
  logic              cq_ok;
  logic              cqo_v_q, cqo_v_d;
  roce_qp_pkg::cqe_t cqo_q, cqo_d;
  always_comb begin
    cq_ahead        = dma_done_q - cq_out_tag;
    cq_ok           = cq_valid && cq_count > cq_new_q && (!cq_ahead[31] || cq_ahead == 32'h8000_0000);
    cq_pop          = cq_ok && (!cqo_v_q || m_cqe_ready);
    cqo_v_d         = cq_pop || (cqo_v_q && !m_cqe_ready);
    cqo_d           = cq_pop ? cq_out_cqe : cqo_q;
    s_dma_cpl_ready = 1'b1;
    dma_done_d      = dma_done_q + 32'(s_dma_cpl_valid);
  end
  always_ff @(posedge clk) begin
    if (rst) cqo_v_q <= 1'b0;
    else     cqo_v_q <= cqo_v_d;
    cqo_q <= cqo_d;
  end
  assign m_cqe_valid = cqo_v_q;
  assign m_cqe       = cqo_q;

  // ------------------------------------------------------------ payload routing
  // Payload FIFO: the payload of a response flows in before its decision is
  // made, so the RX parser reaches the next header while this one is still
  // being decided: the per-header event cycles overlap the payload beats of
  // the packet before (line rate needs max(event, beats) <= the wire time of
  // a packet, not their sum; docs/transport.md, "READ responses at line rate").
  logic [roce_pkg::DATA_W-1:0] pf_data;
  logic                        pf_valid, pf_ready, pf_last;
  lib_fifo #(.WIDTH(roce_pkg::DATA_W + 1), .DEPTH(PAY_DEPTH)) u_pay_q (
    .clk, .rst,
    .s_valid(s_axis_rsp_payload_tvalid), .s_ready(s_axis_rsp_payload_tready),
    .s_data({s_axis_rsp_payload_tdata, s_axis_rsp_payload_tlast}),
    .m_valid(pf_valid), .m_ready(pf_ready), .m_data({pf_data, pf_last}), .count()
  );

  // One decision per response with payload (and one D_GEN per atomic result),
  // in header order; the DMA data leaves through a register slice.
  logic [1:0]                  dec_kind;
  logic [mem_pkg::DATA_W-1:0]  dd_data;
  logic [mem_pkg::STRB_W-1:0]  dd_keep;
  logic                        dd_valid, dd_ready, dd_last;
  always_comb begin
    dec_kind = dec_out[DEC_W-1 -: 2];
    dd_data  = pf_data;
    dd_keep  = '1;
    dd_last  = pf_last;
    dd_valid = 1'b0;
    pf_ready = 1'b0;
    dec_pop  = 1'b0;
    if (dec_valid) begin
      unique case (dec_kind)
        D_WRITE: begin
          dd_valid = pf_valid;
          pf_ready = dd_ready;
          dec_pop  = pf_valid && dd_ready && pf_last;
        end
        D_GEN: begin
          dd_data  = {{(mem_pkg::DATA_W - 64){1'b0}}, dec_out[63:0]};
          dd_keep  = {{(mem_pkg::STRB_W - 8){1'b0}}, 8'hFF};
          dd_last  = 1'b1;
          dd_valid = 1'b1;
          dec_pop  = dd_ready;
        end
        default: begin   // D_DROP
          pf_ready = 1'b1;
          dec_pop  = pf_valid && pf_last;
        end
      endcase
    end
  end
  lib_skid #(.WIDTH(mem_pkg::DATA_W + mem_pkg::STRB_W + 1)) u_dma_slice (
    .clk, .rst,
    .s_valid(dd_valid), .s_ready(dd_ready), .s_data({dd_data, dd_keep, dd_last}),
    .m_valid(m_axis_dma_tvalid), .m_ready(m_axis_dma_tready),
    .m_data({m_axis_dma_tdata, m_axis_dma_tkeep, m_axis_dma_tlast})
  );

  // Error statuses kept as 5-bit codes, back to the enum (Yosys 0.23 takes no
  // casts to another package's type).
  roce_qp_pkg::wc_status_e st_lerr, st_post;
  always_comb begin
    unique case (ws_q.lerr_st)
      5'd2:    st_lerr = roce_qp_pkg::WC_LOC_QP_OP_ERR;
      5'd4:    st_lerr = roce_qp_pkg::WC_LOC_PROT_ERR;
      5'd5:    st_lerr = roce_qp_pkg::WC_WR_FLUSH_ERR;
      default: st_lerr = roce_qp_pkg::WC_GENERAL_ERR;
    endcase
    unique case (post_st_q)
      5'd9:    st_post = roce_qp_pkg::WC_REM_INV_REQ_ERR;
      5'd10:   st_post = roce_qp_pkg::WC_REM_ACCESS_ERR;
      5'd11:   st_post = roce_qp_pkg::WC_REM_OP_ERR;
      5'd12:   st_post = roce_qp_pkg::WC_RETRY_EXC_ERR;
      5'd13:   st_post = roce_qp_pkg::WC_RNR_RETRY_EXC_ERR;
      default: st_post = roce_qp_pkg::WC_GENERAL_ERR;
    endcase
  end

  // ------------------------------------------------------------ WQE arithmetic
  // A stage ahead of the decisions, free running (each value is read only in
  // the state after the one it is computed in, from registers that hold):
  //   S_LD:  d = psn - una, o = maxpsn - una, o = 0 (for S_EVAL), psn + 1
  //   S_WQE: the response's packet index in the READ (psn - fpsn) and its
  //          byte offset; the WQE's PSN count (from the WQE RAM's output);
  //          lim - fpsn + 1, una0 - fpsn (for S_WX)
  //   S_WX:  from the registered WQE: its kind, its last PSN + 1, the
  //          response's fit in the buffer and its data address; last PSN <
  //          lim, last PSN + 1 = lim, last PSN + 1 != una0 (for S_STEP)
  logic [12:0]  pmtu_b, pmtu_q;
  logic [3:0]   shift, shift_q;   // registered: valid from S_EVAL on
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]  w_pk;        // [31:24] always 0 (a WQE is < 2^31 bytes, packets >= 256)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [23:0]  npsn_q, npsn_d;        // the WQE's PSN count (S_WQE: wqe_q's)
  logic         w_at, r_at;
  logic [23:0]  a1_q, a1_d;            // lim - fpsn + 1
  logic [23:0]  k_q, k_d;              // una0 - fpsn
  logic [23:0]  lle;                   // lim - last PSN
  logic         lpl_q, lpl_d;          // last PSN < lim
  logic         le1_q, le1_d;          // last PSN + 1 = lim
  logic         nel1_q, nel1_d;        // last PSN + 1 != una0
  logic         oz_q, oz_d;            // o = 0
  logic [23:0]  ld_una;
  logic [23:0]  rk;                    // the response's packet index in the READ
  logic [23:0]  d_q, d_d, o_q, o_d, psn1_q, psn1_d;
  logic [23:0]  rk1_q, rk1_d;          // psn - fpsn + 1
  logic [32:0]  roff_q, roff_d;        // (psn - fpsn) x PMTU
  logic         w_rd_q, w_rd_d, w_at_q, w_at_d, w_rdat_q, w_rdat_d;
  roce_qp_pkg::wc_opcode_e w_wcop_q, w_wcop_d;
  logic [23:0]  lpsn1_q, lpsn1_d;      // the WQE's last PSN + 1
  logic         rfit_q, rfit_d, rlast_q, rlast_d;  // response inside the buffer; its last PSN
  logic [63:0]  raddr_q, raddr_d;
  always_comb begin
    pmtu_b = roce_qp_pkg::pmtu_bytes(ctx_q.pmtu);
    unique case (pmtu_b)
      13'd512:  shift = 4'd9;
      13'd1024: shift = 4'd10;
      13'd2048: shift = 4'd11;
      13'd4096: shift = 4'd12;
      default:  shift = 4'd8;
    endcase
    // S_LD
    d_d    = psn_q - ld_una;
    o_d    = (rpub_rd_data.inited ? rpub_rd_data.maxpsn : ld_una) - ld_una;
    oz_d   = !rpub_rd_data.inited || rpub_rd_data.maxpsn == ld_una;
    psn1_d = psn_q + 24'd1;
    // S_WQE
    rk1_d  = psn1_q - ws_q.fpsn;
    rk     = psn_q - ws_q.fpsn;
    roff_d = 33'(rk) << shift_q;
    r_at   = wqe_rd_data.opcode == roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP ||
             wqe_rd_data.opcode == roce_qp_pkg::WR_ATOMIC_FETCH_AND_ADD;
    w_pk   = (wqe_rd_data.len + 32'(pmtu_q) - 32'd1) >> shift_q;
    npsn_d = (st_q != S_WQE) ? npsn_q : (r_at || wqe_rd_data.len == '0) ? 24'd1 : w_pk[23:0];
    a1_d   = lim_q - ws_q.fpsn + 24'd1;
    k_d    = una0_q - ws_q.fpsn;
    // S_WX
    w_rd_d   = wqe_q.opcode == roce_qp_pkg::WR_RDMA_READ;
    w_at     = wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP || wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_FETCH_AND_ADD;
    w_at_d   = w_at;
    w_rdat_d = w_rd_d || w_at;
    lpsn1_d  = ws_q.fpsn + npsn_q;
    rlast_d  = rk1_q == npsn_q;
    lle      = a1_q - npsn_q;
    lpl_d    = lle != '0 && !lle[23];    // roce_req_pkg::psn_lt(last PSN, lim)
    le1_d    = lle == 24'd1;
    nel1_d   = npsn_q != k_q;
    rfit_d   = 34'(roff_q) + 34'(plen_q) <= 34'(wqe_q.len);
    raddr_d  = wqe_q.laddr + 64'(roff_q);
    unique case (wqe_q.opcode)
      roce_qp_pkg::WR_RDMA_WRITE, roce_qp_pkg::WR_RDMA_WRITE_WITH_IMM: w_wcop_d = roce_qp_pkg::WC_OP_RDMA_WRITE;
      roce_qp_pkg::WR_RDMA_READ:            w_wcop_d = roce_qp_pkg::WC_OP_RDMA_READ;
      roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP:   w_wcop_d = roce_qp_pkg::WC_OP_COMP_SWAP;
      roce_qp_pkg::WR_ATOMIC_FETCH_AND_ADD: w_wcop_d = roce_qp_pkg::WC_OP_FETCH_ADD;
      default:                              w_wcop_d = roce_qp_pkg::WC_OP_SEND;
    endcase
  end

  always_ff @(posedge clk) begin
    pmtu_q <= pmtu_b;  shift_q <= shift;
    d_q <= d_d;  o_q <= o_d;  psn1_q <= psn1_d;  rk1_q <= rk1_d;  roff_q <= roff_d;
    w_rd_q <= w_rd_d;  w_at_q <= w_at_d;  w_rdat_q <= w_rdat_d;  w_wcop_q <= w_wcop_d;
    npsn_q <= npsn_d;  a1_q <= a1_d;  k_q <= k_d;  lpl_q <= lpl_d;  le1_q <= le1_d;  nel1_q <= nel1_d;
    oz_q <= oz_d;  lpsn1_q <= lpsn1_d;  rlast_q <= rlast_d;  rfit_q <= rfit_d;  raddr_q <= raddr_d;
  end

  // ------------------------------------------------------------ the FSM
  // The decisions of an event, one always_comb per kind, each from registered
  // values; the FSM below applies the one its state asks for:
  //   intake       S_INIT, S_IDLE, S_LD: take an event, load the QP's state
  //   evaluation   S_EVAL: what the response or event means (ACK/NAK classes)
  //   retire       S_STEP: flush, local error reached, WQEs acknowledged
  //   resend       S_STEP post action: sequence NAK, timeout, RNR NAK, fatal NAK
  //   response     S_STEP post action: READ response, atomic ACK, retire the READ
  //   write back   S_WB: every output of the event (and the state RAM's port)

  logic wb_go;              // S_WB: every output has room
  // The WQE read, from flip-flops: the WQE at cptr in S_EVAL (unused when the
  // event ends there), at cptr + 1 in every S_STEP cycle (used when the step
  // moves cptr on and goes to S_WQE) and in the cycle after it (unused).
  // From the present state only (S_EVAL follows S_LD, S_STEP follows S_WX or
  // S_STEP).
  logic rd_en_q, rd_en_d, rd_inc_q, rd_inc_d;
  always_comb begin
    rd_en_d  = st_q == S_LD || st_q == S_WX || st_q == S_STEP;
    rd_inc_d = st_q == S_WX || st_q == S_STEP;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      rd_en_q  <= 1'b0;
      rd_inc_q <= 1'b0;
    end else begin
      rd_en_q  <= rd_en_d;
      rd_inc_q <= rd_inc_d;
    end
  end
  assign wqe_rd_en   = rd_en_q;
  assign wqe_rd_addr = {q_q, ws_q.cptr[SAW-1:0] + SAW'(rd_inc_q)};
  logic        qerr_q, qerr_d;
  logic [23:0] qerr_qpn_q;
  logic ult_q, ult_d;       // una < lim (from S_WX)

  // CQEs of the event under way (the newest entries of the CQE FIFO)
  always_comb begin
    cq_new_d = cq_new_q + ($clog2(CQE_DEPTH)+1)'(cq_push);
    if (st_q == S_WB && wb_go) cq_new_d = '0;
  end

  logic        progress;
  logic        une_q, une_d;               // ws_q.una != una0_q
  logic        rdp_q, rdp_d;               // ws_q.rd_done != rdd0_q (a READ/atomic retired)
  logic        nel_q, nep1_q;              // lim_q, psn1_q != una0_q (free running)
  // S_STEP's WQE pointer checks, a cycle ahead (free running: cptr and the
  // local error do not change between S_WX and S_STEP, nor from S_STEP to S_STEP)
  logic        lerr_here_q, lerr_here_d;   // WQE cptr failed locally
  logic        lerr_next_q, lerr_next_d;   // WQE cptr + 1 did
  logic        fmore_q, fmore_d;           // E_FLUSH: WQEs left before fhead
  logic        ne_una, ne_l1, ne_lim, ne_psn1;   // una would differ from una0
  always_comb begin
    ne_una    = une_q;
    ne_l1     = nel1_q;
    ne_lim    = nel_q;
    ne_psn1   = nep1_q;
    lerr_here_d = ws_q.lerr_v && ws_q.cptr == ws_q.lerr_ptr;
    lerr_next_d = ws_q.lerr_v && ((ws_q.cptr + PW'(1)) & PMASK) == ws_q.lerr_ptr;
    fmore_d     = ws_q.cptr != (fhead_q & PMASK);
    progress  = une_q || rdp_q;
  end
  always_ff @(posedge clk) begin
    lerr_here_q <= lerr_here_d;  lerr_next_q <= lerr_next_d;  fmore_q <= fmore_d;
    nel_q <= lim_q != una0_q;  nep1_q <= psn1_q != una0_q;
  end

  // ------------------------------------------------ event outputs (data)
  logic                    cq_err;      // an error completion (no length)
  roce_qp_pkg::wc_status_e cq_err_st;
  always_comb begin
    cmd_in         = '0;
    cmd_in.kind    = cmdk_q;
    cmd_in.qpn     = 24'(q_q);
    cmd_in.ptr     = ws_q.cptr;
    cmd_in.fpsn    = ws_q.fpsn;
    cmd_in.psn     = ws_q.una;
    cmd_in.rd_done = ws_q.rd_done;
    tc_in          = '0;
    tc_in.kind     = rnrt_v_q ? roce_req_pkg::TC_RNR : roce_req_pkg::TC_UNA;
    tc_in.qpn      = 24'(q_q);
    tc_in.psn      = ws_q.una;
    tc_in.rnr      = syn_q[4:0];
    dc_in.addr     = wr_addr_q;
    dc_in.len      = gen_v_q ? 32'd8 : 32'(plen_q);
    dc_in.tag      = 8'(q_q);
    dec_in         = {wr_v_q ? D_WRITE : (gen_v_q ? D_GEN : D_DROP), orig_q};
    cq_in_cqe          = '0;
    cq_in_cqe.wr_id    = wqe_q.wr_id;
    cq_in_cqe.status   = cq_err ? cq_err_st : roce_qp_pkg::WC_SUCCESS;
    cq_in_cqe.opcode   = w_wcop_q;
    cq_in_cqe.byte_len = cq_err ? 32'd0 : (w_at_q ? 32'd8 : wqe_q.len);
    cq_in_cqe.qpn      = 24'(q_q);
    // a READ's last data write may be issued in this very event (S_WB)
    cq_in_tag          = dma_iss_q + 32'(wr_v_q || gen_v_q);
  end

  // ------------------------------------------------ event inputs: register slices
  // Each event input through a lib_skid (its ready from a flip-flop). The
  // response header is cut down to what the completer uses, its checks made
  // before the slice.
  typedef struct packed {
    logic [23:0] qpn;
    logic        ok;        // a response (READ response, ACK, atomic ACK) for a QPN of the table
    logic [23:0] psn;
    logic [7:0]  syn;       // AETH syndrome (0 without an AETH)
    logic [15:0] plen;
    logic        haspay;
    logic [63:0] orig;
    post_e       post;      // READ response / atomic ACK / ACK-NAK
  } rsp_t;
  localparam int RSP_W = 24 + 1 + 24 + 8 + 16 + 1 + 64 + 3;
  logic r_pack;   // the header is a plain ACK (an ACK with no payload for a QP of the table): it may merge
  // The class of the response in the slice's register (S_EVAL's, for an
  // outstanding response), registered free running (hx_q: the class of the
  // header taken in the cycle before, loaded into sx_* in S_LD): ACK (lim =
  // psn + 1), sequence NAK, invalid request / remote access / remote
  // operational NAK, reserved syndrome or NAK code (dropped); the post kind
  // it leads to (and one-hot) and its status.
  typedef struct packed {
    logic        x_ack, x_seq, x_inv, x_acc, x_op, x_bad;
    post_e       x_post;
    logic [7:0]  x_pf;
    logic [4:0]  x_fst;
  } rcls_t;
  rcls_t      hx, hx_q;
  logic [2:0] r_cls;
  logic [4:0] r_code;
  logic       r_rdr, r_ata, r_c0, r_c1, r_c3, r_fat;   // READ response, atomic ACK, AETH classes 0, 1, 3
  logic [4:0] r_k;                                     // NAK code k

  rsp_t                 rsp_in, h;
  logic                 h_v, h_take;
  roce_req_pkg::rev_t   e;
  logic                 e_v, e_take;
  roce_req_pkg::texp_t  t;
  logic                 t_v, t_take;
  always_comb begin
    rsp_in.qpn    = s_rsp_hdr.hdr.bth.dqpn;
    rsp_in.ok     = s_rsp_hdr.hdr.bth.dqpn[23:QAW] == '0 && s_rsp_hdr.hdr.bth.dqpn != '0 &&
                    s_rsp_hdr.info.valid && !s_rsp_hdr.info.request &&
                    (s_rsp_hdr.info.kind == roce_pkg::KIND_READ_RESP || s_rsp_hdr.info.kind == roce_pkg::KIND_ACK ||
                     s_rsp_hdr.info.kind == roce_pkg::KIND_ATOMIC_ACK);
    rsp_in.psn    = s_rsp_hdr.hdr.bth.psn;
    rsp_in.syn    = s_rsp_hdr.info.aeth ? s_rsp_hdr.hdr.aeth.syndrome : 8'h00;
    rsp_in.plen   = s_rsp_hdr.pay_len;
    rsp_in.haspay = s_rsp_hdr.info.has_payload && s_rsp_hdr.pay_len != '0;
    rsp_in.orig   = s_rsp_hdr.hdr.atomicacketh.orig;
    rsp_in.post   = s_rsp_hdr.info.kind == roce_pkg::KIND_READ_RESP  ? P_RDRESP :
                    s_rsp_hdr.info.kind == roce_pkg::KIND_ATOMIC_ACK ? P_ATACK  : P_NONE;
    r_pack        = rsp_in.ok && s_rsp_hdr.info.kind == roce_pkg::KIND_ACK && s_rsp_hdr.info.aeth &&
                    s_rsp_hdr.hdr.aeth.syndrome[7:5] == 3'b000 && !rsp_in.haspay;
  end
  // the slice merges plain ACKs of one QP while they wait (roce_rsp_merge):
  // the completer retires their WQEs in one event
  roce_rsp_merge #(.WIDTH(RSP_W), .QAW(QAW)) u_rsp_slice (
    .clk, .rst, .s_valid(s_rsp_hdr_valid), .s_ready(s_rsp_hdr_ready), .s_data(rsp_in),
    .s_pack(r_pack), .s_qpn(rsp_in.qpn[QAW-1:0]), .s_psn(rsp_in.psn[11:0]),
    .m_valid(h_v), .m_ready(h_take), .m_data(h)
  );
  always_comb begin
    r_rdr         = h.post == P_RDRESP;
    r_ata         = h.post == P_ATACK;
    r_cls         = h.syn[7:5];
    r_code        = h.syn[4:0];
    r_c0          = !r_rdr && !r_ata && r_cls == 3'b000;
    r_c1          = !r_rdr && !r_ata && r_cls == 3'b001;
    r_c3          = !r_rdr && !r_ata && r_cls == 3'b011;
    for (int k = 0; k < 5; k++) r_k[k] = r_code == 5'(k);
    hx.x_ack  = r_c0;
    hx.x_seq  = r_c3 && r_k[0];
    hx.x_inv  = r_c3 && (r_k[1] || r_k[4]);
    hx.x_acc  = r_c3 && r_k[2];
    hx.x_op   = r_c3 && r_k[3];
    hx.x_bad  = !r_rdr && !r_ata && !r_c0 && !r_c1 && !(r_c3 && r_k != '0);
    r_fat         = r_c3 && (r_k[1] || r_k[2] || r_k[3] || r_k[4]);
    hx.x_pf   = '0;
    hx.x_pf[P_RDRESP] = r_rdr;
    hx.x_pf[P_ATACK]  = r_ata;
    hx.x_pf[P_RNR]    = r_c1;
    hx.x_pf[P_SEQ]    = r_c3 && r_k[0];
    hx.x_pf[P_FATAL]  = r_fat;
    hx.x_pf[P_NONE]   = !r_rdr && !r_ata && !r_c1 && !(r_c3 && r_k != '0);
    hx.x_post = r_rdr ? P_RDRESP : r_ata ? P_ATACK : r_c1 ? P_RNR : (r_c3 && r_k[0]) ? P_SEQ :
                r_fat ? P_FATAL : P_NONE;
    hx.x_fst  = (r_c3 && (r_k[1] || r_k[4])) ? roce_qp_pkg::WC_REM_INV_REQ_ERR :
                (r_c3 && r_k[2]) ? roce_qp_pkg::WC_REM_ACCESS_ERR : (r_c3 && r_k[3]) ? roce_qp_pkg::WC_REM_OP_ERR : 5'd0;
  end
  always_ff @(posedge clk) hx_q <= hx;
  lib_skid #(.WIDTH(roce_req_pkg::REV_W)) u_ev_slice (
    .clk, .rst, .s_valid(s_ev_valid), .s_ready(s_ev_ready), .s_data(s_ev),
    .m_valid(e_v), .m_ready(e_take), .m_data(e)
  );
  lib_skid #(.WIDTH(roce_req_pkg::TEXP_W)) u_texp_slice (
    .clk, .rst, .s_valid(s_texp_valid), .s_ready(s_texp_ready), .s_data(s_texp),
    .m_valid(t_v), .m_ready(t_take), .m_data(t)
  );

  // ------------------------------------------------ intake (S_INIT, S_IDLE or S_WB done, S_LD)
  // The next event is taken in S_IDLE or in the cycle S_WB writes the last
  // one's state back; the row read then is the old one when the QP is the
  // same: S_LD takes ws_q instead (fwd_q). The state, context and requester
  // state are read at the QPN of the first waiting event in every cycle (one
  // LUT after the slices); S_LD uses the read of the cycle the event is taken.
  logic        acc;         // an event may be taken now
  logic        fwd_ok;
  logic        in_go;       // an event taken
  logic        fwd_q, fwd_d;
  cst_t        ld_raw;
  post_e       in_post;
  logic [4:0]  in_post_st;
  cst_t        ld_ws;       // S_LD: the QP's state (a fresh row when never used)
  always_comb begin
    init_d = init_q;  q_d = q_q;  qok_d = qok_q;  ev_d = ev_q;  fhead_d = fhead_q;
    psn_d = psn_q;  syn_d = syn_q;  plen_d = plen_q;  haspay_d = haspay_q;  orig_d = orig_q;
    trnr_d = trnr_q;  una0_d = una0_q;  rdd0_d = rdd0_q;  ctx_d = ctx_q;
    rq_ready = 1'b0;  h_take = 1'b0;  e_take = 1'b0;  t_take = 1'b0;  sx_ld = 1'b0;
    sr_re      = 1'b1;             // every cycle: only the read of the cycle an event is taken is used
    sr_raddr   = h_v ? h.qpn[QAW-1:0] : e_v ? e.qpn[QAW-1:0] : t.qpn[QAW-1:0];
    ctx_rd_en  = 1'b1;
    rpub_rd_en = 1'b1;
    in_go = 1'b0;  in_post = P_NONE;  in_post_st = '0;  fwd_d = 1'b0;
    acc    = (st_q == S_IDLE || (st_q == S_WB && wb_go)) && !rq_valid;
    // the row S_WB writes in this cycle is read old: forward it (the QPN
    // compared per source)
    fwd_ok = st_q == S_WB && qok_q;
    ld_raw = fwd_q ? wb_ws : sr_rdata;
    ld_ws  = ld_raw;
    if (!ld_raw.inited) begin
      ld_ws            = '0;
      ld_ws.inited     = 1'b1;
      ld_ws.fpsn       = ctx_rd_data.sq_psn;
      ld_ws.una        = ctx_rd_data.sq_psn;
      ld_ws.retry_left = ctx_rd_data.retry_cnt;
      ld_ws.rnr_left   = ctx_rd_data.rnr_retry;
    end
    ld_una = ld_ws.una;
    unique case (st_q)
      S_INIT: init_d = init_q + QAW'(1);
      S_IDLE, S_WB: begin
        if (st_q == S_IDLE || wb_go) haspay_d = 1'b0;
        if (st_q == S_IDLE && rq_valid) begin
          rq_ready = 1'b1;
        end else if (!acc) begin
          // S_WB waits for room
        end else if (h_v) begin
          h_take   = 1'b1;
          sx_ld    = 1'b1;
          ev_d     = E_RSP;
          q_d      = h.qpn[QAW-1:0];
          qok_d    = h.ok;               // else not a response for us: dropped
          psn_d    = h.psn;
          syn_d    = h.syn;
          plen_d   = h.plen;
          haspay_d = h.haspay;
          orig_d   = h.orig;
          fwd_d    = fwd_ok && h.qpn[QAW-1:0] == q_q;
          in_post  = h.post;
          in_go    = 1'b1;
        end else if (e_v) begin
          e_take     = 1'b1;
          ev_d       = (e.kind == roce_req_pkg::EV_FLUSH) ? E_FLUSH : E_ERR;
          q_d        = e.qpn[QAW-1:0];
          qok_d      = e.qpn[23:QAW] == '0;
          fhead_d    = e.ptr;
          in_post_st = e.status;
          fwd_d      = fwd_ok && e.qpn[QAW-1:0] == q_q;
          in_go      = 1'b1;
        end else if (t_v) begin
          t_take   = 1'b1;
          ev_d     = E_TEXP;
          q_d      = t.qpn[QAW-1:0];
          qok_d    = t.qpn[23:QAW] == '0;
          trnr_d   = t.rnr;
          fwd_d    = fwd_ok && t.qpn[QAW-1:0] == q_q;
          in_go    = 1'b1;
        end
      end
      S_LD: begin
        una0_d   = ld_ws.una;
        rdd0_d   = ld_ws.rd_done;
        ctx_d    = ctx_rd_data;
        // a QP that never sent anything keeps its row untouched
        if (!ld_raw.inited && !rpub_rd_data.inited && ev_q != E_ERR) qok_d = 1'b0;
      end
      default: ;
    endcase
  end

  // ------------------------------------------------ evaluation (S_EVAL)
  // What the response's syndrome and kind say (sx_*: hx_q, classified from
  // the slice's register in the cycle it was taken, loaded in S_LD): S_EVAL
  // only adds whether the response is outstanding and the QP's state.
  logic        sx_ack, sx_seq, sx_inv, sx_acc, sx_op, sx_bad;
  logic [7:0]  sx_pf;       // the post kind an outstanding response leads to (one-hot)
  post_e       sx_post;
  logic [4:0]  sx_fst;      // its status (P_FATAL)
  logic        sx_ld, sx_ld_q;   // a response taken (in the cycle before S_LD)
  logic        sx_go;       // the event is a response with a known syndrome (E_RSP && !sx_bad)
  always_ff @(posedge clk) begin
    if (rst) sx_ld_q <= 1'b0;
    else     sx_ld_q <= sx_ld;
    if (st_q == S_LD) begin
      sx_go  <= sx_ld_q && !hx_q.x_bad;
      sx_ack <= hx_q.x_ack;  sx_seq <= hx_q.x_seq;  sx_inv <= hx_q.x_inv;  sx_acc <= hx_q.x_acc;
      sx_op <= hx_q.x_op;  sx_bad <= hx_q.x_bad;  sx_post <= hx_q.x_post;  sx_pf <= hx_q.x_pf;
      sx_fst <= hx_q.x_fst;
    end
  end

  state_e      ev_st;
  post_e       ev_post;
  logic [7:0]  ev_pf;       // post_oh(ev_post)
  logic [4:0]  ev_post_st;
  logic [23:0] ev_lim;
  logic        ev_lerr, ev_resend;
  logic        ev_drop, ev_seq, ev_inv, ev_acc, ev_op, ev_tmo;
  logic        ev_out;      // E_RSP: outstanding, on a QP not in ERROR
  (* keep *) logic ev_lt;   // the carry chain's result, apart from what follows
  logic        ev_rgo;      // E_RSP: outstanding with a known syndrome
  logic        ev_fl, ev_tmr;
  always_comb begin
    ev_lt   = d_q < o_q;                           // (o = 0: d >= o)
    ev_out  = !ws_q.err && ev_lt;
    ev_rgo  = qok_q && sx_go && ev_out;           // (sx_go: E_RSP && !sx_bad)
    ev_fl   = qok_q && ev_q == E_FLUSH && ws_q.err;
    ev_tmr  = qok_q && ev_q == E_TEXP && !ws_q.err && !trnr_q && !oz_q;
    ev_drop = ev_q == E_RSP && !ev_rgo;             // not for us, not outstanding (duplicate, stale, bogus), reserved
    ev_seq  = ev_rgo && sx_seq;
    ev_inv  = ev_rgo && sx_inv;
    ev_acc  = ev_rgo && sx_acc;
    ev_op   = ev_rgo && sx_op;
    ev_tmo  = ev_tmr;
    ev_lerr = qok_q && ev_q == E_ERR && !ws_q.err && !ws_q.lerr_v;
    ev_resend = qok_q && ev_q == E_TEXP && !ws_q.err && trnr_q;   // RNR wait over: resend
    ev_post    = ev_rgo ? sx_post : ev_fl ? P_FLUSH : ev_tmr ? P_TMO : post_q;
    ev_pf      = ev_rgo ? sx_pf : ev_fl ? post_oh(P_FLUSH) : ev_tmr ? post_oh(P_TMO) : pf_q;
    ev_post_st = ev_rgo ? sx_fst : post_st_q;
    ev_lim     = (ev_rgo && sx_ack) ? psn1_q : ev_rgo ? psn_q : ws_q.una;
    // on to the WQE: a response outstanding, a local error (not in ERROR), a
    // flush (in ERROR), a timeout with PSNs outstanding
    ev_st = (ev_rgo || ev_fl || ev_tmr || (qok_q && ev_q == E_ERR && !ws_q.err)) ? S_WQE : S_WB;
  end

  // ------------------------------------------------ retire (S_STEP): flush, local error, ACKed WQEs
  // The sub-case is chosen a cycle ahead (S_WX, with the block: brt_q) into
  // one-hot flags that hold through the S_STEP cycles waiting for CQE room
  // (nothing they are made of changes then):
  //   rk_fl   flush one more WQE          rk_fle  flush done
  //   rk_le   WQE cptr failed locally     rk_imp  implicit NAK (READ/atomic)
  //   rk_ack  WQEs acknowledged: the whole WQE (lpl_q) or una = lim
  // rk_acks: rk_ack and the WQE signaled; rk_sc: the message-rate shortcut
  // but for last PSN + 1 = lim (le1_q, from S_WX's arithmetic).
  logic        rk_fl_q, rk_fl_d, rk_fle_q, rk_fle_d, rk_le_q, rk_le_d, rk_imp_q, rk_imp_d;
  logic        rk_ack_q, rk_ack_d, rk_acks_q, rk_acks_d, rk_sc_q, rk_sc_d, rk_idrop_q, rk_idrop_d;
  logic [PW-1:0] cptr1_q, cptr1_d;   // (cptr + 1) mod 2 x SQ_DEPTH (free running: cptr holds from S_WQE to its S_STEPs)
  logic        rt_hit;      // one of these applies (else the post action)
  state_e      rt_st;
  cst_t        rt_ws;
  post_e       rt_post;
  logic [23:0] rt_lim;
  logic        rt_push, rt_err, rt_fail, rt_imp, rt_drop;
  logic        rt_une;      // the new una differs from una0
  logic        rt_clr;      // una >= lim from now on
  logic        rt_whole;    // the whole WQE acknowledged and retired now
  logic        rt_lgo;      // the local error's completion pushed now
  roce_qp_pkg::wc_status_e rt_err_st;
  always_comb begin
    rt_hit    = rk_fl_q || rk_fle_q || rk_le_q || rk_imp_q || rk_ack_q;
    rt_whole  = rk_ack_q && lpl_q && (!wqe_q.signaled || cq_in_ready);
    rt_lgo    = rk_le_q && cq_in_ready;
    rt_push   = cq_in_ready && (rk_fl_q || rk_le_q || (rk_acks_q && lpl_q));
    rt_err    = rk_fl_q || rk_le_q;
    rt_err_st = rk_le_q ? st_lerr : roce_qp_pkg::WC_WR_FLUSH_ERR;
    rt_fail   = rt_lgo;
    rt_imp    = rk_imp_q;
    rt_drop   = rk_idrop_q;   // a response past missing responses is not used
    rt_clr    = rk_imp_q || (rk_ack_q && !lpl_q);
    rt_post   = rk_imp_q ? P_SEQ : post_q;   // implicit NAK: resend from una like a sequence NAK
    rt_lim    = rk_imp_q ? ws_q.una : lim_q;
    rt_une    = rt_whole ? ne_l1 : (rk_ack_q && !lpl_q) ? ne_lim : ne_una;
    rt_ws     = ws_q;
    if ((rk_fl_q && cq_in_ready) || rt_lgo || rt_whole) rt_ws.cptr = cptr1_q;
    if (rt_lgo) begin
      rt_ws.err    = 1'b1;
      rt_ws.lerr_v = 1'b0;
    end
    if (rt_whole) begin
      rt_ws.fpsn = lpsn1_q;
      rt_ws.una  = lpsn1_q;
    end else if (rk_ack_q && !lpl_q) begin
      rt_ws.una  = lim_q;
    end
    if (rk_ack_q && (!lpl_q || rt_whole)) rt_ws.nak_v = 1'b0;
    // next: S_WQE after a WQE moved on (the next one was read in this cycle:
    // S_STEP reads cptr + 1), S_WB when done (a plain ACK that ends exactly
    // at this WQE with nothing more to retire: the message-rate shortcut),
    // else S_STEP (waiting for CQE room, or the post action)
    rt_st = S_STEP;
    if ((rk_fl_q && cq_in_ready) || (rt_whole && !(rk_sc_q && le1_q))) rt_st = S_WQE;
    if (rk_fle_q || rt_lgo || (rt_whole && rk_sc_q && le1_q)) rt_st = S_WB;
  end

  // ------------------------------------------------ the post kind as one-hot flags
  // pf_q[k]: post_q == k; p31_q: post_st_q == 31 (a READ/atomic to retire).
  // Kept beside post_q, set from the same choices (S_STEP: from the
  // sub-cases that change the post kind), so S_STEP's decisions test a
  // flip-flop per kind instead of decoding post_q.
  logic [7:0]  pf_q, pf_d;
  logic        p31_q, p31_d;

  // ------------------------------------------------ resend (S_STEP post action): NAK, timeout, RNR, fatal
  logic        rs_hit;
  state_e      rs_st;
  cst_t        rs_ws;
  post_e       rs_post;
  logic [4:0]  rs_post_st;
  logic        rs_cmd, rs_rnrt, rs_push, rs_fail, rs_retry, rs_rnr;
  logic        rs_dup;      // a resend from una is already under way (a repeated sequence NAK)
  logic        rs_rexh, rs_nexh, rs_rgo, rs_ngo, rs_fatal;
  roce_req_pkg::rcmd_kind_e rs_cmdk;
  always_comb begin
    rs_hit   = pf_q[P_SEQ] || pf_q[P_TMO] || pf_q[P_RNR] || pf_q[P_FATAL];
    rs_dup   = pf_q[P_SEQ] && ws_q.nak_v && !progress;
    rs_rexh  = (pf_q[P_SEQ] || pf_q[P_TMO]) && !rs_dup && ws_q.retry_left == '0;   // retries exhausted
    rs_rgo   = (pf_q[P_SEQ] || pf_q[P_TMO]) && !rs_dup && ws_q.retry_left != '0;   // resend
    rs_nexh  = pf_q[P_RNR] && ctx_q.rnr_retry != 3'd7 && ws_q.rnr_left == '0;        // RNR retries exhausted
    rs_ngo   = pf_q[P_RNR] && !(ctx_q.rnr_retry != 3'd7 && ws_q.rnr_left == '0);     // pause, wait, resend
    rs_fatal = rs_rexh || rs_nexh;
    rs_st = S_WB;  rs_ws = ws_q;  rs_post = post_q;  rs_post_st = post_st_q;
    rs_cmd = rs_rgo || rs_ngo;  rs_cmdk = rs_ngo ? roce_req_pkg::RC_PAUSE : roce_req_pkg::RC_RETRY;
    rs_rnrt = rs_ngo;  rs_retry = rs_rgo;  rs_rnr = rs_ngo;
    rs_push = pf_q[P_FATAL] && cq_in_ready;
    rs_fail = pf_q[P_FATAL] && cq_in_ready;
    if (rs_fatal) begin
      rs_post    = P_FATAL;
      rs_post_st = rs_rexh ? roce_qp_pkg::WC_RETRY_EXC_ERR : roce_qp_pkg::WC_RNR_RETRY_EXC_ERR;
    end
    if (rs_fatal || (pf_q[P_FATAL] && !cq_in_ready)) rs_st = S_STEP;
    if (rs_rgo) rs_ws.retry_left = ws_q.retry_left - 3'd1;
    if (rs_ngo && ctx_q.rnr_retry != 3'd7) rs_ws.rnr_left = ws_q.rnr_left - 3'd1;
    if (rs_rgo || rs_ngo) rs_ws.nak_v = 1'b1;   // (RNR: a sequence NAK at this PSN is the same episode)
    if (rs_fail) begin
      rs_ws.cptr = cptr1_q;
      rs_ws.err  = 1'b1;
    end
  end

  // ------------------------------------------------ response (S_STEP post action): READ data, atomic result
  state_e      rr_st;
  cst_t        rr_ws;
  post_e       rr_post;
  logic [4:0]  rr_post_st;
  logic        rr_wset, rr_gen, rr_push, rr_drop, rr_une, rr_rdinc;
  logic        rr_rd, rr_ret, rr_retgo, rr_none;
  logic [63:0] rr_addr;
  always_comb begin
    rr_rd    = pf_q[P_RDRESP] && w_rd_q;                 // READ data at this PSN
    rr_gen   = pf_q[P_ATACK] && w_at_q;                  // the atomic's result
    rr_drop  = (pf_q[P_RDRESP] && !(w_rd_q && rfit_q)) || // no READ here, or beyond the local buffer
               (pf_q[P_ATACK] && !w_at_q);
    rr_wset  = rr_rd && rfit_q;
    rr_none  = (rr_rd && rlast_q) || rr_gen;             // retire it next cycle (its write counted)
    rr_ret   = !pf_q[P_RDRESP] && !pf_q[P_ATACK] && p31_q;   // P_NONE: retire the READ/atomic at cptr
    rr_retgo = rr_ret && (!wqe_q.signaled || cq_in_ready);
    rr_addr  = rr_wset ? raddr_q : rr_gen ? wqe_q.laddr : wr_addr_q;
    rr_push  = rr_retgo && wqe_q.signaled;
    rr_rdinc = rr_retgo;
    rr_st = S_WB;  rr_ws = ws_q;  rr_post = post_q;  rr_post_st = post_st_q;  rr_une = ne_una;
    if (rr_none) begin
      rr_post    = P_NONE;
      rr_post_st = 5'd31;
    end
    if (rr_none || (rr_ret && !rr_retgo)) rr_st = S_STEP;
    if (rr_retgo) rr_st = S_WQE;                          // the next WQE (read in this cycle) may be a local error
    if (rr_rd && !rlast_q) begin
      rr_ws.una   = psn1_q;
      rr_ws.nak_v = 1'b0;
      rr_une      = ne_psn1;
    end
    if (rr_retgo) begin
      // (its data write is counted in the tag)
      rr_ws.cptr    = cptr1_q;
      rr_ws.fpsn    = lpsn1_q;
      rr_ws.una     = lpsn1_q;
      rr_une        = ne_l1;
      rr_ws.rd_done = ws_q.rd_done + RW'(1);
      rr_ws.nak_v   = 1'b0;
      rr_post_st    = '0;
    end
  end

  // the flags' next values: from the intake and S_EVAL as post_q, in S_STEP
  // from the sub-cases that change the kind (implicit NAK -> P_SEQ, retries
  // exhausted -> P_FATAL, READ/atomic done -> P_NONE with post_st 31)
  always_comb begin
    pf_d = pf_q;
    unique case (st_q)
      S_IDLE: begin
        pf_d  = h_take ? post_oh(h.post) : post_oh(P_NONE);   // post_oh(in_post)
      end
      S_WB: if (wb_go) begin
        pf_d  = h_take ? post_oh(h.post) : post_oh(P_NONE);   // post_oh(in_post)
      end
      S_EVAL: begin
        pf_d  = ev_pf;
      end
      S_STEP: begin
        if (brt_q) begin
          if (rk_imp_q) pf_d = post_oh(P_SEQ);
        end else if (brs_q) begin
          if (rs_fatal) begin
            pf_d  = post_oh(P_FATAL);
          end
        end else if (rr_none) begin
          pf_d  = post_oh(P_NONE);
        end else if (rr_retgo) begin
        end
      end
      default: ;
    endcase
  end
  // p31 (post_st == 31) as a sum of products from flip-flops: taken with
  // an event (e_st31: a requester event with status 31), held, cleared by
  // a NAK's status (S_EVAL) or a READ/atomic retired, set by a READ/atomic
  // done (S_STEP)
  (* keep *) logic e_st31;
  always_comb begin
    e_st31 = e_v && !h_v && e.status == 5'd31;
    p31_d  = (acc && e_st31) ||
             (st_q == S_WB && !wb_go && p31_q) ||
             (st_q == S_EVAL && p31_q && !(ev_rgo && (sx_inv || sx_acc || sx_op))) ||   // (a NAK's status is not 31)
             (st_q == S_STEP && !brt_q && !brs_q && rr_none) ||
             (st_q == S_STEP && p31_q && !(!brt_q && brs_q && rs_fatal) && !(!brt_q && !brs_q && rr_retgo)) ||
             (st_q != S_IDLE && st_q != S_WB && st_q != S_EVAL && st_q != S_STEP && p31_q);
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      pf_q  <= post_oh(P_NONE);
      p31_q <= 1'b0;
    end else begin
      pf_q  <= pf_d;
      p31_q <= p31_d;
    end
  end

  // ------------------------------------------------ S_STEP: which block decides, a cycle ahead
  // brt: the retire step applies (rt_hit); brs: the post action is a resend
  // (rs_hit). Set in S_WX for the first S_STEP; an S_STEP followed by S_STEP
  // keeps its block, except a retire step that clears una < lim (then the
  // post action follows).
  logic brt_q, brt_d, brs_q, brs_d;
  logic ult_wx;             // una < lim (S_WX; computed in S_WQE)
  logic ultp_q, ultp_d;     // free running: una and lim hold from S_WQE on
  // psn_lt (roce_req_pkg) as a carry chain and a compare side by side: a < b
  // (mod 2^24) when b - a is in 1 .. 2^23 - 1
  function automatic logic psn_lt_f(input logic [23:0] a, input logic [23:0] b);
    /* verilator lint_off UNUSEDSIGNAL */
    logic [23:0] d;   // its sign bit
    /* verilator lint_on UNUSEDSIGNAL */
    d        = b - a;
    psn_lt_f = a != b && !d[23];
  endfunction
  always_comb begin
    ultp_d = psn_lt_f(ws_q.una, lim_q);
    ult_wx = ultp_q;
    brt_d  = brt_q;
    brs_d  = brs_q;
    if (st_q == S_WX) begin
      brt_d = pf_q[P_FLUSH] || lerr_here_q || (!pf_q[P_TMO] && ult_wx);
      brs_d = rs_hit;
    end else if (st_q == S_STEP && brt_q) begin
      brt_d = !rt_clr;
      brs_d = rk_imp_q || rs_hit;   // rt_post is a resend kind
    end
  end
  // the retire step's sub-case (S_WX; held until the next S_WX or cleared
  // with brt)
  always_comb begin
    cptr1_d = (ws_q.cptr + PW'(1)) & PMASK;
    rk_fl_d = rk_fl_q;  rk_fle_d = rk_fle_q;  rk_le_d = rk_le_q;  rk_imp_d = rk_imp_q;
    rk_ack_d = rk_ack_q;  rk_acks_d = rk_acks_q;  rk_sc_d = rk_sc_q;  rk_idrop_d = rk_idrop_q;
    if (st_q == S_WX) begin
      rk_fl_d    = pf_q[P_FLUSH] && fmore_q;
      rk_fle_d   = pf_q[P_FLUSH] && !fmore_q;
      rk_le_d    = !pf_q[P_FLUSH] && lerr_here_q;
      rk_imp_d   = !pf_q[P_FLUSH] && !lerr_here_q && !pf_q[P_TMO] && ult_wx && w_rdat_d;
      rk_ack_d   = !pf_q[P_FLUSH] && !lerr_here_q && !pf_q[P_TMO] && ult_wx && !w_rdat_d;
      rk_acks_d  = !pf_q[P_FLUSH] && !lerr_here_q && !pf_q[P_TMO] && ult_wx && !w_rdat_d && wqe_q.signaled;
      rk_sc_d    = pf_q[P_NONE] && !p31_q && !lerr_next_q;
      rk_idrop_d = !pf_q[P_FLUSH] && !lerr_here_q && ult_wx && w_rdat_d && (pf_q[P_RDRESP] || pf_q[P_ATACK]);
    end else if (st_q == S_STEP && brt_q && rt_clr) begin
      // una >= lim from now on: no retire step until the next S_WX
      rk_fl_d = 1'b0;  rk_fle_d = 1'b0;  rk_le_d = 1'b0;  rk_imp_d = 1'b0;
      rk_ack_d = 1'b0;  rk_acks_d = 1'b0;  rk_idrop_d = 1'b0;
    end
  end
  always_ff @(posedge clk) begin
    ultp_q  <= ultp_d;
    cptr1_q <= cptr1_d;
    rk_fl_q <= rk_fl_d;  rk_fle_q <= rk_fle_d;  rk_le_q <= rk_le_d;  rk_imp_q <= rk_imp_d;
    rk_ack_q <= rk_ack_d;  rk_acks_q <= rk_acks_d;  rk_sc_q <= rk_sc_d;  rk_idrop_q <= rk_idrop_d;
    if (rst) begin
      brt_q <= 1'b0;
      brs_q <= 1'b0;
    end else begin
      brt_q <= brt_d;
      brs_q <= brs_d;
    end
  end

  // ------------------------------------------------ S_STEP: the retire step, else the post action
  state_e      sp_st;
  cst_t        sp_ws;
  post_e       sp_post;
  logic [4:0]  sp_post_st;
  logic        sp_push, sp_fail, sp_rr, sp_une;
  always_comb begin
    sp_rr = !brt_q && !brs_q;
    sp_post_st = post_st_q;  cq_err = 1'b0;  cq_err_st = rt_err_st;
    if (brt_q) begin
      sp_st = rt_st;  sp_ws = rt_ws;  sp_post = rt_post;  sp_push = rt_push;  sp_fail = rt_fail;
      sp_une = rt_une;
      cq_err = rt_err;
    end else if (brs_q) begin
      sp_st = rs_st;  sp_ws = rs_ws;  sp_post = rs_post;  sp_post_st = rs_post_st;
      sp_push = rs_push;  sp_fail = rs_fail;  sp_une = ne_una;
      cq_err = pf_q[P_FATAL];  cq_err_st = st_post;
    end else begin
      sp_st = rr_st;  sp_ws = rr_ws;  sp_post = rr_post;  sp_post_st = rr_post_st;
      sp_push = rr_push;  sp_fail = 1'b0;  sp_une = rr_une;
    end
  end

  // progress (una moved in this event) resets the retry budgets: applied to
  // the row S_WB writes back (and forwards), from registers
  always_comb begin
    wb_ws = ws_q;
    if (une_q && !ws_q.err) begin
      wb_ws.retry_left = ctx_q.retry_cnt;
      wb_ws.rnr_left   = ctx_q.rnr_retry;
    end
  end

  // the atomic result is written in S_WB: set by the response step, cleared
  // when the next event starts (its own always_comb: from flip-flops only)
  always_comb begin
    gen_v_d = (st_q == S_STEP && !brt_q && !brs_q && pf_q[P_ATACK] && w_at_q) ||
              (gen_v_q && !(st_q == S_IDLE || (st_q == S_WB && wb_go)));
  end

  // ------------------------------------------------ the state machine
  always_comb begin
    st_d = st_q;  post_d = post_q;  post_st_d = post_st_q;  lim_d = lim_q;  ws_d = ws_q;  wqe_d = wqe_q;
    cmd_v_d = cmd_v_q;  cmdk_d = cmdk_q;  rnrt_v_d = rnrt_v_q;  wr_v_d = wr_v_q;
    wr_addr_d = wr_addr_q;  perr_d = perr_q;  ult_d = ult_q;  une_d = une_q;  rdp_d = rdp_q;
    cq_push = 1'b0;
    unique case (st_q)
      S_INIT: if (init_q == QAW'(NQP - 1)) st_d = S_IDLE;
      S_IDLE: begin
        cmd_v_d = 1'b0;  rnrt_v_d = 1'b0;  wr_v_d = 1'b0;  perr_d = 1'b0;
        post_d = in_post;  post_st_d = in_post_st;
        if (in_go) st_d = S_LD;
      end
      S_LD: begin
        ws_d  = ld_ws;
        une_d = 1'b0;
        rdp_d = 1'b0;
        st_d  = S_EVAL;
      end
      S_EVAL: begin
        st_d = ev_st;  post_d = ev_post;  post_st_d = ev_post_st;  lim_d = ev_lim;
        if (ev_lerr) begin
          ws_d.lerr_v   = 1'b1;
          ws_d.lerr_ptr = fhead_q;
          ws_d.lerr_st  = post_st_q;
        end
        if (ev_resend) begin
          cmd_v_d = 1'b1;
          cmdk_d  = roce_req_pkg::RC_RETRY;
        end
      end
      S_WQE: begin
        wqe_d = wqe_rd_data;
        st_d  = S_WX;
      end
      S_WX: begin
        ult_d = ult_wx;
        st_d  = S_STEP;
      end
      S_STEP: begin
        if (brt_q && rt_clr) ult_d = 1'b0;
        st_d = sp_st;  ws_d = sp_ws;  post_d = sp_post;  post_st_d = sp_post_st;  cq_push = sp_push;
        une_d = sp_une;
        if (sp_rr && rr_rdinc) rdp_d = 1'b1;
        if (brt_q) lim_d = rt_lim;
        if (sp_fail) begin
          perr_d  = 1'b1;
          cmd_v_d = 1'b1;
          cmdk_d  = roce_req_pkg::RC_ERROR;
        end
        if (!brt_q && brs_q && rs_cmd) begin
          cmd_v_d = 1'b1;
          cmdk_d  = rs_cmdk;
        end
        if (!brt_q && brs_q && rs_rnrt) rnrt_v_d = 1'b1;
        if (sp_rr && rr_wset) wr_v_d = haspay_q;
        if (sp_rr) wr_addr_d = rr_addr;
      end
      S_WB: begin
        if (wb_go) begin                     // and S_IDLE's work
          cmd_v_d = 1'b0;  rnrt_v_d = 1'b0;  wr_v_d = 1'b0;  perr_d = 1'b0;
          post_d = in_post;  post_st_d = in_post_st;
          st_d   = in_go ? S_LD : S_IDLE;
        end
      end
      default: st_d = S_IDLE;
    endcase
  end

  // ------------------------------------------------ write back (S_WB) and the state RAM's port
  // S_WB's outputs have room: each FIFO's s_ready (count < DEPTH) as a flag
  // registered a cycle ahead from its count, push and pop, so wb_go (and the
  // intake of the next event behind it) starts at flip-flops.
  logic room_q, room_d;
  function automatic logic room_next(input logic [3:0] cnt, input logic push, input logic pop,
                                     input logic [3:0] depth);
    // (cnt + push - pop) < depth, without an adder: push only with room
    room_next = cnt < depth - 4'(1) || (cnt == depth - 4'(1) && (!push || pop)) || (cnt == depth && pop);
  endfunction
  always_comb begin
    room_d = room_next(4'(cmd_cnt), cmd_push, m_cmd_valid && m_cmd_ready, 4'd4) &&
             room_next(4'(kick_cnt), kick_push, m_kick_valid && m_kick_ready, 4'd4) &&
             room_next(4'(tc_cnt), tc_push, m_tcmd_valid && m_tcmd_ready, 4'd4) &&
             room_next(4'(dc_cnt), dc_push, m_dma_cmd_valid && m_dma_cmd_ready, 4'd4) &&
             room_next(dec_cnt, dec_push, dec_valid && dec_pop, 4'd8);
  end
  always_ff @(posedge clk) begin
    if (rst) room_q <= 1'b1;
    else     room_q <= room_d;
  end
  always_comb begin
    wb_go = room_q;
    sr_we = 1'b0;  sr_waddr = q_q;  sr_wdata = wb_ws;
    cmd_push = 1'b0;  kick_push = 1'b0;  tc_push = 1'b0;  dc_push = 1'b0;  dec_push = 1'b0;
    qerr_d = 1'b0;  dma_iss_d = dma_iss_q;
    unique case (st_q)
      S_INIT: begin
        sr_we    = 1'b1;
        sr_waddr = init_q;
        sr_wdata = '0;
      end
      S_IDLE: begin
        if (rq_valid) begin                  // a QP reset clears its row
          sr_we    = rq_qpn[23:QAW] == '0;
          sr_waddr = rq_qpn[QAW-1:0];
          sr_wdata = '0;
        end
      end
      S_WB: begin
        // every output of the event at once, when all have room
        if (wb_go) begin
          sr_we        = qok_q;
          cmd_push     = qok_q && cmd_v_q;
          kick_push    = qok_q && progress && !ws_q.err;
          tc_push      = qok_q && !ws_q.err && (rnrt_v_q || progress || cmd_v_q);
          dc_push      = wr_v_q || gen_v_q;
          dec_push     = haspay_q || gen_v_q;
          dma_iss_d    = dma_iss_q + 32'(wr_v_q || gen_v_q);
          qerr_d       = perr_q;
        end
      end
      default: ;
    endcase
  end

  // ------------------------------------------------ counters
  // each count's increment registered first (the counters lag a cycle)
  logic step_rt, step_rs, step_rr;
  logic [10:0] inc_q, inc_d;  // drop (S_STEP response, retire), retry, rnr, implicit, timeout, seq, inv, acc, op, drop (S_EVAL)
  always_comb begin
    step_rt   = st_q == S_STEP && brt_q;
    step_rs   = st_q == S_STEP && !brt_q && brs_q;
    step_rr   = st_q == S_STEP && sp_rr;
    inc_d     = {step_rr && rr_drop, step_rt && rt_drop, step_rs && rs_retry, step_rs && rs_rnr, step_rt && rt_imp,
                 st_q == S_EVAL && ev_tmo, st_q == S_EVAL && ev_seq, st_q == S_EVAL && ev_inv,
                 st_q == S_EVAL && ev_acc, st_q == S_EVAL && ev_op,
                 st_q == S_EVAL && ev_drop};
    c_retry_d = c_retry_q + 32'(inc_q[8]);
    c_rnr_d   = c_rnr_q   + 32'(inc_q[7]);
    c_imp_d   = c_imp_q   + 32'(inc_q[6]);
    c_tmo_d   = c_tmo_q   + 32'(inc_q[5]);
    c_seq_d   = c_seq_q   + 32'(inc_q[4]);
    c_inv_d   = c_inv_q   + 32'(inc_q[3]);
    c_acc_d   = c_acc_q   + 32'(inc_q[2]);
    c_op_d    = c_op_q    + 32'(inc_q[1]);
    c_drop_d  = c_drop_q  + 32'(inc_q[0] || inc_q[9] || inc_q[10]);   // (one at a time)
  end
  always_ff @(posedge clk) begin
    if (rst) inc_q <= '0;
    else     inc_q <= inc_d;
  end
  always_comb begin
    pub_wdata.inited  = sr_wdata.inited;
    pub_wdata.cptr    = sr_wdata.cptr;
    pub_wdata.fpsn    = sr_wdata.fpsn;
    pub_wdata.una     = sr_wdata.una;
    pub_wdata.rd_done = sr_wdata.rd_done;
  end

  // the QP went to ERROR: registered (one cycle after its S_WB)
  always_ff @(posedge clk) begin
    if (rst) qerr_q <= 1'b0;
    else     qerr_q <= qerr_d;
    qerr_qpn_q <= 24'(q_q);
  end
  assign qp_err_valid = qerr_q;
  assign qp_err_qpn   = qerr_qpn_q;
  assign ctx_rd_qpn  = sr_raddr;
  assign rpub_rd_qpn = sr_raddr;

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q <= S_INIT;  init_q <= '0;  q_q <= '0;  qok_q <= 1'b0;  ev_q <= E_RSP;
      post_q <= P_NONE;  post_st_q <= '0;  lim_q <= '0;  fhead_q <= '0;
      psn_q <= '0;  syn_q <= '0;  plen_q <= '0;  haspay_q <= 1'b0;  orig_q <= '0;  trnr_q <= 1'b0;
      ws_q <= '0;  una0_q <= '0;  rdd0_q <= '0;  ctx_q <= '0;  wqe_q <= '0;
      cmd_v_q <= 1'b0;  cmdk_q <= roce_req_pkg::RC_RETRY;  rnrt_v_q <= 1'b0;  wr_v_q <= 1'b0;
      gen_v_q <= 1'b0;  wr_addr_q <= '0;  perr_q <= 1'b0;
      c_retry_q <= '0;  c_tmo_q <= '0;  c_rnr_q <= '0;  c_seq_q <= '0;  c_inv_q <= '0;
      c_acc_q <= '0;  c_op_q <= '0;  c_imp_q <= '0;  c_drop_q <= '0;
      dma_iss_q <= '0;  dma_done_q <= '0;  cq_new_q <= '0;  fwd_q <= 1'b0;  ult_q <= 1'b0;
      une_q <= 1'b0;  rdp_q <= 1'b0;
    end else begin
      st_q <= st_d;  init_q <= init_d;  q_q <= q_d;  qok_q <= qok_d;  ev_q <= ev_d;
      post_q <= post_d;  post_st_q <= post_st_d;  lim_q <= lim_d;  fhead_q <= fhead_d;
      psn_q <= psn_d;  syn_q <= syn_d;  plen_q <= plen_d;  haspay_q <= haspay_d;  orig_q <= orig_d;  trnr_q <= trnr_d;
      ws_q <= ws_d;  una0_q <= una0_d;  rdd0_q <= rdd0_d;  ctx_q <= ctx_d;  wqe_q <= wqe_d;
      cmd_v_q <= cmd_v_d;  cmdk_q <= cmdk_d;  rnrt_v_q <= rnrt_v_d;  wr_v_q <= wr_v_d;
      gen_v_q <= gen_v_d;  wr_addr_q <= wr_addr_d;  perr_q <= perr_d;
      c_retry_q <= c_retry_d;  c_tmo_q <= c_tmo_d;  c_rnr_q <= c_rnr_d;  c_seq_q <= c_seq_d;  c_inv_q <= c_inv_d;
      c_acc_q <= c_acc_d;  c_op_q <= c_op_d;  c_imp_q <= c_imp_d;  c_drop_q <= c_drop_d;
      dma_iss_q <= dma_iss_d;  dma_done_q <= dma_done_d;  cq_new_q <= cq_new_d;  fwd_q <= fwd_d;  ult_q <= ult_d;
      une_q <= une_d;  rdp_q <= rdp_d;
    end
  end

  assign cnt_retry    = c_retry_q;
  assign cnt_timeout  = c_tmo_q;
  assign cnt_rnr      = c_rnr_q;
  assign cnt_nak_seq  = c_seq_q;
  assign cnt_nak_inv  = c_inv_q;
  assign cnt_nak_acc  = c_acc_q;
  assign cnt_nak_op   = c_op_q;
  assign cnt_implicit = c_imp_q;
  assign cnt_drop     = c_drop_q;

  // state and its two published copies
  roce_ram_sdp #(.WIDTH(CST_W), .DEPTH(NQP)) u_state (
    .clk, .wr_en(sr_we), .wr_addr(sr_waddr), .wr_data(sr_wdata),
    .rd_en(sr_re), .rd_addr(sr_raddr), .rd_data(sr_rdata)
  );
  roce_ram_sdp #(.WIDTH(roce_req_pkg::CPUB_W), .DEPTH(NQP)) u_pub_sq (
    .clk, .wr_en(sr_we), .wr_addr(sr_waddr), .wr_data(pub_wdata),
    .rd_en(sq_cpub_rd_en), .rd_addr(sq_cpub_rd_qpn), .rd_data(sq_cpub_rd_data)
  );
  roce_ram_sdp #(.WIDTH(roce_req_pkg::CPUB_W), .DEPTH(NQP)) u_pub_req (
    .clk, .wr_en(sr_we), .wr_addr(sr_waddr), .wr_data(pub_wdata),
    .rd_en(req_cpub_rd_en), .rd_addr(req_cpub_rd_qpn), .rd_data(req_cpub_rd_data)
  );

  /* verilator lint_on PINCONNECTEMPTY */

`ifndef SYNTHESIS
  // the block chosen a cycle ahead is the one the present registers choose
  always_ff @(posedge clk) begin
    if (!rst && st_q == S_STEP && (brt_q != rt_hit || (!brt_q && brs_q != rs_hit)))
      $error("%m: S_STEP block chosen ahead (rt %0d rs %0d) differs (rt %0d rs %0d)", brt_q, brs_q, rt_hit, rs_hit);
    // the response class flag is the event's
    if (!rst && st_q == S_EVAL && sx_go != (ev_q == E_RSP && !sx_bad))
      $error("%m: sx_go differs");
    // the post kind's flags are post_q's
    if (!rst && (pf_q != post_oh(post_q) || p31_q != (post_st_q == 5'd31)))
      $error("%m: post kind flags differ from post_q");
    // the room flag is the FIFOs' s_ready
    if (!rst && room_q != (cmd_in_ready && kick_in_ready && tc_in_ready && dc_in_ready && dec_in_ready))
      $error("%m: room flag differs from the FIFOs' s_ready");
    // the retire sub-case chosen ahead is the one the present registers choose
    if (!rst && st_q == S_STEP && brt_q &&
        (rk_fl_q != (post_q == P_FLUSH && fmore_q) || rk_fle_q != (post_q == P_FLUSH && !fmore_q) ||
         rk_le_q != (post_q != P_FLUSH && lerr_here_q) ||
         rk_imp_q != (post_q != P_FLUSH && !lerr_here_q && post_q != P_TMO && ult_q && w_rdat_q) ||
         rk_ack_q != (post_q != P_FLUSH && !lerr_here_q && post_q != P_TMO && ult_q && !w_rdat_q) ||
         rk_acks_q != (rk_ack_q && wqe_q.signaled) ||
         rk_sc_q != (post_q == P_NONE && post_st_q != 5'd31 && !lerr_next_q)))
      $error("%m: S_STEP retire sub-case chosen ahead differs");
    if (!rst && st_q == S_STEP && cptr1_q != ((ws_q.cptr + PW'(1)) & PMASK))
      $error("%m: S_STEP cptr + 1 stale");
  end
`endif

endmodule
