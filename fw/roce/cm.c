/*
 * RDMA CM, the passive side (see cm.h). A small table of connections, each
 * keyed by the peer's IP and communication ID (theirs) and by ours; the
 * last MAD sent on a connection is kept so that a duplicate or a timeout
 * sends exactly it again.
 */
#include "cm.h"

#include <stdio.h>
#include <string.h>

#include "cm_mad.h"
#include "noinit.h"
#include "lwip/etharp.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "net.h"
#include "qpx.h"
#include "qpx_msg.h"
#include "qpx_tool.h"
#include "roce.h"
#include "timer.h"

#define CM_TTL 64u
#define CM_MIN_TIMEOUT_MS 1u

struct cm_conn {
    uint8_t state; /* enum cm_state */
    bool active;   /* we sent the REQ (connect --cm) */
    bool arp_asked;
    uint16_t port;
    uint32_t local_id, remote_id;
    uint32_t peer_ip;
    uint8_t peer_mac[6];
    /* each side's starting PSN is the one it expects to receive (the kernel's CM: the REQ's
       is the active side's rq_psn and the passive side's sq_psn, the REP's the other way) */
    uint32_t peer_qpn, peer_psn, my_psn;
    uint32_t flow_label; /* the path's (the REQ's) */
    uint8_t pmtu;
    struct roce_qp *qp;
    uint32_t qpn;
    struct roce_mr *mr;
    uint32_t mr_key;
    /* the last MAD sent (REP, DREP) and its retransmission */
    uint8_t last[CM_MAD_BYTES];
    uint32_t timeout_ms, retries_left;
    uint64_t deadline; /* REP: resend; TIMEWAIT: free */
    bool by_first_packet; /* established by the first request executed, not by an RTU */
    uint8_t tool;         /* enum qpx_tool: the data phase with 'tool on' (echo or rping);
                             QPX_TOOL_PERFTEST: a perftest -R session's QP (qpx.c's) */
    uint32_t seq;         /* creation order (a perftest -R session's QPs in order) */
};

/* not cleared at start-up (22 KB of the boot's stores): cm_init marks every slot free,
   free_slot clears the one it hands out, every reader checks the state */
NOINIT(cm_conns) static struct cm_conn conns[CM_MAX_CONNS];
static int conns_hi; /* every slot from here on is free: cm_poll, on each pass, looks below */

static struct {
    bool listening;
    uint16_t port;
    uint8_t mtu_cap;
    uint8_t tool; /* the listen's data phase (enum qpx_tool) */
    uint32_t left; /* connection requests the listen still takes */
    uint32_t seq;
    int result; /* the listen's: 1 connected, 0 waiting, -1 none */
    int conn_result; /* connect --cm's: 1 established, 0 in progress, -1 failed or none */
    uint16_t ip_id;
    uint32_t psn; /* BTH PSN of our QP 1 */
    /* counters for 'stats' */
    uint32_t rx, tx, malformed, dups, resent, rej_sent, rej_rcvd, unmatched, tx_fail, refused_ud;
    const char *last_bad;
    bool told_ud;
} cm = {.result = -1, .conn_result = -1};

static void ip_str(uint32_t ip, char out[16]) {
    snprintf(out, 16, "%u.%u.%u.%u", (unsigned)(ip >> 24), (unsigned)(ip >> 16 & 0xffu),
             (unsigned)(ip >> 8 & 0xffu), (unsigned)(ip & 0xffu));
}

static uint32_t timeout_ms(uint8_t t) {
    /* 4.096 us << t, capped: the simulation runs slower than the peer's clock */
    uint64_t ms = ((uint64_t)4096u << (t & 31u)) / 1000000u;
    if (ms < CM_MIN_TIMEOUT_MS) ms = CM_MIN_TIMEOUT_MS;
    if (ms > CM_REP_TIMEOUT_MAX_MS) ms = CM_REP_TIMEOUT_MAX_MS;
    return (uint32_t)ms;
}

static uint32_t new_comm_id(void) {
    uint32_t id;
    do {
        id = roce_random_psn() << 8 ^ roce_random_psn();
    } while (id == 0);
    return id;
}

/* Our CA GUID: the EUI-64 of the MAC, as rxe derives its node GUID. */
static uint64_t ca_guid(const uint8_t *mac) {
    return (uint64_t)(mac[0] ^ 2u) << 56 | (uint64_t)mac[1] << 48 | (uint64_t)mac[2] << 40 |
           (uint64_t)0xfffeu << 24 | (uint64_t)mac[3] << 16 | (uint64_t)mac[4] << 8 | mac[5];
}

/* The RoCEv2 UDP source port of a path's flow label (the kernel's rule, which rxe applies to
   an rdma_cm QP: the REQ's flow label is the path's, both ways), else rxe's rule of the QPNs. */
static uint16_t path_sport(uint32_t flow_label, uint32_t lqpn, uint32_t rqpn) {
    if (flow_label == 0) return qpx_udp_sport(lqpn, rqpn);
    uint32_t fl = flow_label & 0xfffffu;
    return (uint16_t)(0xc000u | ((fl & 0x3fffu) ^ (fl >> 14)));
}

/* ---- sending */

