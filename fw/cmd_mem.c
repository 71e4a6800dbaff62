/* mem rd / mem wr: word access to the mapped address space, checked. */
#include <solonic_regs.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "trap.h"

#define MEM_RD_MAX 256u /* words one 'mem rd' prints */
#define MEM_WORDS_PER_LINE 4u

struct mem_region {
    uint32_t base;
    uint32_t size; /* 0: read from sysinfo at run time */
    uint32_t size_reg;
    const char *name;
};

#define SOC_BLOCK_BYTES 0x1000u

/* The address map of docs/DEVELOPING.md (datapath blocks join when they exist). */
static const struct mem_region mem_map[] = {
    {0x00000000u, 0, SYSINFO_IMEM_BYTES, "IMEM"},  {0x10000000u, 0, SYSINFO_DMEM_BYTES, "DMEM"},
    {SYSINFO_BASE, SOC_BLOCK_BYTES, 0, "sysinfo"}, {UART_BASE, SOC_BLOCK_BYTES, 0, "uart"},
    {TIMER_BASE, SOC_BLOCK_BYTES, 0, "timer"},     {SIMCTRL_BASE, SOC_BLOCK_BYTES, 0, "simctrl"},
    {WDOG_BASE, SOC_BLOCK_BYTES, 0, "wdog"},
};

static uint32_t region_size(const struct mem_region *r) {
    return r->size ? r->size : REG32(r->size_reg);
}

static const struct mem_region *mem_lookup(uint32_t addr) {
    for (size_t i = 0; i < sizeof(mem_map) / sizeof(mem_map[0]); i++) {
        const struct mem_region *r = &mem_map[i];
        if (addr >= r->base && addr - r->base < region_size(r)) return r;
    }
    return NULL;
}

/* Checks ADDR and a span of words; prints what is wrong and returns -1. */
static int mem_check(uint32_t addr, uint32_t words) {
    const struct mem_region *r = mem_lookup(addr);

    if (!r) {
        printf("mem: address 0x%08lx is not mapped (see 'help mem')\n", (unsigned long)addr);
        return -1;
    }
    if (addr & 3u) {
        printf("mem: address 0x%08lx is not word aligned (a multiple of 4)\n", (unsigned long)addr);
        return -1;
    }
    uint32_t room = (r->base + region_size(r) - addr) / 4u;
    if (words > room) {
        printf(
            "mem: %lu words from 0x%08lx run past the end of %s (0x%08lx..0x%08lx): at most %lu\n",
            (unsigned long)words, (unsigned long)addr, r->name, (unsigned long)r->base,
            (unsigned long)(r->base + region_size(r) - 1u), (unsigned long)room);
        return -1;
    }
    return 0;
}

static void mem_fault(const char *op, uint32_t addr, uint32_t cause) {
    printf("mem: %s 0x%08lx failed: %s\n", op, (unsigned long)addr, trap_cause_name(cause));
}

static int mem_rd(int argc, char **argv) {
    uint32_t addr, n = 1, v, cause;

    if (argc < 3 || argc > 4) {
        printf("mem rd: expected ADDR [N]\n");
        return CON_ERR;
    }
    if (con_parse_u32("mem rd", "ADDR", argv[2], &addr) != 0) return CON_ERR;
    if (argc == 4) {
        if (con_parse_u32("mem rd", "N", argv[3], &n) != 0) return CON_ERR;
        if (n < 1 || n > MEM_RD_MAX) {
            printf("mem rd: N: expected 1..%u words, got %lu\n", MEM_RD_MAX, (unsigned long)n);
            return CON_ERR;
        }
    }
    if (mem_check(addr, n) != 0) return CON_ERR;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = addr + 4u * i;
        if (i % MEM_WORDS_PER_LINE == 0) printf("%08lx:", (unsigned long)a);
        if (trap_probe_read32(a, &v, &cause) != 0) {
            printf("\n");
            mem_fault("reading", a, cause);
            return CON_ERR;
        }
        printf(" %08lx", (unsigned long)v);
        if (i % MEM_WORDS_PER_LINE == MEM_WORDS_PER_LINE - 1 || i == n - 1) printf("\n");
    }
    return CON_OK;
}

static int mem_wr(int argc, char **argv) {
    uint32_t addr, v, cause;

    if (argc != 4) {
        printf("mem wr: expected ADDR VALUE\n");
        return CON_ERR;
    }
    if (con_parse_u32("mem wr", "ADDR", argv[2], &addr) != 0 ||
        con_parse_u32("mem wr", "VALUE", argv[3], &v) != 0)
        return CON_ERR;
    if (mem_check(addr, 1) != 0) return CON_ERR;
    if (trap_probe_write32(addr, v, &cause) != 0) {
        mem_fault("writing", addr, cause);
        return CON_ERR;
    }
    return CON_OK;
}

static int cmd_mem(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "rd") == 0) return mem_rd(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "wr") == 0) return mem_wr(argc, argv);
    if (argc >= 2)
        printf("mem: expected 'rd' or 'wr', got '%s' (see 'help mem')\n", argv[1]);
    else
        printf("mem: expected 'rd' or 'wr' (see 'help mem')\n");
    return CON_ERR;
}

static void mem_help_more(void) {
    printf("  ADDR and VALUE: decimal or 0x hex; ADDR a multiple of 4 inside one of:\n");
    for (size_t i = 0; i < sizeof(mem_map) / sizeof(mem_map[0]); i++) {
        const struct mem_region *r = &mem_map[i];
        printf("    0x%08lx..0x%08lx  %s\n", (unsigned long)r->base,
               (unsigned long)(r->base + region_size(r) - 1u), r->name);
    }
}
CON_COMMAND_MORE(mem, "rd ADDR [N] | wr ADDR VALUE",
                 "read N words (1..256, default 1) or write one word", cmd_mem, mem_help_more);
