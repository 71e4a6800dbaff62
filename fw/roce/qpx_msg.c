/* Encode/decode of the QP exchange messages (see qpx_msg.h). No hardware, no libc I/O. */
#include "qpx_msg.h"

#include <string.h>

static const char hexdig[] = "0123456789abcdef";

/* Write v as exactly n lowercase hex digits (what printf's %0Nx gives). */
static uint8_t *put_hex(uint8_t *p, uint64_t v, int n) {
    for (int i = n - 1; i >= 0; i--) {
        p[i] = (uint8_t)hexdig[v & 0xfu];
        v >>= 4;
    }
    return p + n;
}

static int hexval(uint8_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/*
 * A small cursor over a received message: each field is taken in turn, the
 * first fault is remembered with its text and every later step is a no-op.
 */
struct cur {
    const uint8_t *p, *end;
    const char *err;
};

static uint64_t get_hex(struct cur *c, int n, const char *bad) {
    uint64_t v = 0;
    if (c->err) return 0;
    for (int i = 0; i < n; i++) {
        int d = c->p + i < c->end ? hexval(c->p[i]) : -1;
        if (d < 0) {
            c->err = bad;
            return 0;
        }
        v = v << 4 | (uint64_t)d;
    }
    c->p += n;
    return v;
}

static void get_sep(struct cur *c, uint8_t sep, const char *bad) {
    if (c->err) return;
    if (c->p >= c->end || *c->p != sep) {
        c->err = bad;
        return;
    }
    c->p++;
}

/* ---- ibv_rc_pingpong */

void qpx_pp_dest_encode(const struct qpx_dest *d, uint8_t out[QPX_PP_DEST_LEN]) {
    uint8_t *p = out;
    p = put_hex(p, d->lid, 4);
    *p++ = ':';
    p = put_hex(p, d->qpn & 0xffffffu, 6);
    *p++ = ':';
    p = put_hex(p, d->psn & 0xffffffu, 6);
    *p++ = ':';
    for (int i = 0; i < 16; i++)
        p = put_hex(p, d->gid[i], 2);
    *p = 0;
}

int qpx_pp_dest_decode(const uint8_t *buf, size_t len, struct qpx_dest *d, const char **err) {
    if (len != QPX_PP_DEST_LEN) {
        *err = "pingpong destination: wrong length (expected 52 bytes)";
        return -1;
    }
    if (buf[QPX_PP_DEST_LEN - 1] != 0) {
        *err = "pingpong destination: not NUL-terminated at byte 52";
        return -1;
    }
    struct cur c = {buf, buf + QPX_PP_DEST_LEN - 1, NULL};
    struct qpx_dest r;
    memset(&r, 0, sizeof r);
    r.lid = (uint16_t)get_hex(&c, 4, "pingpong destination: LID: expected 4 hex digits");
    get_sep(&c, ':', "pingpong destination: expected ':' after the LID");
    r.qpn = (uint32_t)get_hex(&c, 6, "pingpong destination: QPN: expected 6 hex digits");
    get_sep(&c, ':', "pingpong destination: expected ':' after the QPN");
    r.psn = (uint32_t)get_hex(&c, 6, "pingpong destination: PSN: expected 6 hex digits");
    get_sep(&c, ':', "pingpong destination: expected ':' after the PSN");
    for (int i = 0; i < 16; i++)
        r.gid[i] = (uint8_t)get_hex(&c, 2, "pingpong destination: GID: expected 32 hex digits");
    if (!c.err && c.p != c.end) c.err = "pingpong destination: characters after the GID";
    if (!c.err && r.qpn < 2) c.err = "pingpong destination: QPN 0 and 1 are not RC QPs";
    if (c.err) {
        *err = c.err;
        return -1;
    }
    *d = r;
    return 0;
}

/* ---- perftest */

void qpx_pt_dest_encode(const struct qpx_dest *d, uint8_t out[QPX_PT_DEST_LEN]) {
    uint8_t *p = out;
    p = put_hex(p, d->lid, 4);
    *p++ = ':';
    p = put_hex(p, d->out_reads, 4);
    *p++ = ':';
    p = put_hex(p, d->qpn & 0xffffffu, 6);
    *p++ = ':';
    p = put_hex(p, d->psn & 0xffffffu, 6);
    *p++ = ':';
    p = put_hex(p, d->rkey, 8);
    *p++ = ':';
    p = put_hex(p, d->vaddr, 16);
    *p++ = ':';
    for (int i = 0; i < 16; i++) {
        p = put_hex(p, d->gid[i], 2);
        *p++ = ':';
    }
    p = put_hex(p, d->srqn, 8);
    *p++ = ':';
    *p = 0;
}

void qpx_put_be(uint8_t *p, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8u * (n - 1u - i)));
}

