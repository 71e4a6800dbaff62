/*
 * The NIC as the peer of the unmodified tools after the QP exchange (the
 * data phase), polled from the super-loop. Off until the console's 'tool on'
 * arms it; then every successful listen/connect session of qpx.c hands its
 * QP over and:
 *
 *  - ibv_rc_pingpong, NIC as server: on each receive completion, SEND the
 *    received bytes back from the test buffer; done after ITERS exchanges.
 *  - ibv_rc_pingpong, NIC as client: fill the test buffer with --chk's
 *    content, SEND SIZE bytes, wait for the SEND's completion and the peer's
 *    echo, ITERS times (the tool's client loop).
 *  - perftest bw tests as server: the RTL serves the WRITEs/READs and the
 *    pre-posted receives (qpx.c) the SENDs; at the end one summary line.
 *  - perftest bw tests as client: ITERS WRITEs/READs/SENDs of SIZE bytes to
 *    the peer's buffer, several outstanding; the figures go into the
 *    end-of-test report (qpx.c), then one summary line.
 *  - write_lat (both roles): WRITE ping-pong; each side watches the last byte
 *    of its buffer (the engine of qpx_mem.h) for the peer's n-th WRITE and
 *    answers with its own, whose last byte is n (the server writes first).
 *  - read_lat client: ITERS READs one at a time; server: the RTL serves them.
 *  - send_lat (both roles): SEND ping-pong with receives posted (client first).
 *  - rping over RDMA CM (cm.c, --tool rping): as server READ the buffer each
 *    16-byte SEND describes (read with qpx_mem_read), SEND, WRITE it back into
 *    the second described buffer, SEND; as client write each ping's text,
 *    SEND both descriptions in turn, check the text written back, and
 *    disconnect after ITERS pings.
 *
 * A run ends after its last exchange, on an error completion, after IDLE ms
 * (simulated time) without progress, or when the QP is reset or a new
 * session starts. It prints one summary line starting with "tool: ", after
 * the perftest table of its figures for perftest runs (simulated time).
 */
#ifndef FW_ROCE_QPX_TOOL_H
#define FW_ROCE_QPX_TOOL_H

#include <stdbool.h>
#include <stdint.h>

#include "qpx.h"
#include "qpx_msg.h"
#include "roce.h"

#define QPX_TOOL_ITERS 1000u   /* ibv_rc_pingpong's and perftest's default -n */
#define QPX_TOOL_SIZE 4096u    /* ibv_rc_pingpong's default -s */
#define QPX_TOOL_IDLE_MS 50u   /* default bound on a run without progress, simulated ms */
#define QPX_TOOL_LAT_MAX (QPX_BUF_BYTES / 2u) /* write_lat: the upper half holds what is sent */

/*
 * qpx.c, while programming the QP (before RTR, so no peer packet can arrive
 * yet): write_lat clears the watched byte, the pingpong client fills its
 * buffer. 0, or -1 and *err (the session then fails).
 */
int qpx_tool_prepare(const struct roce_mr *mr, const struct qpx_opts *o, const char **err);

/* qpx.c, when a perftest session reaches its test: the data phase of this side, on the
   session's nqp QPs (a bw client posts ITERS on each, round robin; the rest use qps[0]) with
   the peer's destination for each. mine: our destination for each QP, whose rkey is also
   the lkey of that QP's MR (perftest -R: each RDMA CM connection has a PD and MR of its
   own; over TCP all are the session's one MR, mr). */
void qpx_tool_test(struct roce_qp *const *qps, uint32_t nqp, struct roce_mr *mr,
                   const struct qpx_opts *o, uint32_t peer_ip, const struct qpx_dest *peers,
                   const struct qpx_dest *mine);

/* qpx.c, when a session finished well: its QP (RTS, MR over the test buffer). */
void qpx_tool_begin(struct roce_qp *qp, struct roce_mr *mr, const struct qpx_opts *o,
                    uint32_t peer_ip);

/* qpx.c, when a session failed after its test began (why: its message). */
void qpx_tool_session_failed(uint32_t session);

/* qpx.c, when a session starts: end a run that still uses the last QP. */
void qpx_tool_end(const char *why);

/* A data phase is running (the console's listen/connect wait for it). */
bool qpx_tool_active(void);

/* The bw client's figures for perftest's end-of-test report: false when there are none. */
bool qpx_tool_report(uint32_t session, uint64_t *size, uint64_t *iters, double *bw_peak,
                     double *bw_avg, double *mpps);

/* The super-loop. */
void qpx_tool_poll(void);

#endif
