/*
 * Driver of the RC transport's register block (regs/roce.toml,
 * docs/transport.md): staging registers plus commit for QP contexts and
 * MRs, RQ/SQ posting, CQ popping, counters. No policy here: fw/roce/roce.c
 * keeps the firmware's tables and decides what to write.
 *
 * roce_hw_probe must succeed before any other call: without the block
 * (an SoC built without the transport) every access would fault.
 */
#ifndef FW_ROCE_ROCE_HW_H
#define FW_ROCE_ROCE_HW_H

#include <stdbool.h>
#include <stdint.h>

enum roce_qp_state {
    ROCE_QPS_RESET = 0,
    ROCE_QPS_INIT = 1,
    ROCE_QPS_RTR = 2, /* READY_RECV */
    ROCE_QPS_RTS = 3, /* READY_SEND */
    ROCE_QPS_SQE = 5,
    ROCE_QPS_ERR = 6,
};

/* sq_opcode */
enum roce_wr_opcode {
    ROCE_WR_WRITE = 0,
    ROCE_WR_WRITE_IMM = 1,
    ROCE_WR_SEND = 2,
    ROCE_WR_SEND_IMM = 3,
    ROCE_WR_READ = 4,
    ROCE_WR_CMP_SWAP = 5,
    ROCE_WR_FETCH_ADD = 6,
};

/* Access bits: qp_access uses 1..3, mr_access 0..4. */
#define ROCE_ACC_LOCAL_WRITE 0x1u
#define ROCE_ACC_REMOTE_WRITE 0x2u
#define ROCE_ACC_REMOTE_READ 0x4u
#define ROCE_ACC_REMOTE_ATOMIC 0x8u
/* mr_access bit 4: a streaming MR (docs/user-logic.md, "Streaming MRs"): its payloads go
   to and come from user logic's streams, not memory; no atomic, no READ / atomic
   destination */
#define ROCE_ACC_STREAM 0x10u

struct roce_caps {
    uint32_t nqp, nmr, rq_depth, sq_depth, max_rd_atomic;
    uint32_t log2_nmr;
};

struct roce_qp_ctx {
    uint8_t state; /* enum roce_qp_state */
    uint8_t pmtu;  /* IB enum 1..5 */
    uint32_t remote_qpn;
    uint32_t remote_ip; /* 10.0.0.1 = 0x0a000001 */
    uint8_t remote_mac[6];
    uint16_t udp_sport;
    uint32_t sq_psn, rq_psn;
    uint8_t retry_cnt, rnr_retry, timeout, min_rnr_timer;
    uint8_t max_rd_atomic, max_dest_rd_atomic;
    uint8_t access; /* ROCE_ACC_REMOTE_* */
    uint8_t pd;     /* protection domain: only MRs of this PD serve the QP */
};

struct roce_wr {
    uint8_t opcode; /* enum roce_wr_opcode */
    uint8_t flags;  /* bit 0 signaled, bit 1 solicited */
    uint32_t qpn;
    uint64_t laddr;
    uint32_t lkey;
    uint64_t raddr;
    uint32_t rkey;
    uint32_t len;
    uint32_t imm;
    uint64_t compare, swap_add;
    uint64_t wr_id;
};

struct roce_wc {
    uint64_t wr_id;
    uint8_t status; /* ibv_wc_status */
    uint8_t opcode; /* ibv_wc_opcode */
    bool has_imm, is_recv;
    uint32_t byte_len, qpn, imm;
};

/* Find and check the block (ID, version, caps); 0 when usable, else -1 and *why. */
int roce_hw_probe(const char **why);
const struct roce_caps *roce_hw_caps(void);

/* Stage every field of ctx and commit it to QP qpn (qp_write). */
void roce_hw_qp_write(uint32_t qpn, const struct roce_qp_ctx *ctx);

/* The responder executed a request on QP qpn since its context was last written
   (qp_hw_state.req): the RDMA CM's first request in RTR as the RTU. */
bool roce_hw_qp_req_seen(uint32_t qpn);
/* The QP is in ERROR in the transport (qp_hw_state.error: any engine moved it there). */
bool roce_hw_qp_error(uint32_t qpn);

/* Store MR row index (valid, in protection domain pd) or invalidate it. */
void roce_hw_mr_write(uint32_t index, uint32_t key, uint64_t base, uint64_t len, uint32_t access,
                      uint32_t pd);
