/* CM MADs and their RoCEv2 frames (see cm_mad.h). No hardware, no libc I/O. */
#include "cm_mad.h"

#include <string.h>

/* ---- bytes */

static uint32_t be16(const uint8_t *p) {
    return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be24(const uint8_t *p) {
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | be24(p + 1);
}

static uint64_t be64(const uint8_t *p) {
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static void put16(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put24(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 16);
    put16(p + 1, v);
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    put24(p + 1, v);
}

static void put64(uint8_t *p, uint64_t v) {
    put32(p, (uint32_t)(v >> 32));
    put32(p + 4, (uint32_t)v);
}

/* ---- names */

uint32_t cm_pdata_room(uint16_t attr) {
    switch (attr) {
    case CM_ATTR_REQ: return CM_REQ_PDATA;
    case CM_ATTR_MRA: return CM_MRA_PDATA;
    case CM_ATTR_REJ: return CM_REJ_PDATA;
    case CM_ATTR_REP: return CM_REP_PDATA;
    case CM_ATTR_RTU: return CM_RTU_PDATA;
    case CM_ATTR_DREQ: return CM_DREQ_PDATA;
    case CM_ATTR_DREP: return CM_DREP_PDATA;
    default: return 0;
    }
}

/* where each message's private data starts in the MAD */
static uint32_t pdata_off(uint16_t attr) {
    switch (attr) {
    case CM_ATTR_REQ: return CM_MAD_HDR_BYTES + 140u;
    case CM_ATTR_MRA: return CM_MAD_HDR_BYTES + 10u;
    case CM_ATTR_REJ: return CM_MAD_HDR_BYTES + 84u;
    case CM_ATTR_REP: return CM_MAD_HDR_BYTES + 36u;
    case CM_ATTR_DREQ: return CM_MAD_HDR_BYTES + 12u;
    default: return CM_MAD_HDR_BYTES + 8u; /* RTU, DREP */
    }
}

const char *cm_attr_name(uint16_t attr) {
    static const char *const n[] = {"REQ",  "MRA",  "REJ",      "REP",     "RTU",
                                    "DREQ", "DREP", "SIDR_REQ", "SIDR_REP"};
    return attr >= CM_ATTR_REQ && attr <= CM_ATTR_SIDR_REP ? n[attr - CM_ATTR_REQ] : "?";
}

const char *cm_rej_reason_name(uint16_t reason) {
    switch (reason) {
    case 1: return "no QP";
    case 2: return "no EEC";
    case 3: return "no resources";
    case 4: return "no resources (no QP)";
    case 5: return "timeout";
    case 6: return "unsupported request";
    case 7: return "invalid communication ID";
    case 8: return "invalid service ID (nobody listens)";
    case 9: return "invalid transport service type";
    case 10: return "stale connection";
    case 11: return "RDC does not exist";
    case 12: return "invalid primary GID";
    case 13: return "invalid primary LID";
    case 14: return "invalid primary SL";
    case 15: return "invalid primary traffic class";
    case 16: return "invalid primary hop limit";
    case 17: return "invalid primary packet rate";
    case 24: return "port redirect";
    case 26: return "invalid MTU";
    case 27: return "insufficient responder resources";
    case 28: return "rejected by the consumer";
    case 29: return "invalid RNR retry count";
    case 31: return "duplicate local communication ID";
    case 32: return "invalid class version";
    case 33: return "invalid flow label";
    case 34: return "invalid alternate flow label";
    default: return "?";
    }
}

/* ---- the MAD */

int cm_mad_decode(const uint8_t *mad, size_t len, struct cm_msg *m, const char **err) {
    memset(m, 0, sizeof *m);
    if (len != CM_MAD_BYTES) {
        *err = "a CM MAD is 256 bytes";
        return -1;
    }
    if (mad[0] != 1) {
        *err = "MAD base version is not 1";
        return -1;
    }
    if (mad[1] != CM_MGMT_CLASS) {
        *err = "not the CM management class (0x07)";
        return -1;
    }
    if (mad[2] != CM_CLASS_VERSION) {
        *err = "CM class version is not 2";
        return -1;
    }
    m->method = mad[3];
    m->status = (uint16_t)be16(mad + 4);
    m->tid = be64(mad + 8);
    m->attr = (uint16_t)be16(mad + 16);
    m->attr_mod = be32(mad + 20);
    if (m->method != CM_METHOD_SEND) {
        *err = "method is not Send (0x03)";
        return -1;
    }
    const uint8_t *c = mad + CM_MAD_HDR_BYTES;
    uint32_t room = cm_pdata_room(m->attr);
    if (m->attr == CM_ATTR_SIDR_REQ) {
        m->local_comm_id = be32(c); /* the request ID */
        m->pkey = (uint16_t)be16(c + 4);
        m->service_id = be64(c + 8);
        return 0;
    }
    if (m->attr == CM_ATTR_SIDR_REP) {
        m->local_comm_id = be32(c); /* the request ID */
        m->reason = c[4];           /* the status */
        m->qpn = be24(c + 8);
        m->service_id = be64(c + 12);
        m->qkey = be32(c + 20);
        return 0;
    }
    if (room == 0) {
        *err = "unknown CM attribute";
        return -1;
    }
    m->local_comm_id = be32(c);
    if (m->attr != CM_ATTR_REQ) m->remote_comm_id = be32(c + 4);
    switch (m->attr) {
    case CM_ATTR_REQ:
        m->service_id = be64(c + 8);
        m->ca_guid = be64(c + 16);
        m->qkey = be32(c + 28);
        m->qpn = be24(c + 32);
        m->resp_resources = c[35];
        m->init_depth = c[39];
        m->remote_cm_timeout = c[43] >> 3;
        m->transport = c[43] >> 1 & 3u;
        m->e2e_fc = c[43] & 1u;
        m->psn = be24(c + 44);
        m->local_cm_timeout = c[47] >> 3;
        m->retry_count = c[47] & 7u;
        m->pkey = (uint16_t)be16(c + 48);
        m->mtu = c[50] >> 4;
        m->rdc_exists = c[50] >> 3 & 1u;
        m->rnr_retry = c[50] & 7u;
        m->max_cm_retries = c[51] >> 4;
        m->srq = c[51] >> 3 & 1u;
        m->ext_transport = c[51] & 7u;
        m->local_lid = (uint16_t)be16(c + 52);
        m->remote_lid = (uint16_t)be16(c + 54);
        memcpy(m->local_gid, c + 56, 16);
        memcpy(m->remote_gid, c + 72, 16);
        m->flow_label = be32(c + 88) >> 12;
        m->packet_rate = c[91] & 0x3fu;
        m->traffic_class = c[92];
        m->hop_limit = c[93];
        m->sl = c[94] >> 4;
        m->subnet_local = c[94] >> 3 & 1u;
        m->local_ack_timeout = c[95] >> 3;
        break;
    case CM_ATTR_MRA:
        m->msg = c[8] >> 6;
        m->service_timeout = c[9] >> 3;
        break;
    case CM_ATTR_REJ:
        m->msg = c[8] >> 6;
        m->ari_len = c[9] >> 1;
        m->reason = (uint16_t)be16(c + 10);
        if (m->ari_len > CM_REJ_ARI_MAX) {
            *err = "REJ: additional rejection information longer than 72 bytes";
            return -1;
        }
        memcpy(m->ari, c + 12, m->ari_len);
        break;
    case CM_ATTR_REP:
        m->qkey = be32(c + 8);
        m->qpn = be24(c + 12);
        m->psn = be24(c + 20);
        m->resp_resources = c[24];
        m->init_depth = c[25];
        m->target_ack_delay = c[26] >> 3;
        m->failover = c[26] >> 1 & 3u;
        m->e2e_fc = c[26] & 1u;
        m->rnr_retry = c[27] >> 5;
        m->srq = c[27] >> 4 & 1u;
        m->ca_guid = be64(c + 28);
        break;
    case CM_ATTR_DREQ: m->qpn = be24(c + 8); break;
    default: break; /* RTU, DREP: the IDs only */
    }
    m->pdata_len = (uint16_t)room;
    memcpy(m->pdata, mad + pdata_off(m->attr), room);
    return 0;
}

void cm_mad_encode(const struct cm_msg *m, uint8_t out[CM_MAD_BYTES]) {
    memset(out, 0, CM_MAD_BYTES);
    out[0] = 1;
    out[1] = CM_MGMT_CLASS;
    out[2] = CM_CLASS_VERSION;
    out[3] = m->method ? m->method : CM_METHOD_SEND;
    put16(out + 4, m->status);
    put64(out + 8, m->tid);
    put16(out + 16, m->attr);
    put32(out + 20, m->attr_mod);
    uint8_t *c = out + CM_MAD_HDR_BYTES;
    if (m->attr == CM_ATTR_SIDR_REQ) {
        put32(c, m->local_comm_id);
        put16(c + 4, m->pkey);
        put64(c + 8, m->service_id);
        return;
    }
    if (m->attr == CM_ATTR_SIDR_REP) {
        put32(c, m->local_comm_id);
        c[4] = (uint8_t)m->reason;
        put24(c + 8, m->qpn);
        put64(c + 12, m->service_id);
        put32(c + 20, m->qkey);
        return;
    }
    put32(c, m->local_comm_id);
    if (m->attr != CM_ATTR_REQ) put32(c + 4, m->remote_comm_id);
    switch (m->attr) {
    case CM_ATTR_REQ:
        put64(c + 8, m->service_id);
        put64(c + 16, m->ca_guid);
        put32(c + 28, m->qkey);
        put24(c + 32, m->qpn);
        c[35] = m->resp_resources;
        c[39] = m->init_depth;
        c[43] = (uint8_t)((m->remote_cm_timeout & 0x1fu) << 3 | (m->transport & 3u) << 1 |
                          (m->e2e_fc & 1u));
        put24(c + 44, m->psn);
        c[47] = (uint8_t)((m->local_cm_timeout & 0x1fu) << 3 | (m->retry_count & 7u));
        put16(c + 48, m->pkey);
        c[50] = (uint8_t)((m->mtu & 0xfu) << 4 | (m->rdc_exists & 1u) << 3 | (m->rnr_retry & 7u));
        c[51] = (uint8_t)((m->max_cm_retries & 0xfu) << 4 | (m->srq & 1u) << 3 |
                          (m->ext_transport & 7u));
        put16(c + 52, m->local_lid);
        put16(c + 54, m->remote_lid);
        memcpy(c + 56, m->local_gid, 16);
        memcpy(c + 72, m->remote_gid, 16);
        put32(c + 88, (m->flow_label & 0xfffffu) << 12 | (m->packet_rate & 0x3fu));
        c[92] = m->traffic_class;
        c[93] = m->hop_limit;
        c[94] = (uint8_t)((m->sl & 0xfu) << 4 | (m->subnet_local & 1u) << 3);
        c[95] = (uint8_t)((m->local_ack_timeout & 0x1fu) << 3);
        break;
    case CM_ATTR_MRA:
        c[8] = (uint8_t)((m->msg & 3u) << 6);
        c[9] = (uint8_t)((m->service_timeout & 0x1fu) << 3);
        break;
    case CM_ATTR_REJ: {
        uint8_t n = m->ari_len > CM_REJ_ARI_MAX ? (uint8_t)CM_REJ_ARI_MAX : m->ari_len;
        c[8] = (uint8_t)((m->msg & 3u) << 6);
        c[9] = (uint8_t)(n << 1);
        put16(c + 10, m->reason);
        memcpy(c + 12, m->ari, n);
        break;
    }
    case CM_ATTR_REP:
        put32(c + 8, m->qkey);
        put24(c + 12, m->qpn);
        put24(c + 20, m->psn);
        c[24] = m->resp_resources;
        c[25] = m->init_depth;
        c[26] = (uint8_t)((m->target_ack_delay & 0x1fu) << 3 | (m->failover & 3u) << 1 |
                          (m->e2e_fc & 1u));
        c[27] = (uint8_t)((m->rnr_retry & 7u) << 5 | (m->srq & 1u) << 4);
        put64(c + 28, m->ca_guid);
        break;
    case CM_ATTR_DREQ: put24(c + 8, m->qpn); break;
    default: break;
    }
    uint32_t room = cm_pdata_room(m->attr), n = m->pdata_len < room ? m->pdata_len : room;
    if (room) memcpy(out + pdata_off(m->attr), m->pdata, n);
}

/* ---- librdmacm's header and service IDs */

int cm_cma_decode(const uint8_t *pdata, size_t len, struct cm_cma_hdr *h, const char **err) {
    memset(h, 0, sizeof *h);
    if (len < CM_CMA_HDR_BYTES) {
        *err = "private data shorter than librdmacm's header";
        return -1;
    }
    if (pdata[0] != 0) {
        *err = "unknown librdmacm header version (not 0)";
        return -1;
    }
    if (pdata[1] >> 4 == 6) {
        *err = "librdmacm header with IPv6 addresses (this NIC speaks IPv4)";
        return -1;
    }
    if (pdata[1] >> 4 != 4) {
        *err = "librdmacm header: IP version is neither 4 nor 6";
        return -1;
    }
    h->src_port = (uint16_t)be16(pdata + 2);
    h->src_ip = be32(pdata + 4 + 12);
    h->dst_ip = be32(pdata + 20 + 12);
    return 0;
}

void cm_cma_encode(const struct cm_cma_hdr *h, uint8_t out[CM_CMA_HDR_BYTES]) {
    memset(out, 0, CM_CMA_HDR_BYTES);
    out[1] = 4u << 4;
    put16(out + 2, h->src_port);
    put32(out + 4 + 12, h->src_ip);
    put32(out + 20 + 12, h->dst_ip);
}

uint64_t cm_service_id(uint16_t port) {
    return (uint64_t)CM_RDMA_PS_TCP << 16 | port;
}

int cm_service_port(uint64_t sid, uint16_t *port) {
    if (sid >> 16 != CM_RDMA_PS_TCP) return -1;
    *port = (uint16_t)sid;
    return 0;
}

/* ---- ICRC and the frame */

/* CRC-32 (IEEE 802.3, reflected) without the final inversion, a nibble at a time. */
static uint32_t crc32_step(uint32_t crc, const uint8_t *p, size_t n) {
    static const uint32_t t[16] = {
        0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
        0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
        0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu};
    while (n--) {
        crc ^= *p++;
        crc = crc >> 4 ^ t[crc & 0xfu];
        crc = crc >> 4 ^ t[crc & 0xfu];
    }
    return crc;
}

uint32_t cm_icrc(const uint8_t ip[CM_IP_BYTES], const uint8_t udp[CM_UDP_BYTES], const uint8_t *ib,
                 size_t n) {
    static const uint8_t ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    uint8_t h[CM_IP_BYTES + CM_UDP_BYTES + CM_BTH_BYTES];
    memcpy(h, ip, CM_IP_BYTES);
    h[1] = 0xff;               /* TOS */
    h[8] = 0xff;               /* TTL */
    h[10] = h[11] = 0xff;      /* header checksum */
    memcpy(h + CM_IP_BYTES, udp, CM_UDP_BYTES);
    h[CM_IP_BYTES + 6] = h[CM_IP_BYTES + 7] = 0xff; /* UDP checksum */
    size_t nb = n < CM_BTH_BYTES ? n : CM_BTH_BYTES;
    memcpy(h + CM_IP_BYTES + CM_UDP_BYTES, ib, nb);
    if (nb > 4) h[CM_IP_BYTES + CM_UDP_BYTES + 4] = 0xff; /* BTH resv8a */
    uint32_t crc = crc32_step(0xffffffffu, ones, sizeof ones);
    crc = crc32_step(crc, h, CM_IP_BYTES + CM_UDP_BYTES + nb);
    crc = crc32_step(crc, ib + nb, n - nb);
    return ~crc;
}

static uint16_t ip_checksum(const uint8_t *h, size_t n) {
    uint32_t s = 0;
    for (size_t i = 0; i + 1 < n; i += 2)
        s += be16(h + i);
    while (s >> 16)
        s = (s & 0xffffu) + (s >> 16);
    return (uint16_t)~s;
}

int cm_frame_decode(const uint8_t *frame, size_t len, struct cm_addr *a, const uint8_t **mad,
                    const char **err) {
    memset(a, 0, sizeof *a);
    if (len < CM_ETH_BYTES + CM_IP_BYTES + CM_UDP_BYTES) {
        *err = "frame too short for Ethernet/IPv4/UDP";
        return -1;
    }
    if (be16(frame + 12) != 0x0800u) {
        *err = "not an IPv4 frame";
        return -1;
    }
    const uint8_t *ip = frame + CM_ETH_BYTES;
    if (ip[0] != 0x45) {
        *err = ip[0] >> 4 == 4 ? "IPv4 header with options" : "not IPv4";
        return -1;
    }
    uint32_t total = be16(ip + 2);
    if (total < CM_IP_BYTES + CM_UDP_BYTES || CM_ETH_BYTES + total > len) {
        *err = "IPv4 total length does not fit the frame";
        return -1;
    }
    if (ip[9] != 17) {
        *err = "not UDP";
        return -1;
    }
    if ((be16(ip + 6) & 0x3fffu) != 0) {
        *err = "an IPv4 fragment";
        return -1;
    }
    if (ip_checksum(ip, CM_IP_BYTES) != 0) {
        *err = "bad IPv4 header checksum";
        return -1;
    }
    const uint8_t *udp = ip + CM_IP_BYTES;
    if (be16(udp + 2) != CM_ROCE_PORT) {
        *err = "not UDP port 4791";
        return -1;
    }
    if (be16(udp + 4) != total - CM_IP_BYTES) {
        *err = "UDP length disagrees with the IPv4 length";
        return -1;
    }
    const uint8_t *ib = udp + CM_UDP_BYTES;
    size_t n = total - CM_IP_BYTES - CM_UDP_BYTES;
    memcpy(a->dst_mac, frame, 6);
    memcpy(a->src_mac, frame + 6, 6);
    a->tos = ip[1];
    a->ip_id = (uint16_t)be16(ip + 4);
    a->ttl = ip[8];
    a->src_ip = be32(ip + 12);
    a->dst_ip = be32(ip + 16);
    a->sport = (uint16_t)be16(udp);
    a->dport = (uint16_t)be16(udp + 2);
    if (n < CM_BTH_BYTES) {
        *err = "RoCE packet shorter than a BTH";
        return -1;
    }
    a->pkey = (uint16_t)be16(ib + 2);
    a->dest_qp = be24(ib + 5);
    a->psn = be24(ib + 9);
    if (a->dest_qp != CM_GSI_QPN) {
        *err = "not for QP 1";
        return -1;
    }
    if (ib[0] != CM_OPCODE_UD_SEND_ONLY) {
        *err = "not a UD SEND ONLY packet";
        return -1;
    }
    if ((ib[1] & 0x3fu) != 0) {
        *err = "BTH pad count or transport version is not 0";
        return -1;
    }
    if (n != CM_IB_BYTES) {
        *err = "QP 1 packet whose payload is not one 256-byte MAD";
        return -1;
    }
    if ((a->pkey & 0x7fffu) != 0x7fffu) {
        *err = "P_Key is not the default partition";
        return -1;
    }
    a->qkey = be32(ib + CM_BTH_BYTES);
    a->src_qp = be24(ib + CM_BTH_BYTES + 5);
    if (a->qkey != CM_QP1_QKEY) {
        *err = "DETH Q_Key is not 0x80010000";
        return -1;
    }
    uint32_t want = cm_icrc(ip, udp, ib, n - CM_ICRC_BYTES);
    const uint8_t *ic = ib + n - CM_ICRC_BYTES;
    uint32_t got = (uint32_t)ic[0] | (uint32_t)ic[1] << 8 | (uint32_t)ic[2] << 16 |
                   (uint32_t)ic[3] << 24;
    if (got != want) {
        *err = "bad ICRC";
        return -1;
    }
    *mad = ib + CM_BTH_BYTES + CM_DETH_BYTES;
    return 0;
}

size_t cm_frame_encode(const struct cm_addr *a, const uint8_t mad[CM_MAD_BYTES],
                       uint8_t out[CM_FRAME_BYTES]) {
    memset(out, 0, CM_FRAME_BYTES);
    memcpy(out, a->dst_mac, 6);
    memcpy(out + 6, a->src_mac, 6);
    put16(out + 12, 0x0800u);
    uint8_t *ip = out + CM_ETH_BYTES, *udp = ip + CM_IP_BYTES, *ib = udp + CM_UDP_BYTES;
    ip[0] = 0x45;
    ip[1] = a->tos;
    put16(ip + 2, CM_IP_BYTES + CM_UDP_BYTES + CM_IB_BYTES);
    put16(ip + 4, a->ip_id);
    put16(ip + 6, 0x4000u); /* DF */
    ip[8] = a->ttl;
    ip[9] = 17;
    put32(ip + 12, a->src_ip);
    put32(ip + 16, a->dst_ip);
    put16(ip + 10, ip_checksum(ip, CM_IP_BYTES));
    put16(udp, a->sport);
    put16(udp + 2, a->dport);
    put16(udp + 4, CM_UDP_BYTES + CM_IB_BYTES);
    ib[0] = CM_OPCODE_UD_SEND_ONLY;
    put16(ib + 2, a->pkey);
    put24(ib + 5, a->dest_qp);
    ib[8] = 0x80; /* AckReq, as rxe sets it on QP 1 (a UD packet asks for no ACK) */
    put24(ib + 9, a->psn);
    put32(ib + CM_BTH_BYTES, a->qkey);
    put24(ib + CM_BTH_BYTES + 5, a->src_qp);
    memcpy(ib + CM_BTH_BYTES + CM_DETH_BYTES, mad, CM_MAD_BYTES);
    uint32_t n = CM_IB_BYTES - CM_ICRC_BYTES, icrc = cm_icrc(ip, udp, ib, n);
    ib[n] = (uint8_t)icrc;
    ib[n + 1] = (uint8_t)(icrc >> 8);
    ib[n + 2] = (uint8_t)(icrc >> 16);
    ib[n + 3] = (uint8_t)(icrc >> 24);
    return CM_FRAME_BYTES;
}
