/*
 * Echo services on port NET_ECHO_PORT (RFC 862), TCP and UDP: a peer can
 * check the whole path (ARP, IP, checksums, TCP windows) with standard tools.
 * Every received segment is answered at once (Nagle off, tcp_output after
 * each receive): nothing waits for an lwIP timer.
 */
#include <stddef.h>

#include "lwip/pbuf.h"
#include "lwip/tcp.h"
#include "lwip/udp.h"
#include "net.h"

static void echo_udp_recv(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr,
                          u16_t port) {
    (void)arg;
    udp_sendto(pcb, p, addr, port);
    pbuf_free(p);
}

static err_t echo_tcp_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err) {
    (void)arg;
    (void)err;
    if (p == NULL) { /* the peer closed: close our side too */
        tcp_recv(pcb, NULL);
        if (tcp_close(pcb) != ERR_OK) {
            tcp_abort(pcb);
            return ERR_ABRT;
        }
        return ERR_OK;
    }
    /* no room to echo it all: lwIP offers the data again later */
    if (p->tot_len > tcp_sndbuf(pcb) || tcp_sndqueuelen(pcb) + pbuf_clen(p) > TCP_SND_QUEUELEN)
        return ERR_MEM;
    for (struct pbuf *q = p; q != NULL; q = q->next) {
        if (tcp_write(pcb, q->payload, q->len, TCP_WRITE_FLAG_COPY) != ERR_OK) {
            pbuf_free(p);
            tcp_abort(pcb);
            return ERR_ABRT;
        }
    }
    tcp_recved(pcb, p->tot_len);
    pbuf_free(p);
    tcp_output(pcb);
    return ERR_OK;
}

static err_t echo_tcp_accept(void *arg, struct tcp_pcb *pcb, err_t err) {
    (void)arg;
    if (err != ERR_OK || pcb == NULL) return ERR_VAL;
    tcp_nagle_disable(pcb);
    tcp_recv(pcb, echo_tcp_recv);
    return ERR_OK;
}

int net_echo_init(void) {
    struct udp_pcb *u = udp_new();
    if (u == NULL || udp_bind(u, IP_ANY_TYPE, NET_ECHO_PORT) != ERR_OK) return -1;
    udp_recv(u, echo_udp_recv, NULL);

    struct tcp_pcb *t = tcp_new();
    if (t == NULL || tcp_bind(t, IP_ANY_TYPE, NET_ECHO_PORT) != ERR_OK) return -1;
    struct tcp_pcb *l = tcp_listen(t);
    if (l == NULL) return -1;
    tcp_accept(l, echo_tcp_accept);
    return 0;
}
