/*
 * RoCE commands: qp, mr, write, read, send, recv, atomic (the transport is
 * fw/roce). Each checks all of its arguments first, then that the transport
 * exists ("no RoCE transport" otherwise), then acts. A work request waits a
 * bounded simulated time for its completion and prints its ibv_wc_status.
 */
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "net.h"
#include "roce/cm.h"
#include "roce/roce.h"
#include "timer.h"

#define QPN_MAX 0xffffffu
#define LEN_MAX 0x80000000u /* messages up to 2^31 bytes (docs/transport.md) */

/* ---- argument helpers */

/* A 64-bit number: decimal or 0x hex, digits only. */
int roce_parse_u64(const char *cmd, const char *what, const char *s, uint64_t *out) {
    uint64_t v = 0;
    const char *p = s;
    int base = 10, digits = 0;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    for (; *p; p++, digits++) {
        int d;
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (base == 16 && *p >= 'a' && *p <= 'f')
            d = *p - 'a' + 10;
        else if (base == 16 && *p >= 'A' && *p <= 'F')
            d = *p - 'A' + 10;
        else
            goto bad;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) {
            printf("%s: %s: %s does not fit in 64 bits\n", cmd, what, s);
            return -1;
        }
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (digits == 0) goto bad;
    *out = v;
    return 0;
bad:
    printf("%s: %s: expected a number (decimal or 0x hex), got '%s'\n", cmd, what, s);
    return -1;
}

static int parse_qpn(const char *cmd, const char *s, uint32_t *qpn) {
    if (con_parse_u32(cmd, "QPN", s, qpn) != 0) return -1;
    if (*qpn < 2 || *qpn > QPN_MAX) {
        printf("%s: QPN: expected 2..0xffffff (0 and 1 are not RC QPs), got %s\n", cmd, s);
        return -1;
    }
    return 0;
}

static int parse_len(const char *cmd, const char *s, uint32_t *len) {
    if (con_parse_u32(cmd, "LEN", s, len) != 0) return -1;
    if (*len > LEN_MAX) {
        printf("%s: LEN: at most 0x80000000 (2^31) bytes, got %s\n", cmd, s);
        return -1;
    }
    return 0;
}

static struct roce_qp *our_qp(const char *cmd, uint32_t qpn) {
    struct roce_qp *qp = roce_qp_find(qpn);
    if (!qp) printf("%s: QP 0x%lx was not created here (see 'qp list')\n", cmd, (unsigned long)qpn);
    return qp;
}

/* Takes a trailing "--pd N" off argv: 0 with *pd set (left as it was without the option),
   -1 after saying what was wrong. */
/* Takes a trailing "OPT X" off argv (the option comes last): 1 if it was there (*v set
   from X, which errors name as LABEL), 0 if not, -1 after saying what was wrong. */
static int take_opt_u32(const char *cmd, int *argc, char **argv, const char *opt, const char *meta,
                        const char *label, uint32_t *v) {
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], opt) != 0) continue;
        if (i + 2 != *argc) {
            printf("%s: %s takes one %s and comes last\n", cmd, opt, meta);
            return -1;
        }
        if (con_parse_u32(cmd, label, argv[i + 1], v) != 0) return -1;
        *argc -= 2;
        return 1;
    }
    return 0;
}

/* Takes the flag OPT off argv wherever it stands after the subcommand: 1 if it was there. */
static int take_flag(int *argc, char **argv, const char *opt) {
    for (int i = 2; i < *argc; i++) {
        if (strcmp(argv[i], opt) != 0) continue;
        for (int j = i; j + 1 < *argc; j++) argv[j] = argv[j + 1];
        (*argc)--;
        return 1;
    }
    return 0;
}

/* A trailing "--pd N": 0 (also when absent, *pd untouched) or -1 after saying what was wrong. */
static int take_pd(const char *cmd, int *argc, char **argv, uint32_t *pd) {
    int r = take_opt_u32(cmd, argc, argv, "--pd", "N", "--pd", pd);
    if (r < 0) return -1;
    if (r > 0 && *pd > ROCE_PD_MAX) {
        printf("%s: --pd: expected a protection domain 0..%u, got %s\n", cmd, ROCE_PD_MAX, argv[*argc + 1]);
        return -1;
    }
    return 0;
}

/* ---- qp */