/* The MAD in a frame to peer_ip/peer_mac from our addresses, straight onto the netif. */
static int send_mad(uint32_t peer_ip, const uint8_t *peer_mac, const uint8_t mad[CM_MAD_BYTES]) {
    static uint8_t frame[CM_FRAME_BYTES];
    struct netif *n = net_netif();
    if (!n) return -1;
    struct cm_addr a;
    memset(&a, 0, sizeof a);
    memcpy(a.dst_mac, peer_mac, 6);
    memcpy(a.src_mac, n->hwaddr, 6);
    a.src_ip = lwip_ntohl(ip4_addr_get_u32(netif_ip4_addr(n)));
    a.dst_ip = peer_ip;
    a.ip_id = cm.ip_id++;
    a.ttl = CM_TTL;
    a.sport = (uint16_t)(0xc000u | (cm.ip_id & 0x3fffu));
    a.dport = CM_ROCE_PORT;
    a.pkey = CM_DEFAULT_PKEY;
    a.dest_qp = CM_GSI_QPN;
    a.psn = cm.psn++ & 0xffffffu;
    a.qkey = CM_QP1_QKEY;
    a.src_qp = CM_GSI_QPN;
    size_t len = cm_frame_encode(&a, mad, frame);
    struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t)len, PBUF_REF);
    if (!p) {
        cm.tx_fail++;
        return -1;
    }
    p->payload = frame;
    err_t e = n->linkoutput(n, p);
    pbuf_free(p);
    if (e != ERR_OK) {
        cm.tx_fail++;
        return -1;
    }
    cm.tx++;
    return 0;
}

static void send_msg(uint32_t peer_ip, const uint8_t *peer_mac, const struct cm_msg *m,
                     uint8_t *keep) {
    uint8_t mad[CM_MAD_BYTES];
    cm_mad_encode(m, mad);
    if (keep) memcpy(keep, mad, CM_MAD_BYTES);
    (void)send_mad(peer_ip, peer_mac, mad);
}

/* A REJ to a message we received (remote = its sender's comm ID), no connection kept. */
static void send_rej(const struct cm_addr *a, const struct cm_msg *req, uint32_t local_id,
                     uint8_t msg, uint16_t reason) {
    struct cm_msg r;
    memset(&r, 0, sizeof r);
    r.attr = CM_ATTR_REJ;
    r.tid = req->tid;
    r.local_comm_id = local_id;
    r.remote_comm_id = req->local_comm_id;
    r.msg = msg;
    r.reason = reason;
    send_msg(a->src_ip, a->src_mac, &r, NULL);
    cm.rej_sent++;
}

/* ---- connections */

void cm_init(void) {
    for (int i = 0; i < CM_MAX_CONNS; i++) conns[i].state = CM_FREE;
}

static struct cm_conn *find_remote(uint32_t peer_ip, uint32_t remote_id) {
    for (int i = 0; i < CM_MAX_CONNS; i++)
        if (conns[i].state != CM_FREE && conns[i].peer_ip == peer_ip && conns[i].remote_id == remote_id)
            return &conns[i];
    return NULL;
}

/* A message answering ours: its remote ID is our local ID (and its local ID the peer's). */
static struct cm_conn *find_ours(const struct cm_addr *a, const struct cm_msg *m) {
    for (int i = 0; i < CM_MAX_CONNS; i++) {
        struct cm_conn *c = &conns[i];
        if (c->state != CM_FREE && c->local_id == m->remote_comm_id && c->peer_ip == a->src_ip &&
            (m->local_comm_id == 0 || c->remote_id == 0 || m->local_comm_id == c->remote_id))
            return c;
    }
    return NULL;
}

static bool qp_ours(const struct cm_conn *c) {
    return c->qp && c->qp->used && c->qp->qpn == c->qpn && c->qp->owner == ROCE_OWNER_CM;
}

static void release(struct cm_conn *c) {
    if (c->active && c->state != CM_ESTABLISHED && c->state != CM_TIMEWAIT && cm.conn_result == 0)
        cm.conn_result = -1;
    if (qp_ours(c)) roce_qp_destroy(c->qp);
    if (c->mr && c->mr->used && c->mr->key == c->mr_key) roce_mr_dereg(c->mr);
    memset(c, 0, sizeof *c);
}

/* A free connection slot; when none is, the one longest in time-wait (that only answers
   duplicates; a session of perftest -R -q N uses N + 1 at once). NULL when all are busy. */
static struct cm_conn *free_slot(void) {
    struct cm_conn *tw = NULL;
    for (int i = 0; i < CM_MAX_CONNS; i++) {
        struct cm_conn *c = &conns[i];
        if (c->state == CM_FREE) {
            if (i >= conns_hi) conns_hi = i + 1;
            memset(c, 0, sizeof *c);
            return c;
        }
        if (c->state == CM_TIMEWAIT && (!tw || c->deadline < tw->deadline)) tw = c;
    }
    if (tw) release(tw);
    return tw;
}

static void establish(struct cm_conn *c, const char *how) {
    char b[16];
    ip_str(c->peer_ip, b);
    c->state = CM_ESTABLISHED;
    if (qp_ours(c)) {
        struct roce_qp_ctx x = c->qp->ctx;
        x.state = ROCE_QPS_RTS;
        roce_qp_modify(c->qp, &x);
    }
    printf("cm: QP 0x%lx established with %s port %u (%s)\n", (unsigned long)c->qpn, b, c->port,
           how);
    if (c->active) {
        if (cm.conn_result == 0) cm.conn_result = 1;
    } else if (cm.result == 0) {
        cm.result = 1;
    }
    /* with 'tool on' the NIC echoes each SEND as ibv_rc_pingpong's server does (passive), or
       sends and waits for the echo as its client does (active); or runs rping's protocol */
    struct qpx_opts o;
    memset(&o, 0, sizeof o);
    o.server = !c->active;
    o.tool = c->tool;
    if (qp_ours(c) && c->tool != QPX_TOOL_PERFTEST) qpx_tool_begin(c->qp, c->mr, &o, c->peer_ip);
}

