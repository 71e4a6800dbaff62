// mem_pattern_ref: the C++ reference of the seeded test pattern of mem_pattern
// (mem_pkg::pat_word). The byte at address A for seed S is byte A mod 8
// (little endian) of mem_pattern_word(S, A / 8): a pure function of (S, A).
#pragma once
#include <cstddef>
#include <cstdint>

static inline uint64_t mem_pattern_xorshift(uint64_t x) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

static inline uint64_t mem_pattern_word(uint64_t seed, uint64_t word) {
    uint64_t x = mem_pattern_xorshift((seed ^ word) + 0x9E3779B97F4A7C15ull);
    return mem_pattern_xorshift(x + 0xD1B54A32D192ED03ull);
}

static inline uint8_t mem_pattern_byte(uint64_t seed, uint64_t addr) {
    return (uint8_t)(mem_pattern_word(seed, addr >> 3) >> (8 * (addr & 7)));
}

// buf[i] = the pattern byte of address addr + i
static inline void mem_pattern_fill(uint64_t seed, uint64_t addr, uint8_t *buf, size_t len) {
    for (size_t i = 0; i < len; i++)
        buf[i] = mem_pattern_byte(seed, addr + i);
}
