// roce_req: the requester of the RC transport (docs/transport.md).
//
// QPs with work are kept in a ready FIFO (each QP at most once, a bit per QP
// says it is queued): kicks come from the SQ (a post), the completer (window
// or READ credit opened) and from this block after each packet while the QP
// still has work, so QPs are served round robin, one packet per turn. A turn:
//   read the QP's requester state, SQ head, completer state and context;
//   read the WQE at the send pointer (and its MR at the WQE's first packet:
//   a local range outside the lkey's region is an EV_LOCERR to the
//   completer, nothing is sent); cut the next packet: FIRST/MIDDLE exactly
//   one PMTU, LAST/ONLY the rest, PSN assigned (mod 2^24), AckReq on the
//   last packet, on READ/atomic and at least every ACKREQ_EVERY packets;
//   push the header (roce_qp_pkg::qp_tx_hdr_t) and a DMA read command of
//   the payload; an AckReq packet arms the ACK timer (TC_ARM).
// A packet is sent only while the PSNs outstanding (next PSN - oldest
// unacknowledged, published by the completer) stay below WINDOW and, for
// READ/atomic, fewer than max_rd_atomic READ/atomic WQEs are outstanding.
//
// Completer commands: RC_RETRY/RC_PAUSE rewind the QP to (ptr, psn): the
// byte offset into that WQE is (psn - fpsn) x PMTU, so a WRITE/SEND goes on
// with MIDDLE/LAST packets and a READ is asked again for the rest (address
// and length advanced); nothing sent is stored, memory is read again.
// RC_ERROR stops the QP: every WQE up to the SQ head is handed to the
// completer's flush (EV_FLUSH), and so is every later post.
//
// The payload stream is the DMA read stream passed through (one DMA command
// per packet with payload, in header order).
`default_nettype none

module roce_req #(
  parameter int NQP          = 256,
  parameter int SQ_DEPTH     = 16,
  parameter int NMR          = 256,
  parameter int WINDOW       = 1024,  // PSNs outstanding at most (<= 2^22)
  parameter int ACKREQ_EVERY = 16,    // AckReq at least every this many packets (<= WINDOW/2)
  parameter int HDR_DEPTH    = 16,    // headers queued ahead of their payload
  parameter int QAW          = $clog2(NQP),
  parameter int SAW          = $clog2(SQ_DEPTH),
  parameter int MAW          = $clog2(NMR)
) (
  input  wire logic                           clk,
  input  wire logic                           rst,
  input  wire logic                           qp_reset,
  input  wire logic [23:0]                    qp_reset_qpn,
  // kicks: SQ (new work), completer (window opened)
  input  wire logic                           s_kick_valid,
  output logic                                s_kick_ready,
  input  wire logic [23:0]                    s_kick_qpn,
  input  wire logic                           s_ckick_valid,
  output logic                                s_ckick_ready,
  input  wire logic [23:0]                    s_ckick_qpn,
  // completer commands
  input  wire logic                           s_cmd_valid,
  output logic                                s_cmd_ready,
  input  wire roce_req_pkg::rcmd_t            s_cmd,
  // SQ read ports
  output logic                                head_rd_en,
  output logic [QAW-1:0]                      head_rd_qpn,
  input  wire logic [roce_req_pkg::PTR_W-1:0] head_rd_data,
  output logic                                wqe_rd_en,
  output logic [QAW+SAW-1:0]                  wqe_rd_addr,
  input  wire roce_qp_pkg::swqe_t             wqe_rd_data,
  // completer's published state
  output logic                                cpub_rd_en,
  output logic [QAW-1:0]                      cpub_rd_qpn,
  input  wire roce_req_pkg::cpub_t            cpub_rd_data,
  // QP context and MR tables
  output logic                                ctx_rd_en,
  output logic [QAW-1:0]                      ctx_rd_qpn,
  input  wire roce_qp_pkg::qp_ctx_t           ctx_rd_data,
  output logic                                mr_rd_en,
  output logic [31:0]                         mr_rd_key,      // the lkey (the table indexes its low bits)
  input  wire roce_qp_pkg::mr_entry_t         mr_rd_data,
  // our published state, read by the completer
  input  wire logic                           rpub_rd_en,
  input  wire logic [QAW-1:0]                 rpub_rd_qpn,
  output roce_req_pkg::rpub_t                 rpub_rd_data,
  // events to the completer, ACK timer arms to the timer
  output logic                                m_ev_valid,
  input  wire logic                           m_ev_ready,
  output roce_req_pkg::rev_t                  m_ev,
  output logic                                m_tcmd_valid,
  input  wire logic                           m_tcmd_ready,
  output roce_req_pkg::tcmd_t                 m_tcmd,
  // DMA read: commands out, data in
  output logic                                m_dma_cmd_valid,
  input  wire logic                           m_dma_cmd_ready,
  output mem_pkg::dma_rd_cmd_t                m_dma_cmd,
  input  wire logic [mem_pkg::DATA_W-1:0]     s_axis_dma_tdata,
  input  wire logic [mem_pkg::STRB_W-1:0]     s_axis_dma_tkeep,
  input  wire logic                           s_axis_dma_tvalid,
  output logic                                s_axis_dma_tready,
  input  wire logic                           s_axis_dma_tlast,
  // the read status is not acted on: a packet whose payload read failed is
  // sent anyway (its header is already out); see docs/transport.md
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire mem_pkg::dma_cpl_t              s_axis_dma_tuser,
  /* verilator lint_on UNUSEDSIGNAL */
  // TX: header channel and payload stream
  output logic                                m_hdr_valid,
  input  wire logic                           m_hdr_ready,
  output roce_qp_pkg::qp_tx_hdr_t             m_hdr,
  output logic [roce_pkg::DATA_W-1:0]         m_axis_payload_tdata,
  output logic [roce_pkg::KEEP_W-1:0]         m_axis_payload_tkeep,
  output logic                                m_axis_payload_tvalid,
  input  wire logic                           m_axis_payload_tready,
  output logic                                m_axis_payload_tlast,
  // counters (wrap around)
  output logic [31:0]                         cnt_pkt,       // packets sent
  output logic [31:0]                         cnt_locerr     // WQEs failed locally
);
  localparam int PW = roce_req_pkg::PTR_W;
  localparam int RW = roce_req_pkg::RDC_W;
  localparam logic [PW-1:0] PMASK = PW'(2 * SQ_DEPTH - 1);

  if (roce_qp_pkg::ROCE_TX_HDR_W != roce_pkg::TX_HDR_W) begin : g_bad_hdr
    $error("roce_req: roce_qp_pkg::ROCE_TX_HDR_W != roce_pkg::TX_HDR_W");
  end
  if (ACKREQ_EVERY < 1 || 2 * ACKREQ_EVERY > WINDOW || WINDOW > (1 << 22)) begin : g_bad_win
    $error("roce_req: need 1 <= ACKREQ_EVERY <= WINDOW/2 and WINDOW <= 2^22");
  end
  if ((1 << QAW) != NQP || (1 << MAW) != NMR) begin : g_bad_nqp
    $error("roce_req: NQP and NMR must be powers of two");
  end

  // ------------------------------------------------------ per-QP state (RAM)
  typedef struct packed {
    logic           inited;   // 0 after reset: loaded from the context at first use
    logic           err;      // QP in ERROR: nothing is sent, WQEs go to the flush
    logic           paused;   // RNR wait: nothing is sent until RC_RETRY
    logic [PW-1:0]  sptr;     // WQE being sent
    logic [31:0]    soff;     // its bytes already cut into packets (READ: resume offset)
    logic [23:0]    npsn;     // next PSN
    logic [23:0]    maxpsn;   // highest next PSN ever (published)
    logic [RW-1:0]  rd_sent;  // READ/atomic WQEs sent
    logic [7:0]     nack;     // packets since the last AckReq
  } rst_t;
  localparam int RST_W = 3 + PW + 32 + 24 + 24 + RW + 8;

  typedef enum logic [3:0] {
    S_INIT = 4'd0,
    S_IDLE = 4'd1,
    S_LD   = 4'd2,   // RAM data of the turn's reads valid
    S_EVAL = 4'd3,
    S_WQE  = 4'd4,   // WQE read data valid
    S_MR   = 4'd5,   // MR read data valid
    S_PKT  = 4'd6,   // cut and push the packet
    S_WB   = 4'd7    // write the state back, requeue
  } state_e;

  state_e                  st_q, st_d;
  logic [QAW-1:0]          init_q, init_d;
  logic [QAW-1:0]          q_q, q_d;            // QP of this turn
  logic                    is_cmd_q, is_cmd_d;  // turn of a completer command
  roce_req_pkg::rcmd_t     cmd_q, cmd_d;
  rst_t                    ws_q, ws_d;          // working copy of the QP's state
  logic [PW-1:0]           head_q, head_d;
  roce_req_pkg::cpub_t     cpub_q, cpub_d;
  roce_qp_pkg::qp_ctx_t    ctx_q, ctx_d;
  roce_qp_pkg::swqe_t      wqe_q, wqe_d;
  logic                    rekick_q, rekick_d;
  logic [31:0]             cnt_pkt_q, cnt_pkt_d, cnt_lerr_q, cnt_lerr_d;

  // state RAMs
  logic                    sr_we, sr_re;
  logic [QAW-1:0]          sr_waddr;
  rst_t                    sr_wdata, sr_rdata;
  roce_req_pkg::rpub_t     rpub_wdata;

  // ------------------------------------------------------------ ready FIFO
  logic [NQP-1:0]          queued_q, queued_d;
  logic                    rf_push, rf_pop, rf_valid, rf_in_ready;
  logic [QAW-1:0]          rf_in, rf_out;
  logic                    self_kick;

  // FIFO occupancy (count) is not needed, nor the in_ready of the QP reset
  // queues (resets are register writes, far apart: the queue never fills)
  /* verilator lint_off PINCONNECTEMPTY */
  roce_fifo #(.WIDTH(QAW), .DEPTH(NQP)) u_ready (
    .clk, .rst,
    .in_valid(rf_push), .in_ready(rf_in_ready), .in_data(rf_in),
    .out_valid(rf_valid), .out_ready(rf_pop), .out_data(rf_out), .count()
  );

  logic [NQP-1:0] qe;
  logic           kv;
  logic [23:0]    kq;
  always_comb begin
    queued_d      = queued_q;
    if (rf_pop) queued_d[rf_out] = 1'b0;
    qe            = queued_d;
    s_kick_ready  = 1'b0;
    s_ckick_ready = 1'b0;
    kv = 1'b0;
    kq = '0;
    if (self_kick) begin
      kv = 1'b1;
      kq = 24'(q_q);
    end else if (s_ckick_valid) begin
      s_ckick_ready = rf_in_ready;
      kv = rf_in_ready;
      kq = s_ckick_qpn;
    end else if (s_kick_valid) begin
      s_kick_ready = rf_in_ready;
      kv = rf_in_ready;
      kq = s_kick_qpn;
    end
    rf_in   = kq[QAW-1:0];
    rf_push = kv && kq[23:QAW] == '0 && !qe[kq[QAW-1:0]];
    if (rf_push) queued_d[kq[QAW-1:0]] = 1'b1;
  end

  // ------------------------------------------------------------ QP resets
  logic        rq_valid, rq_ready;
  logic [23:0] rq_qpn;

  roce_fifo #(.WIDTH(24), .DEPTH(16)) u_rst_q (
    .clk, .rst,
    .in_valid(qp_reset), .in_ready(), .in_data(qp_reset_qpn),
    .out_valid(rq_valid), .out_ready(rq_ready), .out_data(rq_qpn), .count()
  );

  // ------------------------------------------------------------ output FIFOs
  logic                    ev_push, ev_in_ready;
  roce_req_pkg::rev_t      ev_in;
  logic                    tc_push, tc_in_ready;
  roce_req_pkg::tcmd_t     tc_in;
  logic                    dc_push, dc_in_ready;
  mem_pkg::dma_rd_cmd_t    dc_in;
  logic                    hd_push, hd_in_ready;
  roce_qp_pkg::qp_tx_hdr_t hd_in;

  roce_fifo #(.WIDTH(roce_req_pkg::REV_W), .DEPTH(4)) u_ev_q (
    .clk, .rst, .in_valid(ev_push), .in_ready(ev_in_ready), .in_data(ev_in),
    .out_valid(m_ev_valid), .out_ready(m_ev_ready), .out_data(m_ev), .count()
  );
  roce_fifo #(.WIDTH(roce_req_pkg::TCMD_W), .DEPTH(4)) u_tc_q (
    .clk, .rst, .in_valid(tc_push), .in_ready(tc_in_ready), .in_data(tc_in),
    .out_valid(m_tcmd_valid), .out_ready(m_tcmd_ready), .out_data(m_tcmd), .count()
  );
  roce_fifo #(.WIDTH(mem_pkg::ADDR_W + mem_pkg::LEN_W + mem_pkg::TAG_W), .DEPTH(4)) u_dc_q (
    .clk, .rst, .in_valid(dc_push), .in_ready(dc_in_ready), .in_data(dc_in),
    .out_valid(m_dma_cmd_valid), .out_ready(m_dma_cmd_ready), .out_data(m_dma_cmd), .count()
  );
  roce_fifo #(.WIDTH(roce_qp_pkg::QP_TX_HDR_W), .DEPTH(HDR_DEPTH)) u_hd_q (
    .clk, .rst, .in_valid(hd_push), .in_ready(hd_in_ready), .in_data(hd_in),
    .out_valid(m_hdr_valid), .out_ready(m_hdr_ready), .out_data(m_hdr), .count()
  );

  // payload: the DMA read stream
  assign m_axis_payload_tdata  = s_axis_dma_tdata;
  assign m_axis_payload_tkeep  = s_axis_dma_tkeep;
  assign m_axis_payload_tvalid = s_axis_dma_tvalid;
  assign m_axis_payload_tlast  = s_axis_dma_tlast;
  assign s_axis_dma_tready     = m_axis_payload_tready;

  // ------------------------------------------------------------ the packet
  // Everything about the next packet of WQE wqe_q at ws_q (valid in S_PKT).
  logic [12:0]          pmtu_b;
  logic [3:0]           shift;
  logic                 is_wr, is_send, is_rd, is_at, has_imm;
  logic [31:0]          rem;
  logic                 first, last;
  // rem and last of the next packet, computed in S_WQE from the WQE as it is
  // read and the send state (neither changes until S_PKT takes the packet), so
  // S_PKT's cycle starts from registers (the longest path of the transport ran
  // through this subtraction and compare; docs/boards.md)
  logic [31:0]          rem_q, rem_d;
  logic                 last_q, last_d;
  logic [15:0]          paylen;
  logic [7:0]           opc;
  logic [23:0]          npsn_used;       // PSNs this packet takes
  logic                 ackreq;
  logic [23:0]          una;
  logic [23:0]          outst;
  logic [RW-1:0]        rd_out;
  logic [4:0]           rd_max;
  logic                 win_ok;
  roce_pkg::tx_hdr_t    th;
  logic [31:0]          rd_pkts;         // [31:24] always 0: a READ is < 2^31 bytes, >= 256 per packet
  logic                 mr_ok;
  /* verilator lint_off UNUSEDSIGNAL */
  logic                 rd_pkts_hi_unused;  // see rd_pkts
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0]          mr_len;
  logic [3:0]           mr_need;

  always_comb begin
    pmtu_b  = roce_qp_pkg::pmtu_bytes(ctx_q.pmtu);
    unique case (pmtu_b)
      13'd512:  shift = 4'd9;
      13'd1024: shift = 4'd10;
      13'd2048: shift = 4'd11;
      13'd4096: shift = 4'd12;
      default:  shift = 4'd8;
    endcase
    is_wr   = wqe_q.opcode == roce_qp_pkg::WR_RDMA_WRITE || wqe_q.opcode == roce_qp_pkg::WR_RDMA_WRITE_WITH_IMM;
    is_send = wqe_q.opcode == roce_qp_pkg::WR_SEND || wqe_q.opcode == roce_qp_pkg::WR_SEND_WITH_IMM;
    is_rd   = wqe_q.opcode == roce_qp_pkg::WR_RDMA_READ;
    is_at   = wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP || wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_FETCH_AND_ADD;
    has_imm = wqe_q.opcode == roce_qp_pkg::WR_RDMA_WRITE_WITH_IMM || wqe_q.opcode == roce_qp_pkg::WR_SEND_WITH_IMM;
    rem     = rem_q;
    first   = ws_q.soff == '0;
    last    = last_q;
    paylen  = last ? rem[15:0] : 16'(pmtu_b);
    rd_pkts = (rem + 32'(pmtu_b) - 32'd1) >> shift;

    unique case ({is_send, is_wr, is_rd, is_at})
      4'b1000: opc = (first && last) ? (has_imm ? roce_pkg::OP_RC_SEND_ONLY_IMM : roce_pkg::OP_RC_SEND_ONLY) :
                     first ? roce_pkg::OP_RC_SEND_FIRST :
                     last  ? (has_imm ? roce_pkg::OP_RC_SEND_LAST_IMM : roce_pkg::OP_RC_SEND_LAST) :
                             roce_pkg::OP_RC_SEND_MIDDLE;
      4'b0100: opc = (first && last) ? (has_imm ? roce_pkg::OP_RC_WRITE_ONLY_IMM : roce_pkg::OP_RC_WRITE_ONLY) :
                     first ? roce_pkg::OP_RC_WRITE_FIRST :
                     last  ? (has_imm ? roce_pkg::OP_RC_WRITE_LAST_IMM : roce_pkg::OP_RC_WRITE_LAST) :
                             roce_pkg::OP_RC_WRITE_MIDDLE;
      4'b0010: opc = roce_pkg::OP_RC_READ_REQUEST;
      default: opc = (wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP) ? roce_pkg::OP_RC_COMPARE_SWAP
                                                                           : roce_pkg::OP_RC_FETCH_ADD;
    endcase
    npsn_used = (is_rd && rem != '0) ? rd_pkts[23:0] : 24'd1;
    rd_pkts_hi_unused = |rd_pkts[31:24];
    ackreq    = is_rd || is_at || ((is_wr || is_send) && last) || (ws_q.nack >= 8'(ACKREQ_EVERY - 1));

    // After a resend started, ACKs of the first transmission may move una (and
    // rd_done) past where the requester was sent back to: it then sends
    // packets already acknowledged (the responder answers them as
    // duplicates) until it catches up; "behind" counts as nothing outstanding.
    una    = cpub_q.inited ? cpub_q.una : ctx_q.sq_psn;
    outst  = roce_req_pkg::psn_lt(ws_q.npsn, una) ? 24'd0 : ws_q.npsn - una;
    rd_out = ws_q.rd_sent - (cpub_q.inited ? cpub_q.rd_done : '0);
    if (rd_out[RW-1]) rd_out = '0;
    rd_max = (ctx_q.max_rd_atomic == '0) ? 5'd1 : ctx_q.max_rd_atomic;
    win_ok = outst < 24'(WINDOW) && (!(is_rd || is_at) || rd_out < RW'(rd_max));

    th                  = '0;
    th.hdr.bth.opcode   = opc;
    th.hdr.bth.se       = wqe_q.solicited && is_send && last;
    th.hdr.bth.pkey     = 16'hFFFF;
    th.hdr.bth.dqpn     = ctx_q.remote_qpn;
    th.hdr.bth.ackreq   = ackreq;
    th.hdr.bth.psn      = ws_q.npsn;
    th.hdr.reth.va      = is_rd ? wqe_q.remote_addr + 64'(ws_q.soff) : wqe_q.remote_addr;
    th.hdr.reth.rkey    = wqe_q.rkey;
    th.hdr.reth.dma_len = is_rd ? rem : wqe_q.length;
    th.hdr.atomiceth.va       = wqe_q.remote_addr;
    th.hdr.atomiceth.rkey     = wqe_q.rkey;
    th.hdr.atomiceth.swap_add = wqe_q.swap_add;
    th.hdr.atomiceth.compare  = wqe_q.compare;
    th.hdr.immdt        = wqe_q.imm;
    th.pay_len          = (is_wr || is_send) ? paylen : 16'd0;

    hd_in.roce       = th;
    hd_in.remote_ip  = ctx_q.remote_ip;
    hd_in.remote_mac = ctx_q.remote_mac;
    hd_in.udp_sport  = ctx_q.udp_sport;

    dc_in.addr = wqe_q.local_addr + 64'(ws_q.soff);
    dc_in.len  = 32'(paylen);
    dc_in.tag  = 8'(q_q);

    tc_in      = '0;
    tc_in.kind = roce_req_pkg::TC_ARM;
    tc_in.qpn  = 24'(q_q);
    tc_in.psn  = ws_q.npsn + npsn_used - 24'd1;
    tc_in.texp = ctx_q.timeout;

    // local range check of the WQE's first packet: a WRITE/SEND source needs
    // a valid MR (local read is always allowed), a READ/atomic destination
    // needs local write
    mr_len  = is_at ? 32'd8 : wqe_q.length;
    mr_need = (is_rd || is_at) ? roce_qp_pkg::ACC_LOCAL_WRITE : 4'b0000;
    mr_ok   = roce_qp_pkg::mr_check(mr_rd_data, wqe_q.lkey, wqe_q.local_addr, mr_len, mr_need);
  end

  // ------------------------------------------------------------ the FSM
  rst_t          ws;      // the turn's new state (module level: Yosys 0.23 takes no struct locals)
  logic [23:0]   dpsn;
  always_comb begin
    st_d        = st_q;
    init_d      = init_q;
    q_d         = q_q;
    is_cmd_d    = is_cmd_q;
    cmd_d       = cmd_q;
    ws_d        = ws_q;
    head_d      = head_q;
    cpub_d      = cpub_q;
    ctx_d       = ctx_q;
    wqe_d       = wqe_q;
    rem_d       = rem_q;
    last_d      = last_q;
    rekick_d    = rekick_q;
    cnt_pkt_d   = cnt_pkt_q;
    cnt_lerr_d  = cnt_lerr_q;

    rq_ready    = 1'b0;
    s_cmd_ready = 1'b0;
    rf_pop      = 1'b0;
    self_kick   = 1'b0;
    sr_we       = 1'b0;
    sr_waddr    = q_q;
    sr_wdata    = ws_q;
    sr_re       = 1'b0;
    head_rd_en  = 1'b0;
    cpub_rd_en  = 1'b0;
    ctx_rd_en   = 1'b0;
    head_rd_qpn = rf_out;
    wqe_rd_en   = 1'b0;
    wqe_rd_addr = {q_q, ws_q.sptr[SAW-1:0]};
    mr_rd_en    = 1'b0;
    mr_rd_key   = wqe_q.lkey;
    ev_push     = 1'b0;
    ev_in       = '0;
    ev_in.qpn   = 24'(q_q);
    tc_push     = 1'b0;
    dc_push     = 1'b0;
    hd_push     = 1'b0;
    ws          = ws_q;
    dpsn        = '0;

    unique case (st_q)
      S_INIT: begin
        sr_we    = 1'b1;
        sr_waddr = init_q;
        sr_wdata = '0;
        init_d   = init_q + QAW'(1);
        if (init_q == QAW'(NQP - 1)) st_d = S_IDLE;
      end

      S_IDLE: begin
        rekick_d = 1'b0;
        if (rq_valid) begin
          rq_ready = 1'b1;
          sr_we    = rq_qpn[23:QAW] == '0;
          sr_waddr = rq_qpn[QAW-1:0];
          sr_wdata = '0;
        end else if (s_cmd_valid) begin
          s_cmd_ready = 1'b1;
          cmd_d       = s_cmd;
          is_cmd_d    = 1'b1;
          q_d         = s_cmd.qpn[QAW-1:0];
          head_rd_qpn = s_cmd.qpn[QAW-1:0];
          if (s_cmd.qpn[23:QAW] == '0) begin
            sr_re = 1'b1; head_rd_en = 1'b1; cpub_rd_en = 1'b1; ctx_rd_en = 1'b1;
            st_d  = S_LD;
          end
        end else if (rf_valid) begin
          rf_pop   = 1'b1;
          is_cmd_d = 1'b0;
          q_d      = rf_out;
          sr_re = 1'b1; head_rd_en = 1'b1; cpub_rd_en = 1'b1; ctx_rd_en = 1'b1;
          st_d  = S_LD;
        end
      end

      S_LD: begin
        ws_d   = sr_rdata;
        head_d = head_rd_data;
        cpub_d = cpub_rd_data;
        ctx_d  = ctx_rd_data;
        st_d   = S_EVAL;
      end

      S_EVAL: begin
        if (!ws.inited && ctx_q.state == roce_qp_pkg::QPS_RTS) begin
          ws        = '0;
          ws.inited = 1'b1;
          ws.npsn   = ctx_q.sq_psn;
          ws.maxpsn = ctx_q.sq_psn;
        end
        if (is_cmd_q) begin
          // ------------------------------------------- completer command
          st_d = S_WB;
          if (!ws_q.inited && cmd_q.kind != roce_req_pkg::RC_ERROR) begin
            st_d = S_IDLE;                  // stale command of a reset QP
          end else if (cmd_q.kind == roce_req_pkg::RC_ERROR) begin
            ev_in.kind = roce_req_pkg::EV_FLUSH;
            ev_in.ptr  = head_q;
            if (ev_in_ready) begin
              ev_push   = 1'b1;
              ws.inited = 1'b1;
              ws.err    = 1'b1;
              ws.paused = 1'b0;
              ws.sptr   = head_q;
              ws.soff   = '0;
            end else begin
              st_d = S_EVAL;                // wait for room
            end
          end else if (!ws.err) begin
            dpsn       = cmd_q.psn - cmd_q.fpsn;
            ws.sptr    = cmd_q.ptr & PMASK;
            ws.npsn    = cmd_q.psn;
            ws.soff    = 32'(dpsn) << shift;
            ws.rd_sent = cmd_q.rd_done;
            ws.nack    = '0;
            ws.paused  = cmd_q.kind == roce_req_pkg::RC_PAUSE;
            rekick_d   = cmd_q.kind == roce_req_pkg::RC_RETRY;
          end
        end else if (!ws.inited || ws.err || ctx_q.state != roce_qp_pkg::QPS_RTS) begin
          // ------------------------------------------- QP not sending
          st_d = S_WB;
          if (ws.sptr != head_q) begin
            if (ws.err) begin
              ev_in.kind = roce_req_pkg::EV_FLUSH;
              ev_in.ptr  = head_q;
            end else begin
              // a WQE on a QP that is not in RTS: the WQE fails, the QP goes to ERROR
              ev_in.kind   = roce_req_pkg::EV_LOCERR;
              ev_in.ptr    = ws.sptr;
              ev_in.status = (ctx_q.state == roce_qp_pkg::QPS_ERR) ? roce_qp_pkg::WC_WR_FLUSH_ERR
                                                                  : roce_qp_pkg::WC_LOC_QP_OP_ERR;
            end
            if (ev_in_ready) begin
              ev_push = 1'b1;
              if (ws.err) ws.sptr = head_q;
              else cnt_lerr_d = cnt_lerr_q + 32'd1;
            end else begin
              st_d = S_EVAL;
            end
          end
        end else if (ws.paused) begin
          st_d = S_WB;
        end else begin
          // Behind the completer (a resend started, then ACKs of the first
          // transmission retired WQEs past it): those ring slots may already
          // hold new posts, so jump to the oldest unacknowledged PSN.
          if (cpub_q.inited && roce_req_pkg::psn_lt(ws.npsn, cpub_q.una)) begin
            ws.sptr    = cpub_q.cptr & PMASK;
            ws.npsn    = cpub_q.una;
            dpsn       = cpub_q.una - cpub_q.fpsn;
            ws.soff    = 32'(dpsn) << shift;
            ws.rd_sent = cpub_q.rd_done;
            ws.nack    = '0;
          end
          if (ws.sptr == head_q) begin
            st_d = S_WB;                    // nothing to send
          end else begin
            wqe_rd_en   = 1'b1;
            wqe_rd_addr = {q_q, ws.sptr[SAW-1:0]};
            st_d        = S_WQE;
          end
        end
        if (st_d != S_EVAL) ws_d = ws;
      end

      S_WQE: begin
        wqe_d  = wqe_rd_data;
        rem_d  = wqe_rd_data.length - ws_q.soff;
        last_d = rem_d <= 32'(pmtu_b);
        // the MR is checked at the first packet of a WQE with a local range
        if (ws_q.soff == '0 && (wqe_rd_data.length != '0 ||
                                wqe_rd_data.opcode == roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP ||
                                wqe_rd_data.opcode == roce_qp_pkg::WR_ATOMIC_FETCH_AND_ADD)) begin
          mr_rd_en  = 1'b1;
          mr_rd_key = wqe_rd_data.lkey;
          st_d      = S_MR;
        end else begin
          st_d = S_PKT;
        end
      end

      S_MR: begin
        if (mr_ok) begin
          st_d = S_PKT;
        end else begin
          ev_in.kind   = roce_req_pkg::EV_LOCERR;
          ev_in.ptr    = ws_q.sptr;
          ev_in.status = roce_qp_pkg::WC_LOC_PROT_ERR;
          if (ev_in_ready) begin
            ev_push    = 1'b1;
            cnt_lerr_d = cnt_lerr_q + 32'd1;
            st_d       = S_WB;
          end
        end
      end

      S_PKT: begin
        if (!win_ok) begin
          st_d = S_WB;                      // the completer kicks when the window opens
        end else if (hd_in_ready && (!ackreq || tc_in_ready) &&
                     (!(is_wr || is_send) || paylen == '0 || dc_in_ready)) begin
          hd_push = 1'b1;
          tc_push = ackreq;
          dc_push = (is_wr || is_send) && paylen != '0;
          cnt_pkt_d = cnt_pkt_q + 32'd1;
          if ((is_wr || is_send) && !last) begin
            ws.soff = ws_q.soff + 32'(paylen);
          end else begin
            ws.soff = '0;
            ws.sptr = (ws_q.sptr + PW'(1)) & PMASK;
          end
          ws.npsn = ws_q.npsn + npsn_used;
          if (roce_req_pkg::psn_lt(ws_q.maxpsn, ws.npsn)) ws.maxpsn = ws.npsn;
          if (is_rd || is_at) ws.rd_sent = ws_q.rd_sent + RW'(1);
          ws.nack  = ackreq ? 8'd0 : ws_q.nack + 8'd1;
          ws_d     = ws;
          // S_WB's work in this cycle (one cycle less per packet)
          sr_we     = 1'b1;
          sr_waddr  = q_q;
          sr_wdata  = ws;
          self_kick = ws.sptr != head_q || ws.soff != '0;
          st_d      = S_IDLE;
        end
      end

      S_WB: begin
        sr_we     = 1'b1;
        sr_waddr  = q_q;
        sr_wdata  = ws_q;
        self_kick = rekick_q;
        st_d      = S_IDLE;
      end

      default: st_d = S_IDLE;
    endcase
  end

  always_comb begin
    rpub_wdata.inited = sr_wdata.inited;
    rpub_wdata.maxpsn = sr_wdata.maxpsn;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q       <= S_INIT;
      init_q     <= '0;
      queued_q   <= '0;
      q_q        <= '0;
      is_cmd_q   <= 1'b0;
      cmd_q      <= '0;
      ws_q       <= '0;
      head_q     <= '0;
      cpub_q     <= '0;
      ctx_q      <= '0;
      wqe_q      <= '0;
      rekick_q   <= 1'b0;
      cnt_pkt_q  <= '0;
      cnt_lerr_q <= '0;
    end else begin
      st_q       <= st_d;
      init_q     <= init_d;
      queued_q   <= queued_d;
      q_q        <= q_d;
      is_cmd_q   <= is_cmd_d;
      cmd_q      <= cmd_d;
      ws_q       <= ws_d;
      head_q     <= head_d;
      cpub_q     <= cpub_d;
      ctx_q      <= ctx_d;
      wqe_q      <= wqe_d;
      rekick_q   <= rekick_d;
      cnt_pkt_q  <= cnt_pkt_d;
      cnt_lerr_q <= cnt_lerr_d;
    end
    rem_q  <= rem_d;
    last_q <= last_d;
  end

`ifndef SYNTHESIS
  // rem_q / last_q stand for wqe_q.length - ws_q.soff and its compare with the PMTU
  always_ff @(posedge clk) begin
    if (!rst && st_q == S_PKT) begin
      assert (rem_q == wqe_q.length - ws_q.soff && last_q == (rem_q <= 32'(pmtu_b)))
        else $error("roce_req: rem_q/last_q stale in S_PKT (QP %0d)", q_q);
    end
  end
`endif

  assign cnt_pkt    = cnt_pkt_q;
  assign cnt_locerr = cnt_lerr_q;
  assign ctx_rd_qpn  = head_rd_qpn;
  assign cpub_rd_qpn = head_rd_qpn;

  roce_ram_sdp #(.WIDTH(RST_W), .DEPTH(NQP)) u_state (
    .clk, .wr_en(sr_we), .wr_addr(sr_waddr), .wr_data(sr_wdata),
    .rd_en(sr_re), .rd_addr(head_rd_qpn), .rd_data(sr_rdata)
  );
  roce_ram_sdp #(.WIDTH(roce_req_pkg::RPUB_W), .DEPTH(NQP)) u_rpub (
    .clk, .wr_en(sr_we), .wr_addr(sr_waddr), .wr_data(rpub_wdata),
    .rd_en(rpub_rd_en), .rd_addr(rpub_rd_qpn), .rd_data(rpub_rd_data)
  );

  /* verilator lint_on PINCONNECTEMPTY */

endmodule
