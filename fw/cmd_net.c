/* Network commands: ip, mac, arp, ping, stats (the stack is fw/net). */
#include <solonic_regs.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "lwip/etharp.h"
#include "lwip/inet_chksum.h"
#include "lwip/ip.h"
#include "lwip/mem.h"
#include "lwip/memp.h"
#include "lwip/prot/icmp.h"
#include "lwip/prot/ip4.h"
#include "lwip/priv/tcp_priv.h"
#include "lwip/raw.h"
#include "lwip/stats.h"
#include "mgmtif.h"
#include "net.h"
#include "roce/cm.h"
#include "roce/roce.h"
#include "timer.h"


/* ---- shared helpers */

/* The interface, or NULL after printing why there is none. */
static struct netif *need_netif(const char *cmd) {
    struct netif *n = net_netif();
    if (!n) printf("%s: no management port (%s)\n", cmd, net_absent_reason());
    return n;
}

/* con_parse_ip4 into lwIP's address (network order) */
static int parse_ip4_arg(const char *cmd, const char *what, const char *s, ip4_addr_t *out) {
    uint32_t v;
    if (con_parse_ip4(cmd, what, s, &v) != 0) return -1;
    ip4_addr_set_u32(out, lwip_htonl(v));
    return 0;
}

static int prefix_len(const ip4_addr_t *mask) {
    uint32_t m = lwip_ntohl(ip4_addr_get_u32(mask));
    int n = 0;
    while (m & 0x80000000u) {
        n++;
        m <<= 1;
    }
    return n;
}

