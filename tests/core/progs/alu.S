/* alu.S: RV32I integer computation: every register-register and
 * register-immediate operation over a table of edge values (0, 1, -1,
 * INT_MIN, INT_MAX, shift amounts 0/1/31/32/33 in rs2), lui, auipc, writes to
 * x0, and forwarding chains. Results go to the signature (compared with QEMU).
 */
#include "env.h"

#define NVALS 12    /* words in vals */

    .text
    .globl main
main:
    /* ---- register-register ops over all pairs (a, b) of vals */
    la s0, vals
    li s1, 0
1:  slli t0, s1, 2
    add t0, s0, t0
    lw a0, 0(t0)
    li s2, 0
2:  slli t1, s2, 2
    add t1, s0, t1
    lw a1, 0(t1)
    add a2, a0, a1
    SIG a2
    sub a2, a0, a1
    SIG a2
    sll a2, a0, a1
    SIG a2
    slt a2, a0, a1
    SIG a2
    sltu a2, a0, a1
    SIG a2
    xor a2, a0, a1
    SIG a2
    srl a2, a0, a1
    SIG a2
    sra a2, a0, a1
    SIG a2
    or a2, a0, a1
    SIG a2
    and a2, a0, a1
    SIG a2
    addi s2, s2, 1
    li t2, NVALS
    blt s2, t2, 2b
    addi s1, s1, 1
    blt s1, t2, 1b

    /* ---- register-immediate ops: each value with edge immediates */
    li s1, 0
3:  slli t0, s1, 2
    add t0, s0, t0
    lw a0, 0(t0)
    .irp imm, 0, 1, -1, 2047, -2048, 0x555, -0x556
    addi a2, a0, \imm
    SIG a2
    slti a2, a0, \imm
    SIG a2
    sltiu a2, a0, \imm
    SIG a2
    xori a2, a0, \imm
    SIG a2
    ori a2, a0, \imm
    SIG a2
    andi a2, a0, \imm
    SIG a2
    .endr
    .irp sh, 0, 1, 5, 17, 31
    slli a2, a0, \sh
    SIG a2
    srli a2, a0, \sh
    SIG a2
    srai a2, a0, \sh
    SIG a2
    .endr
    addi s1, s1, 1
    li t2, NVALS
    blt s1, t2, 3b

    SIGI 0x11111111
    /* ---- lui, auipc */
    .irp u, 0, 1, 0x7ffff, 0x80000, 0xfffff, 0x12345
    lui a0, \u
    SIG a0
    .endr
    /* auipc relative to its own address (the link address differs per platform) */
4:  auipc a0, 0x12345
    la a1, 4b
    sub a0, a0, a1
    SIG a0
5:  auipc a0, 0
    la a1, 5b
    sub a0, a0, a1
    SIG a0
6:  auipc a0, 0xfffff
    la a1, 6b
    sub a0, a0, a1
    SIG a0

    SIGI 0x22222222
    /* ---- x0 is never written, also not through forwarding */
    li a0, 0x5a5a5a5a
    addi x0, x0, 123
    SIG x0
    add x0, a0, a0
    SIG x0
    add a1, x0, x0
    SIG a1
    lui x0, 0x12345
    addi a1, x0, 1
    SIG a1
    xori x0, a0, -1
    sub a1, a0, x0
    SIG a1
    sltiu x0, x0, 1
    or a1, x0, x0
    SIG a1
    la t0, vals
    lw x0, 4(t0)
    mv a1, x0
    SIG a1

    SIGI 0x33333333
    /* ---- forwarding: the youngest producer wins; chains; rd == rs */
    li a0, 1
    li a0, 2
    add a1, a0, a0          /* 4: from M (youngest), not W */
    SIG a1
    li a0, 3
    li a2, 10
    add a1, a0, a0          /* 6: from W */
    SIG a1
    li a0, 5
    add a0, a0, a0
    add a0, a0, a0
    add a0, a0, a0          /* 40 */
    SIG a0
    li a3, 7
    nop
    nop
    add a1, a3, a3          /* from the register file */
    SIG a1
    li a4, -1
    sub a5, x0, a4          /* rs2 forwarded: 1 */
    sub a5, a5, a4          /* 2 */
    sra a6, a4, a5
    SIG a5
    SIG a6
    li s3, 0x80000000
    srai s3, s3, 4
    srli s4, s3, 28
    sltu s5, s4, s3
    SIG s3
    SIG s4
    SIG s5

    TEST_END

    .section .rodata
    .balign 4
vals:
    .word 0x00000000, 0x00000001, 0xffffffff, 0x7fffffff
    .word 0x80000000, 0x80000001, 0x12345678, 0xfedcba98
    .word 0x0000001f, 0x00000020, 0x00000021, 0xaaaaaaaa


