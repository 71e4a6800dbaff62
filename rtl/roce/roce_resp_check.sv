// roce_resp_check: the chain of checks of the responder (docs/transport.md,
// "Responder"), one request header at a time.
//
//   C_IDLE  take a header; read QP context, dynamic state, RQ head
//   C_RD1   (context and dynamic state arrive)
//   C_RD2   RQ WQE arrives; read the MR row of the key (WQE lkey for SEND,
//           RETH/AtomicETH rkey otherwise)
//   C_RD3   MR row arrives; the checks, in order, each ending the chain with
//           its verdict (registered for C_EXEC):
//           QPN, QP state, opcode, PSN (duplicate / out of sequence),
//           opcode sequence, QP access, length, rkey + bounds + MR access,
//           atomic alignment, receive WQE (RNR), WQE lkey, WQE length
//   C_EXEC  push what the verdict needs (DMA write command, payload action,
//           event to roce_resp_tx), write the dynamic state back, retire a
//           receive WQE. Waits for room in its three output FIFOs.
//
// Five cycles per header: at MTU 4096 (64 beats per packet) and 1024 (16)
// the payload path, not this chain, sets the rate.
//
// A qp_reset of the QP a header is being checked for kills the header (it is
// dropped, nothing written). qp_reset owns the dynamic-state write port:
// C_EXEC waits in a cycle with a reset.
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
  // payload actions, one per packet with payload: 1 = to DMA, 0 = discard
  output logic                         m_act_valid,
  input  wire logic                    m_act_ready,
  output logic                         m_act_sink,
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
  output logic                         inc_ok            // in-order requests executed
);

  localparam int DW = roce_qp_pkg::RESP_DYN_W;

  typedef enum logic [2:0] {
    C_IDLE  = 3'd0,
    C_RD1   = 3'd1,
    C_RD2   = 3'd2,
    C_RD3   = 3'd3,
    C_EXEC  = 3'd4
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

  cstate_e st_q, st_d;
  roce_pkg::rx_hdr_t h_q, h_d;
  logic    killed_q, killed_d;

  // checked results, registered at the end of C_CHECK
  verdict_e               v_q, v_d, v_c;
  roce_qp_pkg::resp_dyn_t dyn_new_q, dyn_new_d, dyn_new_c;
  logic                   dyn_we_q, dyn_we_d, dyn_we_c;
  logic                   dma_q, dma_d, dma_c;
  mem_pkg::dma_wr_cmd_t   cmd_q, cmd_d, cmd_c;
  logic                   act_q, act_d, act_c;          // push a payload action
  logic                   ev_push_q, ev_push_d, ev_push_c;
  roce_qp_pkg::resp_ev_t  ev_q, ev_d, ev_c;
  logic                   cons_q, cons_d, cons_c;
  logic [PW-1:0]          cons_head_q, cons_head_d, cons_head_c;

  logic [DW-1:0]          dyn_rd_raw;
  roce_qp_pkg::resp_dyn_t dyn_rd, dyn_cur;
  logic                   dyn_we;
  logic [QW-1:0]          dyn_wa;
  logic [DW-1:0]          dyn_wd;

  // output FIFOs
  logic cmd_in_ready, act_in_ready, ev_in_ready, room, exec_fire, drop_fire;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [$clog2(8):0] cmd_cnt, act_cnt, ev_cnt;     // FIFO occupancy: not needed
  /* verilator lint_on UNUSEDSIGNAL */

  // header fields (not every field of the BTH and the table row matters here)
  /* verilator lint_off UNUSEDSIGNAL */
  roce_pkg::bth_t        bth;
  roce_pkg::opcode_info_t info;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [23:0]           qpn24;
  logic [QW-1:0]         qpn;
  logic [63:0]           key_va;
  logic [31:0]           key_rkey;

  assign bth      = h_q.hdr.bth;
  assign info     = h_q.info;
  assign qpn24    = bth.dqpn;
  assign qpn      = qpn24[QW-1:0];
  assign key_va   = h_q.info.atomiceth ? h_q.hdr.atomiceth.va   : h_q.hdr.reth.va;
  assign key_rkey = h_q.info.atomiceth ? h_q.hdr.atomiceth.rkey : h_q.hdr.reth.rkey;
  assign dyn_rd   = dyn_rd_raw;

  // ------------------------------------------------------------------ FSM
  always_comb begin
    st_d        = st_q;
    h_d         = h_q;
    killed_d    = killed_q;
    s_hdr_ready = 1'b0;
    ctx_rd_en   = 1'b0;
    ctx_rd_qpn  = s_hdr.hdr.bth.dqpn[QW-1:0];
    rq_lk_en    = 1'b0;
    rq_lk_qpn   = s_hdr.hdr.bth.dqpn[QW-1:0];
    mr_rd_en    = 1'b0;
    mr_rd_key   = (info.kind == roce_pkg::KIND_SEND) ? rq_lk_wqe.lkey : key_rkey;
    if (qp_reset_valid && qp_reset_qpn == qpn && st_q != C_IDLE) killed_d = 1'b1;
    unique case (st_q)
      C_IDLE: begin
        s_hdr_ready = init_done;
        if (s_hdr_valid && init_done) begin
          h_d       = s_hdr;
          ctx_rd_en = 1'b1;
          rq_lk_en  = 1'b1;
          // a reset of this QP in this very cycle: the reads see old rows
          killed_d  = qp_reset_valid && qp_reset_qpn == s_hdr.hdr.bth.dqpn[QW-1:0];
          st_d      = C_RD1;
        end
      end
      C_RD1:   st_d = C_RD2;
      C_RD2: begin
        mr_rd_en = 1'b1;
        st_d     = C_RD3;
      end
      C_RD3:   st_d = C_EXEC;             // the checks run in this cycle
      C_EXEC:  if (exec_fire || drop_fire) st_d = C_IDLE;
      default: st_d = C_IDLE;
    endcase
  end

  // --------------------------------------------------------- the checks
  always_comb begin
    logic [23:0] d;
    logic [12:0] pmtu_b;
    logic        first_or_only, last_or_only, seq_ok, len_ok, acc_ok, needs_wqe;
    logic [3:0]  need_acc;
    logic [31:0] wr_len_tot, rem_in, off_in;
    logic [23:0] npkts;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [31:0] npkts32;        // a 2^31-byte READ at PMTU 256 needs 2^23 PSNs: 24 bits are enough
    /* verilator lint_on UNUSEDSIGNAL */
    logic [63:0] addr;
    logic [3:0]  lg;
    logic        state_ok, is_rc_req, mr_ok, wqe_ok, is_atomic;

    dyn_cur = dyn_rd;
    if (!dyn_rd.valid) begin
      dyn_cur        = '0;
      dyn_cur.valid  = 1'b1;
      dyn_cur.epsn   = ctx_rd.rq_psn;
    end

    d             = bth.psn - dyn_cur.epsn;
    pmtu_b        = roce_qp_pkg::pmtu_bytes(ctx_rd.pmtu);
    lg            = 4'(ctx_rd.pmtu) + 4'd7;             // log2 of the PMTU
    if (ctx_rd.pmtu < 3'd1 || ctx_rd.pmtu > 3'd5) lg = 4'd8;
    first_or_only = info.pos == roce_pkg::POS_FIRST || info.pos == roce_pkg::POS_ONLY;
    last_or_only  = info.pos == roce_pkg::POS_LAST  || info.pos == roce_pkg::POS_ONLY;
    is_atomic     = info.kind == roce_pkg::KIND_CMP_SWAP || info.kind == roce_pkg::KIND_FETCH_ADD;
    state_ok      = ctx_rd.state == roce_qp_pkg::QPS_RTR || ctx_rd.state == roce_qp_pkg::QPS_RTS ||
                    ctx_rd.state == roce_qp_pkg::QPS_SQD || ctx_rd.state == roce_qp_pkg::QPS_SQE;
    is_rc_req     = info.valid && info.request && bth.opcode[7:5] == 3'b000;
    needs_wqe     = info.kind == roce_pkg::KIND_SEND ||
                    (info.kind == roce_pkg::KIND_WRITE && info.immdt && last_or_only);

    // opcode sequence
    unique case (dyn_cur.in_msg)
      roce_qp_pkg::MSG_SEND:  seq_ok = info.kind == roce_pkg::KIND_SEND && !first_or_only;
      roce_qp_pkg::MSG_WRITE: seq_ok = info.kind == roce_pkg::KIND_WRITE && !first_or_only;
      default:                seq_ok = first_or_only;
    endcase

    // QP access
    unique case (info.kind)
      roce_pkg::KIND_WRITE:     need_acc = roce_qp_pkg::ACC_REMOTE_WRITE;
      roce_pkg::KIND_READ_REQ:  need_acc = roce_qp_pkg::ACC_REMOTE_READ;
      roce_pkg::KIND_CMP_SWAP,
      roce_pkg::KIND_FETCH_ADD: need_acc = roce_qp_pkg::ACC_REMOTE_ATOMIC;
      default:                  need_acc = 4'd0;
    endcase
    acc_ok = (ctx_rd.access & need_acc) == need_acc;

    // lengths
    rem_in     = first_or_only ? h_q.hdr.reth.dma_len : dyn_cur.rem;
    off_in     = first_or_only ? 32'd0 : dyn_cur.msg_len;
    wr_len_tot = 32'(h_q.pay_len);
    unique case (info.pos)
      roce_pkg::POS_FIRST,
      roce_pkg::POS_MIDDLE: len_ok = h_q.pay_len == 16'(pmtu_b);
      roce_pkg::POS_LAST:   len_ok = h_q.pay_len != 16'd0 && h_q.pay_len <= 16'(pmtu_b);
      default:              len_ok = h_q.pay_len <= 16'(pmtu_b);
    endcase
    if (info.kind == roce_pkg::KIND_WRITE) begin
      unique case (info.pos)
        roce_pkg::POS_FIRST,
        roce_pkg::POS_MIDDLE: len_ok = len_ok && rem_in > wr_len_tot;
        default:              len_ok = len_ok && rem_in == wr_len_tot;
      endcase
    end
    if (info.kind == roce_pkg::KIND_READ_REQ) len_ok = h_q.hdr.reth.dma_len <= 32'h8000_0000;

    // rkey / lkey against the MR row read in C_RD2
    unique case (info.kind)
      roce_pkg::KIND_WRITE:
        mr_ok = !first_or_only || h_q.hdr.reth.dma_len == 32'd0 ||
                roce_qp_pkg::mr_check(mr_rd, key_rkey, key_va, h_q.hdr.reth.dma_len, roce_qp_pkg::ACC_REMOTE_WRITE);
      roce_pkg::KIND_READ_REQ:
        mr_ok = h_q.hdr.reth.dma_len == 32'd0 ||
                roce_qp_pkg::mr_check(mr_rd, key_rkey, key_va, h_q.hdr.reth.dma_len, roce_qp_pkg::ACC_REMOTE_READ);
      roce_pkg::KIND_CMP_SWAP,
      roce_pkg::KIND_FETCH_ADD:
        mr_ok = roce_qp_pkg::mr_check(mr_rd, key_rkey, key_va, 32'd8, roce_qp_pkg::ACC_REMOTE_ATOMIC);
      default: mr_ok = 1'b1;
    endcase
    wqe_ok = roce_qp_pkg::mr_check(mr_rd, rq_lk_wqe.lkey, rq_lk_wqe.addr, rq_lk_wqe.len, roce_qp_pkg::ACC_LOCAL_WRITE);

    npkts32 = (h_q.hdr.reth.dma_len + 32'(pmtu_b) - 32'd1) >> lg;
    npkts   = (h_q.hdr.reth.dma_len == 32'd0) ? 24'd1 : npkts32[23:0];
    addr    = (info.kind == roce_pkg::KIND_SEND) ? rq_lk_wqe.addr + 64'(off_in)
                                                 : (first_or_only ? h_q.hdr.reth.va : dyn_cur.va);

    // ---- defaults: nothing happens
    v_c         = V_EXEC;
    dyn_new_c   = dyn_cur;
    dyn_we_c    = 1'b0;
    dma_c       = 1'b0;
    cmd_c.addr  = addr;
    cmd_c.len   = 32'(h_q.pay_len);
    cmd_c.tag   = '0;
    act_c       = h_q.pay_len != 16'd0;   // payload of every packet goes somewhere
    ev_push_c   = 1'b0;
    cons_c      = 1'b0;
    cons_head_c = rq_lk_head + PW'(1);

    ev_c            = '0;
    ev_c.kind       = roce_qp_pkg::EV_ACK;
    ev_c.psn        = bth.psn;
    ev_c.msn        = dyn_cur.msn;
    ev_c.qpn        = qpn24;
    ev_c.dqpn       = ctx_rd.remote_qpn;
    ev_c.remote_ip  = ctx_rd.remote_ip;
    ev_c.remote_mac = ctx_rd.remote_mac;
    ev_c.udp_sport  = ctx_rd.udp_sport;
    ev_c.pmtu       = ctx_rd.pmtu;
    ev_c.va         = key_va;
    ev_c.len        = h_q.hdr.reth.dma_len;
    ev_c.is_cmp     = info.kind == roce_pkg::KIND_CMP_SWAP;
    ev_c.swap_add   = h_q.hdr.atomiceth.swap_add;
    ev_c.compare    = h_q.hdr.atomiceth.compare;
    ev_c.syndrome   = roce_qp_pkg::AETH_ACK;
    ev_c.cqe.wr_id    = rq_lk_wqe.wr_id;
    ev_c.cqe.status   = roce_qp_pkg::WC_SUCCESS;
    ev_c.cqe.opcode   = (info.kind == roce_pkg::KIND_SEND) ? roce_qp_pkg::WC_OP_RECV
                                                           : roce_qp_pkg::WC_OP_RECV_RDMA_WITH_IMM;
    ev_c.cqe.byte_len = off_in + 32'(h_q.pay_len);
    ev_c.cqe.qpn      = qpn24;
    ev_c.cqe.imm_data = h_q.hdr.immdt;
    ev_c.cqe.has_imm  = info.immdt;
    ev_c.cqe.is_recv  = 1'b1;

    if (qpn24 >= 24'(NQP) || qpn24 < 24'd2) begin
      v_c = V_DROP_QPN;
    end else if (!state_ok) begin
      v_c = V_DROP_STATE;
    end else if (!is_rc_req) begin
      v_c = V_DROP_OP;
    end else if (d != 24'd0 && d[23]) begin
      // ---- duplicate
      v_c = V_DUP;
      unique case (info.kind)
        roce_pkg::KIND_READ_REQ: begin
          if (acc_ok && len_ok && mr_ok) begin
            ev_c.kind = roce_qp_pkg::EV_READ;
            ev_push_c = 1'b1;
          end else begin
            v_c = V_DROP_DUP;
          end
        end
        roce_pkg::KIND_CMP_SWAP,
        roce_pkg::KIND_FETCH_ADD: begin
          ev_c.kind = roce_qp_pkg::EV_ATOMIC_DUP;
          ev_push_c = 1'b1;
        end
        default: begin           // SEND / WRITE: ACK again, write nothing
          ev_c.send = 1'b1;
          ev_c.psn  = dyn_cur.epsn - 24'd1;
          ev_push_c = 1'b1;
        end
      endcase
    end else if (d != 24'd0) begin
      // ---- out of sequence: one NAK per episode
      dyn_we_c = 1'b1;
      if (dyn_cur.nak) begin
        v_c = V_DROP_OOS;
      end else begin
        v_c              = V_NAK_SEQ;
        dyn_new_c.nak    = 1'b1;
        ev_c.send        = 1'b1;
        ev_c.nak         = 1'b1;
        ev_c.syndrome    = roce_qp_pkg::AETH_NAK_PSN_SEQ;
        ev_c.psn         = dyn_cur.epsn;
        ev_push_c        = 1'b1;
      end
    end else begin
      // ---- in order: the episode of a NAK ends here
      dyn_we_c      = 1'b1;
      dyn_new_c.nak = 1'b0;
      ev_c.send     = 1'b1;
      ev_c.nak      = 1'b1;
      if (!seq_ok || !len_ok) begin
        v_c           = V_NAK_INV;
        ev_c.syndrome = roce_qp_pkg::AETH_NAK_INV_REQ;
      end else if (!acc_ok || !mr_ok) begin
        v_c           = V_NAK_ACC;
        ev_c.syndrome = roce_qp_pkg::AETH_NAK_REM_ACC;
      end else if (is_atomic && key_va[2:0] != 3'd0) begin
        v_c           = V_NAK_INV;
        ev_c.syndrome = roce_qp_pkg::AETH_NAK_INV_REQ;
      end else if (needs_wqe && !rq_lk_valid) begin
        v_c           = V_RNR;
        ev_c.syndrome = roce_qp_pkg::AETH_RNR_NAK | {3'b000, ctx_rd.min_rnr_timer};
      end else if (info.kind == roce_pkg::KIND_SEND && !wqe_ok) begin
        v_c             = V_NAK_OP;
        ev_c.syndrome   = roce_qp_pkg::AETH_NAK_REM_OP;
        ev_c.cqe_valid  = 1'b1;
        ev_c.cqe.status = roce_qp_pkg::WC_LOC_PROT_ERR;
        cons_c          = 1'b1;
        dyn_new_c.in_msg = roce_qp_pkg::MSG_NONE;
      end else if (info.kind == roce_pkg::KIND_SEND && 33'(off_in) + 33'(h_q.pay_len) > 33'(rq_lk_wqe.len)) begin
        v_c             = V_NAK_INV;
        ev_c.syndrome   = roce_qp_pkg::AETH_NAK_INV_REQ;
        ev_c.cqe_valid  = 1'b1;
        ev_c.cqe.status = roce_qp_pkg::WC_LOC_LEN_ERR;
        cons_c          = 1'b1;
        dyn_new_c.in_msg = roce_qp_pkg::MSG_NONE;
      end else begin
        // ---- execute
        v_c       = V_EXEC;
        ev_c.send = bth.ackreq;
        ev_c.nak  = 1'b0;
        ev_c.syndrome = roce_qp_pkg::AETH_ACK;
        unique case (info.kind)
          roce_pkg::KIND_READ_REQ: begin
            ev_c.kind       = roce_qp_pkg::EV_READ;
            ev_c.send       = 1'b0;
            ev_c.msn        = dyn_cur.msn + 24'd1;
            dyn_new_c.msn   = dyn_cur.msn + 24'd1;
            dyn_new_c.epsn  = dyn_cur.epsn + npkts;
            ev_push_c       = 1'b1;
          end
          roce_pkg::KIND_CMP_SWAP,
          roce_pkg::KIND_FETCH_ADD: begin
            ev_c.kind       = roce_qp_pkg::EV_ATOMIC;
            ev_c.send       = 1'b0;
            ev_c.msn        = dyn_cur.msn + 24'd1;
            dyn_new_c.msn   = dyn_cur.msn + 24'd1;
            dyn_new_c.epsn  = dyn_cur.epsn + 24'd1;
            ev_push_c       = 1'b1;
          end
          default: begin  // SEND / WRITE
            dma_c             = h_q.pay_len != 16'd0;
            ev_c.wait_dma     = dma_c;
            dyn_new_c.epsn    = dyn_cur.epsn + 24'd1;
            dyn_new_c.va      = addr + 64'(h_q.pay_len);
            dyn_new_c.rem     = rem_in - wr_len_tot;
            dyn_new_c.msg_len = off_in + wr_len_tot;
            dyn_new_c.in_msg  = (info.kind == roce_pkg::KIND_SEND) ? roce_qp_pkg::MSG_SEND
                                                                   : roce_qp_pkg::MSG_WRITE;
            if (info.kind == roce_pkg::KIND_WRITE) ev_c.cqe.byte_len = h_q.hdr.reth.dma_len;
            if (info.kind == roce_pkg::KIND_WRITE && !first_or_only)
              ev_c.cqe.byte_len = dyn_cur.msg_len + dyn_cur.rem;
            if (last_or_only) begin
              dyn_new_c.in_msg = roce_qp_pkg::MSG_NONE;
              dyn_new_c.msn    = dyn_cur.msn + 24'd1;
              ev_c.msn         = dyn_cur.msn + 24'd1;
              if (needs_wqe) begin
                cons_c         = 1'b1;
                ev_c.cqe_valid = 1'b1;
              end
            end
            ev_push_c = ev_c.wait_dma || ev_c.send || ev_c.cqe_valid;
          end
        endcase
      end
      if (v_c != V_EXEC) begin
        dyn_new_c.nak = 1'b1;              // a NAK episode starts
        ev_push_c     = 1'b1;
        ev_c.wait_dma = 1'b0;
      end
    end
    if (v_c != V_EXEC) dma_c = 1'b0;
  end

  // ------------------------------------------------ execute / write back
  assign room      = cmd_in_ready && act_in_ready && ev_in_ready;
  assign exec_fire = st_q == C_EXEC && !killed_q && room && !qp_reset_valid;
  // a killed header still discards its payload
  assign drop_fire = st_q == C_EXEC && killed_q && (!act_q || act_in_ready);

  // the verdict registers take the checks' results in C_RD3
  always_comb begin
    v_d         = v_q;
    dyn_new_d   = dyn_new_q;
    dyn_we_d    = dyn_we_q;
    dma_d       = dma_q;
    cmd_d       = cmd_q;
    act_d       = act_q;
    ev_push_d   = ev_push_q;
    ev_d        = ev_q;
    cons_d      = cons_q;
    cons_head_d = cons_head_q;
    if (st_q == C_RD3) begin
      v_d         = v_c;
      dyn_new_d   = dyn_new_c;
      dyn_we_d    = dyn_we_c;
      dma_d       = dma_c;
      cmd_d       = cmd_c;
      act_d       = act_c;
      ev_push_d   = ev_push_c;
      ev_d        = ev_c;
      cons_d      = cons_c;
      cons_head_d = cons_head_c;
    end
  end

  always_comb begin
    dyn_we = qp_reset_valid || (exec_fire && dyn_we_q);
    dyn_wa = qp_reset_valid ? qp_reset_qpn : qpn;
    dyn_wd = qp_reset_valid ? '0 : dyn_new_q;
  end

  assign rq_cons_en   = exec_fire && cons_q;
  assign rq_cons_qpn  = qpn;
  assign rq_cons_head = cons_head_q;

  roce_ram_sdp #(.WIDTH(DW), .DEPTH(NQP)) u_dyn (
    .clk(clk), .wr_en(dyn_we), .wr_addr(dyn_wa), .wr_data(dyn_wd),
    .rd_en(ctx_rd_en), .rd_addr(ctx_rd_qpn), .rd_data(dyn_rd_raw));

  // The unused count outputs only say how full the FIFOs are.
  roce_fifo #(.WIDTH(mem_pkg::ADDR_W + mem_pkg::LEN_W + mem_pkg::TAG_W), .DEPTH(8)) u_cmd (
    .clk(clk), .rst(rst),
    .in_valid(exec_fire && dma_q), .in_ready(cmd_in_ready), .in_data(cmd_q),
    .out_valid(m_dma_cmd_valid), .out_ready(m_dma_cmd_ready), .out_data(m_dma_cmd), .count(cmd_cnt));
  roce_fifo #(.WIDTH(1), .DEPTH(8)) u_act (
    .clk(clk), .rst(rst),
    .in_valid((exec_fire || drop_fire) && act_q), .in_ready(act_in_ready),
    .in_data(dma_q && !killed_q),
    .out_valid(m_act_valid), .out_ready(m_act_ready), .out_data(m_act_sink), .count(act_cnt));
  roce_fifo #(.WIDTH(roce_qp_pkg::RESP_EV_W), .DEPTH(8)) u_ev (
    .clk(clk), .rst(rst),
    .in_valid(exec_fire && ev_push_q), .in_ready(ev_in_ready), .in_data(ev_q),
    .out_valid(m_ev_valid), .out_ready(m_ev_ready), .out_data(m_ev), .count(ev_cnt));

  // counters
  always_comb begin
    logic fin;
    fin             = exec_fire;
    inc_drop_qpn    = fin && v_q == V_DROP_QPN;
    inc_drop_state  = fin && v_q == V_DROP_STATE;
    inc_drop_opcode = fin && v_q == V_DROP_OP;
    inc_drop_oos    = fin && v_q == V_DROP_OOS;
    inc_drop_dup    = fin && v_q == V_DROP_DUP;
    inc_drop_reset  = drop_fire;
    inc_dup         = fin && (v_q == V_DUP || v_q == V_DROP_DUP);
    inc_nak_seq     = fin && v_q == V_NAK_SEQ;
    inc_nak_inv     = fin && v_q == V_NAK_INV;
    inc_nak_acc     = fin && v_q == V_NAK_ACC;
    inc_nak_op      = fin && v_q == V_NAK_OP;
    inc_rnr         = fin && v_q == V_RNR;
    inc_ok          = fin && v_q == V_EXEC;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      st_q     <= C_IDLE;
      killed_q <= 1'b0;
    end else begin
      st_q     <= st_d;
      killed_q <= killed_d;
    end
    h_q <= h_d;
    begin
      v_q         <= v_d;
      dyn_new_q   <= dyn_new_d;
      dyn_we_q    <= dyn_we_d;
      dma_q       <= dma_d;
      cmd_q       <= cmd_d;
      act_q       <= act_d;
      ev_push_q   <= ev_push_d;
      ev_q        <= ev_d;
      cons_q      <= cons_d;
      cons_head_q <= cons_head_d;
    end
  end
endmodule
