/*
 * RDMA CM over RoCEv2: the InfiniBand communication-management MADs (IBTA
 * vol. 1 chapter 12) that librdmacm's kernel side exchanges on QP 1, and the
 * whole frame they travel in:
 *
 *   Ethernet | IPv4 | UDP (dport 4791) | BTH (UD SEND ONLY, P_Key 0xffff,
 *   DestQP 1) | DETH (Q_Key 0x80010000, SrcQP 1) | MAD (256 bytes) | ICRC
 *
 * The MAD is the common MAD header (24 bytes: base version 1, class 0x07 CM,
 * class version 2, method Send, transaction ID, attribute ID) and the CM
 * message: REQ, MRA, REJ, REP, RTU, DREQ, DREP, and SIDR_REQ/SIDR_REP (the
 * header fields only: UD service resolution, which this NIC refuses). librdmacm puts its IP-based header (cma_hdr: version 0, IP
 * version, source port, source and destination address) at the start of the
 * REQ's private data; the service ID is RDMA_PS_TCP << 16 | port.
 *
 * The ICRC is computed here over the masked IPv4/UDP pseudo header (8 bytes of
 * ones, TOS/TTL/checksum ones, UDP checksum ones, BTH byte 4 ones), so a frame
 * must be sent with exactly the IP header it was built with: cm_frame_build
 * writes all of it.
 *
 * Pure C without hardware: the same file compiles for the firmware and on the
 * host (tests/qpx/test_cm_mad.py through ctypes). Decoders are strict and
 * return -1 with a one-line reason in *err.
 */
#ifndef FW_ROCE_CM_MAD_H
#define FW_ROCE_CM_MAD_H

#include <stddef.h>
#include <stdint.h>

#define CM_MAD_BYTES 256u
#define CM_MAD_HDR_BYTES 24u
#define CM_ETH_BYTES 14u
#define CM_IP_BYTES 20u
#define CM_UDP_BYTES 8u
#define CM_BTH_BYTES 12u
#define CM_DETH_BYTES 8u
#define CM_ICRC_BYTES 4u
/* BTH + DETH + MAD + ICRC: the UDP payload of a CM packet */
#define CM_IB_BYTES (CM_BTH_BYTES + CM_DETH_BYTES + CM_MAD_BYTES + CM_ICRC_BYTES)
/* the whole frame without FCS */
#define CM_FRAME_BYTES (CM_ETH_BYTES + CM_IP_BYTES + CM_UDP_BYTES + CM_IB_BYTES)

#define CM_ROCE_PORT 4791u
#define CM_GSI_QPN 1u
#define CM_QP1_QKEY 0x80010000u
#define CM_DEFAULT_PKEY 0xffffu
#define CM_OPCODE_UD_SEND_ONLY 0x64u

#define CM_MGMT_CLASS 0x07u
#define CM_CLASS_VERSION 2u
#define CM_METHOD_SEND 0x03u

/* the CM attribute IDs (the MAD's attribute ID) */
enum cm_attr {
    CM_ATTR_REQ = 0x0010,
    CM_ATTR_MRA = 0x0011,
    CM_ATTR_REJ = 0x0012,
    CM_ATTR_REP = 0x0013,
    CM_ATTR_RTU = 0x0014,
    CM_ATTR_DREQ = 0x0015,
    CM_ATTR_DREP = 0x0016,
    CM_ATTR_SIDR_REQ = 0x0017,
    CM_ATTR_SIDR_REP = 0x0018,
};

/* REQ's transport service type */
enum cm_transport { CM_TS_RC = 0, CM_TS_UC = 1, CM_TS_RD = 2, CM_TS_XRC = 3 };

/* REJ's message-rejected field and the reasons this firmware sends or names */
enum cm_rej_msg { CM_REJ_MSG_REQ = 0, CM_REJ_MSG_REP = 1, CM_REJ_MSG_OTHER = 2 };
enum cm_rej_reason {
    CM_REJ_NO_QP = 1,
    CM_REJ_NO_RESOURCES = 4,
    CM_REJ_TIMEOUT = 5,
    CM_REJ_UNSUPPORTED_REQ = 6,
    CM_REJ_INVALID_COMM_ID = 7,
    CM_REJ_INVALID_SERVICE_ID = 8,
    CM_REJ_INVALID_TRANSPORT = 9,
    CM_REJ_STALE_CONN = 10,
    CM_REJ_INVALID_MTU = 26,
    CM_REJ_CONSUMER = 28,
};

/* SIDR_REP's status */
enum cm_sidr_status { CM_SIDR_OK = 0, CM_SIDR_UNSUPPORTED = 1, CM_SIDR_REJECT = 2 };

/* MRA's message-MRAed field */
enum cm_mra_msg { CM_MRA_MSG_REQ = 0, CM_MRA_MSG_REP = 1, CM_MRA_MSG_LAP = 2 };

/* Private-data room of each message (bytes) */
#define CM_REQ_PDATA 92u
#define CM_MRA_PDATA 222u
#define CM_REJ_PDATA 148u
#define CM_REP_PDATA 196u
#define CM_RTU_PDATA 224u
#define CM_DREQ_PDATA 220u
#define CM_DREP_PDATA 224u
#define CM_PDATA_MAX 224u
#define CM_REJ_ARI_MAX 72u

/*
 * One CM message: the MAD header's fields and the union of the CM messages'
 * fields (each message uses its own; the rest stay 0 when decoded).
 */
