/* The RC transport's registers (see roce_hw.h, regs/roce.toml). */
#include "roce_hw.h"

#include <solonic_regs.h>
#include <stddef.h>

#include "timer.h"
#include "trap.h"

static struct {
    bool present;
    struct roce_caps caps;
} hw;

static uint32_t field(uint32_t v, uint32_t mask, uint32_t shift) {
    return (v & mask) >> shift;
}

int roce_hw_probe(const char **why) {
    uint32_t id, cause;

    hw.present = false;
    if (trap_probe_read32(ROCE_ID, &id, &cause) != 0) {
        *why = "nothing answers at the roce register block";
        return -1;
    }
    if (id != ROCE_ID_VALUE) {
        *why = "the roce register block has the wrong ID";
        return -1;
    }
    if (REG32(ROCE_VERSION) != ROCE_VERSION_VALUE) {
        *why = "the roce register block has an unknown version";
        return -1;
    }
    uint32_t c = REG32(ROCE_CAPS);
    struct roce_caps *k = &hw.caps;
    uint32_t lq = field(c, ROCE_CAPS_LOG2_NQP_MASK, ROCE_CAPS_LOG2_NQP_SHIFT);
    k->log2_nmr = field(c, ROCE_CAPS_LOG2_NMR_MASK, ROCE_CAPS_LOG2_NMR_SHIFT);
    uint32_t lr = field(c, ROCE_CAPS_LOG2_RQ_DEPTH_MASK, ROCE_CAPS_LOG2_RQ_DEPTH_SHIFT);
    uint32_t ls = field(c, ROCE_CAPS_LOG2_SQ_DEPTH_MASK, ROCE_CAPS_LOG2_SQ_DEPTH_SHIFT);
    k->max_rd_atomic = field(c, ROCE_CAPS_MAX_RD_ATOMIC_MASK, ROCE_CAPS_MAX_RD_ATOMIC_SHIFT);
    if (lq < 2 || lq > 24 || k->log2_nmr < 1 || k->log2_nmr > 16 || lr > 16 || ls > 16) {
        *why = "the roce caps register is out of range";
        return -1;
    }
    k->nqp = 1u << lq;
    k->nmr = 1u << k->log2_nmr;
    k->rq_depth = 1u << lr;
    k->sq_depth = 1u << ls;
    if (k->max_rd_atomic == 0) k->max_rd_atomic = 1;
    hw.present = true;
    return 0;
}

const struct roce_caps *roce_hw_caps(void) {
    return hw.present ? &hw.caps : NULL;
}

void roce_hw_qp_write(uint32_t qpn, const struct roce_qp_ctx *x) {
    REG32(ROCE_QP_QPN) = qpn;
    REG32(ROCE_QP_STATE) = x->state;
    REG32(ROCE_QP_PMTU) = x->pmtu;
    REG32(ROCE_QP_REMOTE_QPN) = x->remote_qpn & 0xffffffu;
    REG32(ROCE_QP_REMOTE_IP) = x->remote_ip;
    REG32(ROCE_QP_REMOTE_MAC_HI) = (uint32_t)x->remote_mac[0] << 8 | x->remote_mac[1];
    REG32(ROCE_QP_REMOTE_MAC_LO) = (uint32_t)x->remote_mac[2] << 24 |
                                   (uint32_t)x->remote_mac[3] << 16 |
                                   (uint32_t)x->remote_mac[4] << 8 | x->remote_mac[5];
    REG32(ROCE_QP_UDP_SPORT) = x->udp_sport;
    REG32(ROCE_QP_SQ_PSN) = x->sq_psn & 0xffffffu;
    REG32(ROCE_QP_RQ_PSN) = x->rq_psn & 0xffffffu;
    REG32(ROCE_QP_TIMERS) =
        ((uint32_t)x->retry_cnt << ROCE_QP_TIMERS_RETRY_CNT_SHIFT & ROCE_QP_TIMERS_RETRY_CNT_MASK) |
        ((uint32_t)x->rnr_retry << ROCE_QP_TIMERS_RNR_RETRY_SHIFT & ROCE_QP_TIMERS_RNR_RETRY_MASK) |
        ((uint32_t)x->timeout << ROCE_QP_TIMERS_TIMEOUT_SHIFT & ROCE_QP_TIMERS_TIMEOUT_MASK) |
        ((uint32_t)x->min_rnr_timer << ROCE_QP_TIMERS_MIN_RNR_TIMER_SHIFT &
         ROCE_QP_TIMERS_MIN_RNR_TIMER_MASK);
    REG32(ROCE_QP_RD_ATOMIC) = ((uint32_t)x->max_rd_atomic << ROCE_QP_RD_ATOMIC_MAX_RD_ATOMIC_SHIFT &
                                ROCE_QP_RD_ATOMIC_MAX_RD_ATOMIC_MASK) |
                               ((uint32_t)x->max_dest_rd_atomic
                                    << ROCE_QP_RD_ATOMIC_MAX_DEST_RD_ATOMIC_SHIFT &
                                ROCE_QP_RD_ATOMIC_MAX_DEST_RD_ATOMIC_MASK);
    REG32(ROCE_QP_ACCESS) = x->access & 0xeu;
    REG32(ROCE_QP_PD) = x->pd;
    REG32(ROCE_QP_WRITE) = 1;
}

