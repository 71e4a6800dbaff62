/* muldiv.S: the M extension over all pairs of edge values (0, 1, -1, 2, -2,
 * INT_MIN, INT_MAX, ...): division by zero, INT_MIN / -1 overflow, high
 * words of signed/unsigned/mixed products; result forwarding after multiply
 * and divide, back-to-back divides, rd = x0 and rd = rs.
 */
#include "env.h"

#define NMV 11

    .text
    .globl main
main:
    la s0, mvals
    li s1, 0
1:  slli t0, s1, 2
    add t0, s0, t0
    lw a0, 0(t0)
    li s2, 0
2:  slli t1, s2, 2
    add t1, s0, t1
    lw a1, 0(t1)
    mul a2, a0, a1
    SIG a2
    mulh a2, a0, a1
    SIG a2
    mulhsu a2, a0, a1
    SIG a2
    mulhu a2, a0, a1
    SIG a2
    div a2, a0, a1
    SIG a2
    divu a2, a0, a1
    SIG a2
    rem a2, a0, a1
    SIG a2
    remu a2, a0, a1
    SIG a2
    addi s2, s2, 1
    li t2, NMV
    blt s2, t2, 2b
    addi s1, s1, 1
    blt s1, t2, 1b

    SIGI 0x11111111
    /* ---- dependencies */
    li a0, 12345
    li a1, -678
    mul a2, a0, a1
    add a3, a2, a2          /* multiply-use */
    SIG a3
    mul a2, a0, a1
    mul a2, a2, a1          /* multiply into multiply */
    SIG a2
    div a4, a0, a1
    add a5, a4, a0          /* divide-use */
    SIG a5
    div a4, a0, a1
    rem a5, a0, a1
    divu a6, a1, a0         /* three divides back to back */
    SIG a4
    SIG a5
    SIG a6
    div a4, a4, a4          /* rd = rs1 = rs2: -18 / -18 */
    SIG a4
    mul x0, a0, a1
    div x0, a0, a1
    add a7, x0, x0
    SIG a7
    li s3, 7
    li s4, 0
    divu s5, s3, s4         /* by zero after a forwarded zero */
    remu s6, s3, s4
    SIG s5
    SIG s6
    lw t0, 0(s0)            /* load-use into a divide and a multiply */
    lw t1, 4(s0)
    div t2, t1, t1
    mul t3, t0, t1
    SIG t2
    SIG t3
    /* a divide whose result a branch tests right away */
    li t0, 100
    li t1, 10
    div t2, t0, t1
    li t4, 10
    beq t2, t4, 3f
    SIGI 0xbad
3:  SIG t2
    /* a divide whose operands were loaded just before: right after the
       load, and with one instruction between (the load's data then
       reaches E one cycle after the divide does) */
    la t5, mvals
    li t1, 10
    lw t0, 28(t5)
    remu t2, t0, t1
    SIG t2
    lbu t0, 28(t5)
    li t3, 0
    remu t2, t0, t1
    divu t4, t0, t1
    SIG t2
    SIG t4
    lw t0, 32(t5)
    li t3, 7
    div t2, t0, t3
    SIG t2
    /* multiply-accumulate loop */
    li a0, 0
    li a1, 1
    li a2, 20
4:  mul a3, a1, a1
    add a0, a0, a3
    addi a1, a1, 1
    ble a1, a2, 4b
    SIG a0

    TEST_END

    .section .rodata
    .balign 4
mvals:
    .word 0x00000000, 0x00000001, 0xffffffff, 0x00000002
    .word 0xfffffffe, 0x80000000, 0x7fffffff, 0x12345678
    .word 0xfedcba98, 0x00000007, 0x80000001
