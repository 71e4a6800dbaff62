/* csr.S: Zicsr: csrrw/csrrs/csrrc and the immediate forms (with x0 / zero
 * sources that must not write), machine CSRs read back, read-only and
 * unknown CSRs (illegal instruction), CSR result and source forwarding.
 * Core-only checks where QEMU differs by design: misa is compared (QEMU is
 * configured RV32IM), but marchid/mimpid (QEMU: its version), the
 * counters (QEMU's run on host time), WARL fields QEMU implements
 * differently (mstatus.MPP, mie bits, mepc[1:0], mtvec mode 2/3, mcause
 * width) and the hpm counters are checked against written expectations.
 */
#include "env.h"

/* "csr op" must trap as an illegal instruction whose encoding is mtval */
.macro ILLEGAL_CSR insn:vararg
    la t5, 1f
    lw t4, 0(t5)
    la t3, 2f
1:  \insn
2:
.endm

    .text
    .globl main
main:
    TRAPS_EXPECTED
    /* ---- the six instructions on mscratch */
    li a0, 0x12345678
    li a2, 0xf0f0f0f0
    csrw mscratch, a0
    csrr a1, mscratch
    SIG a1
    csrrw a3, mscratch, a2
    SIG a3
    csrr a1, mscratch
    SIG a1
    csrrs a3, mscratch, a0
    SIG a3
    csrr a1, mscratch
    SIG a1
    csrrc a3, mscratch, a0
    SIG a3
    csrr a1, mscratch
    SIG a1
    csrrwi a3, mscratch, 0x1f
    SIG a3
    csrrsi a3, mscratch, 0x0a
    SIG a3
    csrr a1, mscratch
    SIG a1
    csrrci a3, mscratch, 0x11
    SIG a3
    csrr a1, mscratch
    SIG a1
    /* sources x0 / 0: set and clear do not write */
    csrw mscratch, a2
    csrrs a3, mscratch, x0
    csrrc a4, mscratch, x0
    csrrsi a5, mscratch, 0
    csrrci a6, mscratch, 0
    csrr a1, mscratch
    SIG a3
    SIG a4
    SIG a5
    SIG a6
    SIG a1
    csrrw x0, mscratch, a0  /* write without read */
    csrr a1, mscratch
    SIG a1
    csrrw a0, mscratch, a0  /* rd == rs1: swap */
    SIG a0
    csrr a1, mscratch
    SIG a1
    li a0, 77               /* source from the previous instruction */
    csrw mscratch, a0
    csrr a1, mscratch
    addi a1, a1, 1          /* CSR result used right away */
    SIG a1
    csrrs a1, mscratch, a1  /* rd == rs1 with a set */
    SIG a1
    csrr a1, mscratch
    SIG a1

    SIGI 0x11111111
    /* ---- other read/write machine CSRs */
    li a0, 0x12345670
    csrw mepc, a0
    csrr a1, mepc
    SIG a1
    li a0, 0x8000000b
    csrw mcause, a0
    csrr a1, mcause
    SIG a1
    li a0, 2
    csrw mcause, a0
    csrr a1, mcause
    SIG a1
    li a0, 0xdeadbeef
    csrw mtval, a0
    csrr a1, mtval
    SIG a1
    li a0, 0x880            /* MEIE | MTIE */
    csrw mie, a0
    csrr a1, mie
    SIG a1
    csrci mie, 0
    csrc mie, a0
    csrr a1, mie
    SIG a1
    csrr a1, mip            /* nothing pending */
    andi a1, a1, 0x7ff
    SIG a1
    li a0, 0x80             /* MPIE */
    csrw mstatus, a0
    csrr a1, mstatus
    andi a1, a1, 0x88
    SIG a1
    csrsi mstatus, 8        /* MIE with mie = 0: no interrupt */
    csrr a1, mstatus
    andi a1, a1, 0x88
    SIG a1
    csrw mstatus, zero
    csrr a1, mstatus
    andi a1, a1, 0x88
    SIG a1
    /* mtvec: direct and vectored */
    csrr s0, mtvec
    la a0, env_trap_expect + 64
    csrw mtvec, a0
    csrr a1, mtvec
    sub a1, a1, a0
    SIG a1
    ori a0, a0, 1
    csrw mtvec, a0
    csrr a1, mtvec
    sub a1, a1, a0
    SIG a1
    csrw mtvec, s0
    /* identification: the same on QEMU configured as RV32IM */
    csrr a1, misa
    SIG a1
    csrr a1, mvendorid
    SIG a1
    csrr a1, mhartid
    SIG a1
    csrr a1, mstatush
    SIG a1
    csrr a1, mcountinhibit
    SIG a1

    SIGI 0x22222222
    /* ---- illegal: writes to read-only CSRs, unknown CSRs */
    li a1, 1
    ILLEGAL_CSR csrw mhartid, a1
    ILLEGAL_CSR csrrw x0, mvendorid, x0      /* csrrw always writes */
    ILLEGAL_CSR csrrs a0, marchid, a1
    ILLEGAL_CSR csrrsi a0, mimpid, 1
    ILLEGAL_CSR csrrci a0, mhartid, 2
    ILLEGAL_CSR csrw cycle, a1
    ILLEGAL_CSR csrrwi a0, instret, 0
    ILLEGAL_CSR csrw cycleh, a1
    ILLEGAL_CSR csrr a0, 0x7c0
    ILLEGAL_CSR csrw 0x7c0, a1
    ILLEGAL_CSR csrr a0, 0xfff
    ILLEGAL_CSR csrr a0, sstatus
    ILLEGAL_CSR csrr a0, satp
    ILLEGAL_CSR csrr a0, stvec
    ILLEGAL_CSR csrr a0, 0x800
    /* reads of read-only CSRs with x0 / zero sources are legal */
    li a0, 0x5555
    csrrs a0, mhartid, x0
    SIG a0
    csrrc a0, mvendorid, x0
    SIG a0
    csrrsi a0, mhartid, 0
    SIG a0
    /* the destination of a trapping CSR instruction is not written */
    li a0, 0x7777
    ILLEGAL_CSR csrrw a0, mhartid, a1
    SIG a0

