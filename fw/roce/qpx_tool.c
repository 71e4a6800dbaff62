/*
 * The data phase after a QP exchange: the NIC as the peer of ibv_rc_pingpong
 * (server and client) and perftest (server). See qpx_tool.h. Completions are
 * filed by roce_poll (roce.c): a run watches its QP's counters (recv_done,
 * send_done, the error counts) and posts SENDs itself without waiting, so
 * the super-loop keeps running the network and the console meanwhile.
 */
#include "qpx_tool.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "roce_hw.h"
#include "timer.h"

#define WR_ID_TAG 0x71u    /* wr_id bits 63:56 of the SENDs posted here */
#define POST_WAIT_MS 1u    /* bound for a free send-queue slot */
#define IDLE_MS_MAX 600000u

enum { PENDING_RECV = 1, PENDING_SEND = 2 };

static struct {
    /* configuration ('tool on') */
    bool armed;
    uint32_t iters, size, idle_ms;
    bool size_given;
    /* the run */
    bool running;
    struct roce_qp *qp;
    uint32_t qpn;
    uint32_t lkey;
    uint64_t base;
    bool server;
    uint8_t tool;
    uint32_t peer_ip;
    uint32_t recv_base, send_base, rerr_base, serr_base; /* the QP's counters at the start */
    uint32_t rcnt, scnt, posted, echo_due;
    uint32_t echo_len[8]; /* server: lengths of receives not echoed yet (ring) */
    uint32_t echo_head;
    uint32_t len; /* client: bytes per SEND; server: the first message's */
    uint32_t pending;
    uint64_t seq;
    uint64_t t_begin, t_first, t_last, t_progress;
    /* the last run's outcome, for 'tool' */
    int result; /* 0 none yet, 1 ok, -1 failed */
} t = {.iters = QPX_TOOL_ITERS, .size = QPX_TOOL_SIZE, .idle_ms = QPX_TOOL_IDLE_MS};

static void ip_str(uint32_t ip, char out[16]) {
    snprintf(out, 16, "%u.%u.%u.%u", (unsigned)(ip >> 24), (unsigned)(ip >> 16 & 0xffu),
             (unsigned)(ip >> 8 & 0xffu), (unsigned)(ip & 0xffu));
}

static void who(void) {
    char b[16];
    ip_str(t.peer_ip, b);
    printf("tool: pingpong %s with %s: ", t.server ? "server" : "client", b);
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
    va_list ap;
    who();
    printf("FAILED after %lu of %lu iters: ", (unsigned long)(t.rcnt < t.scnt ? t.rcnt : t.scnt),
           (unsigned long)t.iters);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    t.running = false;
    t.result = -1;
}

/* The tool's own summary, in simulated time (the tool prints wall time). */
static void succeed(void) {
    uint64_t cyc = t.t_last > t.t_first ? t.t_last - t.t_first : 1;
    double us = (double)cyc * 1e6 / (double)tmr_clk_hz();
    unsigned long long bytes = (unsigned long long)t.len * t.iters * 2u;
    who();
    printf("%lu iters of %lu bytes: %llu bytes in %.1f us = %.2f Mbit/sec, %.2f usec/iter "
           "(simulated time): ok\n",
           (unsigned long)t.iters, (unsigned long)t.len, bytes, us, (double)bytes * 8.0 / us,
           us / (double)t.iters);
    t.running = false;
    t.result = 1;
}

void qpx_tool_end(const char *why) {
    if (t.running) fail("%s", why);
}

static bool qp_gone(void) {
    return !t.qp->used || t.qp->qpn != t.qpn || t.qp->ctx.state == ROCE_QPS_RESET;
}

static int post_send(uint32_t len) {
    struct roce_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.opcode = ROCE_WR_SEND;
    wr.flags = 1u; /* signaled */
    wr.qpn = t.qpn;
    wr.laddr = t.base;
    wr.lkey = t.lkey;
    wr.len = len;
    wr.wr_id = (uint64_t)WR_ID_TAG << 56 | ++t.seq;
    int r = roce_hw_post_send(&wr, POST_WAIT_MS);
    if (r == -1) return 0; /* the queue is busy: try again on the next pass */
    if (r != 0) {
        fail("the transport refused the SEND (counted in sq_refused)");
        return -1;
    }
    if (t.posted++ == 0 && !t.server) t.t_first = tmr_cycles();
    return 1;
}

void qpx_tool_begin(struct roce_qp *qp, struct roce_mr *mr, const struct qpx_opts *o,
                    uint32_t peer_ip) {
    char b[16];
    if (!t.armed || !qp || !mr || o->dry) return;
    qpx_tool_end("a new session started");
    ip_str(peer_ip, b);
    if (o->tool == QPX_TOOL_PERFTEST) {
        /* the test is over when qpx.c calls: say what the QP saw */
        if (!o->server) {
            printf("tool: %s client with %s: no data phase (the NIC runs no perftest client "
                   "loop)\n",
                   qpx_test_name(o->test), b);
            return;
        }
        bool bad = qp->recv_errors || qp->send_errors;
        printf("tool: %s server with %s: receives %lu, send completions %lu, errors %lu: %s\n",
               qpx_test_name(o->test), b, (unsigned long)qp->recv_done,
               (unsigned long)qp->send_done,
               (unsigned long)(qp->recv_errors + qp->send_errors), bad ? "FAILED" : "ok");
        t.result = bad ? -1 : 1;
        return;
    }
    memset(&t.running, 0, sizeof t - offsetof(__typeof__(t), running));
    t.running = true;
    t.qp = qp;
    t.qpn = qp->qpn;
    t.lkey = mr->key;
    t.base = mr->base;
    t.server = o->server;
    t.tool = o->tool;
    t.peer_ip = peer_ip;
    t.recv_base = 0; /* a new QP: a receive that completed during the exchange counts */
    t.send_base = qp->send_done;
    t.rerr_base = qp->recv_errors;
    t.serr_base = qp->send_errors;
    t.len = t.server ? 0 : t.size;
    t.t_begin = t.t_progress = tmr_cycles();
    if (!t.server) {
        if (t.size > mr->len) {
            fail("SIZE %lu is larger than the test buffer", (unsigned long)t.size);
            return;
        }
        t.pending = PENDING_RECV | PENDING_SEND;
        if (post_send(t.size) <= 0 && t.running) t.pending = PENDING_RECV; /* retried below */
    }
}

