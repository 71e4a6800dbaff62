/*
 * QP exchange commands: listen, connect, qpx (fw/roce/qpx.c does the work).
 * listen and connect return when the exchange is over (pingpong) or the QP
 * is ready for the test (perftest), when it failed, or on Ctrl-C; every step
 * is bounded by a simulated-time timeout. With --bg they return at once and
 * the session runs on from the super-loop (several at once: qpx.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "console.h"
#include "net.h"
#include "roce/cm.h"
#include "roce/qpx.h"
#include "roce/qpx_tool.h"
#include "roce/roce.h"
#include "timer.h"

#define STEP_MS_MAX 10000u
#define WAIT_MS_MAX 600000u
#define IDLE_MS_MAX 3600000u

static bool opt_bg; /* --bg: the command returns while its session runs on */

/* [--tool pingpong|perftest] [--test NAME] [--timeout MS] [--wait MS] [--idle MS] [--dry]
   from argv[first]. */
/* --mtu BYTES: 256..4096, a power of two; *enc = the IB encoding (1..5). */
static int mtu_of_bytes(const char *cmd, uint32_t bytes, const char *s, uint32_t *enc) {
    for (uint32_t e = 1; e <= ROCE_MAX_PMTU; e++) {
        if (bytes == 128u << e) {
            *enc = e;
            return 0;
        }
    }
    printf("%s: --mtu: expected 256, 512, 1024, 2048 or 4096, got %s\n", cmd, s);
    return -1;
}

static int parse_mtu(const char *cmd, const char *s, uint32_t *enc) {
    uint32_t bytes;
    if (con_parse_u32(cmd, "--mtu", s, &bytes) != 0) return -1;
    return mtu_of_bytes(cmd, bytes, s, enc);
}

