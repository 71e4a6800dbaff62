/* Watchdog driver: see wdog.h. */
#include "wdog.h"

#include <solonic_regs.h>

#include "timer.h"

#define WDOG_KICK_KEY 0x4b49434bu /* "KICK" (regs/wdog.toml) */
#define WDOG_STOP_KEY 0x53544f50u /* "STOP" */

static int on; /* wdog_start ran and wdog_stop did not: kicks go out */

void wdog_start(uint32_t ms) {
    if (ms == 0) ms = 1;
    if (ms > WDOG_MAX_MS) ms = WDOG_MAX_MS;
    REG32(WDOG_TIMEOUT) = (uint32_t)tmr_ms_to_cycles(ms);
    REG32(WDOG_KICK) = WDOG_KICK_KEY;
    on = 1;
}

void wdog_kick(void) {
    if (on) REG32(WDOG_KICK) = WDOG_KICK_KEY;
}

void wdog_stop(void) {
    REG32(WDOG_STOP) = WDOG_STOP_KEY;
    on = 0;
}

int wdog_armed(void) {
    return REG32(WDOG_ARMED) & 1u;
}

uint32_t wdog_timeout_ms(void) {
    return (uint32_t)(REG32(WDOG_TIMEOUT) / (tmr_clk_hz() / 1000u));
}

uint32_t wdog_remaining_ms(void) {
    return (uint32_t)(REG32(WDOG_REMAINING) / (tmr_clk_hz() / 1000u));
}

uint32_t wdog_bites(void) {
    return REG32(WDOG_BITES);
}