/* Who made the QP; for the CM's, also where its connection stands. */
static const char *owner_name(const struct roce_qp *q) {
    if (q->owner == ROCE_OWNER_CM) {
        const char *st = cm_qp_state(q->qpn);
        return st ? st : "rdma_cm";
    }
    return q->owner == ROCE_OWNER_QPX ? "exchange" : "console";
}

static void qp_line(const struct roce_qp *q) {
    const struct roce_qp_ctx *c = &q->ctx;
    printf("0x%06lx %-5s 0x%06lx %3lu.%lu.%lu.%lu %5u %4lu 0x%06lx 0x%06lx %3u %s\n",
           (unsigned long)q->qpn, roce_qp_state_now(q), (unsigned long)c->remote_qpn,
           (unsigned long)(c->remote_ip >> 24), (unsigned long)(c->remote_ip >> 16 & 0xffu),
           (unsigned long)(c->remote_ip >> 8 & 0xffu), (unsigned long)(c->remote_ip & 0xffu),
           c->udp_sport, (unsigned long)(128u << c->pmtu), (unsigned long)c->sq_psn,
           (unsigned long)c->rq_psn, c->pd, owner_name(q));
    if (q->in_error) printf("         why: %s\n", roce_qp_err_reason(q->err_resp, q->err_status));
}

static void qp_show(const struct roce_qp *q) {
    const struct roce_qp_ctx *c = &q->ctx;
    printf("qp 0x%06lx: %s, created by the %s\n", (unsigned long)q->qpn, roce_qp_state_now(q),
           owner_name(q));
    if (q->in_error)
        printf("  in ERROR since the transport said so (context written as %s): %s, as %s; "
               "'qp reset' or a new exchange brings it back\n",
               roce_qp_state_name(c->state), roce_qp_err_reason(q->err_resp, q->err_status),
               q->err_resp ? "responder" : "requester");
    printf("  remote QPN 0x%06lx ip %lu.%lu.%lu.%lu mac %02x:%02x:%02x:%02x:%02x:%02x "
           "udp sport %u pmtu %lu\n",
           (unsigned long)c->remote_qpn, (unsigned long)(c->remote_ip >> 24),
           (unsigned long)(c->remote_ip >> 16 & 0xffu), (unsigned long)(c->remote_ip >> 8 & 0xffu),
           (unsigned long)(c->remote_ip & 0xffu), c->remote_mac[0], c->remote_mac[1],
           c->remote_mac[2], c->remote_mac[3], c->remote_mac[4], c->remote_mac[5], c->udp_sport,
           (unsigned long)(128u << c->pmtu));
    printf("  sq_psn 0x%06lx rq_psn 0x%06lx retry_cnt %u rnr_retry %u timeout %u "
           "min_rnr_timer %u max_rd_atomic %u max_dest_rd_atomic %u access 0x%x pd %u\n",
           (unsigned long)c->sq_psn, (unsigned long)c->rq_psn, c->retry_cnt, c->rnr_retry,
           c->timeout, c->min_rnr_timer, c->max_rd_atomic, c->max_dest_rd_atomic, c->access,
           c->pd);
    printf("  send completions %lu (%llu bytes), errors %lu; receives posted %lu, "
           "completed %lu, errors %lu\n",
           (unsigned long)q->send_done, (unsigned long long)q->send_bytes,
           (unsigned long)q->send_errors, (unsigned long)q->recv_posted,
           (unsigned long)q->recv_done, (unsigned long)q->recv_errors);
    if (q->recv_ring)
        printf("  receives: a recycling ring in the transport (its completions are counted in "
               "'stats' gen_recv_done, not here)\n");
    if (q->recv_done || q->recv_errors)
    {
        printf("  last receive: %s, %s, %lu bytes", roce_wc_status_name(q->last_recv.status),
               roce_wc_opcode_name(q->last_recv.opcode), (unsigned long)q->last_recv.byte_len);
        if (q->last_recv.has_imm) printf(", immediate 0x%08lx", (unsigned long)q->last_recv.imm);
        printf("\n");
    }
}

/* COUNT new QPs in RTS with src's context (peer, path, PSNs, timers, PD), the k-th (from 1)
   towards the peer's QPN src + k: many live QPs without an exchange each (tests/fuzz);
   quiet ones do not print their moves to ERROR (counted, `qp list` shows them). */
