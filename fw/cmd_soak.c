/*
 * soak: a seeded mix of every work request kind over the QPs an exchange
 * connected, every byte and every completion checked (make soak, tests/soak).
 *
 *   soak start SEED OPS [--qps N] [--max-size B] [--depth N] [--ack-timeout T] [--timeout MS]
 *   soak serve    the target: the next round's preparation, then its checks
 *   soak post     the initiator: the next round's work requests and checks
 *   soak report   operations and bytes by kind so far
 *
 * Both NICs run `soak start` with the same arguments after `listen`/`connect
 * --test write_bw --qps N`: each derives the same rounds from SEED, so the
 * target knows what the initiator will do. A round is at most SOAK_ROUND_OPS
 * operations whose buffers lie one after the other (random gaps, any byte
 * alignment) in the exchange's test buffer, which is at the same address on
 * both NICs, so the pattern of an operation's seed (fill/check engine: a
 * function of seed and address) verifies at either end:
 *
 *   target (`soak serve`): fills the sources of the READs, overwrites every
 *   WRITE/SEND destination with bytes that differ from what must arrive, posts a
 *   receive WQE per SEND, SEND_IMM and WRITE_IMM in the order of its QP, says
 *   "ready"; then takes every receive completion (status, opcode, byte count,
 *   immediate, in order per QP) up to the round's last operation, a SEND_IMM the
 *   initiator posts only after every other completion of the round arrived, and
 *   then checks every destination byte and each QP's atomic word against the model.
 *   initiator (`soak post`): fills the sources, overwrites the READ destinations
 *   and the atomics' result words, posts up to --depth work requests per QP,
 *   checks each completion (status, opcode, QPN, order per QP, byte count of READ
 *   and atomics), then every READ destination byte and every atomic's returned
 *   value against the model, then posts the round's closing SEND_IMM.
 *
 * Atomics: QP k's operations hit one 8-byte word (SOAK_ATOM + 8k on the
 * target), filled at start with a pattern whose words the firmware computes
 * (qpx_pat_word): both NICs keep a model of each word; a QP's atomics execute in
 * order, so every returned value and each word after the round are known.
 * Path MTUs: `soak start` sets QP k's to 256 << (k mod 5) on both NICs (before any
 * traffic: the exchange programmed them a moment ago, nothing was sent).
 * Every wait is bounded: no progress for --timeout ms of simulated time ends the
 * round with an error.
 */
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "roce/qpx.h"
#include "roce/qpx_mem.h"
#include "roce/roce.h"
#include "timer.h"
#include "wdog.h"
#include "noinit.h"

#define SOAK_QPS_MAX 64u
#define SOAK_ROUND_OPS 128u
#define SOAK_OPS_MAX 100000000u
#define SOAK_SIZE_MAX 0x100000u                            /* 1 MiB */
#define SOAK_ATOM (QPX_BUF_BASE + QPX_BUF_BYTES - 0x1000u) /* the atomic words */
#define SOAK_AREA_END (SOAK_ATOM - 0x1000u)                /* the rounds' buffers end here */
#define SOAK_FENCE_MAX 256u /* the closing SEND_IMM's length at most */
#define SOAK_WAIT_MS 50u
#define SOAK_DEPTH_MAX 32u /* outstanding per QP at most (and at most the SQ depth) */

enum kind { K_WRITE, K_WRITE_IMM, K_READ, K_SEND, K_SEND_IMM, K_CAS, K_FADD, K_N };
static const char *const kind_name[K_N] = {"WRITE",    "WRITE_IMM",   "READ",         "SEND",
                                           "SEND_IMM", "CMP_AND_SWP", "FETCH_AND_ADD"};
static const uint8_t kind_wr[K_N] = {ROCE_WR_WRITE,    ROCE_WR_WRITE_IMM, ROCE_WR_READ,
                                     ROCE_WR_SEND,     ROCE_WR_SEND_IMM,  ROCE_WR_CMP_SWAP,
                                     ROCE_WR_FETCH_ADD};
