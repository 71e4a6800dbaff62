/*
 * The firmware's view of the RC transport: which QPs and MRs it created,
 * their last programmed context, the CQ service of the super-loop, and
 * posting a work request with a bounded wait for its completion.
 *
 * Every entry point but roce_init and roce_present needs the transport
 * (roce_need prints "CMD: no RoCE transport (...)" otherwise).
 */
#ifndef FW_ROCE_ROCE_H
#define FW_ROCE_ROCE_H

#include <stdbool.h>
#include <stdint.h>

#include "roce_hw.h"

/* The firmware's tables: a QP slot per QPN (slot = QPN, 0 and 1 unused), an MR slot per
   transport MR row. The transport's own counts (caps: NQP, NMR; 256 each in the default
   nic_top) are used up to these; a bigger transport is used up to these only. */
#define ROCE_MAX_QPS 256u
#define ROCE_MAX_MRS 256u
#define ROCE_FIRST_QPN 0x11u /* allocation starts where rxe's does (0x11) */
#define ROCE_WAIT_MS 20u  /* default completion wait, simulated time */
#define ROCE_DEFAULT_PMTU 3u /* 1024, rxe's active MTU on a 1500-byte link */
#define ROCE_MAX_PMTU 5u     /* 4096, the largest IB MTU (the NIC takes 9018-byte frames) */
#define ROCE_MR_ACCESS_ALL 0xfu
/* Protection domains (docs/transport.md, "Protection domains"): 0..255. The console's
   QPs and MRs are in PD 0 unless told otherwise; each exchange session takes its own. */
#define ROCE_PD_MAX 255u

enum roce_owner { ROCE_OWNER_CONSOLE = 0, ROCE_OWNER_QPX = 1, ROCE_OWNER_CM = 2 };

struct roce_qp {
    bool used;
    uint8_t owner; /* enum roce_owner */
    uint32_t qpn;
    struct roce_qp_ctx ctx; /* as last written */
    /* the transport moved the QP to ERROR (its qp_event; cleared by a write of RESET):
       err_status is the ibv_wc_status of the failure, err_resp says the responder
       (a fatal NAK it sent) rather than the requester found it */
    bool in_error, err_resp;
    uint8_t err_status;
    /* its moves to ERROR are counted and kept as above but not printed one by one
       (`qp clone --quiet`: the fuzz's pool, whose hundreds of moves `qp rearm` lists) */
    bool quiet;
    /* receive completions: posted again automatically when auto_recv; recv_ring: the
       transport recycles the receive ring itself (roce_qp_recv_ring) */
    bool auto_recv, recv_ring;
    uint64_t recv_addr;
    uint32_t recv_len, recv_lkey;
    uint32_t recv_posted, recv_done, recv_errors;
    struct roce_wc last_recv;
    /* send-side completions (for the perftest end-of-test report) */
    uint32_t send_done, send_errors;
    uint64_t send_bytes, t_first_post, t_last_done;
};

struct roce_mr {
    bool used;
    uint32_t index, key, access, pd;
    uint64_t base, len;
};

/* Probe the transport (quiet) and mark the QP and MR tables empty; call once at start-up,
   before any other roce_ call (main does). */
void roce_init(void);
bool roce_present(void);
const char *roce_absent_reason(void);
/* 0 when the transport exists; else prints "CMD: no RoCE transport (why)" and -1. */
int roce_need(const char *cmd);

/* A new QP in INIT in protection domain pd (0..ROCE_PD_MAX) with the defaults (PMTU 1024, all
   remote access); NULL + *err when none is free. */
struct roce_qp *roce_qp_create(uint8_t owner, uint32_t pd, const char **err);
struct roce_qp *roce_qp_find(uint32_t qpn);
/* The i-th table slot (used or not; slot i holds QPN i), NULL past the end. */
struct roce_qp *roce_qp_slot(uint32_t i);
/* Write ctx to the transport and remember it. */
void roce_qp_modify(struct roce_qp *qp, const struct roce_qp_ctx *ctx);
/* Back to RESET (the transport clears its dynamic state); the QP stays allocated. */
void roce_qp_reset(struct roce_qp *qp);
/* The QP's state as the transport has it: "ERROR" after a QP event, else the
   context's; why it is in ERROR (roce_qp_err_reason(qp->err_resp, qp->err_status)). */