uint64_t qpx_get_be(const uint8_t *p, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

#define BDEST_GID_INDEX 1u /* the NIC's RoCE v2 IPv4 GID (ibv_devinfo's index 1) */

void qpx_pt_bdest_encode(const struct qpx_dest *d, uint8_t out[QPX_PT_BDEST_LEN]) {
    memset(out, 0, QPX_PT_BDEST_LEN);
    qpx_put_be(out + 0, d->lid, 4);
    qpx_put_be(out + 4, d->out_reads, 4);
    qpx_put_be(out + 8, d->qpn, 4);
    qpx_put_be(out + 12, d->psn, 4);
    qpx_put_be(out + 16, d->rkey, 4);
    qpx_put_be(out + 24, d->vaddr, 8);
    memcpy(out + 32, d->gid, 16);
    qpx_put_be(out + 48, d->srqn, 4);
    qpx_put_be(out + 52, d->qpn ? BDEST_GID_INDEX : 0u, 4);
}

int qpx_pt_bdest_decode(const uint8_t *buf, size_t len, struct qpx_dest *d, bool *empty,
                        const char **err) {
    if (len != QPX_PT_BDEST_LEN) {
        *err = "perftest -R destination: wrong length (expected 56 bytes)";
        return -1;
    }
    struct qpx_dest r;
    memset(&r, 0, sizeof r);
    uint64_t lid = qpx_get_be(buf, 4), out = qpx_get_be(buf + 4, 4);
    r.qpn = (uint32_t)qpx_get_be(buf + 8, 4);
    r.psn = (uint32_t)qpx_get_be(buf + 12, 4);
    r.rkey = (uint32_t)qpx_get_be(buf + 16, 4);
    r.vaddr = qpx_get_be(buf + 24, 8); /* bytes 20..23: the struct's padding, any value */
    memcpy(r.gid, buf + 32, 16);
    r.srqn = (uint32_t)qpx_get_be(buf + 48, 4);
    *empty = r.qpn == 0;
    if (lid > 0xffffu || out > 0xffffu) {
        *err = "perftest -R destination: LID or OUT_READS above 16 bits";
        return -1;
    }
    if (r.qpn > 0xffffffu || r.psn > 0xffffffu) {
        *err = "perftest -R destination: QPN or PSN above 24 bits";
        return -1;
    }
    if (!*empty && r.qpn < 2) {
        *err = "perftest -R destination: QPN 1 is not an RC QP";
        return -1;
    }
    r.lid = (uint16_t)lid;
    r.out_reads = (uint16_t)out;
    *d = r;
    return 0;
}

int qpx_pt_dest_decode(const uint8_t *buf, size_t len, struct qpx_dest *d, const char **err) {
    if (len != QPX_PT_DEST_LEN) {
        *err = "perftest destination: wrong length (expected 108 bytes)";
        return -1;
    }
    if (buf[QPX_PT_DEST_LEN - 1] != 0) {
        *err = "perftest destination: not NUL-terminated at byte 108";
        return -1;
    }
    struct cur c = {buf, buf + QPX_PT_DEST_LEN - 1, NULL};
    struct qpx_dest r;
    memset(&r, 0, sizeof r);
    r.lid = (uint16_t)get_hex(&c, 4, "perftest destination: LID: expected 4 hex digits");
    get_sep(&c, ':', "perftest destination: expected ':' after the LID");
    r.out_reads = (uint16_t)get_hex(&c, 4, "perftest destination: OUT_READS: expected 4 hex digits");
    get_sep(&c, ':', "perftest destination: expected ':' after OUT_READS");
    r.qpn = (uint32_t)get_hex(&c, 6, "perftest destination: QPN: expected 6 hex digits");
    get_sep(&c, ':', "perftest destination: expected ':' after the QPN");
    r.psn = (uint32_t)get_hex(&c, 6, "perftest destination: PSN: expected 6 hex digits");
    get_sep(&c, ':', "perftest destination: expected ':' after the PSN");
    r.rkey = (uint32_t)get_hex(&c, 8, "perftest destination: RKEY: expected 8 hex digits");
    get_sep(&c, ':', "perftest destination: expected ':' after the RKEY");
    r.vaddr = get_hex(&c, 16, "perftest destination: VADDR: expected 16 hex digits");
    get_sep(&c, ':', "perftest destination: expected ':' after the VADDR");
    for (int i = 0; i < 16; i++) {
        r.gid[i] = (uint8_t)get_hex(&c, 2, "perftest destination: GID: expected 16 x 2 hex digits");
        get_sep(&c, ':', "perftest destination: GID: expected ':' after each byte");
    }
    r.srqn = (uint32_t)get_hex(&c, 8, "perftest destination: SRQN: expected 8 hex digits");
    get_sep(&c, ':', "perftest destination: expected ':' after the SRQN");
    if (!c.err && c.p != c.end) c.err = "perftest destination: characters after the SRQN";
    if (!c.err && r.qpn < 2) c.err = "perftest destination: QPN 0 and 1 are not RC QPs";
    if (c.err) {
        *err = c.err;
        return -1;
    }
    *d = r;
    return 0;
}

void qpx_pt_version_encode(uint8_t out[QPX_PT_VERSION_LEN]) {
    memset(out, 0, QPX_PT_VERSION_LEN);
    memcpy(out, QPX_PT_VERSION, sizeof QPX_PT_VERSION - 1);
}

int qpx_pt_version_decode(const uint8_t *buf, size_t len, const char **err) {
    if (len != QPX_PT_VERSION_LEN) {
        *err = "perftest version: wrong length (expected 16 bytes)";
        return -1;
    }
    size_t n = 0;
    while (n < len && buf[n] != 0)
        n++;
    if (n == len) {
        *err = "perftest version: no NUL in the 16 bytes";
        return -1;
    }
    for (size_t i = n; i < len; i++) {
        if (buf[i] != 0) {
            *err = "perftest version: bytes after the NUL are not all NUL";
            return -1;
        }
    }
    if (n != sizeof QPX_PT_VERSION - 1 || memcmp(buf, QPX_PT_VERSION, n) != 0) {
        *err = "perftest version: unsupported (this firmware speaks 6.06, perftest 4.5-0.17)";
        return -1;
    }
    return 0;
}

void qpx_pt_u32_encode(uint32_t v, uint8_t out[QPX_PT_U32_LEN]) {
    out[0] = (uint8_t)(v >> 24);
    out[1] = (uint8_t)(v >> 16);
    out[2] = (uint8_t)(v >> 8);
    out[3] = (uint8_t)v;
}

int qpx_pt_u32_decode(const uint8_t *buf, size_t len, uint32_t lo, uint32_t hi, uint32_t *v,
                      const char **err) {
    if (len != QPX_PT_U32_LEN) {
        *err = "perftest system data: wrong length (expected 4 bytes)";
        return -1;
    }
    uint32_t x = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 | (uint32_t)buf[2] << 8 | buf[3];
    if (x < lo || x > hi || (x & (x - 1u)) != 0) {
        *err = "perftest system data: value is not a power of two in the accepted range";
        return -1;
    }
    *v = x;
    return 0;
}

void qpx_pt_mtu_encode(uint32_t mtu_enum, uint8_t out[QPX_PT_MTU_LEN]) {
    out[0] = (uint8_t)('0' + mtu_enum % 10u);
    out[1] = 0;
}

int qpx_pt_mtu_decode(const uint8_t *buf, size_t len, uint32_t *mtu_enum, const char **err) {
    if (len != QPX_PT_MTU_LEN) {
        *err = "perftest MTU: wrong length (expected 2 bytes)";
        return -1;
    }
    if (buf[1] != 0) {
        *err = "perftest MTU: not NUL-terminated at byte 2";
        return -1;
    }
    if (buf[0] < '1' || buf[0] > '5') {
        *err = "perftest MTU: expected an IB MTU enum digit 1..5";
        return -1;
    }
    *mtu_enum = (uint32_t)(buf[0] - '0');
    return 0;
}

void qpx_pt_report_u64_encode(uint64_t v, uint8_t out[QPX_PT_REPORT_LEN]) {
    for (int i = 7; i >= 0; i--) {
        out[i] = (uint8_t)v;
        v >>= 8;
    }
}

void qpx_pt_report_double_encode(double v, uint8_t out[QPX_PT_REPORT_LEN]) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    qpx_pt_report_u64_encode(u, out);
}