static void poll_server(uint32_t recv_now, uint32_t send_now) {
    /* every receive completion: its length into the echo ring */
    while (t.rcnt < recv_now) {
        uint32_t len = t.qp->last_recv.byte_len; /* one message in flight: the last is this one */
        if (t.rcnt == 0) {
            t.t_first = tmr_cycles();
            t.len = len;
        }
        t.rcnt++;
        if (t.size_given && len != t.size) {
            fail("received %lu bytes, expected %lu (-s)", (unsigned long)len,
                 (unsigned long)t.size);
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
    if (t.rcnt >= t.iters && t.scnt >= t.iters) {
        t.t_last = tmr_cycles();
        succeed();
    }
}

static void poll_client(uint32_t recv_now, uint32_t send_now) {
    if (t.posted == 0) { /* the first SEND found the queue busy */
        int r = post_send(t.size);
        if (r <= 0) return;
        t.pending = PENDING_RECV | PENDING_SEND;
    }
    while (t.rcnt < recv_now) {
        uint32_t len = t.qp->last_recv.byte_len;
        t.rcnt++;
        t.pending &= ~(uint32_t)PENDING_RECV;
        if (len != t.size) {
            fail("the echo has %lu bytes, sent %lu", (unsigned long)len, (unsigned long)t.size);
            return;
        }
    }
    if (send_now > t.scnt) {
        t.scnt = send_now;
        t.pending &= ~(uint32_t)PENDING_SEND;
    }
    if (t.scnt < t.iters && t.pending == 0) {
        int r = post_send(t.size);
        if (r < 0) return;
        if (r > 0) t.pending = PENDING_RECV | PENDING_SEND;
    }
    if (t.rcnt >= t.iters && t.scnt >= t.iters) {
        t.t_last = tmr_cycles();
        succeed();
    }
}

void qpx_tool_poll(void) {
    if (!t.running) return;
    if (qp_gone()) {
        fail("QP 0x%lx was reset", (unsigned long)t.qpn);
        return;
    }
    struct roce_qp *qp = t.qp;
    if (qp->recv_errors != t.rerr_base || qp->send_errors != t.serr_base) {
        bool r = qp->recv_errors != t.rerr_base;
        fail("%s completion with %s", r ? "a receive" : "a SEND",
             r ? roce_wc_status_name(qp->last_recv.status) : "an error status");
        return;
    }
    uint32_t recv_now = qp->recv_done - t.recv_base, send_now = qp->send_done - t.send_base;
    bool progress = recv_now != t.rcnt || send_now != t.scnt;
    if (t.server)
        poll_server(recv_now, send_now);
    else
        poll_client(recv_now, send_now);
    if (!t.running) return;
    uint64_t now = tmr_cycles();
    if (progress) {
        t.t_progress = now;
    } else if (now - t.t_progress > tmr_ms_to_cycles(t.idle_ms)) {
        fail("no progress for %lu ms (simulated)", (unsigned long)t.idle_ms);
    }
}

/* ---- console: tool [status] | tool on [-n ITERS] [-s SIZE] [--idle MS] | tool off | tool stop */

static void status(void) {
    printf("tool: %s", t.armed ? "on" : "off");
    if (t.armed)
        printf(" (pingpong -n %lu -s %lu%s, idle bound %lu ms)", (unsigned long)t.iters,
               (unsigned long)t.size, t.size_given ? "" : " by default: a server echoes any size",
               (unsigned long)t.idle_ms);
    printf("\n");
    if (t.running) {
        who();
        printf("running, %lu received, %lu sent of %lu iters\n", (unsigned long)t.rcnt,
               (unsigned long)t.scnt, (unsigned long)t.iters);
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
    bool size_given = false;
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
    t.idle_ms = idle;
    status();
    return CON_OK;
}

static void tool_help_more(void) {
    printf("  on: after each listen/connect, be the tool's peer (the data phase):\n");
    printf("    ibv_rc_pingpong server: echo each received message with a SEND;\n");
    printf("    ibv_rc_pingpong client: SEND -s bytes from the test buffer, wait for the echo;\n");
    printf("    perftest server: the transport serves the test; a summary at its end.\n");
    printf("  -n ITERS (default %u) and -s SIZE (default %u; a server then accepts any size)\n",
           QPX_TOOL_ITERS, QPX_TOOL_SIZE);
    printf("  as the tool's; --idle MS (default %u, simulated) ends a run without progress.\n",
           QPX_TOOL_IDLE_MS);
    printf("  Each run prints one line: 'tool: ...: ok' or 'tool: ...: FAILED ...'.\n");
    printf("  off: exchange only (the default); stop: end a running loop.\n");
}
CON_COMMAND_MORE(tool, "[status|on [-n N] [-s SIZE] [--idle MS]|off|stop]",
                 "the NIC as the tools' peer after listen/connect (pingpong loop)", cmd_tool,
                 tool_help_more);