static int parse_opts(const char *cmd, int argc, char **argv, int first, struct qpx_opts *o) {
    bool tool_given = false, test_given = false;
    o->tool = QPX_TOOL_PINGPONG;
    o->test = QPX_WRITE_BW;
    o->step_ms = QPX_STEP_MS;
    o->wait_ms = QPX_WAIT_MS;
    o->idle_ms = QPX_IDLE_MS;
    o->mtu = 0;
    o->nqp = 1;
    o->dry = false;
    o->rdma_cm = false;
    o->atomic = QPX_FETCH_AND_ADD;
    o->port = 0;
    o->recv_ring = false;
    opt_bg = false;
    bool atomic_given = false;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        bool has_value =
            strcmp(a, "--tool") == 0 || strcmp(a, "--test") == 0 || strcmp(a, "--timeout") == 0 ||
            strcmp(a, "--wait") == 0 || strcmp(a, "--idle") == 0 || strcmp(a, "--mtu") == 0 ||
            strcmp(a, "--qps") == 0 || strcmp(a, "--atomic") == 0 || strcmp(a, "--port") == 0;
        if (has_value && i + 1 >= argc) {
            printf("%s: %s needs a value\n", cmd, a);
            return -1;
        }
        if (strcmp(a, "--tool") == 0) {
            const char *v = argv[++i];
            if (strcmp(v, "pingpong") == 0)
                o->tool = QPX_TOOL_PINGPONG;
            else if (strcmp(v, "perftest") == 0)
                o->tool = QPX_TOOL_PERFTEST;
            else {
                printf("%s: --tool: expected pingpong or perftest, got '%s'\n", cmd, v);
                return -1;
            }
            tool_given = true;
        } else if (strcmp(a, "--test") == 0) {
            const char *v = argv[++i];
            int t = qpx_test_parse(v);
            if (t < 0) {
                printf("%s: --test: expected write_bw, read_bw, send_bw, atomic_bw, write_lat, "
                       "read_lat, send_lat or atomic_lat, got '%s'\n",
                       cmd, v);
                return -1;
            }
            o->test = (uint8_t)t;
            test_given = true;
        } else if (strcmp(a, "--timeout") == 0 || strcmp(a, "--wait") == 0 ||
                   strcmp(a, "--idle") == 0) {
            uint32_t *to = a[2] == 't' ? &o->step_ms : a[2] == 'w' ? &o->wait_ms : &o->idle_ms;
            uint32_t v, max = a[2] == 't' ? STEP_MS_MAX : a[2] == 'w' ? WAIT_MS_MAX : IDLE_MS_MAX;
            if (con_parse_u32(cmd, a, argv[++i], &v) != 0) return -1;
            if (v < 1 || v > max) {
                printf("%s: %s: expected 1..%lu ms, got %s\n", cmd, a, (unsigned long)max, argv[i]);
                return -1;
            }
            *to = v;
        } else if (strcmp(a, "--port") == 0) {
            uint32_t v;
            if (con_parse_u32(cmd, a, argv[++i], &v) != 0) return -1;
            if (v < 1 || v > 65535) {
                printf("%s: --port: expected 1..65535, got %s\n", cmd, argv[i]);
                return -1;
            }
            o->port = (uint16_t)v;
        } else if (strcmp(a, "--bg") == 0) {
            opt_bg = true;
        } else if (strcmp(a, "--qps") == 0) {
            uint32_t v;
            if (con_parse_u32(cmd, a, argv[++i], &v) != 0) return -1;
            if (v < 1 || v > QPX_MAX_QPS) {
                printf("%s: --qps: expected 1..%u, got %s\n", cmd, QPX_MAX_QPS, argv[i]);
                return -1;
            }
            o->nqp = (uint8_t)v;
        } else if (strcmp(a, "--atomic") == 0) {
            /* perftest's -A spelling, or in lower case */
            const char *v = argv[++i];
            if (strcasecmp(v, "FETCH_AND_ADD") == 0)
                o->atomic = QPX_FETCH_AND_ADD;
            else if (strcasecmp(v, "CMP_AND_SWAP") == 0)
                o->atomic = QPX_CMP_AND_SWAP;
            else {
                printf("%s: --atomic: expected CMP_AND_SWAP or FETCH_AND_ADD (perftest's -A), got "
                       "'%s'\n", cmd, v);
                return -1;
            }
            atomic_given = true;
        } else if (strcmp(a, "--mtu") == 0) {
            uint32_t enc;
            if (parse_mtu(cmd, argv[++i], &enc) != 0) return -1;
            o->mtu = (uint8_t)enc;
        } else if (strcmp(a, "--dry") == 0) {
            o->dry = true;
        } else if (strcmp(a, "--recv-ring") == 0) {
            o->recv_ring = true;
        } else if (strcmp(a, "--rdma-cm") == 0) {
            o->rdma_cm = true;
        } else {
            printf("%s: unknown option '%s' (see 'help %s')\n", cmd, a, cmd);
            return -1;
        }
    }
    if ((test_given || o->rdma_cm) && !tool_given) o->tool = QPX_TOOL_PERFTEST;
    if (o->rdma_cm && o->tool != QPX_TOOL_PERFTEST) {
        printf("%s: --rdma-cm is perftest's -R (ibv_rc_pingpong has no RDMA CM mode; for "
               "librdmacm's tools use --cm)\n", cmd);
        return -1;
    }
    if (o->rdma_cm && o->dry) {
        printf("%s: --rdma-cm connects real QPs: not with --dry\n", cmd);
        return -1;
    }
    if (o->rdma_cm && o->nqp >= CM_MAX_CONNS) {
        printf("%s: --qps %u with --rdma-cm: at most %u (%u RDMA CM connections, one of them "
               "the exchange's)\n", cmd, o->nqp, CM_MAX_CONNS - 1, CM_MAX_CONNS);
        return -1;
    }
    if (atomic_given && o->test != QPX_ATOMIC_BW && o->test != QPX_ATOMIC_LAT) {
        printf("%s: --atomic is for --test atomic_bw or atomic_lat\n", cmd);
        return -1;
    }
    if (o->recv_ring && (o->tool != QPX_TOOL_PINGPONG || o->dry)) {
        printf("%s: --recv-ring is for the pingpong exchange's QP (perftest's tools count the NIC's "
               "receives one by one)\n", cmd);
        return -1;
    }
    if (test_given && o->tool == QPX_TOOL_PINGPONG) {
        printf("%s: --test is a perftest option (ibv_rc_pingpong has no tests to choose)\n", cmd);
        return -1;
    }
    if (o->nqp > 1 && (o->tool != QPX_TOOL_PERFTEST || !qpx_test_is_bw(o->test))) {
        printf("%s: --qps is for perftest's bandwidth tests (write_bw, read_bw, send_bw, atomic_bw): "
               "ibv_rc_pingpong and the latency tests use one QP\n", cmd);
        return -1;
    }
    return 0;
}

