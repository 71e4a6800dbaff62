/*
 * bench: perftest-style runs on connected QPs (by default the one the
 * exchange programmed), over the exchange's test buffer on both NICs, driven
 * by the transport's work-request generator (rtl/roce/roce_wrgen.sv,
 * docs/transport.md): the firmware programs a run and the generator posts the
 * work requests and counts completions and cycles in the datapath, so the
 * figures are not limited by the soft core.
 *
 *   bench write|read|send SIZE ITERS [QPN] [OPTIONS]      throughput
 *   bench lat write|read|send SIZE ITERS [QPN] [OPTIONS]  latency
 *
 * Throughput keeps up to --depth work requests outstanding (at most the SQ
 * depth per QP; every one signaled): BW average over the whole run (first post
 * to last completion), BW peak over the best window of BENCH_WINDOW
 * consecutive messages (post of the first to completion of the last; the
 * whole run when that is better), in generator cycles at the core clock.
 * Latency posts one work request at a time: post to completion as the
 * generator sees it (a full round trip, where perftest's *_lat report half of
 * a ping-pong). --qps N spreads the run round robin over N consecutive
 * connected QPs. Every run is bounded (the generator's own timeout: no
 * progress for --timeout ms) and Ctrl-C stops it.
 */
#include <stdio.h>
#include <string.h>

#include <solonic_regs.h>

#include "console.h"
#include "net.h"
#include "roce/qpx.h"
#include "roce/roce.h"
#include "timer.h"

#define BENCH_SIZE_MAX QPX_BUF_BYTES /* the exchange's test buffer */
#define BENCH_ITERS_MAX 100000u
#define BENCH_WAIT_MS 20u          /* default: no progress for this long ends a run, simulated */
#define BENCH_WAIT_MS_MAX 10000u
#define BENCH_WINDOW 64u           /* work requests per window of BW peak */
#define BENCH_NET_CYCLES 2500u     /* a run serves the network stack this often */
#define BENCH_DEPTH_MAX ROCE_GEN_OUT_MAX
#define QPN_MAX 0xffffffu

enum bench_op { BOP_WRITE, BOP_READ, BOP_SEND };

struct bench_cfg {
    bool lat;
    uint8_t op; /* enum bench_op */
    uint32_t size, iters, wait_ms;
    uint32_t depth; /* work requests outstanding at most, over all QPs */
    uint32_t nqp;   /* --qps */
    uint32_t session;   /* --session: whose QP when no QPN is given (0: the newest session's) */
    struct roce_qp *qp; /* the first QP */
    struct roce_gen_cfg g;
};

/* What a run measured. */
struct bench_res {
    struct roce_gen_res g;
    uint64_t span;    /* first post to last completion, cycles */
    uint64_t win_min; /* throughput: fewest cycles for win_n messages */
    uint32_t win_n;
    bool intr, stalled;
};

static const char *const op_name[] = {"write", "read", "send"};
static const char *const op_title[] = {"RDMA WRITE", "RDMA READ", "SEND"};
static const uint8_t op_wr[] = {ROCE_WR_WRITE, ROCE_WR_READ, ROCE_WR_SEND};

static uint64_t last_net;

static void usage(void) {
    printf("bench: expected [lat] write|read|send SIZE ITERS [QPN] [--rkey KEY] [--depth N] "
           "[--qps N] [--timeout MS] (see 'help bench')\n");
}

/* ---- arguments */

