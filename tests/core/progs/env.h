/* env.h: the test environment shared by the ISA programs (tests/core/progs).
 *
 * Every program is built twice from the same source: TARGET_CORE (linked at
 * 0, run on rv_core in tests/core/tb) and TARGET_QEMU (linked at 0x80000000,
 * run on qemu-system-riscv32 -machine virt). Both produce a signature (32-bit
 * words) that the driver compares word for word, and a list of failed
 * self-checks (which must be empty).
 *
 * Registers reserved for the environment (C code is built with -ffixed-*):
 *   x31 (t6)  signature pointer      x26 (s10) failed-check list pointer
 *   x27 (s11) scratch of the macros and trap handlers
 * Trap tests with env_trap_expect as mtvec set before the trapping instruction:
 *   t5 (x30) expected mepc, t4 (x29) expected mtval, t3 (x28) resume address.
 * The handler appends mcause, mepc - t5, mtval - t4 to the signature and
 * resumes at t3 (clearing it; a trap with t3 == 0 is unexpected: abort).
 */
#ifndef ENV_H
#define ENV_H

#define SIMCTL          0x20000000
#define SIMCTL_EXIT     0x00
#define SIMCTL_SIG      0x04
#define SIMCTL_PUTC     0x08
#define SIMCTL_CHK_EXP  0x0C
#define SIMCTL_CHK_GOT  0x10
#define SIMCTL_CHK_ID   0x14
#define SIMCTL_TIMER    0x18
#define SIMCTL_EXTIRQ   0x1C
#define SIMCTL_PERF_TAG 0x20
#define SIMCTL_PERF_CYC 0x24
#define SIMCTL_PERF_INS 0x28

/* An address no target answers on either platform (access faults). */
#define UNMAPPED_ADDR   0xF0000000

#define CLINT_MTIMECMP  0x02004000
#define CLINT_MTIME     0x0200BFF8

#ifdef __ASSEMBLER__

/* Append a register to the signature. */
.macro SIG reg
    sw \reg, 0(x31)
    addi x31, x31, 4
.endm

/* Append a constant to the signature (a marker between sections). */
.macro SIGI val
    li x27, \val
    SIG x27
.endm

/* Self-check: record (id, expected, got) when reg != exp. */
.macro CHECK id, reg, exp
    li x27, \exp
    beq \reg, x27, .Lchk_ok\@
    sw x27, 4(x26)
    sw \reg, 8(x26)
    li x27, \id
    sw x27, 0(x26)
    addi x26, x26, 12
.Lchk_ok\@:
.endm

/* Expect a trap at label epc with mtval tval (a constant), resume at label resume. */
.macro EXPECT_TRAP epc, tval, resume
    la t5, \epc
    li t4, \tval
    la t3, \resume
.endm

/* Same with an mtval that is the address of a label. */
.macro EXPECT_TRAP_AT epc, tval_label, resume
    la t5, \epc
    la t4, \tval_label
    la t3, \resume
.endm

.macro TRAPS_EXPECTED
    la x27, env_trap_expect
    csrw mtvec, x27
.endm

.macro TEST_END
    j env_done
.endm

/* Timer: raise the machine timer interrupt soon / lower it. tmp is clobbered. */
#ifdef TARGET_QEMU
.macro TIMER_ARM ticks, tmp
    li \tmp, CLINT_MTIME
    lw x27, 0(\tmp)
    addi x27, x27, \ticks
    li \tmp, CLINT_MTIMECMP
    sw zero, 4(\tmp)
    sw x27, 0(\tmp)
.endm
.macro TIMER_OFF tmp
    li \tmp, CLINT_MTIMECMP
    li x27, -1
    sw x27, 0(\tmp)
    sw x27, 4(\tmp)
.endm
#else
.macro TIMER_ARM ticks, tmp
    li \tmp, SIMCTL
    li x27, \ticks
    sw x27, SIMCTL_TIMER(\tmp)
.endm
.macro TIMER_OFF tmp
    li \tmp, SIMCTL
    sw zero, SIMCTL_TIMER(\tmp)
.endm
#endif

#else /* C */

#include <stdint.h>

static inline void sig(uint32_t v)
{
    __asm__ volatile("sw %0, 0(x31)\n\taddi x31, x31, 4" : : "r"(v) : "memory");
}

static inline void check(uint32_t id, uint32_t got, uint32_t exp)
{
    if (got != exp) {
        __asm__ volatile("sw %0, 0(x26)\n\tsw %1, 4(x26)\n\tsw %2, 8(x26)\n\taddi x26, x26, 12"
                         : : "r"(id), "r"(exp), "r"(got) : "memory");
    }
}

static inline uint32_t rd_mcycle(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}

static inline uint32_t rd_minstret(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, minstret" : "=r"(v));
    return v;
}

/* Report a measured section to the bench (prints a PERF line; nothing on QEMU). */
static inline void perf_report(uint32_t tag, uint32_t cycles, uint32_t instret)
{
#ifdef TARGET_CORE
    volatile uint32_t *simctl = (volatile uint32_t *)SIMCTL;
    simctl[SIMCTL_PERF_TAG / 4] = tag;
    simctl[SIMCTL_PERF_CYC / 4] = cycles;
    simctl[SIMCTL_PERF_INS / 4] = instret;
#else
    (void)tag;
    (void)cycles;
    (void)instret;
#endif
}

#endif /* __ASSEMBLER__ */
#endif /* ENV_H */