/* ---- REQ */

static const char *transport_name(uint8_t t) {
    static const char *const n[] = {"RC", "UC", "RD", "XRC"};
    return n[t & 3u];
}

static void on_req(const struct cm_addr *a, const struct cm_msg *m) {
    char b[16];
    ip_str(a->src_ip, b);
    struct cm_conn *c = find_remote(a->src_ip, m->local_comm_id);
    if (c) { /* the peer sent its REQ again: our REP was lost or is late */
        cm.dups++;
        if (c->state == CM_REP_SENT) {
            (void)send_mad(c->peer_ip, c->peer_mac, c->last);
            cm.resent++;
        } else if (c->state == CM_TIMEWAIT) {
            send_rej(a, m, c->local_id, CM_REJ_MSG_REQ, CM_REJ_STALE_CONN);
        }
        return;
    }
    uint16_t port = 0;
    bool ps_tcp = cm_service_port(m->service_id, &port) == 0;
    if (m->transport != CM_TS_RC || m->ext_transport != 0) {
        cm.refused_ud++;
        printf("cm: REQ from %s for %s: UD/UC not supported (only RC): REJ (invalid transport "
               "service type)\n",
               b, m->ext_transport ? "an extended transport" : transport_name(m->transport));
        send_rej(a, m, 0, CM_REJ_MSG_REQ, CM_REJ_INVALID_TRANSPORT);
        return;
    }
    if (!ps_tcp || !cm.listening || port != cm.port) {
        if (ps_tcp)
            printf("cm: REQ from %s for port %u: nobody listens there: REJ (invalid service ID)%s\n",
                   b, port,
                   port == QPX_TCP_PORT ? " (perftest -R? listen/connect --rdma-cm)" : "");
        else
            printf("cm: REQ from %s for service ID 0x%016llx (not RDMA_PS_TCP): REJ (invalid "
                   "service ID)\n",
                   b, (unsigned long long)m->service_id);
        send_rej(a, m, 0, CM_REJ_MSG_REQ, CM_REJ_INVALID_SERVICE_ID);
        return;
    }
    struct cm_cma_hdr h;
    const char *err;
    if (cm_cma_decode(m->pdata, m->pdata_len, &h, &err) != 0) {
        printf("cm: REQ from %s for port %u: %s: REJ (consumer)\n", b, port, err);
        send_rej(a, m, 0, CM_REJ_MSG_REQ, CM_REJ_CONSUMER);
        return;
    }
    if (m->mtu < 1 || m->mtu > ROCE_MAX_PMTU) {
        printf("cm: REQ from %s: path MTU enum %u is not 1..5: REJ (invalid MTU)\n", b, m->mtu);
        send_rej(a, m, 0, CM_REJ_MSG_REQ, CM_REJ_INVALID_MTU);
        return;
    }
    c = free_slot();
    if (!c) {
        printf("cm: REQ from %s: all %d connections are in use: REJ (no resources)\n", b,
               CM_MAX_CONNS);
        send_rej(a, m, 0, CM_REJ_MSG_REQ, CM_REJ_NO_RESOURCES);
        return;
    }
    memset(c, 0, sizeof *c);
    uint32_t pd = roce_pd_session(&err); /* the connection's own protection domain */
    c->mr = pd ? roce_mr_reg(QPX_BUF_BASE, QPX_BUF_BYTES, ROCE_MR_ACCESS_ALL, pd, &err) : NULL;
    if (c->mr) {
        c->mr_key = c->mr->key;
        c->qp = roce_qp_create(ROCE_OWNER_CM, pd, &err);
    }
    if (!c->mr || !c->qp) {
        printf("cm: REQ from %s: %s: REJ (no QP)\n", b, err);
        release(c);
        send_rej(a, m, 0, CM_REJ_MSG_REQ, CM_REJ_NO_QP);
        return;
    }
    c->qpn = c->qp->qpn;
    c->port = port;
    c->local_id = new_comm_id();
    c->remote_id = m->local_comm_id;
    c->peer_ip = a->src_ip;
    memcpy(c->peer_mac, a->src_mac, 6);
    c->peer_qpn = m->qpn;
    c->peer_psn = m->psn;
    c->my_psn = roce_random_psn();
    c->pmtu = m->mtu;
    if (cm.mtu_cap && c->pmtu > cm.mtu_cap) c->pmtu = cm.mtu_cap;
    c->tool = cm.tool;
    c->seq = ++cm.seq;

    /* the QP from the REQ: the peer's QPN and PSN, the path, its retry counts; READ depths:
       what the peer issues (its initiator depth) is what we take, what it takes (its
       responder resources) is what we may issue */
    uint32_t cap = roce_hw_caps()->max_rd_atomic;
    struct roce_qp_ctx x = c->qp->ctx;
    x.pmtu = c->pmtu;
    x.remote_qpn = m->qpn;
    x.remote_ip = a->src_ip;
    memcpy(x.remote_mac, a->src_mac, 6);
    c->flow_label = m->flow_label;
    x.udp_sport = path_sport(m->flow_label, c->qpn, m->qpn);
    x.rq_psn = c->my_psn;
    x.sq_psn = m->psn;
    x.retry_cnt = m->retry_count;
    x.rnr_retry = m->rnr_retry;
    if (m->local_ack_timeout && m->local_ack_timeout < x.timeout) x.timeout = m->local_ack_timeout;
    x.max_dest_rd_atomic = (uint8_t)(m->init_depth < 1 ? 1 : m->init_depth > cap ? cap : m->init_depth);
    x.max_rd_atomic = (uint8_t)(m->resp_resources < 1 ? 1 : m->resp_resources > cap ? cap : m->resp_resources);
    if (roce_qp_auto_recv(c->qp, QPX_BUF_BASE, QPX_BUF_BYTES, c->mr->key,
                          roce_hw_caps()->rq_depth) != 0) {
        printf("cm: REQ from %s: the transport refused the receive WQEs: REJ (no resources)\n", b);
        release(c);
        send_rej(a, m, 0, CM_REJ_MSG_REQ, CM_REJ_NO_RESOURCES);
        return;
    }
    x.state = ROCE_QPS_RTR;
    roce_qp_modify(c->qp, &x);

    struct cm_msg r;
    memset(&r, 0, sizeof r);
    r.attr = CM_ATTR_REP;
    r.tid = m->tid;
    r.local_comm_id = c->local_id;
    r.remote_comm_id = c->remote_id;
    r.qpn = c->qpn;
    r.psn = c->my_psn;
    r.resp_resources = x.max_dest_rd_atomic;
    r.init_depth = x.max_rd_atomic;
    r.rnr_retry = 7; /* receives are posted again as they complete */
    r.ca_guid = ca_guid(net_netif()->hwaddr);
    send_msg(c->peer_ip, c->peer_mac, &r, c->last);
    c->state = CM_REP_SENT;
    c->timeout_ms = timeout_ms(m->local_cm_timeout);
    c->retries_left = m->max_cm_retries;
    c->deadline = tmr_cycles() + tmr_ms_to_cycles(c->timeout_ms);
    printf("cm: REQ from %s port %u (QPN 0x%lx, PSN 0x%06lx, PMTU %lu, librdmacm %u.%u.%u.%u:%u): "
           "QP 0x%lx RTR, REP sent\n",
           b, port, (unsigned long)m->qpn, (unsigned long)m->psn,
           (unsigned long)qpx_mtu_bytes(c->pmtu), (unsigned)(h.src_ip >> 24),
           (unsigned)(h.src_ip >> 16 & 0xffu), (unsigned)(h.src_ip >> 8 & 0xffu),
           (unsigned)(h.src_ip & 0xffu), h.src_port, (unsigned long)c->qpn);
    if (--cm.left == 0) cm.listening = false; /* as many connections as the listen asked */
}

