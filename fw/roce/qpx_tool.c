/*
 * The data phase after a QP exchange: the NIC as the peer of ibv_rc_pingpong
 * and perftest (see qpx_tool.h). Completions are filed by roce_poll (roce.c):
 * a run watches its QP's counters (recv_done, send_done, the error counts) and
 * posts work requests itself without waiting, so the super-loop keeps running
 * the network and the console meanwhile.
 */
#include "qpx_tool.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm.h"
#include "console.h"
#include "qpx_mem.h"
#include "qpx_msg.h"
#include "roce_hw.h"
#include "timer.h"
#include "noinit.h"

#define WR_ID_TAG 0x71u    /* wr_id bits 63:56 of the work requests posted here */
#define POST_WAIT_MS 1u    /* bound for a free send-queue slot */
#define IDLE_MS_MAX 600000u
#define BW_DEPTH 16u       /* bw client: work requests outstanding at most (READs too: the
                            * completer takes back-to-back READ responses at line rate) */
#define MAX_SAMPLES 1024u  /* lat: post times kept (percentiles over the first ones) */
#define PERFTEST_BW_SIZE 65536u /* perftest's default -s of the bw tests */
#define PERFTEST_LAT_SIZE 2u    /* and of the lat tests */

enum { PENDING_RECV = 1, PENDING_SEND = 2 };
enum kind { K_PINGPONG, K_BW, K_WRITE_LAT, K_READ_LAT, K_SEND_LAT, K_RPING };
/* rping (librdmacm's example, over RDMA CM): each side's 16-byte SENDs carry a buffer's
   address, rkey and size (big-endian); the server READs the client's start buffer into its
   own, tells it to go on, WRITEs it back into the client's second buffer and tells it again. */
enum rp_stage { RP_ADV_READ, RP_READ, RP_SEND1, RP_ADV_WRITE, RP_WRITE, RP_SEND2, /* server */
                RP_FILL, RP_GO1, RP_GO2 /* client */ };
#define RP_INFO 16u               /* the SENDs' size */
#define RP_MAX 65536u             /* rping's largest -S */
#define RP_SIZE 64u               /* and its default */
#define RP_MIN 16u                /* "rdma-ping-N: " and some letters */
#define RP_RDMA 0x10000u          /* offsets in the test buffer: the READ target / WRITE source, */
#define RP_START 0x20000u         /* the client's start buffer, */
#define RP_SEND 0x30000u          /* its two SENDs (the receives land at offset 0) */
#define RP_SHOW 2u                /* pings whose data the console shows */
enum wl_stage { WL_WAIT, WL_POST, WL_COMPL };

static struct {
    /* configuration ('tool on') */
    bool armed;
    uint32_t iters, size, idle_ms;
    bool size_given, iters_given;
    /* the run */
    bool running;
    bool data_done;      /* perftest: the data phase is over, the session's end is awaited */
    bool session_closed; /* perftest: the session finished while the data phase ran */
    struct roce_qp *qp;
    uint32_t qpn;
    uint32_t session; /* the qpx session whose QP it is (qpx.h) */
    uint32_t lkey;
    uint64_t base;
    bool server;
    uint8_t tool, test, kind, atomic;
    uint32_t peer_ip, rkey;
    uint64_t vaddr;
    uint32_t n, len; /* this run's iterations and message size */
    uint32_t recv_base, send_base, rerr_base, serr_base; /* the QP's counters at the start */
    /* a bw client with --qps N: the other QPs (in xq), posted round robin (perftest -q N:
       ITERS each) */
    uint32_t nx;
    uint32_t rcnt, scnt, posted, echo_due;
    uint32_t echo_len[8]; /* pingpong/send_lat server: lengths not echoed yet (ring) */
    uint32_t echo_head;
    uint32_t pending;
    uint8_t stage;        /* write_lat, rping */
    uint32_t iter;        /* rping: pings done */
    uint32_t rp_len;      /* rping server: the size the last READ moved */
    bool watching;        /* write_lat: a check of the watched byte is running */
    uint64_t seq;
    uint64_t t_begin, t_first, t_last, t_progress;
    uint64_t tpost[MAX_SAMPLES + 1];
    /* the last run's outcome, for 'tool' */
    int result; /* 0 none yet, 1 ok, -1 failed */
    /* bw client figures for the report */
    bool have_report;
    uint64_t rep_size, rep_iters;
    double rep_bw, rep_mpps;
} t = {.iters = QPX_TOOL_ITERS, .size = QPX_TOOL_SIZE, .idle_ms = QPX_TOOL_IDLE_MS};

NOINIT(qpx_tool_samples) static uint32_t samples[MAX_SAMPLES];

/* t.nx more QPs of a bw client (in .bss: t's initialised fields put t in .data, whose load
   image takes IMEM) */
static struct {
    struct roce_qp *qp[QPX_MAX_QPS - 1];
    uint32_t qpn[QPX_MAX_QPS - 1], rkey[QPX_MAX_QPS - 1], lkey[QPX_MAX_QPS - 1],
        send_base[QPX_MAX_QPS - 1], serr_base[QPX_MAX_QPS - 1];
    uint64_t vaddr[QPX_MAX_QPS - 1];
} xq;

static void ip_str(uint32_t ip, char out[16]) {
    snprintf(out, 16, "%u.%u.%u.%u", (unsigned)(ip >> 24), (unsigned)(ip >> 16 & 0xffu),
             (unsigned)(ip >> 8 & 0xffu), (unsigned)(ip & 0xffu));
}

