/* rand.c: every RV32IM register-register operation on pseudo-random operand
 * pairs (xorshift32, fixed seed), a quarter of them edge values. The
 * instructions are issued with inline asm so the compiler cannot fold them.
 */
#include "env.h"

#define N_PAIRS 100

#define OP(name, a, b)                                                         \
    do {                                                                       \
        uint32_t r_;                                                           \
        __asm__ volatile(name " %0, %1, %2" : "=r"(r_) : "r"(a), "r"(b));     \
        sig(r_);                                                               \
    } while (0)

static uint32_t state = 0x2545f491u;

static uint32_t next(void)
{
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
}

static const uint32_t edges[8] = {
    0x00000000u, 0x00000001u, 0xffffffffu, 0x80000000u,
    0x7fffffffu, 0x0000001fu, 0x00000020u, 0xfffffffeu,
};

static uint32_t operand(void)
{
    uint32_t r = next();
    if ((r & 3u) == 0u) {
        return edges[(r >> 2) & 7u];
    }
    return next();
}

int main(void)
{
    for (int i = 0; i < N_PAIRS; i++) {
        uint32_t a = operand();
        uint32_t b = operand();
        OP("add", a, b);
        OP("sub", a, b);
        OP("sll", a, b);
        OP("slt", a, b);
        OP("sltu", a, b);
        OP("xor", a, b);
        OP("srl", a, b);
        OP("sra", a, b);
        OP("or", a, b);
        OP("and", a, b);
        OP("mul", a, b);
        OP("mulh", a, b);
        OP("mulhsu", a, b);
        OP("mulhu", a, b);
        OP("div", a, b);
        OP("divu", a, b);
        OP("rem", a, b);
        OP("remu", a, b);
    }
    return 0;
}
