/* Machine timer driver (regs/timer.toml). */
#include "timer.h"

#include <solonic_regs.h>
#include <stddef.h>

#include "csr.h"

#define TMR_FALLBACK_HZ 250000000u /* if SYSINFO_CLK_HZ reads 0 */

static uint32_t clk_hz;
static uint64_t tick_cycles;
static uint64_t tick_next;
static uint32_t tick_ms;
static volatile uint32_t tick_count;
static void (*tick_fn)(void);

uint32_t tmr_clk_hz(void) {
    if (clk_hz == 0) {
        clk_hz = REG32(SYSINFO_CLK_HZ);
        if (clk_hz == 0) clk_hz = TMR_FALLBACK_HZ;
    }
    return clk_hz;
}

double tmr_cycles_to_us(uint64_t cycles) {
    return (double)cycles * 1e6 / (double)tmr_clk_hz();
}

double tmr_gbps(uint64_t bytes, uint64_t cycles) {
    return cycles ? (double)bytes * 8.0 * (double)tmr_clk_hz() / (double)cycles / 1e9 : 0.0;
}

static void tmr_set_cmp(uint64_t t) {
    /* Never let mtimecmp pass through a value below both old and new. */
    REG32(TIMER_MTIMECMP_LO) = 0xffffffffu;
    REG32(TIMER_MTIMECMP_HI) = (uint32_t)(t >> 32);
    REG32(TIMER_MTIMECMP_LO) = (uint32_t)t;
}

void tmr_init(void) {
    (void)tmr_clk_hz();
    tmr_tick_stop();
}

uint64_t tmr_cycles(void) {
    uint32_t hi, lo;

    /* The low word wraps every 17 s at 250 MHz: one retry is enough. */
    hi = REG32(TIMER_MTIME_HI);
    lo = REG32(TIMER_MTIME_LO);
    if (REG32(TIMER_MTIME_HI) != hi) {
        hi = REG32(TIMER_MTIME_HI);
        lo = REG32(TIMER_MTIME_LO);
    }
    return ((uint64_t)hi << 32) | lo;
}

/*
 * Milliseconds since reset. lwIP asks on every pass of the main loop, and a 64-bit
 * division costs hundreds of cycles here, so the count is carried forward: the cycles
 * since the last whole millisecond seen (less than 17 s of them fit 32 bits) divided by
 * the cycles per millisecond. After a longer gap (or the first call) it is computed whole.
 */
static uint64_t ms_base_cycles; /* the cycle count of ms_base's millisecond */
static uint32_t ms_base, ms_cycles;

uint32_t tmr_ms(void) {
    uint64_t c = tmr_cycles();

    if (ms_cycles == 0) ms_cycles = tmr_clk_hz() / 1000u;
    uint64_t d = c - ms_base_cycles;
    if (c < ms_base_cycles || (d >> 32) != 0 || ms_base_cycles == 0) {
        ms_base = (uint32_t)(c / ms_cycles);
        ms_base_cycles = (uint64_t)ms_base * ms_cycles;
        return ms_base;
    }
    uint32_t n = (uint32_t)d / ms_cycles;
    ms_base += n;
    ms_base_cycles += (uint64_t)n * ms_cycles;
    return ms_base;
}

uint32_t sys_now(void) {
    return tmr_ms();
}

uint64_t tmr_ms_to_cycles(uint32_t ms) {
    return ((uint64_t)tmr_clk_hz() * ms) / 1000u;
}

void tmr_tick_start(uint32_t period_ms, void (*fn)(void)) {
    if (period_ms == 0) period_ms = 1;
    CSR_CLEAR(mie, MIE_MTIE);
    tick_ms = period_ms;
    tick_cycles = tmr_ms_to_cycles(period_ms);
    tick_fn = fn;
    tick_count = 0;
    tick_next = tmr_cycles() + tick_cycles;
    tmr_set_cmp(tick_next);
    CSR_SET(mie, MIE_MTIE);
    CSR_SET(mstatus, MSTATUS_MIE);
}

void tmr_tick_stop(void) {
    CSR_CLEAR(mie, MIE_MTIE);
    tmr_set_cmp(UINT64_MAX);
    tick_ms = 0;
    tick_fn = NULL;
}

void tmr_irq(void) {
    if (tick_ms == 0) { /* not ticking: a stale request */
        tmr_set_cmp(UINT64_MAX);
        CSR_CLEAR(mie, MIE_MTIE);
        return;
    }
    tick_count++;
    tick_next += tick_cycles;
    uint64_t now = tmr_cycles();
    if (tick_next <= now) /* fell behind (long critical section): skip, don't storm */
        tick_next = now + tick_cycles;
    tmr_set_cmp(tick_next);
    if (tick_fn) tick_fn();
}

uint32_t tmr_ticks(void) {
    return tick_count;
}

uint32_t tmr_tick_period_ms(void) {
    return tick_ms;
}
