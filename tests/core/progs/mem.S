/* mem.S: loads and stores: every size and sign at every byte offset (in the
 * data RAM and in the instruction BRAM), negative offsets, stores of each
 * size read back, load-use and store-data forwarding, loads into x0, fence,
 * and fence.i after code modified through the data port.
 */
#include "env.h"

    .text
    .globl main
main:
    /* ---- lb/lbu at every byte, lh/lhu at every half, lw at every word:
     * once from .data (data RAM) and once from .rodata (instruction BRAM) */
    la s0, dat
    call loads
    la s0, rodat
    call loads

    SIGI 0x11111111
    /* ---- negative and large offsets */
    la s0, dat + 8
    lw a0, -8(s0)
    SIG a0
    lw a0, -4(s0)
    SIG a0
    lb a0, -5(s0)
    SIG a0
    lhu a0, -2(s0)
    SIG a0
    la s1, big
    addi s2, s1, 2047
    lw a0, -2047(s2)
    SIG a0
    lw a0, 2044(s1)
    SIG a0

    SIGI 0x22222222
    /* ---- stores of each size at each offset, read back as words */
    la s0, buf
    li a0, 0x11223344
    li a1, 0xa5b6c7d8
    sw a0, 0(s0)
    sw a0, 4(s0)
    sw a0, 8(s0)
    sw a0, 12(s0)
    sb a1, 0(s0)
    sb a1, 5(s0)
    sb a1, 10(s0)
    sb a1, 15(s0)
    lw t0, 0(s0)
    SIG t0
    lw t0, 4(s0)
    SIG t0
    lw t0, 8(s0)
    SIG t0
    lw t0, 12(s0)
    SIG t0
    sh a1, 0(s0)
    sh a1, 6(s0)
    li a2, 0x1ff         /* only the low byte / half is stored */
    sb a2, 8(s0)
    li a2, 0x1fffe
    sh a2, 12(s0)
    lw t0, 0(s0)
    SIG t0
    lw t0, 4(s0)
    SIG t0
    lw t0, 8(s0)
    SIG t0
    lw t0, 12(s0)
    SIG t0
    lhu t0, 12(s0)
    SIG t0
    lh t0, 6(s0)
    SIG t0

    SIGI 0x33333333
    /* ---- forwarding around memory */
    la s0, buf
    li a0, 1234
    sw a0, 16(s0)           /* store data from M */
    lw a1, 16(s0)
    addi a2, a1, 1          /* load-use */
    SIG a2
    lw a3, 16(s0)
    sw a3, 20(s0)           /* loaded value is stored right away */
    lw a4, 20(s0)
    SIG a4
    lw a5, 16(s0)
    add a6, a5, a5          /* load-use on both operands */
    SIG a6
    lw a5, 16(s0)
    nop
    add a6, a5, a1          /* one instruction between */
    SIG a6
    addi t0, s0, 24         /* address from the previous instruction */
    sw a0, 0(t0)
    lw t1, 0(t0)
    SIG t1
    la t2, ptrs
    lw t3, 0(t2)            /* pointer chase: the loaded value is the next address */
    lw t3, 0(t3)
    lw t3, 0(t3)
    SIG t3
    lw t4, 0(s0)
    lw t4, 4(s0)            /* same rd twice */
    SIG t4
    lw x0, 0(s0)            /* x0 stays 0, also for the next instruction */
    add t5, x0, x0
    SIG t5
    lbu s3, 8(s0)
    beq s3, zero, 1f        /* load-use into a branch */
    SIGI 0x600d
1:  lb s3, 15(s0)
    j 2f
2:

    SIGI 0x44444444
    /* ---- many back-to-back accesses */
    la s0, buf
    li t0, 0
    li t1, 16
3:  slli t2, t0, 2
    add t2, t2, s0
    sw t0, 32(t2)
    addi t0, t0, 1
    bne t0, t1, 3b
    li t0, 0
    li a0, 0
4:  slli t2, t0, 2
    add t2, t2, s0
    lw t3, 32(t2)
    lw t4, 36(t2)
    add a0, a0, t3
    xor a0, a0, t4
    addi t0, t0, 1
    li t5, 15
    bne t0, t5, 4b
    SIG a0

    SIGI 0x55555555
    /* ---- fences are no-ops; fence.i makes modified code visible */
    li a0, 7
    fence
    fence rw, rw
    fence r, w
    fence.i
    addi a0, a0, 1
    SIG a0
    la s0, smc_slot
    call smc_slot           /* original: a0 = 1 */
    SIG a0
    li t0, 0x00200513       /* addi a0, zero, 2 */
    sw t0, 0(s0)
    fence.i
    call smc_slot
    SIG a0
    li t0, 0x00300513       /* addi a0, zero, 3 */
    sw t0, 0(s0)
    fence.i
    jalr ra, 0(s0)
    SIG a0

    TEST_END

/* Loads of every kind from 16 bytes at s0. */
loads:
    .irp off, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    lb t0, \off(s0)
    SIG t0
    lbu t0, \off(s0)
    SIG t0
    .endr
    .irp off, 0, 2, 4, 6, 8, 10, 12, 14
    lh t0, \off(s0)
    SIG t0
    lhu t0, \off(s0)
    SIG t0
    .endr
    .irp off, 0, 4, 8, 12
    lw t0, \off(s0)
    SIG t0
    .endr
    ret

/* Code modified by the test. */
    .balign 4
smc_slot:
    addi a0, zero, 1
    ret

    .section .rodata
    .balign 4
rodat:
    .word 0x807f01ff, 0x00ff8000, 0x7fff8001, 0xfedcba98

    .data
    .balign 4
dat:
    .word 0x80ff7f01, 0x8000ffff, 0x12345678, 0xfedcba98
ptrs:
    .word ptrs + 4, ptrs + 8, 0x5eed5eed
big:
    .word 0xb00b0001
    .fill 510, 4, 0
    .word 0xb16b16b1   /* big + 2044 */
    .section .bss
    .balign 4
buf:
    .space 256
