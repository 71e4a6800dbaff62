/* The firmware's QP and MR tables and the CQ service (see roce.h). */
#include "roce.h"

#include <solonic_regs.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "net.h"
#include "noinit.h"
#include "timer.h"

#define DONE_RING 8u /* send completions waiting for their poster */
/* completions filed per roce_poll: a receive queue's worth and more, so that a stream of
   SENDs is served without a pass of the main loop (~400 cycles) between every few */
#define ROCE_POLL_MAX 64u

/* The QP and MR tables (49 KB) are not cleared at start-up (a quarter of the boot's
   cycles): roce_init marks every entry unused; an entry is written whole when taken
   (roce_qp_create's memset, roce_mr_reg's fields), and every reader checks `used`. */
NOINIT(roce_qps) static struct roce_qp qps[ROCE_MAX_QPS];
NOINIT(roce_mrs) static struct roce_mr mrs[ROCE_MAX_MRS];

static struct {
    bool probed, present;
    const char *why;
    uint32_t mr_tag;  /* the key bits above the MR index: new for every registration */
    uint64_t wr_seq;  /* wr_id of the next console/exchange work request */
    struct roce_wc done[DONE_RING];
    bool done_valid[DONE_RING];
    uint32_t done_next;
    uint32_t unclaimed; /* completions no table entry knew */
    uint32_t req_cqe_error, resp_cqe_error; /* error completions (send side, receive side) */
    uint32_t retry_exc, rnr_retry_exc;      /* of req_cqe_error: retries / RNR retries exhausted */
    uint32_t not_rc_ud, not_rc_uc, pmtu_naks; /* resp_drop_not_rc, rx_bad_opcode, resp_nak_pmtu when told */
    uint64_t note_next, not_rc_quiet, pmtu_quiet; /* cycles: the next look at them; no note before */
    uint32_t rng;
    uint32_t qp_errors; /* QP events (moves to ERROR) taken from the transport */
} rc;

void roce_init(void) {
    for (uint32_t i = 0; i < ROCE_MAX_QPS; i++) qps[i].used = false;
    for (uint32_t i = 0; i < ROCE_MAX_MRS; i++) mrs[i].used = false;
    rc.why = "";
    rc.present = roce_hw_probe(&rc.why) == 0;
    rc.probed = true;
}

bool roce_present(void) {
    if (!rc.probed) roce_init();
    return rc.present;
}

const char *roce_absent_reason(void) {
    return roce_present() ? "" : rc.why;
}

int roce_need(const char *cmd) {
    if (roce_present()) return 0;
    printf("%s: no RoCE transport (%s)\n", cmd, rc.why);
    return -1;
}

uint32_t roce_random_psn(void) {
    if (rc.rng == 0) rc.rng = (uint32_t)tmr_cycles() | 1u;
    rc.rng ^= (uint32_t)tmr_cycles();
    if (rc.rng == 0) rc.rng = 0x2545f491u;
    rc.rng ^= rc.rng << 13;
    rc.rng ^= rc.rng >> 17;
    rc.rng ^= rc.rng << 5;
    return rc.rng & 0xffffffu;
}

/* ---- QPs */

struct roce_qp *roce_qp_find(uint32_t qpn) {
    return qpn < ROCE_MAX_QPS && qps[qpn].used ? &qps[qpn] : NULL;
}

struct roce_qp *roce_qp_slot(uint32_t i) {
    return i < ROCE_MAX_QPS ? &qps[i] : NULL;
}

/* The lowest free QPN from ROCE_FIRST_QPN up, then from 2 (QPN 0 and 1 are never RC QPs),
   below the transport's NQP and the table's size. */
static uint32_t free_qpn(void) {
    uint32_t nqp = roce_hw_caps()->nqp;
    if (nqp > ROCE_MAX_QPS) nqp = ROCE_MAX_QPS;
    for (uint32_t pass = 0; pass < 2; pass++) {
        uint32_t lo = pass ? 2u : ROCE_FIRST_QPN, hi = pass ? ROCE_FIRST_QPN : nqp;
        for (uint32_t q = lo; q < hi && q < nqp; q++)
            if (!roce_qp_find(q)) return q;
    }
    return 0;
}