/* ibv_wc_opcode of the requester's completion */
static const uint8_t kind_wc[K_N] = {1, 1, 2, 0, 0, 3, 4};
/* in 1/32: WRITE 6, WRITE_IMM 3, READ 7, SEND 5, SEND_IMM 3, CMP_AND_SWP 4, FETCH_AND_ADD 4 */
static const uint8_t kind_weight[K_N] = {6, 3, 7, 5, 3, 4, 4};

struct op {
    uint8_t kind, qp;
    uint32_t len, addr, imm;
    uint64_t pseed;         /* the pattern of the bytes it moves */
    uint64_t cmp, swp, old; /* atomics: operands and the value it must return */
};

static struct {
    bool started;
    uint32_t seed, ops, nqp, max_size, depth, wait_ms;
    uint32_t qpn0, lkey, rkey;
    uint32_t round, done; /* rounds and operations generated so far */
    uint64_t atom[SOAK_QPS_MAX];
    uint32_t n_kind[K_N];
    uint64_t bytes_kind[K_N];
    /* the current round */
    struct op op[SOAK_ROUND_OPS];
    uint32_t n;
} s;

/* ---- the seeded generator (the same on both NICs) */

static uint64_t rng;

static uint64_t next64(void) {
    /* splitmix64 */
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 0..n-1 from the draw's high 32 bits scaled by n (a multiply: a 64-bit remainder takes
 * libgcc hundreds of cycles on this core) */
static uint32_t below(uint32_t n) {
    return (uint32_t)(((next64() >> 32) * n) >> 32);
}

/* 1..max, each power of two range alike (1 B .. 1 MiB: small and large equally often) */
static uint32_t size_draw(uint32_t max) {
    uint32_t bits = 0;
    while ((2u << bits) <= max)
        bits++;
    uint32_t k = below(bits + 1u), lo = 1u << k;
    uint32_t len = lo + below(lo);
    return len > max ? max : len;
}

/* bytes that differ from pseed's pattern in the word at addr, so nothing stale passes */
static uint64_t clear_seed(uint64_t addr, uint64_t pseed) {
    return qpx_pat_seed_for_word(addr, ~qpx_pat_word(pseed, addr >> 3));
}

/* The next round's operations; both NICs call it once per round, in order. */
static void gen_round(void) {
    rng = (uint64_t)s.seed << 32 ^ s.round;
    (void)next64();
    uint32_t recvs[SOAK_QPS_MAX] = {0};
    uint32_t rq = roce_hw_caps()->rq_depth;
    uint32_t cur = QPX_BUF_BASE;
    s.n = 0;
    uint32_t left = s.ops - s.done;
    while (s.n + 1u < SOAK_ROUND_OPS && s.n + 1u < left) {
        struct op o;
        memset(&o, 0, sizeof o);
        uint32_t w = below(32), k = 0;
        while (w >= kind_weight[k])
            w -= kind_weight[k++];
        o.kind = (uint8_t)k;
        o.qp = (uint8_t)below(s.nqp);
        bool consumes = k == K_WRITE_IMM || k == K_SEND || k == K_SEND_IMM;
        /* the target posts a round's receives before it starts: one place is the fence's */
        if (consumes && recvs[o.qp] + 2u > rq)
            o.kind = K_WRITE;
        else if (consumes)
            recvs[o.qp]++;
        bool atomic = o.kind == K_CAS || o.kind == K_FADD;
        o.len = atomic ? 8u : size_draw(s.max_size);
        uint32_t a = cur + below(64);
        if (atomic) a = (a + 7u) & ~7u;
        if (a + o.len > SOAK_AREA_END - SOAK_FENCE_MAX - 64u) break; /* the round is full */
        o.addr = a;
        cur = a + o.len;
        o.pseed = next64();
        o.imm = (uint32_t)next64();
        if (o.kind == K_FADD) {
            o.swp = next64();
            o.old = s.atom[o.qp];
            s.atom[o.qp] += o.swp;
        } else if (o.kind == K_CAS) {
            uint64_t m = s.atom[o.qp];
            o.cmp = below(2) ? m : m ^ (1ull << below(64));
            o.swp = next64();
            o.old = m;
            if (o.cmp == m) s.atom[o.qp] = o.swp;
        }
        s.op[s.n++] = o;
    }
    /* the fence: a SEND_IMM the initiator posts after every other completion of the round */
    struct op f;
    memset(&f, 0, sizeof f);
    f.kind = K_SEND_IMM;
    f.qp = (uint8_t)(s.round % s.nqp);
    f.len = 1u + below(SOAK_FENCE_MAX);
    f.addr = cur + below(64);
    f.pseed = next64();
    f.imm = (uint32_t)next64();
    s.op[s.n++] = f;
    s.round++;
    s.done += s.n;
}