static void print_mac(const uint8_t *m) {
    printf("%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* ---- ip */

static void show_ip(const struct netif *n) {
    printf("ip %s/%d", ip4addr_ntoa(netif_ip4_addr(n)), prefix_len(netif_ip4_netmask(n)));
    printf(" gw %s", ip4_addr_isany_val(*netif_ip4_gw(n)) ? "none" : ip4addr_ntoa(netif_ip4_gw(n)));
    printf(" mtu %u %s\n", n->mtu, netif_is_up(n) ? "up" : "down");
}

static int cmd_ip(int argc, char **argv) {
    ip4_addr_t ip, mask, gw;
    char addr[20];
    uint32_t plen;

    if (argc > 3) {
        printf("ip: too many arguments (see 'help ip')\n");
        return CON_ERR;
    }
    if (argc == 1) {
        struct netif *n = need_netif("ip");
        if (!n) return CON_ERR;
        show_ip(n);
        return CON_OK;
    }
    const char *slash = strchr(argv[1], '/');
    if (!slash) {
        printf("ip: expected ADDR/PREFIX like 10.0.0.1/24, got '%s'\n", argv[1]);
        return CON_ERR;
    }
    size_t alen = (size_t)(slash - argv[1]);
    if (alen >= sizeof addr) alen = sizeof addr - 1;
    memcpy(addr, argv[1], alen);
    addr[alen] = '\0';
    if (parse_ip4_arg("ip", "ADDR", addr, &ip) != 0) return CON_ERR;
    if (con_parse_u32("ip", "PREFIX", slash + 1, &plen) != 0) return CON_ERR;
    if (plen < 1 || plen > 30) {
        printf("ip: PREFIX: expected 1..30, got %lu\n", (unsigned long)plen);
        return CON_ERR;
    }
    uint32_t m = 0xffffffffu << (32u - plen), a = lwip_ntohl(ip4_addr_get_u32(&ip));
    ip4_addr_set_u32(&mask, lwip_htonl(m));
    if (ip4_addr_ismulticast(&ip) || (a >> 24) == 0 || (a >> 24) == 127 || (a & ~m) == 0 ||
        (a & ~m) == ~m) {
        printf("ip: ADDR: %s is not a host address in a /%lu network\n", addr, (unsigned long)plen);
        return CON_ERR;
    }
    ip4_addr_set_zero(&gw);
    if (argc == 3) {
        if (parse_ip4_arg("ip", "GW", argv[2], &gw) != 0) return CON_ERR;
        uint32_t g = lwip_ntohl(ip4_addr_get_u32(&gw));
        if ((g & m) != (a & m) || g == a || (g & ~m) == 0 || (g & ~m) == ~m) {
            printf("ip: GW: %s is not another host in %s/%lu\n", argv[2], addr, (unsigned long)plen);
            return CON_ERR;
        }
    }
    struct netif *n = need_netif("ip");
    if (!n) return CON_ERR;
    net_set_addr(&ip, &mask, &gw);
    show_ip(n);
    return CON_OK;
}

static void ip_help_more(void) {
    printf("  without arguments: show the address; ADDR/PREFIX (PREFIX 1..30) sets it,\n");
    printf("  GW the gateway (none when left out). Boot default: 10.0.0.(1+instance)/24.\n");
}
CON_COMMAND_MORE(ip, "[ADDR/PREFIX [GW]]", "show or set the IPv4 address, prefix and gateway",
                 cmd_ip, ip_help_more);

/* ---- mac */

static int parse_mac(const char *s, uint8_t mac[6]) {
    for (int i = 0; i < 6; i++) {
        uint32_t v = 0;
        for (int j = 0; j < 2; j++) {
            char c = *s++;
            uint32_t d;
            if (c >= '0' && c <= '9')
                d = (uint32_t)(c - '0');
            else if (c >= 'a' && c <= 'f')
                d = (uint32_t)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                d = (uint32_t)(c - 'A' + 10);
            else
                return -1;
            v = v << 4 | d;
        }
        mac[i] = (uint8_t)v;
        if (i < 5 && *s++ != ':') return -1;
    }
    return *s == '\0' ? 0 : -1;
}

static int cmd_mac(int argc, char **argv) {
    uint8_t mac[6];

    if (argc > 2) {
        printf("mac: too many arguments (see 'help mac')\n");
        return CON_ERR;
    }
    if (argc == 2) {
        if (parse_mac(argv[1], mac) != 0) {
            printf("mac: expected six hex bytes like 02:00:00:00:00:01, got '%s'\n", argv[1]);
            return CON_ERR;
        }
        if (mac[0] & 1u) {
            printf("mac: %s is a multicast address (bit 0 of the first byte is set)\n", argv[1]);
            return CON_ERR;
        }
        static const uint8_t zero[6];
        if (memcmp(mac, zero, sizeof mac) == 0) {
            printf("mac: 00:00:00:00:00:00 is not a station address\n");
            return CON_ERR;
        }
    }
    struct netif *n = need_netif("mac");
    if (!n) return CON_ERR;
    if (argc == 2) net_set_mac(mac);
    printf("mac ");
    print_mac(n->hwaddr);
    printf("\n");
    return CON_OK;
}
CON_COMMAND(mac, "[XX:XX:XX:XX:XX:XX]",
            "show or set the MAC address (unicast; boot default 02:00:00:00:00:(1+instance))",
            cmd_mac);

/* ---- arp */

static int cmd_arp(int argc, char **argv) {
    (void)argv;
    if (argc != 1) {
        printf("arp: takes no arguments\n");
        return CON_ERR;
    }
    if (!need_netif("arp")) return CON_ERR;
    int shown = 0;
    for (size_t i = 0; i < ARP_TABLE_SIZE; i++) {
        ip4_addr_t *ip;
        struct netif *nif;
        struct eth_addr *eth;
        if (!etharp_get_entry(i, &ip, &nif, &eth)) continue;
        if (shown++ == 0) printf("address          hwaddress          iface\n");
        printf("%-16s ", ip4addr_ntoa(ip));
        print_mac(eth->addr);
        printf("  %c%c%u\n", nif->name[0], nif->name[1], nif->num);
    }
    if (!shown) printf("arp: the table is empty\n");
    return CON_OK;
}
CON_COMMAND(arp, "", "the ARP table (resolved entries)", cmd_arp);

/* ---- ping */

#define PING_ID 0x534cu /* "SL" */
#define PING_DATA_BYTES 32u
#define PING_TIMEOUT_MS 10u /* simulated time: a peer on the link answers in microseconds */
#define PING_COUNT_MAX 1000u

static struct {
    ip4_addr_t target;
    uint16_t seq;
    bool got;
    bool corrupt;
    uint8_t ttl;
    uint64_t t_got;
} ping;

static uint8_t ping_pattern(uint32_t i) {
    return (uint8_t)('a' + i % 23u);
}

/* raw_recv callback: take our echo replies, leave every other ICMP message to lwIP. */
static u8_t ping_recv(void *arg, struct raw_pcb *pcb, struct pbuf *p, const ip_addr_t *addr) {
    (void)arg;
    (void)pcb;
    if (p->tot_len < IP_HLEN + sizeof(struct icmp_echo_hdr)) return 0;
    uint16_t ihl = (uint16_t)((pbuf_get_at(p, 0) & 0x0fu) * 4u);
    struct icmp_echo_hdr h;
    if (pbuf_copy_partial(p, &h, sizeof h, ihl) != sizeof h) return 0;
    if (h.type != ICMP_ER || h.id != lwip_htons(PING_ID) || h.seqno != lwip_htons(ping.seq) ||
        !ip4_addr_cmp(ip_2_ip4(addr), &ping.target))
        return 0;
    uint64_t now = tmr_cycles();
    bool ok = p->tot_len == ihl + sizeof h + PING_DATA_BYTES;
    for (uint32_t i = 0; ok && i < PING_DATA_BYTES; i++)
        ok = pbuf_get_at(p, (u16_t)(ihl + sizeof h + i)) == ping_pattern(i);
    ping.ttl = pbuf_get_at(p, 8);
    ping.corrupt = !ok;
    ping.t_got = now;
    ping.got = true;
    pbuf_free(p);
    return 1;
}

static err_t ping_send(struct raw_pcb *pcb) {
    struct pbuf *p = pbuf_alloc(PBUF_IP, sizeof(struct icmp_echo_hdr) + PING_DATA_BYTES, PBUF_RAM);
    if (!p) return ERR_MEM;
    struct icmp_echo_hdr *h = p->payload;
    h->type = ICMP_ECHO;
    h->code = 0;
    h->chksum = 0;
    h->id = lwip_htons(PING_ID);
    h->seqno = lwip_htons(ping.seq);
    uint8_t *d = (uint8_t *)(h + 1);
    for (uint32_t i = 0; i < PING_DATA_BYTES; i++)
        d[i] = ping_pattern(i);
    h->chksum = inet_chksum(h, (u16_t)p->len);
    ip_addr_t to;
    ip_addr_copy_from_ip4(to, ping.target);
    err_t e = raw_sendto(pcb, p, &to);
    pbuf_free(p);
    return e;
}

static uint32_t cycles_to_us(uint64_t c) {
    return (uint32_t)(c * 1000000u / tmr_clk_hz());
}

static int cmd_ping(int argc, char **argv) {
    uint32_t count = 4, timeout_ms = PING_TIMEOUT_MS;

    if (argc < 2 || argc > 4) {
        printf("ping: expected ADDR [COUNT [TIMEOUT_MS]]\n");
        return CON_ERR;
    }
    if (parse_ip4_arg("ping", "ADDR", argv[1], &ping.target) != 0) return CON_ERR;
    if (argc >= 3) {
        if (con_parse_u32("ping", "COUNT", argv[2], &count) != 0) return CON_ERR;
        if (count < 1 || count > PING_COUNT_MAX) {
            printf("ping: COUNT: expected 1..%u, got %lu\n", PING_COUNT_MAX, (unsigned long)count);
            return CON_ERR;
        }
    }
    if (argc == 4) {
        if (con_parse_u32("ping", "TIMEOUT_MS", argv[3], &timeout_ms) != 0) return CON_ERR;
        if (timeout_ms < 1 || timeout_ms > 10000) {
            printf("ping: TIMEOUT_MS: expected 1..10000, got %lu\n", (unsigned long)timeout_ms);
            return CON_ERR;
        }
    }
    if (!need_netif("ping")) return CON_ERR;
    struct raw_pcb *pcb = raw_new(IP_PROTO_ICMP);
    if (!pcb) {
        printf("ping: no raw PCB free\n");
        return CON_ERR;
    }
    raw_recv(pcb, ping_recv, NULL);

    printf("ping %s: %lu echoes of %u bytes, timeout %lu ms\n", argv[1], (unsigned long)count,
           PING_DATA_BYTES, (unsigned long)timeout_ms);
    uint32_t sent = 0, received = 0, rtt_min = UINT32_MAX, rtt_max = 0;
    uint64_t rtt_sum = 0;
    bool stop = false;
    int rc = CON_OK;
    for (uint32_t i = 0; i < count && !stop; i++) {
        ping.seq = (uint16_t)(i + 1u);
        ping.got = false;
        uint64_t t0 = tmr_cycles();
        err_t e = ping_send(pcb);
        if (e != ERR_OK) {
            printf("ping: cannot send to %s: %s (lwIP error %d)\n", argv[1],
                   e == ERR_RTE ? "no route (outside the subnet and no gateway)" : "send failed", e);
            rc = CON_ERR;
            break;
        }
        sent++;
        uint64_t deadline = t0 + tmr_ms_to_cycles(timeout_ms);
        while (!ping.got && tmr_cycles() < deadline) {
            net_poll();
            if (con_interrupted()) {
                stop = true;
                break;
            }
        }
        if (stop) {
            printf("^C\n");
            break;
        }
        if (!ping.got) {
            printf("seq=%u: no reply within %lu ms\n", ping.seq, (unsigned long)timeout_ms);
            continue;
        }
        uint32_t us = cycles_to_us(ping.t_got - t0);
        printf("reply from %s: seq=%u ttl=%u rtt=%lu us%s\n", argv[1], ping.seq, ping.ttl,
               (unsigned long)us, ping.corrupt ? " (DATA DIFFERS)" : "");
        received++;
        rtt_sum += us;
        if (us < rtt_min) rtt_min = us;
        if (us > rtt_max) rtt_max = us;
    }
    raw_remove(pcb);
    printf("%lu sent, %lu received, %lu%% lost", (unsigned long)sent, (unsigned long)received,
           (unsigned long)(sent ? (sent - received) * 100u / sent : 0));
    if (received)
        printf(", rtt min/avg/max %lu/%lu/%lu us", (unsigned long)rtt_min,
               (unsigned long)(rtt_sum / received), (unsigned long)rtt_max);
    printf("\n");
    return rc;
}

static void ping_help_more(void) {
    printf("  COUNT echoes (1..%u, default 4) of %u bytes, one at a time; each waits at most\n",
           PING_COUNT_MAX, PING_DATA_BYTES);
    printf("  TIMEOUT_MS of simulated time (default %u). Ctrl-C stops.\n", PING_TIMEOUT_MS);
}
CON_COMMAND_MORE(ping, "ADDR [COUNT [TIMEOUT_MS]]", "ICMP echo: round-trip times in microseconds",
                 cmd_ping, ping_help_more);

/* ---- tcp */

static const char *const tcp_state_names[] = {
    "CLOSED",     "LISTEN",     "SYN_SENT", "SYN_RCVD", "ESTABLISHED", "FIN_WAIT_1",
    "FIN_WAIT_2", "CLOSE_WAIT", "CLOSING",  "LAST_ACK", "TIME_WAIT"};

static void tcp_rows(const struct tcp_pcb *p, int *shown) {
    for (; p != NULL; p = p->next) {
        if ((*shown)++ == 0) printf("state        local  peer                  idle ms\n");
        printf("%-12s %5u", p->state <= TIME_WAIT ? tcp_state_names[p->state] : "?", p->local_port);
        if (p->state == LISTEN) {
            printf("\n");
            continue;
        }
        char peer[24];
        snprintf(peer, sizeof peer, "%s:%u", ip4addr_ntoa(ip_2_ip4(&p->remote_ip)), p->remote_port);
        uint32_t idle = net_tcp_idle_of(p);
        if (idle == NET_TCP_IDLE_UNKNOWN)
            printf("  %-21s %7s\n", peer, "-");
        else
            printf("  %-21s %7lu\n", peer, (unsigned long)idle);
    }
}

static int cmd_tcp(int argc, char **argv) {
    uint32_t ms;

    if (argc != 1 && argc != 3) {
        printf("tcp: expected no arguments or 'idle MS' (see 'help tcp')\n");
        return CON_ERR;
    }
    if (argc == 3) {
        if (strcmp(argv[1], "idle") != 0) {
            printf("tcp: expected 'idle MS', got '%s'\n", argv[1]);
            return CON_ERR;
        }
        if (con_parse_u32("tcp", "MS", argv[2], &ms) != 0) return CON_ERR;
        if (ms < 1 || ms > NET_TCP_IDLE_MAX_MS) {
            printf("tcp: MS: expected 1..%lu, got %lu\n", (unsigned long)NET_TCP_IDLE_MAX_MS,
                   (unsigned long)ms);
            return CON_ERR;
        }
    }
    if (!need_netif("tcp")) return CON_ERR;
    if (argc == 3) net_tcp_set_idle_ms(ms);
    struct net_tcp_stats t;
    net_tcp_guard_stats(&t);
    printf("tcp: idle bound %lu ms, half_open_evicted %lu idle_aborted %lu\n",
           (unsigned long)net_tcp_idle_ms(), (unsigned long)t.half_open_evicted,
           (unsigned long)t.idle_aborted);
    int shown = 0;
    tcp_rows((const struct tcp_pcb *)tcp_listen_pcbs.listen_pcbs, &shown);
    tcp_rows(tcp_active_pcbs, &shown);
    tcp_rows(tcp_tw_pcbs, &shown);
    if (!shown) printf("tcp: no connections\n");
    return CON_OK;
}

static void tcp_help_more(void) {
    printf("  lists lwIP's TCP connections (idle: since the peer's last segment). A half-open\n");
    printf("  connection, one on the echo port (7) and one closed here that waits for its peer\n");
    printf("  are aborted with a RST after the idle bound without a segment from the peer\n");
    printf("  (boot default %lu ms); 'idle MS' sets it (1..%lu).\n", (unsigned long)NET_TCP_IDLE_MS,
           (unsigned long)NET_TCP_IDLE_MAX_MS);
}
CON_COMMAND_MORE(tcp, "[idle MS]", "TCP connections and the idle bound on silent ones", cmd_tcp,
                 tcp_help_more);

/* ---- stats */

/* lwIP's pool names (its own are compiled in only with LWIP_DEBUG), in memp_t order */
static const char *const memp_names[MEMP_MAX] = {
#define LWIP_MEMPOOL(name, num, size, desc) #name,
#include "lwip/priv/memp_std.h"
};

static void stats_row(const char *name, const struct stats_proto *s) {
    printf("%-7s %8lu %8lu %8lu %8lu %8lu %8lu %8lu %8lu %8lu\n", name, (unsigned long)s->xmit,
           (unsigned long)s->recv, (unsigned long)s->drop, (unsigned long)s->chkerr,
           (unsigned long)s->lenerr, (unsigned long)s->memerr, (unsigned long)s->rterr,
           (unsigned long)s->proterr, (unsigned long)s->err);
}

static int cmd_stats(int argc, char **argv) {
    if (argc > 1) return roce_stats_named(argc - 1, argv + 1) == 0 ? CON_OK : CON_ERR;
    if (!need_netif("stats")) return CON_ERR;
    printf("%-7s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "lwip", "xmit", "recv", "drop", "chkerr",
           "lenerr", "memerr", "rterr", "proterr", "err");
    stats_row("link", &lwip_stats.link);
    stats_row("etharp", &lwip_stats.etharp);
    stats_row("ip", &lwip_stats.ip);
    stats_row("icmp", &lwip_stats.icmp);
    stats_row("udp", &lwip_stats.udp);
    stats_row("tcp", &lwip_stats.tcp);
    printf("ip      opterr %lu (fragments and IP options, dropped: no reassembly)\n",
           (unsigned long)lwip_stats.ip.opterr);
    struct net_tcp_stats t;
    net_tcp_guard_stats(&t);
    printf("tcp     half_open_evicted %lu idle_aborted %lu pcbs_in_use %lu of %u: active %lu "
           "time_wait %lu listening %lu of %u\n",
           (unsigned long)t.half_open_evicted, (unsigned long)t.idle_aborted,
           (unsigned long)t.in_use, (unsigned)MEMP_NUM_TCP_PCB, (unsigned long)t.active,
           (unsigned long)t.time_wait, (unsigned long)t.listening,
           (unsigned)MEMP_NUM_TCP_PCB_LISTEN);
    printf("heap    used %lu max %lu of %lu bytes, %lu failed allocations\n",
           (unsigned long)lwip_stats.mem.used, (unsigned long)lwip_stats.mem.max,
           (unsigned long)lwip_stats.mem.avail, (unsigned long)lwip_stats.mem.err);
    printf("memp    %-14s %6s %6s %6s %6s\n", "pool", "used", "max", "avail", "err");
    for (int i = 0; i < MEMP_MAX; i++) {
        const struct stats_mem *m = lwip_stats.memp[i];
        char name[16];
        size_t k = 0;
        for (const char *c = memp_names[i]; *c && k + 1 < sizeof name; c++)
            name[k++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        name[k] = '\0';
        printf("memp    %-14s %6lu %6lu %6lu %6lu\n", name, (unsigned long)m->used,
               (unsigned long)m->max, (unsigned long)m->avail, (unsigned long)m->err);
    }
    const struct mgmtif_drops *d = mgmtif_drops();
    printf("driver  rx_nomem %lu rx_runt %lu tx_busy %lu tx_long %lu\n", (unsigned long)d->rx_nomem,
           (unsigned long)d->rx_runt, (unsigned long)d->tx_busy, (unsigned long)d->tx_long);
    /* the packet layer (rtl/net): what it passed to the transport and the mgmt path, and why
       it dropped the rest */
    if (!net_datapath_present()) {
        printf("net     no packet layer (its registers do not answer)\n");
    } else {
        printf("net     rx_roce %lu rx_mgmt %lu tx_frames %lu drop_not_for_us %lu\n",
               (unsigned long)REG32(NET_RX_ROCE), (unsigned long)REG32(NET_RX_MGMT),
               (unsigned long)REG32(NET_TX_FRAMES), (unsigned long)REG32(NET_DROP_NOT_FOR_US));
        printf("net     drop_bad_csum %lu drop_trunc %lu drop_bad_hdr %lu drop_malformed %lu "
               "drop_mac_err %lu drop_roce_full %lu drop_mgmt_full %lu\n",
               (unsigned long)REG32(NET_DROP_BAD_CSUM), (unsigned long)REG32(NET_DROP_TRUNC),
               (unsigned long)REG32(NET_DROP_BAD_HDR), (unsigned long)REG32(NET_DROP_MALFORMED),
               (unsigned long)REG32(NET_DROP_MAC_ERR), (unsigned long)REG32(NET_DROP_ROCE_FULL),
               (unsigned long)REG32(NET_DROP_MGMT_FULL));
    }
    printf("mgmt    rx_frames %lu rx_drop_full %lu rx_drop_too_long %lu rx_drop_bad %lu"
           " rx_waiting %lu\n",
           (unsigned long)REG32(MGMT_RX_FRAMES), (unsigned long)REG32(MGMT_RX_DROP_FULL),
           (unsigned long)REG32(MGMT_RX_DROP_TOO_LONG), (unsigned long)REG32(MGMT_RX_DROP_BAD),
           (unsigned long)REG32(MGMT_RX_COUNT));
    printf("mgmt    tx_frames %lu tx_err %lu\n", (unsigned long)REG32(MGMT_TX_FRAMES),
           (unsigned long)REG32(MGMT_TX_ERR));
    uint32_t qp1, other;
    net_gsi_counts(&qp1, &other);
    printf("gsi     qp1_mads %lu other_roce %lu\n", (unsigned long)qp1, (unsigned long)other);
    cm_stats_print(); /* fw/roce/cm.c: RDMA CM */
    roce_stats_print(); /* fw/roce: the transport's counters */
    return CON_OK;
}
CON_COMMAND(stats, "[COUNTER ...]",
            "lwIP's counters, pools and heap, the mgmt buffer and datapath counters; with names, "
            "only those transport counters (one line)",
            cmd_stats);
