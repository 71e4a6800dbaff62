// roce_resp_check: the chain of checks of the responder (docs/transport.md,
// "Responder"), one request header at a time, pipelined so that no path is
// deeper than a few LUTs: every RAM row is registered before it is looked
// at, the IB checks run in parallel (one function each, named as in Linux
// rxe's rxe_resp.c), their flags are registered, and the verdict is chosen
// from the flags a cycle later. Every output comes from a flip-flop.
//
//   C_IDLE  s_hdr_ready (registered): take a header into h_q, its MR key
//           (RETH / AtomicETH rkey) into mr_key_q
//   C_RD0   read QP context, dynamic state, the MR row of mr_key_q; the RQ
//           lookup (only for headers that need a receive WQE: SEND, WRITE
//           with immediate LAST/ONLY) too, once no header that may consume
//           one is in C_SEL or C_EXEC and the last consume has landed (the
//           lookup must see the new head). The header facts (kinds, lengths
//           against each PMTU, READ packet counts, the MR check's byte range)
//           are registered from h_q every cycle.
//   C_RD1   rows arrive: registered (dynamic state of an unused row replaced
//           by its initial value, the MR row's key compared with mr_key_q and
//           its PD with the QP context's in one compare, base + length
//           summed). The dynamic state is taken here and held: when the
//           header in C_EXEC is of the same QP and writes its row in or after
//           our C_RD0 (it fired then, fr_q, or is still there), its new row
//           (dyn_new_q) and error bit (fk_q) are taken instead of the read.
//   C_WQE   (SEND only) wait for the receive WQE; its lkey into mr_key_q
//   C_MR    (SEND only) MR read of the WQE's lkey
//   C_MR1   (SEND only) MR row arrives: registered as in C_RD1
//   C_CHK   the checks, in parallel, each its own function on registered
//           inputs: check_qp_state, check_psn (duplicate / out of
//           sequence), check_op_seq, check_op_valid (QP access),
//           check_length, check_rkey (rkey of the request, or lkey of the
//           receive WQE for SEND), check_wqe_len; the new PSN / MSN /
//           address / lengths computed beside them; registered. A header
//           that needs a receive WQE waits here for its lookup; every header
//           waits until C_EXEC is free in the next cycle, so that C_SEL
//           always moves on.
//   C_SEL   (sv_q; the header in hs_q, h_q a cycle ago) the verdict (the
//           order of the checks decides which failure wins: QPN, QP state,
//           opcode, PSN, opcode sequence + length, access + rkey, atomic
//           alignment, receive WQE present (RNR, rxe: check_resource), WQE
//           lkey, WQE length), and what it does: DMA command, payload action,
//           event to roce_resp_tx, new dynamic state, RQ consume (registered
//           for C_EXEC)
//   C_EXEC  (xo_q) push what the verdict needs into the three outputs, write
//           the dynamic state back, consume the receive WQE (rq_cons_en is
//           registered: a cycle after C_EXEC; a consume that meets a qp_reset
//           of another QP is repeated). Waits for room in the outputs.
//
// Three headers may be under way: one in C_RD0 .. C_CHK, one in C_SEL, one
// in C_EXEC. The next header is taken in the cycle its predecessor moves from
// C_CHK to C_SEL; for a predecessor that needs no receive WQE that move is
// known a cycle ahead (C_EXEC free then), so s_hdr_ready is up in its C_CHK
// and headers follow each other every three cycles (C_RD0, C_RD1, C_CHK).
// A predecessor that needs a receive WQE (its lookup uses the front's QPN)
// or finds C_EXEC busy makes it four or more; SEND takes eight.
//
// Outputs: each an output register in front of an 8-word roce_fifo; a word
// pushed in C_EXEC is out the next cycle when its FIFO is empty.
//
// Latency: a header taken while the chain is idle reaches C_EXEC five cycles
// after s_hdr (SEND eight). At MTU 4096 (64 beats per packet) and 1024 (16)
// the payload path, not this chain, sets the rate.
//
// ERROR (docs/transport.md, "QP errors"): an in-order request NAKed with
// invalid request, remote access or remote operational error sets the error
// bit of the QP's dynamic state with the NAK (c_fatal, IBA 9.9.3); a QP whose
// bit is set, or whose context reads ERROR (roce_transport sets the QP
// table's state for every move, the completer's too), fails check_qp_state: every request is dropped and
// counted (inc_drop_state) until a qp_reset clears the row. The move is
// reported on err_valid / err_qpn / err_status two cycles after its C_EXEC.
//
// A qp_reset of the QP a header is being checked for (from the cycle it is
// taken) kills the header (it is dropped, nothing written). qp_reset owns the
// dynamic-state write port: C_EXEC waits in a cycle with a reset.
`default_nettype none

module roce_resp_check #(
  parameter int NQP = 256,
  parameter int RQ_DEPTH = 16,
  parameter int QW  = $clog2(NQP),
  parameter int PW  = $clog2(RQ_DEPTH) + 1
) (
  input  wire logic                    clk,
  input  wire logic                    rst,
  input  wire logic                    init_done,
  input  wire logic                    qp_reset_valid,
  input  wire logic [QW-1:0]           qp_reset_qpn,
  // request headers
  input  wire logic                    s_hdr_valid,
  output logic                         s_hdr_ready,
  input  wire roce_pkg::rx_hdr_t       s_hdr,
  // QP context read port
  output logic                         ctx_rd_en,
  output logic [QW-1:0]                ctx_rd_qpn,
  // the requester's fields of the context are not used here
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire roce_qp_pkg::qp_ctx_t    ctx_rd,
  /* verilator lint_on UNUSEDSIGNAL */
  // MR read port
  output logic                         mr_rd_en,
  output logic [31:0]                  mr_rd_key,
  input  wire roce_qp_pkg::mr_entry_t  mr_rd,
  // receive queue
  output logic                         rq_lk_en,
  output logic [QW-1:0]                rq_lk_qpn,
  input  wire logic                    rq_lk_valid,
  input  wire logic [PW-1:0]           rq_lk_head,
  input  wire roce_qp_pkg::rwqe_t      rq_lk_wqe,
  output logic                         rq_cons_en,
  output logic [QW-1:0]                rq_cons_qpn,
  output logic [PW-1:0]                rq_cons_head,
  // DMA write commands (payload)
  output logic                         m_dma_cmd_valid,
  input  wire logic                    m_dma_cmd_ready,
  output mem_pkg::dma_wr_cmd_t         m_dma_cmd,
  output roce_qp_pkg::dma_usr_t        m_dma_cmd_usr,    // beside m_dma_cmd: streaming MR, user stream header
  // payload actions, one per packet with payload: sink 1 = to DMA (stream: user logic), 0 = discard
  output logic                         m_act_valid,
  input  wire logic                    m_act_ready,
  output logic                         m_act_sink,
  output logic                         m_act_stream,     // (sink) the packet's payload goes to user logic
  // events to roce_resp_tx
  output logic                         m_ev_valid,
  input  wire logic                    m_ev_ready,
  output roce_qp_pkg::resp_ev_t        m_ev,
  // counters (one-cycle pulses)
  output logic                         inc_drop_qpn,     // unknown / invalid QPN
  output logic                         inc_drop_state,   // QP not ready to receive
  output logic                         inc_drop_opcode,  // not an RC request opcode
  output logic                         inc_drop_oos,     // out of sequence inside a NAK episode
  output logic                         inc_drop_dup,     // duplicate READ failing its checks again
  output logic                         inc_drop_reset,   // killed by a qp_reset while checked
  output logic                         inc_dup,          // duplicates
  output logic                         inc_nak_seq,
  output logic                         inc_nak_inv,
  output logic                         inc_nak_acc,
  output logic                         inc_nak_op,
  output logic                         inc_rnr,
  output logic                         inc_ok,           // in-order requests executed
  // in-order request messages executed, by kind (counted on the FIRST/ONLY packet)
  output logic                         inc_rx_write,
  output logic                         inc_rx_read,
  output logic                         inc_rx_atomic,
  output logic                         inc_rx_send,
  // invalid request NAKs whose packet carried more payload than the QP's path MTU
  output logic                         inc_nak_pmtu,
  // remote access / operational NAKs whose MR (the rkey's, or a SEND's
  // receive WQE lkey's) matched its key but belongs to another protection domain
  output logic                         inc_nak_pd,
  // the responder moved a QP to ERROR (a fatal NAK was sent, IBA 9.9.3):
  // a registered pulse, two cycles after the NAK's C_EXEC; err_status is the
  // ibv_wc_status of the NAK's kind (REM_INV_REQ_ERR, REM_ACCESS_ERR, REM_OP_ERR)
  output logic                         err_valid,
  output logic [QW-1:0]                err_qpn,
  output logic [4:0]                   err_status
);

  localparam int DW = roce_qp_pkg::RESP_DYN_W;

  typedef enum logic [3:0] {
    C_IDLE = 4'd0,
    C_RD0  = 4'd1,
    C_RD1  = 4'd2,
    C_WQE  = 4'd3,
    C_MR   = 4'd4,
    C_MR1  = 4'd5,
    C_CHK  = 4'd6
  } cstate_e;

  // the verdict of the chain (what C_EXEC does)
  typedef enum logic [3:0] {
    V_EXEC       = 4'd0,   // in order, all checks passed
    V_DROP_QPN   = 4'd1,
    V_DROP_STATE = 4'd2,
    V_DROP_OP    = 4'd3,
    V_DROP_OOS   = 4'd4,
    V_DROP_DUP   = 4'd5,
    V_DUP        = 4'd6,   // duplicate answered (re-ACK, READ again, atomic from cache)
    V_NAK_SEQ    = 4'd7,
    V_NAK_INV    = 4'd8,
    V_NAK_ACC    = 4'd9,
    V_NAK_OP     = 4'd10,
    V_RNR        = 4'd11
  } verdict_e;

  // ------------------------------------------------------------ the checks
  // Each takes registered values only; the names follow rxe_resp.c.

  // QPN in range and QP state that receives (rxe: the QP lookup, qp_state)
  function automatic logic check_qp_state(input logic [2:0] state);
    check_qp_state = state == roce_qp_pkg::QPS_RTR || state == roce_qp_pkg::QPS_RTS ||
                     state == roce_qp_pkg::QPS_SQD || state == roce_qp_pkg::QPS_SQE;
  endfunction

  // {duplicate, out of sequence} (rxe: check_psn)
  function automatic logic [1:0] check_psn(input logic [23:0] psn, input logic [23:0] epsn);
    logic [23:0] d;
    d = psn - epsn;
    check_psn = {d != 24'd0 && d[23], d != 24'd0 && !d[23]};
  endfunction

  // the opcode continues the message in progress (rxe: check_op_seq)
  function automatic logic check_op_seq(input logic [1:0] in_msg, input logic is_send,
                                        input logic is_write, input logic first_or_only);
    unique case (in_msg)
      roce_qp_pkg::MSG_SEND:  check_op_seq = is_send && !first_or_only;
      roce_qp_pkg::MSG_WRITE: check_op_seq = is_write && !first_or_only;
      default:                check_op_seq = first_or_only;
    endcase
  endfunction

  // the QP grants the access the opcode needs (rxe: check_op_valid)
  function automatic logic check_op_valid(input logic [3:0] qp_access, input logic [3:0] need);
    check_op_valid = (qp_access & need) == need;
  endfunction

  // payload length against the PMTU and the message (rxe: check_length).
  // eq / le: pay_len == PMTU / <= PMTU; rem_gt / rem_eq: bytes still to
  // come of the WRITE > / == pay_len
  function automatic logic check_length(input logic [1:0] pos, input logic is_write, input logic is_read,
                                        input logic eq, input logic le, input logic pay_nz,
                                        input logic rem_gt, input logic rem_eq, input logic rd_len_ok);
    logic ok;
    unique case (pos)
      roce_pkg::POS_FIRST,
      roce_pkg::POS_MIDDLE: ok = eq && (!is_write || rem_gt);
      roce_pkg::POS_LAST:   ok = pay_nz && le && (!is_write || rem_eq);
      default:              ok = le && (!is_write || rem_eq);
    endcase
    check_length = is_read ? rd_len_ok : ok;
  endfunction

  // MR row against key, PD, access and the byte range [va, end) (rxe:
  // check_rkey; roce_qp_pkg::mr_check with the key and the PD compared and
  // base + length summed a stage ahead: key_ok is both): va >= base and end <= base + length, no
  // sum wraps (65 bits)
  function automatic logic check_rkey(input logic m_valid, input logic key_ok,
                                      input logic [3:0] m_access, input logic [63:0] m_base,
                                      input logic [64:0] m_lim, input logic [63:0] va,
                                      input logic [64:0] va_end, input logic [3:0] need);
    check_rkey = m_valid && key_ok && (m_access & need) == need &&
                 va >= m_base && va_end <= m_lim;
  endfunction

  // the SEND's bytes fit the receive WQE (rxe: the copy into the WQE's SGE)
  function automatic logic check_wqe_len(input logic [31:0] off, input logic [15:0] pay_len,
                                         input logic [31:0] wqe_len);
    check_wqe_len = 33'(off) + 33'(pay_len) <= 33'(wqe_len);
  endfunction

  // header facts (below), registered from h_q
  typedef struct packed {
    logic        send, write, read, atomic, last, needs_wqe, rc_req;
    logic        qpn_bad, align_bad, pay_nz, rd_len_ok, dl_zero, dl_gt, dl_eq;
    logic        quiet;                 // an executed SEND / WRITE sends no event
    logic [4:0]  eq, le;                // pay_len == / <= PMTU 256 .. 4096
    logic [119:0] npk;                  // PSNs of a READ at PMTU 256 .. 4096 (24 bits each)
    logic [63:0] m_va;                  // the MR check's operands
    logic [64:0] m_end;
  } hfacts_t;
  hfacts_t hf_q, hf_d;
  logic    first_q, first_d;      // FIRST or ONLY (kept out of hf_q: Yosys 0.23 abc9 names two cells alike)

  // ---------------------------------------------------------- front FSM
  cstate_e st_q, st_d;               // the front header's state
  roce_pkg::rx_hdr_t h_q, h_d;       // the front header (C_RD0 .. C_CHK)
  /* verilator lint_off UNUSEDSIGNAL */
  roce_pkg::rx_hdr_t hs_q;           // h_q a cycle ago: the header in C_SEL (not every field used there)
  /* verilator lint_on UNUSEDSIGNAL */
  logic    sv_q, sv_d;               // a header in C_SEL
  logic    xo_q, xo_d;               // a header in C_EXEC
  logic    leave;                    // the front header moves from C_CHK to C_SEL
  logic    ready_q, ready_d;         // s_hdr_ready
  logic    kf_q, kf_d;               // the header in h_q is killed by a qp_reset
  logic    kfs_q, kfs_d;             // the header in C_SEL is killed
  logic    fr_q, fr_d;               // C_RD1: the header in C_EXEC wrote this QP's row in our C_RD0
  logic    fwd, erf_q, erf_d;        // C_RD1: its row is the C_EXEC header's new one; that one set the error bit
  logic    rd0_q, rd0_d;             // C_RD0: context and dynamic-state reads
  logic    mr_en_q, mr_en_d;
  logic [31:0] mr_key_q, mr_key_d;
  logic    lk_pend_q, lk_pend_d, lk_en_q, lk_en_d, lk1_q, lk2_q;
  logic    wqe_rdy_q, wqe_rdy_d;
  roce_qp_pkg::rwqe_t wqe_q, wqe_d;
  logic          lkv_q, lkv_d;
  logic [PW-1:0] lkh_q, lkh_d;
  logic    accept, fin, s_needs_wqe, front_d;

  // EXEC stage
  logic          kx_q, kx_d;         // the header in C_EXEC is killed
  logic [QW-1:0] qpn_x_q, qpn_x_d;
  logic          cons_en_q, cons_en_d, cons_retry;
  logic [QW-1:0] cons_qpn_q, cons_qpn_d;
  logic [PW-1:0] cons_hd_q, cons_hd_d;

  // checked results, registered in C_SEL
  verdict_e               v_q, v_d, v_c;
  roce_qp_pkg::resp_dyn_t dyn_new_q, dyn_new_d, dyn_new_c;
  logic                   dyn_we_q, dyn_we_d, dyn_we_c;
  logic                   dma_q, dma_d, dma_c;
  mem_pkg::dma_wr_cmd_t   cmd_q, cmd_d, cmd_c;
  roce_qp_pkg::dma_usr_t  usr_q, usr_d, usr_c;
  logic                   act_q, act_d, act_c;          // push a payload action
  logic                   ev_push_q, ev_push_d, ev_push_c;
  roce_qp_pkg::resp_ev_t  ev_q, ev_d, ev_c;
  logic                   cons_q, cons_d, cons_c;
  logic [PW-1:0]          cons_head_q, cons_head_d;

  logic [DW-1:0]          dyn_rd_raw;
  roce_qp_pkg::resp_dyn_t dyn_rd;
  logic                   er_rd;          // the QP's error bit (u_err)
  logic                   fk_q, fk_d;     // the header's verdict is fatal (c_fatal), latched in C_SEL
  logic                   dyn_we;
  logic [QW-1:0]          dyn_wa;
  logic [DW-1:0]          dyn_wd;

  // output FIFOs
  logic cmd_in_ready, act_in_ready, ev_in_ready, room, exec_fire, drop_fire;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [3:0] cmd_cnt, act_cnt, ev_cnt;     // FIFO occupancy: not needed
  /* verilator lint_on UNUSEDSIGNAL */

  // header fields (not every field of the BTH and the table row matters here)
  /* verilator lint_off UNUSEDSIGNAL */
  roce_pkg::bth_t         bth, bth_s;
  roce_pkg::opcode_info_t info, info_s;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [23:0]           qpn24, qpn24_s;
  logic [QW-1:0]         qpn, qpn_s;
  logic [63:0]           key_va, key_va_s;

  // the front header (h_q) and the one in C_SEL (hs_q, "_s")
  assign bth      = h_q.hdr.bth;
  assign info     = h_q.info;
  assign qpn24    = bth.dqpn;
  assign qpn      = qpn24[QW-1:0];
  assign key_va   = h_q.info.atomiceth ? h_q.hdr.atomiceth.va : h_q.hdr.reth.va;
  assign bth_s    = hs_q.hdr.bth;
  assign info_s   = hs_q.info;
  assign qpn24_s  = bth_s.dqpn;
  assign qpn_s    = qpn24_s[QW-1:0];
  assign key_va_s = hs_q.info.atomiceth ? hs_q.hdr.atomiceth.va : hs_q.hdr.reth.va;
  assign dyn_rd   = dyn_rd_raw;

  assign accept      = s_hdr_valid && ready_q;
  assign fin         = exec_fire || drop_fire;
  // C_CHK -> C_SEL: the receive WQE is there (a header that needs one) and
  // C_EXEC is free in the next cycle (so C_SEL always moves on)
  assign leave       = st_q == C_CHK && (!hf_q.needs_wqe || wqe_rdy_q) && (!xo_q || exec_fire);
  assign s_needs_wqe = s_hdr.info.kind == roce_pkg::KIND_SEND ||
                       (s_hdr.info.kind == roce_pkg::KIND_WRITE && s_hdr.info.immdt &&
                        (s_hdr.info.pos == roce_pkg::POS_LAST || s_hdr.info.pos == roce_pkg::POS_ONLY));

  // states, the header register, the ready and read-enable flip-flops
  always_comb begin
    st_d   = st_q;
    h_d    = h_q;
    if (accept) h_d = s_hdr;
    unique case (st_q)
      C_IDLE:  if (accept) st_d = C_RD0;
      C_RD0:   st_d = C_RD1;
      C_RD1:   st_d = (info.kind == roce_pkg::KIND_SEND) ? C_WQE : C_CHK;
      C_WQE:   if (lk2_q) st_d = C_MR;
      C_MR:    st_d = C_MR1;
      C_MR1:   st_d = C_CHK;
      C_CHK:   if (leave) st_d = accept ? C_RD0 : C_IDLE;
      default: st_d = C_IDLE;
    endcase
    sv_d = leave;
    xo_d = sv_q || (xo_q && !fin);
    // s_hdr_ready: a header is taken while the front is idle or in the
    // cycle its header moves to C_SEL. That move is known a cycle ahead for
    // a header that needs no receive WQE (its lookup would use the front's
    // QPN) when C_EXEC will be free: C_EXEC's header fires now or none is
    // there and none enters it (sv_d: the front is in C_RD1, not leaving)
    ready_d  = init_done && !accept &&
               (st_q == C_IDLE || leave || (st_q == C_RD1 && !hf_q.needs_wqe && !xo_d));
    rd0_d    = accept;
    mr_en_d  = rd0_d || (st_q == C_WQE && lk2_q);
    front_d  = rd0_d || (st_q != C_IDLE && !leave);
    // the MR key: the header's from the cycle it is taken, the receive
    // WQE's (SEND) when it arrives
    mr_key_d = mr_key_q;
    if (accept)
      mr_key_d = s_hdr.info.atomiceth ? s_hdr.hdr.atomiceth.rkey : s_hdr.hdr.reth.rkey;
    else if (st_q == C_WQE)
      mr_key_d = rq_lk_wqe.lkey;
  end

  // the consume port: registered, repeated when a qp_reset of another QP
  // owned the RQ's pointer port in its cycle (one of the same QP emptied the ring)
  always_comb begin
    cons_retry = cons_en_q && qp_reset_valid && qp_reset_qpn != cons_qpn_q;
    cons_en_d  = (exec_fire && cons_q) || cons_retry;
    cons_qpn_d = exec_fire ? qpn_x_q     : cons_qpn_q;
    cons_hd_d  = exec_fire ? cons_head_q : cons_hd_q;
  end

  // the RQ lookup (issued once the previous header's consume has landed)
  // and the WQE it returns two cycles later; the kill flags
  always_comb begin
    lk_pend_d = accept ? s_needs_wqe : (lk_pend_q && !lk_en_q);
    lk_en_d   = lk_pend_d && !lk_en_q && front_d && !cons_en_d && !sv_q && !xo_q;
    wqe_rdy_d = !accept && (wqe_rdy_q || lk2_q);
    wqe_d     = lk2_q ? rq_lk_wqe   : wqe_q;
    lkv_d     = lk2_q ? rq_lk_valid : lkv_q;
    lkh_d     = lk2_q ? rq_lk_head  : lkh_q;

    kf_d = accept ? (qp_reset_valid && qp_reset_qpn == s_hdr.hdr.bth.dqpn[QW-1:0])
                  : (kf_q || (qp_reset_valid && qp_reset_qpn == qpn));
    kfs_d   = leave ? (kf_q || (qp_reset_valid && qp_reset_qpn == qpn)) : kfs_q;
    kx_d    = kx_q || (qp_reset_valid && qp_reset_qpn == qpn_x_q);
    qpn_x_d = qpn_x_q;
    if (sv_q) begin
      kx_d    = kfs_q || (qp_reset_valid && qp_reset_qpn == qpn_s);
      qpn_x_d = qpn_s;
    end
    // C_RD1: the row read in C_RD0 is old when the header in C_EXEC (not
    // killed) writes this QP's row in or after that cycle: it fired in our
    // C_RD0 (fr_q), or it is still there (it entered from C_SEL in our
    // C_RD0, or waits for room). Its new row (dyn_new_q, fk_q) stands until
    // the next C_SEL, after our C_RD1
    fr_d = exec_fire && dyn_we_q && qpn_x_q == qpn;
    fwd  = fr_q || (xo_q && !kx_q && dyn_we_q && qpn_x_q == qpn);
    erf_d = (st_q == C_RD1) ? fwd && fk_q : erf_q;

  end

  assign s_hdr_ready  = ready_q;
  assign ctx_rd_en    = rd0_q;
  assign ctx_rd_qpn   = qpn;
  assign rq_lk_en     = lk_en_q;
  assign rq_lk_qpn    = qpn;
  assign mr_rd_en     = mr_en_q;
  assign mr_rd_key    = mr_key_q;
  assign rq_cons_en   = cons_en_q;
  assign rq_cons_qpn  = cons_qpn_q;
  assign rq_cons_head = cons_hd_q;

  // ------------------------------------------- header facts (from h_q)
  // Registered every cycle (h_q holds from C_RD0 to C_CHK): valid from the
  // cycle after C_RD0 on; the MR check's operands are the WQE's for SEND
  // (valid in C_MR1).

  always_comb begin
    // locals, not members of hf_d read back: Yosys 0.23's abc9 names two
    // cells alike then (assert count_id(cell->name) == 0)
    logic [31:0] dl;
    logic        send, write, read, atomic, first, last, needs_wqe, pay_nz;
    dl        = h_q.hdr.reth.dma_len;
    send      = info.kind == roce_pkg::KIND_SEND;
    write     = info.kind == roce_pkg::KIND_WRITE;
    read      = info.kind == roce_pkg::KIND_READ_REQ;
    atomic    = info.kind == roce_pkg::KIND_CMP_SWAP || info.kind == roce_pkg::KIND_FETCH_ADD;
    first     = info.pos == roce_pkg::POS_FIRST || info.pos == roce_pkg::POS_ONLY;
    last      = info.pos == roce_pkg::POS_LAST  || info.pos == roce_pkg::POS_ONLY;
    needs_wqe = send || (write && info.immdt && last);
    pay_nz    = h_q.pay_len != 16'd0;
    hf_d.send      = send;
    hf_d.write     = write;
    hf_d.read      = read;
    hf_d.atomic    = atomic;
    first_d        = first;
    hf_d.last      = last;
    hf_d.needs_wqe = needs_wqe;
    hf_d.pay_nz    = pay_nz;
    hf_d.rc_req    = info.valid && info.request && bth.opcode[7:5] == 3'b000;
    hf_d.qpn_bad   = qpn24 >= 24'(NQP) || qpn24 < 24'd2;
    hf_d.align_bad = atomic && key_va[2:0] != 3'd0;
    hf_d.quiet     = !read && !atomic && !pay_nz && !bth.ackreq && !(last && needs_wqe);
    hf_d.rd_len_ok = dl <= 32'h8000_0000;
    hf_d.dl_gt     = dl > 32'(h_q.pay_len);
    hf_d.dl_eq     = dl == 32'(h_q.pay_len);
    hf_d.dl_zero   = dl == 32'd0;
    for (int i = 0; i < 5; i++) begin
      hf_d.eq[i] = h_q.pay_len == (16'd256 << i);
      hf_d.le[i] = h_q.pay_len <= (16'd256 << i);
      hf_d.npk[i*24 +: 24] = (dl == 32'd0) ? 24'd1 : 24'((dl + ((32'd256 << i) - 32'd1)) >> (8 + i));
    end
    if (send) begin
      hf_d.m_va   = wqe_q.addr;
      hf_d.m_end  = {1'b0, wqe_q.addr} + 65'(wqe_q.len);
    end else begin
      hf_d.m_va   = key_va;
      hf_d.m_end  = {1'b0, key_va} + (atomic ? 65'd8 : 65'(dl));
    end
  end

  // ------------------------------------------- rows (from the RAM outputs)
  // The read ports hold their row until the next read: registered every
  // cycle, valid from the cycle after the row arrives.
  typedef struct packed {
    logic [2:0]  state;
    logic [2:0]  pmtu;
    logic [2:0]  pi;                    // PMTU index 0..4 (256 .. 4096; an illegal value counts as 256)
    logic [3:0]  access;
    logic [4:0]  min_rnr_timer;
    logic [23:0] remote_qpn;
    logic [31:0] remote_ip;
    logic [47:0] remote_mac;
    logic [15:0] udp_sport;
    logic        m_valid;
    logic [3:0]  m_access;
    logic        m_stream;              // the MR is streaming (docs/user-logic.md)
    logic        m_key_ok;              // the row's key is the one it was read with (mr_key_q), its PD the QP's
    logic        m_pd_bad;              // valid, the key matches, the PD does not (counted)
    logic [63:0] m_base;
    logic [64:0] m_lim;                 // base + length
  } rows_t;
  rows_t rw_q, rw_d;
  // the MR row's key and PD against the expected ones, 3 bits per LUT, each
  // group and each AND a cone of its own (abc9 otherwise chains them)
  localparam int PDG = (roce_qp_pkg::PD_W + 2) / 3;
  (* keep *) logic [10:0]    mk_keq;            // key bits 3g .. 3g+2 equal
  (* keep *) logic [PDG-1:0] mk_peq;            // PD bits 3g .. 3g+2 equal
  (* keep *) logic        mk_key, mk_pd;        // all of them
  roce_qp_pkg::resp_dyn_t dc_q, dc_d;   // dynamic state (initial value for an unused row)

  always_comb begin
    // a QP the responder moved to ERROR itself (its error bit, u_err) reads
    // as ERROR: it receives nothing either
    rw_d.state         = (er_rd || erf_d) ? roce_qp_pkg::QPS_ERR : ctx_rd.state;
    rw_d.pmtu          = ctx_rd.pmtu;
    rw_d.pi            = (ctx_rd.pmtu >= 3'd1 && ctx_rd.pmtu <= 3'd5) ? ctx_rd.pmtu - 3'd1 : 3'd0;
    rw_d.access        = ctx_rd.access;
    rw_d.min_rnr_timer = ctx_rd.min_rnr_timer;
    rw_d.remote_qpn    = ctx_rd.remote_qpn;
    rw_d.remote_ip     = ctx_rd.remote_ip;
    rw_d.remote_mac    = ctx_rd.remote_mac;
    rw_d.udp_sport     = ctx_rd.udp_sport;
    // the dynamic state: taken in C_RD1 (the C_EXEC header's new row when
    // it writes it after our read), held until the next C_RD1
    dc_d               = dc_q;
    if (st_q == C_RD1) begin
      if (fwd) begin
        dc_d       = dyn_new_q;
      end else if (dyn_rd.valid) begin
        dc_d       = dyn_rd;
      end else begin
        dc_d       = '0;
        dc_d.valid = 1'b1;
        dc_d.epsn  = ctx_rd.rq_psn;
      end
    end
    rw_d.m_valid  = mr_rd.valid;
    // a streaming MR grants no remote atomic: an atomic to it is NAKed
    // remote access (docs/user-logic.md, "Streaming MRs")
    rw_d.m_access = mr_rd.access & ~{mr_rd.stream, 3'b000};
    rw_d.m_stream = mr_rd.stream;
    for (int g = 0; g < 11; g++) mk_keq[g] = 3'(mr_rd.key >> (3 * g)) == 3'(mr_key_q >> (3 * g));
    for (int g = 0; g < PDG; g++) mk_peq[g] = 3'(mr_rd.pd >> (3 * g)) == 3'(ctx_rd.pd >> (3 * g));
    mk_key        = &mk_keq;
    mk_pd         = &mk_peq;
    rw_d.m_key_ok = mk_key && mk_pd;
    rw_d.m_pd_bad = mr_rd.valid && mk_key && !mk_pd;
    rw_d.m_base   = mr_rd.base;
    rw_d.m_lim    = {1'b0, mr_rd.base} + {1'b0, mr_rd.length};
  end

  // ------------------------------------------- C_CHK: the checks, in parallel
  typedef struct packed {
    logic        state_ok, dup, oos, seq_ok, len_ok, acc_ok, mr_ok, wqe_ok, wlen_bad;
    logic        pre, ino, ok_a, ok_b;  // checks grouped for C_SEL (see there)
    logic        stream;                // the payload goes to user logic: the MR of a SEND's WQE, a WRITE's FIRST
    logic [23:0] epsn_p1, epsn_m1, epsn_npk, msn_p1;
    logic [23:0] psn_npk;               // a READ's: the PSN after its last response
    logic [63:0] addr;                  // DMA address of the payload
    logic [31:0] msg_new;               // bytes of the message with this packet
    logic [31:0] rem_new;               // bytes of the WRITE still to come after it
    logic [31:0] wr_len;                // byte_len of a WRITE with immediate
  } flags_t;
  flags_t fl_q, fl_d;

  always_comb begin
    logic [2:0]  pi;                    // PMTU index 0..4 (256 .. 4096)
    logic [31:0] off_in, rem_in;
    logic        rem_gt, rem_eq, rkey_ok;
    logic [3:0]  need;                  // the QP access the opcode needs
    logic        state_ok, dup, oos, seq_ok, len_ok, acc_ok, mr_ok, wlen_bad;   // (see hf_d)
    pi      = rw_q.pi;
    need    = {hf_q.atomic, hf_q.read, hf_q.write, 1'b0};   // ACC_REMOTE_ATOMIC / _READ / _WRITE
    off_in  = first_q ? 32'd0 : dc_q.msg_len;
    rem_in  = first_q ? h_q.hdr.reth.dma_len : dc_q.rem;
    rem_gt  = first_q ? hf_q.dl_gt : dc_q.rem > 32'(h_q.pay_len);
    rem_eq  = first_q ? hf_q.dl_eq : dc_q.rem == 32'(h_q.pay_len);
    rkey_ok = check_rkey(rw_q.m_valid, rw_q.m_key_ok, rw_q.m_access, rw_q.m_base, rw_q.m_lim,
                         hf_q.m_va, hf_q.m_end, hf_q.send ? roce_qp_pkg::ACC_LOCAL_WRITE : need);

    state_ok = check_qp_state(rw_q.state);
    {dup, oos} = check_psn(bth.psn, dc_q.epsn);
    seq_ok   = check_op_seq(dc_q.in_msg, hf_q.send, hf_q.write, first_q);
    len_ok   = check_length(info.pos, hf_q.write, hf_q.read, hf_q.eq[pi], hf_q.le[pi],
                            hf_q.pay_nz, rem_gt, rem_eq, hf_q.rd_len_ok);
    acc_ok   = check_op_valid(rw_q.access, need);
    // no rkey check: SEND (its WQE's lkey is checked instead), a WRITE past
    // its FIRST, a zero-length WRITE or READ
    mr_ok    = (!hf_q.atomic && !(hf_q.write && first_q && !hf_q.dl_zero) &&
                !(hf_q.read && !hf_q.dl_zero)) || (!hf_q.send && rkey_ok);
    wlen_bad = !check_wqe_len(off_in, h_q.pay_len, wqe_q.len);
    fl_d.state_ok = state_ok;
    fl_d.dup      = dup;
    fl_d.oos      = oos;
    fl_d.seq_ok   = seq_ok;
    fl_d.len_ok   = len_ok;
    fl_d.acc_ok   = acc_ok;
    fl_d.mr_ok    = mr_ok;
    fl_d.wqe_ok   = rkey_ok;
    fl_d.wlen_bad = wlen_bad;
    fl_d.pre      = !hf_q.qpn_bad && state_ok && hf_q.rc_req;
    fl_d.ino      = bth.psn == dc_q.epsn;
    fl_d.ok_a     = seq_ok && acc_ok && !hf_q.align_bad;
    fl_d.ok_b     = mr_ok && (!hf_q.send || (rkey_ok && !wlen_bad));

    fl_d.epsn_p1  = dc_q.epsn + 24'd1;
    fl_d.epsn_m1  = dc_q.epsn - 24'd1;
    fl_d.epsn_npk = dc_q.epsn + hf_q.npk[pi*24 +: 24];
    fl_d.psn_npk  = bth.psn + hf_q.npk[pi*24 +: 24];
    fl_d.msn_p1   = dc_q.msn + 24'd1;
    fl_d.addr     = hf_q.send ? wqe_q.addr + 64'(off_in)
                              : (first_q ? h_q.hdr.reth.va : dc_q.va);
    fl_d.msg_new  = off_in + 32'(h_q.pay_len);
    fl_d.rem_new  = rem_in - 32'(h_q.pay_len);
    fl_d.wr_len   = first_q ? h_q.hdr.reth.dma_len : dc_q.msg_len + dc_q.rem;
    fl_d.stream   = (hf_q.send || first_q) ? rw_q.m_stream : dc_q.stream;
  end

  // ------------------------------------------- C_SEL: the verdict
  // The order of the checks decides which failure wins. werr: the receive
  // WQE's own checks failed (a CQE with an error status, the WQE consumed).
  // The classes below are the same decision written flat from the flags
  // (fewer levels than decoding v_c): answered duplicate, NAK of an out-of-
  // sequence packet, NAK of an in-order packet, executed.
  logic werr_c, c_dup, c_nak_seq, c_ino_nak, c_exec, c_drop_dup;
  // c_fatal: an in-order request NAKed for a reason that ends the connection
  // (invalid request, remote access, remote operational error; not RNR,
  // whose only failing check is the receive WQE's presence): the QP enters
  // ERROR (IBA 9.9.3, rxe's do_class_ac_error)
  logic c_fatal;

  // pre: QPN, state and opcode pass; ino: in order (PSN == ePSN); ok_a /
  // ok_b: every check of an in-order request but the receive WQE's presence.
  always_comb begin
    logic ino, ok;
    ino        = fl_q.pre && fl_q.ino;
    ok         = fl_q.ok_a && fl_q.len_ok && fl_q.ok_b && (!hf_q.needs_wqe || lkv_q);
    c_drop_dup = fl_q.pre && fl_q.dup && hf_q.read && !(fl_q.acc_ok && fl_q.len_ok && fl_q.mr_ok);
    c_dup      = fl_q.pre && fl_q.dup && !c_drop_dup;
    c_nak_seq  = fl_q.pre && fl_q.oos && !dc_q.nak;
    c_ino_nak  = ino && !ok;
    c_exec     = ino && ok;
    c_fatal    = ino && (!(fl_q.ok_a && fl_q.len_ok && fl_q.mr_ok) ||
                         (hf_q.send && lkv_q && (!fl_q.wqe_ok || fl_q.wlen_bad)));
  end

  always_comb begin
    werr_c = 1'b0;
    if (hf_q.qpn_bad) begin
      v_c = V_DROP_QPN;
    end else if (!fl_q.state_ok) begin
      v_c = V_DROP_STATE;
    end else if (!hf_q.rc_req) begin
      v_c = V_DROP_OP;
    end else if (fl_q.dup) begin
      // a duplicate READ is answered again only if it passes its checks again
      v_c = (hf_q.read && !(fl_q.acc_ok && fl_q.len_ok && fl_q.mr_ok)) ? V_DROP_DUP : V_DUP;
    end else if (fl_q.oos) begin
      v_c = dc_q.nak ? V_DROP_OOS : V_NAK_SEQ;      // one NAK per episode
    end else if (!fl_q.seq_ok || !fl_q.len_ok) begin
      v_c = V_NAK_INV;
    end else if (!fl_q.acc_ok || !fl_q.mr_ok) begin
      v_c = V_NAK_ACC;
    end else if (hf_q.align_bad) begin
      v_c = V_NAK_INV;
    end else if (hf_q.needs_wqe && !lkv_q) begin
      v_c = V_RNR;                                     // rxe: check_resource
    end else if (hf_q.send && !fl_q.wqe_ok) begin
      v_c    = V_NAK_OP;
      werr_c = 1'b1;
    end else if (hf_q.send && fl_q.wlen_bad) begin
      v_c    = V_NAK_INV;
      werr_c = 1'b1;
    end else begin
      v_c = V_EXEC;
    end
  end

  // the event to roce_resp_tx
  always_comb begin
    logic sw;
    sw              = !hf_q.read && !hf_q.atomic;       // SEND / WRITE
    ev_c            = '0;
    ev_c.kind       = roce_qp_pkg::EV_ACK;
    if ((c_exec || c_dup) && hf_q.read) ev_c.kind = roce_qp_pkg::EV_READ;
    if (c_exec && hf_q.atomic)          ev_c.kind = roce_qp_pkg::EV_ATOMIC;
    if (c_dup && hf_q.atomic)           ev_c.kind = roce_qp_pkg::EV_ATOMIC_DUP;
    ev_c.wait_dma   = c_exec && sw && hf_q.pay_nz;
    ev_c.send       = (c_dup && sw) || c_nak_seq || c_ino_nak || (c_exec && sw && bth_s.ackreq);
    ev_c.nak        = c_nak_seq || c_ino_nak;
    unique case (v_c)
      V_NAK_SEQ: ev_c.syndrome = roce_qp_pkg::AETH_NAK_PSN_SEQ;
      V_NAK_INV: ev_c.syndrome = roce_qp_pkg::AETH_NAK_INV_REQ;
      V_NAK_ACC: ev_c.syndrome = roce_qp_pkg::AETH_NAK_REM_ACC;
      V_RNR:     ev_c.syndrome = roce_qp_pkg::AETH_RNR_NAK | {3'b000, rw_q.min_rnr_timer};
      V_NAK_OP:  ev_c.syndrome = roce_qp_pkg::AETH_NAK_REM_OP;
      default:   ev_c.syndrome = roce_qp_pkg::AETH_ACK;
    endcase
    ev_c.psn        = (c_dup && sw) ? fl_q.epsn_m1 :
                      c_nak_seq     ? dc_q.epsn : bth_s.psn;
    ev_c.msn        = (c_exec && (!sw || hf_q.last)) ? fl_q.msn_p1 : dc_q.msn;
    ev_c.qpn        = qpn24_s;
    ev_c.dqpn       = rw_q.remote_qpn;
    ev_c.remote_ip  = rw_q.remote_ip;
    ev_c.remote_mac = rw_q.remote_mac;
    ev_c.udp_sport  = rw_q.udp_sport;
    ev_c.pmtu       = rw_q.pmtu;
    ev_c.va         = key_va_s;
    ev_c.len        = hs_q.hdr.reth.dma_len;
    ev_c.rnext      = fl_q.psn_npk;
    // (an EV_READ is pushed only with fl_q.pre)
    ev_c.is_cmp     = info_s.kind == roce_pkg::KIND_CMP_SWAP;
    ev_c.rd_dup     = hf_q.read && fl_q.dup;
    ev_c.stream     = rw_q.m_stream;
    ev_c.swap_add   = hs_q.hdr.atomiceth.swap_add;
    ev_c.compare    = hs_q.hdr.atomiceth.compare;
    ev_c.cqe_valid  = werr_c || (c_exec && sw && hf_q.last && hf_q.needs_wqe);
    ev_c.cqe.wr_id    = wqe_q.wr_id;
    ev_c.cqe.status   = !werr_c            ? roce_qp_pkg::WC_SUCCESS :
                        (v_c == V_NAK_OP)  ? roce_qp_pkg::WC_LOC_PROT_ERR : roce_qp_pkg::WC_LOC_LEN_ERR;
    ev_c.cqe.opcode   = hf_q.send ? roce_qp_pkg::WC_OP_RECV : roce_qp_pkg::WC_OP_RECV_RDMA_WITH_IMM;
    ev_c.cqe.byte_len = (c_exec && hf_q.write) ? fl_q.wr_len : fl_q.msg_new;
    ev_c.cqe.qpn      = qpn24_s;
    ev_c.cqe.imm_data = hs_q.hdr.immdt;
    ev_c.cqe.has_imm  = info_s.immdt;
    ev_c.cqe.is_recv  = 1'b1;
    ev_push_c = c_dup || c_nak_seq || c_ino_nak || (c_exec && !hf_q.quiet);
  end

  // the new dynamic state, the DMA command, the payload action, the consume
  always_comb begin
    logic sw;
    sw        = !hf_q.read && !hf_q.atomic;
    dyn_we_c  = fl_q.pre && !fl_q.dup;                  // in order or out of sequence
    dyn_new_c = dc_q;
    if (c_nak_seq || c_ino_nak) dyn_new_c.nak = 1'b1;   // a NAK episode starts
    if (c_exec) dyn_new_c.nak = 1'b0;                     // in order: the episode ends
    if (werr_c) dyn_new_c.in_msg = roce_qp_pkg::MSG_NONE;
    if (c_exec) begin
      dyn_new_c.epsn = hf_q.read ? fl_q.epsn_npk : fl_q.epsn_p1;
      if (!sw) dyn_new_c.msn = fl_q.msn_p1;
      if (sw) begin
        dyn_new_c.va      = fl_q.addr + 64'(hs_q.pay_len);
        dyn_new_c.rem     = fl_q.rem_new;
        dyn_new_c.msg_len = fl_q.msg_new;
        dyn_new_c.in_msg  = hf_q.last ? roce_qp_pkg::MSG_NONE :
                            hf_q.send ? roce_qp_pkg::MSG_SEND : roce_qp_pkg::MSG_WRITE;
        dyn_new_c.stream  = fl_q.stream;
        if (hf_q.last) dyn_new_c.msn = fl_q.msn_p1;
      end
    end
    dma_c      = c_exec && sw && hf_q.pay_nz;
    cmd_c.addr = fl_q.addr;
    cmd_c.len  = 32'(hs_q.pay_len);
    cmd_c.tag  = '0;
    usr_c.stream   = fl_q.stream;
    usr_c.qpn      = qpn24_s;
    usr_c.first    = first_q;
    usr_c.msg_last = hf_q.last;
    usr_c.send     = hf_q.send;
    act_c      = hf_q.pay_nz;            // payload of every packet goes somewhere
    cons_c     = werr_c || (c_exec && sw && hf_q.last && hf_q.needs_wqe);
  end

  // ------------------------------------------------ execute / write back
  assign room      = cmd_in_ready && act_in_ready && ev_in_ready;
  assign exec_fire = xo_q && !kx_q && room && !qp_reset_valid;
  // a killed header still discards its payload
  assign drop_fire = xo_q && kx_q && (!act_q || act_in_ready);

  // the verdict registers take the results in C_SEL (sv_q)
  always_comb begin
    v_d         = v_q;
    dyn_new_d   = dyn_new_q;
    dyn_we_d    = dyn_we_q;
    dma_d       = dma_q;
    cmd_d       = cmd_q;
    usr_d       = usr_q;
    act_d       = act_q;
    ev_push_d   = ev_push_q;
    ev_d        = ev_q;
    cons_d      = cons_q;
    cons_head_d = cons_head_q;
    if (sv_q) begin
      v_d         = v_c;
      dyn_new_d   = dyn_new_c;
      dyn_we_d    = dyn_we_c;
      dma_d       = dma_c;
      cmd_d       = cmd_c;
      usr_d       = usr_c;
      act_d       = act_c;
      ev_push_d   = ev_push_c;
      ev_d        = ev_c;
      cons_d      = cons_c;
      cons_head_d = lkh_q + PW'(1);
    end
  end

  always_comb begin
    dyn_we = qp_reset_valid || (exec_fire && dyn_we_q);
    dyn_wa = qp_reset_valid ? qp_reset_qpn : qpn_x_q;
    dyn_wd = qp_reset_valid ? '0 : dyn_new_q;
  end

  roce_ram_sdp #(.WIDTH(DW), .DEPTH(NQP)) u_dyn (
    .clk(clk), .wr_en(dyn_we), .wr_addr(dyn_wa), .wr_data(dyn_wd),
    .rd_en(rd0_q), .rd_addr(qpn), .rd_data(dyn_rd_raw));

  // the error bit of each QP beside its dynamic state (same port): set with
  // the fatal NAK's write-back (fk_q: the verdict of the header in C_EXEC),
  // cleared by qp_reset (also the start-up sweep's)
  roce_ram_sdp #(.WIDTH(1), .DEPTH(NQP)) u_err (
    .clk(clk), .wr_en(dyn_we), .wr_addr(dyn_wa), .wr_data(!qp_reset_valid && fk_q),
    .rd_en(rd0_q), .rd_addr(qpn), .rd_data(er_rd));

  // Output FIFOs: a roce_fifo each behind an output register (m_* from
  // flip-flops). A word pushed while its FIFO is empty and the register free
  // goes straight into the register (out the next cycle, as from a bare
  // roce_fifo); otherwise the FIFO keeps the order. Each holds 8 + 1 words.
  localparam int CMD_W = roce_qp_pkg::DMA_USR_W + mem_pkg::ADDR_W + mem_pkg::LEN_W + mem_pkg::TAG_W;
  logic                 cmd_push, act_push, ev_push;
  logic                 cmd_fv, act_fv, ev_fv;             // FIFO heads valid
  logic                 cmd_ld, act_ld, ev_ld;             // output registers load
  logic [CMD_W-1:0]     cmd_fd;
  logic [1:0]           act_fd;
  logic [roce_qp_pkg::RESP_EV_W-1:0] ev_fd;
  logic                 cmd_ov_q, cmd_ov_d, act_ov_q, act_ov_d, ev_ov_q, ev_ov_d;
  logic [CMD_W-1:0]     cmd_o_q, cmd_o_d;
  logic [1:0]           act_o_q, act_o_d;             // {stream, sink}
  logic [roce_qp_pkg::RESP_EV_W-1:0] ev_o_q, ev_o_d;

  assign cmd_push = exec_fire && dma_q;
  assign act_push = fin && act_q;
  assign ev_push  = exec_fire && ev_push_q;

  always_comb begin
    cmd_ld   = !cmd_ov_q || m_dma_cmd_ready;
    act_ld   = !act_ov_q || m_act_ready;
    ev_ld    = !ev_ov_q  || m_ev_ready;
    cmd_ov_d = cmd_ld ? (cmd_fv || cmd_push) : 1'b1;
    act_ov_d = act_ld ? (act_fv || act_push) : 1'b1;
    ev_ov_d  = ev_ld  ? (ev_fv  || ev_push)  : 1'b1;
    cmd_o_d  = !cmd_ld ? cmd_o_q : cmd_fv ? cmd_fd : {usr_q, cmd_q};
    act_o_d  = !act_ld ? act_o_q : act_fv ? act_fd : {usr_q.stream, dma_q && !kx_q};
    ev_o_d   = !ev_ld  ? ev_o_q  : ev_fv  ? ev_fd  : ev_q;
  end

  assign m_dma_cmd_valid = cmd_ov_q;
  assign {m_dma_cmd_usr, m_dma_cmd} = cmd_o_q;
  assign m_act_valid     = act_ov_q;
  assign {m_act_stream, m_act_sink} = act_o_q;
  assign m_ev_valid      = ev_ov_q;
  assign m_ev            = ev_o_q;

  // The unused count outputs only say how full the FIFOs are.
  roce_fifo #(.WIDTH(CMD_W), .DEPTH(8)) u_cmd (
    .clk(clk), .rst(rst),
    .in_valid(cmd_push && !(cmd_ld && !cmd_fv)), .in_ready(cmd_in_ready), .in_data({usr_q, cmd_q}),
    .out_valid(cmd_fv), .out_ready(cmd_ld), .out_data(cmd_fd), .count(cmd_cnt));
  roce_fifo #(.WIDTH(2), .DEPTH(8)) u_act (
    .clk(clk), .rst(rst),
    .in_valid(act_push && !(act_ld && !act_fv)), .in_ready(act_in_ready), .in_data({usr_q.stream, dma_q && !kx_q}),
    .out_valid(act_fv), .out_ready(act_ld), .out_data(act_fd), .count(act_cnt));
  roce_fifo #(.WIDTH(roce_qp_pkg::RESP_EV_W), .DEPTH(8)) u_ev (
    .clk(clk), .rst(rst),
    .in_valid(ev_push && !(ev_ld && !ev_fv)), .in_ready(ev_in_ready), .in_data(ev_q),
    .out_valid(ev_fv), .out_ready(ev_ld), .out_data(ev_fd), .count(ev_cnt));

  // counters (registered pulses, two stages: what fired and its verdict are
  // registered first, so the counters' decode adds no level to C_EXEC's paths).
  // The kind of the header in C_EXEC is latched in C_SEL: a header taken while
  // C_EXEC waits for room replaces h_q.
  logic [5:0]  mk_q, mk_d;   // {MR of another PD, payload > PMTU, send, atomic, read, write message start}
  logic        fkx_q;        // fk_q of the header that fired
  logic [QW-1:0] qx2_q;      // qpn_x_q a cycle ago (the QPN of the header that fired)
  logic        erv_q, erv_d;
  logic [QW-1:0] erq_q;
  logic [4:0]  ers_q, ers_d;
  logic [5:0]  mkx_q;        // mk_q of the header that fired
  logic        exf_q, drf_q; // exec_fire, drop_fire a cycle ago
  verdict_e    vx_q;         // v_q a cycle ago
  logic [18:0] inc_q, inc_d;
  always_comb begin
    mk_d = mk_q;
    // payload > PMTU: the length check's own facts (hf_q.le, the QP's PMTU index)
    if (sv_q) mk_d = {rw_q.m_pd_bad, !hf_q.read && !hf_q.le[rw_q.pi], hf_q.send && first_q, hf_q.atomic,
                               hf_q.read, hf_q.write && first_q};
    fk_d  = sv_q ? c_fatal : fk_q;
    erv_d = exf_q && fkx_q;
    unique case (vx_q)
      V_NAK_ACC: ers_d = roce_qp_pkg::WC_REM_ACCESS_ERR;
      V_NAK_OP:  ers_d = roce_qp_pkg::WC_REM_OP_ERR;
      default:   ers_d = roce_qp_pkg::WC_REM_INV_REQ_ERR;
    endcase
    for (int i = 0; i < 4; i++) inc_d[13+i] = exf_q && vx_q == V_EXEC && mkx_q[i];
    inc_d[17] = exf_q && vx_q == V_NAK_INV && mkx_q[4];
    inc_d[18] = exf_q && (vx_q == V_NAK_ACC || vx_q == V_NAK_OP) && mkx_q[5];
    inc_d[0]  = exf_q && vx_q == V_DROP_QPN;
    inc_d[1]  = exf_q && vx_q == V_DROP_STATE;
    inc_d[2]  = exf_q && vx_q == V_DROP_OP;
    inc_d[3]  = exf_q && vx_q == V_DROP_OOS;
    inc_d[4]  = exf_q && vx_q == V_DROP_DUP;
    inc_d[5]  = drf_q;
    inc_d[6]  = exf_q && (vx_q == V_DUP || vx_q == V_DROP_DUP);
    inc_d[7]  = exf_q && vx_q == V_NAK_SEQ;
    inc_d[8]  = exf_q && vx_q == V_NAK_INV;
    inc_d[9]  = exf_q && vx_q == V_NAK_ACC;
    inc_d[10] = exf_q && vx_q == V_NAK_OP;
    inc_d[11] = exf_q && vx_q == V_RNR;
    inc_d[12] = exf_q && vx_q == V_EXEC;
  end
  always_ff @(posedge clk) begin
    mkx_q <= mk_q;
    vx_q  <= v_q;
    fk_q  <= fk_d;
    fkx_q <= fk_q;
    qx2_q <= qpn_x_q;
    erq_q <= qx2_q;
    ers_q <= ers_d;
    if (rst) begin
      exf_q <= 1'b0;
      drf_q <= 1'b0;
      erv_q <= 1'b0;
    end else begin
      exf_q <= exec_fire;
      drf_q <= drop_fire;
      erv_q <= erv_d;
    end
  end
  assign err_valid  = erv_q;
  assign err_qpn    = erq_q;
  assign err_status = ers_q;
  assign {inc_nak_pd, inc_nak_pmtu, inc_rx_send, inc_rx_atomic, inc_rx_read, inc_rx_write,
          inc_ok, inc_rnr, inc_nak_op, inc_nak_acc, inc_nak_inv, inc_nak_seq, inc_dup,
          inc_drop_reset, inc_drop_dup, inc_drop_oos, inc_drop_opcode, inc_drop_state, inc_drop_qpn} = inc_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q      <= C_IDLE;
      ready_q   <= 1'b0;
      sv_q      <= 1'b0;
      xo_q      <= 1'b0;
      rd0_q     <= 1'b0;
      mr_en_q   <= 1'b0;
      lk_pend_q <= 1'b0;
      lk_en_q   <= 1'b0;
      lk1_q     <= 1'b0;
      lk2_q     <= 1'b0;
      cons_en_q <= 1'b0;
      inc_q     <= '0;
      cmd_ov_q  <= 1'b0;
      act_ov_q  <= 1'b0;
      ev_ov_q   <= 1'b0;
    end else begin
      st_q      <= st_d;
      ready_q   <= ready_d;
      sv_q      <= sv_d;
      xo_q      <= xo_d;
      rd0_q     <= rd0_d;
      mr_en_q   <= mr_en_d;
      lk_pend_q <= lk_pend_d;
      lk_en_q   <= lk_en_d;
      lk1_q     <= lk_en_q;
      lk2_q     <= lk1_q;
      cons_en_q <= cons_en_d;
      inc_q     <= inc_d;
      cmd_ov_q  <= cmd_ov_d;
      act_ov_q  <= act_ov_d;
      ev_ov_q   <= ev_ov_d;
    end
    h_q         <= h_d;
    hs_q        <= h_q;
    kfs_q       <= kfs_d;
    fr_q        <= fr_d;
    erf_q       <= erf_d;
    mk_q        <= mk_d;
    kf_q        <= kf_d;
    kx_q        <= kx_d;
    qpn_x_q     <= qpn_x_d;
    mr_key_q    <= mr_key_d;
    wqe_rdy_q   <= wqe_rdy_d;
    wqe_q       <= wqe_d;
    lkv_q       <= lkv_d;
    lkh_q       <= lkh_d;
    cons_qpn_q  <= cons_qpn_d;
    cons_hd_q   <= cons_hd_d;
    hf_q        <= hf_d;
    first_q     <= first_d;
    rw_q        <= rw_d;
    dc_q        <= dc_d;
    fl_q        <= fl_d;
    v_q         <= v_d;
    dyn_new_q   <= dyn_new_d;
    dyn_we_q    <= dyn_we_d;
    dma_q       <= dma_d;
    cmd_q       <= cmd_d;
    usr_q       <= usr_d;
    act_q       <= act_d;
    ev_push_q   <= ev_push_d;
    ev_q        <= ev_d;
    cons_q      <= cons_d;
    cons_head_q <= cons_head_d;
    cmd_o_q     <= cmd_o_d;
    act_o_q     <= act_o_d;
    ev_o_q      <= ev_o_d;
  end

`ifndef SYNTHESIS
  // a shadow of the dynamic-state RAM: what C_SEL decides from is the row
  // as last written (the C_EXEC header's, when it writes in this cycle)
  roce_qp_pkg::resp_dyn_t sh_mem [NQP];
  roce_qp_pkg::resp_dyn_t sh_now;
  always_comb begin
    sh_now = (dyn_we && dyn_wa == qpn_s) ? roce_qp_pkg::resp_dyn_t'(dyn_wd) : sh_mem[qpn_s];
    if (!sh_now.valid) begin
      sh_now       = '0;
      sh_now.valid = 1'b1;
      sh_now.epsn  = dc_q.epsn;   // the context's rq_psn (not kept here)
    end
  end
  always_ff @(posedge clk) if (dyn_we) sh_mem[dyn_wa] <= roce_qp_pkg::resp_dyn_t'(dyn_wd);

  // the RQ lookup of a header ends before its C_EXEC, consumes land before
  // the next lookup
  always_ff @(posedge clk) begin
    if (!rst && (lk_en_q || lk1_q || lk2_q) && ((sv_q && cons_c) || (xo_q && cons_q)))
      $error("roce_resp_check: RQ lookup while a header that consumes is in C_SEL / C_EXEC");
    if (!rst && sv_q && xo_q && !fin)
      $error("roce_resp_check: the header in C_SEL finds C_EXEC taken");
    if (!rst && sv_q && st_q == C_CHK)
      $error("roce_resp_check: a header in C_CHK while one is in C_SEL");
    if (!rst && sv_q && dc_q != sh_now)
      $error("roce_resp_check: QP %0d's dynamic state in C_SEL is not the one last written", qpn_s);
    if (!rst && accept && !(st_q == C_IDLE || leave))
      $error("roce_resp_check: a header taken while the front is busy (state %0d)", st_q);
    if (!rst && lk_en_q && cons_en_q)
      $error("roce_resp_check: RQ lookup in the cycle of a consume");
  end
`endif
endmodule