/* Run session id until it needs no more waiting here; Ctrl-C stops it. The others run on. */
static int wait_session(uint32_t id) {
    /* with 'tool on' the NIC's side of a perftest test runs here too (qpx_tool.c) */
    while (qpx_phase(id) == QPX_RUNNING || qpx_phase(id) == QPX_ENDING || qpx_tool_active()) {
        net_poll();
        roce_poll();
        qpx_poll();
        qpx_tool_poll();
        cm_poll();
        if (con_interrupted()) {
            printf("^C\n");
            if (qpx_tool_active()) qpx_tool_end("interrupted (Ctrl-C)");
            if (qpx_phase(id) != QPX_IDLE) qpx_abort(id, "interrupted (Ctrl-C)");
            return CON_ERR;
        }
    }
    return qpx_result(id) == 0 ? CON_OK : CON_ERR;
}

static int start(const char *cmd, struct qpx_opts *o) {
    if (!o->dry && roce_need(cmd) != 0) return CON_ERR;
    if (!net_netif()) {
        printf("%s: no management port (%s)\n", cmd, net_absent_reason());
        return CON_ERR;
    }
    const char *err;
    bool bg = opt_bg;
    int id = qpx_start(o, &err);
    if (id < 0) {
        printf("%s: %s\n", cmd, err);
        return CON_ERR;
    }
    if (bg) {
        printf("%s: session %d runs on ('qpx' shows it, 'qpx abort %d' ends it)\n", cmd, id, id);
        return CON_OK;
    }
    return wait_session((uint32_t)id);
}

/* listen --cm: wait for the connection (bounded by --wait while nobody asks), then for the
   tool's run on it; Ctrl-C stops both. */
static int wait_cm(uint16_t port, uint32_t wait_ms) {
    uint64_t deadline = tmr_cycles() + tmr_ms_to_cycles(wait_ms);
    while (cm_listen_pending() || qpx_tool_active()) {
        net_poll();
        roce_poll();
        qpx_poll();
        qpx_tool_poll();
        cm_poll();
        if (con_interrupted()) {
            printf("^C\n");
            if (qpx_tool_active()) qpx_tool_end("interrupted (Ctrl-C)");
            if (cm_listen_pending()) cm_unlisten();
            return CON_ERR;
        }
        if (cm_listen_result() == 0 && tmr_cycles() >= deadline) {
            cm_unlisten();
            printf("listen: no RDMA CM connection on port %u within %lu ms\n", port,
                   (unsigned long)wait_ms);
            return CON_ERR;
        }
    }
    if (cm_listen_result() == 1) return CON_OK;
    cm_unlisten();
    printf("listen: no connection was established on port %u (see the cm: lines)\n", port);
    return CON_ERR;
}

/* --cm's arguments after the command's own: [PORT] [--wait MS] (listen) [--mtu BYTES]
   [--tool echo|rping] (rping: PORT defaults to rping's 7174) */
struct cm_args {
    uint32_t port, wait, mtu;
    uint8_t tool;
};

static int parse_cm_args(const char *cmd, int argc, char **argv, int i, bool listen,
                         struct cm_args *c) {
    const char *usage = listen ? "--cm [PORT] [--wait MS] [--mtu BYTES] [--tool echo|rping]"
                               : "--cm IP [PORT] [--mtu BYTES] [--tool echo|rping]";
    bool port_given = false;
    c->port = CM_DEFAULT_PORT;
    c->wait = CM_WAIT_MS;
    c->mtu = 0;
    c->tool = QPX_TOOL_PINGPONG;
    if (i < argc && strncmp(argv[i], "--", 2) != 0) {
        if (con_parse_u32(cmd, "PORT", argv[i], &c->port) != 0) return -1;
        if (c->port < 1 || c->port > 65535) {
            printf("%s: --cm PORT: expected 1..65535, got %s\n", cmd, argv[i]);
            return -1;
        }
        port_given = true;
        i++;
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        bool known = strcmp(a, "--mtu") == 0 || strcmp(a, "--tool") == 0 ||
                     (listen && strcmp(a, "--wait") == 0);
        if (!known) {
            printf("%s: %s is not an option of --cm (%s%s)\n", cmd, a, usage,
                   listen ? "; the others are the TCP exchange's" : "");
            return -1;
        }
        if (i + 1 >= argc) {
            printf("%s: %s needs a value\n", cmd, a);
            return -1;
        }
        const char *v = argv[++i];
        if (strcmp(a, "--tool") == 0) {
            if (strcmp(v, "echo") == 0) {
                c->tool = QPX_TOOL_PINGPONG;
            } else if (strcmp(v, "rping") == 0) {
                c->tool = QPX_TOOL_RPING;
            } else {
                printf("%s: --cm --tool: expected echo (rdma_client/rdma_server) or rping, got "
                       "'%s'\n", cmd, v);
                return -1;
            }
        } else if (strcmp(a, "--mtu") == 0) {
            if (parse_mtu(cmd, v, &c->mtu) != 0) return -1;
        } else {
            if (con_parse_u32(cmd, a, v, &c->wait) != 0) return -1;
            if (c->wait < 1 || c->wait > WAIT_MS_MAX) {
                printf("%s: --wait: expected 1..%lu ms, got %s\n", cmd, (unsigned long)WAIT_MS_MAX,
                       v);
                return -1;
            }
        }
    }
    if (!port_given && c->tool == QPX_TOOL_RPING) c->port = CM_RPING_PORT;
    return 0;
}

