/* Byte, halfword and word stores and loads (with sign extension) on DMEM and
   on IMEM through the data port. Expected values are worked out by hand. */
#include "soc_test.h"

uint32_t on_trap(struct trap *t) {
    put_str("FAIL unexpected trap, mcause 0x");
    put_hex(t->mcause);
    put_char('\n');
    soc_exit(99);
}

static void one(const char *where, uintptr_t base) {
    volatile uint32_t *w = (volatile uint32_t *)base;
    volatile uint16_t *h = (volatile uint16_t *)base;
    volatile uint8_t *b = (volatile uint8_t *)base;
    volatile int16_t *sh = (volatile int16_t *)base;
    volatile int8_t *sb = (volatile int8_t *)base;
    put_str(where);
    put_char('\n');
    w[0] = 0x11223344u;
    w[1] = 0x55667788u;
    b[1] = 0xaa;                       /* byte lane 1 */
    check("word after sb to byte 1", 0x1122aa44u, w[0]);
    b[3] = 0x80;
    check("word after sb to byte 3", 0x8022aa44u, w[0]);
    h[3] = 0xbeef;                     /* upper half of word 1 */
    check("word after sh to the upper half", 0xbeef7788u, w[1]);
    h[2] = 0x0102;
    check("word after sh to the lower half", 0xbeef0102u, w[1]);
    check("lbu byte 1", 0xaa, b[1]);
    check("lb byte 1 (sign extended)", 0xffffffaau, (uint32_t)(int32_t)sb[1]);
    check("lb byte 0", 0x44, (uint32_t)(int32_t)sb[0]);
    check("lhu half 3", 0xbeef, h[3]);
    check("lh half 3 (sign extended)", 0xffffbeefu, (uint32_t)(int32_t)sh[3]);
    check("lh half 2", 0x0102, (uint32_t)(int32_t)sh[2]);
    check("word 1 untouched by byte stores to word 0", 0xbeef0102u, w[1]);
    w[2] = 0;
    for (int i = 0; i < 4; i++) b[8 + i] = (uint8_t)(0x10 + i);
    check("word from four byte stores", 0x13121110u, w[2]);
}

int main(void) {
    one("DMEM", 0x10020000u);
    one("DMEM top", 0x10040000u - 12);
    one("IMEM", 0x00030000u);
    one("IMEM top", 0x00040000u - 12);
    put_str(soc_fails ? "soc_mem: FAILED\n" : "soc_mem: ok\n");
    return soc_fails ? 1 : 0;
}