/* ---- helpers */

static const char *why;

static int fill(uint32_t addr, uint32_t len, uint64_t seed) {
    return qpx_mem_fill(addr, len, seed, &why);
}

/* 0 when [addr, addr+len) holds pseed's pattern; prints and -1 otherwise. */
static int check_bytes(uint32_t i, const char *what) {
    const struct op *o = &s.op[i];
    uint64_t bad_at = 0;
    int64_t bad = qpx_mem_check(o->addr, o->len, o->pseed, &bad_at, &why);
    if (bad < 0) {
        printf("soak: round %lu op %lu: %s\n", (unsigned long)s.round - 1u, (unsigned long)i, why);
        return -1;
    }
    if (bad) {
        printf("soak: round %lu op %lu (%s, QP 0x%lx, %lu bytes at 0x%lx): %s: %lu bytes differ, "
               "first at 0x%llx\n",
               (unsigned long)s.round - 1u, (unsigned long)i, kind_name[o->kind],
               (unsigned long)(s.qpn0 + o->qp), (unsigned long)o->len, (unsigned long)o->addr, what,
               (unsigned long)bad, (unsigned long long)bad_at);
        return -1;
    }
    return 0;
}

static int read_u64(uint32_t addr, uint64_t *v) {
    uint8_t b[8];
    if (qpx_mem_read(addr, 8, b, &why) != 0) return -1;
    *v = 0;
    for (int i = 7; i >= 0; i--)
        *v = *v << 8 | b[i];
    return 0;
}

static void count(const struct op *o) {
    s.n_kind[o->kind]++;
    s.bytes_kind[o->kind] += o->len;
}

static int fail_wc(uint32_t i, const struct roce_wc *wc, const char *what, uint32_t want,
                   uint32_t got) {
    printf(
        "soak: round %lu op %lu (%s on QP 0x%lx, %lu bytes): completion %s: expected %lu, got %lu "
        "(%s)\n",
        (unsigned long)s.round - 1u, (unsigned long)i, i < s.n ? kind_name[s.op[i].kind] : "?",
        (unsigned long)wc->qpn, i < s.n ? (unsigned long)s.op[i].len : 0ul, what,
        (unsigned long)want, (unsigned long)got, roce_wc_status_name(wc->status));
    return -1;
}

/* ---- the target */

