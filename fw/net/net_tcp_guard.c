/*
 * Half-open TCP connections. lwIP keeps a connection whose SYN it answered
 * (SYN_RCVD) for 20 s (TCP_SYN_RCVD_TIMEOUT, fixed in lwIP) and, when its PCB
 * pool is empty, drops a new SYN: it evicts only TIME_WAIT, LAST_ACK, CLOSING and
 * lower-priority connections, never a half-open one. A handful of SYNs that are
 * never completed (a SYN flood, a peer that vanished) would then lock every
 * client out of the exchange port for that long, over and over.
 *
 * The guard: a SYN for a listening port that finds the PCB pool full first
 * aborts the oldest half-open connection (lwIP sends it a RST), so the new SYN
 * gets its PCB. Connections that completed their handshake are never touched.
 * It runs in lwIP's TCP input hook (LWIP_HOOK_TCP_INPACKET_PCB, fw/net/lwipopts.h),
 * right before lwIP allocates the PCB for the SYN.
 */
#include <stdint.h>

#include "lwip/memp.h"
#include "lwip/priv/tcp_priv.h"
#include "lwip/prot/tcp.h"
#include "lwip/stats.h"
#include "lwip/tcp.h"
#include "net.h"
#include "net_hooks.h"

static uint32_t evicted;

static void make_room(void) {
    if (lwip_stats.memp[MEMP_TCP_PCB]->used < MEMP_NUM_TCP_PCB) return;
    struct tcp_pcb *oldest = NULL;
    for (struct tcp_pcb *p = tcp_active_pcbs; p != NULL; p = p->next) {
        if (p->state != SYN_RCVD) continue;
        /* lwIP puts new connections first: on a tie in age the later one in the list is older */
        if (oldest == NULL || (u32_t)(tcp_ticks - p->tmr) >= (u32_t)(tcp_ticks - oldest->tmr)) oldest = p;
    }
    if (oldest == NULL) return;
    evicted++;
    tcp_abort(oldest);
}

err_t net_tcp_inpacket(struct tcp_pcb *pcb, struct tcp_hdr *hdr) {
    if (pcb->state == LISTEN && (TCPH_FLAGS(hdr) & (TCP_SYN | TCP_ACK | TCP_RST)) == TCP_SYN) make_room();
    return ERR_OK;
}

void net_tcp_guard_counts(uint32_t *half_open_evicted, uint32_t *in_use) {
    *half_open_evicted = evicted;
    *in_use = lwip_stats.memp[MEMP_TCP_PCB]->used;
}
