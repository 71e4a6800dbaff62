/* counters.S: a CSR write to a counter (minstret / minstreth, mcycle /
 * mcycleh) is done instead of that instruction's (cycle's) increment of the
 * whole 64-bit counter: the half not written keeps its value and no carry
 * crosses into the half written (privileged spec, Zicsr: "if a CSR access
 * instruction writes such a CSR, the write is done instead of the
 * increment"). Core-only checks (QEMU's counters run on host time); QEMU
 * and the core both sign the words that do not depend on the counters.
 *
 * The mcycle checks count cycles of rv_core's pipeline: a CSR instruction
 * reads its CSR in M while W is empty, so back to back CSR instructions
 * reach W every other cycle (see csr.S, checks 111 and 113).
 */
#include "env.h"

    .text
    .globl main
main:
    TRAPS_EXPECTED
    li a0, 0x5a5a0001
    SIG a0

#ifdef TARGET_CORE
    /* minstret: writing the upper half cancels the low half's increment */
    li t0, -1
    csrw minstret, t0           /* low all ones */
    csrwi minstreth, 5          /* low stays all ones (not 0), upper 5 */
    csrr a0, minstret           /* all ones; its own retirement carries */
    csrr a1, minstreth          /* 6 */
    CHECK 1, a0, 0xffffffff
    CHECK 2, a1, 6

    /* minstret: writing the low half cancels the carry into the upper half */
    li t0, -1
    li t1, 0x100
    csrwi minstreth, 2
    csrw minstret, t0           /* low all ones: the next retirement would carry */
    csrw minstret, t1           /* done instead of that increment: no carry */
    csrr a0, minstreth          /* 2 (not 3) */
    csrr a1, minstret           /* 0x101: the read above retired */
    CHECK 3, a0, 2
    CHECK 4, a1, 0x101

    /* minstreth written twice: the second write's retirement does not count */
    csrw minstret, zero
    csrwi minstreth, 1
    csrwi minstreth, 9
    csrr a0, minstret           /* 0: both writes of the upper half left it */
    csrr a1, minstreth
    CHECK 5, a0, 0
    CHECK 6, a1, 9

    /* mcycle: writing the upper half in the cycle the low half is all ones */
    li t0, -2
    csrw mcycle, t0             /* W at cycle c: low ...fe at c+1, all ones at c+2 */
    csrwi mcycleh, 7            /* W at c+2: the low half stays all ones */
    csrr a0, mcycle             /* read at c+3: all ones (not 0) */
    csrr a1, mcycleh            /* read at c+5: the carry of c+3, 8 (not 7) */
    CHECK 7, a0, 0xffffffff
    CHECK 8, a1, 8

    /* mcycle: writing the low half in the cycle it would carry */
    csrwi mcycleh, 3
    li t0, -2
    csrw mcycle, t0             /* W at c: low all ones at c+2 */
    csrw mcycle, zero           /* W at c+2: done instead of the increment: no carry */
    csrr a0, mcycleh            /* read at c+3: 3 (not 4) */
    csrr a1, mcycle             /* read at c+5: 2 */
    CHECK 9, a0, 3
    CHECK 10, a1, 2

    csrw mcycleh, zero
    csrw minstreth, zero
#endif

    li a0, 0x5a5a0002
    SIG a0
    TEST_END