static void who(void) {
    char b[16];
    ip_str(t.peer_ip, b);
    printf("tool: %s %s with %s: ",
           t.tool == QPX_TOOL_PINGPONG ? "pingpong"
           : t.tool == QPX_TOOL_RPING  ? "rping"
                                       : qpx_test_name(t.test),
           t.server ? "server" : "client", b);
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
    va_list ap;
    who();
    uint32_t done = t.kind == K_RPING                        ? t.iter
                    : t.kind == K_BW || t.kind == K_READ_LAT ? t.scnt
                    : t.rcnt < t.scnt                        ? t.rcnt
                                                             : t.scnt;
    if (t.data_done)
        printf("FAILED after the data phase: ");
    else
        printf("FAILED after %lu of %lu iters: ", (unsigned long)done, (unsigned long)t.n);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    t.running = false;
    t.data_done = false;
    t.result = -1;
}

/* ibv_rc_pingpong's own summary, in simulated time (the tool prints wall time). */
static void succeed_pingpong(void) {
    uint64_t cyc = t.t_last > t.t_first ? t.t_last - t.t_first : 1;
    double us = tmr_cycles_to_us(cyc);
    unsigned long long bytes = (unsigned long long)t.len * t.n * 2u;
    who();
    printf("%lu iters of %lu bytes: %llu bytes in %.1f us = %.2f Mbit/sec, %.2f usec/iter "
           "(simulated time): ok\n",
           (unsigned long)t.n, (unsigned long)t.len, bytes, us, (double)bytes * 8.0 / us,
           us / (double)t.n);
    t.running = false;
    t.result = 1;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void rule(void) {
    printf("---------------------------------------------------------------------------------------"
           "\n");
}

/* perftest's latency table from the post times (read: one way per sample, else half a round trip) */
static void lat_table(void) {
    uint32_t np = t.posted < MAX_SAMPLES + 1u ? t.posted : MAX_SAMPLES + 1u;
    uint32_t ns = np > 1 ? np - 1 : 0;
    double f = t.kind == K_READ_LAT ? 1.0 : 2.0;
    double sum = 0, sq = 0;
    for (uint32_t i = 0; i < ns; i++) {
        samples[i] = (uint32_t)(t.tpost[i + 1] - t.tpost[i]);
        double v = tmr_cycles_to_us(samples[i]) / f;
        sum += v;
        sq += v * v;
    }
    rule();
    printf(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
           "t_stdev[usec]   99%% percentile[usec]   99.9%% percentile[usec]\n");
    if (ns == 0) {
        printf(" %-7lu %-10lu (one iteration: no interval to measure)\n", (unsigned long)t.len,
               (unsigned long)t.n);
    } else {
        qsort(samples, ns, sizeof samples[0], cmp_u32);
        double avg = sum / ns, var = sq / ns - avg * avg;
        double sd = 0;
        if (var > 0) { /* Newton's square root: no libm needed */
            sd = var;
            for (int i = 0; i < 40; i++)
                sd = 0.5 * (sd + var / sd);
        }
        uint32_t p99 = (ns * 99u + 99u) / 100u, p999 = (ns * 999u + 999u) / 1000u;
        printf(" %-7lu %-10lu %-14.2f %-13.2f %-16.2f %-14.2f %-15.2f %-22.2f %.2f\n",
               (unsigned long)t.len, (unsigned long)t.n, tmr_cycles_to_us(samples[0]) / f,
               tmr_cycles_to_us(samples[ns - 1]) / f, tmr_cycles_to_us(samples[ns / 2]) / f, avg, sd,
               tmr_cycles_to_us(samples[(p99 ? p99 : 1) - 1]) / f, tmr_cycles_to_us(samples[(p999 ? p999 : 1) - 1]) / f);
    }
    rule();
}

static void bw_table(void) {
    rule();
    printf(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n");
    printf(" %-10lu %-14lu %-18.2f %-20.2f %.6f\n", (unsigned long)t.rep_size,
           (unsigned long)t.rep_iters, t.rep_bw, t.rep_bw, t.rep_mpps);
    rule();
}

/* The one line of a perftest run: printed when both the data phase and the session are over. */
static void final_line(void) {
    who();
    uint64_t cyc = t.t_last > t.t_first ? t.t_last - t.t_first : 1;
    if (t.kind == K_BW)
        printf("%lu x %lu bytes in %.1f us, BW average %.2f MB/sec, %.6f Mpps (simulated "
               "time): ok\n",
               (unsigned long)t.n, (unsigned long)t.len, tmr_cycles_to_us(cyc), t.rep_bw, t.rep_mpps);
    else
        printf("%lu iters of %lu bytes in %.1f us, %.2f usec/iter (simulated time): ok\n",
               (unsigned long)t.n, (unsigned long)t.len, tmr_cycles_to_us(cyc),
               tmr_cycles_to_us(cyc) / (double)t.n / (t.kind == K_READ_LAT ? 1.0 : 2.0));
    t.running = false;
    t.data_done = false;
    t.result = 1;
}

/* The perftest data phase is over: the table now, the line when the session is over too. */
static void data_phase_done(void) {
    t.t_last = tmr_cycles();
    if (t.kind == K_BW) {
        uint64_t cyc = t.t_last > t.t_first ? t.t_last - t.t_first : 1;
        double secs = (double)cyc / (double)tmr_clk_hz();
        t.rep_size = t.len;
        t.rep_iters = t.n;
        t.rep_bw = (double)t.len * t.n / secs / 1048576.0;
        t.rep_mpps = (double)t.n / secs / 1e6;
        t.have_report = true;
        bw_table();
    } else {
        lat_table();
    }
    t.data_done = true;
    if (t.session_closed) {
        final_line();
        return;
    }
    if (!t.server) {
        const char *err;
        if (qpx_finish(t.session, &err) != 0) fail("cannot end the test: %s", err);
    }
}

void qpx_tool_end(const char *why) {
    if (t.running) fail("%s", why);
}

bool qpx_tool_active(void) {
    return t.running && !t.data_done;
}

bool qpx_tool_report(uint32_t session, uint64_t *size, uint64_t *iters, double *bw_peak,
                     double *bw_avg, double *mpps) {
    if (!t.have_report || t.session != session) return false;
    *size = t.rep_size;
    *iters = t.rep_iters;
    *bw_peak = *bw_avg = t.rep_bw; /* peak: no finer measurement than the whole run */
    *mpps = t.rep_mpps;
    return true;
}

static bool gone(const struct roce_qp *qp, uint32_t qpn) {
    return !qp->used || qp->qpn != qpn || qp->ctx.state == ROCE_QPS_RESET;
}

static bool qp_gone(void) {
    bool g = gone(t.qp, t.qpn);
    for (uint32_t i = 0; i < t.nx; i++)
        g = g || gone(xq.qp[i], xq.qpn[i]);
    return g;
}

/* The other QPs' completions and errors since the start (a bw client with --qps N). */
static uint32_t x_send_done(void) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < t.nx; i++)
        n += xq.qp[i]->send_done - xq.send_base[i];
    return n;
}