/* ---- the other messages */

static void on_sidr_req(const struct cm_addr *a, const struct cm_msg *m) {
    char b[16];
    ip_str(a->src_ip, b);
    cm.refused_ud++;
    printf("cm: SIDR_REQ from %s (a UD service lookup): UD/UC not supported (only RC): "
           "SIDR_REP (unsupported)\n",
           b);
    struct cm_msg r;
    memset(&r, 0, sizeof r);
    r.attr = CM_ATTR_SIDR_REP;
    r.tid = m->tid;
    r.local_comm_id = m->local_comm_id;
    r.reason = CM_SIDR_UNSUPPORTED;
    r.service_id = m->service_id;
    send_msg(a->src_ip, a->src_mac, &r, NULL);
}

static void on_dreq(const struct cm_addr *a, const struct cm_msg *m) {
    struct cm_conn *c = find_ours(a, m);
    struct cm_msg r;
    memset(&r, 0, sizeof r);
    r.attr = CM_ATTR_DREP;
    r.tid = m->tid;
    r.local_comm_id = m->remote_comm_id;
    r.remote_comm_id = m->local_comm_id;
    if (!c) { /* as the IBTA asks: a DREQ for no connection still gets its DREP */
        cm.unmatched++;
        send_msg(a->src_ip, a->src_mac, &r, NULL);
        return;
    }
    if (c->state == CM_TIMEWAIT) {
        cm.dups++;
        (void)send_mad(c->peer_ip, c->peer_mac, c->last);
        return;
    }
    char b[16];
    ip_str(c->peer_ip, b);
    if (c->state == CM_DREQ_SENT) printf("cm: both ends disconnect QP 0x%lx at once\n", (unsigned long)c->qpn);
    send_msg(c->peer_ip, c->peer_mac, &r, c->last);
    c->state = CM_TIMEWAIT;
    c->deadline = tmr_cycles() + tmr_ms_to_cycles(CM_TIMEWAIT_MS);
    printf("cm: DREQ from %s: QP 0x%lx disconnected, DREP sent\n", b, (unsigned long)c->qpn);
}

static void on_drep(const struct cm_addr *a, const struct cm_msg *m) {
    struct cm_conn *c = find_ours(a, m);
    if (!c || c->state != CM_DREQ_SENT) {
        if (c && c->state == CM_TIMEWAIT) cm.dups++;
        else cm.unmatched++;
        return;
    }
    char b[16];
    ip_str(c->peer_ip, b);
    printf("cm: DREP from %s: QP 0x%lx disconnected\n", b, (unsigned long)c->qpn);
    c->state = CM_TIMEWAIT;
    c->deadline = tmr_cycles() + tmr_ms_to_cycles(CM_TIMEWAIT_MS);
}