static int qp_clone(const struct roce_qp *src, uint32_t count, bool quiet) {
    if (src->ctx.state != ROCE_QPS_RTS) {
        printf("qp clone: QP 0x%lx is in %s, not RTS\n", (unsigned long)src->qpn,
               roce_qp_state_now(src));
        return CON_ERR;
    }
    printf("qp clone:");
    for (uint32_t k = 1; k <= count; k++) {
        const char *err;
        struct roce_qp *q = roce_qp_create(ROCE_OWNER_CONSOLE, src->ctx.pd, &err);
        if (!q) {
            printf("\nqp clone: %s (%lu made)\n", err, (unsigned long)(k - 1));
            return CON_ERR;
        }
        q->quiet = quiet;
        struct roce_qp_ctx c = src->ctx;
        c.remote_qpn = (src->ctx.remote_qpn + k) & 0xffffffu;
        c.state = ROCE_QPS_RTR;
        roce_qp_modify(q, &c);
        c.state = ROCE_QPS_RTS;
        roce_qp_modify(q, &c);
        printf(" 0x%lx", (unsigned long)q->qpn);
    }
    printf(" in RTS (peer QPNs 0x%lx + 1..%lu)\n", (unsigned long)src->ctx.remote_qpn,
           (unsigned long)count);
    return CON_OK;
}

/* Back from ERROR: RESET, then RTR and RTS again with its context, whose PSNs are those it
   was first given (docs/transport.md "QP errors": ERROR is left through RESET). */
static bool rearm_one(struct roce_qp *q) {
    if (!q->used || q->owner != ROCE_OWNER_CONSOLE || q->ctx.state != ROCE_QPS_RTS) return false;
    if (!q->in_error && !roce_hw_qp_error(q->qpn)) return false;
    struct roce_qp_ctx c = q->ctx;
    roce_qp_reset(q);
    c.state = ROCE_QPS_RTR;
    roce_qp_modify(q, &c);
    c.state = ROCE_QPS_RTS;
    roce_qp_modify(q, &c);
    printf(" 0x%lx", (unsigned long)q->qpn);
    return true;
}

/* The QPs named (all when none is) that were made on the console, were in RTS and are in
   ERROR (the transport's qp_hw_state.error, or its event taken) back to RTS; prints those. */
static int qp_rearm(int argc, char **argv) {
    uint32_t qpns[CON_ARGS_MAX], n = 0;
    for (int i = 2; i < argc; i++)
        if (parse_qpn("qp rearm", argv[i], &qpns[i - 2]) != 0) return CON_ERR;
    roce_poll(); /* take the QP events first: none may reach a QP after its RESET */
    printf("qp rearm:");
    if (argc > 2) {
        for (int i = 0; i < argc - 2; i++) {
            struct roce_qp *q = roce_qp_find(qpns[i]);
            if (q && rearm_one(q)) n++;
        }
    } else {
        for (uint32_t i = 0; roce_qp_slot(i); i++)
            if (rearm_one(roce_qp_slot(i))) n++;
    }
    printf(" (%lu QPs from ERROR back to RTS)\n", (unsigned long)n);
    return CON_OK;
}

