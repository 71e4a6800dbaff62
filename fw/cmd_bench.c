/*
 * bench: perftest-style runs on a connected QP (by default the one the
 * exchange programmed), over the exchange's test buffer on both NICs.
 *
 *   bench write|read|send SIZE ITERS [QPN] [OPTIONS]      throughput
 *   bench lat write|read|send SIZE ITERS [QPN] [OPTIONS]  latency
 *
 * Throughput keeps up to the SQ depth (or --depth) of signaled work requests
 * outstanding and stamps every post and completion with the cycle counter:
 * BW average over the whole run (first post to last completion), BW peak over
 * the best window of BENCH_WINDOW consecutive messages (see run()), at the
 * core clock. Latency posts one
 * work request at a time: post to completion as the firmware sees it (a full
 * round trip, where perftest's *_lat report half of a ping-pong). Every
 * completion has a bounded wait (simulated time); Ctrl-C stops a run.
 *
 * The firmware posts each work request through ~20 register writes: for
 * small messages that, not the wire, is the limit, and the output says so.
 */
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "csr.h"
#include "net.h"
#include "roce/qpx.h"
#include "roce/roce.h"
#include "timer.h"

#define BENCH_SIZE_MAX QPX_BUF_BYTES /* the exchange's test buffer */
#define BENCH_ITERS_MAX 100000u
#define BENCH_WAIT_MS 20u          /* default wait for each completion, simulated */
#define BENCH_WAIT_MS_MAX 10000u
#define BENCH_WINDOW 64u           /* work requests per window of BW peak */
#define BENCH_TAG 0xbe4c0000u      /* wr_id bits 63:32 of the bench's work requests */
#define BENCH_NET_CYCLES 2500u     /* an idle run serves the network stack this often */
#define BENCH_RING 256u           /* post times kept: a window plus what is outstanding */
#define BENCH_DEPTH_MAX (BENCH_RING - BENCH_WINDOW)
#define QPN_MAX 0xffffffu

enum bench_op { BOP_WRITE, BOP_READ, BOP_SEND };

struct bench_cfg {
    bool lat;
    uint8_t op; /* enum bench_op */
    uint32_t size, iters, wait_ms;
    uint32_t depth; /* work requests outstanding at most */
    struct roce_qp *qp;
    struct roce_wr wr; /* the template every work request is made from */
};

/* What a run measured. */
struct bench_res {
    uint32_t posted, done;
    uint64_t t_start, t_end;
    uint64_t win_min;           /* throughput: fewest cycles for BENCH_WINDOW messages */
    uint32_t win_n;             /* completions in that window (fewer in a short run) */
    uint64_t lat_min, lat_max, lat_sum;
    uint64_t post_cycles;       /* cycles the firmware spent posting */
    uint32_t starved;           /* posts that found less than half the depth outstanding */
    uint8_t err_status;         /* first bad completion status, 0 when none */
    uint32_t err_index;
};

static const char *const op_name[] = {"write", "read", "send"};
static const char *const op_title[] = {"RDMA WRITE", "RDMA READ", "SEND"};
static const uint8_t op_wr[] = {ROCE_WR_WRITE, ROCE_WR_READ, ROCE_WR_SEND};

static uint64_t wr_seq;

/* The core's cycle counter (mcycle, no bus access). */
static uint64_t cyc(void) {
    uint32_t hi, lo;
    do {
        hi = CSR_READ(mcycleh);
        lo = CSR_READ(mcycle);
    } while (CSR_READ(mcycleh) != hi);
    return (uint64_t)hi << 32 | lo;
}
static uint64_t posts[BENCH_RING]; /* post time of work request i at i % BENCH_RING */
static uint64_t last_net;

static void usage(void) {
    printf("bench: expected [lat] write|read|send SIZE ITERS [QPN] [--rkey KEY] [--depth N] "
           "[--timeout MS] (see 'help bench')\n");
}

/* ---- arguments */