static bool x_send_errors(void) {
    for (uint32_t i = 0; i < t.nx; i++)
        if (xq.qp[i]->send_errors != xq.serr_base[i]) return true;
    return false;
}

/* Post one work request on the session's QP k (0: the first; the others with --qps N):
   1 posted, 0 the queue is busy (try again), -1 after fail(). */
static int post_on(uint32_t k, uint8_t opcode, uint64_t laddr, uint32_t len) {
    struct roce_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.opcode = opcode;
    wr.flags = 1u; /* signaled */
    wr.qpn = k ? xq.qpn[k - 1] : t.qpn;
    wr.laddr = laddr;
    wr.lkey = k ? xq.lkey[k - 1] : t.lkey; /* -R: each QP's MR is in the QP's own PD */
    wr.raddr = k ? xq.vaddr[k - 1] : t.vaddr;
    wr.rkey = k ? xq.rkey[k - 1] : t.rkey;
    wr.len = len;
    /* perftest's atomics: FETCH_AND_ADD adds 1 (ATOMIC_ADD_VALUE); CMP_AND_SWAP compares with 0
       and swaps in 0 (ATOMIC_SWAP_VALUE, compare_add left 0): the peer's memory never changes */
    if (opcode == ROCE_WR_FETCH_ADD) wr.swap_add = 1;
    wr.wr_id = (uint64_t)WR_ID_TAG << 56 | ++t.seq;
    int r = roce_hw_post_send(&wr, POST_WAIT_MS);
    if (r == -1) return 0;
    if (r != 0) {
        fail("the transport refused the work request (counted in sq_refused)");
        return -1;
    }
    uint64_t now = tmr_cycles();
    if (t.posted < MAX_SAMPLES + 1u) t.tpost[t.posted] = now;
    if (t.posted++ == 0 && !(t.kind == K_PINGPONG && t.server)) t.t_first = now;
    struct roce_qp *q = k ? xq.qp[k - 1] : t.qp;
    if (q->t_first_post == 0) q->t_first_post = now;
    return 1;
}

static int post(uint8_t opcode, uint64_t laddr, uint32_t len) {
    return post_on(0, opcode, laddr, len);
}

static int post_send(uint32_t len) {
    return post(ROCE_WR_SEND, t.base, len);
}

int qpx_tool_prepare(const struct roce_mr *mr, const struct qpx_opts *o, const char **err) {
    if (!t.armed || o->dry || !mr) return 0;
    if (o->tool == QPX_TOOL_PINGPONG && !o->server) {
        /* the tool's client buffer (--chk): 0x7b, 0 at the start of each 4 KiB page */
        return t.size <= mr->len ? qpx_mem_fill_chk(mr->base, t.size, err) : 0;
    }
    if (o->tool == QPX_TOOL_PERFTEST && o->test == QPX_WRITE_LAT) {
        uint32_t size = t.size_given ? t.size : PERFTEST_LAT_SIZE;
        if (size > QPX_TOOL_LAT_MAX) {
            *err = "write_lat: SIZE is larger than half the test buffer ('tool on -s')";
            return -1;
        }
        /* the watched byte must not hold 1 (the first value waited for) from an earlier run */
        return qpx_mem_write_byte(mr->base + size - 1u, 0, err);
    }
    return 0;
}

static void start_run(struct roce_qp *qp, struct roce_mr *mr, const struct qpx_opts *o,
                      uint32_t peer_ip) {
    memset(&t.running, 0, offsetof(__typeof__(t), result) - offsetof(__typeof__(t), running));
    t.have_report = false;
    t.running = true;
    t.qp = qp;
    t.qpn = qp->qpn;
    t.lkey = mr->key;
    t.base = mr->base;
    t.server = o->server;
    t.tool = o->tool;
    t.test = o->test;
    t.atomic = o->atomic;
    t.peer_ip = peer_ip;
    t.session = o->session;
    t.recv_base = 0; /* a new QP: a receive that completed during the exchange counts */
    t.send_base = qp->send_done;
    t.rerr_base = qp->recv_errors;
    t.serr_base = qp->send_errors;
    t.n = t.iters;
    t.nx = 0;
    t.t_begin = t.t_progress = tmr_cycles();
}

