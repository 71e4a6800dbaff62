/*
 * The NIC as the peer of the unmodified tools after the QP exchange (the
 * data phase), polled from the super-loop. Off until the console's 'tool on'
 * arms it; then every successful listen/connect session of qpx.c hands its
 * QP over (qpx_tool_begin) and:
 *
 *  - ibv_rc_pingpong, NIC as server: on each receive completion, SEND the
 *    received bytes back from the test buffer; done after ITERS exchanges.
 *  - ibv_rc_pingpong, NIC as client: SEND SIZE bytes from the test buffer,
 *    wait for the SEND's completion and the peer's echo, ITERS times (the
 *    tool's client loop).
 *  - perftest as server: the RTL serves the WRITEs/READs and the pre-posted
 *    receives (qpx.c) the SENDs; at the end of the test one summary line
 *    says what the QP saw.
 *
 * A run ends after its last exchange, on an error completion, after IDLE ms
 * (simulated time) without progress, or when the QP is reset or a new
 * session starts. It prints one summary line starting with "tool: ".
 */
#ifndef FW_ROCE_QPX_TOOL_H
#define FW_ROCE_QPX_TOOL_H

#include <stdint.h>

#include "qpx.h"
#include "roce.h"

#define QPX_TOOL_ITERS 1000u   /* ibv_rc_pingpong's default -n */
#define QPX_TOOL_SIZE 4096u    /* and -s */
#define QPX_TOOL_IDLE_MS 50u   /* default bound on a run without progress, simulated ms */

/* qpx.c, when a session finished well: its QP (RTS, MR over the test buffer). */
void qpx_tool_begin(struct roce_qp *qp, struct roce_mr *mr, const struct qpx_opts *o,
                    uint32_t peer_ip);

/* qpx.c, when a session starts: end a run that still uses the last QP. */
void qpx_tool_end(const char *why);

/* The super-loop. */
void qpx_tool_poll(void);

#endif
