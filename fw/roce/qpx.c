/*
 * The QP exchange session (see qpx.h): a list of steps built from the tool,
 * the test and the role, run one at a time from qpx_poll. Each step sends one
 * item, receives one item (strictly decoded by qpx_msg.c), programs the QP,
 * pauses for the test or closes. A receive step waits at most step_ms of
 * simulated time. Nothing waits on an lwIP timer: Nagle is off and every
 * write and every receive is followed by tcp_output.
 */
#include "qpx.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <solonic_regs.h>

#include "cm.h"
#include "lwip/etharp.h"
#include "lwip/tcp.h"
#include "net.h"
#include "qpx_mem.h"
#include "qpx_msg.h"
#include "qpx_tool.h"
#include "roce.h"
#include "timer.h"
#include "noinit.h"

enum step_kind { SK_SEND, SK_RECV, SK_PROGRAM, SK_PAUSE, SK_CLOSE, SK_CM_WAIT, SK_CM_CONNECT };
enum item { IT_PP_DEST, IT_PT_VERSION, IT_PT_CYCLE, IT_PT_CACHE, IT_PT_MTU, IT_PT_DEST, IT_PT_REPORT,
            IT_DONE, IT_PT_SYNC, IT_NONE };

static const uint8_t item_len[] = {QPX_PP_DEST_LEN, QPX_PT_VERSION_LEN, QPX_PT_U32_LEN,
                                   QPX_PT_U32_LEN,  QPX_PT_MTU_LEN,     QPX_PT_DEST_LEN,
                                   QPX_PT_REPORT_LEN, QPX_DONE_LEN,     QPX_PT_BDEST_LEN};
static const char *const item_name[] = {
    "pingpong destination", "perftest version",     "perftest cycle buffer size",
    "perftest cache line size", "perftest MTU",     "perftest destination",
    "perftest report item", "\"done\"",           "perftest -R barrier (an empty destination)"};

#define CM_CONNECT_TRIES 10u  /* perftest -R's client: connect again after a REJ, */
#define CM_CONNECT_GAP_MS 1u  /* this long after it (simulated) */
#define COMM_TX (QPX_BUF_BYTES - 4096u) /* perftest -R: our SENDs on the exchange QP, from here */
#define COMM_TX_SLOTS 4u                /* 64 bytes each, in turn */

struct step {
    uint8_t kind, item, qp; /* qp: which of the session's QPs a destination item is about */
    bool extra;             /* the barrier only lat tests and send_bw exchange before the test */
    bool cm_listen;         /* perftest -R server: listen for the test's RDMA CM connections
                               before this send (the client's REQs follow it) */
};

/* A session's steps: at most STEPS_FIXED besides 4 for each QP (perftest -q N: each QP's
   destination twice, both ways) */
#define STEPS_FIXED 40u
#define STEPS_OF(nqp) (STEPS_FIXED + 4u * (nqp))
#define CLOSE_WAIT_MS 2u /* a perftest server waits this long for the client to close first */
#define RX_MAX 256       /* more than any item; a peer that sends more without waiting is wrong */

static const char *const test_names[QPX_NTESTS] = {"write_bw",  "read_bw",   "send_bw",
                                                   "write_lat", "read_lat",  "send_lat",
                                                   "atomic_bw", "atomic_lat"};

/*
 * The per-QP records of every session come from one pool with as many entries as a session
 * may have QPs (the transport's QPNs but 0 and 1): the sessions together cannot use more QPs
 * than the transport has. A session holds a run of consecutive entries (first-fit), and its
 * steps a run of the step pool (room for every session's fixed steps and 4 per pool entry).
 * A finished session keeps its entries while it holds QPs it left for the console.
 */
#define STEP_POOL (QPX_SESSIONS * STEPS_FIXED + 4u * QPX_MAX_QPS)
static struct roce_qp *pool_qp[QPX_MAX_QPS], *pool_last_qp[QPX_MAX_QPS];
static uint32_t pool_last_qpn[QPX_MAX_QPS], pool_cm_peer_qpn[QPX_MAX_QPS];
/* pool_me is cleared when a run takes its slots (below), so start-up need not */
NOINIT(qpx_pool_me) static struct qpx_dest pool_me[QPX_MAX_QPS];
static struct qpx_dest pool_peer[QPX_MAX_QPS];
static bool pool_have_peer[QPX_MAX_QPS];
static struct roce_mr *pool_cm_mr[QPX_MAX_QPS];
static uint8_t qp_owner[QPX_MAX_QPS]; /* the holding session's ID, 0 free */
static struct step step_pool[STEP_POOL];
static uint8_t step_owner[STEP_POOL];

struct session {
    uint8_t id;    /* 1..QPX_SESSIONS: the console's name for it */
    uint16_t port; /* the exchange's TCP port (perftest -R: RDMA CM's) */
    uint64_t buf;  /* its test buffer: QPX_BUF_BYTES from here */
    uint32_t seq;  /* start order: the newest session is bench's default */
    uint32_t pool_at, pool_n, step_at, step_n; /* its runs of the pools */
    uint32_t refused;                          /* clients refused while it had one */
    enum qpx_phase phase;
    int result;
    struct qpx_opts o;
    struct step *steps;
    uint32_t nsteps, cur;
    bool step_started, finish_requested;
    uint64_t deadline;
    struct tcp_pcb *lpcb, *pcb;
    bool connected, peer_closed, reset;
    err_t reset_err;
    uint8_t rx[RX_MAX];
    uint32_t rxlen;
    bool rx_overflow;
    struct roce_qp **qp, **last_qp;
    uint32_t nqp, nlast; /* the session's QPs (qp[0..nqp)), the ones it left (last_qp) */
    struct roce_mr *mr, *last_mr;
    uint32_t *last_qpn, last_key;
    struct qpx_dest *me, *peer;
    bool *have_peer, arp_asked;
    uint32_t peer_ip, mtu_enum;
    uint8_t mac[6];
    uint32_t reports_out, reports_in;
    uint8_t peer_report[QPX_PT_REPORT_ITEMS][QPX_PT_REPORT_LEN];
    uint64_t t_start, t_conn; /* cycles: qpx_start, the client's connection accepted */
    bool buf_known;           /* the peer's buffer of QP buf_qpn (perftest carries it) */
    uint32_t buf_qpn, buf_rkey;
    uint64_t buf_vaddr;
    uint64_t
        idle_until; /* server during the test: cycles; renewed by any TCP byte or RoCE packet */
    uint32_t rx_packets; /* the transport's rx_packets when idle_until was last renewed */
    uint32_t pk_ready;   /* the transport's rx_packets once the QPs were programmed */
    /* perftest -R: the exchange goes in SENDs over an RDMA CM connection's QP (comm), the
       test's QPs and MRs are RDMA CM connections' too (cm.c owns them all) */
    struct roce_qp *comm;
    struct roce_mr *comm_mr;
    uint32_t comm_qpn, comm_rx, comm_tx;
    struct roce_mr **cm_mr;
    uint32_t *cm_peer_qpn;
    uint32_t cm_done, cm_tries; /* client: connections established, tries of the current one */
    bool cm_busy, cm_listening;
    uint64_t cm_retry_at;
};

static struct session sessions[QPX_SESSIONS];
static struct session *s = &sessions[0]; /* the one being run (every entry point sets it) */
static uint32_t seq_next;

static bool active(const struct session *x) {
    return x->phase != QPX_IDLE;
}

static uint32_t nactive(void) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < QPX_SESSIONS; i++)
        n += active(&sessions[i]);
    return n;
}

/* Lines carry the session's ID while more than one runs ("qpx 2: "), else "qpx: " as with
   one session (the commands then act on it without an ID). */