void qpx_tool_test(struct roce_qp *const *qps, uint32_t nqp, struct roce_mr *mr,
                   const struct qpx_opts *o, uint32_t peer_ip, const struct qpx_dest *peers,
                   const struct qpx_dest *mine) {
    struct roce_qp *qp = nqp ? qps[0] : NULL;
    if (!t.armed || !qp || !mr || o->dry || o->tool != QPX_TOOL_PERFTEST) return;
    bool bw = qpx_test_is_bw(o->test);
    /* the passive sides: the transport serves them, a summary at the session's end */
    if (o->server && (bw || o->test == QPX_READ_LAT || o->test == QPX_ATOMIC_LAT)) return;
    qpx_tool_end("a new session started");
    start_run(qp, mr, o, peer_ip);
    t.rkey = peers[0].rkey;
    t.vaddr = peers[0].vaddr;
    /* perftest -q N: ITERS messages on each QP, posted round robin */
    for (uint32_t i = 1; bw && i < nqp && i < QPX_MAX_QPS; i++) {
        xq.qp[t.nx] = qps[i];
        xq.qpn[t.nx] = qps[i]->qpn;
        xq.rkey[t.nx] = peers[i].rkey;
        xq.lkey[t.nx] = mine[i].rkey;
        xq.vaddr[t.nx] = peers[i].vaddr;
        xq.send_base[t.nx] = qps[i]->send_done;
        xq.serr_base[t.nx] = qps[i]->send_errors;
        t.nx++;
    }
    t.n = t.iters * (1u + t.nx);
    t.len = t.size_given ? t.size : bw ? PERFTEST_BW_SIZE : PERFTEST_LAT_SIZE;
    if (o->test == QPX_ATOMIC_BW || o->test == QPX_ATOMIC_LAT) t.len = 8; /* perftest's atomics: 8 bytes */
    t.kind = bw                          ? K_BW
             : o->test == QPX_WRITE_LAT  ? K_WRITE_LAT
             : o->test == QPX_READ_LAT || o->test == QPX_ATOMIC_LAT ? K_READ_LAT
                                         : K_SEND_LAT;
    uint32_t max = t.kind == K_WRITE_LAT ? QPX_TOOL_LAT_MAX : (uint32_t)mr->len;
    if (t.len > max) {
        fail("SIZE %lu is larger than %s", (unsigned long)t.len,
             t.kind == K_WRITE_LAT ? "half the test buffer" : "the test buffer");
        return;
    }
    if (t.kind == K_WRITE_LAT && !qpx_mem_present()) {
        fail("no fill/check engine: the firmware cannot watch the buffer's last byte");
        return;
    }
    if (t.kind == K_SEND_LAT && !t.server) t.pending = PENDING_RECV | PENDING_SEND;
    t.stage = WL_WAIT;
}

static void rping_begin(struct roce_qp *qp, struct roce_mr *mr, const struct qpx_opts *o,
                        uint32_t peer_ip) {
    qpx_tool_end("a new session started");
    start_run(qp, mr, o, peer_ip);
    t.kind = K_RPING;
    t.len = t.size_given ? t.size : RP_SIZE;
    t.stage = t.server ? RP_ADV_READ : RP_FILL;
    if (!qpx_mem_present()) {
        fail("no fill/check engine: the firmware cannot read rping's buffer descriptions");
        return;
    }
    if (!t.server && (t.len < RP_MIN || t.len > RP_MAX))
        fail("-s %lu: rping's sizes are %u..%u bytes", (unsigned long)t.len, RP_MIN, RP_MAX);
}

void qpx_tool_begin(struct roce_qp *qp, struct roce_mr *mr, const struct qpx_opts *o,
                    uint32_t peer_ip) {
    char b[16];
    if (!t.armed || !qp || !mr || o->dry) return;
    if (o->tool == QPX_TOOL_PERFTEST) {
        if (t.running && t.qp == qp && t.qpn == qp->qpn) { /* the data phase of this session */
            if (t.data_done)
                final_line();
            else
                t.session_closed = true; /* the peer ended first: the line comes at our end */
            return;
        }
        qpx_tool_end("a new session started");
        ip_str(peer_ip, b);
        bool bad = qp->recv_errors || qp->send_errors;
        printf("tool: %s %s with %s: receives %lu, send completions %lu, errors %lu: %s\n",
               qpx_test_name(o->test), o->server ? "server" : "client", b,
               (unsigned long)qp->recv_done, (unsigned long)qp->send_done,
               (unsigned long)(qp->recv_errors + qp->send_errors), bad ? "FAILED" : "ok");
        t.result = bad ? -1 : 1;
        return;
    }
    if (o->tool == QPX_TOOL_RPING) {
        rping_begin(qp, mr, o, peer_ip);
        return;
    }
    qpx_tool_end("a new session started");
    start_run(qp, mr, o, peer_ip);
    t.kind = K_PINGPONG;
    t.len = t.server ? 0 : t.size;
    if (!t.server) {
        if (t.size > mr->len) {
            fail("SIZE %lu is larger than the test buffer", (unsigned long)t.size);
            return;
        }
        t.pending = PENDING_RECV | PENDING_SEND;
        if (post_send(t.size) <= 0 && t.running) t.pending = PENDING_RECV; /* retried below */
    }
}