static int parse(int argc, char **argv, struct bench_cfg *c, bool *rkey_given, uint32_t *rkey,
                 uint32_t *qpn) {
    int i = 1;
    memset(c, 0, sizeof *c);
    c->wait_ms = BENCH_WAIT_MS;
    c->nqp = 1;
    *rkey_given = false;
    *qpn = 0;
    if (i < argc && strcmp(argv[i], "lat") == 0) {
        c->lat = true;
        i++;
    }
    if (i >= argc) {
        usage();
        return -1;
    }
    uint32_t op;
    for (op = 0; op < 3; op++)
        if (strcmp(argv[i], op_name[op]) == 0) break;
    if (op == 3) {
        printf("bench: expected write, read or send%s, got '%s'\n", c->lat ? "" : " (or lat)",
               argv[i]);
        return -1;
    }
    c->op = (uint8_t)op;
    i++;
    if (argc - i < 2 || strncmp(argv[i], "--", 2) == 0 || strncmp(argv[i + 1], "--", 2) == 0) {
        printf("bench %s%s: expected SIZE ITERS\n", c->lat ? "lat " : "", op_name[op]);
        return -1;
    }
    if (con_parse_u32("bench", "SIZE", argv[i], &c->size) != 0) return -1;
    if (c->size < 1 || c->size > BENCH_SIZE_MAX) {
        printf("bench: SIZE: expected 1..%lu bytes (the exchange's test buffer), got %s\n",
               (unsigned long)BENCH_SIZE_MAX, argv[i]);
        return -1;
    }
    i++;
    if (con_parse_u32("bench", "ITERS", argv[i], &c->iters) != 0) return -1;
    if (c->iters < 1 || c->iters > BENCH_ITERS_MAX) {
        printf("bench: ITERS: expected 1..%lu, got %s\n", (unsigned long)BENCH_ITERS_MAX, argv[i]);
        return -1;
    }
    i++;
    bool qpn_given = false;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0) {
            if (qpn_given) {
                printf("bench: unexpected argument '%s' (see 'help bench')\n", a);
                return -1;
            }
            if (con_parse_u32("bench", "QPN", a, qpn) != 0) return -1;
            if (*qpn < 2 || *qpn > QPN_MAX) {
                printf("bench: QPN: expected 2..0xffffff (0 and 1 are not RC QPs), got %s\n", a);
                return -1;
            }
            qpn_given = true;
            continue;
        }
        bool rk = strcmp(a, "--rkey") == 0, to = strcmp(a, "--timeout") == 0,
             dp = strcmp(a, "--depth") == 0, nq = strcmp(a, "--qps") == 0,
             se = strcmp(a, "--session") == 0;
        if (!rk && !to && !dp && !nq && !se) {
            printf("bench: unknown option '%s' (see 'help bench')\n", a);
            return -1;
        }
        if (i + 1 >= argc) {
            printf("bench: %s needs a value\n", a);
            return -1;
        }
        i++;
        if (rk) {
            if (con_parse_u32("bench", "--rkey", argv[i], rkey) != 0) return -1;
            *rkey_given = true;
        } else if (dp) {
            if (con_parse_u32("bench", "--depth", argv[i], &c->depth) != 0) return -1;
            if (c->depth < 1 || c->depth > BENCH_DEPTH_MAX) {
                printf("bench: --depth: expected 1..%u (at most the SQ depth per QP), got %s\n",
                       (unsigned)BENCH_DEPTH_MAX, argv[i]);
                return -1;
            }
            if (c->lat && c->depth != 1) {
                printf("bench: --depth: a latency run has one work request outstanding\n");
                return -1;
            }
        } else if (se) {
            if (con_parse_u32("bench", "--session", argv[i], &c->session) != 0) return -1;
            if (c->session < 1 || c->session > QPX_SESSIONS) {
                printf("bench: --session: expected 1..%u (see 'qpx'), got %s\n", QPX_SESSIONS,
                       argv[i]);
                return -1;
            }
        } else if (nq) {
            if (con_parse_u32("bench", "--qps", argv[i], &c->nqp) != 0) return -1;
            if (c->nqp < 1 || c->nqp > ROCE_GEN_QPS_MAX) {
                printf("bench: --qps: expected 1..%u, got %s\n", (unsigned)ROCE_GEN_QPS_MAX, argv[i]);
                return -1;
            }
        } else {
            if (con_parse_u32("bench", "--timeout", argv[i], &c->wait_ms) != 0) return -1;
            if (c->wait_ms < 1 || c->wait_ms > BENCH_WAIT_MS_MAX) {
                printf("bench: --timeout: expected 1..%lu ms, got %s\n",
                       (unsigned long)BENCH_WAIT_MS_MAX, argv[i]);
                return -1;
            }
        }
    }
    return 0;
}