static const char *tag(void) {
    static char b[12];
    if (nactive() <= 1) return "qpx: ";
    snprintf(b, sizeof b, "qpx %u: ", s->id);
    return b;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
    va_list ap;
    printf("%s", tag());
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

/* n consecutive free entries of owner[0..size) for session id: their first, or -1. */
static int run_take(uint8_t *owner, uint32_t size, uint32_t n, uint8_t id) {
    for (uint32_t at = 0, len = 0; at < size; at++) {
        len = owner[at] ? 0 : len + 1;
        if (len == n) {
            memset(owner + at + 1 - n, id, n);
            return (int)(at + 1 - n);
        }
    }
    return -1;
}

static void pools_release(struct session *x) {
    if (x->pool_n) memset(qp_owner + x->pool_at, 0, x->pool_n);
    if (x->step_n) memset(step_owner + x->step_at, 0, x->step_n);
    x->pool_n = x->step_n = 0;
}

/* The session's runs of both pools for n QPs (its last run released first); -1 when the
   pools have no such room. */
static int pools_take(struct session *x, uint32_t n) {
    pools_release(x);
    int q = run_take(qp_owner, QPX_MAX_QPS, n, x->id);
    if (q < 0) return -1;
    int st = run_take(step_owner, STEP_POOL, STEPS_OF(n), x->id);
    if (st < 0) {
        memset(qp_owner + q, 0, n);
        return -1;
    }
    x->pool_at = (uint32_t)q;
    x->pool_n = n;
    x->step_at = (uint32_t)st;
    x->step_n = STEPS_OF(n);
    x->qp = pool_qp + q;
    x->last_qp = pool_last_qp + q;
    x->last_qpn = pool_last_qpn + q;
    x->me = pool_me + q;
    x->peer = pool_peer + q;
    x->have_peer = pool_have_peer + q;
    x->cm_mr = pool_cm_mr + q;
    x->cm_peer_qpn = pool_cm_peer_qpn + q;
    x->steps = step_pool + st;
    memset(x->qp, 0, n * sizeof *x->qp);
    memset(x->last_qp, 0, n * sizeof *x->last_qp);
    memset(x->me, 0, n * sizeof *x->me);
    memset(x->have_peer, 0, n * sizeof *x->have_peer);
    memset(x->steps, 0, x->step_n * sizeof *x->steps);
    return 0;
}

const char *qpx_test_name(uint32_t t) {
    return t < QPX_NTESTS ? test_names[t] : "?";
}

int qpx_test_parse(const char *str) {
    for (int i = 0; i < QPX_NTESTS; i++)
        if (strcmp(str, test_names[i]) == 0) return i;
    return -1;
}

/* Session id (1..QPX_SESSIONS), NULL when there is no such ID. */
static struct session *by_id(uint32_t id) {
    return id >= 1 && id <= QPX_SESSIONS ? &sessions[id - 1] : NULL;
}

enum qpx_phase qpx_phase(uint32_t id) {
    const struct session *x = by_id(id);
    return x ? x->phase : QPX_IDLE;
}

int qpx_result(uint32_t id) {
    const struct session *x = by_id(id);
    return x ? x->result : -1;
}

uint32_t qpx_sessions(uint32_t ids[QPX_SESSIONS]) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < QPX_SESSIONS; i++)
        if (active(&sessions[i])) ids[n++] = sessions[i].id;
    return n;
}

bool qpx_test_is_bw(uint32_t t) {
    return t <= QPX_SEND_BW || t == QPX_ATOMIC_BW;
}

static bool is_bw(void) {
    return qpx_test_is_bw(s->o.test);
}

/* READ and atomic tests: perftest sends its device's max_rd_atomic as OUT, and their
   steps are those of read_bw / read_lat */
static bool is_read(void) {
    return s->o.test == QPX_READ_BW || s->o.test == QPX_READ_LAT || s->o.test == QPX_ATOMIC_BW ||
           s->o.test == QPX_ATOMIC_LAT;
}

static void ip_str(uint32_t ip, char out[16]) {
    snprintf(out, 16, "%u.%u.%u.%u", (unsigned)(ip >> 24), (unsigned)(ip >> 16 & 0xffu),
             (unsigned)(ip >> 8 & 0xffu), (unsigned)(ip & 0xffu));
}

/* An item's bytes: perftest -R sends its destinations as the binary struct. */
static uint32_t item_size(uint8_t item) {
    return s->o.rdma_cm && item == IT_PT_DEST ? QPX_PT_BDEST_LEN : item_len[item];
}

/* Each QP's part of the test buffer: whole 4 KiB pages (perftest sends each QP's own
   address; atomics need 8-byte aligned ones). */
static uint32_t part_bytes(void) {
    return QPX_BUF_BYTES / s->nqp & ~0xfffu;
}

/* ---- the step list */

static void add(uint8_t kind, uint8_t item, uint8_t qp) {
    if (s->nsteps < s->step_n) s->steps[s->nsteps++] = (struct step){kind, item, qp, false, false};
}

/* One lockstep exchange of an item about QP qp: the client sends first, the server answers. */
static void xchg_qp(uint8_t item, uint8_t qp) {
    if (s->o.server) {
        add(SK_RECV, item, qp);
        add(SK_SEND, item, qp);
    } else {
        add(SK_SEND, item, qp);
        add(SK_RECV, item, qp);
    }
}

/* Items and barriers that are not about a particular QP (perftest's barriers repeat QP 0's). */
static void xchg(uint8_t item) {
    xchg_qp(item, 0);
}

/* The barrier before the test that only the lat tests and send_bw have: a server that sees
   RoCE packets instead knows its peer runs another test. */
static void xchg_extra(void) {
    xchg(IT_PT_DEST);
    s->steps[s->nsteps - 1].extra = s->steps[s->nsteps - 2].extra = true;
}

static void build_steps(void) {
    s->nsteps = 0;
    if (s->o.tool == QPX_TOOL_PINGPONG) {
        /* rdma-core's ibv_rc_pingpong: client dest, server dest, client "done" */
        if (s->o.server) {
            add(SK_RECV, IT_PP_DEST, 0);
            add(SK_PROGRAM, IT_NONE, 0);
            add(SK_SEND, IT_PP_DEST, 0);
            add(SK_RECV, IT_DONE, 0);
        } else {
            add(SK_SEND, IT_PP_DEST, 0);
            add(SK_RECV, IT_PP_DEST, 0);
            add(SK_PROGRAM, IT_NONE, 0);
            add(SK_SEND, IT_DONE, 0);
        }
        add(SK_CLOSE, IT_NONE, 0);
        return;
    }
    /* perftest 4.5-0.17 with one QP, as the reference captures show it */
    xchg(IT_PT_VERSION);
    xchg(IT_PT_CYCLE);
    xchg(IT_PT_CACHE);
    xchg(IT_PT_MTU);
    if (s->o.rdma_cm) {
        /* perftest -R: a barrier of empty destinations, the RDMA CM connections (one per QP,
           the client connects to the server's exchange port), another barrier */
        xchg(IT_PT_SYNC);
        s->steps[s->nsteps - 1].cm_listen = s->o.server; /* the server's answer */
        add(s->o.server ? SK_CM_WAIT : SK_CM_CONNECT, IT_NONE, 0);
        xchg(IT_PT_SYNC);
    }
    /* the destinations, QP by QP, all of them again (4.5-0.17 with -q 2 sends each twice),
       then a barrier once the QPs are RTR */
    /* (ib_send_bw has its barrier between the two rounds: the same with one QP) */
    bool send_bw = s->o.test == QPX_SEND_BW;
    for (uint8_t i = 0; i < s->nqp; i++)
        xchg_qp(IT_PT_DEST, i);
    add(SK_PROGRAM, IT_NONE, 0);
    if (send_bw) xchg(IT_PT_DEST);
    for (uint8_t i = 0; i < s->nqp; i++)
        xchg_qp(IT_PT_DEST, i);
    if (!send_bw) xchg(IT_PT_DEST);
    if (!is_bw()) {
        /* the lat tests (seen from 4.5-0.17 in rxe guests): a third barrier before the test;
           after it write_lat just closes, read_lat and send_lat exchange one barrier and
           "done" */
        xchg_extra();
        add(SK_PAUSE, IT_NONE, 0);
        if (s->o.test != QPX_WRITE_LAT) {
            xchg(IT_PT_DEST);
            if (!s->o.rdma_cm) {
                add(SK_SEND, IT_DONE, 0);
                add(SK_RECV, IT_DONE, 0);
            }
        }
        add(SK_CLOSE, IT_NONE, 0);
        return;
    }
    /* ib_send_bw (seen from 4.5-0.17 in an rxe guest): a third barrier once the receives are
       posted, and after the test no report exchange (only with -b), just the closing barrier */
    if (send_bw) xchg_extra();
    add(SK_PAUSE, IT_NONE, 0);
    if (!send_bw) xchg(IT_PT_DEST); /* barrier after the test */
    if (is_bw() && !send_bw)
        for (int i = 0; i < QPX_PT_REPORT_ITEMS; i++)
            xchg(IT_PT_REPORT);
    if (is_bw()) xchg(IT_PT_DEST); /* ctx_close_connection's barrier */
    /* "done" both ways, neither side waits before sending it (not with -R) */
    if (!s->o.rdma_cm) {
        add(SK_SEND, IT_DONE, 0);
        add(SK_RECV, IT_DONE, 0);
    }
    add(SK_CLOSE, IT_NONE, 0);
}

/* ---- teardown */

static void tcp_forget(struct tcp_pcb *p) {
    tcp_arg(p, NULL);
    tcp_recv(p, NULL);
    tcp_err(p, NULL);
    tcp_accept(p, NULL);
}

static void close_tcp(bool graceful) {
    if (s->lpcb) {
        tcp_accept(s->lpcb, NULL);
        tcp_close(s->lpcb);
        s->lpcb = NULL;
    }
    if (s->pcb) {
        tcp_forget(s->pcb);
        if (!graceful || tcp_close(s->pcb) != ERR_OK) tcp_abort(s->pcb);
        s->pcb = NULL;
    }
}

static const char *step_what(void) {
    if (s->cur >= s->nsteps) return "the end";
    const struct step *st = &s->steps[s->cur];
    switch (st->kind) {
    case SK_SEND:
    case SK_RECV: return item_name[st->item];
    case SK_PROGRAM: return "programming the QP";
    case SK_CM_WAIT:
    case SK_CM_CONNECT: return "the RDMA CM connections";
    default: return "the test";
    }
}

