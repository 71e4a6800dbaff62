/* On-board memory bytes through the fill/check engine: see qpx_mem.h. */
#include "qpx_mem.h"

#define PAT_C1 0x9E3779B97F4A7C15ull
#define PAT_C2 0xD1B54A32D192ED03ull

static uint64_t xs(uint64_t x) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

/* xs undone step by step, last step first: y = x ^ (x << k) gives x = y ^ (y << k) ^ (y << 2k)
   ^ ..., the terms summed by doubling (after the step of shift s, y holds the terms of shifts
   0, k, .., 2s - k); the same for >>. Constant shifts: a few instructions each on rv32. */
static uint64_t unxs(uint64_t x) {
    x ^= x << 17; /* undoes x ^= x << 17 */
    x ^= x << 34;
    x ^= x >> 7; /* undoes x ^= x >> 7 */
    x ^= x >> 14;
    x ^= x >> 28;
    x ^= x >> 56;
    x ^= x << 13; /* undoes x ^= x << 13 */
    x ^= x << 26;
    x ^= x << 52;
    return x;
}

uint64_t qpx_pat_word(uint64_t seed, uint64_t word) {
    return xs(xs((seed ^ word) + PAT_C1) + PAT_C2);
}

uint64_t qpx_pat_seed_for_word(uint64_t addr, uint64_t x) {
    return (unxs(unxs(x) - PAT_C2) - PAT_C1) ^ (addr >> 3);
}

uint64_t qpx_pat_seed_for_byte(uint64_t addr, uint8_t v) {
    return qpx_pat_seed_for_word(addr, (uint64_t)v << (8u * (addr & 7u)));
}

#ifndef QPX_MEM_HOST
#include <solonic_regs.h>

#include "timer.h"
#include "trap.h"
#include "wdog.h"

#define ENGINE_WAIT_MS 1u

static int present = -1;
static uint64_t wait_cycles; /* ENGINE_WAIT_MS in cycles, once (a 64-bit division) */

bool qpx_mem_present(void) {
    if (present < 0) {
        uint32_t id, cause;
        present = trap_probe_read32(MEMPAT_ID, &id, &cause) == 0 && id == MEMPAT_ID_VALUE;
        wait_cycles = tmr_ms_to_cycles(ENGINE_WAIT_MS);
    }
    return present > 0;
}

static void start(uint64_t addr, uint32_t len, uint64_t seed, uint32_t mode) {
    REG32(MEMPAT_ADDR_LO) = (uint32_t)addr;
    REG32(MEMPAT_ADDR_HI) = (uint32_t)(addr >> 32);
    REG32(MEMPAT_LEN) = len;
    REG32(MEMPAT_SEED_LO) = (uint32_t)seed;
    REG32(MEMPAT_SEED_HI) = (uint32_t)(seed >> 32);
    REG32(MEMPAT_START) = mode;
}

/* Wait for the engine to be idle (qpx_mem_present() first): status, or -1 when it stays
   busy ENGINE_WAIT_MS. A short run (a word written, 16 bytes read: 35..61 cycles) ends
   within the first polls, a register read of about 20 cycles each: the clock only after. */
static int wait_idle(void) {
    uint32_t st;
    for (unsigned i = 0; i < 8u; i++)
        if (!((st = REG32(MEMPAT_STATUS)) & MEMPAT_STATUS_BUSY_MASK)) return (int)st;
    uint64_t end = tmr_cycles() + wait_cycles;
    while ((st = REG32(MEMPAT_STATUS)) & MEMPAT_STATUS_BUSY_MASK)
        if (tmr_cycles() > end) return -1;
    return (int)st;
}

/* The engine is there and idle: 0, or -1 with *err. */
static int engine_ready(const char **err) {
    if (!qpx_mem_present()) {
        *err = "no fill/check engine in this SoC (the firmware cannot reach on-board memory)";
        return -1;
    }
    if (wait_idle() < 0) {
        *err = "the fill/check engine stayed busy";
        return -1;
    }
    return 0;
}

/* The end of the run started last: 0, or -1 with *err (what names the access). */
static int run_end(const char *what_err, const char **err) {
    int st = wait_idle();
    if (st < 0) {
        *err = "the fill/check engine did not finish";
        return -1;
    }
    if (st & MEMPAT_STATUS_DMA_STATUS_MASK) {
        *err = what_err;
        return -1;
    }
    return 0;
}

int qpx_mem_read(uint64_t addr, uint32_t len, uint8_t *out, const char **err) {
    if (len == 0 || len > QPX_MEM_READ_MAX) {
        *err = "a read of 1..16 bytes";
        return -1;
    }
    if (engine_ready(err) != 0) return -1;
    start(addr, len, 0, 1); /* a check of any seed: its peek is the bytes read */
    if (run_end("the on-board memory answered a read with an error", err) != 0) return -1;
    static const uint32_t peek[4] = {MEMPAT_PEEK0, MEMPAT_PEEK1, MEMPAT_PEEK2, MEMPAT_PEEK3};
    for (uint32_t i = 0; i < len; i += 4u) { /* each peek register read once */
        uint32_t w = REG32(peek[i / 4u]);
        for (uint32_t j = i; j < len && j < i + 4u; j++, w >>= 8)
            out[j] = (uint8_t)w;
    }
    return 0;
}

