/*
 * The firmware's network stack: lwIP (NO_SYS, raw API) on the management
 * buffers. net_init at boot, net_poll from the super-loop; the console's
 * fw/cmd_net.c reads and changes the configuration through the rest.
 */
#ifndef FW_NET_NET_H
#define FW_NET_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "lwip/ip4_addr.h"
#include "lwip/netif.h"

/* The subnet every NIC instance starts in: 10.0.0.(1 + instance)/24, no gateway. */
#define NET_DEFAULT_NET0 10
#define NET_DEFAULT_PREFIX 24

/* Services the stack offers (net_echo.c): TCP and UDP echo. */
#define NET_ECHO_PORT 7

/*
 * Start lwIP and, when the management port exists, bring up its interface
 * with the defaults for this NIC instance. Prints one line saying what it did.
 * Returns 0 when the port is up, -1 when there is none (the console still works).
 */
int net_init(void);

/* Frames received to lwIP, then lwIP's timeouts. Cheap when there is nothing to do. */
void net_poll(void);

/* The packet layer's register block (rtl/net) answers: false in an SoC with the
   management buffers alone. */
bool net_datapath_present(void);

/* The interface, or NULL when there is no management port. */
struct netif *net_netif(void);

/* Why there is no management port ("" when there is one). */
const char *net_absent_reason(void);

/* The NIC instance number from the mgmt block (0 without a port). */
uint32_t net_instance(void);

/* Change address, netmask and gateway (announced with a gratuitous ARP). */
void net_set_addr(const ip4_addr_t *ip, const ip4_addr_t *mask, const ip4_addr_t *gw);

/* Change the MAC address (the ARP table is flushed, then a gratuitous ARP). */
void net_set_mac(const uint8_t mac[6]);

/* Start the echo services (net_echo.c); 0 on success. */
int net_echo_init(void);

/* Take RoCEv2 packets for QP 1 (connection-manager MADs) off lwIP's hands:
   counted, reported once (net_gsi.c); 0 on success. */
int net_gsi_init(void);
void net_gsi_counts(uint32_t *qp1, uint32_t *other);

/* Half-open connections evicted so far; TCP PCBs in use now (of MEMP_NUM_TCP_PCB). */
void net_tcp_guard_counts(uint32_t *half_open_evicted, uint32_t *in_use);


#endif
