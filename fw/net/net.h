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

struct tcp_pcb;

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

/*
 * Bounds on TCP connections (net_tcp_guard.c): a SYN that finds the PCB pool full
 * evicts the oldest half-open connection; a half-open connection, one on the echo
 * port and one closed by its owner that waits for its peer are aborted (RST) when
 * the peer has sent nothing for the idle bound. net_tcp_guard_poll from net_poll.
 */
#define NET_TCP_IDLE_MS 10000u      /* the idle bound at boot */
#define NET_TCP_IDLE_MAX_MS 600000u /* the longest the console sets */
#define NET_TCP_IDLE_UNKNOWN 0xffffffffu
void net_tcp_guard_init(void);
/* Before a tcp_new: when the PCB pool is full, evict the oldest half-open connection. */
void net_tcp_make_room(void);
void net_tcp_guard_poll(void);
uint32_t net_tcp_idle_ms(void);
void net_tcp_set_idle_ms(uint32_t ms);
/* ms since the peer's last segment on pcb; NET_TCP_IDLE_UNKNOWN before its first */
uint32_t net_tcp_idle_of(const struct tcp_pcb *pcb);
struct net_tcp_stats {
    uint32_t half_open_evicted; /* for a new SYN */
    uint32_t idle_aborted;      /* after the idle bound */
    uint32_t in_use;            /* TCP PCBs in use (of MEMP_NUM_TCP_PCB): active + time_wait */
    uint32_t active, time_wait; /* connections by list */
    uint32_t listening;         /* listening PCBs (of MEMP_NUM_TCP_PCB_LISTEN) */
};
void net_tcp_guard_stats(struct net_tcp_stats *s);


#endif