int cm_disconnect(uint32_t qpn, const char **err) {
    struct cm_conn *c = NULL;
    int n = 0;
    for (int i = 0; i < CM_MAX_CONNS; i++) {
        struct cm_conn *x = &conns[i];
        if (x->state != CM_ESTABLISHED || (qpn && x->qpn != qpn)) continue;
        c = x;
        n++;
    }
    if (!c) {
        *err = qpn ? "that QP has no established RDMA CM connection (see 'qpx')"
                   : "no established RDMA CM connection (see 'qpx')";
        return -1;
    }
    if (n > 1) {
        *err = "several RDMA CM connections are established: name the QP (see 'qpx')";
        return -1;
    }
    struct cm_msg r;
    memset(&r, 0, sizeof r);
    r.attr = CM_ATTR_DREQ;
    r.tid = (uint64_t)c->local_id << 8 | 0xd;
    r.local_comm_id = c->local_id;
    r.remote_comm_id = c->remote_id;
    r.qpn = c->peer_qpn;
    send_msg(c->peer_ip, c->peer_mac, &r, c->last);
    c->state = CM_DREQ_SENT;
    c->retries_left = CM_DREQ_RETRIES;
    c->deadline = tmr_cycles() + tmr_ms_to_cycles(CM_DREQ_MS);
    return 0;
}

bool cm_disconnect_pending(void) {
    for (int i = 0; i < CM_MAX_CONNS; i++)
        if (conns[i].state == CM_DREQ_SENT) return true;
    return false;
}

static void on_rej(const struct cm_addr *a, const struct cm_msg *m) {
    struct cm_conn *c = find_ours(a, m);
    cm.rej_rcvd++;
    if (!c) {
        cm.unmatched++;
        return;
    }
    char b[16];
    ip_str(c->peer_ip, b);
    printf("cm: %s rejected the connection%s of QP 0x%lx: reason %u (%s)\n", b,
           c->active ? " request" : "", (unsigned long)c->qpn, m->reason,
           cm_rej_reason_name(m->reason));
    release(c);
}

/* Active side: the peer's REP to our REQ. */
static void on_rep(const struct cm_addr *a, const struct cm_msg *m) {
    struct cm_conn *c = find_ours(a, m);
    if (!c || !c->active) {
        cm.unmatched++;
        return;
    }
    if (c->state == CM_ESTABLISHED) { /* our RTU was lost: send it again */
        cm.dups++;
        (void)send_mad(c->peer_ip, c->peer_mac, c->last);
        return;
    }
    if (c->state != CM_REQ_SENT) {
        cm.dups++;
        return;
    }
    uint32_t cap = roce_hw_caps()->max_rd_atomic;
    c->remote_id = m->local_comm_id;
    c->peer_qpn = m->qpn;
    c->peer_psn = m->psn;
    struct roce_qp_ctx x = c->qp->ctx;
    x.pmtu = c->pmtu;
    x.remote_qpn = m->qpn;
    x.remote_ip = c->peer_ip;
    memcpy(x.remote_mac, c->peer_mac, 6);
    x.udp_sport = path_sport(c->flow_label, c->qpn, m->qpn);
    x.rq_psn = c->my_psn;
    x.sq_psn = m->psn;
    x.rnr_retry = m->rnr_retry;
    /* its responder resources are the READs we may issue, its initiator depth the ones we take */
    x.max_rd_atomic = (uint8_t)(m->resp_resources < 1 ? 1 : m->resp_resources > cap ? cap : m->resp_resources);
    x.max_dest_rd_atomic = (uint8_t)(m->init_depth < 1 ? 1 : m->init_depth > cap ? cap : m->init_depth);
    x.state = ROCE_QPS_RTR;
    roce_qp_modify(c->qp, &x);
    struct cm_msg r;
    memset(&r, 0, sizeof r);
    r.attr = CM_ATTR_RTU;
    r.tid = m->tid;
    r.local_comm_id = c->local_id;
    r.remote_comm_id = c->remote_id;
    send_msg(c->peer_ip, c->peer_mac, &r, c->last);
    char b[16];
    ip_str(c->peer_ip, b);
    printf("cm: REP from %s (QPN 0x%lx, PSN 0x%06lx): RTU sent\n", b, (unsigned long)m->qpn,
           (unsigned long)m->psn);
    establish(c, "REP");
}

static void on_mra(const struct cm_addr *a, const struct cm_msg *m) {
    struct cm_conn *c = find_ours(a, m);
    if (c && c->state == CM_REQ_SENT && m->msg == CM_MRA_MSG_REQ) {
        c->deadline = tmr_cycles() + tmr_ms_to_cycles(timeout_ms(m->service_timeout) + c->timeout_ms);
        return;
    }
    if (!c || c->state != CM_REP_SENT || m->msg != CM_MRA_MSG_REP) {
        cm.unmatched++;
        return;
    }
    /* the peer needs longer for our REP: wait its service timeout before sending it again */
    uint32_t ms = timeout_ms(m->service_timeout) + c->timeout_ms;
    c->deadline = tmr_cycles() + tmr_ms_to_cycles(ms);
}

