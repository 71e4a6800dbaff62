/* lwIP netif driver for the management buffers (see mgmtif.h). */
#include "mgmtif.h"

#include <solonic_regs.h>
#include <stdbool.h>
#include <string.h>

#include "lwip/etharp.h"
#include "lwip/pbuf.h"
#include "lwip/stats.h"
#include "netif/ethernet.h"
#include "timer.h"
#include "trap.h"

#define MGMTIF_RX_BUDGET 8     /* frames handed to lwIP per poll */
#define MGMTIF_TX_WAIT_US 500u /* longest wait for a free TX slot */
#define MGMTIF_MIN_FRAME 60u   /* shortest Ethernet frame without FCS: pad to it */
#define MGMTIF_MTU 1500u

struct mgmtif_state {
    bool present;
    struct mgmtif_info info;
    struct mgmtif_drops drops;
};

static struct mgmtif_state st;

#define WIN8(a) (*(volatile uint8_t *)(uintptr_t)(a))

int mgmtif_probe(struct mgmtif_info *info, const char **why) {
    uint32_t id, cause;

    st.present = false;
    if (trap_probe_read32(MGMT_ID, &id, &cause) != 0) {
        *why = "nothing answers at the mgmt register block";
        return -1;
    }
    if (id != MGMT_ID_VALUE) {
        *why = "the mgmt register block has the wrong ID";
        return -1;
    }
    st.info.version = REG32(MGMT_VERSION);
    if (st.info.version != MGMT_VERSION_VALUE) {
        *why = "the mgmt register block has an unknown version";
        return -1;
    }
    uint32_t cfg = REG32(MGMT_CONFIG);
    st.info.instance = REG32(MGMT_INSTANCE);
    st.info.rx_slots = (cfg & MGMT_CONFIG_RX_SLOTS_MASK) >> MGMT_CONFIG_RX_SLOTS_SHIFT;
    st.info.tx_slots = (cfg & MGMT_CONFIG_TX_SLOTS_MASK) >> MGMT_CONFIG_TX_SLOTS_SHIFT;
    st.info.slot_bytes = (cfg & MGMT_CONFIG_SLOT_BYTES_MASK) >> MGMT_CONFIG_SLOT_BYTES_SHIFT;
    if (st.info.rx_slots == 0 || st.info.tx_slots == 0 ||
        st.info.slot_bytes < SIZEOF_ETH_HDR + 576u) {
        *why = "the mgmt buffers are too small (config register)";
        return -1;
    }
    st.present = true;
    *info = st.info;
    return 0;
}

const struct mgmtif_drops *mgmtif_drops(void) {
    return &st.drops;
}

/* ---- transmit: a pbuf chain into a TX slot */

/* Copy n bytes from src to the slot memory at base + *off (word writes where aligned). */
static void copy_out(uint32_t base, uint32_t *off, const uint8_t *src, uint32_t n) {
    uint32_t o = *off;

    while (n && (o & 3u)) {
        WIN8(base + o) = *src++;
        o++;
        n--;
    }
    if (((uintptr_t)src & 3u) == 0) {
        for (; n >= 4; n -= 4, o += 4, src += 4)
            REG32(base + o) = *(const uint32_t *)(const void *)src;
    } else {
        for (; n >= 4; n -= 4, o += 4, src += 4)
            REG32(base + o) = (uint32_t)src[0] | (uint32_t)src[1] << 8 | (uint32_t)src[2] << 16 |
                              (uint32_t)src[3] << 24;
    }
    while (n) {
        WIN8(base + o) = *src++;
        o++;
        n--;
    }
    *off = o;
}

/* A free TX slot's number, waiting at most MGMTIF_TX_WAIT_US; -1 if none came free. */
static int tx_slot(void) {
    uint64_t deadline = 0;

    for (;;) {
        uint32_t s = REG32(MGMT_TX_STATUS);
        if (s & MGMT_TX_STATUS_FREE_MASK)
            return (int)((s & MGMT_TX_STATUS_SLOT_MASK) >> MGMT_TX_STATUS_SLOT_SHIFT);
        uint64_t now = tmr_cycles();
        if (deadline == 0)
            deadline = now + (uint64_t)tmr_clk_hz() * MGMTIF_TX_WAIT_US / 1000000u;
        else if (now >= deadline)
            return -1;
    }
}