/* The one-line failure message, then everything back: QP to RESET, MR gone, TCP closed. */
static void fail(const char *fmt, ...) {
    va_list ap;
    printf("%s", tag());
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    close_tcp(false);
    bool tested = s->phase == QPX_TEST || s->phase == QPX_ENDING;
    if (s->cm_listening) cm_unlisten();
    s->cm_listening = false;
    if (s->cm_busy) cm_connect_abort("the perftest session failed");
    s->cm_busy = false;
    for (uint32_t i = 0; i < s->nqp; i++) {
        if (!s->qp[i]) continue;
        printf(i == 0 ? "; QP 0x%lx" : ", 0x%lx", (unsigned long)s->qp[i]->qpn);
        if (i + 1 == s->nqp) printf(s->o.rdma_cm ? " disconnected (RDMA CM)" : " back to RESET");
        if (s->o.rdma_cm) {
            const char *e;
            (void)cm_disconnect(s->qp[i]->qpn, &e); /* cm.c frees it after the time-wait */
        } else {
            roce_qp_destroy(s->qp[i]);
        }
        s->qp[i] = NULL;
    }
    if (s->mr && !s->o.rdma_cm) roce_mr_dereg(s->mr);
    s->mr = NULL;
    if (s->comm) {
        const char *e;
        (void)cm_disconnect(s->comm_qpn, &e);
        s->comm = NULL;
    }
    printf("\n");
    s->phase = QPX_IDLE;
    s->result = -1;
    if (tested) qpx_tool_session_failed(s->id);
    pools_release(s);
}

void qpx_abort(uint32_t id, const char *why) {
    struct session *x = by_id(id);
    if (!x || !active(x)) return;
    s = x;
    fail("session stopped: %s (during %s)", why, step_what());
}

/* ---- lwIP callbacks (arg: the session) */

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err) {
    struct session *x = arg;
    (void)err;
    if (!x) { /* forgotten: the session let go of it */
        if (p) pbuf_free(p);
        return ERR_OK;
    }
    if (p == NULL) {
        x->peer_closed = true;
        return ERR_OK;
    }
    uint16_t n = p->tot_len;
    if (x->rxlen + n > RX_MAX) {
        x->rx_overflow = true;
        n = (uint16_t)(RX_MAX - x->rxlen);
    }
    x->rxlen += pbuf_copy_partial(p, x->rx + x->rxlen, n, 0);
    x->idle_until = tmr_cycles() + tmr_ms_to_cycles(x->o.idle_ms);
    tcp_recved(pcb, p->tot_len);
    pbuf_free(p);
    tcp_output(pcb);
    return ERR_OK;
}

static void on_err(void *arg, err_t err) {
    struct session *x = arg;
    if (!x) return;
    x->pcb = NULL; /* lwIP has freed it */
    x->reset = true;
    x->reset_err = err;
}

static void take_pcb(struct session *x, struct tcp_pcb *pcb) {
    x->pcb = pcb;
    tcp_arg(pcb, x);
    tcp_nagle_disable(pcb);
    tcp_recv(pcb, on_recv);
    tcp_err(pcb, on_err);
}

/* The listener stays open while its session runs: a second client on the port is refused
   (RST), said and counted; another port serves another session (listen --port). */
static err_t on_accept(void *arg, struct tcp_pcb *pcb, err_t err) {
    struct session *x = arg;
    if (err != ERR_OK || pcb == NULL) return ERR_VAL;
    if (!x || x->pcb || x->connected || x->phase != QPX_RUNNING) {
        if (x) {
            struct session *was = s;
            char b[16];
            s = x;
            ip_str(lwip_ntohl(ip4_addr_get_u32(ip_2_ip4(&pcb->remote_ip))), b);
            x->refused++;
            say("refused a client from %s on port %u: this port's session has its client "
                "(refused %lu; a second session listens on another port: listen --port P)\n",
                b, x->port, (unsigned long)x->refused);
            s = was;
        }
        tcp_arg(pcb, NULL);
        tcp_err(pcb, NULL);
        tcp_abort(pcb);
        return ERR_ABRT;
    }
    take_pcb(x, pcb);
    x->connected = true;
    x->t_conn = tmr_cycles();
    return ERR_OK;
}

static err_t on_connected(void *arg, struct tcp_pcb *pcb, err_t err) {
    struct session *x = arg;
    (void)pcb;
    if (x && err == ERR_OK) x->connected = true;
    return ERR_OK;
}

/* ---- the steps */

/* A server's checks that its peer runs the test it listens for. While we wait for the extra
   barrier (lat tests, send_bw) a peer running write_bw or read_bw already sends RoCE packets;
   a bw server's peer sends its next barrier only after its test, so a barrier before any
   RoCE packet means the peer skipped the test: it expects one more barrier. true after fail(). */
static bool other_test_started(void) {
    /* (not with -R: the exchange's own SENDs are RoCE packets too) */
    if (!s->o.server || s->o.dry || s->o.rdma_cm || roce_hw_read(ROCE_RX_PACKETS) == s->pk_ready)
        return false;
    fail("the peer sends RoCE packets where %s exchanges one more barrier: it runs another test "
         "(write_bw or read_bw?), not %s",
         test_names[s->o.test], test_names[s->o.test]);
    return true;
}

static bool barrier_before_traffic(void) {
    if (!s->o.server || s->o.dry || s->o.rdma_cm || !is_bw() || s->rxlen == 0 ||
        roce_hw_read(ROCE_RX_PACKETS) != s->pk_ready)
        return false;
    fail("the peer sent a barrier before any RoCE packet of the test: it runs another test (a "
         "latency test or send_bw, which exchange one more barrier), not %s",
         test_names[s->o.test]);
    return true;
}

/* The server's silence bound during the test: renewed by TCP data (on_recv) and by
   any RoCE packet the transport parsed (one session at a time owns the traffic). */
static bool idle_expired(void) {
    uint32_t pk = s->o.dry ? 0u : roce_hw_read(ROCE_RX_PACKETS);
    if (pk != s->rx_packets) {
        s->rx_packets = pk;
        s->idle_until = tmr_cycles() + tmr_ms_to_cycles(s->o.idle_ms);
    }
    return tmr_cycles() >= s->idle_until;
}

static void print_dest(const char *who, const struct qpx_dest *d) {
    uint32_t ip = 0;
    const char *e;
    char b[16];
    if (qpx_gid_to_ipv4(d->gid, &ip, &e) == 0)
        ip_str(ip, b);
    else
        strcpy(b, "?");
    if (s->o.tool == QPX_TOOL_PINGPONG)
        printf("  %s address: LID 0x%04x, QPN 0x%06lx, PSN 0x%06lx, GID ::ffff:%s\n", who, d->lid,
               (unsigned long)d->qpn, (unsigned long)d->psn, b);
    else
        printf("  %s address: LID %04x QPN 0x%04lx PSN 0x%06lx OUT 0x%02x RKey 0x%06lx VAddr "
               "0x%014llx GID ::ffff:%s\n",
               who, d->lid, (unsigned long)d->qpn, (unsigned long)d->psn, d->out_reads,
               (unsigned long)d->rkey, (unsigned long long)d->vaddr, b);
}

static bool same_dest(const struct qpx_dest *a, const struct qpx_dest *b) {
    return a->lid == b->lid && a->out_reads == b->out_reads && a->qpn == b->qpn &&
           a->psn == b->psn && a->rkey == b->rkey && a->vaddr == b->vaddr && a->srqn == b->srqn &&
           memcmp(a->gid, b->gid, 16) == 0;
}

/* The QP's path MTU (pingpong: no exchange, rc_pingpong's -m default 1024) or our perftest
   offer: the largest, so that perftest's smaller-of-both-offers rule gives 1024 with a
   stock rxe peer (1500-byte link) and 4096 with a jumbo one. */
static uint32_t mtu_offer(void) {
    if (s->o.mtu) return s->o.mtu;
    return s->o.tool == QPX_TOOL_PERFTEST ? ROCE_MAX_PMTU : ROCE_DEFAULT_PMTU;
}