uint64_t qpx_pt_report_u64_decode(const uint8_t buf[QPX_PT_REPORT_LEN]) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | buf[i];
    return v;
}

double qpx_pt_report_double_decode(const uint8_t buf[QPX_PT_REPORT_LEN]) {
    uint64_t u = qpx_pt_report_u64_decode(buf);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

void qpx_done_encode(uint8_t out[QPX_DONE_LEN]) {
    memcpy(out, "done", QPX_DONE_LEN); /* with its NUL */
}

int qpx_done_decode(const uint8_t *buf, size_t len, const char **err) {
    if (len != QPX_DONE_LEN || memcmp(buf, "done", QPX_DONE_LEN) != 0) {
        *err = "expected \"done\\0\"";
        return -1;
    }
    return 0;
}

/* ---- GIDs, MTU, UDP source port */

void qpx_gid_from_ipv4(uint32_t ip, uint8_t gid[16]) {
    memset(gid, 0, 10);
    gid[10] = 0xff;
    gid[11] = 0xff;
    gid[12] = (uint8_t)(ip >> 24);
    gid[13] = (uint8_t)(ip >> 16);
    gid[14] = (uint8_t)(ip >> 8);
    gid[15] = (uint8_t)ip;
}

int qpx_gid_to_ipv4(const uint8_t gid[16], uint32_t *ip, const char **err) {
    static const uint8_t zero[16];
    if (memcmp(gid, zero, 16) == 0) {
        *err = "the peer sent no GID (all zero): run the tool with a RoCE v2 IPv4 GID "
               "(ibv_rc_pingpong -g 1, perftest -x 1)";
        return -1;
    }
    if (memcmp(gid, zero, 10) != 0 || gid[10] != 0xff || gid[11] != 0xff) {
        *err = "the peer's GID is not IPv4-mapped (::ffff:a.b.c.d): RoCE v2 over IPv4 needs "
               "the IPv4 GID (ibv_rc_pingpong -g 1, perftest -x 1)";
        return -1;
    }
    *ip = (uint32_t)gid[12] << 24 | (uint32_t)gid[13] << 16 | (uint32_t)gid[14] << 8 | gid[15];
    return 0;
}

uint32_t qpx_mtu_bytes(uint32_t mtu_enum) {
    return mtu_enum >= 1 && mtu_enum <= 5 ? 128u << mtu_enum : 0;
}

uint16_t qpx_udp_sport(uint32_t lqpn, uint32_t rqpn) {
    uint64_t v = (uint64_t)lqpn * rqpn;
    v ^= v >> 20;
    v ^= v >> 40;
    uint32_t fl = (uint32_t)(v & 0xfffffu);
    return (uint16_t)(0xc000u | ((fl & 0x3fffu) ^ (fl >> 14)));
}