void roce_qp_modify(struct roce_qp *qp, const struct roce_qp_ctx *ctx) {
    roce_hw_qp_write(qp->qpn, ctx);
    qp->ctx = *ctx;
    if (ctx->state == ROCE_QPS_RESET) {
        qp->in_error = false;   /* IB: ERROR is left through RESET */
        qp->recv_ring = false;  /* the reset empties the ring and ends its recycling */
    }
}

const char *roce_qp_state_now(const struct roce_qp *qp) {
    return qp->in_error ? "ERROR" : roce_qp_state_name(qp->ctx.state);
}

const char *roce_qp_err_reason(bool resp, uint32_t status) {
    if (!resp) return status ? roce_wc_status_name(status) : "requester (its failed completion says why)";
    switch (status) {
    case ROCE_WC_REM_INV_REQ_ERR: return "responder sent NAK invalid request";
    case ROCE_WC_REM_ACCESS_ERR: return "responder sent NAK remote access error";
    case ROCE_WC_REM_OP_ERR: return "responder sent NAK remote operational error";
    default: return "responder: ?";
    }
}

/* The transport's QP events (ROCE_QP_EVENT, docs/transport.md "QP errors"):
   every move of a QP to ERROR, told on the console and kept in the QP's entry
   for 'qp show' / 'qp list'. */
static void take_qp_events(void) {
    for (int i = 0; i < 8; i++) {
        uint32_t w = roce_hw_read(ROCE_QP_EVENT);
        if (!(w & ROCE_QP_EVENT_VALID_MASK)) return;
        uint32_t qpn = (w & ROCE_QP_EVENT_QPN_MASK) >> ROCE_QP_EVENT_QPN_SHIFT;
        uint32_t st = (w & ROCE_QP_EVENT_STATUS_MASK) >> ROCE_QP_EVENT_STATUS_SHIFT;
        bool resp = (w & ROCE_QP_EVENT_RESPONDER_MASK) != 0;
        struct roce_qp *qp = roce_qp_find(qpn);
        rc.qp_errors++;
        if (qp && !qp->in_error) { /* the first move says why (a second side may follow) */
            qp->in_error = true;
            qp->err_resp = resp;
            qp->err_status = (uint8_t)st;
        }
        if (qp && qp->quiet) continue;
        printf("\nroce: QP 0x%06lx entered ERROR: %s (%s); 'qp reset 0x%lx' or a new exchange "
               "brings it back\n",
               (unsigned long)qpn, roce_qp_err_reason(resp, st), resp ? "as responder" : "as requester",
               (unsigned long)qpn);
    }
}

struct roce_qp *roce_qp_create(uint8_t owner, uint32_t pd, const char **err) {
    if (pd > ROCE_PD_MAX) {
        *err = "the protection domain is out of range";
        return NULL;
    }
    uint32_t qpn = free_qpn();
    if (!qpn) {
        *err = "no free QP (the transport's QPNs are all in use)";
        return NULL;
    }
    struct roce_qp *qp = &qps[qpn];
    const struct roce_caps *k = roce_hw_caps();
    memset(qp, 0, sizeof *qp);
    qp->used = true;
    qp->owner = owner;
    qp->qpn = qpn;
    struct roce_qp_ctx c;
    memset(&c, 0, sizeof c);
    c.state = ROCE_QPS_RESET;
    c.pmtu = ROCE_DEFAULT_PMTU;
    c.retry_cnt = 7;      /* ibv_rc_pingpong / perftest: retry_cnt 7 */
    c.rnr_retry = 7;      /* and rnr_retry 7 (forever) */
    c.timeout = 14;       /* 67 ms */
    /* the RNR NAK timer this QP advertises as a responder (IB code 1: 0.01 ms, the
       shortest): a sender that finds the receive queue empty waits only as long as
       the firmware takes to post again. A peer's own QPs keep what its tool
       advertises (ibv_rc_pingpong and perftest: 12, 0.64 ms). */
    c.min_rnr_timer = 1;
    c.max_rd_atomic = (uint8_t)k->max_rd_atomic;
    c.max_dest_rd_atomic = (uint8_t)k->max_rd_atomic;
    c.access = ROCE_ACC_REMOTE_WRITE | ROCE_ACC_REMOTE_READ | ROCE_ACC_REMOTE_ATOMIC;
    c.udp_sport = 0xc000;
    c.pd = (uint8_t)pd;
    roce_qp_modify(qp, &c); /* clears whatever an earlier user left */
    c.state = ROCE_QPS_INIT;
    roce_qp_modify(qp, &c);
    return qp;
}