static int cmd_qp(int argc, char **argv) {
    uint32_t qpn = 0, pd = 0, count = 0;
    bool quiet = false;
    const char *sub = argc >= 2 ? argv[1] : "";
    bool one = strcmp(sub, "show") == 0 || strcmp(sub, "reset") == 0 ||
               strcmp(sub, "destroy") == 0;

    if (argc < 2) {
        printf("qp: expected create [--pd N], list, show N, reset N, destroy N, clone N COUNT or "
               "rearm [N ...]\n");
        return CON_ERR;
    }
    if (strcmp(sub, "create") == 0 && take_pd("qp create", &argc, argv, &pd) != 0) return CON_ERR;
    if (strcmp(sub, "rearm") == 0) {
        if (roce_need("qp") != 0) return CON_ERR;
        return qp_rearm(argc, argv);
    }
    if (strcmp(sub, "create") == 0 || strcmp(sub, "list") == 0) {
        if (argc != 2) {
            printf("qp %s: takes no arguments\n", sub);
            return CON_ERR;
        }
    } else if (one) {
        if (argc != 3) {
            printf("qp %s: expected a QPN\n", sub);
            return CON_ERR;
        }
        if (parse_qpn("qp", argv[2], &qpn) != 0) return CON_ERR;
    } else if (strcmp(sub, "clone") == 0) {
        quiet = take_flag(&argc, argv, "--quiet");
        if (argc != 4) {
            printf("qp clone: expected a QPN and a COUNT [--quiet]\n");
            return CON_ERR;
        }
        if (parse_qpn("qp", argv[2], &qpn) != 0) return CON_ERR;
        if (con_parse_u32("qp clone", "COUNT", argv[3], &count) != 0) return CON_ERR;
        if (count < 1 || count > ROCE_MAX_QPS) {
            printf("qp clone: COUNT: expected 1..%u, got %s\n", ROCE_MAX_QPS, argv[3]);
            return CON_ERR;
        }
    } else {
        printf("qp: unknown subcommand '%s' (create, list, show, reset, destroy, clone, rearm)\n", sub);
        return CON_ERR;
    }
    if (roce_need("qp") != 0) return CON_ERR;

    if (strcmp(sub, "create") == 0) {
        const char *err;
        struct roce_qp *q = roce_qp_create(ROCE_OWNER_CONSOLE, pd, &err);
        if (!q) {
            printf("qp: %s\n", err);
            return CON_ERR;
        }
        printf("qp 0x%06lx created (INIT, PD %lu)\n", (unsigned long)q->qpn, (unsigned long)pd);
        return CON_OK;
    }
    if (strcmp(sub, "list") == 0) {
        int shown = 0;
        roce_poll(); /* QP events not yet taken */
        for (uint32_t i = 0; roce_qp_slot(i); i++) {
            const struct roce_qp *q = roce_qp_slot(i);
            if (!q->used) continue;
            if (shown++ == 0)
                printf("qpn      state remote   remote_ip       sport pmtu sq_psn   rq_psn    pd by\n");
            qp_line(q);
        }
        if (!shown) printf("qp: no QPs (qp create, listen or connect make one)\n");
        return CON_OK;
    }
    struct roce_qp *q = our_qp("qp", qpn);
    if (!q) return CON_ERR;
    if (strcmp(sub, "clone") == 0) return qp_clone(q, count, quiet);
    if (strcmp(sub, "show") == 0) {
        roce_poll();
        qp_show(q);
    } else if (strcmp(sub, "reset") == 0) {
        roce_qp_reset(q);
        printf("qp 0x%06lx back to RESET\n", (unsigned long)qpn);
    } else {
        roce_qp_destroy(q);
        printf("qp 0x%06lx reset and freed\n", (unsigned long)qpn);
    }
    return CON_OK;
}

static void qp_help_more(void) {
    printf("  create: a new QP in INIT (QPNs from 0x11 up, as rxe) in protection domain N (default 0;\n");
    printf("  it uses only MRs of its PD); list: the QPs made here;\n");
    printf("  show N: context and completion counts; reset N: back to RESET (the transport\n");
    printf("  clears its state, the QP stays ours); destroy N: reset and free it.\n");
    printf("  clone N COUNT [--quiet]: COUNT new QPs in RTS with N's context (N in RTS),\n");
    printf("  towards the peer's QPNs N's + 1..COUNT (--quiet: their moves to ERROR counted\n");
    printf("  and shown by qp list/show, not printed one by one); rearm [N ...]: the QPs\n");
    printf("  named (all without one) made here in RTS and now in ERROR back to RTS (RESET,\n");
    printf("  RTR, RTS with their context and first PSNs). Both print the QPNs.\n");
    printf("  listen and connect create and program QPs through the exchange, each session in\n");
    printf("  a protection domain of its own (the lowest no other session holds: 1 when alone).\n");
}
CON_COMMAND_MORE(qp,
                 "create [--pd N]|list|show N|reset N|destroy N|clone N COUNT [--quiet]|rearm [N ...]",
                 "RC queue pairs of the transport", cmd_qp, qp_help_more);

/* ---- mr */

