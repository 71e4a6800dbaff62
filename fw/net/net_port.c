/* lwIP's platform hooks (arch/cc.h): assertions and random numbers. */
#include <stdint.h>
#include <stdio.h>

#include "arch/cc.h"
#include "sim.h"
#include "timer.h"

#define NET_EXIT_ASSERT 71 /* exit code of a failed lwIP assertion */

void net_port_assert(const char *msg, const char *file, int line) {
    printf("\nlwIP assertion failed: %s (%s:%d)\n", msg, file, line);
    sim_exit(NET_EXIT_ASSERT);
}

/* xorshift32, seeded from the cycle counter on first use. */
uint32_t net_port_rand(void) {
    static uint32_t x;

    if (x == 0) x = (uint32_t)tmr_cycles() * 2654435761u | 1u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}