static uint32_t encode(uint8_t item, uint8_t qp, uint8_t *out) {
    switch (item) {
    case IT_PP_DEST: qpx_pp_dest_encode(&s->me[0], out); break;
    case IT_PT_VERSION: qpx_pt_version_encode(out); break;
    case IT_PT_CYCLE: qpx_pt_u32_encode(QPX_PT_CYCLE_BUFFER, out); break;
    case IT_PT_CACHE: qpx_pt_u32_encode(QPX_PT_CACHE_LINE, out); break;
    case IT_PT_MTU: qpx_pt_mtu_encode(mtu_offer(), out); break;
    case IT_PT_DEST:
        if (s->o.rdma_cm)
            qpx_pt_bdest_encode(&s->me[qp], out);
        else
            qpx_pt_dest_encode(&s->me[qp], out);
        break;
    case IT_PT_SYNC: {
        struct qpx_dest zero;
        memset(&zero, 0, sizeof zero);
        qpx_pt_bdest_encode(&zero, out);
        break;
    }
    case IT_PT_REPORT: {
        uint64_t tsize, titers;
        double tpeak, tavg, tmpps;
        if (!s->o.server && qpx_tool_report(s->id, &tsize, &titers, &tpeak, &tavg, &tmpps)) {
            /* the client's own figures (the NIC ran the test: qpx_tool.c) */
            switch (s->reports_out++) {
            case 0: qpx_pt_report_u64_encode(tsize, out); break;
            case 1: qpx_pt_report_u64_encode(titers, out); break;
            case 2: qpx_pt_report_double_encode(tpeak, out); break;
            case 3: qpx_pt_report_double_encode(tavg, out); break;
            default: qpx_pt_report_double_encode(tmpps, out); break;
            }
            break;
        }
        /* every QP of the session together: messages, bytes, first post to last completion */
        uint64_t iters = 0, bytes = 0, t0 = UINT64_MAX, t1 = 0;
        for (uint32_t i = 0; i < s->nqp; i++) {
            const struct roce_qp *q = s->qp[i];
            if (!q || !q->send_done) continue;
            iters += q->send_done;
            bytes += q->send_bytes;
            if (q->t_first_post < t0) t0 = q->t_first_post;
            if (q->t_last_done > t1) t1 = q->t_last_done;
        }
        double secs = iters && t1 > t0 ? (double)(t1 - t0) / (double)tmr_clk_hz() : 0;
        double bw = secs > 0 ? (double)bytes / secs / 1048576.0 : 0;
        double rate = secs > 0 ? (double)iters / secs / 1e6 : 0;
        switch (s->reports_out++) {
        case 0: qpx_pt_report_u64_encode(iters ? bytes / iters : 0, out); break;
        case 1: qpx_pt_report_u64_encode(iters, out); break;
        case 2: qpx_pt_report_double_encode(bw, out); break; /* peak: no finer measurement */
        case 3: qpx_pt_report_double_encode(bw, out); break;
        default: qpx_pt_report_double_encode(rate, out); break;
        }
        break;
    }
    default: qpx_done_encode(out); break;
    }
    return item_size(item);
}

/* Decode a received item; -1 after fail(). */
static int take(uint8_t item, uint8_t qp, const uint8_t *b, uint32_t n) {
    const char *e = NULL;
    struct qpx_dest d;
    uint32_t v;
    switch (item) {
    case IT_PT_SYNC: {
        bool empty;
        if (qpx_pt_bdest_decode(b, n, &d, &empty, &e) == 0 && !empty)
            e = "a QP's destination where perftest -R's barrier has an empty one";
        break;
    }
    case IT_PP_DEST:
    case IT_PT_DEST: {
        bool empty = false;
        int r = item == IT_PP_DEST ? qpx_pp_dest_decode(b, n, &d, &e)
                : s->o.rdma_cm      ? qpx_pt_bdest_decode(b, n, &d, &empty, &e)
                                   : qpx_pt_dest_decode(b, n, &d, &e);
        if (r != 0) break;
        if (empty) {
            e = "an empty destination where its QP's was due";
            break;
        }
        if (s->have_peer[qp]) {
            if (!same_dest(&d, &s->peer[qp]))
                e = s->nqp > 1 ? "perftest barrier: the peer's destination changed (does it run "
                                "as many QPs as --qps?)"
                              : "perftest barrier: the peer's destination changed (a peer with -q 2 "
                                "or more needs --qps N here)";
            break;
        }
        if (d.lid != 0) {
            e = "the peer sent a non-zero LID (an InfiniBand port; this NIC speaks RoCE v2)";
            break;
        }
        /* perftest's READ tests send their device's max_rd_atomic as OUT, the others 1 */
        if (item == IT_PT_DEST && qp == 0 && is_read() != (d.out_reads > 1)) {
            fail("the peer runs %s test (its destination has OUT %u), not %s", is_read() ?
                 "a WRITE or SEND" : "a READ or atomic", d.out_reads, test_names[s->o.test]);
            return -1;
        }
        uint32_t ip;
        if (qpx_gid_to_ipv4(d.gid, &ip, &e) != 0) break;
        if (qp > 0 && ip != s->peer_ip) {
            e = "the peer's QPs have different GIDs";
            break;
        }
        if (s->o.rdma_cm && d.qpn != s->cm_peer_qpn[qp]) {
            fail("the peer's QP 0x%lx in the exchange is not the one it connected through RDMA "
                 "CM (0x%lx)", (unsigned long)d.qpn, (unsigned long)s->cm_peer_qpn[qp]);
            return -1;
        }
        s->peer_ip = ip;
        s->peer[qp] = d;
        s->have_peer[qp] = true;
        print_dest("remote", &d);
        break;
    }
    case IT_PT_VERSION: (void)qpx_pt_version_decode(b, n, &e); break;
    case IT_PT_CYCLE: (void)qpx_pt_u32_decode(b, n, 64, 1u << 30, &v, &e); break;
    case IT_PT_CACHE: (void)qpx_pt_u32_decode(b, n, 16, 4096, &v, &e); break;
    case IT_PT_MTU:
        if (qpx_pt_mtu_decode(b, n, &v, &e) == 0 && v < s->mtu_enum) s->mtu_enum = v;
        break;
    case IT_PT_REPORT:
        if (s->reports_in < QPX_PT_REPORT_ITEMS) memcpy(s->peer_report[s->reports_in], b, n);
        if (++s->reports_in == QPX_PT_REPORT_ITEMS && s->o.server) {
            say("the peer's report: %llu-byte messages x %llu, BW average %.2f MB/s, "
                "%.6f Mpps\n",
                (unsigned long long)qpx_pt_report_u64_decode(s->peer_report[0]),
                (unsigned long long)qpx_pt_report_u64_decode(s->peer_report[1]),
                qpx_pt_report_double_decode(s->peer_report[3]),
                qpx_pt_report_double_decode(s->peer_report[4]));
        }
        break;
    default: (void)qpx_done_decode(b, n, &e); break;
    }
    if (e) {
        fail("bad %s from the peer: %s", item_name[item], e);
        return -1;
    }
    return 0;
}

/* The next hop's MAC from lwIP's ARP cache: 1 known, 0 asked and waiting, -1 after fail(). */
static int resolve_mac(void) {
    struct netif *n = net_netif();
    ip4_addr_t pip, nh;
    char b[16];
    ip4_addr_set_u32(&pip, lwip_htonl(s->peer_ip));
    ip_str(s->peer_ip, b);
    if (ip4_addr_netcmp(&pip, netif_ip4_addr(n), netif_ip4_netmask(n))) {
        nh = pip;
    } else if (!ip4_addr_isany_val(*netif_ip4_gw(n))) {
        nh = *netif_ip4_gw(n);
    } else {
        fail("no route to the peer's GID address %s (outside the subnet, no gateway)", b);
        return -1;
    }
    struct eth_addr *eth;
    const ip4_addr_t *ipr;
    if (etharp_find_addr(n, &nh, &eth, &ipr) >= 0) {
        memcpy(s->mac, eth->addr, 6);
        return 1;
    }
    if (!s->arp_asked) {
        (void)etharp_query(n, &nh, NULL);
        s->arp_asked = true;
    }
    if (tmr_cycles() >= s->deadline) {
        fail("no ARP answer from %s (the next hop to %s) within %lu ms", ip4addr_ntoa(&nh), b,
             (unsigned long)s->o.step_ms);
        return -1;
    }
    return 0;
}

/* Program QP i with the peer's data for it (RTR, RTS); -1 after fail(). */
static int program_qp(uint32_t i, uint32_t pmtu) {
    struct roce_qp *qp = s->qp[i];
    const struct qpx_dest *me = &s->me[i], *peer = &s->peer[i];
    struct roce_qp_ctx c = qp->ctx;
    c.pmtu = (uint8_t)pmtu;
    c.remote_qpn = peer->qpn;
    c.remote_ip = s->peer_ip;
    memcpy(c.remote_mac, s->mac, 6);
    c.udp_sport = qpx_udp_sport(me->qpn, peer->qpn);
    c.rq_psn = peer->psn;
    c.sq_psn = me->psn;
    if (s->o.tool == QPX_TOOL_PERFTEST) {
        /* perftest: max_dest_rd_atomic = our OUT_READS, max_rd_atomic = the peer's */
        uint32_t cap = roce_hw_caps()->max_rd_atomic, out = peer->out_reads;
        c.max_rd_atomic = (uint8_t)(out < 1 ? 1 : out > cap ? cap : out);
        c.max_dest_rd_atomic = (uint8_t)(me->out_reads > cap ? cap : me->out_reads);
    }
    if (s->o.tool == QPX_TOOL_PINGPONG || s->o.test == QPX_SEND_BW || s->o.test == QPX_SEND_LAT) {
        /* receives into this QP's part of the test buffer */
        uint32_t part = part_bytes();
        const char *err;
        if (s->o.recv_ring) {
            if (roce_qp_recv_ring(qp, me->vaddr, part, s->mr->key, &err) != 0) {
                fail("QP 0x%lx's receive ring: %s", (unsigned long)qp->qpn, err);
                return -1;
            }
        } else if (roce_qp_auto_recv(qp, me->vaddr, part, s->mr->key, roce_hw_caps()->rq_depth) != 0) {
            fail("the transport refused the receive WQEs for QP 0x%lx", (unsigned long)qp->qpn);
            return -1;
        }
    }
    c.state = ROCE_QPS_RTR;
    roce_qp_modify(qp, &c);
    c.state = ROCE_QPS_RTS;
    roce_qp_modify(qp, &c);
    char b[16];
    ip_str(s->peer_ip, b);
    say("QP 0x%lx RTS: peer %s %02x:%02x:%02x:%02x:%02x:%02x QPN 0x%lx, PMTU %lu, UDP "
        "source port %u\n",
        (unsigned long)qp->qpn, b, s->mac[0], s->mac[1], s->mac[2], s->mac[3], s->mac[4], s->mac[5],
        (unsigned long)peer->qpn, (unsigned long)qpx_mtu_bytes(pmtu), c.udp_sport);
    return 0;
}

