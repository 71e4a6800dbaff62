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

/* y = x ^ (x << k): x = y ^ (y << k) ^ (y << 2k) ...; the same for >> */
static uint64_t unshl(uint64_t y, unsigned k) {
    uint64_t x = y;
    for (unsigned s = k; s < 64; s += k)
        x = y ^ (x << k);
    return x;
}

static uint64_t unshr(uint64_t y, unsigned k) {
    uint64_t x = y;
    for (unsigned s = k; s < 64; s += k)
        x = y ^ (x >> k);
    return x;
}

static uint64_t unxs(uint64_t x) {
    return unshl(unshr(unshl(x, 17), 7), 13);
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

#define ENGINE_WAIT_MS 1u

static int present = -1;

bool qpx_mem_present(void) {
    if (present < 0) {
        uint32_t id, cause;
        present = trap_probe_read32(MEMPAT_ID, &id, &cause) == 0 && id == MEMPAT_ID_VALUE;
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

/* Wait for the engine to be idle: status, or -1 when it stays busy. */
static int wait_idle(void) {
    uint64_t end = tmr_cycles() + tmr_ms_to_cycles(ENGINE_WAIT_MS);
    uint32_t st;
    while ((st = REG32(MEMPAT_STATUS)) & MEMPAT_STATUS_BUSY_MASK)
        if (tmr_cycles() > end) return -1;
    return (int)st;
}

/* Write len (1..8, within one 8-byte word) bytes of value at addr. */
static int write_word(uint64_t addr, uint32_t len, uint64_t value, const char **err) {
    if (!qpx_mem_present()) {
        *err = "no fill/check engine in this SoC (the firmware cannot write on-board memory)";
        return -1;
    }
    if (wait_idle() < 0) {
        *err = "the fill/check engine stayed busy";
        return -1;
    }
    /* the bytes of value from addr on are bytes addr%8.. of the pattern word */
    start(addr, len, qpx_pat_seed_for_word(addr, value << (8u * (addr & 7u))), 0);
    int st = wait_idle();
    if (st < 0) {
        *err = "the fill/check engine did not finish";
        return -1;
    }
    if (st & MEMPAT_STATUS_DMA_STATUS_MASK) {
        *err = "the on-board memory answered a write with an error";
        return -1;
    }
    return 0;
}

int qpx_mem_read(uint64_t addr, uint32_t len, uint8_t *out, const char **err) {
    if (len == 0 || len > QPX_MEM_READ_MAX) {
        *err = "a read of 1..16 bytes";
        return -1;
    }
    if (!qpx_mem_present()) {
        *err = "no fill/check engine in this SoC (the firmware cannot read on-board memory)";
        return -1;
    }
    if (wait_idle() < 0) {
        *err = "the fill/check engine stayed busy";
        return -1;
    }
    start(addr, len, 0, 1); /* a check of any seed: its peek is the bytes read */
    int st = wait_idle();
    if (st < 0) {
        *err = "the fill/check engine did not finish";
        return -1;
    }
    if (st & MEMPAT_STATUS_DMA_STATUS_MASK) {
        *err = "the on-board memory answered a read with an error";
        return -1;
    }
    static const uint32_t peek[4] = {MEMPAT_PEEK0, MEMPAT_PEEK1, MEMPAT_PEEK2, MEMPAT_PEEK3};
    for (uint32_t i = 0; i < len; i++)
        out[i] = (uint8_t)(REG32(peek[i / 4u]) >> (8u * (i % 4u)));
    return 0;
}

#define ENGINE_RANGE_MS 100u

/* One run over a range: the status, or -1 with *err. */
static int run_range(uint64_t addr, uint32_t len, uint64_t seed, uint32_t mode, const char **err) {
    if (len == 0 || len > 0x40000000u) {
        *err = "a range of 1..2^30 bytes";
        return -1;
    }
    if (!qpx_mem_present()) {
        *err = "no fill/check engine in this SoC";
        return -1;
    }
    if (wait_idle() < 0) {
        *err = "the fill/check engine stayed busy";
        return -1;
    }
    start(addr, len, seed, mode);
    uint64_t end = tmr_cycles() + tmr_ms_to_cycles(ENGINE_RANGE_MS);
    uint32_t st;
    while ((st = REG32(MEMPAT_STATUS)) & MEMPAT_STATUS_BUSY_MASK)
        if (tmr_cycles() > end) {
            *err = "the fill/check engine did not finish";
            return -1;
        }
    if (st & MEMPAT_STATUS_DMA_STATUS_MASK) {
        *err = "the on-board memory answered with an error";
        return -1;
    }
    return (int)st;
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

int qpx_mem_write_byte(uint64_t addr, uint8_t v, const char **err) {
    return write_word(addr, 1, v, err);
}

int qpx_mem_write(uint64_t addr, const uint8_t *b, uint32_t n, const char **err) {
    uint32_t off = 0;
    while (off < n) {
        uint64_t a = addr + off;
        uint32_t k = 8u - (uint32_t)(a & 7u);
        if (k > n - off) k = n - off;
        uint64_t v = 0;
        for (uint32_t i = 0; i < k; i++)
            v |= (uint64_t)b[off + i] << (8u * i);
        if (write_word(a, k, v, err) != 0) return -1;
        off += k;
    }
    return 0;
}

int qpx_mem_fill_chk(uint64_t addr, uint32_t len, const char **err) {
    uint8_t b[64];
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
