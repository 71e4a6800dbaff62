/*
 * Bounds on lwIP's TCP connections, so that floods and silent peers cannot keep
 * the management port's PCBs (MEMP_NUM_TCP_PCB) from the next real exchange.
 *
 * Half-open connections. lwIP keeps a connection whose SYN it answered
 * (SYN_RCVD) for 20 s (TCP_SYN_RCVD_TIMEOUT, fixed in lwIP) and, when its PCB
 * pool is empty, drops a new SYN: it evicts only TIME_WAIT, LAST_ACK, CLOSING and
 * lower-priority connections, never a half-open one. A handful of SYNs that are
 * never completed (a SYN flood, a peer that vanished) would then lock every
 * client out of the exchange port for that long, over and over. So a SYN for a
 * listening port that finds the PCB pool full first aborts the oldest half-open
 * connection (lwIP sends it a RST), and the new SYN gets its PCB. It runs in
 * lwIP's TCP input hook (LWIP_HOOK_TCP_INPACKET_PCB, fw/net/lwipopts.h), right
 * before lwIP allocates the PCB for the SYN, and before the exchange's own
 * tcp_new (listen, connect: fw/roce/qpx.c).
 *
 * Silent connections. The same hook stamps every connection with the time of
 * the last segment its peer sent (in the PCB's ext arg). net_tcp_guard_poll
 * aborts, with a RST, a connection whose peer has been silent for the idle
 * bound (NET_TCP_IDLE_MS; the console's `tcp idle MS`) when no service of the
 * firmware waits on it: a half-open one, one on the echo port, and one its
 * owner has closed that waits for the peer (FIN_WAIT_1/2, CLOSING, LAST_ACK).
 * The exchange on port 18515 bounds its own session (fw/roce/qpx.c, --timeout)
 * and is left alone; TIME_WAIT connections are reclaimed by lwIP when it needs
 * their PCB.
 */
#include <stdint.h>

#include "lwip/memp.h"
#include "lwip/priv/tcp_priv.h"
#include "lwip/prot/tcp.h"
#include "lwip/stats.h"
#include "lwip/tcp.h"
#include "net.h"
#include "net_hooks.h"
#include "timer.h"

static struct {
    uint32_t evicted;      /* half-open connections evicted for a new SYN */
    uint32_t idle_aborted; /* connections aborted after the idle bound */
    uint32_t idle_ms;
    uint64_t next_poll; /* cycles: the list is walked once per millisecond */
    uint8_t ext_id;     /* the PCB ext arg holding the last-segment stamp */
} g = {.idle_ms = NET_TCP_IDLE_MS};

/* The stamp is sys_now() + 1 (0: not stamped yet), in the PCB's ext arg. */
static void stamp(struct tcp_pcb *pcb, uint32_t now) {
    tcp_ext_arg_set(pcb, g.ext_id, (void *)(uintptr_t)(now + 1u));
}

void net_tcp_make_room(void) {
    if (lwip_stats.memp[MEMP_TCP_PCB]->used < MEMP_NUM_TCP_PCB) return;
    struct tcp_pcb *oldest = NULL;
    for (struct tcp_pcb *p = tcp_active_pcbs; p != NULL; p = p->next) {
        if (p->state != SYN_RCVD) continue;
        /* lwIP puts new connections first: on a tie in age the later one in the list is older */
        if (oldest == NULL || (u32_t)(tcp_ticks - p->tmr) >= (u32_t)(tcp_ticks - oldest->tmr)) oldest = p;
    }
    if (oldest == NULL) return;
    g.evicted++;
    tcp_abort(oldest);
}

err_t net_tcp_inpacket(struct tcp_pcb *pcb, struct tcp_hdr *hdr) {
    if (pcb->state == LISTEN) {
        if ((TCPH_FLAGS(hdr) & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN) net_tcp_make_room();
    } else if (pcb->state != TIME_WAIT) {
        stamp(pcb, sys_now());
    }
    return ERR_OK;
}

/* Does the idle bound apply to this connection (no service of ours waits on it)? */
static bool bounded(const struct tcp_pcb *p) {
    switch (p->state) {
    case SYN_RCVD:
    case FIN_WAIT_1:
    case FIN_WAIT_2:
    case CLOSING:
    case LAST_ACK: return true;
    default: return p->local_port == NET_ECHO_PORT;
    }
}

void net_tcp_guard_init(void) {
    g.ext_id = tcp_ext_arg_alloc_id();
}

void net_tcp_guard_poll(void) {
    uint64_t c = tmr_cycles(); /* cheap, unlike sys_now's division: net_poll runs in busy loops */
    if (c < g.next_poll) return;
    g.next_poll = c + tmr_ms_to_cycles(1);
    uint32_t now = sys_now();
again:
    for (struct tcp_pcb *p = tcp_active_pcbs; p != NULL; p = p->next) {
        if (!bounded(p)) continue;
        uint32_t t = (uint32_t)(uintptr_t)tcp_ext_arg_get(p, g.ext_id);
        if (t == 0) { /* new since the last poll (its SYN went to the listener): from now */
            stamp(p, now);
            continue;
        }
        if (now - (t - 1u) < g.idle_ms) continue;
        g.idle_aborted++;
        tcp_abort(p); /* unlinks p: walk the list again */
        goto again;
    }
}

uint32_t net_tcp_idle_of(const struct tcp_pcb *pcb) {
    uint32_t t = (uint32_t)(uintptr_t)tcp_ext_arg_get(pcb, g.ext_id);
    return t == 0 ? NET_TCP_IDLE_UNKNOWN : sys_now() - (t - 1u);
}

uint32_t net_tcp_idle_ms(void) {
    return g.idle_ms;
}

void net_tcp_set_idle_ms(uint32_t ms) {
    g.idle_ms = ms;
}

static uint32_t count(const struct tcp_pcb *p) {
    uint32_t n = 0;
    for (; p != NULL; p = p->next) n++;
    return n;
}

void net_tcp_guard_stats(struct net_tcp_stats *s) {
    s->half_open_evicted = g.evicted;
    s->idle_aborted = g.idle_aborted;
    s->in_use = lwip_stats.memp[MEMP_TCP_PCB]->used;
    s->active = count(tcp_active_pcbs);
    s->time_wait = count(tcp_tw_pcbs);
    s->listening = count((const struct tcp_pcb *)tcp_listen_pcbs.listen_pcbs);
}