void cm_rx(const uint8_t *frame, size_t len) {
    struct cm_addr a;
    const uint8_t *mad;
    const char *err;
    struct cm_msg m;
    cm.rx++;
    if (cm_frame_decode(frame, len, &a, &mad, &err) != 0 ||
        cm_mad_decode(mad, CM_MAD_BYTES, &m, &err) != 0) {
        cm.malformed++;
        cm.last_bad = err;
        return;
    }
    switch (m.attr) {
    case CM_ATTR_REQ: on_req(&a, &m); break;
    case CM_ATTR_SIDR_REQ: on_sidr_req(&a, &m); break;
    case CM_ATTR_RTU: {
        struct cm_conn *c = find_ours(&a, &m);
        if (!c) {
            cm.unmatched++;
        } else if (c->state == CM_REP_SENT) {
            establish(c, "RTU");
        } else {
            cm.dups++;
        }
        break;
    }
    case CM_ATTR_DREQ: on_dreq(&a, &m); break;
    case CM_ATTR_REJ: on_rej(&a, &m); break;
    case CM_ATTR_MRA: on_mra(&a, &m); break;
    case CM_ATTR_REP: on_rep(&a, &m); break;
    case CM_ATTR_DREP: on_drep(&a, &m); break;
    default: cm.unmatched++; break; /* SIDR_REP: the answer to a request we never send */
    }
}

/* ---- the active side */

static void send_req(struct cm_conn *c) {
    struct netif *n = net_netif();
    uint32_t cap = roce_hw_caps()->max_rd_atomic;
    uint32_t me = lwip_ntohl(ip4_addr_get_u32(netif_ip4_addr(n)));
    struct cm_msg m;
    memset(&m, 0, sizeof m);
    m.attr = CM_ATTR_REQ;
    m.tid = (uint64_t)c->local_id;
    m.local_comm_id = c->local_id;
    m.service_id = cm_service_id(c->port);
    m.ca_guid = ca_guid(n->hwaddr);
    m.qpn = c->qpn;
    m.resp_resources = (uint8_t)cap;
    m.init_depth = (uint8_t)cap;
    m.remote_cm_timeout = CM_REQ_TIMEOUT;
    m.local_cm_timeout = CM_REQ_TIMEOUT;
    m.transport = CM_TS_RC;
    m.psn = c->my_psn;
    m.retry_count = c->qp->ctx.retry_cnt;
    m.pkey = CM_DEFAULT_PKEY;
    m.mtu = c->pmtu;
    m.rnr_retry = c->qp->ctx.rnr_retry;
    m.max_cm_retries = CM_REQ_RETRIES;
    m.local_lid = m.remote_lid = 0xffffu; /* RoCE: permissive, as the kernel's CM sends them */
    qpx_gid_from_ipv4(me, m.local_gid);
    qpx_gid_from_ipv4(c->peer_ip, m.remote_gid);
    m.hop_limit = CM_TTL;
    m.flow_label = c->flow_label;
    m.local_ack_timeout = c->qp->ctx.timeout;
    struct cm_cma_hdr h = {.src_port = (uint16_t)(0xc000u | (c->local_id & 0x3fffu)),
                           .src_ip = me, .dst_ip = c->peer_ip};
    cm_cma_encode(&h, m.pdata);
    m.pdata_len = CM_CMA_HDR_BYTES;
    send_msg(c->peer_ip, c->peer_mac, &m, c->last);
    c->state = CM_REQ_SENT;
    c->timeout_ms = timeout_ms(CM_REQ_TIMEOUT);
    c->retries_left = CM_REQ_RETRIES;
    c->deadline = tmr_cycles() + tmr_ms_to_cycles(c->timeout_ms);
}

/* The peer's (or its gateway's) MAC from lwIP's ARP cache, then the REQ. */
static void poll_arp(struct cm_conn *c) {
    struct netif *n = net_netif();
    char b[16];
    ip_str(c->peer_ip, b);
    ip4_addr_t pip, nh;
    ip4_addr_set_u32(&pip, lwip_htonl(c->peer_ip));
    if (ip4_addr_netcmp(&pip, netif_ip4_addr(n), netif_ip4_netmask(n))) {
        nh = pip;
    } else if (!ip4_addr_isany_val(*netif_ip4_gw(n))) {
        nh = *netif_ip4_gw(n);
    } else {
        printf("cm: no route to %s (outside the subnet, no gateway)\n", b);
        release(c);
        return;
    }
    struct eth_addr *eth;
    const ip4_addr_t *ipr;
    if (etharp_find_addr(n, &nh, &eth, &ipr) >= 0) {
        memcpy(c->peer_mac, eth->addr, 6);
        send_req(c);
        printf("cm: REQ sent to %s port %u (QP 0x%lx, PSN 0x%06lx, PMTU %lu)\n", b, c->port,
               (unsigned long)c->qpn, (unsigned long)c->my_psn,
               (unsigned long)qpx_mtu_bytes(c->pmtu));
        return;
    }
    if (!c->arp_asked) {
        (void)etharp_query(n, &nh, NULL);
        c->arp_asked = true;
    }
    if (tmr_cycles() >= c->deadline) {
        printf("cm: no ARP answer from %s within %u ms\n", ip4addr_ntoa(&nh), CM_ARP_MS);
        release(c);
    }
}