/* listen --cm [PORT] [--wait MS] [--mtu BYTES] [--tool echo|rping] */
static int listen_cm(int argc, char **argv) {
    struct cm_args c;
    if (parse_cm_args("listen", argc, argv, 2, true, &c) != 0) return CON_ERR;
    if (roce_need("listen") != 0) return CON_ERR;
    if (!net_netif()) {
        printf("listen: no management port (%s)\n", net_absent_reason());
        return CON_ERR;
    }
    const char *err;
    if (cm_listen((uint16_t)c.port, (uint8_t)c.mtu, c.tool, 1, &err) != 0) {
        printf("listen: %s\n", err);
        return CON_ERR;
    }
    printf("listen: RDMA CM on port %lu (service ID 0x%016llx), waiting %lu ms\n",
           (unsigned long)c.port, (unsigned long long)(0x01060000ull | c.port),
           (unsigned long)c.wait);
    return wait_cm((uint16_t)c.port, c.wait);
}

static int cmd_listen(int argc, char **argv) {
    struct qpx_opts o;
    memset(&o, 0, sizeof o);
    if (argc >= 2 && strcmp(argv[1], "--cm") == 0) return listen_cm(argc, argv);
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--cm") == 0) {
            printf("listen: --cm comes first (listen --cm [PORT] [--wait MS] [--mtu BYTES])\n");
            return CON_ERR;
        }
    if (parse_opts("listen", argc, argv, 1, &o) != 0) return CON_ERR;
    o.server = true;
    return start("listen", &o);
}

static void opts_help(void) {
    printf("  --tool pingpong|perftest  the exchange format (default pingpong: ibv_rc_pingpong)\n");
    printf("  --test write_bw|read_bw|send_bw|atomic_bw|write_lat|read_lat|send_lat|atomic_lat\n");
    printf("                            perftest's test (implies --tool perftest)\n");
    printf("  --atomic CMP_AND_SWAP|FETCH_AND_ADD\n");
    printf("                            perftest's -A: what the NIC's atomic client posts with\n");
    printf("                            'tool on' (default FETCH_AND_ADD, adding 1; CMP_AND_SWAP\n");
    printf("                            compares with 0 and swaps in 0, as perftest's)\n");
    printf("  --timeout MS              per-step timeout, simulated ms (default %u)\n",
           QPX_STEP_MS);
    printf("  --dry                     exchange only: no QP is created or programmed\n");
    printf("  --recv-ring               pingpong: the transport keeps the QP's receive queue\n");
    printf("                            full itself (a recycling ring; line-rate SENDs; its\n");
    printf("                            completions counted in stats gen_recv_done)\n");
    printf("  --port P                  the exchange's TCP port (default 18515): each session\n");
    printf("                            listens on its own (up to %u sessions at once)\n",
           QPX_SESSIONS);
    printf("  --bg                      return at once: the session runs on, its lines come\n");
    printf("                            as they happen ('qpx' lists the sessions)\n");
    printf("  --qps N                   perftest -q N: N QPs (1..%u), each with its part of\n",
           QPX_MAX_QPS);
    printf("                            the test buffer (bandwidth tests)\n");
    printf("  --mtu BYTES               the QP's path MTU, 256..4096 (default: 1024 with\n");
    printf("                            pingpong, as ibv_rc_pingpong's -m; perftest offers 4096\n");
    printf("                            and takes the peer's offer if smaller, as perftest does)\n");
    printf("  --rdma-cm                 perftest -R: the QPs connect through RDMA CM on port\n");
    printf("                            18515 (implies --tool perftest; --qps up to %u)\n",
           CM_MAX_CONNS - 1);
    printf("  TCP port 18515; the QP gets an MR over the test buffer 0x%x + 0x%x, whose rkey\n",
           QPX_BUF_BASE, QPX_BUF_BYTES);
    printf("  and address are sent.\n");
}