/* The QPs are ready to send: the time the exchange took, what the test needs to know. */
static int ready(void) {
    /* how long the exchange took to a QP ready to send, in simulated time */
    uint64_t dt = tmr_cycles() - (s->o.server ? s->t_conn : s->t_start);
    uint32_t mhz = tmr_clk_hz() / 1000000u;
    say("QP 0x%lx ready to send %lu.%01lu us (%llu cycles) after %s\n",
        (unsigned long)s->qp[s->nqp - 1]->qpn, (unsigned long)(dt / mhz),
        (unsigned long)(dt % mhz * 10u / mhz), (unsigned long long)dt,
        s->o.server ? "the client connected" : "connect started");
    s->pk_ready = roce_hw_read(ROCE_RX_PACKETS);
    s->buf_known = s->o.tool == QPX_TOOL_PERFTEST;
    s->buf_qpn = s->qp[0]->qpn;
    s->buf_rkey = s->peer[0].rkey;
    s->buf_vaddr = s->peer[0].vaddr;
    return 1;
}

/* Program the session's QPs with the peer's data; 1 done, 0 waiting for ARP, -1 after fail().
   perftest -R: RDMA CM programmed them (cm.c); the test buffer is prepared all the same. */
static int program(void) {
    if (s->o.rdma_cm) {
        const char *perr = NULL;
        if (qpx_tool_prepare(s->mr, &s->o, &perr) != 0) {
            fail("preparing the test buffer: %s", perr);
            return -1;
        }
        return ready();
    }
    int r = resolve_mac();
    if (r <= 0) return r;
    uint32_t pmtu = s->mtu_enum;
    char b[16];
    ip_str(s->peer_ip, b);
    if (s->o.dry) {
        for (uint32_t i = 0; i < s->nqp; i++)
            say("dry run: QP not programmed (would be: peer %s %02x:%02x:%02x:%02x:%02x:%02x, "
                "QPN 0x%lx, PMTU %lu, UDP source port %u)\n",
                b, s->mac[0], s->mac[1], s->mac[2], s->mac[3], s->mac[4], s->mac[5],
                (unsigned long)s->peer[i].qpn, (unsigned long)qpx_mtu_bytes(pmtu),
                qpx_udp_sport(s->me[i].qpn, s->peer[i].qpn));
        return 1;
    }
    const char *perr = NULL;
    if (qpx_tool_prepare(s->mr, &s->o, &perr) != 0) {
        fail("preparing the test buffer: %s", perr);
        return -1;
    }
    for (uint32_t i = 0; i < s->nqp; i++)
        if (program_qp(i, pmtu) != 0) return -1;
    return ready();
}

/* ---- perftest -R: the QPs through RDMA CM */

/* The session's RDMA CM connections, once all are established: their QPs become the
   session's (QPN, rkey in our destinations). 1 taken, 0 not all there yet. */
static int cm_adopt(void) {
    static struct roce_qp *q[QPX_MAX_QPS + 1]; /* static: not on the 16 KiB stack */
    static struct roce_mr *m[QPX_MAX_QPS + 1];
    static uint32_t pq[QPX_MAX_QPS + 1];
    uint32_t n = (uint32_t)cm_session_qps(s->peer_ip, s->port, q, m, pq, s->nqp + 1u);
    if (n < s->nqp + 1u) return 0;
    if (q[0] != s->comm) return 0; /* the exchange's connection ended meanwhile: poll says so */
    for (uint32_t i = 0; i < s->nqp; i++) {
        s->qp[i] = q[i + 1];
        s->cm_mr[i] = m[i + 1];
        s->cm_peer_qpn[i] = pq[i + 1];
        s->me[i].qpn = s->qp[i]->qpn;
        s->me[i].psn = s->qp[i]->ctx.sq_psn;
        s->me[i].rkey = s->cm_mr[i]->key;
        print_dest("local", &s->me[i]);
    }
    s->mr = s->cm_mr[0];
    return 1;
}

/* Server: listen for the client's connections of the test's QPs; 0, or -1 after fail(). */
static int cm_listen_qps(void) {
    const char *e;
    if (cm_listen(s->port, (uint8_t)s->mtu_enum, QPX_TOOL_PERFTEST, s->nqp, &e) != 0) {
        fail("perftest -R: %s", e);
        return -1;
    }
    s->cm_listening = true;
    say("perftest -R: RDMA CM listens on port %u for %lu connection(s)\n", s->port,
        (unsigned long)s->nqp);
    return 0;
}

/* Server: wait for the client's connections (the listen took them). 1, 0, -1 after fail(). */
static int cm_wait(void) {
    if (cm_adopt()) {
        s->cm_listening = false; /* the listen ended with its last REQ */
        return 1;
    }
    if (tmr_cycles() < s->deadline) return 0;
    fail("perftest -R: the client's %lu RDMA CM connection(s) did not come within %lu ms (see "
         "the cm: lines)", (unsigned long)s->nqp, (unsigned long)s->o.step_ms);
    return -1;
}

/* Client: connect until `total` connections are established (the exchange's, then the
   test's QPs), one after the other, again after a REJ (perftest's server listens only once
   it is ready for them). 1, 0, -1 after fail(). */
static int cm_connect_upto(uint32_t total) {
    if (s->cm_busy) {
        int r = cm_connect_result();
        if (r == 0) return 0; /* bounded by the ARP wait and the REQ's retries (cm.c) */
        s->cm_busy = false;
        if (r == 1) {
            s->cm_done++;
            s->cm_tries = 0;
        } else if (++s->cm_tries >= CM_CONNECT_TRIES) {
            fail("perftest -R: %s did not accept RDMA CM connection %lu in %u tries (see the cm: "
                 "lines)", s->cm_done ? "the peer" : "the peer's port 18515 (nothing listens there?)",
                 (unsigned long)s->cm_done + 1u, CM_CONNECT_TRIES);
            return -1;
        } else {
            s->cm_retry_at = tmr_cycles() + tmr_ms_to_cycles(CM_CONNECT_GAP_MS);
        }
    }
    if (s->cm_done < total) {
        if (tmr_cycles() < s->cm_retry_at) return 0;
        const char *e;
        uint8_t mtu = (uint8_t)(s->cm_done ? s->mtu_enum : s->o.mtu); /* the exchange's: 1024 */
        if (cm_connect(s->o.peer_ip, s->port, mtu, QPX_TOOL_PERFTEST, &e) != 0) {
            fail("perftest -R: %s", e);
            return -1;
        }
        s->cm_busy = true;
        return 0;
    }
    return 1;
}

static int cm_connect_all(void) {
    int r = cm_connect_upto(s->nqp + 1u);
    if (r != 1) return r;
    if (cm_adopt()) return 1;
    fail("perftest -R: an RDMA CM connection ended before the exchange went on");
    return -1;
}

/* The exchange's own connection: established (1), not yet (0), or -1 after fail(). */
static int comm_connect(void) {
    if (!s->o.server) {
        int r = cm_connect_upto(1);
        if (r != 1) return r;
    }
    struct roce_qp *q;
    struct roce_mr *m;
    uint32_t pq;
    if (cm_session_qps(s->o.server ? 0u : s->o.peer_ip, s->port, &q, &m, &pq, 1) < 1) {
        if (!s->o.server || tmr_cycles() < s->deadline) return 0;
        fail("no perftest -R client connected through RDMA CM to port %u within %lu ms",
             s->port, (unsigned long)s->o.wait_ms);
        return -1;
    }
    s->comm = q;
    s->comm_qpn = q->qpn;
    s->comm_mr = m;
    s->comm_rx = 0; /* a new QP: every receive since it was made is the peer's */
    s->peer_ip = q->ctx.remote_ip;
    s->cm_listening = false;
    s->t_conn = tmr_cycles();
    return 1;
}

/* perftest -R's messages arrive as SENDs on the exchange QP (its receives land at the test
   buffer's start): read each into rx. -1 after fail(). */
