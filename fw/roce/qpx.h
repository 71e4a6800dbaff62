/*
 * The QP exchange over TCP port 18515 (lwIP raw API): ibv_rc_pingpong's and
 * perftest 4.5's formats (qpx_msg.h), as server (listen) or client
 * (connect). One session at a time.
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
};

enum qpx_atomic { QPX_FETCH_AND_ADD, QPX_CMP_AND_SWAP };

/* Names for the console: "write_bw", ... and back (-1 when unknown). */
const char *qpx_test_name(uint32_t t);
int qpx_test_parse(const char *s);
/* A bandwidth test (write_bw, read_bw, send_bw, atomic_bw): perftest -q N applies. */
bool qpx_test_is_bw(uint32_t t);

/* Start a session; -1 and *err when one is running or it cannot start. */
int qpx_start(const struct qpx_opts *o, const char **err);

/* Advance the session (the super-loop calls it; so do the console's waits). */
void qpx_poll(void);

enum qpx_phase qpx_phase(void);

/* The last session's outcome: 0 success, -1 failed (its message was printed). */
int qpx_result(void);

/* Client side of perftest: run the end-of-test exchange (barrier, reports, done). */
int qpx_finish(const char **err);

/* Stop the session: close the connection, QP back to RESET (why is printed). */
void qpx_abort(const char *why);

/* One or two lines describing the session. */
void qpx_status_print(void);

/*
 * The QP the exchange programmed: the running session's once it is RTS, else
 * the one the last successful session left (NULL when there is none).
 */
struct roce_qp *qpx_qp(void);

/*
 * The peer's test buffer for QP qpn as the exchange that programmed it carried
 * it (perftest sends rkey and address): 0, or -1 when it did not (pingpong).
 */
int qpx_peer_buffer(uint32_t qpn, uint32_t *rkey, uint64_t *vaddr);

#endif