void roce_qp_reset(struct roce_qp *qp) {
    struct roce_qp_ctx c = qp->ctx;
    c.state = ROCE_QPS_RESET;
    roce_qp_modify(qp, &c);
    qp->auto_recv = false;
}

void roce_qp_destroy(struct roce_qp *qp) {
    roce_qp_reset(qp);
    qp->used = false;
}

/* ---- MRs */

struct roce_mr *roce_mr_find(uint32_t key) {
    for (uint32_t i = 0; i < ROCE_MAX_MRS; i++)
        if (mrs[i].used && mrs[i].key == key) return &mrs[i];
    return NULL;
}

struct roce_mr *roce_mr_slot(uint32_t i) {
    return i < ROCE_MAX_MRS ? &mrs[i] : NULL;
}

struct roce_mr *roce_mr_reg(uint64_t base, uint64_t len, uint32_t access, uint32_t pd,
                            const char **err) {
    const struct roce_caps *k = roce_hw_caps();
    struct roce_mr *mr = NULL;
    uint32_t index = 0;
    /* table slot i uses transport row i (the firmware is the only writer of MR rows) */
    for (uint32_t i = 0; i < ROCE_MAX_MRS && i < k->nmr; i++) {
        if (!mrs[i].used) {
            mr = &mrs[i];
            index = i;
            break;
        }
    }
    if (!mr) {
        *err = "no free MR slot";
        return NULL;
    }
    if (len == 0 || base + len < base) {
        *err = "the region is empty or wraps around";
        return NULL;
    }
    if (pd > ROCE_PD_MAX) {
        *err = "the protection domain is out of range";
        return NULL;
    }
    rc.mr_tag = (rc.mr_tag + 1u) & (0xffffffffu >> k->log2_nmr);
    if (rc.mr_tag == 0) rc.mr_tag = 1;
    mr->used = true;
    mr->index = index;
    mr->key = rc.mr_tag << k->log2_nmr | index;
    mr->base = base;
    mr->len = len;
    mr->access = access & (ROCE_MR_ACCESS_ALL | ROCE_ACC_STREAM);
    mr->pd = pd;
    roce_hw_mr_write(index, mr->key, base, len, mr->access, pd);
    return mr;
}

void roce_mr_dereg(struct roce_mr *mr) {
    roce_hw_mr_invalidate(mr->index);
    mr->used = false;
}

struct roce_mr *roce_mr_covering(uint64_t addr, uint64_t len, uint32_t access, uint32_t pd) {
    for (uint32_t i = 0; i < ROCE_MAX_MRS; i++) {
        struct roce_mr *m = &mrs[i];
        if (m->used && m->pd == pd && (m->access & access) == access && !(m->access & ROCE_ACC_STREAM) &&
            addr >= m->base &&
            addr - m->base <= m->len && len <= m->len - (addr - m->base))
            return m;
    }
    return NULL;
}