void qpx_tool_session_failed(uint32_t session) {
    if (t.running && t.session == session)
        fail("the QP exchange session failed (see the qpx: line)");
}

/* ibv_rc_pingpong's and send_lat's server: echo every receive with a SEND of its length. */
static void poll_server(uint32_t recv_now, uint32_t send_now) {
    while (t.rcnt < recv_now) {
        uint32_t len = t.qp->last_recv.byte_len; /* one message in flight: the last is this one */
        if (t.rcnt == 0 && t.kind == K_PINGPONG) {
            t.t_first = tmr_cycles();
            t.len = len;
        }
        t.rcnt++;
        uint32_t want = t.kind == K_SEND_LAT ? t.len : t.size;
        if ((t.kind == K_SEND_LAT || t.size_given) && len != want) {
            fail("received %lu bytes, expected %lu (-s)", (unsigned long)len, (unsigned long)want);
            return;
        }
        if (t.echo_due >= 8u) {
            fail("the peer sent more messages than were echoed (more than 8 ahead)");
            return;
        }
        t.echo_len[(t.echo_head + t.echo_due++) % 8u] = len;
    }
    while (t.echo_due) {
        int r = post_send(t.echo_len[t.echo_head]);
        if (r < 0) return;
        if (r == 0) break;
        t.echo_head = (t.echo_head + 1u) % 8u;
        t.echo_due--;
    }
    t.scnt = send_now;
    if (t.rcnt >= t.n && t.scnt >= t.n) {
        if (t.kind == K_PINGPONG) {
            t.t_last = tmr_cycles();
            succeed_pingpong();
        } else {
            data_phase_done();
        }
    }
}

/* ibv_rc_pingpong's and send_lat's client: SEND, wait for its completion and the answer. */
static void poll_client(uint32_t recv_now, uint32_t send_now) {
    uint32_t size = t.kind == K_PINGPONG ? t.size : t.len;
    if (t.posted == 0) { /* the first SEND is still to go (or found the queue busy) */
        int r = post_send(size);
        if (r <= 0) return;
        t.pending = PENDING_RECV | PENDING_SEND;
    }
    while (t.rcnt < recv_now) {
        uint32_t len = t.qp->last_recv.byte_len;
        t.rcnt++;
        t.pending &= ~(uint32_t)PENDING_RECV;
        if (len != size) {
            fail("the answer has %lu bytes, sent %lu", (unsigned long)len, (unsigned long)size);
            return;
        }
    }
    if (send_now > t.scnt) {
        t.scnt = send_now;
        t.pending &= ~(uint32_t)PENDING_SEND;
    }
    if (t.scnt < t.n && t.pending == 0) {
        int r = post_send(size);
        if (r < 0) return;
        if (r > 0) t.pending = PENDING_RECV | PENDING_SEND;
    }
    if (t.rcnt >= t.n && t.scnt >= t.n) {
        if (t.kind == K_PINGPONG) {
            t.t_last = tmr_cycles();
            succeed_pingpong();
        } else {
            data_phase_done();
        }
    }
}

/* bw client: ITERS work requests, BW_DEPTH outstanding at most; read_lat client: one at a time. */
static void poll_issue(uint32_t send_now) {
    uint8_t op = t.test == QPX_WRITE_BW                             ? ROCE_WR_WRITE
                 : t.test == QPX_SEND_BW                            ? ROCE_WR_SEND
                 : t.test != QPX_ATOMIC_BW && t.test != QPX_ATOMIC_LAT ? ROCE_WR_READ
                 : t.atomic == QPX_CMP_AND_SWAP                     ? ROCE_WR_CMP_SWAP
                                                                    : ROCE_WR_FETCH_ADD;
    uint32_t depth = t.kind == K_READ_LAT ? 1u : BW_DEPTH;
    if (depth > roce_hw_caps()->sq_depth) depth = roce_hw_caps()->sq_depth;
    t.scnt = send_now;
    while (t.posted < t.n && t.posted - t.scnt < depth * (1u + t.nx)) {
        int r = post_on(t.posted % (1u + t.nx), op, t.base, t.len);
        if (r <= 0) return;
    }
    if (t.scnt >= t.n) data_phase_done();
}

/* write_lat: perftest's loop; the server writes first, then each side answers the other's WRITE. */
static void poll_write_lat(uint32_t send_now) {
    for (int guard = 0; guard < 3 && t.running && !t.data_done; guard++) {
        switch (t.stage) {
        case WL_WAIT:
            if (t.rcnt < t.n && !(t.posted < 1 && t.server)) {
                uint64_t a = t.base + t.len - 1u;
                uint8_t v = (uint8_t)(t.rcnt + 1u);
                if (!t.watching) {
                    if (qpx_mem_watch_start(a, v) != 0) return; /* the engine is busy */
                    t.watching = true;
                    return;
                }
                int r = qpx_mem_watch_result();
                if (r == -1) return;
                t.watching = false;
                if (r == -2) {
                    fail("the on-board memory answered the watch of byte 0x%llx with an error",
                         (unsigned long long)a);
                    return;
                }
                if (r == 0) return; /* not there yet: check again on the next pass */
                t.rcnt++;
                t.t_progress = tmr_cycles();
            }
            t.stage = WL_POST;
            break;
        case WL_POST:
            if (t.posted < t.n) {
                /* what is sent comes from the upper half; its last byte is the iteration */
                uint64_t src = t.base + QPX_TOOL_LAT_MAX;
                const char *err;
                if (qpx_mem_write_byte(src + t.len - 1u, (uint8_t)(t.posted + 1u), &err) != 0) {
                    fail("%s", err);
                    return;
                }
                int r = post(ROCE_WR_WRITE, src, t.len);
                if (r <= 0) return;
            }
            t.stage = WL_COMPL;
            break;
        default: /* WL_COMPL */
            t.scnt = send_now;
            if (t.scnt < t.posted) return;
            t.stage = WL_WAIT;
            if (t.rcnt >= t.n && t.scnt >= t.n) {
                data_phase_done();
                return;
            }
            break;
        }
    }
}