static int serve(void) {
    gen_round();
    uint32_t r = s.round - 1u;
    uint32_t nrecv = 0;
    for (uint32_t i = 0; i < s.n; i++) {
        const struct op *o = &s.op[i];
        if (o->kind == K_READ) {
            if (fill(o->addr, o->len, o->pseed) != 0) goto engine;
        } else if (o->kind != K_CAS && o->kind != K_FADD) {
            if (fill(o->addr, o->len, clear_seed(o->addr, o->pseed)) != 0) goto engine;
        }
        if (o->kind == K_WRITE_IMM || o->kind == K_SEND || o->kind == K_SEND_IMM) {
            if (roce_hw_post_recv(s.qpn0 + o->qp, o->addr, o->len, s.lkey, i) != 0) {
                printf("soak: round %lu: the transport refused a receive WQE on QP 0x%lx\n",
                       (unsigned long)r, (unsigned long)(s.qpn0 + o->qp));
                return -1;
            }
            nrecv++;
        }
    }
    printf("soak: round %lu ready: %lu operations, %lu receives posted\n", (unsigned long)r,
           (unsigned long)s.n, (unsigned long)nrecv);
    /* the receive completions, in order per QP */
    uint32_t next[SOAK_QPS_MAX];
    for (uint32_t q = 0; q < s.nqp; q++)
        next[q] = 0;
    uint32_t got = 0;
    uint64_t t_prog = tmr_cycles(), wait = tmr_ms_to_cycles(s.wait_ms);
    while (got < nrecv) {
        wdog_kick();
        struct roce_wc wc;
        if (!roce_poll_wc(&wc)) {
            if (tmr_cycles() - t_prog > wait) {
                printf("soak: round %lu: %lu of %lu receive completions, then none for %lu ms\n",
                       (unsigned long)r, (unsigned long)got, (unsigned long)nrecv,
                       (unsigned long)s.wait_ms);
                return -1;
            }
            continue;
        }
        t_prog = tmr_cycles();
        uint32_t q = wc.qpn - s.qpn0;
        if (!wc.is_recv || q >= s.nqp) {
            printf("soak: round %lu: an unexpected completion (%s, QP 0x%lx, %s)\n",
                   (unsigned long)r, roce_wc_opcode_name(wc.opcode), (unsigned long)wc.qpn,
                   roce_wc_status_name(wc.status));
            return -1;
        }
        /* this QP's next receive-consuming operation */
        uint32_t i = next[q];
        while (i < s.n &&
               !(s.op[i].qp == q && (s.op[i].kind == K_WRITE_IMM || s.op[i].kind == K_SEND ||
                                     s.op[i].kind == K_SEND_IMM)))
            i++;
        if (i >= s.n)
            return fail_wc(i, &wc, "beyond the round's receives on this QP: wr_id", 0,
                           (uint32_t)wc.wr_id);
        next[q] = i + 1u;
        const struct op *o = &s.op[i];
        if (wc.status != 0) return fail_wc(i, &wc, "status", 0, wc.status);
        if (wc.wr_id != i) return fail_wc(i, &wc, "wr_id (order on the QP)", i, (uint32_t)wc.wr_id);
        uint32_t want_op = o->kind == K_WRITE_IMM ? 129u : 128u;
        if (wc.opcode != want_op) return fail_wc(i, &wc, "opcode", want_op, wc.opcode);
        if (wc.byte_len != o->len) return fail_wc(i, &wc, "byte_len", o->len, wc.byte_len);
        bool imm = o->kind != K_SEND;
        if (wc.has_imm != imm) return fail_wc(i, &wc, "has_imm", imm, wc.has_imm);
        if (imm && wc.imm != o->imm) return fail_wc(i, &wc, "immediate", o->imm, wc.imm);
        got++;
    }
    /* the fence arrived after every other completion at the initiator: every byte is here */
    for (uint32_t i = 0; i < s.n; i++) {
        const struct op *o = &s.op[i];
        if (o->kind == K_READ || o->kind == K_CAS || o->kind == K_FADD) continue;
        if (check_bytes(i, "destination") != 0) return -1;
    }
    for (uint32_t q = 0; q < s.nqp; q++) {
        uint64_t v;
        if (read_u64(SOAK_ATOM + 8u * q, &v) != 0) goto engine;
        if (v != s.atom[q]) {
            printf("soak: round %lu: QP 0x%lx's atomic word holds 0x%016llx, the model 0x%016llx\n",
                   (unsigned long)r, (unsigned long)(s.qpn0 + q), (unsigned long long)v,
                   (unsigned long long)s.atom[q]);
            return -1;
        }
    }
    for (uint32_t i = 0; i < s.n; i++)
        count(&s.op[i]);
    printf("soak: round %lu target ok: %lu receive completions, every destination byte and "
           "atomic word checked (%lu of %lu operations)\n",
           (unsigned long)r, (unsigned long)nrecv, (unsigned long)s.done, (unsigned long)s.ops);
    return 0;
engine:
    printf("soak: round %lu: %s\n", (unsigned long)r, why);
    return -1;
}

