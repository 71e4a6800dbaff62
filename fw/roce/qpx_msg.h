/*
 * The out-of-band QP exchange messages of ibv_rc_pingpong (rdma-core 44) and
 * perftest 4.5-0.17, byte for byte as the shared reference notes (tests/data/README.md) and
 * the *.decode.txt captures show them (TCP port 18515).
 *
 * Pure C without hardware: the same file compiles for the firmware and on
 * the host (tests/qpx/test_qpx_msg.c). Every decoder is strict: the exact
 * length, every separator, every hex digit, the terminating NUL; on failure
 * it returns -1 and sets *err to a one-line reason.
 */
#ifndef FW_ROCE_QPX_MSG_H
#define FW_ROCE_QPX_MSG_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define QPX_TCP_PORT 18515

#define QPX_PP_DEST_LEN 52  /* "%04x:%06x:%06x:%s" + NUL, GID as 32 hex digits */
#define QPX_PT_VERSION_LEN 16 /* "6.06" + 12 NULs */
#define QPX_PT_U32_LEN 4      /* cycle buffer, cache line: big-endian */
#define QPX_PT_MTU_LEN 2      /* "3\0": IB MTU enum as one digit */
#define QPX_PT_DEST_LEN 108   /* LID:OUT_READS:QPN:PSN:RKEY:VADDR:GID(16 x %02x):SRQN: + NUL */
#define QPX_PT_BDEST_LEN 56   /* perftest -R: struct pingpong_dest, big-endian, in a SEND */
#define QPX_PT_REPORT_LEN 8   /* one item of the bw end-of-test report */
#define QPX_PT_REPORT_ITEMS 5 /* size, iterations, BW peak, BW average, message rate */
#define QPX_DONE_LEN 5        /* "done\0" */

#define QPX_PT_VERSION "6.06" /* what perftest 4.5-0.17 announces */
#define QPX_PT_CYCLE_BUFFER 4096u
#define QPX_PT_CACHE_LINE 64u

/* One side's QP as the exchange describes it. */
struct qpx_dest {
    uint16_t lid;       /* 0 on RoCE */
    uint16_t out_reads; /* perftest only: READ/atomic depth offered */
    uint32_t qpn;       /* 24 bits */
    uint32_t psn;       /* 24 bits */
    uint32_t rkey;      /* perftest only */
    uint64_t vaddr;     /* perftest only */
    uint32_t srqn;      /* perftest only, 0 without SRQ */
    uint8_t gid[16];
};

/* n (1..8) bytes big-endian: v's low n bytes into p, and back. */
void qpx_put_be(uint8_t *p, uint64_t v, unsigned n);
uint64_t qpx_get_be(const uint8_t *p, unsigned n);

/* ibv_rc_pingpong: out gets exactly QPX_PP_DEST_LEN bytes. */
void qpx_pp_dest_encode(const struct qpx_dest *d, uint8_t out[QPX_PP_DEST_LEN]);
int qpx_pp_dest_decode(const uint8_t *buf, size_t len, struct qpx_dest *d, const char **err);

/* perftest destination (the 108-byte string, also the barrier message). */
void qpx_pt_dest_encode(const struct qpx_dest *d, uint8_t out[QPX_PT_DEST_LEN]);
/* perftest -R exchanges its struct pingpong_dest itself over the RDMA CM connection's
   QP: lid, out_reads, qpn, psn, rkey (big-endian 32-bit), 4 bytes of padding, vaddr
   (big-endian 64-bit), the GID, srqn, gid_index (big-endian 32-bit). Its barriers around
   the RDMA CM connections carry an all-zero one (qpn 0): *empty says so, and decode
   then takes it without the QPN check. */
void qpx_pt_bdest_encode(const struct qpx_dest *d, uint8_t out[QPX_PT_BDEST_LEN]);
int qpx_pt_bdest_decode(const uint8_t *buf, size_t len, struct qpx_dest *d, bool *empty,
                        const char **err);
int qpx_pt_dest_decode(const uint8_t *buf, size_t len, struct qpx_dest *d, const char **err);

/* perftest version block: ours is "6.06"; any other version is refused. */
void qpx_pt_version_encode(uint8_t out[QPX_PT_VERSION_LEN]);
int qpx_pt_version_decode(const uint8_t *buf, size_t len, const char **err);

/* perftest cycle buffer / cache line size (4-byte big-endian, a power of two in [lo, hi]). */
void qpx_pt_u32_encode(uint32_t v, uint8_t out[QPX_PT_U32_LEN]);
int qpx_pt_u32_decode(const uint8_t *buf, size_t len, uint32_t lo, uint32_t hi, uint32_t *v,
                      const char **err);

/* perftest MTU: "N\0", N the IB enum 1..5 (256..4096 bytes). */
void qpx_pt_mtu_encode(uint32_t mtu_enum, uint8_t out[QPX_PT_MTU_LEN]);
int qpx_pt_mtu_decode(const uint8_t *buf, size_t len, uint32_t *mtu_enum, const char **err);

/* One 8-byte big-endian report item: an unsigned 64-bit number or an IEEE double. */
void qpx_pt_report_u64_encode(uint64_t v, uint8_t out[QPX_PT_REPORT_LEN]);
void qpx_pt_report_double_encode(double v, uint8_t out[QPX_PT_REPORT_LEN]);
uint64_t qpx_pt_report_u64_decode(const uint8_t buf[QPX_PT_REPORT_LEN]);
double qpx_pt_report_double_decode(const uint8_t buf[QPX_PT_REPORT_LEN]);

/* "done\0" */
void qpx_done_encode(uint8_t out[QPX_DONE_LEN]);
int qpx_done_decode(const uint8_t *buf, size_t len, const char **err);

/* GIDs: ip is the IPv4 address as a number (10.0.0.1 = 0x0a000001). */
void qpx_gid_from_ipv4(uint32_t ip, uint8_t gid[16]);
/* The IPv4 address of an IPv4-mapped GID (::ffff:a.b.c.d); -1 and *err otherwise. */
int qpx_gid_to_ipv4(const uint8_t gid[16], uint32_t *ip, const char **err);

/* IB MTU enum (1..5) -> bytes, 0 for anything else. */
uint32_t qpx_mtu_bytes(uint32_t mtu_enum);

/*
 * rxe's UDP source port for a QP (drivers/infiniband/sw/rxe, rxe_qp.c):
 * v = lqpn * rqpn (64-bit), v ^= v >> 20, v ^= v >> 40, fl = v & 0xFFFFF,
 * sport = 0xC000 | ((fl & 0x3FFF) ^ (fl >> 14)). Symmetric in the two QPNs.
 */
uint16_t qpx_udp_sport(uint32_t lqpn, uint32_t rqpn);

#endif