static uint32_t qp_hw_state(uint32_t qpn) {
    REG32(ROCE_QP_QPN) = qpn;
    /* qp_hw_state follows qp_qpn a few cycles later (a registered two-step mux):
       the first reads cover them */
    (void)REG32(ROCE_QP_HW_STATE);
    (void)REG32(ROCE_QP_HW_STATE);
    return REG32(ROCE_QP_HW_STATE);
}

bool roce_hw_qp_req_seen(uint32_t qpn) {
    return (qp_hw_state(qpn) & ROCE_QP_HW_STATE_REQ_MASK) != 0;
}

bool roce_hw_qp_error(uint32_t qpn) {
    return (qp_hw_state(qpn) & ROCE_QP_HW_STATE_ERROR_MASK) != 0;
}

void roce_hw_mr_write(uint32_t index, uint32_t key, uint64_t base, uint64_t len, uint32_t access,
                      uint32_t pd) {
    REG32(ROCE_MR_INDEX) = index;
    REG32(ROCE_MR_KEY) = key;
    REG32(ROCE_MR_BASE_LO) = (uint32_t)base;
    REG32(ROCE_MR_BASE_HI) = (uint32_t)(base >> 32);
    REG32(ROCE_MR_LEN_LO) = (uint32_t)len;
    REG32(ROCE_MR_LEN_HI) = (uint32_t)(len >> 32);
    REG32(ROCE_MR_ACCESS) = access & 0x1fu;
    REG32(ROCE_MR_PD) = pd & 0xffu;
    REG32(ROCE_MR_WRITE) = 1;
}

void roce_hw_mr_invalidate(uint32_t index) {
    REG32(ROCE_MR_INDEX) = index;
    REG32(ROCE_MR_WRITE) = 0;
}

int roce_hw_post_recv(uint32_t qpn, uint64_t addr, uint32_t len, uint32_t lkey, uint64_t wr_id) {
    uint32_t before = REG32(ROCE_RQ_OVERFLOW);
    REG32(ROCE_RQ_QPN) = qpn;
    REG32(ROCE_RQ_ADDR_LO) = (uint32_t)addr;
    REG32(ROCE_RQ_ADDR_HI) = (uint32_t)(addr >> 32);
    REG32(ROCE_RQ_LEN) = len;
    REG32(ROCE_RQ_LKEY) = lkey;
    REG32(ROCE_RQ_WR_ID_LO) = (uint32_t)wr_id;
    REG32(ROCE_RQ_WR_ID_HI) = (uint32_t)(wr_id >> 32);
    REG32(ROCE_RQ_POST) = 1;
    /* the post is stored or refused within a few cycles; rq_overflow is final once busy reads 0 */
    for (int i = 0; i < 64 && (REG32(ROCE_RQ_STATUS) & 1u); i++) {
    }
    return REG32(ROCE_RQ_OVERFLOW) == before ? 0 : -1;
}

int roce_hw_rq_recycle(uint32_t qpn) {
    uint32_t before = REG32(ROCE_RQ_OVERFLOW);
    REG32(ROCE_RQ_QPN) = qpn;
    REG32(ROCE_RQ_RECYCLE) = 1;
    for (int i = 0; i < 64 && (REG32(ROCE_RQ_STATUS) & 1u); i++) {
    }
    return REG32(ROCE_RQ_OVERFLOW) == before ? 0 : -1;
}

