/* branch.S: conditional branches over signed/unsigned edge pairs, taken and
 * not taken, forward (predicted not taken) and backward (predicted taken);
 * jal/jalr link values and targets (jalr clears bit 0, rd == rs1); the
 * instructions in the shadow of a taken branch never execute; loops.
 */
#include "env.h"

#define NBV 7

/* a2 = 1 when "op a0, a1" branches forward, else 0 */
.macro BR_FWD op
    li a2, 1
    \op a0, a1, 1f
    li a2, 0
1:  SIG a2
.endm

/* a2 = 1 when "op a0, a1" branches backward, else 0 */
.macro BR_BWD op
    j 2f
1:  li a2, 1
    j 3f
2:  \op a0, a1, 1b
    li a2, 0
3:  SIG a2
.endm

    .text
    .globl main
main:
    la s0, bvals
    li s1, 0
10: slli t0, s1, 2
    add t0, s0, t0
    lw a0, 0(t0)
    li s2, 0
11: slli t1, s2, 2
    add t1, s0, t1
    lw a1, 0(t1)
    .irp op, beq, bne, blt, bge, bltu, bgeu
    BR_FWD \op
    BR_BWD \op
    .endr
    addi s2, s2, 1
    li t2, NBV
    blt s2, t2, 11b
    addi s1, s1, 1
    blt s1, t2, 10b

    SIGI 0x11111111
    /* ---- jal / jalr: link = own address + 4, relative to the label */
20: jal ra, 21f
    li a0, 0xbad            /* shadow: skipped */
21: la t0, 20b
    sub t0, ra, t0
    SIG t0
    la t1, 23f
22: jalr ra, 0(t1)
    li a0, 0xbad
23: la t0, 22b
    sub t0, ra, t0
    SIG t0
    la t1, 25f + 8
24: jalr s3, -8(t1)         /* negative offset */
25: la t0, 24b
    sub t0, s3, t0
    SIG t0
    la t1, 27f
26: jalr s4, 1(t1)          /* bit 0 of the target is cleared */
27: la t0, 26b
    sub t0, s4, t0
    SIG t0
    la ra, 29f
28: jalr ra, 0(ra)          /* rd == rs1: target from the old value */
29: la t0, 28b
    sub t0, ra, t0
    SIG t0
    li s5, 0x1234
    jal x0, 30f             /* no link into x0 */
30: SIG x0
    la t1, 31f
    jalr x0, 0(t1)
31: SIG x0
    call leaf               /* call / ret through ra */
    SIG a0
    la t1, leaf
    jalr t1                 /* jalr rd = ra, rs1 = t1 */
    SIG a0

    SIGI 0x22222222
    /* ---- shadows of taken branches and jumps */
    li a3, 0
    beq zero, zero, 40f
    li a3, 1
    li a3, 2
40: SIG a3
    bne zero, zero, 41f     /* not taken: falls through */
    li a3, 3
41: SIG a3
    j 42f
    sw a3, 0(zero)          /* would fault on QEMU and the bench: never runs */
    ecall
42: la t0, 43f
    jr t0
    ecall
    li a3, 9
43: SIG a3
    li a4, 5                /* branch on a value from the previous instruction */
    addi a4, a4, -5
    beqz a4, 44f
    li a3, 0xbad
44: SIG a3
    li a4, 1
    beq a4, a4, 45f         /* branch to a branch */
45: bne a4, zero, 46f
    li a3, 0xbad
46: j 47f                   /* jump to a jump */
47: j 48f
48: SIG a3

    SIGI 0x33333333
    /* ---- loops: counted, nested, loop of one branch */
    li a0, 0
    li a1, 100
50: addi a0, a0, 3
    addi a1, a1, -1
    bnez a1, 50b
    SIG a0
    li a0, 0
    li s6, 7
51: li s7, 9
52: add a0, a0, s7
    addi s7, s7, -1
    bgtz s7, 52b
    addi s6, s6, -1
    bgtz s6, 51b
    SIG a0
    li a0, 0
    li a1, 10
53: addi a0, a0, 1
    bltu a0, a1, 53b
    SIG a0
    li a0, -5
54: addi a0, a0, 1
    blt a0, zero, 54b       /* signed */
    SIG a0

    TEST_END

leaf:
    li a0, 0x1eaf
    ret

    .section .rodata
    .balign 4
bvals:
    .word 0x00000000, 0x00000001, 0xffffffff, 0x7fffffff
    .word 0x80000000, 0x00000005, 0xfffffffe
