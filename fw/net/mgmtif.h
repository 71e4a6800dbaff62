/*
 * The lwIP network interface on the management buffers (regs/mgmt.toml,
 * rtl/net/net_mgmt_rx.sv, rtl/net/net_mgmt_tx.sv): received frames are read
 * from the RX slot window into pbufs, frames to send are written into a TX
 * slot. Structure of lwIP's ethernetif template: low_level_init,
 * low_level_output, low_level_input; LINK_STATS count where frames pass.
 */
#ifndef FW_NET_MGMTIF_H
#define FW_NET_MGMTIF_H

#include <stdint.h>

#include "lwip/err.h"
#include "lwip/netif.h"

/* The SoC addresses of the slot windows (docs/DEVELOPING.md, address map). */
#define MGMTIF_RX_WINDOW 0x40000000u
#define MGMTIF_TX_WINDOW 0x40010000u

/* What the hardware says about itself (mgmt registers). */
struct mgmtif_info {
    uint32_t version;
    uint32_t instance; /* which NIC: the default MAC and IP derive from it */
    uint32_t rx_slots;
    uint32_t tx_slots;
    uint32_t slot_bytes;
};

/*
 * Look for the management block: its ID register is read with a probing
 * load, so a SoC without it (the bus answers with an error) is no fault.
 * Returns 0 and fills info when present; -1 and a reason in *why when not.
 */
int mgmtif_probe(struct mgmtif_info *info, const char **why);

/* netif_add's init function; netif->state must point to the 6-byte MAC. */
err_t mgmtif_init(struct netif *netif);

/* Hand up to a few received frames to netif->input; returns how many. */
int mgmtif_poll(struct netif *netif);

/* Frames the driver dropped on the way in or out, by reason (for 'stats'). */
struct mgmtif_drops {
    uint32_t rx_nomem; /* no pbuf for a received frame */
    uint32_t rx_runt;  /* shorter than an Ethernet header */
    uint32_t tx_busy;  /* no TX slot came free in time */
    uint32_t tx_long;  /* longer than a slot */
};
const struct mgmtif_drops *mgmtif_drops(void);

#endif
