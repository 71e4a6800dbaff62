/*
 * The QP exchange over TCP port 18515 or another (lwIP raw API):
 * ibv_rc_pingpong's and perftest 4.5's formats (qpx_msg.h), as server (listen)
 * or client (connect).
 *
 * Up to QPX_SESSIONS sessions run at once, named by an ID 1..QPX_SESSIONS
 * (the lowest free one): each with its own TCP connection (a server: its own
 * port; a second client on a port whose session has one is refused with an
 * RST, and the server says so and counts it), its own protection domain, its
 * own 16 MiB test buffer (session N's at QPX_BUF_BASE + (N - 1) *
 * QPX_BUF_BYTES) and its QPs' records from one pool of QPX_MAX_QPS entries
 * shared by all (the sessions together cannot have more QPs than the
 * transport). Four: one per perftest pair a user runs by hand is plenty, and
 * each costs about 0.6 KiB of DMEM besides its share of the pools. A
 * session's lines carry its ID ("qpx 2: ") while more than one runs, else
 * they read "qpx: " as with one session. perftest -R
 * (RDMA CM) and the NIC's own side of a test ('tool on', qpx_tool.h) serve
 * one session at a time.
 *
 * A session creates a QP and registers an MR over its test buffer, runs the
 * exchange step by step (each step bounded by a simulated-time timeout),
 * then programs the QP INIT -> RTR -> RTS with the peer's QPN, PSN, IP
 * (from its GID) and next-hop MAC (lwIP's ARP cache). perftest sessions then
 * stay open for the end-of-test part (barrier, bw reports, barrier, done):
 * the server side answers it from qpx_poll, the client side starts it with
 * qpx_finish. Any failure prints one line and puts the QP back to RESET.
 */
#ifndef FW_ROCE_QPX_H
#define FW_ROCE_QPX_H

#include <stdbool.h>
#include <stdint.h>

struct roce_qp; /* roce.h */

enum qpx_tool { QPX_TOOL_PINGPONG, QPX_TOOL_PERFTEST, QPX_TOOL_RPING /* RDMA CM only */ };
enum qpx_test {
    QPX_WRITE_BW,
    QPX_READ_BW,
    QPX_SEND_BW,
    QPX_WRITE_LAT,
    QPX_READ_LAT,
    QPX_SEND_LAT,
    QPX_ATOMIC_BW,  /* ib_atomic_bw: exchanged as read_bw (OUT = max_rd_atomic) */
    QPX_ATOMIC_LAT, /* ib_atomic_lat: exchanged as read_lat */
    QPX_NTESTS
};

#define QPX_SESSIONS 4u /* sessions at once (see above) */

enum qpx_phase {
    QPX_IDLE,     /* no session */
    QPX_RUNNING,  /* waiting for a client / connecting / exchanging */
    QPX_TEST,     /* perftest: QP ready, waiting for the end of the test */
    QPX_ENDING,   /* perftest: end-of-test exchange running */
};

#define QPX_STEP_MS 50u    /* default per-step timeout, simulated time */
#define QPX_WAIT_MS 5000u  /* default wait for a client (listen) */
#define QPX_MAX_QPS 254u   /* perftest -q N: at most this many QPs in one session (every QPN of
                              the default transport's 256 but 0 and 1; -R: CM_MAX_CONNS - 1) */
#define QPX_IDLE_MS 30000u /* default: a server's test ends when its peer is silent this long */
#define QPX_BUF_BASE 0x100000u /* the test buffer in on-board memory */
#define QPX_BUF_BYTES 0x1000000u /* 16 MiB: perftest -a goes up to 8 MiB messages */

struct qpx_opts {
    bool server;
    bool dry;         /* exchange only: no QP, no MR (checks a peer's tool set-up) */
    uint8_t tool;     /* enum qpx_tool */
    uint8_t test;     /* enum qpx_test (perftest) */
    uint32_t peer_ip; /* client: 10.0.0.1 = 0x0a000001 */
    uint32_t step_ms; /* timeout of each step */
    uint32_t wait_ms; /* server: wait for a client */
    uint32_t idle_ms; /* server: end the test when no TCP byte and no RoCE packet came this long */
    uint8_t nqp;      /* perftest -q: QPs exchanged and connected (1..QPX_MAX_QPS; 0 = 1) */
    bool rdma_cm;     /* perftest -R: the QPs connect through RDMA CM (cm.c) on the exchange's
                         port, the exchange carries the rest */
    uint8_t mtu;      /* IB MTU enum 1..5 (256..4096) the NIC uses (pingpong) or offers (perftest,
                         which takes the smaller of both offers); 0: 1024 for pingpong, 4096 offered */
    uint8_t atomic;   /* perftest -A: enum qpx_atomic, what the NIC's atomic_bw/lat client posts
                         (perftest 4.5 does not exchange it: each side's own choice) */
    uint16_t port;    /* the TCP port (perftest -R: RDMA CM's); 0 = QPX_TCP_PORT */
    bool recv_ring;   /* pingpong: the QP's receives are a recycling ring in the transport
                         (roce_qp_recv_ring), not reposted by the firmware */
    uint8_t session;  /* set by qpx_start: the session's ID */
};

enum qpx_atomic { QPX_FETCH_AND_ADD, QPX_CMP_AND_SWAP };

/* Names for the console: "write_bw", ... and back (-1 when unknown). */
const char *qpx_test_name(uint32_t t);
int qpx_test_parse(const char *s);
/* A bandwidth test (write_bw, read_bw, send_bw, atomic_bw): perftest -q N applies. */
bool qpx_test_is_bw(uint32_t t);

/* Start a session: its ID, or -1 and *err (its port has a session, all QPX_SESSIONS run,
   the pool has no room for its QPs, ...). A non-dry start frees the QPs that sessions which
   ended left. */
int qpx_start(const struct qpx_opts *o, const char **err);

/* Advance every session (the super-loop calls it; so do the console's waits). */
void qpx_poll(void);

/* Session id's phase (QPX_IDLE for an unknown ID). */
enum qpx_phase qpx_phase(uint32_t id);

/* Session id's last outcome: 0 success, -1 failed (its message was printed). */
int qpx_result(uint32_t id);

/* The IDs of the running sessions, lowest first; their number. */
uint32_t qpx_sessions(uint32_t ids[QPX_SESSIONS]);

/* The console's choice: id when it runs, else the only running session for 0; -1 and *err
   (which IDs run) otherwise. */
int qpx_pick(uint32_t id, uint32_t *out, const char **err);

/* Client side of perftest: run session id's end-of-test exchange (barrier, reports, done). */
int qpx_finish(uint32_t id, const char **err);

/* Stop session id: close the connection, QPs back to RESET (why is printed). */
void qpx_abort(uint32_t id, const char *why);

/* Lines describing every running session (or the QPs ended ones left). */
void qpx_status_print(void);

/*
 * The first QP session id programmed (0: the newest session that has one): the running
 * session's once it is RTS, else the one it left when it ended well (NULL when none).
 */
struct roce_qp *qpx_qp(uint32_t id);

/* The test buffer of the session that has QP qpn (QPX_BUF_BASE when none has it). */
uint64_t qpx_qp_buffer(uint32_t qpn);

/*
 * The peer's test buffer for QP qpn as the exchange that programmed it carried
 * it (perftest sends rkey and address): 0, or -1 when it did not (pingpong).
 */
int qpx_peer_buffer(uint32_t qpn, uint32_t *rkey, uint64_t *vaddr);

#endif
