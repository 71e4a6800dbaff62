/*
 * RDMA CM on QP 1 (the codec is cm_mad.h): the passive side, what a
 * librdmacm client (rdma_connect: rdma_client, rping -c, ...) needs from a
 * server, and the active side (connect --cm: what rdma_server needs from a
 * client). The connection only: a tool's own data phase is qpx_tool.c's.
 *
 * QP 1 packets reach the firmware through the management path (net_gsi.c
 * hands every frame to cm_rx); answers are whole frames built here and sent
 * on the management netif, to the MAC the request came from.
 *
 *  - REQ for a listened port (RDMA_PS_TCP service ID, librdmacm's IPv4
 *    header): a new RC QP programmed from the REQ (the peer's QPN, PSN, path
 *    MTU, retry counts, READ depths, IP from the frame, MAC from the frame)
 *    to RTR, and a REP; RTS on the RTU or on the first request the transport
 *    executes on the QP (a SEND, WRITE, READ or atomic: qp_hw_state.req; the
 *    first RC packet taken as RTU). The REP is sent again when no RTU
 *    comes in the REQ's local CM response time (capped), at most the REQ's
 *    max CM retries times, then the connection is given up with a REJ
 *    (timeout).
 *  - a REQ for a port nobody listens on: REJ "invalid service ID"; UC/RD/XRC:
 *    REJ "invalid transport service type"; SIDR_REQ (UD): SIDR_REP
 *    "unsupported"; the console says "UD/UC not supported".
 *  - duplicates: a REQ again gets the REP again, a DREQ again the DREP again
 *    (the connection stays in time-wait for CM_TIMEWAIT_MS).
 *  - DREQ: DREP, the QP is reset and freed after the time-wait.
 *  - REJ, MRA from the peer: the connection is given up / its REP timer
 *    extended.
 *  - malformed frames and MADs are counted (and the last reason kept) and
 *    dropped; so are messages for no known connection.
 *
 * Active side: the peer's MAC from lwIP's ARP cache (asked for, bounded), a
 * new RC QP in INIT, a REQ (librdmacm's IPv4 header in its private data,
 * RDMA_PS_TCP service ID of the port); on the REP the QP goes RTR and RTS and
 * an RTU is sent (again for a duplicate REP); a REJ ends it with its reason;
 * the REQ is sent again on our CM response timeout (capped), at most
 * CM_REQ_RETRIES times.
 *
 * Every timer runs in simulated time from cm_poll (the super-loop).
 */
#ifndef FW_ROCE_CM_H
#define FW_ROCE_CM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CM_MAX_CONNS 64 /* connections at once (perftest -R -q N takes N + 1) */
#define CM_DEFAULT_PORT 7471u   /* librdmacm's rdma_server / rdma_client default */
#define CM_RPING_PORT 7174u     /* rping's default */
#define CM_REP_TIMEOUT_MAX_MS 200u /* cap of the REP retransmission time (simulated ms) */
#define CM_TIMEWAIT_MS 20u      /* a disconnected connection answers duplicates this long */
#define CM_WAIT_MS 5000u        /* listen --cm: default wait for a connection */
#define CM_REQ_TIMEOUT 20u      /* our CM response timeout (4.096 us << 20, as librdmacm's) */
#define CM_REQ_RETRIES 15u      /* and max CM retries */
#define CM_ARP_MS 50u           /* connect --cm: bound for the ARP answer */
#define CM_DREQ_MS 2u           /* qpx disconnect: the DREQ again after this long, */
#define CM_DREQ_RETRIES 3u      /* this many times, then the time-wait all the same */

enum cm_state {
    CM_FREE,
    CM_ARP,         /* active: waiting for the peer's MAC */
    CM_REQ_SENT,    /* active: REQ sent, waiting for the REP */
    CM_REP_SENT,    /* passive: REP sent, waiting for the RTU */
    CM_ESTABLISHED,
    CM_TIMEWAIT,    /* DREQ answered; the QP goes when the time-wait ends */
    CM_DREQ_SENT,   /* we disconnect: DREQ sent, waiting for the DREP */
};

/* The UDP payload of one QP 1 packet and the IPv4/Ethernet headers it came in (net_gsi.c). */
void cm_rx(const uint8_t *frame, size_t len);

/*
 * Listen on a port (RDMA_PS_TCP service ID) for one connection; mtu_cap is
 * the largest path MTU enum accepted (0: 4096). -1 and *err when one is open.
 */
int cm_listen(uint16_t port, uint8_t mtu_cap, uint8_t tool, uint32_t count, const char **err);
/* Close the listener (a connection that was made stays). */
void cm_unlisten(void);
/* The listener is open and no connection was established through it yet. */
bool cm_listen_pending(void);
/* The last listen's outcome: 1 connected, 0 still waiting, -1 none. */
int cm_listen_result(void);

/*
 * Connect to peer_ip's port (active side); mtu is the path MTU enum to ask
 * for (0: 1024). The connection is made from cm_poll; cm_connect_result
 * says how it stands. -1 and *err when it cannot start.
 */
int cm_connect(uint32_t peer_ip, uint16_t port, uint8_t mtu, uint8_t tool, const char **err);
/* 1 established, 0 in progress, -1 failed (its line was printed). */
int cm_connect_result(void);
/* Give up the connection being made (Ctrl-C). */
void cm_connect_abort(const char *why);

/*
 * Disconnect the CM connection of QP qpn (0: the only established one): a
 * DREQ, then time-wait on the DREP (or after the DREQ's retries). -1 and *err
 * when there is no such connection.
 */
int cm_disconnect(uint32_t qpn, const char **err);
/* A DREQ of ours waits for its DREP. */
bool cm_disconnect_pending(void);

/* Mark every connection slot free; once at start-up, before any other cm_ call. */
void cm_init(void);
/* Timers: REP retransmission, time-wait, the first RC packet as RTU. */
void cm_poll(void);

/* Lines for 'qpx' (listener and connections) and 'stats' (counters). */
void cm_status_print(void);
void cm_stats_print(void);

/* "rdma_cm established" style word for a QP the CM owns (NULL when it owns none). */
const char *cm_qp_state(uint32_t qpn);

struct roce_qp;
struct roce_mr;
bool cm_established(uint32_t qpn);

/* perftest -R (qpx.c): the established connections with peer_ip (0: any) on port that a listen or
   connect with tool QPX_TOOL_PERFTEST made, in creation order: their QPs, MRs and the
   peer's QPNs; returns how many (at most max). */
int cm_session_qps(uint32_t peer_ip, uint16_t port, struct roce_qp **qps, struct roce_mr **mrs,
                   uint32_t *peer_qpns, uint32_t max);

#endif