static int comm_rx(void) {
    struct roce_qp *q = s->comm;
    if (!q->used || q->qpn != s->comm_qpn || q->ctx.state == ROCE_QPS_RESET) {
        s->peer_closed = true; /* reset: what it received is gone with it */
        return 0;
    }
    /* disconnected (DREQ): what arrived before still counts */
    if (!cm_established(s->comm_qpn) && q->recv_done == s->comm_rx) s->peer_closed = true;
    if (q->recv_errors) {
        fail("a receive on the exchange QP 0x%lx completed with %s", (unsigned long)s->comm_qpn,
             roce_wc_status_name(q->last_recv.status));
        return -1;
    }
    if (q->recv_done == s->comm_rx) return 0;
    if (q->recv_done - s->comm_rx > 1u) {
        fail("the peer sent %lu messages without waiting for an answer",
             (unsigned long)(q->recv_done - s->comm_rx));
        return -1;
    }
    uint32_t n = q->last_recv.byte_len;
    if (n > RX_MAX - s->rxlen) {
        fail("the peer sent more than %u bytes without waiting for an answer", RX_MAX);
        return -1;
    }
    for (uint32_t off = 0; off < n; off += QPX_MEM_READ_MAX) {
        const char *e;
        uint32_t k = n - off < QPX_MEM_READ_MAX ? n - off : QPX_MEM_READ_MAX;
        if (qpx_mem_read(s->buf + off, k, s->rx + s->rxlen + off, &e) != 0) {
            fail("reading the peer's message: %s", e);
            return -1;
        }
    }
    s->rxlen += n;
    s->comm_rx++;
    s->idle_until = tmr_cycles() + tmr_ms_to_cycles(s->o.idle_ms);
    return 0;
}

/* Send an item as a SEND on the exchange QP: 1 sent, 0 try again, -1 after fail(). */
static int comm_send(const uint8_t *b, uint32_t n) {
    uint64_t a = s->buf + COMM_TX + 64u * (s->comm_tx % COMM_TX_SLOTS);
    const char *e;
    if (qpx_mem_write(a, b, n, &e) != 0) {
        fail("writing our message: %s", e);
        return -1;
    }
    struct roce_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.opcode = ROCE_WR_SEND;
    wr.flags = 1u;
    wr.qpn = s->comm_qpn;
    wr.laddr = a;
    wr.lkey = s->comm_mr->key;
    wr.len = n;
    wr.wr_id = (uint64_t)s->comm_qpn << 32 | ++s->comm_tx;
    int r = roce_hw_post_send(&wr, 1u);
    if (r == -1) return 0; /* the send queue is full: again on the next pass */
    if (r != 0) {
        fail("the transport refused the SEND on the exchange QP (counted in sq_refused)");
        return -1;
    }
    return 1;
}

static void finished(void) {
    close_tcp(true);
    qpx_tool_begin(s->qp[0], s->mr, &s->o, s->peer_ip); /* the data phase, when 'tool on' */
    if (s->o.rdma_cm) { /* perftest -R disconnects its connections at its end: so do we */
        const char *e;
        for (uint32_t i = 0; i < s->nqp; i++) {
            if (s->qp[i]) (void)cm_disconnect(s->qp[i]->qpn, &e);
            s->qp[i] = NULL;
        }
        if (s->comm) (void)cm_disconnect(s->comm_qpn, &e);
        s->comm = NULL;
        s->mr = NULL;
        s->nlast = 0;
        s->phase = QPX_IDLE;
        s->result = 0;
        pools_release(s);
        return;
    }
    /* the QPs stay ready for the console; the next session frees them */
    s->nlast = 0;
    for (uint32_t i = 0; i < s->nqp; i++) {
        if (!s->qp[i]) continue;
        s->last_qp[s->nlast] = s->qp[i];
        s->last_qpn[s->nlast++] = s->qp[i]->qpn;
        s->qp[i] = NULL;
    }
    if (s->mr) {
        s->last_mr = s->mr;
        s->last_key = s->mr->key;
        s->mr = NULL;
    }
    s->phase = QPX_IDLE;
    s->result = 0;
    if (s->nlast == 0 && !s->last_mr) pools_release(s);
}

/* Run the current step: 1 advanced, 0 waiting, -1 failed (printed). */
static int run_step(void) {
    const struct step *st = &s->steps[s->cur];
    uint8_t buf[QPX_PT_DEST_LEN];
    char b[16];

    if (!s->step_started) {
        s->step_started = true;
        s->deadline = tmr_cycles() + tmr_ms_to_cycles(s->o.step_ms);
    }
    /* perftest's client closes right after its "done" (an RST when ours comes later):
       what arrived before the reset still counts, and our "done" has no reader left */
    if (s->reset && st->kind != SK_CLOSE &&
        !(st->kind == SK_RECV && s->rxlen >= item_size(st->item))) {
        if (st->kind == SK_SEND && st->item == IT_DONE && s->rxlen >= QPX_DONE_LEN) {
            s->cur++;
            s->step_started = false;
            return 1;
        }
        if (!s->o.server && s->cur <= 1 && s->rxlen == 0) {
            char ip[16];
            ip_str(s->peer_ip, ip);
            fail("%s port %u reset the connection before answering: a session there has its "
                 "client already (try another port), or it ended", ip, s->port);
            return -1;
        }
        fail("the peer reset the connection (lwIP error %d) during %s", s->reset_err, step_what());
        return -1;
    }
    switch (st->kind) {
    case SK_SEND: {
        if (st->cm_listen && !s->cm_listening && cm_listen_qps() != 0) return -1;
        uint32_t n = encode(st->item, st->qp, buf);
        if (s->o.rdma_cm) {
            int r = comm_send(buf, n);
            if (r == 1) break;
            if (r == 0 && st->item == IT_PT_REPORT) s->reports_out--;
            if (r == 0 && tmr_cycles() >= s->deadline) {
                fail("could not send the %s within %lu ms", item_name[st->item],
                     (unsigned long)s->o.step_ms);
                return -1;
            }
            return r < 0 ? -1 : 0;
        }
        err_t e = tcp_write(s->pcb, buf, (u16_t)n, TCP_WRITE_FLAG_COPY);
        if (e == ERR_MEM) { /* no room yet: lwIP frees it as ACKs come */
            if (st->item == IT_PT_REPORT) s->reports_out--;
            if (tmr_cycles() < s->deadline) return 0;
            fail("could not send the %s within %lu ms", item_name[st->item],
                 (unsigned long)s->o.step_ms);
            return -1;
        }
        if (e != ERR_OK) {
            fail("sending the %s failed (lwIP error %d)", item_name[st->item], e);
            return -1;
        }
        tcp_output(s->pcb);
        break;
    }
    case SK_RECV: {
        uint32_t need = item_size(st->item);
        if (st->extra && other_test_started()) return -1;
        if (s->rxlen < need) {
            if (s->rx_overflow) {
                fail("the peer sent more than %u bytes without waiting for an answer", RX_MAX);
                return -1;
            }
            if (s->peer_closed) {
                fail("the peer closed the connection after %lu of %lu bytes of the %s",
                     (unsigned long)s->rxlen, (unsigned long)need, item_name[st->item]);
                return -1;
            }
            if (tmr_cycles() >= s->deadline) {
                fail("timeout: no %s from the peer within %lu ms (got %lu of %lu bytes)",
                     item_name[st->item], (unsigned long)s->o.step_ms, (unsigned long)s->rxlen,
                     (unsigned long)need);
                return -1;
            }
            return 0;
        }
        if (take(st->item, st->qp, s->rx, need) != 0) return -1;
        s->rxlen -= need;
        memmove(s->rx, s->rx + need, s->rxlen);
        break;
    }
    case SK_PROGRAM: {
        int r = program();
        if (r <= 0) return r;
        break;
    }
    case SK_CM_WAIT:
    case SK_CM_CONNECT: {
        int r = st->kind == SK_CM_WAIT ? cm_wait() : cm_connect_all();
        if (r <= 0) return r;
        break;
    }
    case SK_PAUSE:
        if (s->phase == QPX_RUNNING) {
            ip_str(s->peer_ip, b);
            s->phase = QPX_TEST;
            s->result = 0;
            s->rx_packets = s->o.dry ? 0u : roce_hw_read(ROCE_RX_PACKETS);
            s->idle_until = tmr_cycles() + tmr_ms_to_cycles(s->o.idle_ms);
            qpx_tool_test(s->qp, s->nqp, s->mr, &s->o, s->peer_ip, s->peer, s->me);
            say("%s %s with %s ready: %s\n", test_names[s->o.test],
                s->o.server ? "server" : "client", b,
                qpx_tool_active() ? "the NIC runs its side of the test ('tool')"
                : s->o.server     ? "run the test, then the client ends it (answered here)"
                                  : "run the test, then 'qpx finish' ends it");
        }
        /* a server's test has no deadline, but a bound on silence: a peer whose host
           vanished sends no TCP byte and no RoCE packet (a NIC client waits for the
           console's 'qpx finish' instead) */
        if (s->o.server && idle_expired()) {
            fail("the peer went silent: no TCP data and no RoCE packet for %lu ms (--idle)",
                 (unsigned long)s->o.idle_ms);
            return -1;
        }
        if (s->reset) {
            fail("the peer reset the connection during the test");
            return -1;
        }
        if (s->o.server ? (s->rxlen == 0 && !s->peer_closed) : !s->finish_requested) return 0;
        if (barrier_before_traffic()) return -1;
        if (s->o.server && s->rxlen == 0 && s->peer_closed) {
            if (s->o.test == QPX_WRITE_LAT) { /* write_lat has no end-of-test exchange */
                s->phase = QPX_ENDING;
                break;
            }
            fail("the peer closed the connection without the end-of-test exchange");
            return -1;
        }
        s->phase = QPX_ENDING;
        break;
    case SK_CLOSE:
        /* a perftest server gives the client CLOSE_WAIT_MS to close first, as perftest's
           server does: the side that closes first keeps its end in TIME_WAIT (the next
           listen binds with SOF_REUSEADDR either way; a NIC client closes at once) */
        if (s->o.tool == QPX_TOOL_PERFTEST && s->o.server && !s->peer_closed && !s->reset &&
            s->pcb && tmr_cycles() < s->deadline - tmr_ms_to_cycles(s->o.step_ms) +
                                        tmr_ms_to_cycles(CLOSE_WAIT_MS))
            return 0;
        ip_str(s->peer_ip, b);
        if (s->o.rdma_cm && s->o.server && !s->peer_closed &&
            tmr_cycles() < s->deadline - tmr_ms_to_cycles(s->o.step_ms) + tmr_ms_to_cycles(CLOSE_WAIT_MS))
            return 0; /* perftest -R's client disconnects first: its DREQs, answered */
        if (s->o.tool == QPX_TOOL_PINGPONG)
            say("pingpong exchange with %s done\n", b);
        else
            say("%s end-of-test exchange with %s done\n", test_names[s->o.test], b);
        finished();
        return 1;
    }
    s->cur++;
    s->step_started = false;
    return 1;
}

