/* lwIP's hooks (LWIP_HOOK_FILENAME in lwipopts.h): the functions the firmware gives it. */
#ifndef FW_NET_HOOKS_H
#define FW_NET_HOOKS_H

#include "lwip/err.h"

struct tcp_pcb;
struct tcp_hdr;

/* Every TCP segment for a PCB, before lwIP processes it (fw/net/net_tcp_guard.c):
   a SYN for a listening port first makes room for itself. ERR_OK: go on. */
err_t net_tcp_inpacket(struct tcp_pcb *pcb, struct tcp_hdr *hdr);

#endif