const char *roce_qp_state_now(const struct roce_qp *qp);
const char *roce_qp_err_reason(bool resp, uint32_t status);
/* RESET and free the slot. */
void roce_qp_destroy(struct roce_qp *qp);

/* Register [base, base+len) with access bits (ROCE_ACC_*; ROCE_ACC_STREAM: a streaming MR,
   user logic's address space, not memory) in protection domain pd: NULL + *err on failure. */
struct roce_mr *roce_mr_reg(uint64_t base, uint64_t len, uint32_t access, uint32_t pd,
                            const char **err);
struct roce_mr *roce_mr_find(uint32_t key);
struct roce_mr *roce_mr_slot(uint32_t i);
void roce_mr_dereg(struct roce_mr *mr);
/* A memory MR of ours (not streaming) in protection domain pd that covers [addr, addr+len)
   with all of access, or NULL. */
struct roce_mr *roce_mr_covering(uint64_t addr, uint64_t len, uint32_t access, uint32_t pd);

/* A protection domain for a new exchange session: the lowest of 1..ROCE_PD_MAX that no
   session's QP (owner exchange or RDMA CM) is in (sessions one after another all get PD 1;
   sessions side by side get one each). 0 + *err when every one is taken. */
uint32_t roce_pd_session(const char **err);

/*
 * Keep the QP's receive queue filled with WQEs for [addr, addr+len) (all
 * overlapping: a test buffer): n posted now, one more after each receive
 * completion. 0, or -1 when the transport refused a WQE.
 */
int roce_qp_auto_recv(struct roce_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey, uint32_t n);

/*
 * Fill the QP's empty receive queue with WQEs for [addr, addr+len) and make the
 * transport recycle them (docs/transport.md, "Receive rings in hardware"): the
 * queue never runs empty, at line rate, until the QP is reset. The WQEs carry
 * the generator's wr_id tag, so their completions are counted in the
 * transport's gen_recv_* counters, not filed (recv_done stays). 0, or -1 + *err.
 */
int roce_qp_recv_ring(struct roce_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey, const char **err);

/*
 * Post wr (wr_id is assigned here) and wait at most timeout_ms of simulated
 * time for its completion, running the network stack meanwhile; stop() (may be
 * NULL) returning non-zero ends the wait early (Ctrl-C).
 * 0: *wc holds the completion. -1: *err says why there is none.
 */
int roce_post_wait(struct roce_wr *wr, uint32_t timeout_ms, int (*stop)(void), struct roce_wc *wc,
                   const char **err);

/* Post a receive WQE (console 'recv'); -1 and *err when refused. */
int roce_post_recv(struct roce_qp *qp, uint64_t addr, uint32_t len, uint32_t lkey,
                   const char **err);

/* The super-loop's CQ service: pops every completion and files it. */
void roce_poll(void);

/*
 * Pop one completion and file it as roce_poll does (counters, receive WQEs
 * posted again), and copy it to *wc: 1, or 0 when the CQ is empty. For a
 * caller that tracks its own work requests (the console's bench).
 */
int roce_poll_wc(struct roce_wc *wc);

/* The transport's counters for the console 'stats' (nothing without the transport). */
void roce_stats_print(void);
/* 'stats NAME...': the named transport counters on one 'roce' line; -1 (said why) for an unknown name. */
int roce_stats_named(int n, char **names);

/* A 24-bit pseudo-random PSN (xorshift seeded from the cycle counter). */
uint32_t roce_random_psn(void);

/* ---- console helpers (fw/cmd_roce.c) */

/* A 64-bit number, decimal or 0x hex; prints "CMD: WHAT: ..." and -1 when bad. */
int roce_parse_u64(const char *cmd, const char *what, const char *s, uint64_t *out);

#endif
