/* solonic firmware: a super-loop around the console (lwIP and the CQ join later). */
#include <stddef.h>

#include "console.h"
#include "fw.h"
#include "timer.h"

#define FW_TICK_MS 1u /* timer interrupt period (a few hundred cycles per tick) */

int main(void) {
    tmr_init();
    fw_banner();
    tmr_tick_start(FW_TICK_MS, NULL);
    con_init();
    for (;;)
        con_poll();
}
