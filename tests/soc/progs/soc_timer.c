/* The machine timer interrupt: taken once mtime reaches mtimecmp, not
   before; mtime counts core cycles (checked against mcycle). */
#include "soc_test.h"

static volatile uint32_t irqs, irq_cause, irq_mtime;

uint32_t on_trap(struct trap *t) {
    if (t->mcause != 0x80000007u) {
        put_str("FAIL unexpected trap, mcause 0x");
        put_hex(t->mcause);
        put_char('\n');
        soc_exit(99);
    }
    irqs++;
    irq_cause = t->mcause;
    irq_mtime = REG(MTIME_LO);
    REG(MTIMECMP_LO) = 0xffffffffu;  /* quiet it (hi is still 0: set it first) */
    REG(MTIMECMP_HI) = 0xffffffffu;
    return t->mepc;
}

int main(void) {
    /* mtime and mcycle advance together */
    uint32_t t0 = REG(MTIME_LO), c0 = CSR_READ(mcycle);
    for (volatile int i = 0; i < 100; i++) {}
    uint32_t t1 = REG(MTIME_LO), c1 = CSR_READ(mcycle);
    uint32_t dt = t1 - t0, dc = c1 - c0;
    /* the compiler may put stores between a pair's two reads (three in the
       first pair): each costs a few cycles through the registered bus
       decoder, hence the tolerance */
    if (dt + 16 < dc || dc + 16 < dt) check("mtime advance vs mcycle advance", dc, dt);
    check("mtime_hi soon after reset", 0, REG(MTIME_HI));

    const uint32_t delay = 2000;
    REG(MTIMECMP_HI) = 0;
    uint32_t cmp = REG(MTIME_LO) + delay;
    REG(MTIMECMP_LO) = cmp;
    CSR_SET(mie, 1u << 7);       /* MTIE */
    CSR_SET(mstatus, 1u << 3);   /* MIE */
    uint32_t now;
    do {
        now = REG(MTIME_LO);
    } while (!irqs && (int32_t)(now - cmp) < 10000);
    check("timer interrupts taken", 1, irqs);
    check("mcause of the timer interrupt", 0x80000007u, irq_cause);
    uint32_t late = irq_mtime - cmp;
    if ((int32_t)late < 0) check("handler entered before mtime reached mtimecmp: mtime - mtimecmp", 0, late);
    else if (late > 200) check("cycles from mtimecmp to the handler (at most 200)", 0, late);
    for (volatile int i = 0; i < 1000; i++) {}
    check("timer interrupts after mtimecmp moved away", 1, irqs);
    put_str(soc_fails ? "soc_timer: FAILED\n" : "soc_timer: ok\n");
    return soc_fails ? 1 : 0;
}
