/* fill / verify / dump: the on-board memory's fill/check engine (regs/mempat.toml,
 * rtl/mem/mem_pattern.sv). The pattern is a pure function of (seed, byte
 * address): a range filled on one NIC and moved by RDMA to the same address on
 * another NIC verifies there with the same seed. */
#include <solonic_regs.h>
#include <stdio.h>

#include "console.h"
#include "roce/qpx_mem.h"
#include "timer.h"

/* The engine is there (qpx_mem_present), or 0 after saying it is not. */
static int pat_present(const char *cmd) {
    if (qpx_mem_present()) return 1;
    printf("%s: no fill/check engine in this SoC\n", cmd);
    return 0;
}

/* One run (qpx_mem_run): the status register, or -1 after saying why. */
static int pat_run(const char *cmd, uint32_t mode, uint32_t addr, uint32_t len, uint32_t seed) {
    const char *err;
    int st = qpx_mem_run(addr, len, seed, mode, &err);
    if (st < 0) printf("%s: %s\n", cmd, err);
    return st;
}

static int parse_common(int argc, char **argv, uint32_t *addr, uint32_t *len, uint32_t *seed) {
    const char *cmd = argv[0];
    if (argc < 3 || argc > 4) {
        printf("%s: expected ADDR LEN [SEED] (see 'help %s')\n", cmd, cmd);
        return -1;
    }
    *seed = 1;
    if (con_parse_u32(cmd, "ADDR", argv[1], addr) || con_parse_u32(cmd, "LEN", argv[2], len) ||
        (argc > 3 && con_parse_u32(cmd, "SEED", argv[3], seed)))
        return -1;
    if (*len == 0 || *len > 0x40000000u) {
        printf("%s: LEN must be 1..1073741824 bytes, got %lu\n", cmd, (unsigned long)*len);
        return -1;
    }
    if ((uint64_t)*addr + *len > 0x100000000ull) {
        printf("%s: ADDR + LEN goes past 4 GiB\n", cmd);
        return -1;
    }
    return 0;
}

static void report_rate(uint32_t len, uint32_t cycles) {
    uint32_t hz = tmr_clk_hz();
    /* Gb/s with two decimals: bits * hz / cycles / 1e9 */
    uint64_t centi = cycles ? ((uint64_t)len * 8u * (hz / 1000u) / cycles) / 10000u : 0;
    printf("%lu bytes in %lu cycles (%lu.%02lu Gb/s at %lu MHz)\n", (unsigned long)len,
           (unsigned long)cycles, (unsigned long)(centi / 100), (unsigned long)(centi % 100),
           (unsigned long)(hz / 1000000u));
}

static int cmd_fill(int argc, char **argv) {
    uint32_t addr, len, seed;
    if (parse_common(argc, argv, &addr, &len, &seed) || !pat_present("fill")) return CON_ERR;
    int st = pat_run("fill", 0, addr, len, seed);
    if (st < 0) return CON_ERR;
    if (st & MEMPAT_STATUS_DMA_STATUS_MASK) {
        printf("fill: the memory answered with an error (AXI %lu)\n",
               (unsigned long)((st & MEMPAT_STATUS_DMA_STATUS_MASK) >> MEMPAT_STATUS_DMA_STATUS_SHIFT));
        return CON_ERR;
    }
    printf("fill: 0x%08lx + 0x%lx seed %lu: ", (unsigned long)addr, (unsigned long)len,
           (unsigned long)seed);
    report_rate(len, REG32(MEMPAT_CYCLES));
    return CON_OK;
}
CON_COMMAND(fill, "ADDR LEN [SEED]", "fill on-board memory with the seeded pattern (line rate)", cmd_fill);

static int cmd_verify(int argc, char **argv) {
    uint32_t addr, len, seed;
    if (parse_common(argc, argv, &addr, &len, &seed) || !pat_present("verify")) return CON_ERR;
    int st = pat_run("verify", 1, addr, len, seed);
    if (st < 0) return CON_ERR;
    uint32_t bad = REG32(MEMPAT_ERR_COUNT);
    if (st & MEMPAT_STATUS_DMA_STATUS_MASK) {
        printf("verify: the memory answered with an error (AXI %lu)\n",
               (unsigned long)((st & MEMPAT_STATUS_DMA_STATUS_MASK) >> MEMPAT_STATUS_DMA_STATUS_SHIFT));
        return CON_ERR;
    }
    if (bad) {
        printf("verify: FAILED: %lu of %lu bytes differ, first at 0x%08lx\n", (unsigned long)bad,
               (unsigned long)len, (unsigned long)REG32(MEMPAT_FIRST_BAD_LO));
        return CON_ERR;
    }
    printf("verify: 0x%08lx + 0x%lx seed %lu: all bytes match; ", (unsigned long)addr,
           (unsigned long)len, (unsigned long)seed);
    report_rate(len, REG32(MEMPAT_CYCLES));
    return CON_OK;
}
CON_COMMAND(verify, "ADDR LEN [SEED]", "check on-board memory against the seeded pattern", cmd_verify);

/* dump: on-board memory bytes, 16 a line, read through the engine's check (qpx_mem_read). */
#define DUMP_MAX 4096u
static int cmd_dump(int argc, char **argv) {
    uint32_t addr, len = 64;
    if (argc < 2 || argc > 3) {
        printf("dump: expected ADDR [LEN] (see 'help dump')\n");
        return CON_ERR;
    }
    if (con_parse_u32("dump", "ADDR", argv[1], &addr) ||
        (argc > 2 && con_parse_u32("dump", "LEN", argv[2], &len)))
        return CON_ERR;
    if (len == 0 || len > DUMP_MAX) {
        printf("dump: LEN must be 1..%u bytes, got %lu\n", DUMP_MAX, (unsigned long)len);
        return CON_ERR;
    }
    if ((uint64_t)addr + len > 0x100000000ull) {
        printf("dump: ADDR + LEN goes past 4 GiB\n");
        return CON_ERR;
    }
    if (!pat_present("dump")) return CON_ERR;
    for (uint32_t off = 0; off < len; off += QPX_MEM_READ_MAX) {
        uint32_t n = len - off < QPX_MEM_READ_MAX ? len - off : QPX_MEM_READ_MAX;
        uint8_t b[QPX_MEM_READ_MAX];
        const char *err;
        if (qpx_mem_read(addr + off, n, b, &err) != 0) {
            printf("dump: at 0x%08lx: %s\n", (unsigned long)(addr + off), err);
            return CON_ERR;
        }
        printf("%08lx:", (unsigned long)(addr + off));
        for (uint32_t i = 0; i < n; i++)
            printf(" %02x", b[i]);
        printf("%*s  ", (int)(3u * (QPX_MEM_READ_MAX - n)), "");
        for (uint32_t i = 0; i < n; i++)
            putchar(b[i] >= 0x20 && b[i] < 0x7f ? b[i] : '.');
        printf("\n");
        if (con_interrupted()) {
            printf("dump: interrupted (Ctrl-C)\n");
            return CON_ERR;
        }
    }
    return CON_OK;
}
CON_COMMAND(dump, "ADDR [LEN]", "print on-board memory bytes (hex and text; LEN 1..4096, default 64)",
            cmd_dump);
