/* irq.S: the machine timer interrupt: pending but masked (mip.MTIP, no
 * trap), wfi wakes on a pending enabled-in-mie interrupt even with MIE = 0,
 * the trap taken right after MIE is set (mepc = the next instruction),
 * mstatus stacking, vectored mtvec, wfi with MIE = 1 (mepc after the wfi),
 * and a stress loop of loads, stores, multiplies, divides and branches that
 * a fast timer interrupts over and over: its result must not change.
 * Core only: the external interrupt (bench sim-control) and its priority.
 * Interrupt handlers clobber only x27 and t3.
 */
#include "env.h"

#define POLL_LIMIT 2000000      /* bounded waits */
#ifdef TARGET_QEMU
#define STRESS_TICKS 13         /* 1.3 us of the 10 MHz CLINT */
#else
#define STRESS_TICKS 97         /* bench cycles */
#endif

    .text
    .globl main
main:
    TRAPS_EXPECTED
    li t0, 0x80
    csrw mie, t0            /* MTIE */

    /* ---- pending but masked: visible in mip, no trap */
    TIMER_ARM 20, t0
    li t1, POLL_LIMIT
1:  csrr a0, mip
    andi a0, a0, 0x80
    bnez a0, 2f
    addi t1, t1, -1
    bnez t1, 1b
2:  SIG a0
    TIMER_OFF t0
    csrr a0, mip
    andi a0, a0, 0x80
    SIG a0

    /* ---- wfi with MIE = 0 resumes when the timer fires, no trap */
    TIMER_ARM 30, t0
    wfi
    csrr a0, mip
    andi a0, a0, 0x80
    SIG a0

    /* ---- enabling MIE with the interrupt pending: trap at once */
    la t0, h_irq
    csrw mtvec, t0
    la t5, 3f               /* expected mepc */
    csrsi mstatus, 8
3:  nop
    csrr a0, mstatus        /* MIE restored by mret */
    andi a0, a0, 0x88
    SIG a0
    SIGI 0x11111111

    /* ---- a loop waits until the interrupt arrives */
    la s0, irq_count
    sw zero, 0(s0)
    li t5, 0                /* mepc not checked */
    TIMER_ARM 50, t0
    li t1, POLL_LIMIT
4:  lw a0, 0(s0)
    bnez a0, 5f
    addi t1, t1, -1
    bnez t1, 4b
5:  SIG a0

    /* ---- mie.MTIE = 0 blocks it even with MIE = 1 */
    csrw mie, zero
    TIMER_ARM 10, t0
    li t1, POLL_LIMIT
6:  csrr a0, mip
    andi a0, a0, 0x80
    bnez a0, 7f
    addi t1, t1, -1
    bnez t1, 6b
7:  lw a1, 0(s0)            /* still 1 */
    SIG a0
    SIG a1
    TIMER_OFF t0

    /* ---- vectored mode: the timer goes to BASE + 4 * 7 */
    csrci mstatus, 8
    la t0, vtable
    ori t0, t0, 1
    csrw mtvec, t0
    li t0, 0x80
    csrw mie, t0
    TIMER_ARM 20, t0
    li t1, POLL_LIMIT
8:  csrr a0, mip
    andi a0, a0, 0x80
    bnez a0, 9f
    addi t1, t1, -1
    bnez t1, 8b
9:  la t5, 10f
    csrsi mstatus, 8
10: nop
    SIGI 0x22222222

    /* ---- wfi with MIE = 1: the trap is taken after the wfi */
    la t0, h_irq
    csrw mtvec, t0
    TIMER_ARM 40, t0
    la t5, 11f
    wfi
11: nop
    SIGI 0x33333333

    /* ---- stress: a fast periodic interrupt over a mixed loop */
    csrci mstatus, 8
    la t0, h_stress
    csrw mtvec, t0
    sw zero, 0(s0)
    TIMER_ARM STRESS_TICKS, t0
    csrsi mstatus, 8
    call stress
    csrci mstatus, 8
    TIMER_OFF t0
    SIG a0
    SIG a1