/* ---- the initiator */

static int post(uint32_t i) {
    const struct op *o = &s.op[i];
    struct roce_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.opcode = kind_wr[o->kind];
    wr.flags = 1; /* signaled */
    wr.qpn = s.qpn0 + o->qp;
    wr.laddr = o->addr;
    wr.lkey = s.lkey;
    wr.raddr = (o->kind == K_CAS || o->kind == K_FADD) ? SOAK_ATOM + 8u * o->qp : o->addr;
    wr.rkey = s.rkey;
    wr.len = o->len;
    wr.imm = o->imm;
    wr.compare = o->cmp;
    wr.swap_add = o->swp;
    wr.wr_id = i;
    int e = roce_hw_post_send(&wr, s.wait_ms);
    if (e != 0) {
        printf("soak: round %lu op %lu: the transport %s the work request on QP 0x%lx\n",
               (unsigned long)s.round - 1u, (unsigned long)i, e == -1 ? "did not take" : "refused",
               (unsigned long)wr.qpn);
        return -1;
    }
    return 0;
}

/* Post ops [from, to) with at most depth outstanding per QP and check each completion. */
static int run_ops(uint32_t from, uint32_t to) {
    /* per QP the posted, not yet completed operations, oldest first */
    NOINIT(soak_fifo) static uint8_t fifo[SOAK_QPS_MAX][SOAK_DEPTH_MAX];
    uint32_t head[SOAK_QPS_MAX] = {0}, cnt[SOAK_QPS_MAX] = {0};
    uint32_t nx = from, done = 0;
    uint64_t t_prog = tmr_cycles(), wait = tmr_ms_to_cycles(s.wait_ms);
    while (done < to - from) {
        wdog_kick();
        if (nx < to && cnt[s.op[nx].qp] < s.depth) {
            uint32_t q = s.op[nx].qp;
            if (post(nx) != 0) return -1;
            fifo[q][(head[q] + cnt[q]) % SOAK_DEPTH_MAX] = (uint8_t)nx;
            cnt[q]++;
            nx++;
            t_prog = tmr_cycles();
            continue;
        }
        struct roce_wc wc;
        if (!roce_poll_wc(&wc)) {
            if (tmr_cycles() - t_prog > wait) {
                printf("soak: round %lu: %lu of %lu operations completed, then none for %lu ms\n",
                       (unsigned long)s.round - 1u, (unsigned long)done, (unsigned long)(to - from),
                       (unsigned long)s.wait_ms);
                return -1;
            }
            continue;
        }
        t_prog = tmr_cycles();
        uint32_t q = wc.qpn - s.qpn0;
        if (wc.is_recv || q >= s.nqp || cnt[q] == 0) {
            printf("soak: round %lu: an unexpected completion (%s, QP 0x%lx, wr_id %llu, %s)\n",
                   (unsigned long)s.round - 1u, roce_wc_opcode_name(wc.opcode),
                   (unsigned long)wc.qpn, (unsigned long long)wc.wr_id,
                   roce_wc_status_name(wc.status));
            return -1;
        }
        uint32_t i = fifo[q][head[q]];
        head[q] = (head[q] + 1u) % SOAK_DEPTH_MAX;
        cnt[q]--;
        const struct op *o = &s.op[i];
        if (wc.status != 0) return fail_wc(i, &wc, "status", 0, wc.status);
        if (wc.wr_id != i) return fail_wc(i, &wc, "wr_id (order on the QP)", i, (uint32_t)wc.wr_id);
        if (wc.opcode != kind_wc[o->kind])
            return fail_wc(i, &wc, "opcode", kind_wc[o->kind], wc.opcode);
        if ((o->kind == K_READ || o->kind == K_CAS || o->kind == K_FADD) && wc.byte_len != o->len)
            return fail_wc(i, &wc, "byte_len", o->len, wc.byte_len);
        done++;
    }
    return 0;
}