static int parse(int argc, char **argv, struct bench_cfg *c, bool *rkey_given, uint32_t *rkey,
                 uint32_t *qpn) {
    int i = 1;
    memset(c, 0, sizeof *c);
    c->wait_ms = BENCH_WAIT_MS;
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
             dp = strcmp(a, "--depth") == 0;
        if (!rk && !to && !dp) {
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
                printf("bench: --depth: expected 1..%u (capped at the SQ depth), got %s\n",
                       (unsigned)BENCH_DEPTH_MAX, argv[i]);
                return -1;
            }
            if (c->lat && c->depth != 1) {
                printf("bench: --depth: a latency run has one work request outstanding\n");
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

/* The QP, the buffers and the keys; prints why and -1 when the run cannot start. */
static int setup(struct bench_cfg *c, uint32_t qpn, bool rkey_given, uint32_t rkey) {
    if (qpn) {
        c->qp = roce_qp_find(qpn);
        if (!c->qp) {
            printf("bench: QP 0x%lx was not created here (see 'qp list')\n", (unsigned long)qpn);
            return -1;
        }
    } else {
        c->qp = qpx_qp();
        if (!c->qp) {
            printf("bench: no connected QP (run listen or connect first, or give a QPN)\n");
            return -1;
        }
    }
    if (c->qp->ctx.state != ROCE_QPS_RTS) {
        printf("bench: QP 0x%lx is in %s, not RTS (listen or connect programs it)\n",
               (unsigned long)c->qp->qpn, roce_qp_state_name(c->qp->ctx.state));
        return -1;
    }
    uint32_t acc = c->op == BOP_READ ? ROCE_ACC_LOCAL_WRITE : 0;
    struct roce_mr *mr = roce_mr_covering(QPX_BUF_BASE, c->size, acc);
    if (!mr) {
        printf("bench: no memory region covers the test buffer 0x%x + 0x%lx%s (listen or connect "
               "registers it)\n",
               QPX_BUF_BASE, (unsigned long)c->size, acc ? " with local write" : "");
        return -1;
    }
    uint32_t sq = roce_hw_caps()->sq_depth;
    if (c->lat) c->depth = 1;
    if (c->depth == 0 || c->depth > sq) c->depth = sq;
    struct roce_wr *w = &c->wr;
    memset(w, 0, sizeof *w);
    w->opcode = op_wr[c->op];
    w->flags = 1u; /* signaled: every completion is counted */
    w->qpn = c->qp->qpn;
    w->laddr = QPX_BUF_BASE;
    w->lkey = mr->key;
    w->len = c->size;
    w->raddr = QPX_BUF_BASE;
    uint64_t vaddr;
    uint32_t prkey;
    bool known = qpx_peer_buffer(c->qp->qpn, &prkey, &vaddr) == 0;
    if (known) w->raddr = vaddr;
    if (rkey_given) {
        w->rkey = rkey;
    } else if (known) {
        w->rkey = prkey;
    } else {
        w->rkey = mr->key;
        if (c->op != BOP_SEND)
            printf("bench: the exchange carried no rkey (pingpong): assuming the peer's test buffer "
                   "has key 0x%lx like ours (--rkey KEY sets it)\n",
                   (unsigned long)w->rkey);
    }
    return 0;
}

/* ---- the run */

static int post(const struct bench_cfg *c, struct bench_res *r) {
    struct roce_wr w = c->wr;
    w.wr_id = (uint64_t)BENCH_TAG << 32 | (uint32_t)++wr_seq;
    struct roce_qp *qp = c->qp;
    if (qp->send_done == 0 && qp->send_errors == 0 && qp->t_first_post == 0)
        qp->t_first_post = tmr_cycles(); /* for a perftest session's end-of-test report */
    if (r->posted - r->done < (c->depth + 1u) / 2u) r->starved++;
    uint64_t t0 = cyc();
    int e = roce_hw_post_send(&w, c->wait_ms);
    r->post_cycles += cyc() - t0;
    if (e == -1) {
        printf("bench: the send queue stayed full for %lu ms\n", (unsigned long)c->wait_ms);
        return -1;
    }
    if (e == -2) {
        printf("bench: the transport refused work request %lu (counted in sq_refused)\n",
               (unsigned long)r->posted + 1u);
        return -1;
    }
    r->posted++;
    return 0;
}

/*
 * Pop completions until one of ours arrives: 1 (its time in *t), 0 when the CQ
 * is empty, others are filed as the super-loop would.
 */
static int pop_ours(const struct bench_cfg *c, struct bench_res *r, uint64_t *t) {
    struct roce_wc wc;
    for (int i = 0; i < 16; i++) {
        if (!roce_poll_wc(&wc)) return 0;
        if (wc.is_recv || wc.qpn != c->qp->qpn || (uint32_t)(wc.wr_id >> 32) != BENCH_TAG)
            continue;
        *t = cyc();
        if (wc.status != 0 && r->err_status == 0) {
            r->err_status = wc.status;
            r->err_index = r->done + 1u;
        }
        r->done++;
        return 1;
    }
    return 0;
}

/* Nothing to do this pass: now and then serve the network stack and watch for Ctrl-C. */
static int idle(uint64_t now) {
    if (now - last_net < BENCH_NET_CYCLES) return 0;
    last_net = now;
    net_poll();
    return roce_con_interrupted();
}

/*
 * Run it: 0 every completion came, -1 stopped (printed), 1 interrupted.
 *
 * BW peak as perftest defines it, over windows: messages j-W+1..j were all
 * posted at or after post[j-W+1] and all completed by done[j] (an RC QP
 * completes in order), so W * SIZE / (done[j] - post[j-W+1]) never exceeds
 * what the link really carried. Windows of completions alone would (one ACK
 * retires several WQEs at once).
 */
static int run(const struct bench_cfg *c, struct bench_res *r) {
    uint64_t wait = tmr_ms_to_cycles(c->wait_ms);
    bool stop = false, intr = false;
    memset(r, 0, sizeof *r);
    r->lat_min = UINT64_MAX;
    last_net = cyc();
    r->t_start = r->t_end = cyc();
    uint64_t t_post = r->t_start, t_last = r->t_start;
    while (r->done < r->posted || (!stop && r->posted < c->iters)) {
        if (!stop && r->posted < c->iters && r->posted - r->done < c->depth) {
            t_post = cyc();
            posts[r->posted % BENCH_RING] = t_post;
            if (post(c, r) != 0) {
                stop = true;
                continue;
            }
            if (!c->lat) continue; /* fill the queue first */
        }
        uint64_t t;
        if (pop_ours(c, r, &t)) {
            t_last = r->t_end = t;
            if (c->lat) {
                uint64_t d = t - t_post;
                r->lat_sum += d;
                if (d < r->lat_min) r->lat_min = d;
                if (d > r->lat_max) r->lat_max = d;
            } else if (r->done >= BENCH_WINDOW) {
                /* completion number done (1-based) ends a window opened by post done-W+1 */
                uint64_t d = t - posts[(r->done - BENCH_WINDOW) % BENCH_RING];
                if (r->win_n == 0 || d < r->win_min) {
                    r->win_min = d;
                    r->win_n = BENCH_WINDOW;
                }
            }
            if (r->err_status) stop = true; /* the rest are flushed */
            continue;
        }
        uint64_t now = cyc();
        if (now - t_last > wait && now - t_post > wait) {
            printf("bench: no completion within %lu ms (%lu of %lu posted work requests "
                   "completed)\n",
                   (unsigned long)c->wait_ms, (unsigned long)r->done, (unsigned long)r->posted);
            return -1;
        }
        if (!intr && idle(now)) {
            printf("^C\n");
            intr = stop = true;
        }
    }
    uint64_t span = r->t_end - r->t_start;
    if (!c->lat && r->done && (r->win_n == 0 || (uint64_t)r->done * r->win_min >
                                                    (uint64_t)r->win_n * span)) {
        r->win_min = span; /* a short run, or the whole run was better */
        r->win_n = r->done;
    }
    if (r->err_status) {
        printf("bench: completion %lu of %lu: %s (run stopped; the QP needs a reset and a new "
               "exchange)\n",
               (unsigned long)r->err_index, (unsigned long)c->iters,
               roce_wc_status_name(r->err_status));
        return -1;
    }
    if (r->done < c->iters && !intr) return -1; /* a post failed (printed) */
    return intr ? 1 : 0;
}

/* ---- the report */

static double gbps(uint64_t bytes, uint64_t cycles) {
    return cycles ? (double)bytes * 8.0 * (double)tmr_clk_hz() / (double)cycles / 1e9 : 0.0;
}

static double usec(uint64_t cycles) {
    return (double)cycles * 1e6 / (double)tmr_clk_hz();
}

static void report(const struct bench_cfg *c, const struct bench_res *r) {
    uint64_t span = r->t_end - r->t_start;
    uint32_t n = r->done;
    if (c->lat) {
        printf(" #bytes     #iterations    t_min[usec]    t_max[usec]    t_avg[usec]\n");
        printf(" %-10lu %-14lu %-14.2f %-14.2f %.2f\n", (unsigned long)c->size, (unsigned long)n,
               usec(r->lat_min), usec(r->lat_max), n ? usec(r->lat_sum) / n : 0.0);
        printf("bench: post to completion (one round trip) in simulated time at %lu MHz\n",
               (unsigned long)(tmr_clk_hz() / 1000000u));
        return;
    }
    double avg = gbps((uint64_t)n * c->size, span);
    double peak = gbps((uint64_t)r->win_n * c->size, r->win_min);
    double mpps = span ? (double)n * (double)tmr_clk_hz() / (double)span / 1e6 : 0.0;
    printf(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n");
    printf(" %-10lu %-14lu %-18.2f %-20.2f %.6f\n", (unsigned long)c->size, (unsigned long)n, peak,
           avg, mpps);
    uint64_t per = n ? span / n : 0, post = r->posted ? r->post_cycles / r->posted : 0;
    printf("bench: peak over %lu messages; %llu cycles per message; posting one through the "
           "registers takes %llu cycles\n",
           (unsigned long)r->win_n, (unsigned long long)per, (unsigned long long)post);
    /* the queue kept running low: the transport waited for the firmware, not the wire */
    if (c->depth >= 4u && r->starved * 2u > r->posted)
        printf("bench: the send queue ran low at %lu of %lu posts: at %lu bytes the firmware "
               "posting through registers is the limit, not the wire\n",
               (unsigned long)r->starved, (unsigned long)r->posted, (unsigned long)c->size);
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
    if (setup(&c, qpn, rkey_given, rkey) != 0) return CON_ERR;
    printf("bench: %s%s on QP 0x%lx, %lu bytes x %lu, %lu outstanding at most",
           op_title[c.op], c.lat ? " latency" : "", (unsigned long)c.qp->qpn,
           (unsigned long)c.size, (unsigned long)c.iters,
           (unsigned long)c.depth);
    if (c.op != BOP_SEND)
        printf(", peer 0x%llx rkey 0x%lx", (unsigned long long)c.wr.raddr,
               (unsigned long)c.wr.rkey);
    printf("\n");
    int e = run(&c, &r);
    if (e < 0) return CON_ERR;
    if (r.done) report(&c, &r);
    if (e > 0) {
        printf("bench: interrupted (Ctrl-C) after %lu of %lu completions\n", (unsigned long)r.done,
               (unsigned long)c.iters);
        return CON_ERR;
    }
    return CON_OK;
}

static void bench_help_more(void) {
    printf("  write|read|send SIZE ITERS: ITERS (1..%lu) work requests of SIZE bytes (1..%lu)\n",
           (unsigned long)BENCH_ITERS_MAX, (unsigned long)BENCH_SIZE_MAX);
    printf("  from the test buffer 0x%x to the peer's, up to the SQ depth outstanding; prints\n",
           QPX_BUF_BASE);
    printf("  BW peak (best %u consecutive messages, post of the first to completion of the\n",
           BENCH_WINDOW);
    printf("  last), BW average and message rate. --depth N: at most N outstanding.\n");
    printf("  lat write|read|send: one at a time; t_min/t_max/t_avg post to completion.\n");
    printf("  QPN: default the QP listen/connect programmed. --rkey KEY: the peer's buffer key\n");
    printf("  (default: perftest's exchanged one; pingpong carries none: our own key).\n");
    printf("  --timeout MS: wait for each completion (default %u ms simulated). Ctrl-C stops.\n",
           BENCH_WAIT_MS);
    printf("  A SEND lands in the peer's receive WQEs (the exchange keeps them posted).\n");
}
CON_COMMAND_MORE(bench, "[lat] write|read|send SIZE ITERS [QPN] [OPTIONS]",
                 "perftest-style bandwidth or latency run on a connected QP", cmd_bench,
                 bench_help_more);
