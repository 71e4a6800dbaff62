/* UART console driver (regs/uart.toml). */
#ifndef BSP_UART_H
#define BSP_UART_H

#include <solonic_regs.h>
#include <stdint.h>

/* Queue one character; 0 on success, -1 when the TX FIFO is full. Never waits. */
int uart_putc(uint8_t c);

/* The oldest received character (0..255), or -1 when none is waiting. Never waits. */
int uart_getc(void);

/*
 * Queue one character, waiting at most UART_TX_TIMEOUT_MS for room in the TX
 * FIFO; returns -1 (and counts the character as dropped) on timeout. The common
 * case (room in the FIFO) is inline: printing goes through it per character, and a
 * call that saves registers costs more than the character itself.
 */
int uart_putc_wait_full(uint8_t c); /* the wait, when the FIFO was full */
static inline int uart_putc_wait(uint8_t c) {
    if (REG32(UART_STATUS) & UART_STATUS_TX_FULL_MASK) return uart_putc_wait_full(c);
    REG32(UART_TXDATA) = c;
    return 0;
}

/* Wait (at most UART_TX_TIMEOUT_MS) until everything queued has been sent. */
void uart_flush(void);

/* Characters uart_putc_wait gave up on. */
uint32_t uart_dropped(void);

#define UART_TX_TIMEOUT_MS 20u

#endif