static int cmd_mr(int argc, char **argv) {
    const char *sub = argc >= 2 ? argv[1] : "";
    uint64_t addr = 0, len = 0;
    uint32_t access = ROCE_MR_ACCESS_ALL, key = 0, pd = 0;

    if (argc < 2) {
        printf("mr: expected reg ADDR LEN [ACCESS] [--stream] [--pd N], list or dereg KEY\n");
        return CON_ERR;
    }
    if (strcmp(sub, "reg") == 0) {
        int stream = take_flag(&argc, argv, "--stream");
        if (take_pd("mr reg", &argc, argv, &pd) != 0) return CON_ERR;
        if (argc < 4 || argc > 5) {
            printf("mr reg: expected ADDR LEN [ACCESS] [--stream] [--pd N]\n");
            return CON_ERR;
        }
        if (roce_parse_u64("mr", "ADDR", argv[2], &addr) != 0) return CON_ERR;
        if (roce_parse_u64("mr", "LEN", argv[3], &len) != 0) return CON_ERR;
        if (len == 0) {
            printf("mr: LEN: a region has at least one byte\n");
            return CON_ERR;
        }
        if (addr + len < addr) {
            printf("mr: ADDR + LEN wraps around 2^64\n");
            return CON_ERR;
        }
        if (argc == 5) {
            if (con_parse_u32("mr", "ACCESS", argv[4], &access) != 0) return CON_ERR;
            if (access > ROCE_MR_ACCESS_ALL) {
                printf("mr: ACCESS: expected 0..0xf (bit 0 local write, 1 remote write, "
                       "2 remote read, 3 remote atomic), got %s\n",
                       argv[4]);
                return CON_ERR;
            }
        }
        if (stream) access |= ROCE_ACC_STREAM;
    } else if (strcmp(sub, "list") == 0) {
        if (argc != 2) {
            printf("mr list: takes no arguments\n");
            return CON_ERR;
        }
    } else if (strcmp(sub, "dereg") == 0) {
        if (argc != 3) {
            printf("mr dereg: expected KEY\n");
            return CON_ERR;
        }
        if (con_parse_u32("mr", "KEY", argv[2], &key) != 0) return CON_ERR;
    } else {
        printf("mr: unknown subcommand '%s' (reg, list, dereg)\n", sub);
        return CON_ERR;
    }
    if (roce_need("mr") != 0) return CON_ERR;

    if (strcmp(sub, "reg") == 0) {
        const char *err;
        struct roce_mr *m = roce_mr_reg(addr, len, access, pd, &err);
        if (!m) {
            printf("mr: %s\n", err);
            return CON_ERR;
        }
        printf("mr key 0x%08lx: 0x%llx + 0x%llx access 0x%lx pd %lu%s\n", (unsigned long)m->key,
               (unsigned long long)m->base, (unsigned long long)m->len,
               (unsigned long)(m->access & ROCE_MR_ACCESS_ALL), (unsigned long)m->pd,
               (m->access & ROCE_ACC_STREAM) ? " stream" : "");
    } else if (strcmp(sub, "list") == 0) {
        int shown = 0;
        for (uint32_t i = 0; roce_mr_slot(i); i++) {
            const struct roce_mr *m = roce_mr_slot(i);
            if (!m->used) continue;
            if (shown++ == 0)
                printf("key        base               length             access  pd\n");
            printf("0x%08lx 0x%016llx 0x%016llx 0x%lx    %3lu%s\n", (unsigned long)m->key,
                   (unsigned long long)m->base, (unsigned long long)m->len,
                   (unsigned long)(m->access & ROCE_MR_ACCESS_ALL), (unsigned long)m->pd,
                   (m->access & ROCE_ACC_STREAM) ? " stream" : "");
        }
        if (!shown) printf("mr: no memory regions\n");
    } else {
        struct roce_mr *m = roce_mr_find(key);
        if (!m) {
            printf("mr: no region with key 0x%08lx (see 'mr list')\n", (unsigned long)key);
            return CON_ERR;
        }
        roce_mr_dereg(m);
        printf("mr key 0x%08lx deregistered\n", (unsigned long)key);
    }
    return CON_OK;
}

static void mr_help_more(void) {
    printf("  ADDR, LEN: on-board memory bytes (64-bit); ACCESS bits (default 0xf): 0 local\n");
    printf("  write, 1 remote write, 2 remote read, 3 remote atomic. lkey = rkey = KEY.\n");
    printf("  --pd N: the protection domain 0..255 (default 0): only QPs of that PD may use the\n");
    printf("  key (a request of another PD's QP: remote access NAK, or IBV_WC_LOC_PROT_ERR locally).\n");
    printf("  --stream: a streaming MR: WRITE / SEND payloads to it go to user logic's receive\n");
    printf("  stream, READs of it and WRITEs from it take their data from user logic, not memory\n");
    printf("  (docs/user-logic.md); no atomics on it, no READ / atomic result into it.\n");
}
CON_COMMAND_MORE(mr, "reg ADDR LEN [ACCESS] [--stream] [--pd N]|list|dereg KEY", "memory regions of the transport",
                 cmd_mr, mr_help_more);

