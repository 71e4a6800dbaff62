/* The network stack's set-up and configuration (see net.h). */
#include "net.h"

#include <stdio.h>
#include <string.h>

#include "lwip/etharp.h"
#include "lwip/init.h"
#include "lwip/timeouts.h"
#include "mgmtif.h"
#include "netif/ethernet.h"
#include "timer.h"
#include "trap.h"
#include "wdog.h"
#include <solonic_regs.h>

#define NET_MAC_OUI0 0x02 /* locally administered, unicast */

static struct {
    bool up;
    const char *why; /* no port: the reason */
    struct mgmtif_info info;
    uint8_t mac[ETH_HWADDR_LEN];
    struct netif netif;
} net;

/* The packet layer filters received frames by our MAC and routes RoCE by our IP:
   keep its registers equal to the interface's addresses (when the block exists). */
static void net_sync_datapath(void) {
    uint32_t id, cause;
    if (trap_probe_read32(NET_ID, &id, &cause) != 0 || id != NET_ID_VALUE) return;
    const uint8_t *m = net.netif.hwaddr;
    REG32(NET_MAC_HI) = (uint32_t)m[0] << 8 | m[1];
    REG32(NET_MAC_LO) = (uint32_t)m[2] << 24 | (uint32_t)m[3] << 16 | (uint32_t)m[4] << 8 | m[5];
    REG32(NET_IP) = lwip_ntohl(ip4_addr_get_u32(netif_ip4_addr(&net.netif)));
}

bool net_datapath_present(void) {
    uint32_t id, cause;
    return trap_probe_read32(NET_ID, &id, &cause) == 0 && id == NET_ID_VALUE;
}

struct netif *net_netif(void) {
    return net.up ? &net.netif : NULL;
}

const char *net_absent_reason(void) {
    return net.up ? "" : net.why;
}

uint32_t net_instance(void) {
    return net.up ? net.info.instance : 0;
}

static void print_config(void) {
    const struct netif *n = &net.netif;
    printf("net: instance %lu, mac %02x:%02x:%02x:%02x:%02x:%02x, ip %s/%d", (unsigned long)net.info.instance,
           n->hwaddr[0], n->hwaddr[1], n->hwaddr[2], n->hwaddr[3], n->hwaddr[4], n->hwaddr[5],
           ip4addr_ntoa(netif_ip4_addr(n)), NET_DEFAULT_PREFIX);
    printf(", %lu rx and %lu tx slots of %lu bytes\n", (unsigned long)net.info.rx_slots,
           (unsigned long)net.info.tx_slots, (unsigned long)net.info.slot_bytes);
}

int net_init(void) {
    ip4_addr_t ip, mask, gw;

    lwip_init();
    net.why = "";
    if (mgmtif_probe(&net.info, &net.why) != 0) {
        printf("net: no management port (%s); networking is off\n", net.why);
        return -1;
    }
    uint32_t host = 1u + net.info.instance % 254u;
    IP4_ADDR(&ip, NET_DEFAULT_NET0, 0, 0, host);
    IP4_ADDR(&mask, 255, 255, 255, 0);
    ip4_addr_set_zero(&gw);
    static const uint8_t mac0[ETH_HWADDR_LEN] = {NET_MAC_OUI0, 0, 0, 0, 0, 0};
    memcpy(net.mac, mac0, sizeof net.mac);
    net.mac[5] = (uint8_t)host;
    if (netif_add(&net.netif, &ip, &mask, &gw, net.mac, mgmtif_init, ethernet_input) == NULL) {
        net.why = "the interface did not start";
        printf("net: %s; networking is off\n", net.why);
        return -1;
    }
    net_sync_datapath();
    netif_set_default(&net.netif);
    netif_set_link_up(&net.netif);
    netif_set_up(&net.netif);
    net.up = true;
    net_tcp_guard_init();
    if (net_echo_init() != 0) printf("net: warning: the echo services did not start\n");
    if (net_gsi_init() != 0) printf("net: warning: the QP 1 (RDMA CM) handler did not start\n");
    print_config();
    return 0;
}

void net_poll(void) {
    wdog_kick(); /* a wait that serves the network is the firmware at work */
    if (!net.up) return;
    mgmtif_poll(&net.netif);
    sys_check_timeouts();
    net_tcp_guard_poll();
}

void net_set_addr(const ip4_addr_t *ip, const ip4_addr_t *mask, const ip4_addr_t *gw) {
    if (!net.up) return;
    netif_set_addr(&net.netif, ip, mask, gw);
    net_sync_datapath();
    etharp_gratuitous(&net.netif);
}

void net_set_mac(const uint8_t mac[6]) {
    if (!net.up) return;
    etharp_cleanup_netif(&net.netif);
    memcpy(net.netif.hwaddr, mac, ETH_HWADDR_LEN);
    memcpy(net.mac, mac, ETH_HWADDR_LEN);
    net_sync_datapath();
    etharp_gratuitous(&net.netif);
}