/* ---- rping */

/* Write n bytes at addr (qpx_mem_write); 0 or -1 after fail(). */
static int mem_put(uint64_t addr, const uint8_t *b, uint32_t n) {
    const char *err;
    if (qpx_mem_write(addr, b, n, &err) == 0) return 0;
    fail("%s", err);
    return -1;
}

static int mem_get(uint64_t addr, uint8_t *b, uint32_t n) {
    const char *err;
    if (qpx_mem_read(addr, n, b, &err) == 0) return 0;
    fail("%s", err);
    return -1;
}

/* rping's start buffer of ping i: "rdma-ping-i: " then letters from 'A' + i (mod 'A'..'z'),
   NUL last; byte k of it (the client writes and checks it a chunk at a time). */
static uint8_t rp_byte(uint32_t i, uint32_t k) {
    char head[24];
    int cc = snprintf(head, sizeof head, "rdma-ping-%lu: ", (unsigned long)i);
    if (k + 1u >= t.len) return 0;
    if (k < (uint32_t)cc) return (uint8_t)head[k];
    return (uint8_t)(65u + ((i % 58u) + (k - (uint32_t)cc)) % 58u);
}

/* A SEND's buffer description: 0 with the fields, or -1 after fail(). */
static int rp_take_info(uint64_t *addr, uint32_t *rkey, uint32_t *len) {
    uint32_t got = t.qp->last_recv.byte_len;
    if (got != RP_INFO) {
        fail("rping's message has %lu bytes, expected %u", (unsigned long)got, RP_INFO);
        return -1;
    }
    uint8_t b[RP_INFO];
    if (mem_get(t.base, b, RP_INFO) != 0) return -1;
    *addr = qpx_get_be(b, 8);
    *rkey = (uint32_t)qpx_get_be(b + 8, 4);
    *len = (uint32_t)qpx_get_be(b + 12, 4);
    if (*len == 0 || *len > RP_MAX) {
        fail("the peer's buffer of %lu bytes is outside rping's 1..%u", (unsigned long)*len, RP_MAX);
        return -1;
    }
    return 0;
}

/* The first pings' data on the console, as rping -v prints it (at most 64 characters). */
static void rp_show(uint64_t addr, uint32_t len) {
    if (t.iter >= RP_SHOW) return;
    char text[65];
    uint32_t n = len < 64u ? len : 64u;
    for (uint32_t off = 0; off < n; off += QPX_MEM_READ_MAX) {
        uint32_t k = n - off < QPX_MEM_READ_MAX ? n - off : QPX_MEM_READ_MAX;
        if (mem_get(addr + off, (uint8_t *)text + off, k) != 0) return;
    }
    text[n] = 0;
    for (uint32_t i = 0; i < n && text[i]; i++)
        if (text[i] < 0x20 || text[i] > 0x7e) text[i] = '.';
    who();
    printf("ping %lu data: %s\n", (unsigned long)t.iter, text);
}

static bool rp_recv(uint32_t recv_now) {
    if (t.rcnt >= recv_now) return false;
    t.rcnt++;
    return true;
}

static void rp_done(void) {
    t.t_last = tmr_cycles();
    who();
    printf("%lu pings of %lu bytes%s in %.1f us (simulated time): ok\n", (unsigned long)t.iter,
           (unsigned long)t.len, t.server ? "" : ", each checked", tmr_cycles_to_us(t.t_last - t.t_first));
    t.running = false;
    t.result = 1;
}

/* rping's server: READ the advertised buffer, SEND, WRITE it to the second one, SEND. */
static void poll_rping_server(uint32_t recv_now, uint32_t send_now) {
    uint64_t addr;
    uint32_t rkey, len;
    t.scnt = send_now;
    bool idle = t.scnt >= t.posted;
    switch (t.stage) {
    case RP_ADV_READ:
    case RP_ADV_WRITE:
        if (!rp_recv(recv_now)) return;
        if (rp_take_info(&addr, &rkey, &len) != 0) return;
        t.vaddr = addr;
        t.rkey = rkey;
        if (t.stage == RP_ADV_READ) {
            if (t.iter == 0) t.t_first = tmr_cycles();
            t.rp_len = len;
            t.len = len;
            if (post(ROCE_WR_READ, t.base + RP_RDMA, len) <= 0) return;
            t.stage = RP_READ;
        } else {
            if (post(ROCE_WR_WRITE, t.base + RP_RDMA, len < t.rp_len ? len : t.rp_len) <= 0)
                return;
            t.stage = RP_WRITE;
        }
        return;
    case RP_READ:
    case RP_WRITE:
        if (!idle) return;
        if (t.stage == RP_READ) rp_show(t.base + RP_RDMA, t.rp_len);
        if (!t.running || post(ROCE_WR_SEND, t.base + RP_SEND, RP_INFO) <= 0) return;
        t.stage = t.stage == RP_READ ? RP_SEND1 : RP_SEND2;
        return;
    case RP_SEND1:
        if (idle) t.stage = RP_ADV_WRITE;
        return;
    default: /* RP_SEND2 */
        if (!idle) return;
        t.iter++;
        t.stage = RP_ADV_READ;
        if (t.iters_given && t.iter >= t.n) rp_done();
        return;
    }
}

