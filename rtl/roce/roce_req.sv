// roce_req: the requester of the RC transport (docs/transport.md).
//
// QPs with work are kept in a ready FIFO (each QP at most once, a bit per QP
// says it is queued): kicks come from the SQ (a post), the completer (window
// or READ credit opened) and from this block after each packet while the QP
// still has work, so QPs are served round robin, one packet per turn. A turn:
//   read the QP's requester state, SQ head, completer state and context;
//   read the WQE at the send pointer (and its MR at the WQE's first packet:
//   a local range outside the lkey's region is an EV_LOCERR to the
//   completer, nothing is sent; so is an lkey whose MR belongs to another
//   protection domain than the QP); cut the next packet: FIRST/MIDDLE exactly
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
// The payload stream is the DMA read stream passed through a register slice
// (one DMA command per packet with payload, in header order).
//
// A turn, cycle by cycle (every decision starts from registers):
//   S_IDLE  a QP reset (state cleared), else a completer command, else the
//           next ready QP (also chosen in the last cycle of a turn, S_PKT
//           or S_WB, and there the same QP again when nothing else waits),
//           else the QP of an SQ kick waiting in its skid (not queued)
//   S_RD    the four reads of the turn issued at q_q
//   S_LD    the read data registered (ws_q, head_q, cpub_q, ctx_q) and what S_EVAL decides on
//           computed from it (ld_q: RTS, behind, nothing to send, the send pointer, rewind
//           offsets, S_EVAL's case as one-hot ld_q.k_*); the WQE at the state's send pointer
//           read (its address one LUT from the state RAM's output)
//   S_EVAL  command, not sending (flush / error event), paused, or send, chosen by the flags,
//           each state field selected flatly; the WQE read in S_LD registered (wqe_q); the
//           WQE at ld_q.wa read again, used when the two differ (sending behind the completer)
//   S_WQF   (then only, one cycle more) the WQE read in S_EVAL registered
//   S_WQE   from wqe_q: rem = length - soff, rem - 1, npsn + 1, the end of the local range;
//           the MR read with wqe_q's lkey (checked at a WQE's first packet: mrchk)
//   S_PRE   the packet computed from registers into pre_q: header, DMA command, timer arm,
//           PSNs, window, next pointers; the MR check (base + length - end: one carry chain)
//   S_PKT   an MR failure is an EV_LOCERR; else window closed -> S_WB; else header, DMA
//           command and timer arm pushed when all have room (pkt_go, one LUT); the next state,
//           QP, command and pops picked by pkt_go and in_pkt_q (st_q == S_PKT, a flip-flop)
//           from kept values; the state written back, the QP kicked again if it has work
//   S_WB    the state written back (turns that sent nothing)
// A turn's first packet takes 6 cycles (S_RD .. S_PKT; S_IDLE only after idling). The fast
// path: after a packet that leaves work, with no QP reset or completer command waiting, the
// pacer's bit set and fewer than BURST packets sent in the turn, S_PKT goes on at S_WQE with
// the state it computed (the next WQE, the SQ head and the completer's state read in S_PRE):
// 3 cycles a packet. A command waiting when S_PKT ends a turn is taken in S_IDLE, a cycle
// later (the command slice's ready does not wait for pkt_go). Kicks pass register slices (the
// in-table check made before them), pushed from their registers a cycle later (the queued bit
// looked up in two halves across it); the outputs leave from flip-flops: events and timer
// arms from lib_fifo output registers, DMA commands and headers from output registers of their
// own that S_PKT's push reaches in one cycle while nothing is queued (a lib_fifo behind each
// holds the rest). The FIFOs' room, the reset queue's and the ready FIFO's "not empty" are
// flags registered a cycle ahead. The MR is read in every S_WQE (rd_en from the state
// register, the key from wqe_q).
`default_nettype none

module roce_req #(
  parameter int NQP          = 256,
  parameter int SQ_DEPTH     = 16,
  parameter int NMR          = 256,
  parameter int WINDOW       = 1024,  // PSNs outstanding at most (<= 2^22)
  parameter int ACKREQ_EVERY = 16,    // AckReq at least every this many packets (<= WINDOW/2)
  parameter int HDR_DEPTH    = 16,    // headers queued ahead of their payload
  parameter int BURST        = 16,    // packets of one QP per turn at most (the fast path; 1 .. 32)
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
  output roce_qp_pkg::dma_usr_t               m_dma_cmd_usr,  // beside m_dma_cmd: a streaming local MR (docs/user-logic.md)
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
  // the pacer (cc_pacer, docs/cc.md): the turn's QP, may it send (registered
  // there from pace_qpn), and each packet sent (registered here)
  output logic [QAW-1:0]                      pace_qpn,
  input  wire logic                           pace_ok,
  output logic                                m_txp_valid,
  output logic [QAW-1:0]                      m_txp_qpn,
  output logic [7:0]                          m_txp_opcode,
  output logic [15:0]                         m_txp_paylen,
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
  if (BURST < 1 || BURST > 32) begin : g_bad_burst
    $error("roce_req: need 1 <= BURST <= 32");
  end
  if (ACKREQ_EVERY < 1 || 2 * ACKREQ_EVERY > WINDOW || WINDOW > (1 << 22)) begin : g_bad_win
    $error("roce_req: need 1 <= ACKREQ_EVERY <= WINDOW/2 and WINDOW <= 2^22");
  end
  if ((1 << QAW) != NQP || (1 << MAW) != NMR || QAW < 3) begin : g_bad_nqp
    $error("roce_req: NQP and NMR must be powers of two, NQP >= 8");
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
    S_PRE  = 4'd5,   // MR read data valid; the packet computed
    S_PKT  = 4'd6,   // push the packet
    S_WB   = 4'd7,   // write the state back, requeue
    S_RD   = 4'd8,   // the turn's reads (address q_q)
    S_WQF  = 4'd9    // the WQE read in S_EVAL valid (S_LD's read was not at ld_q.wa)
  } state_e;

  state_e                  st_q, st_d;
  logic                    in_pkt_q, in_pkt_d;   // st_q == S_PKT, as a flip-flop of its own
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
  logic [4:0]              bc_q, bc_d;          // packets of this turn sent by the fast path
  logic                    fgo;                 // S_PKT: the turn goes on with the same QP (the fast path)
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
  // a kick's push is decided and written a cycle after it is taken (rp_*:
  // the kick and its lookups, registered); rfn_q counts the QPs written and
  // not popped
  logic                    rp_v_q, rp_v_d;
  (* keep *) logic         sk_direct;   // in S_IDLE, nothing else waits: an SQ kick starts its turn at once
  logic [QAW-1:0]          rp_q_q, rp_q_d;
  logic [QAW:0]            rfn_q, rfn_d;
  logic                    self_kick;

  // FIFO occupancy (count) is not needed, nor the in_ready of the QP reset
  // queues (resets are register writes, far apart: the queue never fills)
  /* verilator lint_off PINCONNECTEMPTY */
  roce_fifo #(.WIDTH(QAW), .DEPTH(NQP)) u_ready (
    .clk, .rst,
    .in_valid(rf_push), .in_ready(rf_in_ready), .in_data(rp_q_q),
    .out_valid(rf_valid), .out_ready(rf_pop), .out_data(rf_out), .count()
  );

  // The kicks of the SQ and the completer come through skid buffers (their
  // ready from a register) and are pushed from the buffers' registers, the
  // completer's first; a self kick (S_PKT, S_WB: the turn's QP, q_q), registered, comes
  // before both. A pop clears its QP's bit a cycle later (popv_q, popq_q):
  // until then the compare with popq_q stands for the cleared bit. The FIFO
  // never fills: it holds each of the NQP QPs at most once. A push is
  // decided and written a cycle after the kick is taken; an SQ kick that finds the
  // requester in S_IDLE with nothing else waiting (nothing queued, written or
  // being written, no command, no reset) starts its QP's turn at once
  // instead (sk_direct: its QP is queued nowhere then, so no lookup; its bit
  // is set and cleared as if it were pushed and popped at once).
  logic           sk_valid, sk_ready, ck_valid, ck_ready;
  logic [QAW-1:0] sk_qpn, ck_qpn;
  logic           popv_q, popv_d;
  logic [QAW-1:0] popq_q, popq_d;
  logic           in_c, in_k;
  logic           rp_ss_q, rp_ss_d, rp_in_q, rp_in_d, rp_bit, rp_clr_q, rp_clr_d;
  localparam int QLO = QAW / 2, QHI = QAW - QAW / 2;
  (* keep *) logic k_v;                   // a kick sets its QP's bit (rf_in) in this cycle
  (* keep *) logic sk_nw;                 // nothing else waits (no reset, command, QP queued or being written)
  (* keep *) logic sk_only;               // an SQ kick inside the table, no other kick
  (* keep *) logic [(1 << QLO)-1:0] kd_lo, pd_lo;   // rf_in, popq_q: low half decoded
  (* keep *) logic [(1 << QHI)-1:0] kd_hi, pd_hi;   // high half, with k_v, popv_q
  logic           rfz_q, rfz_d;           // rfn_q == 0

  // each kick's QPN with "inside the table" (in_k, in_c), checked before the skid
  lib_skid #(.WIDTH(QAW + 1)) u_kick_skid (
    .clk, .rst, .s_valid(s_kick_valid), .s_ready(s_kick_ready),
    .s_data({s_kick_qpn[23:QAW] == '0, s_kick_qpn[QAW-1:0]}),
    .m_valid(sk_valid), .m_ready(sk_ready), .m_data({in_k, sk_qpn})
  );
  lib_skid #(.WIDTH(QAW + 1)) u_ckick_skid (
    .clk, .rst, .s_valid(s_ckick_valid), .s_ready(s_ckick_ready),
    .s_data({s_ckick_qpn[23:QAW] == '0, s_ckick_qpn[QAW-1:0]}),
    .m_valid(ck_valid), .m_ready(ck_ready), .m_data({in_c, ck_qpn})
  );

  // a self kick is pushed the cycle after (ss_v_q, ss_q_q: from registers)
  logic           ss_v_q, ss_v_d;
  logic [QAW-1:0] ss_q_q, ss_q_d;
  always_comb begin
    ss_v_d   = self_kick;
    ss_q_d   = q_q;
    ck_ready = !ss_v_q;
    sk_ready = !ss_v_q && !ck_valid;
    // a kick is pushed unless its QP is queued already (or out of the table: in_c, in_k)
    rf_in    = ss_v_q ? ss_q_q : ck_valid ? ck_qpn : sk_qpn;
    sk_nw     = !rq_valid && !cm_valid && rfz_q && !rp_v_q;
    sk_only   = !ss_v_q && !ck_valid && sk_valid && in_k;
    sk_direct = st_q == S_IDLE && sk_nw && sk_only;
    // (an SQ kick that starts its turn at once sets its bit like any kick
    // and clears it like a pop: nothing waits then, so nothing pops)
    popv_d   = rf_pop || sk_direct;
    popq_d   = sk_direct ? sk_qpn : rf_out;
    // the kick of this cycle, with its lookups, registered (rp_*); its push
    // is decided and written from those registers the cycle after:
    //   a self kick unless its QP is queued (a pop of ss_q_q in the cycle of
    //   the self kick: its turn starts, no push), another kick unless out of
    //   the table or queued (the compare with popq_q standing for the bit a
    //   pop clears a cycle later)
    rp_v_d   = ss_v_q || ck_valid || (sk_valid && !sk_direct);
    rp_q_d   = rf_in;
    rp_ss_d  = ss_v_q;
    rp_in_d  = ss_v_q || (ck_valid ? in_c : in_k);
    // (the queued bit at rf_in: half looked up now (lk_q), half from the
    // registers the cycle after: rp_bit)
    rp_clr_d = popv_q && popq_q == rf_in;
    rf_push  = rp_v_q && (rp_ss_q ? !rp_bit : (rp_in_q && !(rp_bit && !rp_clr_q)));
    rfn_d    = rfn_q + (QAW+1)'(rf_push) - (QAW+1)'(rf_pop);
    rfz_d    = (rfz_q && !rf_push) || (rfn_q == (QAW+1)'(1) && rf_pop && !rf_push);   // (no pop when empty)
    // the kicked QP's bit is set whether pushed or not (a duplicate's bit is
    // set already): the bits do not wait for the lookups above
    // (one kick at a time: the bit of rf_in, set when k_v; a self kick's
    // only when the bit was clear: its pop in this cycle clears it)
    // the QPNs decoded in two halves (kept apart: one LUT per bit after them)
    k_v = ss_v_q || (ck_valid && in_c) || (!ck_valid && sk_valid && in_k);   // (sk_direct too)
    for (int j = 0; j < (1 << QLO); j++) begin
      kd_lo[j] = rf_in[QLO-1:0] == QLO'(j);
      pd_lo[j] = popq_q[QLO-1:0] == QLO'(j);
    end
    for (int j = 0; j < (1 << QHI); j++) begin
      kd_hi[j] = k_v && rf_in[QAW-1:QLO] == QHI'(j);
      pd_hi[j] = popv_q && popq_q[QAW-1:QLO] == QHI'(j);
    end
    for (int i = 0; i < NQP; i++) begin
      queued_d[i] = (queued_q[i] && !(pd_hi[i >> QLO] && pd_lo[i % (1 << QLO)])) ||
                    (kd_hi[i >> QLO] && kd_lo[i % (1 << QLO)] && !(ss_v_q && queued_q[i]));
    end
  end

  // The queued bit at the kick's QPN in two halves, a tree of 4:1 muxes
  // (each level kept apart, one LUT a level): in the cycle of the kick the
  // levels indexed by rf_in's low bits, their outputs registered (lk_q: the
  // bits of the QPNs that share rf_in's low bits); the cycle after, the rest
  // indexed by rp_q_q (the same QPN, registered), in front of rf_push.
  localparam int LKL = (QAW + 1) / 2;   // levels
  localparam int LKN = 1 << (2 * LKL);  // the table padded to a power of four
  localparam int LK1 = (LKL + 1) / 2;   // levels in the kick's cycle
  localparam int LKM = 1 << (2 * (LKL - LK1));   // bits registered between the halves
  logic [LKM-1:0] lk_q, lk_d;
  logic [2*LK1-1:0] lk_ix1;   // rf_in's low bits
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2*LKL-1:0] lk_ix2;   // rp_q_q (its high bits used)
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    lk_ix1 = rf_in[2*LK1-1:0];
    lk_ix2 = (2*LKL)'(rp_q_q);
  end
  for (genvar l = 0; l <= LKL; l++) begin : g_l
    // level l: (4^LKL >> 2l) entries
    (* keep *) logic [(1 << (2*(LKL-l)))-1:0] v;
    if (l == 0) begin : g_leaf
      assign v = LKN'(queued_q);
    end else if (l == LK1 + 1) begin : g_reg
      logic [1:0] sel;
      assign sel = lk_ix2[2*(l-1) +: 2];
      for (genvar j = 0; j < (1 << (2*(LKL-l))); j++) begin : g_j
        assign v[j] = sel[1] ? (sel[0] ? lk_q[4*j+3] : lk_q[4*j+2])
                             : (sel[0] ? lk_q[4*j+1] : lk_q[4*j]);
      end
    end else begin : g_node
      logic [1:0] sel;
      if (l <= LK1) begin : g_s1
        assign sel = lk_ix1[2*(l-1) +: 2];
      end else begin : g_s2
        assign sel = lk_ix2[2*(l-1) +: 2];
      end
      for (genvar j = 0; j < (1 << (2*(LKL-l))); j++) begin : g_j
        assign v[j] = sel[1] ? (sel[0] ? g_l[l-1].v[4*j+3] : g_l[l-1].v[4*j+2])
                             : (sel[0] ? g_l[l-1].v[4*j+1] : g_l[l-1].v[4*j]);
      end
    end
  end
  always_comb begin
    lk_d   = g_l[LK1].v;
    rp_bit = g_l[LKL].v[0];
  end

  // ------------------------------------------------------------ QP resets
  // rq_valid is the queue's "not empty", kept as a flag of its own from the
  // pushes and pops (the FIFO's own compares its pointers)
  logic        rq_valid, rq_ready, rq_ne;
  logic [23:0] rq_qpn;
  logic [4:0]  rqn_q, rqn_d;
  logic        rqv_q, rqv_d;

  roce_fifo #(.WIDTH(24), .DEPTH(16)) u_rst_q (
    .clk, .rst,
    .in_valid(qp_reset), .in_ready(), .in_data(qp_reset_qpn),
    .out_valid(rq_ne), .out_ready(rq_ready), .out_data(rq_qpn), .count()
  );
  always_comb begin
    rq_valid = rqv_q;
    rqn_d    = rqn_q + 5'(qp_reset && rqn_q != 5'd16) - 5'(rq_ready && rqv_q);   // (a full queue drops)
    rqv_d    = rqn_d != '0;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      rqn_q <= '0;
      rqv_q <= 1'b0;
    end else begin
      rqn_q <= rqn_d;
      rqv_q <= rqv_d;
    end
  end

  // ------------------------------------------------------------ output FIFOs
  logic                    ev_push, ev_in_ready;
  roce_req_pkg::rev_t      ev_in;
  logic                    tc_push, tc_in_ready;
  roce_req_pkg::tcmd_t     tc_in;
  localparam int DCW = roce_qp_pkg::DMA_USR_W + mem_pkg::ADDR_W + mem_pkg::LEN_W + mem_pkg::TAG_W;
  logic                    dc_push, dc_in_ready;
  logic [DCW-1:0]          dc_in;          // {roce_qp_pkg::dma_usr_t, mem_pkg::dma_rd_cmd_t}
  logic                    hd_push, hd_in_ready;
  roce_qp_pkg::qp_tx_hdr_t hd_in;

  // registered outputs (lib_fifo: valid and data from flip-flops)
  lib_fifo #(.WIDTH(roce_req_pkg::REV_W), .DEPTH(4)) u_ev_q (
    .clk, .rst, .s_valid(ev_push), .s_ready(ev_fifo_ready), .s_data(ev_in),
    .m_valid(m_ev_valid), .m_ready(m_ev_ready), .m_data(m_ev), .count(ev_count)
  );
  lib_fifo #(.WIDTH(roce_req_pkg::TCMD_W), .DEPTH(4)) u_tc_q (
    .clk, .rst, .s_valid(tc_push), .s_ready(tc_fifo_ready), .s_data(tc_in),
    .m_valid(m_tcmd_valid), .m_ready(m_tcmd_ready), .m_data(m_tcmd), .count(tc_count)
  );
  // The DMA commands and the headers leave through an output register of
  // their own (ho_*, do_*), in front of a lib_fifo: a word pushed while the
  // FIFO is empty and the output register free (or being taken) goes to the
  // output register at once, one cycle from S_PKT to the output (through the
  // FIFO it takes three); else it queues in the FIFO, which refills the
  // output register in order.
  localparam int HDW = roce_qp_pkg::QP_TX_HDR_W;
  localparam int HCW = $clog2(HDR_DEPTH + 1);
  logic            dq_v, dq_r, dq_push, do_v_q, do_v_d, do_free, dc_direct;
  logic [DCW-1:0]  dq_data, do_q, do_d;
  logic [2:0]      dq_count;
  logic            hq_v, hq_r, hq_push, ho_v_q, ho_v_d, ho_free, hd_direct;
  logic [HDW-1:0]  hq_data, ho_q, ho_d;
  logic [HCW-1:0]  hq_count;
  // Each FIFO's s_ready (count < DEPTH) as a flag registered a cycle ahead
  // from its count, push and pop (*_in_ready), so S_EVAL's and S_PKT's
  // decisions start at flip-flops.
  logic            ev_fifo_ready, tc_fifo_ready, dc_fifo_ready, hd_fifo_ready;
  logic [2:0]      ev_count, tc_count;
  logic [3:0]      rdy_q, rdy_d;   // ev, tc, dc, hd
  function automatic logic room_next(input logic [5:0] cnt, input logic push, input logic pop,
                                     input logic [5:0] depth);
    // (cnt + push - pop) < depth, without an adder: push only with room
    room_next = cnt < depth - 6'(1) || (cnt == depth - 6'(1) && (!push || pop)) || (cnt == depth && pop);
  endfunction
  always_comb begin
    rdy_d[3] = room_next(6'(ev_count), ev_push, m_ev_valid && m_ev_ready, 6'd4);
    rdy_d[2] = room_next(6'(tc_count), tc_push, m_tcmd_valid && m_tcmd_ready, 6'd4);
    rdy_d[1] = room_next(6'(dq_count), dq_push, dq_v && dq_r, 6'd4);
    rdy_d[0] = room_next(6'(hq_count), hq_push, hq_v && hq_r, 6'(HDR_DEPTH));
    ev_in_ready = rdy_q[3];
    tc_in_ready = rdy_q[2];
    dc_in_ready = rdy_q[1];
    hd_in_ready = rdy_q[0];
  end
  always_ff @(posedge clk) begin
    if (rst) rdy_q <= '1;
    else     rdy_q <= rdy_d;
  end
  lib_fifo #(.WIDTH(DCW), .DEPTH(4)) u_dc_q (
    .clk, .rst, .s_valid(dq_push), .s_ready(dc_fifo_ready), .s_data(dc_in),
    .m_valid(dq_v), .m_ready(dq_r), .m_data(dq_data), .count(dq_count)
  );
  lib_fifo #(.WIDTH(HDW), .DEPTH(HDR_DEPTH)) u_hd_q (
    .clk, .rst, .s_valid(hq_push), .s_ready(hd_fifo_ready), .s_data(hd_in),
    .m_valid(hq_v), .m_ready(hq_r), .m_data(hq_data), .count(hq_count)
  );
  always_comb begin
    do_free   = !do_v_q || m_dma_cmd_ready;
    dc_direct = dc_push && dq_count == '0 && do_free;
    dq_push   = dc_push && !dc_direct;
    dq_r      = do_free;
    do_v_d    = do_free ? (dq_v || dc_direct) : do_v_q;
    do_d      = !do_free ? do_q : dq_v ? dq_data : dc_in;
    ho_free   = !ho_v_q || m_hdr_ready;
    hd_direct = hd_push && hq_count == '0 && ho_free;
    hq_push   = hd_push && !hd_direct;
    hq_r      = ho_free;
    ho_v_d    = ho_free ? (hq_v || hd_direct) : ho_v_q;
    ho_d      = !ho_free ? ho_q : hq_v ? hq_data : hd_in;
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      do_v_q <= 1'b0;
      ho_v_q <= 1'b0;
    end else begin
      do_v_q <= do_v_d;
      ho_v_q <= ho_v_d;
    end
    do_q <= do_d;
    ho_q <= ho_d;
  end
  assign m_dma_cmd_valid = do_v_q;
  assign {m_dma_cmd_usr, m_dma_cmd} = do_q;
  assign m_hdr_valid     = ho_v_q;
  assign m_hdr           = ho_q;

  // payload: the DMA read stream, through a register slice
  lib_skid #(.WIDTH(roce_pkg::DATA_W + roce_pkg::KEEP_W + 1)) u_pay_skid (
    .clk, .rst,
    .s_valid(s_axis_dma_tvalid), .s_ready(s_axis_dma_tready),
    .s_data({s_axis_dma_tdata, s_axis_dma_tkeep, s_axis_dma_tlast}),
    .m_valid(m_axis_payload_tvalid), .m_ready(m_axis_payload_tready),
    .m_data({m_axis_payload_tdata, m_axis_payload_tkeep, m_axis_payload_tlast})
  );

  // completer commands, through a register slice
  // (with "its QP inside the table", checked before the slice: cm_in)
  logic                cm_valid, cm_ready, cm_in;
  roce_req_pkg::rcmd_t cm;
  lib_skid #(.WIDTH(roce_req_pkg::RCMD_W + 1)) u_cmd_skid (
    .clk, .rst, .s_valid(s_cmd_valid), .s_ready(s_cmd_ready),
    .s_data({s_cmd.qpn[23:QAW] == '0, s_cmd}),
    .m_valid(cm_valid), .m_ready(cm_ready), .m_data({cm_in, cm})
  );

  // ------------------------------------------------------------ the packet
  // Everything about the next packet of WQE wqe_q at ws_q, computed in S_PRE
  // from registers only (wqe_q, rem_q, remm1_q, npsn1_q, vend_q from S_WQE;
  // ws_q, ctx_q, cpub_q, head_q from S_EVAL and S_LD) and registered for
  // S_PKT, which only picks among registered values.
  logic [12:0]          pmtu_b;
  logic [3:0]           shift;
  logic                 is_wr, is_send, is_rd, is_at, has_imm;
  logic                 first, last;
  // set in S_WQE from the WQE as it is read and the send state (neither
  // changes until S_PKT takes the packet): one carry chain each
  logic [31:0]          rem_q, rem_d;       // wqe.length - soff
  logic [31:0]          remm1_q, remm1_d;   // rem - 1
  logic [23:0]          npsn1_q, npsn1_d;   // npsn + 1
  logic [64:0]          vend_q, vend_d;     // local_addr + bytes of the local range (MR check)
  logic                 mrchk_q, mrchk_d;   // this packet checks the MR (first of a WQE with a local range)
  logic                 rnz_q, rnz_d;       // rem != 0
  logic                 lwn_q, lwn_d;       // the local range is a destination (READ, atomic): needs local write (S_WQE)
  logic [4:0]           sh_q, sh_d;         // the PMTU's shift (8 .. 12), one-hot (S_LD)
  logic                 wn_q, wn_d;         // the PSNs outstanding below WINDOW (S_WQE)
  logic                 rdok_q, rdok_d;     // READ/atomic WQEs outstanding below max_rd_atomic (S_WQE)
  // set in S_PRE, used in S_PKT
  typedef struct packed {
    logic                    last;
    logic                    mrbad;   // the MR check failed: EV_LOCERR, nothing sent
    logic                    win;     // window and READ/atomic credit allow the packet
    logic                    ok;      // !mrbad && win: the packet goes when its outputs have room
    logic                    ackreq;
    logic                    dcp;     // a DMA read of the payload goes with it
    logic                    wrs;     // WRITE or SEND
    logic                    rdat;    // READ or atomic
    logic                    adv;     // the WQE has more packets after this one
    logic                    kick;    // the QP has work after this packet
    logic                    fast;    // ... and the turn may go on with it (the fast path: kick, burst left)
    logic [31:0]             soff;    // soff after this packet (adv)
    logic [PW-1:0]           sptr;    // the next WQE (!adv)
    logic [23:0]             npsn;    // npsn after this packet
    // (vectors: Yosys 0.23 takes no other package's type in a struct here)
    logic [roce_qp_pkg::QP_TX_HDR_W-1:0]                      hd;   // a roce_qp_pkg::qp_tx_hdr_t
    logic [roce_qp_pkg::DMA_USR_W+mem_pkg::ADDR_W+mem_pkg::LEN_W+mem_pkg::TAG_W-1:0] dc;   // {roce_qp_pkg::dma_usr_t, mem_pkg::dma_rd_cmd_t}
    logic [roce_req_pkg::TCMD_W-1:0]                          tc;   // a roce_req_pkg::tcmd_t
  } pre_t;
  pre_t                    pre_n, pre_q, pre_d;
  roce_qp_pkg::qp_tx_hdr_t hd_n;
  mem_pkg::dma_rd_cmd_t    dc_n;
  roce_qp_pkg::dma_usr_t   du_n;
  roce_req_pkg::tcmd_t     tc_n;

  logic [15:0]          paylen;
  logic [7:0]           opc;
  logic [23:0]          num1;            // PSNs this packet takes, minus one
  logic [23:0]          una;
  logic [23:0]          outst;
  logic [RW-1:0]        rd_out;
  logic [4:0]           rd_max;
  roce_pkg::tx_hdr_t    th;
  logic                 mr_ok;
  logic [65:0]          mr_sa, mr_sb, mr_sc, mr_s, mr_k;   // base + length - vend, carry-saved
  // the compared bits: the key above the row index (the row was read with the
  // lkey's index bits, and roce_transport stores every key's index bits as its
  // row: they always match) and the PD
  localparam int KC_G = (32 - MAW + roce_qp_pkg::PD_W + 2) / 3;
  (* keep *) logic [KC_G-1:0] mr_keq;    // {PD, key tag} bits 3g .. 3g+2 equal
  (* keep *) logic            mr_keq_all;   // all of them: a cone of its own (abc9 otherwise chains it behind the carries)
  logic [3*KC_G-1:0]    mr_kc, wq_kc;
  // the range tests' signs, each from two half-width chains in parallel (the high
  // half with and without the low half's carry/borrow) picked by the low half's
  /* verilator lint_off UNUSEDSIGNAL */
  logic [32:0]          mr_lo_l, mr_lo_h0, mr_lo_h1;   // local_addr - base: low 32, high 32 (+ borrow)
  logic [33:0]          mr_hi_l;                       // mr_s + mr_k: low 33 bits (+ carry)
  logic [32:0]          mr_hi_h0, mr_hi_h1;            // high 33 bits
  /* verilator lint_on UNUSEDSIGNAL */
  logic                 mr_lo_neg, mr_hi_neg;          // local_addr < base; base + length < vend

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
    first   = ws_q.soff == '0;
    last    = rem_q <= 32'(pmtu_b);
    paylen  = last ? rem_q[15:0] : 16'(pmtu_b);
    // a READ of rem bytes takes ceil(rem / PMTU) PSNs: (rem - 1) >> shift more
    // than one (the shift one-hot from S_LD, rem != 0 from S_WQE)
    unique case (1'b1)
      sh_q[1]: num1 = 24'(remm1_q >> 9);
      sh_q[2]: num1 = 24'(remm1_q >> 10);
      sh_q[3]: num1 = 24'(remm1_q >> 11);
      sh_q[4]: num1 = 24'(remm1_q >> 12);
      default: num1 = 24'(remm1_q >> 8);
    endcase
    if (!(is_rd && rnz_q)) num1 = 24'd0;

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
    pre_n.ackreq = is_rd || is_at || ((is_wr || is_send) && last) || (ws_q.nack >= 8'(ACKREQ_EVERY - 1));

    // After a resend started, ACKs of the first transmission may move una (and
    // rd_done) past where the requester was sent back to: it then sends
    // packets already acknowledged (the responder answers them as
    // duplicates) until it catches up; "behind" counts as nothing outstanding.
    // (the two limits from S_WQE: wn_q, rdok_q)
    pre_n.win = wn_q && (!(is_rd || is_at) || rdok_q);

    th                  = '0;
    th.hdr.bth.opcode   = opc;
    th.hdr.bth.se       = wqe_q.solicited && is_send && last;
    th.hdr.bth.pkey     = 16'hFFFF;
    th.hdr.bth.dqpn     = ctx_q.remote_qpn;
    th.hdr.bth.ackreq   = pre_n.ackreq;
    th.hdr.bth.psn      = ws_q.npsn;
    th.hdr.reth.va      = is_rd ? wqe_q.remote_addr + 64'(ws_q.soff) : wqe_q.remote_addr;
    th.hdr.reth.rkey    = wqe_q.rkey;
    th.hdr.reth.dma_len = is_rd ? rem_q : wqe_q.length;
    th.hdr.atomiceth.va       = wqe_q.remote_addr;
    th.hdr.atomiceth.rkey     = wqe_q.rkey;
    th.hdr.atomiceth.swap_add = wqe_q.swap_add;
    th.hdr.atomiceth.compare  = wqe_q.compare;
    th.hdr.immdt        = wqe_q.imm;
    th.pay_len          = (is_wr || is_send) ? paylen : 16'd0;

    hd_n.roce       = th;
    hd_n.remote_ip  = ctx_q.remote_ip;
    hd_n.remote_mac = ctx_q.remote_mac;
    hd_n.udp_sport  = ctx_q.udp_sport;

    dc_n.addr = wqe_q.local_addr + 64'(ws_q.soff);
    dc_n.len  = 32'(paylen);
    dc_n.tag  = 8'(q_q);
    du_n        = '0;
    du_n.stream = mr_rd_data.stream;      // the MR is read in every S_WQE
    du_n.qpn    = 24'(q_q);

    tc_n      = '0;
    tc_n.kind = roce_req_pkg::TC_ARM;
    tc_n.qpn  = 24'(q_q);
    tc_n.psn  = ws_q.npsn + num1;         // the packet's last PSN
    tc_n.texp = ctx_q.timeout;

    pre_n.hd   = hd_n;
    pre_n.dc   = {du_n, dc_n};
    pre_n.tc   = tc_n;
    pre_n.last = last;
    pre_n.wrs  = is_wr || is_send;
    pre_n.rdat = is_rd || is_at;
    pre_n.dcp  = (is_wr || is_send) && paylen != '0;
    pre_n.adv  = (is_wr || is_send) && !last;
    pre_n.soff = ws_q.soff + 32'(pmtu_b);
    pre_n.sptr = (ws_q.sptr + PW'(1)) & PMASK;
    pre_n.npsn = npsn1_q + num1;
    // more work: the WQE goes on, or the next one is posted (soff + PMTU of a
    // WQE that goes on is never 0: it stays below the WQE's length)
    pre_n.kick = pre_n.adv || pre_n.sptr != head_q;
    pre_n.fast = pre_n.kick && bc_q != 5'(BURST - 1) && pace_ok;   // (the pacer: the QP may go on)

    // local range check of the WQE's first packet: a WRITE/SEND source needs
    // a valid MR (local read is always allowed), a READ/atomic destination
    // needs local write. roce_qp_pkg::mr_check's range test, rewritten with
    // the end of the range from S_WQE: va >= base and va + len <= base + length.
    // a streaming MR (docs/user-logic.md) is no READ / atomic destination:
    // it grants no local write here (LOC_PROT_ERR); the need registered in
    // S_WQE (lwn_q), so the access test is one LUT beside the key tree
    // The key compare as a tree (3 bit pairs per LUT, kept apart), the MR's
    // PD against the QP's in the same tree (an lkey of another PD fails like
    // a wrong key: LOC_PROT_ERR) in place of the index bits, the range tests
    // as carry chains (the sign of a difference) of half the width each.
    // base + length - vend as one carry chain: the three operands (vend
    // negated, the +1 in the carries' free low bit) added carry-save first
    mr_sa   = {2'b0, mr_rd_data.base};
    mr_sb   = {2'b0, mr_rd_data.length};
    mr_sc   = ~{1'b0, vend_q};
    mr_s    = mr_sa ^ mr_sb ^ mr_sc;
    mr_k    = {(mr_sa[64:0] & mr_sb[64:0]) | (mr_sa[64:0] & mr_sc[64:0]) | (mr_sb[64:0] & mr_sc[64:0]), 1'b1};
    mr_kc   = (3*KC_G)'({mr_rd_data.pd, mr_rd_data.key[31:MAW]});
    wq_kc   = (3*KC_G)'({ctx_q.pd, wqe_q.lkey[31:MAW]});
    for (int g = 0; g < KC_G; g++) mr_keq[g] = mr_kc[3*g +: 3] == wq_kc[3*g +: 3];
    mr_lo_l   = {1'b0, wqe_q.local_addr[31:0]} - {1'b0, mr_rd_data.base[31:0]};
    mr_lo_h0  = {1'b0, wqe_q.local_addr[63:32]} - {1'b0, mr_rd_data.base[63:32]};
    mr_lo_h1  = {1'b0, wqe_q.local_addr[63:32]} + {1'b1, ~mr_rd_data.base[63:32]};   // - base - 1
    mr_lo_neg = mr_lo_l[32] ? mr_lo_h1[32] : mr_lo_h0[32];
    mr_hi_l   = {1'b0, mr_s[32:0]} + {1'b0, mr_k[32:0]};
    mr_hi_h0  = mr_s[65:33] + mr_k[65:33];
    mr_hi_h1  = mr_s[65:33] + mr_k[65:33] + 33'd1;
    mr_hi_neg = mr_hi_l[33] ? mr_hi_h1[32] : mr_hi_h0[32];
    mr_keq_all = &mr_keq;
    mr_ok   = mr_rd_data.valid && mr_keq_all && (!lwn_q || (mr_rd_data.access[0] && !mr_rd_data.stream)) && !mr_lo_neg && !mr_hi_neg;
    pre_n.mrbad = mrchk_q && !mr_ok;
    pre_n.ok    = !pre_n.mrbad && pre_n.win;
  end

  // ------------------------------------------------------------ the turn
  // What S_EVAL decides on, computed in S_LD from the reads of the turn (the
  // RAM outputs: state, SQ head, completer state, context) and the command,
  // registered in ld_q: S_EVAL picks among registered values.
  typedef struct packed {
    logic          rts;      // the QP is in RTS
    logic          qerr;     // the QP is in ERROR
    logic          ne_sr;    // the state's send pointer is not the SQ head
    logic          behind;   // behind the completer: jump to its oldest WQE
    logic          empty;    // nothing to send (at the pointer S_EVAL sends from)
    logic [PW-1:0] wa;       // the pointer S_EVAL sends from (its WQE is read there)
    logic [31:0]   soff_b;   // the byte offset of the jump (completer's una)
    logic [31:0]   soff_c;   // the byte offset of a command's rewind
    logic          spec;     // wa is where S_LD read the WQE (the state's send pointer)
    // S_EVAL's case, one-hot but for k_none (a command on a QP in ERROR, a
    // paused QP), and the state's fields S_EVAL sets, from the reads
    logic          ini;      // the state is inited from the context (first use in RTS)
    logic          k_stale;  // a command for a reset QP (not RC_ERROR): dropped
    logic          k_cerr;   // RC_ERROR: EV_FLUSH up to the SQ head, the QP stops
    logic          k_rew;    // RC_RETRY / RC_PAUSE: rewind to the command's (ptr, psn)
    logic          k_nsev;   // not sending, WQEs posted: an event (EV_FLUSH / EV_LOCERR)
    logic          k_nsfl;   // ... and it is EV_FLUSH (the QP in ERROR)
    logic          k_send;   // sending
    logic          k_sb;     // sending, behind the completer (jump to its oldest WQE)
  } ld_t;
  ld_t           ld_n, ld_q, ld_d;
  logic          v_init, b_sr, b_ctx;   // the state is inited at first use
  logic [PW-1:0] v_sptr;
  logic [3:0]    ld_shift;
  logic [23:0]   dpsn_b, dpsn_c;
  logic [PW-1:0] cptr_m;
  logic          eq_c, eq_s;
  logic          lc_ini, lc_stale, lc_cerr, lc_rew, lc_nsev, lc_nsfl, lc_send;

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
    unique case (ctx_rd_data.pmtu)
      roce_qp_pkg::PMTU_512:  ld_shift = 4'd9;
      roce_qp_pkg::PMTU_1024: ld_shift = 4'd10;
      roce_qp_pkg::PMTU_2048: ld_shift = 4'd11;
      roce_qp_pkg::PMTU_4096: ld_shift = 4'd12;
      default:                ld_shift = 4'd8;
    endcase
    ld_n.rts  = ctx_rd_data.state == roce_qp_pkg::QPS_RTS;
    ld_n.qerr = ctx_rd_data.state == roce_qp_pkg::QPS_ERR;
    // both starting points (the state as read, or inited from the context)
    // compared at once, then chosen
    v_init      = !sr_rdata.inited && ld_n.rts;
    v_sptr      = v_init ? '0 : sr_rdata.sptr;
    ld_n.ne_sr  = sr_rdata.sptr != head_rd_data;
    b_sr        = psn_lt_f(sr_rdata.npsn, cpub_rd_data.una);
    b_ctx       = psn_lt_f(ctx_rd_data.sq_psn, cpub_rd_data.una);
    ld_n.behind = cpub_rd_data.inited && (v_init ? b_ctx : b_sr);
    cptr_m      = cpub_rd_data.cptr & PMASK;
    eq_c        = cptr_m == head_rd_data;
    eq_s        = v_init ? head_rd_data == '0 : !ld_n.ne_sr;
    ld_n.empty  = ld_n.behind ? eq_c : eq_s;
    ld_n.wa     = ld_n.behind ? cptr_m : v_sptr;
    ld_n.spec   = ld_n.behind ? cptr_m[SAW-1:0] == sr_rdata.sptr[SAW-1:0]
                              : !v_init || sr_rdata.sptr[SAW-1:0] == '0;
    dpsn_b      = cpub_rd_data.una - cpub_rd_data.fpsn;
    dpsn_c      = cmd_q.psn - cmd_q.fpsn;
    ld_n.soff_b = 32'(dpsn_b) << ld_shift;
    ld_n.soff_c = 32'(dpsn_c) << ld_shift;
    ld_n.ini     = lc_ini;
    ld_n.k_stale = lc_stale;
    ld_n.k_cerr  = lc_cerr;
    ld_n.k_rew   = lc_rew;
    ld_n.k_nsev  = lc_nsev;
    ld_n.k_nsfl  = lc_nsfl;
    ld_n.k_send  = lc_send;
    ld_n.k_sb    = lc_send && ld_n.behind;
    ld_d        = (st_q == S_LD) ? ld_n : ld_q;
    sh_d        = (st_q == S_LD) ? 5'(1) << (ld_shift - 4'd8) : sh_q;
  end

  // S_EVAL's case from the reads (S_LD), as its own decision: the state the
  // turn starts from (ws: inited from the context at first use in RTS) is
  // inited, in ERROR, paused as these say.
  logic ws_inited, ws_err, ws_paused, k_ns;
  always_comb begin
    lc_ini    = !sr_rdata.inited && ctx_rd_data.state == roce_qp_pkg::QPS_RTS;
    ws_inited = lc_ini || sr_rdata.inited;
    ws_err    = !lc_ini && sr_rdata.err;
    ws_paused = !lc_ini && sr_rdata.paused;
    lc_stale  = is_cmd_q && !sr_rdata.inited && cmd_q.kind != roce_req_pkg::RC_ERROR;
    lc_cerr   = is_cmd_q && cmd_q.kind == roce_req_pkg::RC_ERROR;
    lc_rew    = is_cmd_q && sr_rdata.inited && cmd_q.kind != roce_req_pkg::RC_ERROR && !sr_rdata.err;
    k_ns      = !is_cmd_q && (!ws_inited || ws_err || ctx_rd_data.state != roce_qp_pkg::QPS_RTS);
    lc_nsev   = k_ns && sr_rdata.sptr != head_rd_data;
    lc_nsfl   = k_ns && sr_rdata.sptr != head_rd_data && ws_err;
    lc_send   = !is_cmd_q && !k_ns && !ws_paused;
  end

  // ------------------------------------------------------------ next turn
  // Chosen in S_IDLE, and in the last cycle of a turn (S_PKT taking the
  // packet, S_WB) so that the next turn's reads follow at once (S_RD): a QP
  // reset first (S_IDLE writes it), then a completer command, then the next
  // ready QP, else the same QP again while it has work (et_more; it is
  // pushed to the ready FIFO instead when another turn goes first).
  logic           nt_cmd, nt_pop, nt_rd;
  logic [QAW-1:0] nt_q;
  logic           et_more;
  (* keep *) logic et_kick, et_cmd, et_pop, et_is_cmd;   // kept: S_PKT's turn end picks them by pkt_push alone
  (* keep *) logic [QAW-1:0] et_q;
  state_e         et_st;
  (* keep *) logic idle_rd;   // S_IDLE starts a turn: nt_rd || sk_direct
  always_comb begin
    idle_rd = !rq_valid && (cm_valid ? cm_in : (!rfz_q || (!rp_v_q && sk_only)));
    nt_cmd = !rq_valid && cm_valid;
    nt_pop = !rq_valid && !cm_valid && !rfz_q;   // (rf_valid)
    nt_q   = nt_cmd ? cm.qpn[QAW-1:0] : rf_out;
    nt_rd  = nt_cmd ? cm_in : nt_pop;

    et_more   = (st_q == S_PKT) ? pre_q.kick : rekick_q;
    et_cmd    = nt_cmd;
    et_pop    = nt_pop;
    et_is_cmd = nt_cmd;
    et_q      = nt_q;
    et_kick   = et_more;
    et_st     = nt_rd ? S_RD : S_IDLE;
    if (!nt_cmd && !nt_pop) begin
      et_q      = q_q;
      et_is_cmd = is_cmd_q;
      if (!rq_valid && et_more) begin
        et_is_cmd = 1'b0;
        et_kick   = 1'b0;
        et_st     = S_RD;
      end
    end
    // the fast path (S_PKT only): no reset or command waits and the packet
    // left more work with burst to spare: the same QP from S_WQE, nothing
    // popped or kicked (no command is taken then: et_cmd and et_is_cmd are
    // 0 already, no command waiting and S_PKT never a command's turn)
    fgo = in_pkt_q && pre_q.fast && !rq_valid && !cm_valid;
    if (fgo) begin
      et_pop    = 1'b0;
      et_q      = q_q;
      et_kick   = 1'b0;
      et_st     = S_WQE;
    end
  end
  always_comb bc_d = (st_q == S_RD) ? 5'd0 : (pkt_push && fgo) ? bc_q + 5'd1 : bc_q;

  // ------------------------------------------------------------ S_EVAL
  // A flat choice among the cases registered in S_LD (ld_q.k_*): the state
  // the turn starts from (ws_q, or inited from the context: ld_q.ini), then
  //   k_stale  a command for a reset QP: dropped (S_IDLE, nothing written)
  //   k_cerr   RC_ERROR: EV_FLUSH up to the SQ head; the QP in ERROR, its
  //            send pointer at the head
  //   k_rew    RC_RETRY / RC_PAUSE: rewind to (ptr, psn), paused on RC_PAUSE,
  //            kicked again on RC_RETRY
  //   k_nsev   not sending (not inited, in ERROR, not in RTS) with WQEs
  //            posted: EV_FLUSH (in ERROR: the send pointer to the head) or
  //            EV_LOCERR of the WQE at the send pointer
  //   k_send   sending: behind the completer (k_sb) jump to its oldest WQE;
  //            the WQE at the send pointer (read in this cycle) next, or
  //            nothing to send
  //   else     nothing (a command on a QP in ERROR, a paused QP): S_WB
  // An event waits in S_EVAL for room (the state unchanged until it goes).
  state_e         ev_st;
  rst_t           ev_ws;
  logic           ev_evw;      // an event goes with this case
  roce_req_pkg::rev_kind_e ev_kind;
  logic [PW-1:0]  ev_ptr;
  logic [4:0]     ev_status;
  logic           ev_sp_head;  // the send pointer to the SQ head
  always_comb begin
    ev_evw     = ld_q.k_cerr || ld_q.k_nsev;
    ev_sp_head = ld_q.k_cerr || ld_q.k_nsfl;
    ev_kind    = (ld_q.k_nsev && !ld_q.k_nsfl) ? roce_req_pkg::EV_LOCERR : roce_req_pkg::EV_FLUSH;
    ev_ptr     = (ld_q.k_nsev && !ld_q.k_nsfl) ? ws_q.sptr : head_q;
    ev_status  = (ld_q.k_nsev && !ld_q.k_nsfl) ? (ld_q.qerr ? roce_qp_pkg::WC_WR_FLUSH_ERR : roce_qp_pkg::WC_LOC_QP_OP_ERR)
                                                : 5'd0;
    ev_st      = S_WB;
    if (ld_q.k_stale) ev_st = S_IDLE;
    if (ld_q.k_send && !ld_q.empty && pace_ok) ev_st = ld_q.spec ? S_WQE : S_WQF;
    if (ev_evw && !ev_in_ready) ev_st = S_EVAL;
    // the state's fields, each by the cases that set it
    ev_ws = ws_q;
    if (!(ev_evw && !ev_in_ready)) begin
      ev_ws.inited = ld_q.ini || ld_q.k_cerr || ws_q.inited;
      ev_ws.err    = ld_q.k_cerr || (!ld_q.ini && ws_q.err);
      ev_ws.paused = ld_q.k_rew ? cmd_q.kind == roce_req_pkg::RC_PAUSE : (!ld_q.k_cerr && !ld_q.ini && ws_q.paused);
      ev_ws.sptr   = ev_sp_head ? head_q : ld_q.k_rew ? (cmd_q.ptr & PMASK) : ld_q.k_sb ? (cpub_q.cptr & PMASK) :
                     ld_q.ini ? '0 : ws_q.sptr;
      ev_ws.soff   = ld_q.k_cerr ? '0 : ld_q.k_rew ? ld_q.soff_c : ld_q.k_sb ? ld_q.soff_b :
                     ld_q.ini ? '0 : ws_q.soff;
      ev_ws.npsn   = ld_q.k_rew ? cmd_q.psn : ld_q.k_sb ? cpub_q.una : ld_q.ini ? ctx_q.sq_psn : ws_q.npsn;
      ev_ws.maxpsn = ld_q.ini ? ctx_q.sq_psn : ws_q.maxpsn;
      ev_ws.rd_sent = ld_q.k_rew ? cmd_q.rd_done : ld_q.k_sb ? cpub_q.rd_done : ld_q.ini ? '0 : ws_q.rd_sent;
      ev_ws.nack   = (ld_q.k_rew || ld_q.k_sb || ld_q.ini) ? '0 : ws_q.nack;
    end
  end

  // ------------------------------------------------------------ the FSM
  rst_t          ws;      // the turn's new state (module level: Yosys 0.23 takes no struct locals)
  // the FSM's turn choice and handshakes but for S_PKT's turn end, kept:
  // pkt_push picks between them and et_* in one LUT (below)
  (* keep *) logic [QAW-1:0]    q_f;
  (* keep *) logic              is_cmd_f, cm_ready_f, rf_pop_f, self_kick_f;
  (* keep *) roce_req_pkg::rcmd_t cmd_f;
  (* keep *) logic pkt_go;
  logic            pkt_push;
  always_comb begin
    st_d        = st_q;
    init_d      = init_q;
    q_f         = q_q;
    is_cmd_f    = is_cmd_q;
    cmd_f       = cmd_q;
    ws_d        = ws_q;
    head_d      = head_q;
    cpub_d      = cpub_q;
    ctx_d       = ctx_q;
    wqe_d       = wqe_q;
    rem_d       = rem_q;
    remm1_d     = remm1_q;
    rnz_d       = rnz_q;
    lwn_d       = lwn_q;
    npsn1_d     = npsn1_q;
    wn_d        = wn_q;
    rdok_d      = rdok_q;
    una         = '0;
    outst       = '0;
    rd_out      = '0;
    rd_max      = '0;
    vend_d      = vend_q;
    mrchk_d     = mrchk_q;
    rekick_d    = rekick_q;
    cnt_pkt_d   = cnt_pkt_q;
    cnt_lerr_d  = cnt_lerr_q;

    rq_ready    = 1'b0;
    cm_ready_f  = 1'b0;
    rf_pop_f    = 1'b0;
    self_kick_f = 1'b0;
    sr_we       = 1'b0;
    sr_waddr    = q_q;
    sr_wdata    = ws_q;
    // the turn's reads, from registers (S_RD)
    sr_re       = st_q == S_RD;
    ctx_rd_en   = st_q == S_RD;
    head_rd_qpn = q_q;
    // the SQ head and the completer's state read again in every S_PRE, and
    // the WQE after the one being cut: what the fast path goes on with
    head_rd_en  = st_q == S_RD || st_q == S_PRE;
    cpub_rd_en  = st_q == S_RD || st_q == S_PRE;
    // the WQE at the state's send pointer is read in every S_LD (from the
    // state RAM's output), the one S_EVAL sends from in every S_EVAL (used
    // when they differ: S_WQF), the next one in every S_PRE
    wqe_rd_en   = st_q == S_LD || st_q == S_EVAL || st_q == S_PRE;
    wqe_rd_addr = {q_q, (st_q == S_LD) ? sr_rdata.sptr[SAW-1:0] : (st_q == S_PRE) ? pre_n.sptr[SAW-1:0] :
                        ld_q.wa[SAW-1:0]};
    // the MR of the WQE read in every S_WQE, its key from wqe_q (its entry
    // is looked at when mrchk)
    mr_rd_en    = st_q == S_WQE;
    mr_rd_key   = wqe_q.lkey;
    ev_push     = 1'b0;
    ev_in       = '0;
    ev_in.qpn   = 24'(q_q);
    // (the packet's pushes: pkt_push below)
    tc_push     = pkt_push && pre_q.ackreq;
    dc_push     = pkt_push && pre_q.dcp;
    hd_push     = pkt_push;
    ws          = ws_q;

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
        end
        cm_ready_f = nt_cmd;
        rf_pop_f   = nt_pop;
        if (nt_cmd) cmd_f = cm;
        // the turn's QP (q_q, is_cmd_q are not looked at while idle: set
        // whether a turn starts or not): a command's, the ready FIFO's, else
        // the SQ kick's (sk_direct)
        is_cmd_f = nt_cmd;
        q_f      = (nt_cmd || nt_pop) ? nt_q : sk_qpn;
        st_d     = idle_rd ? S_RD : S_IDLE;
      end

      S_RD: st_d = S_LD;

      S_LD: begin
        ws_d   = sr_rdata;
        head_d = head_rd_data;
        cpub_d = cpub_rd_data;
        ctx_d  = ctx_rd_data;
        st_d   = S_EVAL;
      end

      S_EVAL: begin
        st_d     = ev_st;
        ws_d     = ev_ws;
        wqe_d    = wqe_rd_data;   // read in S_LD (a repeated S_EVAL: in S_EVAL; sends nothing)
        ev_push  = ev_evw && ev_in_ready;
        ev_in.kind   = ev_kind;
        ev_in.ptr    = ev_ptr;
        ev_in.status = ev_status;
        if (ld_q.k_nsev && !ld_q.k_nsfl && ev_in_ready) cnt_lerr_d = cnt_lerr_q + 32'd1;
        if (ld_q.k_rew) rekick_d = cmd_q.kind == roce_req_pkg::RC_RETRY;
        // work, held back by the pacer: the turn ends (S_WB), the QP queued again
        if (ld_q.k_send && !ld_q.empty && !pace_ok) rekick_d = 1'b1;
      end

      S_WQF: begin
        wqe_d = wqe_rd_data;      // read in S_EVAL at ld_q.wa
        st_d  = S_WQE;
      end

      S_WQE: begin
        rem_d   = wqe_q.length - ws_q.soff;
        remm1_d = wqe_q.length + ~ws_q.soff;
        rnz_d   = wqe_q.length != ws_q.soff;
        lwn_d   = wqe_q.opcode == roce_qp_pkg::WR_RDMA_READ || wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP ||
                  wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_FETCH_AND_ADD;
        npsn1_d = ws_q.npsn + 24'd1;
        // the window and the READ/atomic credit, from the send state and the
        // completer's as they stand for S_PRE (neither changes until S_PKT)
        una     = cpub_q.inited ? cpub_q.una : ctx_q.sq_psn;
        outst   = roce_req_pkg::psn_lt(ws_q.npsn, una) ? 24'd0 : ws_q.npsn - una;
        rd_out  = ws_q.rd_sent - (cpub_q.inited ? cpub_q.rd_done : '0);
        if (rd_out[RW-1]) rd_out = '0;
        rd_max  = (ctx_q.max_rd_atomic == '0) ? 5'd1 : ctx_q.max_rd_atomic;
        wn_d    = outst < 24'(WINDOW);
        rdok_d  = rd_out < RW'(rd_max);
        // the end of the local range: an atomic's 8 bytes, else the WQE's length
        vend_d  = {1'b0, wqe_q.local_addr} +
                  ((wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP ||
                    wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_FETCH_AND_ADD) ? 65'd8 : 65'(wqe_q.length));
        // the MR is checked at the first packet of a WQE with a local range
        mrchk_d = ws_q.soff == '0 && (wqe_q.length != '0 ||
                                      wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_CMP_AND_SWP ||
                                      wqe_q.opcode == roce_qp_pkg::WR_ATOMIC_FETCH_AND_ADD);
        st_d    = S_PRE;
      end

      S_PRE: st_d = S_PKT;

      S_PKT: begin
        st_d = pkt_st;
        if (pre_q.mrbad) begin
          ev_in.kind   = roce_req_pkg::EV_LOCERR;
          ev_in.ptr    = ws_q.sptr;
          ev_in.status = roce_qp_pkg::WC_LOC_PROT_ERR;
          if (ev_in_ready) begin
            ev_push    = 1'b1;
            cnt_lerr_d = cnt_lerr_q + 32'd1;
          end
        end else if (pkt_go) begin
          cnt_pkt_d = cnt_pkt_q + 32'd1;
          if (pre_q.adv) begin
            ws.soff = pre_q.soff;
          end else begin
            ws.soff = '0;
            ws.sptr = pre_q.sptr;
          end
          ws.npsn = pre_q.npsn;
          if (roce_req_pkg::psn_lt(ws_q.maxpsn, pre_q.npsn)) ws.maxpsn = pre_q.npsn;
          if (pre_q.rdat) ws.rd_sent = ws_q.rd_sent + RW'(1);
          ws.nack  = pre_q.ackreq ? 8'd0 : ws_q.nack + 8'd1;
          ws_d     = ws;
          // the fast path: the turn goes on from S_WQE with the state just
          // computed, the head and completer state read in S_PRE, and the
          // next WQE read there (a WQE with more packets stays)
          if (fgo) begin
            head_d = head_rd_data;
            cpub_d = cpub_rd_data;
            if (!pre_q.adv) wqe_d = wqe_rd_data;
          end
          // S_WB's work in this cycle (one cycle less per packet)
          sr_we     = 1'b1;
          sr_waddr  = q_q;
          sr_wdata  = ws;
          // (the turn's end: pkt_push below)
        end
      end

      S_WB: begin
        sr_we       = 1'b1;
        sr_waddr    = q_q;
        sr_wdata    = ws_q;
        rekick_d    = 1'b0;
        self_kick_f = et_kick;
        cm_ready_f  = et_cmd;
        rf_pop_f    = et_pop;
        if (et_cmd) cmd_f = cm;
        is_cmd_f    = et_is_cmd;
        q_f         = et_q;
        st_d        = et_st;
      end

      default: st_d = S_IDLE;
    endcase
  end

  // S_PKT's turn end (the packet taken: S_WB's work in this cycle), picked
  // by pkt_push (pkt_go and the flip-flop in_pkt_q) between kept values so
  // that each of these is one LUT after pkt_go, the FIFOs' pops and pushes
  // at most one more (pkt_push itself is folded into them)
  always_comb begin
    // st_d == S_PKT: from S_PRE, or S_PKT again (no push, pkt_np)
    in_pkt_d  = st_q == S_PRE || (in_pkt_q && !pkt_go && pkt_np == S_PKT);
    q_d       = pkt_push ? et_q : q_f;
    is_cmd_d  = pkt_push ? et_is_cmd : is_cmd_f;
    // (a command waiting when S_PKT ends its turn is taken in S_IDLE, a
    // cycle later: the command slice's ready does not wait for pkt_go)
    cmd_d     = cmd_f;
    cm_ready  = cm_ready_f;
    rf_pop    = pkt_push ? et_pop : rf_pop_f;
    self_kick = pkt_push ? et_kick : self_kick_f;
  end

  // S_PKT: the packet goes (one LUT from flip-flops, kept apart); its next
  // state picked by pkt_go in one LUT a bit between two made from registers
  // beside it: the turn's end (the fast path: S_WQE; else pkt_rd: S_RD, else
  // S_IDLE, which takes a waiting command) and the
  // state when nothing is pushed (pkt_np: S_WB once an EV_LOCERR goes or
  // with the window closed, the completer kicking when it opens; else S_PKT
  // again)
  (* keep *) logic pkt_rd;
  (* keep *) state_e pkt_np;
  state_e pkt_st;
  always_comb begin
    pkt_go   = pre_q.ok && hd_in_ready && (!pre_q.ackreq || tc_in_ready) && (!pre_q.dcp || dc_in_ready);
    pkt_push = in_pkt_q && pkt_go;
    pkt_rd   = !rq_valid && !cm_valid && (!rfz_q || pre_q.kick);   // et_st == S_RD in S_PKT (a command: S_IDLE)
    pkt_np   = (pre_q.mrbad ? ev_in_ready : !pre_q.win) ? S_WB : S_PKT;
    pkt_st   = pkt_go ? (fgo ? S_WQE : pkt_rd ? S_RD : S_IDLE) : pkt_np;
  end

  always_comb begin
    pre_d  = (st_q == S_PRE) ? pre_n : pre_q;
    hd_in  = pre_q.hd;
    dc_in  = pre_q.dc;
    tc_in  = pre_q.tc;
  end

  always_comb begin
    rpub_wdata.inited = sr_wdata.inited;
    rpub_wdata.maxpsn = sr_wdata.maxpsn;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q       <= S_INIT;
      in_pkt_q   <= 1'b0;
      init_q     <= '0;
      queued_q   <= '0;
      popv_q     <= 1'b0;
      ss_v_q     <= 1'b0;
      rp_v_q     <= 1'b0;
      rfn_q      <= '0;
      rfz_q      <= 1'b1;
      q_q        <= '0;
      is_cmd_q   <= 1'b0;
      cmd_q      <= '0;
      ws_q       <= '0;
      head_q     <= '0;
      cpub_q     <= '0;
      ctx_q      <= '0;
      wqe_q      <= '0;
      rekick_q   <= 1'b0;
      bc_q       <= '0;
      cnt_pkt_q  <= '0;
      cnt_lerr_q <= '0;
    end else begin
      st_q       <= st_d;
      in_pkt_q   <= in_pkt_d;
      init_q     <= init_d;
      queued_q   <= queued_d;
      popv_q     <= popv_d;
      ss_v_q     <= ss_v_d;
      rp_v_q     <= rp_v_d;
      rfn_q      <= rfn_d;
      rfz_q      <= rfz_d;
      q_q        <= q_d;
      is_cmd_q   <= is_cmd_d;
      cmd_q      <= cmd_d;
      ws_q       <= ws_d;
      head_q     <= head_d;
      cpub_q     <= cpub_d;
      ctx_q      <= ctx_d;
      wqe_q      <= wqe_d;
      rekick_q   <= rekick_d;
      bc_q       <= bc_d;
      cnt_pkt_q  <= cnt_pkt_d;
      cnt_lerr_q <= cnt_lerr_d;
    end
    popq_q  <= popq_d;
    rp_q_q  <= rp_q_d;
    rp_ss_q  <= rp_ss_d;
    rp_in_q  <= rp_in_d;
    lk_q     <= lk_d;
    rp_clr_q <= rp_clr_d;
    ss_q_q  <= ss_q_d;
    rem_q   <= rem_d;
    remm1_q <= remm1_d;
    rnz_q   <= rnz_d;
    lwn_q   <= lwn_d;
    sh_q    <= sh_d;
    npsn1_q <= npsn1_d;
    wn_q    <= wn_d;
    rdok_q  <= rdok_d;
    vend_q  <= vend_d;
    mrchk_q <= mrchk_d;
    pre_q   <= pre_d;
    ld_q    <= ld_d;
  end

`ifndef SYNTHESIS
  logic rst_seen_q = 1'b0;
  always_ff @(posedge clk) if (rst) rst_seen_q <= 1'b1;
  // each QP is queued at most once: the ready FIFO never fills
  always_ff @(posedge clk) begin
    if (!rst && rf_push) assert (rf_in_ready) else $error("roce_req: ready FIFO full");
    if (!rst) assert (in_pkt_q == (st_q == S_PKT)) else $error("roce_req: in_pkt_q differs from st_q == S_PKT");
    // the QPs written and not popped are what the FIFO holds
    if (!rst) assert ((rfn_q != '0) == rf_valid && rfz_q == (rfn_q == '0)) else $error("roce_req: ready FIFO count");
    // the room flags are the FIFOs' s_ready
    if (!rst && rdy_q != {ev_fifo_ready, tc_fifo_ready, dc_fifo_ready, hd_fifo_ready})
      $error("roce_req: room flags differ from the FIFOs' s_ready");
    // the reset queue's flag is its "not empty" (once both were reset)
    if (!rst && rst_seen_q) assert (rqv_q == rq_ne) else $error("roce_req: reset queue flag");
  end
  // the WQE in wqe_q at S_WQE is the one at the send pointer (chk_wa_q: the
  // address of the read wqe_q was loaded from)
  logic [QAW+SAW-1:0] chk_ra_q, chk_wa_q;
  always_ff @(posedge clk) begin
    if (wqe_rd_en) chk_ra_q <= wqe_rd_addr;
    if (st_q == S_EVAL || st_q == S_WQF || (pkt_push && fgo && !pre_q.adv)) chk_wa_q <= chk_ra_q;
    if (!rst && st_q == S_WQE)
      assert (chk_wa_q == {q_q, ws_q.sptr[SAW-1:0]}) else $error("roce_req: the WQE read is not at the send pointer (QP %0d)", q_q);
    if (!rst && st_q == S_EVAL && ld_q.k_send && !ld_q.empty)
      assert (ev_ws.sptr == ld_q.wa) else $error("roce_req: S_EVAL sends from another pointer than it read (QP %0d)", q_q);
  end
  // the PSN count from the one-hot shift and rem != 0 (registered) is the plain one
  always_ff @(posedge clk) begin
    if (!rst && st_q == S_PRE)
      assert (num1 == ((is_rd && rem_q != '0) ? 24'(remm1_q >> shift) : 24'd0) && rnz_q == (rem_q != '0))
        else $error("roce_req: the READ's PSN count differs (QP %0d)", q_q);
  end
  // what S_PRE registered still stands for the WQE and the send state in S_PKT
  // (fast: but for the pacer's bit, which may have changed since)
  always_ff @(posedge clk) begin
    if (!rst && st_q == S_PKT) begin
      assert (rem_q == wqe_q.length - ws_q.soff && remm1_q == rem_q - 32'd1 && npsn1_q == ws_q.npsn + 24'd1 &&
              pre_q.last == pre_n.last && pre_q.win == pre_n.win && pre_q.kick == pre_n.kick && (pre_q.fast == pre_n.fast || !pace_ok || !pre_q.fast) &&
              pre_q.npsn == pre_n.npsn && pre_q.hd == pre_n.hd && pre_q.dc == pre_n.dc && pre_q.tc == pre_n.tc)
        else $error("roce_req: S_PRE's packet stale in S_PKT (QP %0d)", q_q);
    end
  end
`endif

  // each packet to the pacer: its QP, opcode and payload length (registered)
  logic           txp_v_q;
  logic [QAW-1:0] txp_q_q;
  logic [7:0]     txp_op_q;
  logic [15:0]    txp_pl_q;
  roce_pkg::tx_hdr_t txp_th;
  always_comb txp_th = hd_in.roce;
  always_ff @(posedge clk) begin
    if (rst) txp_v_q <= 1'b0;
    else     txp_v_q <= pkt_push;
    txp_q_q  <= q_q;
    txp_op_q <= txp_th.hdr.bth.opcode;
    txp_pl_q <= txp_th.pay_len;
  end
  assign m_txp_valid  = txp_v_q;
  assign m_txp_qpn    = txp_q_q;
  assign m_txp_opcode = txp_op_q;
  assign m_txp_paylen = txp_pl_q;
  assign pace_qpn     = q_q;

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