static int post_round(void) {
    uint64_t t0 = tmr_cycles();
    gen_round();
    uint32_t r = s.round - 1u;
    for (uint32_t i = 0; i < s.n; i++) {
        const struct op *o = &s.op[i];
        bool dst = o->kind == K_READ || o->kind == K_CAS || o->kind == K_FADD;
        if (fill(o->addr, o->len, dst ? clear_seed(o->addr, o->pseed) : o->pseed) != 0) goto engine;
    }
    if (run_ops(0, s.n - 1u) != 0) return -1;
    for (uint32_t i = 0; i + 1u < s.n; i++) {
        const struct op *o = &s.op[i];
        if (o->kind == K_READ) {
            if (check_bytes(i, "READ destination") != 0) return -1;
        } else if (o->kind == K_CAS || o->kind == K_FADD) {
            uint64_t v;
            if (read_u64(o->addr, &v) != 0) goto engine;
            if (v != o->old) {
                printf("soak: round %lu op %lu (%s on QP 0x%lx): returned 0x%016llx, the model "
                       "0x%016llx\n",
                       (unsigned long)r, (unsigned long)i, kind_name[o->kind],
                       (unsigned long)(s.qpn0 + o->qp), (unsigned long long)v,
                       (unsigned long long)o->old);
                return -1;
            }
        }
    }
    /* the fence: everything else completed, so the target may check its bytes after it */
    if (run_ops(s.n - 1u, s.n) != 0) return -1;
    for (uint32_t i = 0; i < s.n; i++)
        count(&s.op[i]);
    printf("soak: round %lu ok: %lu operations in %llu cycles, every completion, READ byte and "
           "atomic result checked (%lu of %lu operations)\n",
           (unsigned long)r, (unsigned long)s.n, (unsigned long long)(tmr_cycles() - t0),
           (unsigned long)s.done, (unsigned long)s.ops);
    if (s.done >= s.ops) printf("soak: all %lu operations done\n", (unsigned long)s.ops);
    return 0;
engine:
    printf("soak: round %lu: %s\n", (unsigned long)r, why);
    return -1;
}

/* ---- start and report */

static void usage(void) {
    printf("soak: expected start SEED OPS [--qps N] [--max-size B] [--depth N] [--ack-timeout T] "
           "[--timeout MS], "
           "serve, post or report (see 'help soak')\n");
}