/* The QPs, the buffers and the keys; prints why and -1 when the run cannot start. */
static int setup(struct bench_cfg *c, uint32_t qpn, bool rkey_given, uint32_t rkey) {
    if (qpn) {
        c->qp = roce_qp_find(qpn);
        if (!c->qp) {
            printf("bench: QP 0x%lx was not created here (see 'qp list')\n", (unsigned long)qpn);
            return -1;
        }
    } else {
        c->qp = qpx_qp(c->session);
        if (!c->qp) {
            if (c->session)
                printf("bench: session %lu has no connected QP (see 'qpx')\n",
                       (unsigned long)c->session);
            else
                printf("bench: no connected QP (run listen or connect first, or give a QPN)\n");
            return -1;
        }
    }
    if (c->qp->ctx.state != ROCE_QPS_RTS) {
        printf("bench: QP 0x%lx is in %s, not RTS (listen or connect programs it)\n",
               (unsigned long)c->qp->qpn, roce_qp_state_name(c->qp->ctx.state));
        return -1;
    }
    /* --qps N: the QPs after the first, each connected (RTS) to the same peer */
    for (uint32_t k = 1; k < c->nqp; k++) {
        uint32_t q = c->qp->qpn + k;
        struct roce_qp *x = q <= QPN_MAX ? roce_qp_find(q) : NULL;
        if (!x || x->ctx.state != ROCE_QPS_RTS || x->ctx.remote_ip != c->qp->ctx.remote_ip) {
            printf("bench: --qps %lu: QP 0x%lx is not %s; only %lu consecutive connected QP%s from "
                   "0x%lx (listen/connect --qps N connect N)\n",
                   (unsigned long)c->nqp, (unsigned long)q,
                   !x ? "created here" : x->ctx.state != ROCE_QPS_RTS ? "in RTS" : "connected to the same peer",
                   (unsigned long)k, k == 1 ? "" : "s", (unsigned long)c->qp->qpn);
            return -1;
        }
    }
    uint32_t acc = c->op == BOP_READ ? ROCE_ACC_LOCAL_WRITE : 0;
    uint64_t base = qpx_qp_buffer(c->qp->qpn); /* its session's test buffer */
    struct roce_mr *mr = roce_mr_covering(base, c->size, acc, c->qp->ctx.pd);
    if (!mr) {
        printf("bench: no memory region covers the test buffer 0x%lx + 0x%lx%s (listen or connect "
               "registers it)\n",
               (unsigned long)base, (unsigned long)c->size, acc ? " with local write" : "");
        return -1;
    }
    uint32_t sq = roce_hw_caps()->sq_depth;
    uint32_t all = sq * c->nqp > BENCH_DEPTH_MAX ? BENCH_DEPTH_MAX : sq * c->nqp;
    if (c->lat) c->depth = 1;
    if (c->depth == 0 || c->depth > all) c->depth = all;
    struct roce_gen_cfg *g = &c->g;
    memset(g, 0, sizeof *g);
    g->opcode = op_wr[c->op];
    g->lat = c->lat;
    g->qpn = c->qp->qpn;
    g->nqp = c->nqp;
    g->stride = 1;
    g->laddr = base;
    g->lkey = mr->key;
    g->len = c->size;
    g->raddr = base;
    g->total = c->iters;
    g->max_out = c->depth;
    g->max_out_qp = c->depth < sq ? c->depth : sq;
    g->sig_every = 1; /* every completion counted */
    g->window = c->iters < BENCH_WINDOW ? c->iters : BENCH_WINDOW;
    g->timeout = (uint32_t)tmr_ms_to_cycles(c->wait_ms);
    uint64_t vaddr;
    uint32_t prkey;
    bool known = qpx_peer_buffer(c->qp->qpn, &prkey, &vaddr) == 0;
    if (known) g->raddr = vaddr;
    if (rkey_given) {
        g->rkey = rkey;
    } else if (known) {
        g->rkey = prkey;
    } else {
        g->rkey = mr->key;
        if (c->op != BOP_SEND)
            printf("bench: the exchange carried no rkey (pingpong): assuming the peer's test buffer "
                   "has key 0x%lx like ours (--rkey KEY sets it)\n",
                   (unsigned long)g->rkey);
    }
    return 0;
}

/* ---- the run */

/* Between status reads: now and then serve the network stack and the CQ, watch for Ctrl-C. */
static int idle(uint64_t now) {
    if (now - last_net < BENCH_NET_CYCLES) return 0;
    last_net = now;
    net_poll();
    roce_poll(); /* the firmware's own completions (the generator's never come here) */
    return con_interrupted();
}

/*
 * Run it: 0 every completion came, -1 stopped (printed), 1 interrupted.
 * The generator ends every run itself (done, an error, its timeout, a QP
 * reset); the firmware only watches, bounded: a generator that makes no
 * progress for twice the timeout is stopped.
 */