/* rping's client: a ping's text into the start buffer, SEND its description, wait for the
   go-ahead, SEND the second buffer's, wait, check that the text came back. */
static void poll_rping_client(uint32_t recv_now, uint32_t send_now) {
    uint8_t b[RP_INFO];
    t.scnt = send_now;
    switch (t.stage) {
    case RP_FILL: {
        if (t.scnt < t.posted) return; /* the last ping's SENDs not yet acknowledged */
        if (t.iter == 0) t.t_first = tmr_cycles();
        for (uint32_t off = 0; off < t.len; off += RP_INFO) {
            uint32_t k = t.len - off < RP_INFO ? t.len - off : RP_INFO;
            for (uint32_t j = 0; j < k; j++)
                b[j] = rp_byte(t.iter, off + j);
            if (mem_put(t.base + RP_START + off, b, k) != 0) return;
        }
        /* the second buffer gets zeros first: what is checked must be the server's WRITE */
        memset(b, 0, sizeof b);
        for (uint32_t off = 0; off < t.len; off += RP_INFO)
            if (mem_put(t.base + RP_RDMA + off, b, t.len - off < RP_INFO ? t.len - off : RP_INFO))
                return;
        for (uint32_t k = 0; k < 2; k++) {
            qpx_put_be(b, t.base + (k ? RP_RDMA : RP_START), 8);
            qpx_put_be(b + 8, t.lkey, 4);
            qpx_put_be(b + 12, t.len, 4);
            if (mem_put(t.base + RP_SEND + 64u * k, b, RP_INFO) != 0) return;
        }
        if (post(ROCE_WR_SEND, t.base + RP_SEND, RP_INFO) <= 0) return;
        t.stage = RP_GO1;
        return;
    }
    case RP_GO1:
        if (!rp_recv(recv_now)) return;
        if (post(ROCE_WR_SEND, t.base + RP_SEND + 64u, RP_INFO) <= 0) return;
        t.stage = RP_GO2;
        return;
    default: /* RP_GO2 */
        if (!rp_recv(recv_now)) return;
        for (uint32_t off = 0; off < t.len; off += RP_INFO) {
            uint32_t k = t.len - off < RP_INFO ? t.len - off : RP_INFO;
            if (mem_get(t.base + RP_RDMA + off, b, k) != 0) return;
            for (uint32_t j = 0; j < k; j++)
                if (b[j] != rp_byte(t.iter, off + j)) {
                    fail("ping %lu came back different at byte %lu: 0x%02x, sent 0x%02x",
                         (unsigned long)t.iter, (unsigned long)(off + j), b[j],
                         rp_byte(t.iter, off + j));
                    return;
                }
        }
        rp_show(t.base + RP_RDMA, t.len);
        if (!t.running) return;
        t.iter++;
        t.stage = RP_FILL;
        if (t.iter >= t.n) {
            uint32_t qpn = t.qpn;
            rp_done();
            const char *err; /* rping's client disconnects when its pings are done */
            if (cm_disconnect(qpn, &err) != 0) printf("tool: rping client: %s\n", err);
        }
        return;
    }
}

void qpx_tool_poll(void) {
    if (!t.running) return;
    if (qp_gone() && t.kind == K_RPING && t.server && !t.iters_given && t.iter > 0 &&
        t.stage == RP_ADV_READ) {
        rp_done(); /* rping's client ended the connection after its pings (no -n given) */
        return;
    }
    if (qp_gone()) {
        fail("QP 0x%lx was reset", (unsigned long)t.qpn);
        return;
    }
    if (t.data_done) return; /* waiting for the session's end-of-test exchange */
    struct roce_qp *qp = t.qp;
    if (qp->recv_errors != t.rerr_base || qp->send_errors != t.serr_base || x_send_errors()) {
        bool r = qp->recv_errors != t.rerr_base;
        fail("%s completion with %s", r ? "a receive" : "a send-queue",
             r ? roce_wc_status_name(qp->last_recv.status) : "an error status");
        return;
    }
    uint32_t recv_now = qp->recv_done - t.recv_base,
             send_now = qp->send_done - t.send_base + x_send_done();
    uint32_t r0 = t.rcnt;
    bool progress = recv_now != t.rcnt || send_now != t.scnt;
    switch (t.kind) {
    case K_PINGPONG:
    case K_SEND_LAT:
        if (t.server)
            poll_server(recv_now, send_now);
        else
            poll_client(recv_now, send_now);
        break;
    case K_WRITE_LAT: poll_write_lat(send_now); break;
    case K_RPING:
        if (t.server)
            poll_rping_server(recv_now, send_now);
        else
            poll_rping_client(recv_now, send_now);
        break;
    default: poll_issue(send_now); break;
    }
    if (!t.running || t.data_done) return;
    uint64_t now = tmr_cycles();
    if (progress || t.rcnt != r0) {
        t.t_progress = now;
    } else if (now - t.t_progress > tmr_ms_to_cycles(t.idle_ms)) {
        fail("no progress for %lu ms (simulated; %lu posted, %lu completed, %lu received)",
             (unsigned long)t.idle_ms, (unsigned long)t.posted, (unsigned long)t.scnt,
             (unsigned long)t.rcnt);
    }
}