static void listen_help_more(void) {
    printf("  --cm [PORT]               RDMA CM instead (librdmacm clients: rdma_client, ...):\n");
    printf("                            answer one connection request on PORT (default\n");
    printf("                            %u) with a QP; with 'tool on' each SEND is echoed.\n",
           CM_DEFAULT_PORT);
    printf("                            Options then: --wait MS, --mtu BYTES (the largest path\n");
    printf("                            MTU accepted; the REQ's otherwise), --tool rping (the\n");
    printf("                            NIC is rping's server: READ, WRITE; PORT default %u)\n",
           CM_RPING_PORT);
    printf("  --wait MS                 how long to wait for a client (default %u)\n",
           QPX_WAIT_MS);
    printf("  --idle MS                 end the test when the peer sends no TCP byte and no\n");
    printf("                            RoCE packet this long (default %u): its QP and the\n",
           QPX_IDLE_MS);
    printf("                            port are free again\n");
    opts_help();
}
CON_COMMAND_MORE(listen, "[--cm [PORT]] [OPTIONS]",
                 "serve one QP exchange on TCP port 18515 (ibv_rc_pingpong or perftest) or RDMA CM",
                 cmd_listen, listen_help_more);

/* connect --cm IP [PORT] [--mtu BYTES] [--tool echo|rping]: until established (and the
   tool's run on it) */
static int connect_cm(int argc, char **argv) {
    uint32_t ip;
    struct cm_args c;
    if (argc < 3) {
        printf("connect: --cm: expected IP [PORT] [--mtu BYTES] [--tool echo|rping]\n");
        return CON_ERR;
    }
    if (con_parse_ip4("connect", "IP", argv[2], &ip) != 0) return CON_ERR;
    if (parse_cm_args("connect", argc, argv, 3, false, &c) != 0) return CON_ERR;
    if (roce_need("connect") != 0) return CON_ERR;
    if (!net_netif()) {
        printf("connect: no management port (%s)\n", net_absent_reason());
        return CON_ERR;
    }
    const char *err;
    if (cm_connect(ip, (uint16_t)c.port, (uint8_t)c.mtu, c.tool, &err) != 0) {
        printf("connect: %s\n", err);
        return CON_ERR;
    }
    /* bounded by the ARP wait and the REQ's retries (cm.c), then by the tool's idle bound */
    while (cm_connect_result() == 0 || qpx_tool_active()) {
        net_poll();
        roce_poll();
        qpx_poll();
        qpx_tool_poll();
        cm_poll();
        if (con_interrupted()) {
            printf("^C\n");
            if (qpx_tool_active()) qpx_tool_end("interrupted (Ctrl-C)");
            cm_connect_abort("interrupted (Ctrl-C)");
            return CON_ERR;
        }
    }
    return cm_connect_result() == 1 ? CON_OK : CON_ERR;
}

static int cmd_connect(int argc, char **argv) {
    struct qpx_opts o;
    memset(&o, 0, sizeof o);
    if (argc >= 2 && strcmp(argv[1], "--cm") == 0) return connect_cm(argc, argv);
    if (argc < 2) {
        printf("connect: expected IP [options] (see 'help connect')\n");
        return CON_ERR;
    }
    if (con_parse_ip4("connect", "IP", argv[1], &o.peer_ip) != 0) return CON_ERR;
    if (parse_opts("connect", argc, argv, 2, &o) != 0) return CON_ERR;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--wait") == 0 || strcmp(argv[i], "--idle") == 0) {
            printf("connect: %s is a listen option\n", argv[i]);
            return CON_ERR;
        }
    }
    o.server = false;
    return start("connect", &o);
}