static int start(int argc, char **argv) {
    if (argc < 4) {
        usage();
        return -1;
    }
    uint32_t seed, ops, nqp = 16, max = SOAK_SIZE_MAX, depth = 4, wait_ms = SOAK_WAIT_MS,
                        ack_to = 6;
    if (con_parse_u32("soak", "SEED", argv[2], &seed) ||
        con_parse_u32("soak", "OPS", argv[3], &ops))
        return -1;
    if (ops < 2 || ops > SOAK_OPS_MAX) {
        printf("soak: OPS: expected 2..%lu, got %s\n", (unsigned long)SOAK_OPS_MAX, argv[3]);
        return -1;
    }
    for (int i = 4; i < argc; i += 2) {
        const char *a = argv[i];
        uint32_t *dst = NULL, lo = 1, hi = 0;
        if (strcmp(a, "--qps") == 0)
            dst = &nqp, hi = SOAK_QPS_MAX;
        else if (strcmp(a, "--max-size") == 0)
            dst = &max, hi = SOAK_SIZE_MAX;
        else if (strcmp(a, "--depth") == 0) {
            dst = &depth;
            hi = roce_hw_caps()->sq_depth < SOAK_DEPTH_MAX ? roce_hw_caps()->sq_depth
                                                           : SOAK_DEPTH_MAX;
        } else if (strcmp(a, "--timeout") == 0)
            dst = &wait_ms, hi = 10000;
        else if (strcmp(a, "--ack-timeout") == 0)
            dst = &ack_to, hi = 31;
        if (!dst) {
            printf("soak: unknown option '%s' (see 'help soak')\n", a);
            return -1;
        }
        if (i + 1 >= argc) {
            printf("soak: %s needs a value\n", a);
            return -1;
        }
        if (con_parse_u32("soak", a, argv[i + 1], dst) != 0) return -1;
        if (*dst < lo || *dst > hi) {
            printf("soak: %s: expected %lu..%lu, got %s\n", a, (unsigned long)lo, (unsigned long)hi,
                   argv[i + 1]);
            return -1;
        }
    }
    struct roce_qp *qp0 = qpx_qp(1); /* session 1: its buffer is QPX_BUF_BASE */
    if (!qp0 || qp0->ctx.state != ROCE_QPS_RTS) {
        printf("soak: no connected QP (run listen/connect --test write_bw --qps N first)\n");
        return -1;
    }
    for (uint32_t k = 0; k < nqp; k++) {
        struct roce_qp *x = roce_qp_find(qp0->qpn + k);
        if (!x || x->ctx.state != ROCE_QPS_RTS || x->ctx.remote_ip != qp0->ctx.remote_ip) {
            printf("soak: --qps %lu: QP 0x%lx is not connected to the same peer (listen/connect "
                   "--qps N connects N)\n",
                   (unsigned long)nqp, (unsigned long)(qp0->qpn + k));
            return -1;
        }
    }
    struct roce_mr *mr = roce_mr_covering(QPX_BUF_BASE, QPX_BUF_BYTES, ROCE_MR_ACCESS_ALL,
                                         qp0->ctx.pd);
    uint64_t vaddr;
    uint32_t rkey;
    if (!mr || qpx_peer_buffer(qp0->qpn, &rkey, &vaddr) != 0) {
        printf("soak: the exchange registered no test buffer with every access, or carried no rkey "
               "(use --test write_bw)\n");
        return -1;
    }
    memset(&s, 0, sizeof s);
    s.seed = seed, s.ops = ops, s.nqp = nqp, s.max_size = max, s.depth = depth;
    s.wait_ms = wait_ms, s.qpn0 = qp0->qpn, s.lkey = mr->key, s.rkey = rkey;
    /* path MTUs 256..4096 over the QPs: the peer sets the same on its QP k */
    for (uint32_t k = 0; k < nqp; k++) {
        struct roce_qp *x = roce_qp_find(qp0->qpn + k);
        struct roce_qp_ctx c = x->ctx;
        c.pmtu = (uint8_t)(1u + k % 5u);
        c.timeout = (uint8_t)ack_to; /* the exchange's 67 ms would stall a lossy run */
        c.retry_cnt = 7;
        c.rnr_retry = 7;
        roce_qp_modify(x, &c);
    }
    /* the atomic words: a pattern both NICs can compute */
    uint64_t aseed = (uint64_t)seed * 0x2545F4914F6CDD1Dull + 1u;
    if (qpx_mem_fill(SOAK_ATOM, 8u * nqp, aseed, &why) != 0) {
        printf("soak: %s\n", why);
        return -1;
    }
    for (uint32_t k = 0; k < nqp; k++)
        s.atom[k] = qpx_pat_word(aseed, (SOAK_ATOM + 8u * k) >> 3);
    s.started = true;
    printf(
        "soak: seed %lu, %lu operations over QPs 0x%lx..0x%lx (path MTU 256..4096), 1..%lu bytes, "
        "%lu outstanding per QP\n",
        (unsigned long)seed, (unsigned long)ops, (unsigned long)s.qpn0,
        (unsigned long)(s.qpn0 + nqp - 1u), (unsigned long)max, (unsigned long)depth);
    return 0;
}