/* ---- console: tool [status] | tool on [-n ITERS] [-s SIZE] [--idle MS] | tool off | tool stop */

static void status(void) {
    printf("tool: %s", t.armed ? "on" : "off");
    if (t.armed)
        printf(" (-n %lu%s -s %lu%s, idle bound %lu ms)", (unsigned long)t.iters,
               t.iters_given ? "" : " by default", (unsigned long)t.size,
               t.size_given ? "" : " by default: a pingpong server echoes any size, perftest "
                                   "uses its own default",
               (unsigned long)t.idle_ms);
    printf("\n");
    if (t.running) {
        who();
        if (t.data_done)
            printf("data phase done, waiting for the end of the session\n");
        else
            printf("running, %lu received, %lu completed, %lu posted of %lu iters\n",
                   (unsigned long)t.rcnt, (unsigned long)t.scnt, (unsigned long)t.posted,
                   (unsigned long)t.n);
    } else if (t.result) {
        printf("tool: the last run %s\n", t.result > 0 ? "succeeded" : "failed");
    }
}

static int cmd_tool(int argc, char **argv) {
    const char *sub = argc >= 2 ? argv[1] : "status";
    if (strcmp(sub, "status") == 0 && argc <= 2) {
        status();
        return CON_OK;
    }
    if (strcmp(sub, "off") == 0 && argc == 2) {
        t.armed = false;
        printf("tool: off (listen/connect only exchange; a running loop goes on)\n");
        return CON_OK;
    }
    if (strcmp(sub, "stop") == 0 && argc == 2) {
        if (!t.running) {
            printf("tool: nothing is running\n");
            return CON_ERR;
        }
        fail("stopped from the console");
        return CON_OK;
    }
    if (strcmp(sub, "on") != 0) {
        printf("tool: expected status, on [-n ITERS] [-s SIZE] [--idle MS], off or stop\n");
        return CON_ERR;
    }
    uint32_t iters = QPX_TOOL_ITERS, size = QPX_TOOL_SIZE, idle = QPX_TOOL_IDLE_MS;
    bool size_given = false, iters_given = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) {
            printf("tool on: %s needs a value\n", a);
            return CON_ERR;
        }
        uint32_t v;
        if (strcmp(a, "-n") == 0) {
            if (con_parse_u32("tool on", "-n", argv[++i], &v) != 0) return CON_ERR;
            if (v < 1 || v > 1000000u) {
                printf("tool on: -n: expected 1..1000000 iterations, got %s\n", argv[i]);
                return CON_ERR;
            }
            iters = v;
            iters_given = true;
        } else if (strcmp(a, "-s") == 0) {
            if (con_parse_u32("tool on", "-s", argv[++i], &v) != 0) return CON_ERR;
            if (v < 1 || v > QPX_BUF_BYTES) {
                printf("tool on: -s: expected 1..%u bytes (the test buffer), got %s\n",
                       QPX_BUF_BYTES, argv[i]);
                return CON_ERR;
            }
            size = v;
            size_given = true;
        } else if (strcmp(a, "--idle") == 0) {
            if (con_parse_u32("tool on", "--idle", argv[++i], &v) != 0) return CON_ERR;
            if (v < 1 || v > IDLE_MS_MAX) {
                printf("tool on: --idle: expected 1..%u ms, got %s\n", IDLE_MS_MAX, argv[i]);
                return CON_ERR;
            }
            idle = v;
        } else {
            printf("tool on: unknown option '%s' (see 'help tool')\n", a);
            return CON_ERR;
        }
    }
    t.armed = true;
    t.iters = iters;
    t.size = size;
    t.size_given = size_given;
    t.iters_given = iters_given;
    t.idle_ms = idle;
    status();
    return CON_OK;
}

static void tool_help_more(void) {
    printf("  on: after each listen/connect, be the tool's peer (the data phase):\n");
    printf("    ibv_rc_pingpong server: echo each received message with a SEND;\n");
    printf("    ibv_rc_pingpong client: --chk's buffer, SEND -s bytes, wait for the echo;\n");
    printf("    perftest bw server: the transport serves the test; a summary at its end;\n");
    printf("    perftest bw client: -n WRITEs/READs/SENDs of -s bytes, the report to the peer;\n");
    printf("    write_lat/send_lat: ping-pong (write_lat watches its buffer's last byte);\n");
    printf("    read_lat / atomic_lat client: -n READs / FETCH_AND_ADDs one at a time. perftest runs print its table.\n");
    printf("    atomic_bw client: FETCH_AND_ADD (add 1) of 8 bytes, as ib_atomic_bw without -A.\n");
    printf("  -n ITERS (default %u) and -s SIZE (default %u; a server then accepts any size,\n",
           QPX_TOOL_ITERS, QPX_TOOL_SIZE);
    printf("  perftest uses its own defaults %u / %u) as the tool's; --idle MS (default %u,\n",
           PERFTEST_BW_SIZE, PERFTEST_LAT_SIZE, QPX_TOOL_IDLE_MS);
    printf("  simulated) ends a run without progress.\n");
    printf("  Each run prints one line: 'tool: ...: ok' or 'tool: ...: FAILED ...'.\n");
    printf("  off: exchange only (the default); stop: end a running loop.\n");
}
CON_COMMAND_MORE(tool, "[status|on [-n N] [-s SIZE] [--idle MS]|off|stop]",
                 "the NIC as the tools' peer after listen/connect (pingpong, perftest)", cmd_tool,
                 tool_help_more);