uint32_t roce_pd_session(const char **err) {
    for (uint32_t pd = 1; pd <= ROCE_PD_MAX; pd++) {
        bool taken = false;
        for (uint32_t q = 0; q < ROCE_MAX_QPS && !taken; q++) {
            const struct roce_qp *qp = &qps[q];
            taken = qp->used && qp->owner != ROCE_OWNER_CONSOLE && qp->ctx.pd == pd;
        }
        if (!taken) return pd;
    }
    *err = "every protection domain is taken by a session";
    return 0;
}

/* ---- receive queue */

static int post_recv(struct roce_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey) {
    uint64_t id = (uint64_t)qp->qpn << 32 | (qp->recv_posted + 1u);
    if (roce_hw_post_recv(qp->qpn, addr, len, lkey, id) != 0) return -1;
    qp->recv_posted++;
    return 0;
}

int roce_post_recv(struct roce_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey,
                   const char **err) {
    if (qp->in_error) {
        /* the transport flushed its ring when it entered ERROR; a WQE posted now would wait
           there without a completion until RESET (docs/transport.md "QP errors") */
        *err = "the QP is in ERROR: 'qp reset' it first";
        return -1;
    }
    if (qp->recv_ring) {
        *err = "its receive queue is a recycling ring in the transport (listen/connect --recv-ring)";
        return -1;
    }
    if (post_recv(qp, addr, len, lkey) != 0) {
        *err = "the receive queue is full (counted in rq_overflow)";
        return -1;
    }
    return 0;
}

int roce_qp_auto_recv(struct roce_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey, uint32_t n) {
    qp->recv_addr = addr;
    qp->recv_len = len;
    qp->recv_lkey = lkey;
    qp->auto_recv = true;
    for (uint32_t i = 0; i < n; i++)
        if (post_recv(qp, addr, len, lkey) != 0) return -1;
    return 0;
}

int roce_qp_recv_ring(struct roce_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey, const char **err) {
    if (qp->recv_ring) {
        *err = "its receive queue is a recycling ring already";
        return -1;
    }
    uint32_t depth = roce_hw_caps()->rq_depth;
    for (uint32_t i = 0; i < depth; i++) {
        uint64_t id = (uint64_t)ROCE_GEN_TAG << 48 | (uint64_t)qp->qpn << 16 | i;
        if (roce_hw_post_recv(qp->qpn, addr, len, lkey, id) != 0) {
            *err = i ? "its receive queue was not empty: the transport refused a receive WQE (counted in "
                       "rq_overflow; reset the QP to empty it)"
                     : "the transport refused a receive WQE (counted in rq_overflow)";
            return -1;
        }
    }
    if (roce_hw_rq_recycle(qp->qpn) != 0) {
        *err = "the transport refused to recycle the ring (counted in rq_overflow)";
        return -1;
    }
    qp->auto_recv = false;
    qp->recv_ring = true;
    return 0;
}

/* ---- completions */

static void file_wc(const struct roce_wc *wc) {
    struct roce_qp *qp = roce_qp_find(wc->qpn);
    if (wc->is_recv) {
        if (!qp) {
            rc.unclaimed++;
            return;
        }
        /* the WQE goes back first: a sender at line rate outruns the firmware, and every
           cycle before the post is a cycle the receive queue is one short */
        if (wc->status == 0 && qp->auto_recv && qp->ctx.state != ROCE_QPS_RESET)
            (void)post_recv(qp, qp->recv_addr, qp->recv_len, qp->recv_lkey);
        /* field by field: a struct assignment is a memcpy call, ~100 cycles a receive */
        qp->last_recv.wr_id = wc->wr_id;
        qp->last_recv.qpn = wc->qpn;
        qp->last_recv.is_recv = true;
        qp->last_recv.status = wc->status;
        qp->last_recv.opcode = wc->opcode;
        qp->last_recv.has_imm = wc->has_imm;
        qp->last_recv.byte_len = wc->byte_len;
        qp->last_recv.imm = wc->imm;
        if (wc->status != 0) {
            qp->recv_errors++;
            rc.resp_cqe_error++;
            return;
        }
        qp->recv_done++;
        return;
    }
    if (qp) {
        if (wc->status == 0) {
            qp->send_done++;
            qp->send_bytes += wc->byte_len;
            qp->t_last_done = tmr_cycles();
        } else {
            qp->send_errors++;
            rc.req_cqe_error++;
            if (wc->status == ROCE_WC_RETRY_EXC_ERR) rc.retry_exc++;
            if (wc->status == ROCE_WC_RNR_RETRY_EXC_ERR) rc.rnr_retry_exc++;
        }
    } else {
        rc.unclaimed++;
    }
    rc.done[rc.done_next] = *wc;
    rc.done_valid[rc.done_next] = true;
    rc.done_next = (rc.done_next + 1u) % DONE_RING;
}

