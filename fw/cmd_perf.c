/* Performance of the soft core itself: 'cpi' runs compute loops and reports the
 * core's cycles per instruction from mcycle/minstret (used by 'make bench'). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "csr.h"
#include "noinit.h"

NOINIT(cpi_buf) static uint8_t cpi_buf[4096];

/* Bitwise CRC-32 (reflected, polynomial 0xEDB88320): branchy ALU work. */
static uint32_t crc32_bitwise(const uint8_t *p, uint32_t n) {
    uint32_t crc = 0xffffffffu;
    for (uint32_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* Word copy and sum: load/store work. */
static uint32_t copy_sum(uint32_t *dst, const uint32_t *src, uint32_t words) {
    uint32_t s = 0;
    for (uint32_t i = 0; i < words; i++) {
        dst[i] = src[i];
        s += src[i];
    }
    return s;
}

struct cpi_run {
    uint32_t cycles, insns;
};

static struct cpi_run measure_crc(uint32_t kib) {
    uint32_t c0 = CSR_READ(mcycle), i0 = CSR_READ(minstret);
    uint32_t acc = 0;
    for (uint32_t k = 0; k < kib; k++) acc ^= crc32_bitwise(cpi_buf, 1024);
    uint32_t c1 = CSR_READ(mcycle), i1 = CSR_READ(minstret);
    __asm__ volatile("" ::"r"(acc));
    return (struct cpi_run){c1 - c0, i1 - i0};
}

static struct cpi_run measure_copy(uint32_t kib) {
    NOINIT(cpi_dst) static uint32_t dst[1024];
    uint32_t c0 = CSR_READ(mcycle), i0 = CSR_READ(minstret);
    uint32_t acc = 0;
    for (uint32_t k = 0; k < kib; k++) acc += copy_sum(dst, (const uint32_t *)cpi_buf, 1024);
    uint32_t c1 = CSR_READ(mcycle), i1 = CSR_READ(minstret);
    __asm__ volatile("" ::"r"(acc));
    return (struct cpi_run){c1 - c0, i1 - i0};
}

static void report(const char *what, struct cpi_run r) {
    /* CPI with three decimals without floating point */
    uint32_t milli = r.insns ? (uint32_t)(((uint64_t)r.cycles * 1000u + r.insns / 2) / r.insns) : 0;
    printf("cpi %-6s cycles %lu instructions %lu cpi %lu.%03lu\n", what, (unsigned long)r.cycles,
           (unsigned long)r.insns, (unsigned long)(milli / 1000), (unsigned long)(milli % 1000));
}

static int cmd_cpi(int argc, char **argv) {
    uint32_t kib = 4;
    if (argc > 2) {
        printf("cpi: too many arguments (see 'help cpi')\n");
        return CON_ERR;
    }
    if (argc == 2 && con_parse_u32("cpi", "KIB", argv[1], &kib) != 0) return CON_ERR;
    if (kib < 1 || kib > 1024) {
        printf("cpi: KIB must be 1..1024, got %lu\n", (unsigned long)kib);
        return CON_ERR;
    }
    for (uint32_t i = 0; i < sizeof cpi_buf; i++) cpi_buf[i] = (uint8_t)(i * 31u + 7u);
    report("crc32", measure_crc(kib));
    report("copy", measure_copy(kib));
    return CON_OK;
}
CON_COMMAND(cpi, "[KIB]", "measure the core: CRC-32 and word copy over KIB KiB, cycles per instruction",
            cmd_cpi);
