/*
 * Watchdog driver (regs/wdog.toml, rtl/soc/soc_wdog.sv): armed, it resets the
 * soft core and the SoC (not the datapath) unless it is kicked within its
 * timeout. The firmware arms it at boot and kicks it on every pass of its main
 * loop and of every wait that serves the network (fw/README.md).
 */
#ifndef BSP_WDOG_H
#define BSP_WDOG_H

#include <stdint.h>

/* Arm with a timeout of ms milliseconds (1..WDOG_MAX_MS) and start the count. */
void wdog_start(uint32_t ms);
#define WDOG_MAX_MS 10000u

/* Start the count again (nothing when disarmed). */
void wdog_kick(void);

/* Disarm. */
void wdog_stop(void);

/* Armed (the hardware's flag); the timeout in ms (kept across a bite); ms left before the bite. */
int wdog_armed(void);
uint32_t wdog_timeout_ms(void);
uint32_t wdog_remaining_ms(void);

/* Resets the watchdog caused since power-on. */
uint32_t wdog_bites(void);

#endif