static err_t low_level_output(struct netif *netif, struct pbuf *p) {
    (void)netif;
    if (p->tot_len > st.info.slot_bytes) {
        st.drops.tx_long++;
        LINK_STATS_INC(link.lenerr);
        LINK_STATS_INC(link.drop);
        return ERR_BUF;
    }
    int slot = tx_slot();
    if (slot < 0) {
        st.drops.tx_busy++;
        LINK_STATS_INC(link.drop);
        return ERR_MEM;
    }
    uint32_t base = MGMTIF_TX_WINDOW + (uint32_t)slot * st.info.slot_bytes;
    uint32_t off = 0;
    for (struct pbuf *q = p; q != NULL; q = q->next)
        copy_out(base, &off, q->payload, q->len);
    static const uint8_t zeros[MGMTIF_MIN_FRAME];
    if (off < MGMTIF_MIN_FRAME) copy_out(base, &off, zeros, MGMTIF_MIN_FRAME - off);
    REG32(MGMT_TX_SEND) = off;
    LINK_STATS_INC(link.xmit);
    return ERR_OK;
}

/* ---- receive: the head RX slot into a pbuf chain */

/* Copy n bytes from the slot memory at base + *off to dst (word reads). */
static void copy_in(uint8_t *dst, uint32_t base, uint32_t *off, uint32_t n) {
    uint32_t o = *off;

    if ((o & 3u) == 0 && ((uintptr_t)dst & 3u) == 0) {
        for (; n >= 4; n -= 4, o += 4, dst += 4)
            *(uint32_t *)(void *)dst = REG32(base + o);
    }
    while (n) {
        uint32_t w = REG32(base + (o & ~3u)) >> (8u * (o & 3u));
        do {
            *dst++ = (uint8_t)w;
            w >>= 8;
            o++;
            n--;
        } while (n && (o & 3u));
    }
    *off = o;
}

/*
 * Take the head frame of the RX ring into *out (NULL when it was dropped:
 * too short, or no pbuf) and free its slot. Returns 0 when the ring was empty.
 */
static int low_level_input(struct netif *netif, struct pbuf **out) {
    (void)netif;
    uint32_t head = REG32(MGMT_RX_HEAD);
    if (!(head & MGMT_RX_HEAD_VALID_MASK)) return 0;
    uint32_t len = (head & MGMT_RX_HEAD_LEN_MASK) >> MGMT_RX_HEAD_LEN_SHIFT;
    uint32_t slot = (head & MGMT_RX_HEAD_SLOT_MASK) >> MGMT_RX_HEAD_SLOT_SHIFT;
    struct pbuf *p = NULL;

    if (len < SIZEOF_ETH_HDR) {
        st.drops.rx_runt++;
        LINK_STATS_INC(link.lenerr);
        LINK_STATS_INC(link.drop);
    } else if ((p = pbuf_alloc(PBUF_RAW, (u16_t)len, PBUF_POOL)) == NULL) {
        st.drops.rx_nomem++;
        LINK_STATS_INC(link.memerr);
        LINK_STATS_INC(link.drop);
    } else {
        uint32_t base = MGMTIF_RX_WINDOW + slot * st.info.slot_bytes, off = 0;
        for (struct pbuf *q = p; q != NULL; q = q->next)
            copy_in(q->payload, base, &off, q->len);
        LINK_STATS_INC(link.recv);
    }
    REG32(MGMT_RX_POP) = 1;
    *out = p;
    return 1;
}

int mgmtif_poll(struct netif *netif) {
    int n = 0;
    struct pbuf *p;

    if (!st.present) return 0;
    while (n < MGMTIF_RX_BUDGET && low_level_input(netif, &p)) {
        n++;
        if (p && netif->input(p, netif) != ERR_OK) {
            LINK_STATS_INC(link.drop);
            pbuf_free(p);
        }
    }
    return n;
}

/* ---- set-up */

static void low_level_init(struct netif *netif) {
    netif->hwaddr_len = ETH_HWADDR_LEN;
    memcpy(netif->hwaddr, netif->state, ETH_HWADDR_LEN);
    netif->mtu = MGMTIF_MTU;
    if (st.info.slot_bytes - SIZEOF_ETH_HDR < netif->mtu)
        netif->mtu = (u16_t)(st.info.slot_bytes - SIZEOF_ETH_HDR);
    netif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET;
}

err_t mgmtif_init(struct netif *netif) {
    if (!st.present) return ERR_IF;
    netif->name[0] = 'm';
    netif->name[1] = 'g';
    netif->output = etharp_output;
    netif->linkoutput = low_level_output;
    low_level_init(netif);
    return ERR_OK;
}