/* Requests the RTL drops or NAKs for a reason the peer's user must hear of, told
   on the console: UD packets to the NIC's RC QPs (ibv_ud_pingpong), UC packets
   (ibv_uc_pingpong: opcodes outside the RC/UD table), and payloads longer than the
   QP's path MTU (a peer whose MTU is larger: the invalid-request NAK). The
   counters are looked at every millisecond; a change is told at once, then at
   most once a second per kind while more arrive. */
#define NOTE_LOOK_MS 1u
#define NOTE_QUIET_MS 1000u
static void note_drops(void) {
    uint64_t now = tmr_cycles();
    if (now < rc.note_next) return;
    rc.note_next = now + tmr_ms_to_cycles(NOTE_LOOK_MS);
    if (now >= rc.not_rc_quiet) {
        uint32_t ud = roce_hw_read(ROCE_RESP_DROP_NOT_RC), uc = roce_hw_read(ROCE_RX_BAD_OPCODE);
        if (ud != rc.not_rc_ud || uc != rc.not_rc_uc) {
            printf("\nroce: UD/UC not supported (solonic's QPs are RC): dropped %lu UD packets to RC QPs "
                   "(resp_drop_not_rc) and %lu packets with a UC or unknown opcode (rx_bad_opcode) so far\n",
                   (unsigned long)ud, (unsigned long)uc);
            rc.not_rc_ud = ud;
            rc.not_rc_uc = uc;
            rc.not_rc_quiet = now + tmr_ms_to_cycles(NOTE_QUIET_MS);
        }
    }
    if (now >= rc.pmtu_quiet) {
        uint32_t n = roce_hw_read(ROCE_RESP_NAK_PMTU);
        if (n != rc.pmtu_naks) {
            printf("\nroce: %lu requests NAKed (invalid request) so far because their payload was longer "
                   "than the QP's path MTU (resp_nak_pmtu): the peer uses a larger MTU; give both sides "
                   "the same one (listen/connect --mtu, the tool's -m)\n",
                   (unsigned long)n);
            rc.pmtu_naks = n;
            rc.pmtu_quiet = now + tmr_ms_to_cycles(NOTE_QUIET_MS);
        }
    }
}

void roce_poll(void) {
    if (!rc.present) return;
    struct roce_wc wc;
    for (uint32_t i = 0; i < ROCE_POLL_MAX && roce_hw_poll_cq(&wc); i++)
        file_wc(&wc);
    take_qp_events();
    note_drops();
}

int roce_poll_wc(struct roce_wc *wc) {
    if (!rc.present || !roce_hw_poll_cq(wc)) return 0;
    file_wc(wc);
    return 1;
}

static bool take_done(uint64_t wr_id, struct roce_wc *wc) {
    for (uint32_t i = 0; i < DONE_RING; i++) {
        if (rc.done_valid[i] && rc.done[i].wr_id == wr_id) {
            *wc = rc.done[i];
            rc.done_valid[i] = false;
            return true;
        }
    }
    return false;
}