#ifdef TARGET_CORE
    lw a2, 0(s0)            /* it really was interrupted, many times */
    sltiu a2, a2, 50
    CHECK 300, a2, 0
#endif
    csrw mtvec, zero

#ifdef TARGET_CORE
    /* ---------------------------------------------------------------- core only */
    /* external interrupt (bench EXTIRQ register) */
    la t0, h_ext
    csrw mtvec, t0
    li t0, 0x800            /* MEIE */
    csrw mie, t0
    csrsi mstatus, 8
    li s1, SIMCTL
    li t0, 1
    sw t0, SIMCTL_EXTIRQ(s1)
    li t1, POLL_LIMIT
12: lw a0, 4(s0)
    bnez a0, 13f
    addi t1, t1, -1
    bnez t1, 12b
13: csrr a1, mip
    CHECK 301, a0, 0x8000000b
    /* both pending: external first */
    csrci mstatus, 8
    li t0, 0x880
    csrw mie, t0
    TIMER_ARM 1, t0
    li t0, 1
    sw t0, SIMCTL_EXTIRQ(s1)
    li t1, POLL_LIMIT
14: csrr a0, mip
    li t0, 0x880
    beq a0, t0, 15f
    addi t1, t1, -1
    bnez t1, 14b
15: sw zero, 4(s0)
    csrsi mstatus, 8
    nop
    lw a0, 4(s0)
    CHECK 302, a0, 0x8000000b
    csrci mstatus, 8
    TIMER_OFF t0
    csrw mie, zero
#endif

    TEST_END

/* Timer: record mcause, mepc - t5 (when t5 != 0), mstatus; disarm; count. */
    .balign 4
h_irq:
    csrr x27, mcause
    SIG x27
    beqz t5, 1f
    csrr x27, mepc
    sub x27, x27, t5
    SIG x27
1:  csrr x27, mstatus
    andi x27, x27, 0x88
    SIG x27
    TIMER_OFF t3
    la t3, irq_count
    lw x27, 0(t3)
    addi x27, x27, 1
    sw x27, 0(t3)
    mret

/* Stress handler: count, re-arm soon. */
    .balign 4
h_stress:
    la t3, irq_count
    lw x27, 0(t3)
    addi x27, x27, 1
    sw x27, 0(t3)
    TIMER_ARM STRESS_TICKS, t3
    mret

/* External: record mcause in irq_count + 4, lower the line, return with
 * MIE = 0 (one interrupt per test). */
    .balign 4
h_ext:
    csrr x27, mcause
    la t3, irq_count
    sw x27, 4(t3)
    li t3, SIMCTL
    sw zero, SIMCTL_EXTIRQ(t3)
    li t3, 0x80
    csrc mstatus, t3
    mret

/* Any trap but the timer in vectored mode ends the test. */
    .balign 256
vtable:
    .rept 7
    j env_trap_abort
    .endr
    j h_irq                 /* cause 7 */
    .rept 8
    j env_trap_abort
    .endr

/* a0, a1 = results of a loop over everything that can be in flight when an
 * interrupt is taken. */
stress:
    la t0, sbuf
    li t1, 0
    li a0, 0x9e3779b9
    li a1, 0
1:  andi t2, t1, 63
    slli t2, t2, 2
    add t2, t2, t0
    lw a2, 0(t2)
    add a2, a2, a0
    sw a2, 0(t2)
    mul a3, a2, a0
    xor a1, a1, a3
    ori a4, t1, 1
    divu a5, a2, a4
    add a1, a1, a5
    rem a6, a3, a4
    sub a1, a1, a6
    srli a7, a1, 7
    slli a0, a0, 3
    xor a0, a0, a7
    lbu a7, 1(t2)
    sh a7, 2(t2)
    andi a7, a7, 1
    beqz a7, 2f
    addi a0, a0, 17
2:  jal t4, 3f              /* a jump */
3:  addi t1, t1, 1
    li t2, 1000
    bltu t1, t2, 1b
    ret

    .data
    .balign 4
irq_count:
    .word 0, 0
    .section .bss
    .balign 4
sbuf:
    .space 256