static int run(const struct bench_cfg *c, struct bench_res *r) {
    memset(r, 0, sizeof *r);
    uint64_t guard = 2u * tmr_ms_to_cycles(c->wait_ms) + tmr_ms_to_cycles(1);
    roce_hw_gen_start(&c->g);
    uint64_t t_prog = tmr_cycles();
    last_net = t_prog;
    uint32_t seen_p = 0, seen_d = 0;
    bool aborted = false;
    while (roce_hw_gen_busy()) {
        uint64_t now = tmr_cycles();
        uint32_t p = roce_hw_read(ROCE_GEN_POSTED), d = roce_hw_read(ROCE_GEN_COMPLETED);
        if (p != seen_p || d != seen_d) {
            seen_p = p, seen_d = d, t_prog = now;
        } else if (now - t_prog > guard) {
            roce_hw_gen_abort();
            roce_hw_gen_abort(); /* twice: at once */
            r->stalled = true;
            break;
        }
        if (!aborted && idle(now)) {
            printf("^C\n");
            r->intr = aborted = true;
            roce_hw_gen_abort(); /* posting stops; what was posted completes */
        }
    }
    roce_hw_gen_read(&r->g);
    /* the QPs' send-side figures (a perftest session's end-of-test report) */
    uint64_t off = tmr_cycles() - roce_hw_gen_cycle();
    for (uint32_t k = 0; k < c->nqp && r->g.completed; k++) {
        struct roce_qp *qp = roce_qp_find(c->qp->qpn + k);
        uint32_t n = r->g.completed / c->nqp + (k < r->g.completed % c->nqp ? 1u : 0u);
        if (!qp || !n) continue;
        if (qp->send_done == 0 && qp->send_errors == 0 && qp->t_first_post == 0)
            qp->t_first_post = r->g.t_first + off;
        qp->send_done += n;
        qp->send_bytes += (uint64_t)n * c->size;
        qp->t_last_done = r->g.t_last + off;
    }
    const struct roce_gen_res *g = &r->g;
    uint32_t st = g->status;
    r->span = g->t_last > g->t_first ? g->t_last - g->t_first : 0;
    if (!c->lat && g->completed) {
        r->win_n = c->g.window, r->win_min = g->win_min;
        if (r->win_min == 0 || (uint64_t)g->completed * r->win_min > (uint64_t)r->win_n * r->span) {
            r->win_min = r->span; /* a short run, or the whole run was better */
            r->win_n = g->completed;
        }
    }
    if (r->stalled) {
        printf("bench: the work-request generator made no progress for %lu ms and was stopped "
               "(%lu of %lu posted work requests completed)\n",
               (unsigned long)(2u * c->wait_ms + 1u), (unsigned long)g->completed,
               (unsigned long)g->posted);
        return -1;
    }
    if (st & ROCE_GEN_STATUS_BAD_CONFIG_MASK) {
        printf("bench: the work-request generator refused the run (status 0x%lx)\n",
               (unsigned long)st);
        return -1;
    }
    if (st & ROCE_GEN_STATUS_ERROR_MASK) {
        printf("bench: completion %lu of %lu: %s (run stopped; the QP needs a reset and a new "
               "exchange)\n",
               (unsigned long)g->err_index + 1u, (unsigned long)c->iters,
               roce_wc_status_name((st & ROCE_GEN_STATUS_ERR_STATUS_MASK) >>
                                   ROCE_GEN_STATUS_ERR_STATUS_SHIFT));
        return -1;
    }
    if (st & ROCE_GEN_STATUS_QP_RESET_MASK) {
        printf("bench: a QP of the run was reset during it (%lu of %lu posted work requests "
               "completed)\n",
               (unsigned long)g->completed, (unsigned long)g->posted);
        return -1;
    }
    if ((st & ROCE_GEN_STATUS_TIMEOUT_MASK) && !r->intr) {
        printf("bench: no completion within %lu ms (%lu of %lu posted work requests completed)\n",
               (unsigned long)c->wait_ms, (unsigned long)g->completed, (unsigned long)g->posted);
        return -1;
    }
    return r->intr ? 1 : 0;
}

/* ---- the report */