static void poll_one(void) {
    if (s->phase == QPX_IDLE) return;
    if (s->o.rdma_cm) { /* perftest -R: the exchange's own RDMA CM connection, its SENDs */
        if (!s->connected) {
            int r = comm_connect();
            if (r < 0) return;
            s->connected = r == 1;
        }
        if (!s->connected || comm_rx() < 0) return;
        for (uint32_t i = 0; i <= s->nsteps && s->phase != QPX_IDLE; i++)
            if (run_step() != 1) break;
        return;
    }
    if (!s->connected) {
        char b[16];
        ip_str(s->o.peer_ip, b);
        if (s->reset) {
            if (s->o.server)
                fail("the client's connection failed (lwIP error %d)", s->reset_err);
            else
                fail("cannot connect to %s port %u: %s", b, s->port,
                     s->reset_err == ERR_RST ? "refused (nothing listens there)" : "failed");
            return;
        }
        if (tmr_cycles() >= s->deadline) {
            if (s->o.server)
                fail("no client connected to port %u within %lu ms", s->port,
                     (unsigned long)s->o.wait_ms);
            else
                fail("no answer from %s port %u within %lu ms", b, s->port,
                     (unsigned long)s->o.step_ms);
        }
        return;
    }
    for (uint32_t i = 0; i <= s->nsteps && s->phase != QPX_IDLE; i++)
        if (run_step() != 1) break;
}

void qpx_poll(void) {
    struct session *was = s;
    for (uint32_t i = 0; i < QPX_SESSIONS; i++) {
        s = &sessions[i];
        poll_one();
    }
    s = was;
}

/* ---- start, finish, status */

/* Is the last session's QP i still the one it left (not destroyed or reused by the console)? */
static bool last_alive(uint32_t i) {
    if (i >= s->nlast) return false;
    const struct roce_qp *q = s->last_qp[i];
    return q && q->used && q->owner == ROCE_OWNER_QPX && q->qpn == s->last_qpn[i];
}

static void release_last(void) {
    for (uint32_t i = 0; i < s->nlast; i++) {
        if (last_alive(i)) roce_qp_destroy(s->last_qp[i]);
        s->last_qp[i] = NULL;
    }
    s->nlast = 0;
    if (s->last_mr && s->last_mr->used && s->last_mr->key == s->last_key) roce_mr_dereg(s->last_mr);
    s->last_mr = NULL;
    s->buf_known = false;
    if (!active(s)) pools_release(s);
}

/* A free session: every session that ended gives back the QPs it left (not for a dry run,
   which leaves them to the console as one session does); NULL when all are taken. */
static struct session *session_for(bool dry) {
    struct session *was = s, *got = NULL;
    for (uint32_t i = 0; i < QPX_SESSIONS; i++) {
        s = &sessions[i];
        s->id = (uint8_t)(i + 1u);
        if (!active(s) && !dry) release_last();
        if (!got && !active(s) && s->pool_n == 0) got = s;
    }
    s = was;
    return got;
}

static void destroy_qps(void) {
    for (uint32_t i = 0; i < s->nqp; i++) {
        if (s->qp[i]) roce_qp_destroy(s->qp[i]);
        s->qp[i] = NULL;
    }
}

int qpx_start(const struct qpx_opts *o, const char **err) {
    static char msg[96];
    uint16_t port = o->port ? o->port : QPX_TCP_PORT;
    for (uint32_t i = 0; i < QPX_SESSIONS; i++) {
        const struct session *x = &sessions[i];
        if (!active(x)) continue;
        if (o->rdma_cm && x->o.rdma_cm) { /* one RDMA CM listener, one -R exchange state */
            snprintf(msg, sizeof msg,
                     "perftest -R: session %u uses RDMA CM (one -R session at a time; "
                     "'qpx abort %u' ends it)",
                     x->id, x->id);
            *err = msg;
            return -1;
        }
        if (o->server && x->o.server && x->port == port) {
            snprintf(msg, sizeof msg,
                     "session %u listens on port %u (see 'qpx'; another port: "
                     "--port P)",
                     x->id, port);
            *err = msg;
            return -1;
        }
    }
    struct netif *n = net_netif();
    if (!n) {
        *err = "no management port";
        return -1;
    }
    struct session *x = session_for(o->dry);
    if (!x) {
        snprintf(msg, sizeof msg,
                 "all %u sessions are running (see 'qpx'; 'qpx abort ID' ends "
                 "one)",
                 QPX_SESSIONS);
        *err = msg;
        return -1;
    }
    uint32_t nqp = o->nqp < 1 ? 1u : o->nqp;
    if (pools_take(x, nqp) != 0) {
        snprintf(msg, sizeof msg,
                 "the running sessions hold QPs: no room for %lu more (%u in "
                 "all)",
                 (unsigned long)nqp, QPX_MAX_QPS);
        *err = msg;
        return -1;
    }
    s = x;
    s->port = port;
    s->buf = QPX_BUF_BASE + (uint64_t)(s->id - 1u) * QPX_BUF_BYTES;
    s->seq = ++seq_next;
    s->refused = 0;
    s->t_start = s->t_conn = tmr_cycles();
    s->o = *o;
    s->o.session = s->id;
    s->cur = 0;
    s->step_started = s->finish_requested = false;
    s->connected = s->peer_closed = s->reset = s->rx_overflow = false;
    s->arp_asked = false;
    s->rxlen = 0;
    s->reports_in = s->reports_out = 0;
    s->cm_done = s->cm_tries = 0;
    s->cm_busy = s->cm_listening = false;
    s->cm_retry_at = 0;
    s->comm = NULL;
    s->comm_tx = 0;
    s->mtu_enum = mtu_offer(); /* perftest: lowered to the peer's offer if smaller */
    s->peer_ip = o->peer_ip;
    s->nqp = nqp;
    s->mr = NULL;
    /* each QP has its part of the test buffer: perftest sends each QP's own address */
    for (uint32_t i = 0; i < s->nqp; i++) {
        struct qpx_dest *me = &s->me[i];
        me->psn = roce_random_psn();
        me->qpn = ROCE_FIRST_QPN + i; /* dry run: what rxe's first QPs would be */
        me->vaddr = s->buf + (uint64_t)i * part_bytes();
        me->out_reads = o->tool == QPX_TOOL_PERFTEST && is_read() && !o->dry
                            ? (uint16_t)roce_hw_caps()->max_rd_atomic
                            : 1u;
        qpx_gid_from_ipv4(lwip_ntohl(ip4_addr_get_u32(netif_ip4_addr(n))), me->gid);
    }
    s->buf_known = false;
    if (!o->dry && !o->rdma_cm) { /* perftest -R: RDMA CM makes the QPs and MRs (cm.c) */
        /* the session's own protection domain: its QPs and the MR over its buffer */
        uint32_t pd = roce_pd_session(err);
        if (!pd) goto undo;
        s->mr = roce_mr_reg(s->buf, QPX_BUF_BYTES, ROCE_MR_ACCESS_ALL, pd, err);
        if (!s->mr) goto undo;
        for (uint32_t i = 0; i < s->nqp; i++) {
            s->qp[i] = roce_qp_create(ROCE_OWNER_QPX, pd, err);
            if (!s->qp[i]) goto undo;
            s->me[i].qpn = s->qp[i]->qpn;
            s->me[i].rkey = s->mr->key;
        }
    }
    build_steps();

    if (o->rdma_cm) { /* perftest -R: the exchange goes over RDMA CM too (qpx_poll) */
        if (o->server) {
            if (cm_listen(s->port, o->mtu, QPX_TOOL_PERFTEST, 1, err) != 0) goto undo;
            s->cm_listening = true;
            s->deadline = tmr_cycles() + tmr_ms_to_cycles(o->wait_ms);
        } else {
            s->deadline = tmr_cycles() + tmr_ms_to_cycles(o->step_ms);
        }
        s->phase = QPX_RUNNING;
        s->result = 0;
        return s->id;
    }

    net_tcp_make_room(); /* a SYN flood's half-open connections do not keep us out */
    struct tcp_pcb *p = tcp_new();
    if (!p) {
        *err = "no free TCP PCB";
        goto undo;
    }
    if (o->server) {
        /* the port again at once, though the last session's connection may still be in
           TIME_WAIT (the side that closes first keeps it there for 2 MSL) */
        ip_set_option(p, SOF_REUSEADDR);
        if (tcp_bind(p, IP_ANY_TYPE, s->port) != ERR_OK) {
            tcp_close(p);
            snprintf(msg, sizeof msg, "TCP port %u is in use", s->port);
            *err = msg;
            goto undo;
        }
        s->lpcb = tcp_listen_with_backlog(p, 1);
        if (!s->lpcb) {
            tcp_close(p);
            snprintf(msg, sizeof msg, "cannot listen on TCP port %u", s->port);
            *err = msg;
            goto undo;
        }
        tcp_arg(s->lpcb, s);
        tcp_accept(s->lpcb, on_accept);
        s->deadline = tmr_cycles() + tmr_ms_to_cycles(o->wait_ms);
    } else {
        ip_addr_t to;
        IP_ADDR4(&to, o->peer_ip >> 24, o->peer_ip >> 16 & 0xffu, o->peer_ip >> 8 & 0xffu,
                 o->peer_ip & 0xffu);
        take_pcb(s, p);
        if (tcp_connect(p, &to, s->port, on_connected) != ERR_OK) {
            tcp_forget(p);
            tcp_abort(p);
            s->pcb = NULL;
            *err = "cannot start the TCP connection (no route?)";
            goto undo;
        }
        tcp_output(p);
        s->deadline = tmr_cycles() + tmr_ms_to_cycles(o->step_ms);
    }
    s->phase = QPX_RUNNING;
    s->result = 0;
    for (uint32_t i = 0; i < s->nqp && !o->rdma_cm; i++) /* -R: once RDMA CM made them */
        print_dest("local", &s->me[i]);
    return s->id;
undo:
    destroy_qps();
    if (s->mr) roce_mr_dereg(s->mr);
    s->mr = NULL;
    pools_release(s);
    return -1;
}

