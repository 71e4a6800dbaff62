/*
 * solonic firmware: the NO_SYS super-loop. Each pass hands received
 * management frames to lwIP and runs its timeouts (net_poll), then serves
 * the console; the RoCE CQ service (roce_poll) and the QP exchange session
 * (qpx_poll) and RDMA CM's timers (cm_poll) run there too. Each pass (and
 * every wait that serves the network, through net_poll) kicks the watchdog:
 * a firmware stuck anywhere else for FW_WDOG_MS is restarted by it.
 */
#include <stddef.h>

#include "console.h"
#include "fw.h"
#include "net.h"
#include "roce/cm.h"
#include "roce/qpx.h"
#include "roce/qpx_tool.h"
#include "roce/roce.h"
#include "timer.h"
#include "uart.h"
#include "wdog.h"

#define FW_TICK_MS 1u     /* timer interrupt period (a few hundred cycles per tick) */
#define FW_CON_BUDGET 64 /* characters handed to the console per pass */
#define FW_WDOG_MS 1000u /* the watchdog's timeout from boot ('watchdog MS' changes it) */

/*
 * The console's input: characters a network command (ping) read while it
 * watched for Ctrl-C come first, in the order they were typed, then the UART.
 */
static void console_poll(void) {
    for (int i = 0; i < FW_CON_BUDGET; i++) {
        int c = con_typeahead_getc();
        if (c < 0) c = uart_getc();
        if (c < 0) break;
        con_input((uint8_t)c);
    }
}

int main(void) {
    tmr_init();
    fw_banner();
    if (wdog_bites() != 0)
        printf("watchdog: the firmware stopped for more than %lu ms and was restarted (restart %lu since "
               "power-on); the datapath kept running\n",
               (unsigned long)wdog_timeout_ms(), (unsigned long)wdog_bites());
    wdog_start(FW_WDOG_MS);
    tmr_tick_start(FW_TICK_MS, NULL);
    (void)net_init(); /* without a management port the console still works */
    roce_init(); /* quiet: the RoCE commands say when there is no transport */
    cm_init();
    con_init();
    for (;;) {
        wdog_kick();
        net_poll();
        roce_poll();
        qpx_poll();
        qpx_tool_poll();
        cm_poll();
        console_poll();
    }
}