/* ---- work requests */

/* Post, wait, print "CMD: STATUS, N bytes, T us"; CON_OK only on IBV_WC_SUCCESS. */
static int run_wr(const char *cmd, struct roce_wr *wr) {
    struct roce_qp *qp = our_qp(cmd, wr->qpn);
    if (!qp) return CON_ERR;
    if (qp->ctx.state != ROCE_QPS_RTS) {
        printf("%s: QP 0x%lx is in %s, not RTS (listen or connect programs it)\n", cmd,
               (unsigned long)wr->qpn, roce_qp_state_name(qp->ctx.state));
        return CON_ERR;
    }
    struct roce_wc wc;
    const char *err;
    uint64_t t0 = tmr_cycles();
    if (roce_post_wait(wr, ROCE_WAIT_MS, con_interrupted, &wc, &err) != 0) {
        printf("%s: %s (waited at most %u ms)\n", cmd, err, ROCE_WAIT_MS);
        return CON_ERR;
    }
    uint32_t us = (uint32_t)((tmr_cycles() - t0) * 1000000u / tmr_clk_hz());
    printf("%s: %s, %lu bytes, %lu us\n", cmd, roce_wc_status_name(wc.status),
           (unsigned long)wc.byte_len, (unsigned long)us);
    return wc.status == 0 ? CON_OK : CON_ERR;
}

/* The lkey of our MR of QP qpn's protection domain covering [addr, addr+len) with access; 0 for
   an empty message. */
static int find_lkey(const char *cmd, uint32_t qpn, uint64_t addr, uint32_t len, uint32_t access,
                     uint32_t *lkey) {
    const struct roce_qp *qp = roce_qp_find(qpn);
    uint32_t pd = qp ? qp->ctx.pd : 0u; /* a QP not ours: run_wr says so */
    struct roce_mr *m = roce_mr_covering(addr, len ? len : 1u, access, pd);
    if (m) {
        *lkey = m->key;
        return 0;
    }
    if (len == 0) {
        *lkey = 0;
        return 0;
    }
    printf("%s: no memory region of PD %lu covers 0x%llx + 0x%lx%s (see 'mr list')\n", cmd,
           (unsigned long)pd, (unsigned long long)addr, (unsigned long)len,
           access ? " with local write" : "");
    return -1;
}

/* write|read QPN LADDR RADDR RKEY LEN */
static int cmd_rdma(int argc, char **argv, uint8_t opcode) {
    const char *cmd = argv[0];
    struct roce_wr wr;
    memset(&wr, 0, sizeof wr);
    int with_imm = opcode == ROCE_WR_WRITE
                       ? take_opt_u32(cmd, &argc, argv, "--imm", "VALUE", "VALUE", &wr.imm)
                       : 0;
    if (with_imm < 0) return CON_ERR;
    if (argc != 6) {
        printf("%s: expected QPN LADDR RADDR RKEY LEN%s\n", cmd,
               opcode == ROCE_WR_WRITE ? " [--imm VALUE]" : "");
        return CON_ERR;
    }
    if (parse_qpn(cmd, argv[1], &wr.qpn) != 0 ||
        roce_parse_u64(cmd, "LADDR", argv[2], &wr.laddr) != 0 ||
        roce_parse_u64(cmd, "RADDR", argv[3], &wr.raddr) != 0 ||
        con_parse_u32(cmd, "RKEY", argv[4], &wr.rkey) != 0 || parse_len(cmd, argv[5], &wr.len) != 0)
        return CON_ERR;
    if (wr.laddr + wr.len < wr.laddr || wr.raddr + wr.len < wr.raddr) {
        printf("%s: the buffer wraps around 2^64\n", cmd);
        return CON_ERR;
    }
    if (roce_need(cmd) != 0) return CON_ERR;
    wr.opcode = with_imm ? ROCE_WR_WRITE_IMM : opcode;
    uint32_t acc = opcode == ROCE_WR_READ ? ROCE_ACC_LOCAL_WRITE : 0;
    if (find_lkey(cmd, wr.qpn, wr.laddr, wr.len, acc, &wr.lkey) != 0) return CON_ERR;
    return run_wr(cmd, &wr);
}

static int cmd_write(int argc, char **argv) {
    return cmd_rdma(argc, argv, ROCE_WR_WRITE);
}
CON_COMMAND(write, "QPN LADDR RADDR RKEY LEN [--imm VALUE]",
            "RDMA WRITE: local LADDR to the peer's RADDR (with an immediate: the peer's next "
            "receive WQE completes with it)",
            cmd_write);