static void report(const struct bench_cfg *c, const struct bench_res *r) {
    uint32_t n = r->g.completed;
    if (c->lat) {
        printf(" #bytes     #iterations    t_min[usec]    t_max[usec]    t_avg[usec]\n");
        printf(" %-10lu %-14lu %-14.2f %-14.2f %.2f\n", (unsigned long)c->size, (unsigned long)n,
               tmr_cycles_to_us(r->g.lat_min), tmr_cycles_to_us(r->g.lat_max), n ? tmr_cycles_to_us(r->g.lat_sum) / n : 0.0);
        printf("bench: post to completion (one round trip) in simulated time at %lu MHz; min "
               "%lu, max %lu cycles\n",
               (unsigned long)(tmr_clk_hz() / 1000000u), (unsigned long)r->g.lat_min,
               (unsigned long)r->g.lat_max);
        return;
    }
    double avg = tmr_gbps((uint64_t)n * c->size, r->span);
    double peak = tmr_gbps((uint64_t)r->win_n * c->size, r->win_min);
    double mpps = r->span ? (double)n * (double)tmr_clk_hz() / (double)r->span / 1e6 : 0.0;
    printf(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n");
    printf(" %-10lu %-14lu %-18.2f %-20.2f %.6f\n", (unsigned long)c->size, (unsigned long)n, peak,
           avg, mpps);
    uint64_t per = n ? r->span / n : 0;
    printf("bench: peak over %lu messages; %llu cycles per message; posted by the work-request "
           "generator\n",
           (unsigned long)r->win_n, (unsigned long long)per);
}

static int cmd_bench(int argc, char **argv) {
    struct bench_cfg c;
    struct bench_res r;
    bool rkey_given;
    uint32_t rkey = 0, qpn;
    if (argc < 2) {
        usage();
        return CON_ERR;
    }
    if (parse(argc, argv, &c, &rkey_given, &rkey, &qpn) != 0) return CON_ERR;
    if (roce_need("bench") != 0) return CON_ERR;
    if (roce_hw_gen_busy()) {
        printf("bench: the work-request generator is busy (an earlier run still drains)\n");
        return CON_ERR;
    }
    if (setup(&c, qpn, rkey_given, rkey) != 0) return CON_ERR;
    if (c.nqp == 1)
        printf("bench: %s%s on QP 0x%lx, %lu bytes x %lu, %lu outstanding at most",
               op_title[c.op], c.lat ? " latency" : "", (unsigned long)c.qp->qpn,
               (unsigned long)c.size, (unsigned long)c.iters, (unsigned long)c.depth);
    else
        printf("bench: %s%s on QPs 0x%lx..0x%lx, %lu bytes x %lu, %lu outstanding at most",
               op_title[c.op], c.lat ? " latency" : "", (unsigned long)c.qp->qpn,
               (unsigned long)(c.qp->qpn + c.nqp - 1u), (unsigned long)c.size,
               (unsigned long)c.iters, (unsigned long)c.depth);
    if (c.op != BOP_SEND)
        printf(", peer 0x%llx rkey 0x%lx", (unsigned long long)c.g.raddr,
               (unsigned long)c.g.rkey);
    printf("\n");
    int e = run(&c, &r);
    if (e < 0) return CON_ERR;
    if (r.g.completed) report(&c, &r);
    if (e > 0) {
        printf("bench: interrupted (Ctrl-C) after %lu of %lu completions\n",
               (unsigned long)r.g.completed, (unsigned long)c.iters);
        return CON_ERR;
    }
    return CON_OK;
}

static void bench_help_more(void) {
    printf("  write|read|send SIZE ITERS: ITERS (1..%lu) work requests of SIZE bytes (1..%lu)\n",
           (unsigned long)BENCH_ITERS_MAX, (unsigned long)BENCH_SIZE_MAX);
    printf("  from the test buffer 0x%x to the peer's, posted by the transport's work-request\n",
           QPX_BUF_BASE);
    printf("  generator (not the firmware); prints BW peak (best %u consecutive messages, post\n",
           BENCH_WINDOW);
    printf("  of the first to completion of the last), BW average and message rate.\n");
    printf("  --depth N: at most N outstanding (default and cap: the SQ depth per QP).\n");
    printf("  --qps N: round robin over N consecutive connected QPs from QPN (1..%u).\n",
           (unsigned)ROCE_GEN_QPS_MAX);
    printf("  lat write|read|send: one at a time; t_min/t_max/t_avg post to completion.\n");
    printf("  QPN: default the QP listen/connect programmed (the newest session's; --session\n");
    printf("  ID: that session's; 'qpx' lists them), from its session's test buffer.\n");
    printf("  --rkey KEY: the peer's buffer key\n");
    printf("  (default: perftest's exchanged one; pingpong carries none: our own key).\n");
    printf("  --timeout MS: a run without progress for MS ms stops (default %u ms simulated).\n",
           BENCH_WAIT_MS);
    printf("  Ctrl-C stops a run. A SEND lands in the peer's receive WQEs (the exchange keeps\n");
    printf("  them posted).\n");
}
CON_COMMAND_MORE(bench, "[lat] write|read|send SIZE ITERS [QPN] [OPTIONS]",
                 "perftest-style bandwidth or latency run on connected QPs (work-request generator)",
                 cmd_bench, bench_help_more);
