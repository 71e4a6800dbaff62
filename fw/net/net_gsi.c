/*
 * RoCEv2 packets for QP 1, the GSI QP that carries connection-manager MADs
 * (RDMA CM), reach the firmware through the management path (the packet
 * layer hands them over untouched) as UDP datagrams to port 4791. Each one
 * goes to the CM (fw/roce/cm.c) as the whole frame it came in: the ICRC
 * covers the IPv4 and UDP headers, so they are taken from the received
 * frame as they were (lwIP's current IPv4 header, the Ethernet header in
 * front of it in the same buffer). Binding UDP port 4791 also keeps lwIP from
 * answering them with ICMP port unreachable.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lwip/ip.h"
#include "lwip/pbuf.h"
#include "lwip/prot/ethernet.h"
#include "lwip/udp.h"
#include "net.h"
#include "roce/cm.h"
#include "roce/cm_mad.h"

#define ROCEV2_PORT 4791
#define BTH_BYTES 12
#define HDR_BYTES (CM_ETH_BYTES + CM_IP_BYTES + CM_UDP_BYTES)

static struct {
    uint32_t gsi;   /* packets for QP 1 */
    uint32_t other; /* RoCE packets the packet layer handed over for another reason */
    uint8_t frame[HDR_BYTES + CM_IB_BYTES + 4]; /* one more than a CM packet: a longer one is refused */
} gsi;

static void gsi_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr, u16_t port) {
    (void)arg;
    (void)pcb;
    (void)port;
    (void)addr;
    uint8_t bth[BTH_BYTES];
    if (pbuf_copy_partial(p, bth, BTH_BYTES, 0) == BTH_BYTES &&
        ((uint32_t)bth[5] << 16 | (uint32_t)bth[6] << 8 | bth[7]) == 1u) {
        gsi.gsi++;
        /* the frame's headers precede the IPv4 header lwIP is processing, in the same buffer */
        const uint8_t *iph = (const uint8_t *)ip4_current_header();
        uint32_t ihl = (iph[0] & 0x0fu) * 4u;
        memcpy(gsi.frame, iph - SIZEOF_ETH_HDR, CM_ETH_BYTES);
        memcpy(gsi.frame + CM_ETH_BYTES, iph, CM_IP_BYTES); /* with options: refused by cm_rx */
        memcpy(gsi.frame + CM_ETH_BYTES + CM_IP_BYTES, iph + ihl, CM_UDP_BYTES);
        u16_t n = p->tot_len < sizeof gsi.frame - HDR_BYTES ? p->tot_len
                                                             : (u16_t)(sizeof gsi.frame - HDR_BYTES);
        n = pbuf_copy_partial(p, gsi.frame + HDR_BYTES, n, 0);
        cm_rx(gsi.frame, HDR_BYTES + n);
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