int cm_connect(uint32_t peer_ip, uint16_t port, uint8_t mtu, uint8_t tool, const char **err) {
    if (!net_netif()) {
        *err = "no management port";
        return -1;
    }
    for (int i = 0; i < CM_MAX_CONNS; i++) {
        if (conns[i].active && (conns[i].state == CM_ARP || conns[i].state == CM_REQ_SENT)) {
            *err = "a connect --cm is in progress";
            return -1;
        }
    }
    struct cm_conn *c = free_slot();
    if (!c) {
        *err = "all RDMA CM connections are in use (see 'qpx')";
        return -1;
    }
    memset(c, 0, sizeof *c);
    uint32_t pd = roce_pd_session(err); /* the connection's own protection domain */
    c->mr = pd ? roce_mr_reg(QPX_BUF_BASE, QPX_BUF_BYTES, ROCE_MR_ACCESS_ALL, pd, err) : NULL;
    if (c->mr) {
        c->mr_key = c->mr->key;
        c->qp = roce_qp_create(ROCE_OWNER_CM, pd, err);
    }
    if (!c->mr || !c->qp) {
        release(c);
        return -1;
    }
    c->qpn = c->qp->qpn;
    if (roce_qp_auto_recv(c->qp, QPX_BUF_BASE, QPX_BUF_BYTES, c->mr->key,
                          roce_hw_caps()->rq_depth) != 0) {
        release(c);
        *err = "the transport refused the receive WQEs";
        return -1;
    }
    /* with 'tool on': ibv_rc_pingpong's client buffer before any packet can come */
    struct qpx_opts o;
    memset(&o, 0, sizeof o);
    o.tool = tool;
    if (qpx_tool_prepare(c->mr, &o, err) != 0) {
        release(c);
        return -1;
    }
    c->active = true;
    c->port = port;
    c->peer_ip = peer_ip;
    c->pmtu = mtu ? mtu : ROCE_DEFAULT_PMTU;
    c->tool = tool;
    c->seq = ++cm.seq;
    c->my_psn = roce_random_psn();
    c->local_id = new_comm_id();
    c->flow_label = (roce_random_psn() & 0xfffffu) | 1u; /* the path's: both ends' UDP source port */
    c->state = CM_ARP;
    c->deadline = tmr_cycles() + tmr_ms_to_cycles(CM_ARP_MS);
    cm.conn_result = 0;
    return 0;
}

int cm_connect_result(void) {
    return cm.conn_result;
}

void cm_connect_abort(const char *why) {
    for (int i = 0; i < CM_MAX_CONNS; i++) {
        struct cm_conn *c = &conns[i];
        if (c->active && (c->state == CM_ARP || c->state == CM_REQ_SENT)) {
            printf("cm: connection of QP 0x%lx given up: %s\n", (unsigned long)c->qpn, why);
            release(c);
        }
    }
}

/* ---- timers */

/* The connections' timers (cm_poll when any slot is in use; apart, so that an idle pass of the
   main loop saves and restores no registers here). */
static void __attribute__((noinline)) poll_conns(void) {
    uint64_t now = tmr_cycles();
    for (int i = 0; i < conns_hi; i++) {
        struct cm_conn *c = &conns[i];
        if (c->state == CM_FREE) continue;
        if (c->state != CM_TIMEWAIT && !qp_ours(c)) { /* reset or destroyed from the console */
            release(c);
            continue;
        }
        /* any request the responder executed on the QP in RTR (SEND, WRITE, READ, atomic):
           the peer is in RTS, its RTU was lost or comes later */
        if (c->state == CM_REP_SENT && roce_hw_qp_req_seen(c->qpn)) {
            c->by_first_packet = true;
            establish(c, "its first packet taken as RTU");
            continue;
        }
        if (c->state == CM_ARP) {
            poll_arp(c);
            continue;
        }
        if (now < c->deadline) continue;
        char b[16];
        ip_str(c->peer_ip, b);
        if (c->state == CM_DREQ_SENT && c->retries_left > 0) {
            c->retries_left--;
            cm.resent++;
            (void)send_mad(c->peer_ip, c->peer_mac, c->last);
            c->deadline = now + tmr_ms_to_cycles(CM_DREQ_MS);
        } else if (c->state == CM_DREQ_SENT) {
            printf("cm: no DREP from %s for QP 0x%lx after %u DREQs: disconnected all the same\n",
                   b, (unsigned long)c->qpn, CM_DREQ_RETRIES + 1u);
            c->state = CM_TIMEWAIT;
            c->deadline = now + tmr_ms_to_cycles(CM_TIMEWAIT_MS);
        } else if (c->state == CM_REQ_SENT && c->retries_left > 0) {
            c->retries_left--;
            cm.resent++;
            (void)send_mad(c->peer_ip, c->peer_mac, c->last);
            c->deadline = now + tmr_ms_to_cycles(c->timeout_ms);
        } else if (c->state == CM_REQ_SENT) {
            printf("cm: no REP from %s port %u after %u REQs: connection given up\n", b, c->port,
                   CM_REQ_RETRIES + 1u);
            release(c);
        } else if (c->state == CM_TIMEWAIT) {
            release(c);
        } else if (c->state == CM_REP_SENT && c->retries_left > 0) {
            c->retries_left--;
            cm.resent++;
            (void)send_mad(c->peer_ip, c->peer_mac, c->last);
            c->deadline = now + tmr_ms_to_cycles(c->timeout_ms);
        } else if (c->state == CM_REP_SENT) {
            printf("cm: no RTU from %s for QP 0x%lx after every REP retry: REJ (timeout), QP "
                   "freed\n",
                   b, (unsigned long)c->qpn);
            struct cm_msg r;
            memset(&r, 0, sizeof r);
            r.attr = CM_ATTR_REJ;
            r.local_comm_id = c->local_id;
            r.remote_comm_id = c->remote_id;
            r.msg = CM_REJ_MSG_REP;
            r.reason = CM_REJ_TIMEOUT;
            send_msg(c->peer_ip, c->peer_mac, &r, NULL);
            cm.rej_sent++;
            release(c);
        }
    }
}

