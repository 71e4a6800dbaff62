/*
 * RoCEv2 packets for QP 1, the GSI QP that carries connection-manager MADs
 * (RDMA CM), reach the firmware through the management path (the packet
 * layer hands them over untouched). RDMA CM is not implemented yet: they are
 * counted, and the console says so once, naming the sender and the way that
 * works (the TCP exchange). Binding UDP port 4791 also keeps lwIP from answering
 * them with ICMP port unreachable.
 */
#include <stdbool.h>
#include <stdio.h>

#include "lwip/pbuf.h"
#include "lwip/udp.h"
#include "net.h"

#define ROCEV2_PORT 4791
#define BTH_BYTES 12

static struct {
    uint32_t gsi;   /* packets for QP 1 */
    uint32_t other; /* RoCE packets the packet layer handed over for another reason */
    bool told;
} gsi;

static void gsi_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr, u16_t port) {
    (void)arg;
    (void)pcb;
    (void)port;
    uint8_t bth[BTH_BYTES];
    if (pbuf_copy_partial(p, bth, BTH_BYTES, 0) == BTH_BYTES &&
        ((uint32_t)bth[5] << 16 | (uint32_t)bth[6] << 8 | bth[7]) == 1u) {
        gsi.gsi++;
        if (!gsi.told) {
            gsi.told = true;
            printf("\nrdma_cm: a connection-manager MAD from %s (QP 1) was ignored: RDMA CM is not "
                   "supported yet; use the TCP exchange (listen/connect, ibv_rc_pingpong or perftest "
                   "without -R)\n",
                   ipaddr_ntoa(addr));
        }
    } else {
        gsi.other++;
    }
    pbuf_free(p);
}

int net_gsi_init(void) {
    struct udp_pcb *u = udp_new();
    if (u == NULL || udp_bind(u, IP_ANY_TYPE, ROCEV2_PORT) != ERR_OK) return -1;
    udp_recv(u, gsi_recv, NULL);
    return 0;
}

void net_gsi_counts(uint32_t *qp1, uint32_t *other) {
    *qp1 = gsi.gsi;
    *other = gsi.other;
}