void roce_hw_mr_invalidate(uint32_t index);

/* Post a receive WQE; -1 when the transport refused it (queue full: rq_overflow grew). */
int roce_hw_post_recv(uint32_t qpn, uint64_t addr, uint32_t len, uint32_t lkey, uint64_t wr_id);
/* Make the QP's full receive ring recycle (rq_recycle); -1 when refused (rq_overflow grew). */
int roce_hw_rq_recycle(uint32_t qpn);

/*
 * Post a work request: waits (bounded by timeout_ms of simulated time) for
 * sq_status.ready. 0 posted, -1 the queue stayed busy, -2 refused (sq_refused grew).
 */
int roce_hw_post_send(const struct roce_wr *wr, uint32_t timeout_ms);

/* Pop the head completion into wc: 1 when there was one, 0 when the CQ is empty. */
int roce_hw_poll_cq(struct roce_wc *wc);

/*
 * The work-request generator (rtl/roce/roce_wrgen.sv, gen_* registers): posts
 * `total` alike work requests round robin over nqp QPs (qpn, qpn + stride, ...)
 * and consumes their completions itself (wr_id bits 63:48 = ROCE_GEN_TAG: the
 * firmware's CQ never sees them, and firmware work requests must not use it).
 */
#define ROCE_GEN_TAG 0xbe6eu
/* User logic's work requests (nic_top s_wr_*, docs/user-logic.md) carry wr_id bits 63:49 =
 * ROCE_USER_TAG (bits 63:48 0x05e4 or 0x05e5); their completions go to user logic, not to the
 * firmware's CQ: firmware work requests must not use it either. */
#define ROCE_USER_TAG 0x02f2u
#define ROCE_GEN_QPS_MAX 64u
#define ROCE_GEN_OUT_MAX 512u    /* gen_max_out and gen_window at most */
struct roce_gen_cfg {
    uint8_t opcode; /* ROCE_WR_WRITE .. ROCE_WR_READ */
    bool lat;       /* one at a time, each signaled; lat_* measured */
    uint32_t qpn, nqp, stride;
    uint64_t laddr, raddr;
    uint32_t lkey, rkey, len, total;
    uint32_t max_out, max_out_qp, sig_every, window;
    uint32_t timeout; /* cycles without a post or completion before the run stops; 0 = 2^24 */
};
struct roce_gen_res {
    uint32_t status; /* gen_status */
    uint32_t posted, completed, err_index;
    uint64_t t_first, t_last; /* gen cycles */
    uint32_t lat_min, lat_max, win_min;
    uint64_t lat_sum;
};
/* Program and start a run (the generator must be idle: roce_hw_gen_busy() false). */
void roce_hw_gen_start(const struct roce_gen_cfg *c);
bool roce_hw_gen_busy(void);
/* Stop posting (the run ends when what was posted completed; twice: at once). */
void roce_hw_gen_abort(void);
void roce_hw_gen_read(struct roce_gen_res *r);
/* The generator's cycle counter (t_first and t_last count in it). */
uint64_t roce_hw_gen_cycle(void);

/* The counters of the block, in register order: name and value. */
struct roce_hw_counter {
    const char *name;
    uint32_t addr;
};
extern const struct roce_hw_counter roce_hw_counters[];
extern const uint32_t roce_hw_ncounters;
uint32_t roce_hw_read(uint32_t addr);
/* Payload bytes of the RoCE packets parsed and sent since reset (64-bit counters). */
void roce_hw_bytes(uint64_t *rx, uint64_t *tx);

/* Completion statuses with the numbers of enum ibv_wc_status. */
#define ROCE_WC_REM_INV_REQ_ERR 9u
#define ROCE_WC_REM_ACCESS_ERR 10u
#define ROCE_WC_REM_OP_ERR 11u
#define ROCE_WC_RETRY_EXC_ERR 12u
#define ROCE_WC_RNR_RETRY_EXC_ERR 13u

/* "IBV_WC_SUCCESS", ... ("IBV_WC_?" for an unknown value). */
const char *roce_wc_status_name(uint32_t status);
/* "IBV_WC_RDMA_WRITE", ... */
const char *roce_wc_opcode_name(uint32_t opcode);
const char *roce_qp_state_name(uint32_t state);

#endif