int roce_hw_post_send(const struct roce_wr *wr, uint32_t timeout_ms) {
    uint64_t deadline = tmr_cycles() + tmr_ms_to_cycles(timeout_ms);
    while ((REG32(ROCE_SQ_STATUS) & 1u) == 0) {
        if (tmr_cycles() >= deadline) return -1;
    }
    uint32_t before = REG32(ROCE_SQ_REFUSED);
    REG32(ROCE_SQ_OPCODE) = wr->opcode;
    REG32(ROCE_SQ_QPN) = wr->qpn;
    REG32(ROCE_SQ_LADDR_LO) = (uint32_t)wr->laddr;
    REG32(ROCE_SQ_LADDR_HI) = (uint32_t)(wr->laddr >> 32);
    REG32(ROCE_SQ_LKEY) = wr->lkey;
    REG32(ROCE_SQ_RADDR_LO) = (uint32_t)wr->raddr;
    REG32(ROCE_SQ_RADDR_HI) = (uint32_t)(wr->raddr >> 32);
    REG32(ROCE_SQ_RKEY) = wr->rkey;
    REG32(ROCE_SQ_LEN) = wr->len;
    REG32(ROCE_SQ_IMM) = wr->imm;
    REG32(ROCE_SQ_COMPARE_LO) = (uint32_t)wr->compare;
    REG32(ROCE_SQ_COMPARE_HI) = (uint32_t)(wr->compare >> 32);
    REG32(ROCE_SQ_SWAP_ADD_LO) = (uint32_t)wr->swap_add;
    REG32(ROCE_SQ_SWAP_ADD_HI) = (uint32_t)(wr->swap_add >> 32);
    REG32(ROCE_SQ_WR_ID_LO) = (uint32_t)wr->wr_id;
    REG32(ROCE_SQ_WR_ID_HI) = (uint32_t)(wr->wr_id >> 32);
    REG32(ROCE_SQ_FLAGS) = wr->flags & 3u;
    REG32(ROCE_SQ_POST) = 1;
    return REG32(ROCE_SQ_REFUSED) == before ? 0 : -2;
}

int roce_hw_poll_cq(struct roce_wc *wc) {
    if ((REG32(ROCE_CQ_STATUS) & (1u << 16)) == 0) return 0;
    wc->wr_id = (uint64_t)REG32(ROCE_CQ_WR_ID_HI) << 32 | REG32(ROCE_CQ_WR_ID_LO);
    uint32_t info = REG32(ROCE_CQ_INFO);
    wc->status = (uint8_t)field(info, ROCE_CQ_INFO_STATUS_MASK, ROCE_CQ_INFO_STATUS_SHIFT);
    wc->opcode = (uint8_t)field(info, ROCE_CQ_INFO_OPCODE_MASK, ROCE_CQ_INFO_OPCODE_SHIFT);
    wc->has_imm = (info & ROCE_CQ_INFO_HAS_IMM_MASK) != 0;
    wc->is_recv = (info & ROCE_CQ_INFO_IS_RECV_MASK) != 0;
    wc->byte_len = REG32(ROCE_CQ_BYTE_LEN);
    wc->qpn = REG32(ROCE_CQ_QPN);
    wc->imm = wc->has_imm ? REG32(ROCE_CQ_IMM) : 0; /* a register read less for most completions */
    REG32(ROCE_CQ_POP) = 1;
    return 1;
}

/* ---- the work-request generator */

void roce_hw_gen_start(const struct roce_gen_cfg *c) {
    REG32(ROCE_GEN_OPCODE) = c->opcode;
    REG32(ROCE_GEN_QPN) = c->qpn;
    REG32(ROCE_GEN_NQP) = c->nqp;
    REG32(ROCE_GEN_QPN_STRIDE) = c->stride;
    REG32(ROCE_GEN_LADDR_LO) = (uint32_t)c->laddr;
    REG32(ROCE_GEN_LADDR_HI) = (uint32_t)(c->laddr >> 32);
    REG32(ROCE_GEN_LKEY) = c->lkey;
    REG32(ROCE_GEN_RADDR_LO) = (uint32_t)c->raddr;
    REG32(ROCE_GEN_RADDR_HI) = (uint32_t)(c->raddr >> 32);
    REG32(ROCE_GEN_RKEY) = c->rkey;
    REG32(ROCE_GEN_LEN) = c->len;
    REG32(ROCE_GEN_TOTAL) = c->total;
    REG32(ROCE_GEN_MAX_OUT) = c->max_out;
    REG32(ROCE_GEN_MAX_OUT_QP) = c->max_out_qp;
    REG32(ROCE_GEN_SIG_EVERY) = c->sig_every;
    REG32(ROCE_GEN_WINDOW) = c->window;
    REG32(ROCE_GEN_TIMEOUT) = c->timeout;
    REG32(ROCE_GEN_MODE) = c->lat ? 1u : 0u;
    REG32(ROCE_GEN_CTRL) = 1u;
}