int roce_post_wait(struct roce_wr *wr, uint32_t timeout_ms, int (*stop)(void), struct roce_wc *wc,
                   const char **err) {
    wr->wr_id = ++rc.wr_seq;
    wr->flags |= 1u; /* signaled: the wait needs the completion */
    struct roce_qp *qp = roce_qp_find(wr->qpn);
    if (qp && qp->send_done == 0 && qp->send_errors == 0 && qp->t_first_post == 0)
        qp->t_first_post = tmr_cycles();
    int r = roce_hw_post_send(wr, timeout_ms);
    if (r == -1) {
        *err = "the send queue stayed full";
        return -1;
    }
    if (r == -2) {
        *err = "the transport refused the work request (counted in sq_refused)";
        return -1;
    }
    uint64_t deadline = tmr_cycles() + tmr_ms_to_cycles(timeout_ms);
    for (;;) {
        roce_poll();
        if (take_done(wr->wr_id, wc)) return 0;
        if (tmr_cycles() >= deadline) {
            *err = "no completion within the timeout";
            return -1;
        }
        net_poll();
        if (stop && stop()) {
            *err = "interrupted";
            return -1;
        }
    }
}

/* ---- counters */

/* The counters after the transport's own (roce_hw_counters): the firmware's, and the
   transport's again under the names 'rdma statistic' shows for mlx5 and rxe ports. Each
   line of `stats` is one `line` value; `stats NAME` finds every name here too. */
enum { CNT_REG, CNT_CQ_WAITING, CNT_UNCLAIMED, CNT_QP_ERRORS, CNT_RNR_RETRY_EXC, CNT_RETRY_EXC,
       CNT_REQ_CQE_ERR, CNT_RESP_CQE_ERR };
static const struct {
    const char *group, *name;
    uint8_t line, kind;
    uint32_t reg; /* CNT_REG */
} more_counters[] = {
    {"roce", "cq_waiting", 0, CNT_CQ_WAITING, 0},
    {"roce", "unclaimed_completions", 0, CNT_UNCLAIMED, 0},
    {"roce", "qp_errors", 0, CNT_QP_ERRORS, 0},
    {"roce", "qp_events_lost", 0, CNT_REG, ROCE_QP_EVENTS_LOST},
    {"rdma", "rx_write_requests", 1, CNT_REG, ROCE_RX_WRITE_REQUESTS},
    {"rdma", "rx_read_requests", 1, CNT_REG, ROCE_RX_READ_REQUESTS},
    {"rdma", "rx_atomic_requests", 1, CNT_REG, ROCE_RX_ATOMIC_REQUESTS},
    {"rdma", "rx_send_requests", 1, CNT_REG, ROCE_RX_SEND_REQUESTS},
    {"rdma", "duplicate_request", 2, CNT_REG, ROCE_RESP_DUP},
    {"rdma", "out_of_sequence", 2, CNT_REG, ROCE_RESP_NAK_SEQ},
    {"rdma", "packet_seq_err", 2, CNT_REG, ROCE_COMP_NAK_SEQ},
    {"rdma", "implied_nak_seq_err", 2, CNT_REG, ROCE_COMP_IMPLICIT_NAK},
    {"rdma", "local_ack_timeout_err", 3, CNT_REG, ROCE_REQ_TIMEOUTS},
    {"rdma", "rnr_nak_received", 3, CNT_REG, ROCE_REQ_RNR_WAITS},
    {"rdma", "rnr_nak_retry_err", 3, CNT_RNR_RETRY_EXC, 0},
    {"rdma", "retry_exceeded_err", 3, CNT_RETRY_EXC, 0},
    {"rdma", "req_remote_invalid_request", 4, CNT_REG, ROCE_COMP_NAK_INV},
    {"rdma", "req_remote_access_errors", 4, CNT_REG, ROCE_COMP_NAK_ACC},
    {"rdma", "resp_remote_access_errors", 4, CNT_REG, ROCE_RESP_NAK_ACC},
    {"rdma", "retransmits", 5, CNT_REG, ROCE_REQ_RETRANS},
    {"rdma", "req_cqe_error", 5, CNT_REQ_CQE_ERR, 0},
    {"rdma", "resp_cqe_error", 5, CNT_RESP_CQE_ERR, 0},
};
#define N_MORE (sizeof more_counters / sizeof more_counters[0])