int qpx_pick(uint32_t id, uint32_t *out, const char **err) {
    static char msg[96];
    if (id) {
        const struct session *x = by_id(id);
        if (!x || !active(x)) {
            uint32_t ids[QPX_SESSIONS], n = qpx_sessions(ids);
            int k = snprintf(msg, sizeof msg, "no session %lu (", (unsigned long)id);
            for (uint32_t i = 0; i < n && k > 0 && k < (int)sizeof msg; i++)
                k += snprintf(msg + k, sizeof msg - (size_t)k, i ? ", %lu" : "running: %lu",
                              (unsigned long)ids[i]);
            if (k > 0 && k < (int)sizeof msg)
                snprintf(msg + k, sizeof msg - (size_t)k, "%s)", n ? "" : "none runs");
            *err = msg;
            return -1;
        }
        *out = id;
        return 0;
    }
    uint32_t ids[QPX_SESSIONS], n = qpx_sessions(ids);
    if (n == 0) {
        *err = "no session";
        return -1;
    }
    if (n > 1) {
        int k = snprintf(msg, sizeof msg, "%lu sessions run (", (unsigned long)n);
        for (uint32_t i = 0; i < n && k > 0 && k < (int)sizeof msg; i++)
            k += snprintf(msg + k, sizeof msg - (size_t)k, i ? ", %lu" : "%lu",
                          (unsigned long)ids[i]);
        if (k > 0 && k < (int)sizeof msg) snprintf(msg + k, sizeof msg - (size_t)k, "): say which");
        *err = msg;
        return -1;
    }
    *out = ids[0];
    return 0;
}

int qpx_finish(uint32_t id, const char **err) {
    struct session *x = by_id(id);
    if (!x || x->phase != QPX_TEST) {
        *err = "no perftest session is waiting for the end of its test";
        return -1;
    }
    if (x->o.server) {
        *err = "the server answers the client's end of the test on its own";
        return -1;
    }
    x->finish_requested = true;
    x->phase = QPX_ENDING;
    return 0;
}

static void status_one(void) {
    char b[16];
    ip_str(s->peer_ip, b);
    static const char *const phases[] = {"idle", "exchanging", "test running", "ending the test"};
    say("%s %s%s, peer %s, %s, step %lu of %lu (%s)\n",
        s->o.tool == QPX_TOOL_PINGPONG ? "pingpong" : test_names[s->o.test],
        s->o.server ? "server" : "client",
        s->o.dry       ? " (dry run)"
        : s->o.rdma_cm ? " (perftest -R: RDMA CM)"
                       : "",
        s->have_peer[0] || !s->o.server ? b : "not yet known", phases[s->phase],
        (unsigned long)s->cur + 1u, (unsigned long)s->nsteps, step_what());
    if (s->port != QPX_TCP_PORT || s->refused)
        say("port %u, clients refused %lu\n", s->port, (unsigned long)s->refused);
    for (uint32_t i = 0; i < s->nqp; i++)
        if (s->qp[i])
            say("QP 0x%lx %s, buffer 0x%llx + 0x%llx rkey 0x%08lx\n", (unsigned long)s->qp[i]->qpn,
                roce_qp_state_name(s->qp[i]->ctx.state), (unsigned long long)s->me[i].vaddr,
                (unsigned long long)part_bytes(), (unsigned long)s->mr->key);
}

void qpx_status_print(void) {
    struct session *was = s;
    bool any = false, left = false;
    for (uint32_t i = 0; i < QPX_SESSIONS; i++) {
        s = &sessions[i];
        if (!active(s)) continue;
        status_one();
        any = true;
    }
    if (!any) {
        printf("qpx: no session");
        for (uint32_t k = 0; k < QPX_SESSIONS; k++) {
            s = &sessions[k];
            for (uint32_t i = 0; i < s->nlast; i++) {
                if (!last_alive(i)) continue;
                printf(!left ? "; the last one left QP 0x%lx (%s)" : ", 0x%lx (%s)",
                       (unsigned long)s->last_qpn[i], roce_qp_state_name(s->last_qp[i]->ctx.state));
                left = true;
            }
        }
        printf("\n");
    }
    s = was;
}

/* Session x's first QP: RTS while it runs, or the first one it left. */
static struct roce_qp *qp_of(struct session *x) {
    if (x->pool_n == 0) return NULL;
    if (x->qp[0] && x->qp[0]->used && x->qp[0]->ctx.state == ROCE_QPS_RTS) return x->qp[0];
    struct session *was = s;
    s = x;
    struct roce_qp *q = last_alive(0) ? s->last_qp[0] : NULL;
    s = was;
    return q;
}

struct roce_qp *qpx_qp(uint32_t id) {
    if (id) {
        struct session *x = by_id(id);
        return x ? qp_of(x) : NULL;
    }
    struct roce_qp *best = NULL;
    uint32_t seq = 0;
    for (uint32_t i = 0; i < QPX_SESSIONS; i++) {
        struct roce_qp *q = qp_of(&sessions[i]);
        if (q && sessions[i].seq >= seq) {
            best = q;
            seq = sessions[i].seq;
        }
    }
    return best;
}

uint64_t qpx_qp_buffer(uint32_t qpn) {
    for (uint32_t i = 0; i < QPX_SESSIONS; i++) {
        struct session *x = &sessions[i];
        for (uint32_t k = 0; k < x->pool_n; k++) {
            const struct roce_qp *q = k < x->nqp && x->qp[k] ? x->qp[k]
                                      : k < x->nlast         ? x->last_qp[k]
                                                             : NULL;
            if (q && q->used && q->qpn == qpn) return x->buf;
        }
    }
    return QPX_BUF_BASE;
}

int qpx_peer_buffer(uint32_t qpn, uint32_t *rkey, uint64_t *vaddr) {
    const struct roce_qp *qp = roce_qp_find(qpn);
    if (!qp || qp->owner != ROCE_OWNER_QPX) return -1;
    for (uint32_t i = 0; i < QPX_SESSIONS; i++) {
        const struct session *x = &sessions[i];
        if (!x->buf_known || x->buf_qpn != qpn) continue;
        *rkey = x->buf_rkey;
        *vaddr = x->buf_vaddr;
        return 0;
    }
    return -1;
}