bool roce_hw_gen_busy(void) {
    return (REG32(ROCE_GEN_STATUS) & ROCE_GEN_STATUS_BUSY_MASK) != 0;
}

void roce_hw_gen_abort(void) {
    REG32(ROCE_GEN_CTRL) = 2u;
}

void roce_hw_gen_read(struct roce_gen_res *r) {
    r->status = REG32(ROCE_GEN_STATUS);
    r->posted = REG32(ROCE_GEN_POSTED);
    r->completed = REG32(ROCE_GEN_COMPLETED);
    r->err_index = REG32(ROCE_GEN_ERR_INDEX);
    r->t_first = REG32(ROCE_GEN_T_FIRST_LO) | (uint64_t)REG32(ROCE_GEN_T_FIRST_HI) << 32;
    r->t_last = REG32(ROCE_GEN_T_LAST_LO) | (uint64_t)REG32(ROCE_GEN_T_LAST_HI) << 32;
    r->lat_min = REG32(ROCE_GEN_LAT_MIN);
    r->lat_max = REG32(ROCE_GEN_LAT_MAX);
    r->lat_sum = REG32(ROCE_GEN_LAT_SUM_LO) | (uint64_t)REG32(ROCE_GEN_LAT_SUM_HI) << 32;
    r->win_min = REG32(ROCE_GEN_WIN_MIN);
}

void roce_hw_bytes(uint64_t *rx, uint64_t *tx) {
    uint32_t lo = REG32(ROCE_RX_BYTES_LO); /* latches the high word */
    *rx = (uint64_t)REG32(ROCE_RX_BYTES_HI) << 32 | lo;
    lo = REG32(ROCE_TX_BYTES_LO);
    *tx = (uint64_t)REG32(ROCE_TX_BYTES_HI) << 32 | lo;
}

uint64_t roce_hw_gen_cycle(void) {
    uint32_t lo = REG32(ROCE_GEN_CYCLE_LO); /* latches the high word */
    return (uint64_t)REG32(ROCE_GEN_CYCLE_HI) << 32 | lo;
}

#define CNT(n, r) {n, r}
const struct roce_hw_counter roce_hw_counters[] = {
    CNT("rx_packets", ROCE_RX_PACKETS),       CNT("rx_icrc_bad", ROCE_RX_ICRC_BAD),
    CNT("rx_bad_opcode", ROCE_RX_BAD_OPCODE), CNT("rx_bad_version", ROCE_RX_BAD_VERSION),
    CNT("rx_bad_len", ROCE_RX_BAD_LEN),       CNT("tx_packets", ROCE_TX_PACKETS),
    CNT("resp_drop_qp", ROCE_RESP_DROP_QP),   CNT("resp_dup", ROCE_RESP_DUP),
    CNT("resp_nak_seq", ROCE_RESP_NAK_SEQ),   CNT("resp_nak_inv", ROCE_RESP_NAK_INV),
    CNT("resp_nak_acc", ROCE_RESP_NAK_ACC),   CNT("resp_nak_rnr", ROCE_RESP_NAK_RNR),
    CNT("resp_nak_op", ROCE_RESP_NAK_OP),     CNT("req_retrans", ROCE_REQ_RETRANS),
    CNT("req_timeouts", ROCE_REQ_TIMEOUTS),   CNT("req_rnr_waits", ROCE_REQ_RNR_WAITS),
    CNT("req_naks", ROCE_REQ_NAKS),           CNT("comp_drop_resp", ROCE_COMP_DROP_RESP),
    CNT("rq_overflow", ROCE_RQ_OVERFLOW),     CNT("sq_refused", ROCE_SQ_REFUSED),
    CNT("cq_overflow", ROCE_CQ_OVERFLOW),     CNT("resp_drop_not_rc", ROCE_RESP_DROP_NOT_RC),
    CNT("resp_drop_oos", ROCE_RESP_DROP_OOS), CNT("resp_drop_dup", ROCE_RESP_DROP_DUP),
    CNT("resp_acks_sent", ROCE_RESP_ACKS_SENT), CNT("resp_naks_sent", ROCE_RESP_NAKS_SENT),
    CNT("resp_read_resp_pkts", ROCE_RESP_READ_RESP_PKTS), CNT("resp_atomic_miss", ROCE_RESP_ATOMIC_MISS),
    CNT("resp_dma_err", ROCE_RESP_DMA_ERR),   CNT("resp_nak_pmtu", ROCE_RESP_NAK_PMTU),
    CNT("resp_nak_pd", ROCE_RESP_NAK_PD),
    CNT("req_packets", ROCE_REQ_PACKETS),
    CNT("req_local_err", ROCE_REQ_LOCAL_ERR), CNT("comp_nak_seq", ROCE_COMP_NAK_SEQ),
    CNT("comp_nak_inv", ROCE_COMP_NAK_INV),   CNT("comp_nak_acc", ROCE_COMP_NAK_ACC),
    CNT("comp_nak_op", ROCE_COMP_NAK_OP),     CNT("comp_implicit_nak", ROCE_COMP_IMPLICIT_NAK),
    CNT("sq_rejected", ROCE_SQ_REJECTED),     CNT("user_posted", ROCE_USER_POSTED),
    CNT("user_errors", ROCE_USER_ERRORS),     CNT("ustream_errors", ROCE_USTREAM_ERRORS),
    CNT("gen_recv_done", ROCE_GEN_RECV_DONE), CNT("gen_recv_errors", ROCE_GEN_RECV_ERRORS),
    CNT("rq_flushed", ROCE_RQ_FLUSHED),       CNT("rq_flush_lost", ROCE_RQ_FLUSH_LOST),
    CNT("np_ecn_marked_roce_packets", ROCE_NP_ECN_MARKED_ROCE_PACKETS), CNT("np_cnp_sent", ROCE_NP_CNP_SENT),
    CNT("np_cnp_dropped", ROCE_NP_CNP_DROPPED), CNT("rp_cnp_received", ROCE_RP_CNP_RECEIVED),
    CNT("rp_cnp_dropped", ROCE_RP_CNP_DROPPED), CNT("rp_cnp_handled", ROCE_RP_CNP_HANDLED),
    CNT("rp_cnp_ignored", ROCE_RP_CNP_IGNORED), CNT("rp_rate_dec", ROCE_RP_RATE_DEC),
    CNT("rp_ev_dropped", ROCE_RP_EV_DROPPED), CNT("rp_paced", ROCE_RP_PACED),
};
const uint32_t roce_hw_ncounters = sizeof roce_hw_counters / sizeof roce_hw_counters[0];

