/*
 * lwIP configuration of the solonic firmware (lwIP 2.1.3, deps/lwip).
 *
 * NO_SYS super-loop, raw API only; IPv4 with ARP, ICMP, UDP, TCP; static
 * addresses (no DHCP); lwIP's own static pools (no libc malloc); checksums
 * computed and checked in software; statistics on for the console 'stats'.
 * Sized for a few TCP connections with 4 KiB windows (the QP exchange and a
 * console-style service), well inside the 256 KiB data BRAM.
 */
#ifndef FW_NET_LWIPOPTS_H
#define FW_NET_LWIPOPTS_H

/* ---- system */
#define NO_SYS 1
#define LWIP_TIMERS 1 /* sys_check_timeouts() from the super-loop */
#define SYS_LIGHTWEIGHT_PROT 0 /* lwIP runs only in the main loop, never in an interrupt */
#define LWIP_SOCKET 0
#define LWIP_NETCONN 0
#define LWIP_NETIF_API 0

/* ---- memory: lwIP's heap and pools in .bss
   Sized for the services the port has (fw/README.md, "The management port under abuse"):
   the exchange session on 18515 (one connection at a time), the echo service on 7, a
   NIC client's connect, and room for half-open connections of a SYN flood, which the
   guard (net_tcp_guard.c) evicts oldest first and aborts after the idle bound. `stats`
   prints every pool's used/max/avail/err. */
#define MEM_LIBC_MALLOC 0
#define MEMP_MEM_MALLOC 0
#define MEM_ALIGNMENT 4
#define MEM_SIZE (24 * 1024) /* PBUF_RAM: TCP segments being sent, ICMP replies */
#define MEMP_NUM_PBUF 16     /* PBUF_REF/ROM headers */
#define MEMP_NUM_RAW_PCB 2   /* ping */
#define MEMP_NUM_UDP_PCB 4   /* echo, the RDMA CM's port 4791 */
#define MEMP_NUM_TCP_PCB 6   /* connections (with TIME_WAIT ones, which lwIP reuses first) */
#define MEMP_NUM_TCP_PCB_LISTEN 5 /* echo, one per exchange session listening (QPX_SESSIONS) */
#define MEMP_NUM_TCP_SEG 24  /* queued segments: 4 KiB send buffers of a few connections */
#define PBUF_POOL_SIZE 20 /* receive buffers: every RX frame goes into one (a frame longer than
                             the MTU, up to a mgmt slot, into two) */
#define LWIP_TCP_PCB_NUM_EXT_ARGS 1 /* the guard's last-segment stamp */

/* ---- link and network layers */
#define LWIP_ARP 1
#define ARP_TABLE_SIZE 8
#define ARP_QUEUEING 0 /* one packet waits per unresolved entry */
#define ETHARP_SUPPORT_STATIC_ENTRIES 0
#define LWIP_ETHERNET 1
#define ETH_PAD_SIZE 0
#define LWIP_IPV4 1
#define LWIP_IPV6 0
#define IP_FORWARD 0
#define IP_REASSEMBLY 0 /* management traffic stays below the MTU: fragments are dropped,
                           counted in lwIP's ip drop and opterr */
#define IP_FRAG 0
#define IP_DEFAULT_TTL 64
#define LWIP_ICMP 1
#define LWIP_RAW 1 /* ICMP echo for the console 'ping' */
#define LWIP_DHCP 0
#define LWIP_AUTOIP 0
#define LWIP_IGMP 0
#define LWIP_DNS 0
#define LWIP_NETIF_HOSTNAME 0
#define LWIP_NETIF_STATUS_CALLBACK 0
#define LWIP_NETIF_LINK_CALLBACK 0
#define LWIP_SINGLE_NETIF 1
#define LWIP_NETIF_LOOPBACK 0

/* ---- transport */
#define LWIP_UDP 1
#define LWIP_TCP 1
#define TCP_MSS 1460
#define TCP_WND (4 * 1024)
#define TCP_SND_BUF (4 * 1024)
#define TCP_SND_QUEUELEN (4 * TCP_SND_BUF / TCP_MSS + 4)
#define TCP_QUEUE_OOSEQ 0 /* the link does not reorder; saves pbufs */
/* a SYN to a listening port that finds the PCB pool full evicts the oldest
   half-open connection first (fw/net/net_tcp_guard.c) */
#define LWIP_HOOK_FILENAME "net_hooks.h"
#define LWIP_HOOK_TCP_INPACKET_PCB(pcb, hdr, optlen, opt1len, opt2, p) net_tcp_inpacket(pcb, hdr)
#define LWIP_TCP_KEEPALIVE 0
#define SO_REUSE 1 /* listen on a port whose last connection is still in TIME_WAIT */
#define LWIP_CALLBACK_API 1
#define LWIP_ALTCP 0

/* ---- checksums: generated and checked in software */
#define CHECKSUM_GEN_IP 1
#define CHECKSUM_GEN_UDP 1
#define CHECKSUM_GEN_TCP 1
#define CHECKSUM_GEN_ICMP 1
#define CHECKSUM_CHECK_IP 1
#define CHECKSUM_CHECK_UDP 1
#define CHECKSUM_CHECK_TCP 1
#define CHECKSUM_CHECK_ICMP 1

/* ---- statistics for the console 'stats' (printed by fw/cmd_net.c) */
#define LWIP_STATS 1
#define LWIP_STATS_DISPLAY 0
#define LINK_STATS 1
#define ETHARP_STATS 1
#define IP_STATS 1
#define ICMP_STATS 1
#define UDP_STATS 1
#define TCP_STATS 1
#define MEM_STATS 1
#define MEMP_STATS 1
#define SYS_STATS 0
#define IPFRAG_STATS 0

/* ---- debugging: assertions on, messages off */
#define LWIP_DEBUG 0
#define LWIP_NOASSERT_ON_ERROR 0

#endif
