/* UART console driver (regs/uart.toml): polled, never waits unbounded. */
#include "uart.h"

#include <solonic_regs.h>

#include "timer.h"
#include "wdog.h"

static uint32_t uart_drops;

int uart_putc(uint8_t c) {
    if (REG32(UART_STATUS) & UART_STATUS_TX_FULL_MASK) return -1;
    REG32(UART_TXDATA) = c;
    return 0;
}

int uart_getc(void) {
    uint32_t v = REG32(UART_RXDATA); /* reading pops the character */

    if (!(v & UART_RXDATA_VALID_MASK)) return -1;
    return (int)((v & UART_RXDATA_CHAR_MASK) >> UART_RXDATA_CHAR_SHIFT);
}

uint32_t uart_tx_room;

int uart_putc_wait_slow(uint8_t c) {
    uint32_t st = REG32(UART_STATUS);

    if (st & UART_STATUS_TX_EMPTY_MASK) {
        uart_tx_room = UART_TX_FIFO_DEPTH - 1;
    } else if (!(st & UART_STATUS_TX_FULL_MASK)) {
        uart_tx_room = 0;
    } else {
        uint64_t deadline = tmr_cycles() + tmr_ms_to_cycles(UART_TX_TIMEOUT_MS);
        do {
            if (uart_putc(c) == 0) return 0;
            wdog_kick(); /* a long print at the board's baud rate is progress, bounded per character */
        } while (tmr_cycles() < deadline);
        uart_drops++;
        return -1;
    }
    REG32(UART_TXDATA) = c;
    return 0;
}

void uart_flush(void) {
    uint64_t deadline = tmr_cycles() + tmr_ms_to_cycles(UART_TX_TIMEOUT_MS);

    while (!(REG32(UART_STATUS) & UART_STATUS_TX_EMPTY_MASK) && tmr_cycles() < deadline)
        ;
}

uint32_t uart_dropped(void) {
    return uart_drops;
}