uint32_t roce_hw_read(uint32_t addr) {
    return REG32(addr);
}

/* ---- names */

const char *roce_wc_status_name(uint32_t s) {
    static const char *const names[] = {
        "IBV_WC_SUCCESS",          "IBV_WC_LOC_LEN_ERR",    "IBV_WC_LOC_QP_OP_ERR",
        "IBV_WC_LOC_EEC_OP_ERR",   "IBV_WC_LOC_PROT_ERR",   "IBV_WC_WR_FLUSH_ERR",
        "IBV_WC_MW_BIND_ERR",      "IBV_WC_BAD_RESP_ERR",   "IBV_WC_LOC_ACCESS_ERR",
        "IBV_WC_REM_INV_REQ_ERR",  "IBV_WC_REM_ACCESS_ERR", "IBV_WC_REM_OP_ERR",
        "IBV_WC_RETRY_EXC_ERR",    "IBV_WC_RNR_RETRY_EXC_ERR", "IBV_WC_LOC_RDD_VIOL_ERR",
        "IBV_WC_REM_INV_RD_REQ_ERR", "IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR",
        "IBV_WC_INV_EEC_STATE_ERR", "IBV_WC_FATAL_ERR",     "IBV_WC_RESP_TIMEOUT_ERR",
        "IBV_WC_GENERAL_ERR",
    };
    return s < sizeof names / sizeof names[0] ? names[s] : "IBV_WC_?";
}

const char *roce_wc_opcode_name(uint32_t op) {
    switch (op) {
    case 0: return "IBV_WC_SEND";
    case 1: return "IBV_WC_RDMA_WRITE";
    case 2: return "IBV_WC_RDMA_READ";
    case 3: return "IBV_WC_COMP_SWAP";
    case 4: return "IBV_WC_FETCH_ADD";
    case 128: return "IBV_WC_RECV";
    case 129: return "IBV_WC_RECV_RDMA_WITH_IMM";
    default: return "IBV_WC_?";
    }
}

const char *roce_qp_state_name(uint32_t s) {
    switch (s) {
    case ROCE_QPS_RESET: return "RESET";
    case ROCE_QPS_INIT: return "INIT";
    case ROCE_QPS_RTR: return "RTR";
    case ROCE_QPS_RTS: return "RTS";
    case ROCE_QPS_SQE: return "SQE";
    case ROCE_QPS_ERR: return "ERROR";
    default: return "?";
    }
}
