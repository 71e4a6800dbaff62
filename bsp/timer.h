/*
 * Machine timer driver (regs/timer.toml): mtime counts core clock cycles,
 * SYSINFO_CLK_HZ says how many per second.
 */
#ifndef BSP_TIMER_H
#define BSP_TIMER_H

#include <stdint.h>

/* Read the clock frequency and prepare the timer; call once at start-up. */
void tmr_init(void);

uint32_t tmr_clk_hz(void);

/* Core clock cycles since reset (the 64-bit mtime). */
uint64_t tmr_cycles(void);

/* Milliseconds since reset (wraps after 49.7 days). */
uint32_t tmr_ms(void);

/* Cycles in ms milliseconds, for deadlines on tmr_cycles(). */
uint64_t tmr_ms_to_cycles(uint32_t ms);

/* The figures of the benches: cycles as microseconds, bytes moved in cycles as Gb/s (0 for 0 cycles). */
double tmr_cycles_to_us(uint64_t cycles);
double tmr_gbps(uint64_t bytes, uint64_t cycles);

/*
 * Periodic timer interrupt every period_ms (>= 1) milliseconds; fn (may be
 * NULL) runs in interrupt context on each tick.  Enables machine timer
 * interrupts and mstatus.MIE.
 */
void tmr_tick_start(uint32_t period_ms, void (*fn)(void));
void tmr_tick_stop(void);

/* Timer interrupts taken since tmr_tick_start; the configured period (0 = off). */
uint32_t tmr_ticks(void);
uint32_t tmr_tick_period_ms(void);

/* Called by the trap handler on a machine timer interrupt. */
void tmr_irq(void);

/* lwIP's clock (NO_SYS): milliseconds, same as tmr_ms(). */
uint32_t sys_now(void);

#endif