static uint32_t more_value(uint32_t i) {
    switch (more_counters[i].kind) {
    case CNT_CQ_WAITING: return roce_hw_read(ROCE_CQ_STATUS) & 0xffffu;
    case CNT_UNCLAIMED: return rc.unclaimed;
    case CNT_QP_ERRORS: return rc.qp_errors;
    case CNT_RNR_RETRY_EXC: return rc.rnr_retry_exc;
    case CNT_RETRY_EXC: return rc.retry_exc;
    case CNT_REQ_CQE_ERR: return rc.req_cqe_error;
    case CNT_RESP_CQE_ERR: return rc.resp_cqe_error;
    default: return roce_hw_read(more_counters[i].reg);
    }
}

int roce_stats_named(int n, char **names) {
    if (!roce_present()) {
        printf("stats: no RoCE transport (%s)\n", rc.why);
        return -1;
    }
    uint32_t idx[16];
    if (n > 16) {
        printf("stats: at most 16 counter names, got %d\n", n);
        return -1;
    }
    /* idx: below roce_hw_ncounters a transport counter, above it more_counters' */
    for (int k = 0; k < n; k++) {
        uint32_t i = 0;
        while (i < roce_hw_ncounters && strcmp(roce_hw_counters[i].name, names[k]) != 0) i++;
        if (i == roce_hw_ncounters) {
            uint32_t j = 0;
            while (j < N_MORE && strcmp(more_counters[j].name, names[k]) != 0) j++;
            if (j == N_MORE) {
                printf("stats: '%s' is not a transport counter (the 'roce' and 'rdma' lines of 'stats' "
                       "name them all)\n", names[k]);
                return -1;
            }
            i += j;
        }
        idx[k] = i;
    }
    printf("roce   ");
    for (int k = 0; k < n; k++) {
        uint32_t i = idx[k];
        if (i < roce_hw_ncounters)
            printf(" %s %lu", roce_hw_counters[i].name, (unsigned long)roce_hw_read(roce_hw_counters[i].addr));
        else
            printf(" %s %lu", more_counters[i - roce_hw_ncounters].name,
                   (unsigned long)more_value(i - roce_hw_ncounters));
    }
    printf("\n");
    return 0;
}

void roce_stats_print(void) {
    if (!roce_present()) {
        printf("roce    no RoCE transport (%s)\n", rc.why);
        return;
    }
    for (uint32_t i = 0; i < roce_hw_ncounters; i++) {
        if (i % 4u == 0) printf("roce   ");
        printf(" %s %lu", roce_hw_counters[i].name,
               (unsigned long)roce_hw_read(roce_hw_counters[i].addr));
        if (i % 4u == 3u || i + 1u == roce_hw_ncounters) printf("\n");
    }
    for (uint32_t i = 0; i < N_MORE; i++) {
        if (i == 0 || more_counters[i].line != more_counters[i - 1].line) printf("%-7s", more_counters[i].group);
        printf(" %s %lu", more_counters[i].name, (unsigned long)more_value(i));
        if (i + 1 == N_MORE || more_counters[i + 1].line != more_counters[i].line) printf("\n");
        if (more_counters[i].line == 4 && (i + 1 == N_MORE || more_counters[i + 1].line != 4)) {
            uint64_t rxb, txb; /* 64-bit: a line of their own, between the access errors and retransmits */
            roce_hw_bytes(&rxb, &txb);
            printf("rdma    rx_bytes %llu tx_bytes %llu\n", (unsigned long long)rxb, (unsigned long long)txb);
        }
    }
}