static int cmd_read(int argc, char **argv) {
    return cmd_rdma(argc, argv, ROCE_WR_READ);
}
CON_COMMAND(read, "QPN LADDR RADDR RKEY LEN", "RDMA READ: the peer's RADDR into local LADDR",
            cmd_read);

/* send|recv QPN LADDR LEN */
static int cmd_send(int argc, char **argv) {
    struct roce_wr wr;
    memset(&wr, 0, sizeof wr);
    int with_imm = take_opt_u32("send", &argc, argv, "--imm", "VALUE", "VALUE", &wr.imm);
    if (with_imm < 0) return CON_ERR;
    if (argc != 4) {
        printf("send: expected QPN LADDR LEN [--imm VALUE]\n");
        return CON_ERR;
    }
    if (parse_qpn("send", argv[1], &wr.qpn) != 0 ||
        roce_parse_u64("send", "LADDR", argv[2], &wr.laddr) != 0 ||
        parse_len("send", argv[3], &wr.len) != 0)
        return CON_ERR;
    if (wr.laddr + wr.len < wr.laddr) {
        printf("send: the buffer wraps around 2^64\n");
        return CON_ERR;
    }
    if (roce_need("send") != 0) return CON_ERR;
    wr.opcode = with_imm ? ROCE_WR_SEND_IMM : ROCE_WR_SEND;
    if (find_lkey("send", wr.qpn, wr.laddr, wr.len, 0, &wr.lkey) != 0) return CON_ERR;
    return run_wr("send", &wr);
}
CON_COMMAND(send, "QPN LADDR LEN [--imm VALUE]",
            "SEND LADDR to the peer's next receive WQE (with a 32-bit immediate)", cmd_send);

static int cmd_recv(int argc, char **argv) {
    uint32_t qpn, len;
    uint64_t addr;
    if (argc != 4) {
        printf("recv: expected QPN LADDR LEN\n");
        return CON_ERR;
    }
    if (parse_qpn("recv", argv[1], &qpn) != 0 ||
        roce_parse_u64("recv", "LADDR", argv[2], &addr) != 0 || parse_len("recv", argv[3], &len) != 0)
        return CON_ERR;
    if (addr + len < addr) {
        printf("recv: the buffer wraps around 2^64\n");
        return CON_ERR;
    }
    if (roce_need("recv") != 0) return CON_ERR;
    struct roce_qp *qp = our_qp("recv", qpn);
    if (!qp) return CON_ERR;
    uint32_t lkey;
    if (find_lkey("recv", qpn, addr, len, ROCE_ACC_LOCAL_WRITE, &lkey) != 0) return CON_ERR;
    const char *err;
    if (roce_post_recv(qp, addr, len, lkey, &err) != 0) {
        printf("recv: %s\n", err);
        return CON_ERR;
    }
    printf("recv: posted on QP 0x%lx (%lu posted so far; 'qp show' counts completions)\n",
           (unsigned long)qpn, (unsigned long)qp->recv_posted);
    return CON_OK;
}
CON_COMMAND(recv, "QPN LADDR LEN", "post a receive WQE (a SEND from the peer lands there)",
            cmd_recv);

