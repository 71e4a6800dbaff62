/*
 * Trap dispatch.  The machine timer interrupt goes to the timer driver; an
 * access fault or misalignment inside trap_probe_*() is reported to the
 * caller; anything else is fatal: the registers go to the UART and the
 * simulation ends with SIM_EXIT_TRAP (a board halts in sim_exit).
 */
#include "trap.h"

#include <solonic_regs.h>
#include <stdio.h>

#include "csr.h"
#include "sim.h"
#include "timer.h"
#include "uart.h"

#define PROBE_NONE 0xffffffffu

static volatile uint32_t probe_active;
static volatile uint32_t probe_cause = PROBE_NONE;
static volatile uint32_t in_fatal;

static const char *const exc_names[] = {
    [EXC_INSN_MISALIGNED] = "instruction address misaligned",
    [EXC_INSN_FAULT] = "instruction access fault",
    [EXC_ILLEGAL_INSN] = "illegal instruction",
    [EXC_BREAKPOINT] = "breakpoint",
    [EXC_LOAD_MISALIGNED] = "load address misaligned",
    [EXC_LOAD_FAULT] = "load access fault",
    [EXC_STORE_MISALIGNED] = "store address misaligned",
    [EXC_STORE_FAULT] = "store access fault",
    [8] = "environment call from U-mode",
    [9] = "environment call from S-mode",
    [EXC_ECALL_M] = "environment call from M-mode",
};

const char *trap_cause_name(uint32_t mcause) {
    uint32_t code = MCAUSE_CODE(mcause);

    if (mcause & MCAUSE_INTERRUPT)
        return code == IRQ_M_TIMER ? "machine timer interrupt" : "interrupt";
    if (code < sizeof(exc_names) / sizeof(exc_names[0]) && exc_names[code]) return exc_names[code];
    return "unknown exception";
}

static void fatal_puts(const char *s) {
    for (; *s; s++) {
        if (*s == '\n') uart_putc_wait('\r');
        uart_putc_wait((uint8_t)*s);
    }
}

/* Abi names of x0..x31, for the register dump. */
static const char reg_names[32][5] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

__attribute__((noreturn)) static void trap_fatal(const struct trap_frame *f, const char *what) {
    char line[96];

    if (in_fatal) { /* a trap while reporting a trap: stop at once */
        REG32(SIMCTRL_EXIT) = SIM_EXIT_TRAP;
        for (;;)
            ;
    }
    in_fatal = 1;
    snprintf(line, sizeof(line), "\n*** %s: %s\n", what, trap_cause_name(f->mcause));
    fatal_puts(line);
    snprintf(line, sizeof(line), "*** mcause=0x%08lx mepc=0x%08lx mtval=0x%08lx mstatus=0x%08lx\n",
             (unsigned long)f->mcause, (unsigned long)f->mepc, (unsigned long)f->mtval,
             (unsigned long)f->mstatus);
    fatal_puts(line);
    for (int i = 1; i < 32; i += 4) {
        int n = 0;
        for (int j = i; j < i + 4 && j < 32; j++)
            n += snprintf(line + n, sizeof(line) - (size_t)n, "%4s=0x%08lx ", reg_names[j],
                          (unsigned long)f->x[j]);
        snprintf(line + n, sizeof(line) - (size_t)n, "\n");
        fatal_puts(line);
    }
    fatal_puts(sim_present() ? "*** ending the simulation\n" : "*** halted\n");
    sim_exit(SIM_EXIT_TRAP);
}

void trap_handler(struct trap_frame *f) {
    uint32_t code = MCAUSE_CODE(f->mcause);

    if (f->mcause & MCAUSE_INTERRUPT) {
        if (code == IRQ_M_TIMER) {
            tmr_irq();
            return;
        }
        trap_fatal(f, "unexpected interrupt");
    }
    if (probe_active && code >= EXC_LOAD_MISALIGNED && code <= EXC_STORE_FAULT) {
        probe_active = 0;
        probe_cause = f->mcause;
        f->mepc += 4; /* skip the probing load/store (no compressed instructions) */
        return;
    }
    trap_fatal(f, "unexpected exception");
}

static int probe_result(uint32_t *mcause) {
    uint32_t cause = probe_cause;

    probe_active = 0;
    if (mcause) *mcause = cause;
    return cause == PROBE_NONE ? 0 : -1;
}

int trap_probe_read32(uint32_t addr, uint32_t *val, uint32_t *mcause) {
    uint32_t v = 0;

    probe_cause = PROBE_NONE;
    probe_active = 1;
    __asm__ volatile("lw %0, 0(%1)" : "+r"(v) : "r"(addr) : "memory");
    int rc = probe_result(mcause);
    if (rc == 0 && val) *val = v;
    return rc;
}

int trap_probe_write32(uint32_t addr, uint32_t val, uint32_t *mcause) {
    probe_cause = PROBE_NONE;
    probe_active = 1;
    __asm__ volatile("sw %0, 0(%1)" : : "r"(val), "r"(addr) : "memory");
    return probe_result(mcause);
}
