/* cpi.c: compute kernels whose cycles per instruction the bench reports
 * (PERF tags) and tests/core/group.py bounds; their results go to the
 * signature (compared with QEMU).
 *   tag 1  bitwise CRC-32 over 256 bytes (ALU and branches)
 *   tag 2  word copy of 1 KiB, unrolled by 4 (loads and stores)
 *   tag 3  Fletcher-style checksum over 1 KiB (load-use chains)
 *   tag 4  multiply-accumulate over 256 words (multiplies)
 */
#include "env.h"

#define NWORDS 256

static uint32_t src[NWORDS];
static uint32_t dst[NWORDS];

static uint32_t crc32(const uint8_t *p, uint32_t n)
{
    uint32_t crc = 0xffffffffu;
    for (uint32_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

static void copy_words(uint32_t *d, const uint32_t *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i += 4) {
        uint32_t a = s[i], b = s[i + 1], c = s[i + 2], e = s[i + 3];
        d[i] = a;
        d[i + 1] = b;
        d[i + 2] = c;
        d[i + 3] = e;
    }
}

static uint32_t fletcher(const uint32_t *p, uint32_t n)
{
    uint32_t s1 = 0, s2 = 0;
    for (uint32_t i = 0; i < n; i++) {
        s1 += p[i];
        s2 += s1;
    }
    return s1 ^ (s2 << 1);
}

static uint32_t mac(const uint32_t *a, const uint32_t *b, uint32_t n)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; i++) {
        acc += a[i] * b[i];
    }
    return acc;
}

#define MEASURE(tag, expr, out)                                                \
    do {                                                                       \
        uint32_t c0_ = rd_mcycle(), i0_ = rd_minstret();                      \
        out = (expr);                                                          \
        uint32_t c1_ = rd_mcycle(), i1_ = rd_minstret();                      \
        perf_report(tag, c1_ - c0_, i1_ - i0_);                                \
    } while (0)

static uint32_t copy_and_sum(void)
{
    copy_words(dst, src, NWORDS);
    return dst[0] ^ dst[NWORDS - 1] ^ dst[NWORDS / 2];
}

int main(void)
{
    uint32_t x = 1;
    for (int i = 0; i < NWORDS; i++) {
        x = x * 1664525u + 1013904223u;
        src[i] = x;
    }
    uint32_t r;
    MEASURE(1, crc32((const uint8_t *)src, 256), r);
    sig(r);
    MEASURE(2, copy_and_sum(), r);
    sig(r);
    MEASURE(3, fletcher(dst, NWORDS), r);
    sig(r);
    MEASURE(4, mac(src, dst, NWORDS), r);
    sig(r);
    return 0;
}