/* atomic cas QPN LADDR RADDR RKEY COMPARE SWAP | atomic fadd QPN LADDR RADDR RKEY ADD */
static int cmd_atomic(int argc, char **argv) {
    struct roce_wr wr;
    memset(&wr, 0, sizeof wr);
    const char *sub = argc >= 2 ? argv[1] : "";
    bool cas = strcmp(sub, "cas") == 0;
    if (!cas && strcmp(sub, "fadd") != 0) {
        printf("atomic: expected cas QPN LADDR RADDR RKEY COMPARE SWAP or fadd QPN LADDR RADDR "
               "RKEY ADD\n");
        return CON_ERR;
    }
    if (argc != (cas ? 8 : 7)) {
        printf("atomic %s: expected QPN LADDR RADDR RKEY %s\n", sub, cas ? "COMPARE SWAP" : "ADD");
        return CON_ERR;
    }
    if (parse_qpn("atomic", argv[2], &wr.qpn) != 0 ||
        roce_parse_u64("atomic", "LADDR", argv[3], &wr.laddr) != 0 ||
        roce_parse_u64("atomic", "RADDR", argv[4], &wr.raddr) != 0 ||
        con_parse_u32("atomic", "RKEY", argv[5], &wr.rkey) != 0)
        return CON_ERR;
    if (cas) {
        if (roce_parse_u64("atomic", "COMPARE", argv[6], &wr.compare) != 0 ||
            roce_parse_u64("atomic", "SWAP", argv[7], &wr.swap_add) != 0)
            return CON_ERR;
    } else if (roce_parse_u64("atomic", "ADD", argv[6], &wr.swap_add) != 0) {
        return CON_ERR;
    }
    if ((wr.raddr & 7u) || (wr.laddr & 7u)) {
        printf("atomic: LADDR and RADDR must be 8-byte aligned\n");
        return CON_ERR;
    }
    if (wr.laddr + 8u < wr.laddr || wr.raddr + 8u < wr.raddr) {
        printf("atomic: the 8 bytes wrap around 2^64\n");
        return CON_ERR;
    }
    if (roce_need("atomic") != 0) return CON_ERR;
    wr.opcode = cas ? ROCE_WR_CMP_SWAP : ROCE_WR_FETCH_ADD;
    wr.len = 8;
    if (find_lkey("atomic", wr.qpn, wr.laddr, 8, ROCE_ACC_LOCAL_WRITE, &wr.lkey) != 0) return CON_ERR;
    int r = run_wr("atomic", &wr);
    if (r == CON_OK) printf("atomic: the original 8 bytes are at LADDR 0x%llx\n",
                            (unsigned long long)wr.laddr);
    return r;
}
CON_COMMAND(atomic, "cas|fadd QPN LADDR RADDR RKEY ARGS",
            "8-byte COMPARE SWAP (ARGS: COMPARE SWAP) or FETCH ADD (ARGS: ADD) at RADDR", cmd_atomic);

/* ---- port: what 'ibv_devinfo -v' shows of a port */

static int cmd_port(int argc, char **argv) {
    (void)argv;
    if (argc != 1) {
        printf("port: takes no arguments\n");
        return CON_ERR;
    }
    if (roce_need("port") != 0) return CON_ERR;
    const struct roce_caps *k = roce_hw_caps();
    struct netif *n = net_netif();
    bool up = n && netif_is_link_up(n) && netif_is_up(n);
    printf("port 1: state %s, link_layer Ethernet, transport RoCE v2 (UDP 4791), RC only\n",
           up ? "PORT_ACTIVE (4)" : "PORT_DOWN (1)");
    printf("  max_mtu 4096 (5), active_mtu 4096 (5): frames up to 9018 bytes; a QP's path MTU is\n");
    printf("  set by listen/connect (--mtu)\n");
    if (n) {
        const uint8_t *m = n->hwaddr;
        uint32_t ip = lwip_ntohl(ip4_addr_get_u32(netif_ip4_addr(n)));
        printf("  MAC %02x:%02x:%02x:%02x:%02x:%02x\n", m[0], m[1], m[2], m[3], m[4], m[5]);
        printf("  GID[0] ::ffff:%u.%u.%u.%u, RoCE v2 (the IPv4 GID; no IPv6 GIDs)\n",
               (unsigned)(ip >> 24), (unsigned)(ip >> 16 & 0xffu), (unsigned)(ip >> 8 & 0xffu),
               (unsigned)(ip & 0xffu));
    } else {
        printf("  no management port: no MAC or GID (%s)\n", net_absent_reason());
    }
    printf("  max_qp %lu (QPNs 2..%lu; the firmware tracks %u at once), max_qp_wr %lu send, %lu "
           "receive\n",
           (unsigned long)k->nqp, (unsigned long)k->nqp - 1u, ROCE_MAX_QPS,
           (unsigned long)k->sq_depth, (unsigned long)k->rq_depth);
    printf("  max_mr %lu (the firmware tracks %u), max_sge 1, max_qp_rd_atom %lu, "
           "max_qp_init_rd_atom %lu\n",
           (unsigned long)k->nmr, ROCE_MAX_MRS, (unsigned long)k->max_rd_atomic,
           (unsigned long)k->max_rd_atomic);
    printf("  atomic_cap ATOMIC_HCA (8-byte COMPARE SWAP, FETCH ADD)\n");
    return CON_OK;
}
CON_COMMAND(port, "", "the RoCE port as 'ibv_devinfo -v' shows it: state, MTU, MAC, GID, limits",
            cmd_port);
