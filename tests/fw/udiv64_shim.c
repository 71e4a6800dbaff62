/* Host stand-ins for libgcc's 64-bit division behind bsp/udiv64.c's fast path
 * (tests/fw/test_udiv64.py): the division itself, and a count of the calls that
 * reached them. */
#include <stdint.h>

uint64_t host_real_udiv(uint64_t a, uint64_t b);
uint64_t host_real_umod(uint64_t a, uint64_t b);
uint32_t host_real_calls(void);

static uint32_t calls;

uint64_t host_real_udiv(uint64_t a, uint64_t b) {
    calls++;
    return b ? a / b : ~0ull;
}

uint64_t host_real_umod(uint64_t a, uint64_t b) {
    calls++;
    return b ? a % b : a;
}

uint32_t host_real_calls(void) {
    return calls;
}