void cm_poll(void) {
    while (conns_hi > 0 && conns[conns_hi - 1].state == CM_FREE) conns_hi--;
    if (conns_hi > 0) poll_conns();
}

/* ---- listening */

int cm_listen(uint16_t port, uint8_t mtu_cap, uint8_t tool, uint32_t count, const char **err) {
    if (!net_netif()) {
        *err = "no management port";
        return -1;
    }
    if (cm.listening) {
        *err = "the CM listens already (see 'qpx')";
        return -1;
    }
    cm.listening = true;
    cm.port = port;
    cm.mtu_cap = mtu_cap;
    cm.tool = tool;
    cm.left = count < 1 ? 1 : count;
    cm.result = 0;
    return 0;
}

void cm_unlisten(void) {
    cm.listening = false;
    if (cm.result == 0) cm.result = -1;
}

bool cm_listen_pending(void) {
    if (cm.result != 0) return false;
    for (int i = 0; i < CM_MAX_CONNS; i++)
        if (conns[i].state == CM_REP_SENT) return true;
    return cm.listening;
}

int cm_listen_result(void) {
    return cm.result;
}

/* ---- perftest -R (qpx.c) */

int cm_session_qps(uint32_t peer_ip, uint16_t port, struct roce_qp **qps, struct roce_mr **mrs,
                   uint32_t *peer_qpns, uint32_t max) {
    uint32_t n = 0, last = 0;
    for (;;) { /* in creation order */
        struct cm_conn *next = NULL;
        for (int i = 0; i < CM_MAX_CONNS; i++) {
            struct cm_conn *c = &conns[i];
            if (c->state != CM_ESTABLISHED || c->tool != QPX_TOOL_PERFTEST ||
                (peer_ip && c->peer_ip != peer_ip) ||
                c->port != port || c->seq <= last || !qp_ours(c))
                continue;
            if (!next || c->seq < next->seq) next = c;
        }
        if (!next || n == max) return (int)n;
        qps[n] = next->qp;
        mrs[n] = next->mr;
        peer_qpns[n++] = next->peer_qpn;
        last = next->seq;
    }
}

/* ---- console */

static const char *state_name(uint8_t s) {
    static const char *const n[] = {"free", "waiting for ARP", "REQ sent, waiting for the REP",
                                    "REP sent, waiting for the RTU", "established",
                                    "disconnected (time-wait)", "DREQ sent, waiting for the DREP"};
    return s <= CM_DREQ_SENT ? n[s] : "?";
}

void cm_status_print(void) {
    if (cm.listening)
        printf("cm: listening on port %u (service ID 0x%016llx)\n", cm.port,
               (unsigned long long)cm_service_id(cm.port));
    for (int i = 0; i < CM_MAX_CONNS; i++) {
        const struct cm_conn *c = &conns[i];
        if (c->state == CM_FREE) continue;
        char b[16];
        ip_str(c->peer_ip, b);
        printf("cm: QP 0x%lx %s: peer %s QPN 0x%lx port %u, comm IDs 0x%08lx (ours) 0x%08lx "
               "(theirs)\n",
               (unsigned long)c->qpn, state_name(c->state), b, (unsigned long)c->peer_qpn, c->port,
               (unsigned long)c->local_id, (unsigned long)c->remote_id);
    }
}

void cm_stats_print(void) {
    printf("cm      rx_mads %lu tx_mads %lu malformed %lu duplicates %lu resent %lu rej_sent %lu "
           "rej_received %lu unmatched %lu ud_uc_refused %lu tx_failed %lu\n",
           (unsigned long)cm.rx, (unsigned long)cm.tx, (unsigned long)cm.malformed,
           (unsigned long)cm.dups, (unsigned long)cm.resent, (unsigned long)cm.rej_sent,
           (unsigned long)cm.rej_rcvd, (unsigned long)cm.unmatched, (unsigned long)cm.refused_ud,
           (unsigned long)cm.tx_fail);
    if (cm.last_bad) printf("cm      last malformed: %s\n", cm.last_bad);
}

bool cm_established(uint32_t qpn) {
    for (int i = 0; i < CM_MAX_CONNS; i++)
        if (conns[i].state == CM_ESTABLISHED && conns[i].qpn == qpn) return true;
    return false;
}

const char *cm_qp_state(uint32_t qpn) {
    for (int i = 0; i < CM_MAX_CONNS; i++) {
        const struct cm_conn *c = &conns[i];
        if (c->state == CM_FREE || c->qpn != qpn) continue;
        return c->state == CM_ESTABLISHED ? "rdma_cm established"
               : c->state == CM_REP_SENT  ? "rdma_cm REP sent"
               : c->state == CM_TIMEWAIT  ? "rdma_cm time-wait"
               : c->state == CM_DREQ_SENT ? "rdma_cm disconnecting"
                                          : "rdma_cm connecting";
    }
    return NULL;
}