#ifdef TARGET_CORE
    /* ---------------------------------------------------------------- core only */
    csrr a0, marchid
    CHECK 100, a0, 0
    csrr a0, mimpid
    CHECK 101, a0, 0
    csrr a0, mstatus            /* MPP hardwired to M (QEMU 7.2 clears it on mret) */
    li t0, 0x1800
    and a0, a0, t0
    CHECK 102, a0, 0x1800
    li t0, -1                   /* only MTIE and MEIE exist (QEMU also has MSIE) */
    csrw mie, t0
    csrr a0, mie
    CHECK 103, a0, 0x880
    csrw mie, zero
    li t0, 0x12345677           /* mepc[1:0] read zero without C */
    csrw mepc, t0
    csrr a0, mepc
    CHECK 104, a0, 0x12345674
    li t0, -1                   /* mcause keeps the interrupt bit and 4 code bits */
    csrw mcause, t0
    csrr a0, mcause
    CHECK 105, a0, 0x8000000f
    csrr s0, mtvec              /* reserved mtvec modes: bit 1 reads zero */
    li t0, 0x00001003
    csrw mtvec, t0
    csrr a0, mtvec
    CHECK 106, a0, 0x00001001
    csrw mtvec, s0
    csrr a0, mhpmcounter3
    CHECK 107, a0, 0
    csrr a0, hpmcounter31h
    CHECK 108, a0, 0
    csrw mhpmevent3, t0
    csrr a0, mhpmevent3
    CHECK 109, a0, 0
    /* minstret counts retired instructions: the read, ten nops */
    csrr a0, minstret
    .rept 10
    nop
    .endr
    csrr a1, minstret
    sub a1, a1, a0
    CHECK 110, a1, 11
    /* mcycle: one per cycle, the pipeline issues one per cycle here; a CSR
       read waits one cycle in M for the nop ahead of it to leave W */
    csrr a0, mcycle
    .rept 10
    nop
    .endr
    csrr a1, mcycle
    sub a1, a1, a0
    CHECK 111, a1, 12
    /* user aliases: read back to back */
    csrr a0, instret
    csrr a1, minstret
    sub a1, a1, a0
    CHECK 112, a1, 1
    csrr a0, cycle
    csrr a1, mcycle
    sub a1, a1, a0
    CHECK 113, a1, 2
    /* a write is done instead of its own instruction's increment of the
       whole counter (the low half stays at -2 over the csrwi); the upper
       half carries (counters.S has the corner cases) */
    li t0, -2
    csrw minstret, t0
    csrwi minstreth, 7
    nop
    csrr a0, minstreth
    csrr a1, minstret
    CHECK 114, a0, 7
    CHECK 115, a1, 0
    csrr a0, instreth
    CHECK 116, a0, 8
    csrw mcycle, zero
    csrr a0, mcycle
    CHECK 117, a0, 0
    li t0, -3
    csrw mcycle, t0
    csrwi mcycleh, 5
    nop
    nop
    csrr a0, mcycleh
    CHECK 118, a0, 6
    csrr a0, cycleh
    CHECK 119, a0, 6
    csrw mcycleh, zero
    csrw minstreth, zero
#endif

    TEST_END