static void report(void) {
    uint32_t n = 0;
    uint64_t b = 0;
    printf("soak: %lu of %lu operations in %lu rounds\n", (unsigned long)s.done,
           (unsigned long)s.ops, (unsigned long)s.round);
    for (uint32_t k = 0; k < K_N; k++) {
        printf("soak: %-14s %8lu ops %12llu bytes\n", kind_name[k], (unsigned long)s.n_kind[k],
               (unsigned long long)s.bytes_kind[k]);
        n += s.n_kind[k];
        b += s.bytes_kind[k];
    }
    printf("soak: %-14s %8lu ops %12llu bytes\n", "total", (unsigned long)n, (unsigned long long)b);
}

static int cmd_soak(int argc, char **argv) {
    if (argc < 2) {
        usage();
        return CON_ERR;
    }
    const char *sub = argv[1];
    bool st = strcmp(sub, "start") == 0, sv = strcmp(sub, "serve") == 0,
         po = strcmp(sub, "post") == 0, rp = strcmp(sub, "report") == 0;
    if (!st && !sv && !po && !rp) {
        usage();
        return CON_ERR;
    }
    if (!st && argc != 2) {
        printf("soak %s: takes no arguments\n", sub);
        return CON_ERR;
    }
    if (roce_need("soak") != 0) return CON_ERR;
    if (st) return start(argc, argv) == 0 ? CON_OK : CON_ERR;
    if (!s.started) {
        printf("soak %s: run 'soak start' first\n", sub);
        return CON_ERR;
    }
    if (rp) {
        report();
        return CON_OK;
    }
    if (s.done >= s.ops) {
        printf("soak %s: all %lu operations are done\n", sub, (unsigned long)s.ops);
        return CON_ERR;
    }
    int e = sv ? serve() : post_round();
    if (e != 0) s.started = false; /* the two NICs no longer agree: start again */
    return e == 0 ? CON_OK : CON_ERR;
}

static void soak_help_more(void) {
    printf("  After listen/connect --test write_bw --qps N, both NICs run 'soak start' with the\n");
    printf("  same SEED and options; then per round the target 'soak serve' (prepares, prints\n");
    printf("  'ready', takes its receive completions, checks every destination byte and atomic\n");
    printf("  word) and, once it is ready, the initiator 'soak post' (posts the round's mix of\n");
    printf("  WRITE, WRITE_IMM, READ, SEND, SEND_IMM, CMP_AND_SWP, FETCH_AND_ADD and checks\n");
    printf("  every completion, READ byte and atomic result), until 'all OPS operations done'.\n");
    printf(
        "  --qps N (1..%u, default 16): QPs from the exchange's first; their path MTUs are set\n",
        SOAK_QPS_MAX);
    printf("  to 256..4096. --max-size B: message sizes 1..B (default and cap 1 MiB).\n");
    printf("  --depth N: outstanding per QP (default 4). --ack-timeout T: the QPs' local ACK\n");
    printf("  timeout 4.096 us x 2^T (default 6; retry_cnt and rnr_retry 7). --timeout MS: no\n");
    printf("  progress for MS ms (simulated) ends a round (default %u).\n", SOAK_WAIT_MS);
    printf("  'soak report': operations and bytes by kind.\n");
}
CON_COMMAND_MORE(soak, "start SEED OPS [OPTIONS] | serve | post | report",
                 "seeded mix of every work request kind, every byte and completion checked",
                 cmd_soak, soak_help_more);