#define ENGINE_RANGE_MS 2000u

int qpx_mem_run(uint64_t addr, uint32_t len, uint64_t seed, uint32_t mode, const char **err) {
    if (len == 0 || len > 0x40000000u) {
        *err = "a range of 1..2^30 bytes";
        return -1;
    }
    if (engine_ready(err) != 0) return -1;
    start(addr, len, seed, mode);
    uint64_t end = tmr_cycles() + tmr_ms_to_cycles(ENGINE_RANGE_MS);
    uint32_t st;
    while ((st = REG32(MEMPAT_STATUS)) & MEMPAT_STATUS_BUSY_MASK) {
        wdog_kick(); /* bounded by ENGINE_RANGE_MS, which may exceed the watchdog's timeout */
        if (tmr_cycles() > end) {
            *err = "the fill/check engine did not finish";
            return -1;
        }
    }
    return (int)st;
}

/* qpx_mem_run, an AXI error an error too */
static int run_range(uint64_t addr, uint32_t len, uint64_t seed, uint32_t mode, const char **err) {
    int st = qpx_mem_run(addr, len, seed, mode, err);
    if (st >= 0 && (st & MEMPAT_STATUS_DMA_STATUS_MASK)) {
        *err = "the on-board memory answered with an error";
        return -1;
    }
    return st;
}

int qpx_mem_fill(uint64_t addr, uint32_t len, uint64_t seed, const char **err) {
    return run_range(addr, len, seed, 0, err) < 0 ? -1 : 0;
}

int64_t qpx_mem_check(uint64_t addr, uint32_t len, uint64_t seed, uint64_t *first_bad,
                      const char **err) {
    if (run_range(addr, len, seed, 1, err) < 0) return -1;
    uint32_t bad = REG32(MEMPAT_ERR_COUNT);
    if (bad) *first_bad = (uint64_t)REG32(MEMPAT_FIRST_BAD_HI) << 32 | REG32(MEMPAT_FIRST_BAD_LO);
    return bad;
}

/* The seed that makes the engine write the k (1..8) bytes at b to addr, all in one 8-byte word. */
static uint64_t word_seed(uint64_t addr, const uint8_t *b, uint32_t k) {
    uint32_t lo = 0, hi = 0;
    /* the bytes from addr on are bytes addr%8.. of the word */
    uint32_t sh = 8u * (uint32_t)(addr & 7u);
    for (uint32_t i = 0; i < k; i++, sh += 8u) {
        if (sh < 32u)
            lo |= (uint32_t)b[i] << sh;
        else
            hi |= (uint32_t)b[i] << (sh - 32u);
    }
    return qpx_pat_seed_for_word(addr, (uint64_t)hi << 32 | lo);
}

/* Bytes of [addr, addr+left) in addr's 8-byte word. */
static uint32_t word_len(uint64_t addr, uint32_t left) {
    uint32_t k = 8u - (uint32_t)(addr & 7u);
    return k < left ? k : left;
}

int qpx_mem_write(uint64_t addr, const uint8_t *b, uint32_t n, const char **err) {
    if (n == 0) return 0;
    if (engine_ready(err) != 0) return -1;
    uint32_t k = word_len(addr, n);
    uint64_t seed = word_seed(addr, b, k);
    for (uint32_t off = 0;;) {
        start(addr + off, k, seed, 0);
        /* the next word's seed while the engine writes this one */
        uint32_t next = off + k, k2 = next < n ? word_len(addr + next, n - next) : 0;
        uint64_t seed2 = k2 ? word_seed(addr + next, b + next, k2) : 0;
        if (run_end("the on-board memory answered a write with an error", err) != 0) return -1;
        if (!k2) return 0;
        off = next;
        k = k2;
        seed = seed2;
    }
}

int qpx_mem_write_byte(uint64_t addr, uint8_t v, const char **err) {
    return qpx_mem_write(addr, &v, 1, err);
}

int qpx_mem_fill_chk(uint64_t addr, uint32_t len, const char **err) {
    uint8_t b[256];
    uint32_t off = 0;
    while (off < len) { /* chunks end on 8-byte words: one engine run per word */
        uint32_t k = (uint32_t)sizeof b - (uint32_t)((addr + off) & 7u);
        if (k > len - off) k = len - off;
        for (uint32_t i = 0; i < k; i++)
            b[i] = (off + i) % 4096u == 0 ? 0x00u : 0x7bu;
        if (qpx_mem_write(addr + off, b, k, err) != 0) return -1;
        off += k;
    }
    return 0;
}

int qpx_mem_watch_start(uint64_t addr, uint8_t v) {
    if (!qpx_mem_present() || (REG32(MEMPAT_STATUS) & MEMPAT_STATUS_BUSY_MASK)) return -1;
    start(addr, 1, qpx_pat_seed_for_byte(addr, v), 1);
    return 0;
}

int qpx_mem_watch_result(void) {
    uint32_t st = REG32(MEMPAT_STATUS);
    if (st & MEMPAT_STATUS_BUSY_MASK) return -1;
    if (st & MEMPAT_STATUS_DMA_STATUS_MASK) return -2;
    return REG32(MEMPAT_ERR_COUNT) == 0 ? 1 : 0;
}
#endif
