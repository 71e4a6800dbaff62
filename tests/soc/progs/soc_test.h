/* Helpers of the SoC test programs (tests/soc/progs). Addresses and values
   are written here from docs/DEVELOPING.md and the regs/ descriptions on purpose, not
   taken from the generated header: these programs check that the SoC
   matches the description. */
#ifndef SOC_TEST_H
#define SOC_TEST_H

#include <stdint.h>

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))

#define SYSINFO_BASE 0x20000000u
#define UART_BASE    0x20001000u
#define TIMER_BASE   0x20002000u
#define SIMCTRL_BASE 0x20003000u
#define UART_TXDATA  (UART_BASE + 0x08)
#define UART_RXDATA  (UART_BASE + 0x0c)
#define UART_STATUS  (UART_BASE + 0x10)
#define MTIME_LO     (TIMER_BASE + 0x08)
#define MTIME_HI     (TIMER_BASE + 0x0c)
#define MTIMECMP_LO  (TIMER_BASE + 0x10)
#define MTIMECMP_HI  (TIMER_BASE + 0x14)

#define CSR_READ(csr) ({ uint32_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define CSR_WRITE(csr, v) __asm__ volatile("csrw " #csr ", %0" ::"r"(v))
#define CSR_SET(csr, v) __asm__ volatile("csrs " #csr ", %0" ::"r"(v))

__attribute__((noreturn)) void soc_exit(uint32_t code);

static inline void put_char(char c) {
    while (REG(UART_STATUS) & 1u) {}  /* tx_full */
    REG(UART_TXDATA) = (uint8_t)c;
}
static inline void put_str(const char *s) { while (*s) put_char(*s++); }
static inline void put_hex(uint32_t v) {
    for (int i = 28; i >= 0; i -= 4) put_char("0123456789abcdef"[(v >> i) & 15]);
}

static int soc_fails;
/* compare, print "FAIL what: expected X got Y" on a mismatch */
static inline void check(const char *what, uint32_t expected, uint32_t got) {
    if (expected == got) return;
    soc_fails++;
    put_str("FAIL ");
    put_str(what);
    put_str(": expected 0x");
    put_hex(expected);
    put_str(" got 0x");
    put_hex(got);
    put_char('\n');
}

/* the program's trap handler (each program defines on_trap) */
struct trap { uint32_t mcause, mepc, mtval; };
uint32_t on_trap(struct trap *t);  /* returns the mepc to return to */
__attribute__((interrupt("machine"), aligned(4))) void trap_vector(void) {
    struct trap t = {CSR_READ(mcause), CSR_READ(mepc), CSR_READ(mtval)};
    CSR_WRITE(mepc, on_trap(&t));
}

#endif
