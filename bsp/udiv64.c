/*
 * 64-bit unsigned division for an RV32IM core: a fast path in front of libgcc's
 * __udivdi3 / __umoddi3 (the link wraps them: -Wl,--wrap=..., fw/rules.mk).
 *
 * picolibc's printf keeps every integer it converts in 64 bits, so each digit of
 * each number printed costs one 64-bit quotient and one remainder; libgcc's
 * general routine takes a few hundred cycles on this core. When dividend and
 * divisor both fit in 32 bits (nearly always: every 32-bit value printed, most
 * counters) one DIVU / REMU gives the answer. Anything else, and division by zero,
 * goes to libgcc unchanged.
 */
#include <stdint.h>

uint64_t __real___udivdi3(uint64_t a, uint64_t b);
uint64_t __real___umoddi3(uint64_t a, uint64_t b);
uint64_t __wrap___udivdi3(uint64_t a, uint64_t b);
uint64_t __wrap___umoddi3(uint64_t a, uint64_t b);

static inline int fits32(uint64_t a, uint64_t b) {
    return ((a | b) >> 32) == 0 && b != 0;
}

uint64_t __wrap___udivdi3(uint64_t a, uint64_t b) {
    if (fits32(a, b)) return (uint32_t)a / (uint32_t)b;
    return __real___udivdi3(a, b);
}

uint64_t __wrap___umoddi3(uint64_t a, uint64_t b) {
    if (fits32(a, b)) return (uint32_t)a % (uint32_t)b;
    return __real___umoddi3(a, b);
}