struct cm_msg {
    uint16_t attr;  /* enum cm_attr */
    uint8_t method; /* CM_METHOD_SEND */
    uint16_t status;
    uint32_t attr_mod;
    uint64_t tid;
    uint32_t local_comm_id, remote_comm_id;
    /* REQ */
    uint64_t service_id;
    uint64_t ca_guid;         /* REQ, REP: the sender's CA GUID */
    uint32_t qkey;            /* REQ, REP: local Q_Key */
    uint32_t qpn;             /* REQ, REP: local QPN; DREQ: remote QPN */
    uint8_t resp_resources;   /* REQ, REP */
    uint8_t init_depth;       /* REQ, REP */
    uint8_t remote_cm_timeout, local_cm_timeout; /* REQ: 4.096 us << n */
    uint8_t transport;        /* REQ: enum cm_transport */
    uint8_t e2e_fc;           /* REQ, REP */
    uint32_t psn;             /* REQ, REP: starting PSN */
    uint8_t retry_count;      /* REQ */
    uint16_t pkey;            /* REQ */
    uint8_t mtu;              /* REQ: path MTU enum 1..5 */
    uint8_t rdc_exists;       /* REQ */
    uint8_t rnr_retry;        /* REQ, REP */
    uint8_t max_cm_retries;   /* REQ */
    uint8_t srq;              /* REQ, REP */
    uint8_t ext_transport;    /* REQ */
    uint16_t local_lid, remote_lid;       /* REQ primary path */
    uint8_t local_gid[16], remote_gid[16]; /* REQ primary path */
    uint32_t flow_label;      /* REQ primary path, 20 bits */
    uint8_t packet_rate, traffic_class, hop_limit, sl, subnet_local;
    uint8_t local_ack_timeout; /* REQ primary path */
    /* REP */
    uint8_t target_ack_delay, failover;
    /* REJ (message_rejected), MRA (message_mraed) */
    uint8_t msg;
    uint8_t ari_len;          /* REJ */
    uint16_t reason;          /* REJ: enum cm_rej_reason; SIDR_REP: the status */
    uint8_t ari[CM_REJ_ARI_MAX];
    uint8_t service_timeout;  /* MRA */
    /* private data: decoded in full (the message's room), built from pdata_len bytes */
    uint16_t pdata_len;
    uint8_t pdata[CM_PDATA_MAX];
};

/* The addressing of a CM packet: Ethernet, IPv4, UDP, BTH, DETH. */
struct cm_addr {
    uint8_t dst_mac[6], src_mac[6];
    uint32_t src_ip, dst_ip; /* 10.0.0.1 = 0x0a000001 */
    uint16_t ip_id;
    uint8_t tos, ttl;
    uint16_t sport, dport;
    uint16_t pkey;
    uint32_t dest_qp, psn;   /* BTH */
    uint32_t qkey, src_qp;   /* DETH */
};

/* The room of a message's private data (0 for an unknown attribute). */
uint32_t cm_pdata_room(uint16_t attr);

/* "REQ", "REP", ... ("?" for an unknown attribute). */
const char *cm_attr_name(uint16_t attr);

/* A REJ reason as text ("invalid service ID", ...; "reason N" style for others: "?"). */
const char *cm_rej_reason_name(uint16_t reason);

/*
 * The 256-byte MAD: the common header (base version 1, class CM, class
 * version 2) and the CM message of the known attributes. 0, or -1 and *err.
 */
int cm_mad_decode(const uint8_t *mad, size_t len, struct cm_msg *m, const char **err);
void cm_mad_encode(const struct cm_msg *m, uint8_t out[CM_MAD_BYTES]);

/*
 * librdmacm's header at the start of a REQ's private data (IPv4 only):
 * version 0, IP version 4 in bits 7:4, the source port, source and
 * destination addresses (the last 4 bytes of each 16-byte field).
 */
#define CM_CMA_HDR_BYTES 36u
#define CM_RDMA_PS_TCP 0x0106u
struct cm_cma_hdr {
    uint16_t src_port;
    uint32_t src_ip, dst_ip;
};
int cm_cma_decode(const uint8_t *pdata, size_t len, struct cm_cma_hdr *h, const char **err);
void cm_cma_encode(const struct cm_cma_hdr *h, uint8_t out[CM_CMA_HDR_BYTES]);

/* RDMA_PS_TCP's service ID of a port, and back (-1 for another port space). */
uint64_t cm_service_id(uint16_t port);
int cm_service_port(uint64_t sid, uint16_t *port);

/*
 * The RoCEv2 ICRC of a packet: ip is the 20-byte IPv4 header, udp the UDP
 * header, ib the BTH and what follows it up to (not including) the ICRC, n
 * its length. The ICRC goes after ib least significant byte first.
 */
uint32_t cm_icrc(const uint8_t ip[CM_IP_BYTES], const uint8_t udp[CM_UDP_BYTES], const uint8_t *ib,
                 size_t n);

/*
 * A whole received frame (Ethernet without FCS; Ethernet padding allowed):
 * IPv4 without options, UDP to 4791, BTH UD SEND ONLY to QP 1 with no pad,
 * DETH with the QP 1 Q_Key, a 256-byte MAD and a correct ICRC. Fills *a and
 * points *mad at the MAD inside frame. 0, or -1 and *err.
 */
int cm_frame_decode(const uint8_t *frame, size_t len, struct cm_addr *a, const uint8_t **mad,
                    const char **err);

/*
 * Build the frame of a MAD: a's MACs, IPs, IP ID, TOS and TTL, UDP ports, BTH
 * P_Key/DestQP/PSN and DETH Q_Key/SrcQP; IPv4 with DF and its checksum, UDP
 * checksum 0, the ICRC. Writes CM_FRAME_BYTES bytes and returns that.
 */
size_t cm_frame_encode(const struct cm_addr *a, const uint8_t mad[CM_MAD_BYTES],
                       uint8_t out[CM_FRAME_BYTES]);

#endif
