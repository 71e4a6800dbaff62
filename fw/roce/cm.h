/*
 * RDMA CM on QP 1, the passive side (the codec is cm_mad.h): what rdma_cm
 * peers (librdmacm's rdma_connect, rping, rdma_client) need from a server.
 *
 * QP 1 packets reach the firmware through the management path (net_gsi.c
 * hands every frame to cm_rx); answers are whole frames built here and sent
 * on the management netif, to the MAC the request came from.
 *
 *  - REQ for a listened port (RDMA_PS_TCP service ID, librdmacm's IPv4
 *    header): a new RC QP programmed from the REQ (the peer's QPN, PSN, path
 *    MTU, retry counts, READ depths, IP from the frame, MAC from the frame)
 *    to RTR, and a REP; RTS on the RTU or on the first receive completion
 *    (the first RC packet taken as RTU). The REP is sent again when no RTU
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
 * Every timer runs in simulated time from cm_poll (the super-loop).
 */
#ifndef FW_ROCE_CM_H
#define FW_ROCE_CM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CM_MAX_CONNS 4
#define CM_DEFAULT_PORT 7471u   /* librdmacm's rdma_server / rdma_client default */
#define CM_REP_TIMEOUT_MAX_MS 200u /* cap of the REP retransmission time (simulated ms) */
#define CM_TIMEWAIT_MS 20u      /* a disconnected connection answers duplicates this long */
#define CM_WAIT_MS 5000u        /* listen --cm: default wait for a connection */

enum cm_state {
    CM_FREE,
    CM_REP_SENT,    /* passive: REP sent, waiting for the RTU */
    CM_ESTABLISHED,
    CM_TIMEWAIT,    /* DREQ answered; the QP goes when the time-wait ends */
};

/* The UDP payload of one QP 1 packet and the IPv4/Ethernet headers it came in (net_gsi.c). */
void cm_rx(const uint8_t *frame, size_t len);

/*
 * Listen on a port (RDMA_PS_TCP service ID) for one connection; mtu_cap is
 * the largest path MTU enum accepted (0: 4096). -1 and *err when one is open.
 */
int cm_listen(uint16_t port, uint8_t mtu_cap, const char **err);
/* Close the listener (a connection that was made stays). */
void cm_unlisten(void);
/* The listener is open and no connection was established through it yet. */
bool cm_listen_pending(void);
/* The last listen's outcome: 1 connected, 0 still waiting, -1 none. */
int cm_listen_result(void);

/* Timers: REP retransmission, time-wait, the first RC packet as RTU. */
void cm_poll(void);

/* Lines for 'qpx' (listener and connections) and 'stats' (counters). */
void cm_status_print(void);
void cm_stats_print(void);

/* "rdma_cm established" style word for a QP the CM owns (NULL when it owns none). */
const char *cm_qp_state(uint32_t qpn);

#endif