static void connect_help_more(void) {
    printf("  --cm IP [PORT]            RDMA CM instead (a librdmacm server: rdma_server,\n");
    printf("                            ...): connect to PORT (default %u) with a new QP;\n",
           CM_DEFAULT_PORT);
    printf("                            with 'tool on' SEND -s bytes and wait for the echo.\n");
    printf("                            Options then: --mtu BYTES (the path MTU asked for,\n");
    printf("                            default 1024), --tool rping (rping's client: -n pings\n");
    printf("                            of -s bytes, default 64, checked; PORT default %u)\n",
           CM_RPING_PORT);
    opts_help();
}
CON_COMMAND_MORE(connect, "IP [OPTIONS] | --cm IP [PORT]",
                 "run one QP exchange with the server at IP (ibv_rc_pingpong or perftest)",
                 cmd_connect, connect_help_more);

/* qpx disconnect [QPN]: an RDMA CM connection's DREQ, waiting (bounded) for the DREP */
static int qpx_disconnect(const char *qpn_s) {
    uint32_t qpn = 0;
    const char *err;
    if (qpn_s && con_parse_u32("qpx disconnect", "QPN", qpn_s, &qpn) != 0) return CON_ERR;
    if (qpn_s && qpn == 0) {
        printf("qpx disconnect: QPN: expected a QP number like 0x11, got %s\n", qpn_s);
        return CON_ERR;
    }
    if (cm_disconnect(qpn, &err) != 0) {
        printf("qpx disconnect: %s\n", err);
        return CON_ERR;
    }
    while (cm_disconnect_pending()) { /* bounded: the DREQ's retries (cm.c) */
        net_poll();
        roce_poll();
        qpx_poll();
        qpx_tool_poll();
        cm_poll();
    }
    return CON_OK;
}

static int cmd_qpx(int argc, char **argv) {
    const char *sub = argc >= 2 ? argv[1] : "status";
    if (argc > 3) {
        printf("qpx: too many arguments (status, finish, abort or disconnect [QPN])\n");
        return CON_ERR;
    }
    uint32_t id = 0, got;
    const char *err;
    bool by_id = strcmp(sub, "abort") == 0 || strcmp(sub, "finish") == 0;
    if (argc > 2 && !by_id) {
        if (strcmp(sub, "disconnect") == 0 && argc == 3) return qpx_disconnect(argv[2]);
        printf("qpx: too many arguments (status, finish, abort or disconnect [QPN])\n");
        return CON_ERR;
    }
    if (argc == 3 && con_parse_u32("qpx", "ID", argv[2], &id) != 0) return CON_ERR;
    if (argc == 3 && id == 0) {
        printf("qpx: ID: expected 1..%u (see 'qpx'), got %s\n", QPX_SESSIONS, argv[2]);
        return CON_ERR;
    }
    if (strcmp(sub, "status") == 0) {
        qpx_status_print();
        cm_status_print();
        return CON_OK;
    }
    if (strcmp(sub, "abort") == 0) {
        if (qpx_pick(id, &got, &err) != 0) {
            printf("qpx: %s\n", err);
            return CON_ERR;
        }
        qpx_abort(got, "aborted from the console");
        return CON_OK;
    }
    if (strcmp(sub, "finish") == 0) {
        uint32_t ids[QPX_SESSIONS];
        got = 0; /* no session at all: qpx_finish says that none waits */
        if ((id || qpx_sessions(ids) > 0) && qpx_pick(id, &got, &err) != 0) {
            printf("qpx: %s\n", err);
            return CON_ERR;
        }
        if (qpx_finish(got, &err) != 0) {
            printf("qpx: %s\n", err);
            return CON_ERR;
        }
        return wait_session(got);
    }
    if (strcmp(sub, "disconnect") == 0) return qpx_disconnect(NULL);
    printf("qpx: unknown subcommand '%s' (status, finish, abort, disconnect [QPN])\n", sub);
    return CON_ERR;
}

static void qpx_help_more(void) {
    printf("  status (default): the exchange sessions; finish [ID]: a perftest client's end of\n");
    printf("  the test (barrier, bw report, barrier, done); abort [ID]: close it, its QPs to\n");
    printf("  RESET. ID: which session (default: the only one running; up to %u at once).\n",
           QPX_SESSIONS);
    printf("  status also lists the RDMA CM listener and connections (listen/connect --cm);\n");
    printf("  disconnect [QPN]: end an RDMA CM connection with a DREQ (QPN: which one, when\n");
    printf("  several are established), waiting for the DREP.\n");
}
CON_COMMAND_MORE(qpx, "[status|finish [ID]|abort [ID]|disconnect [QPN]]",
                 "the QP exchange session of listen/connect, RDMA CM connections", cmd_qpx,
                 qpx_help_more);
