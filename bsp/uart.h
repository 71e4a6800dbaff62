/* UART console driver (regs/uart.toml). */
#ifndef BSP_UART_H
#define BSP_UART_H

#include <stdint.h>

/* Queue one character; 0 on success, -1 when the TX FIFO is full. Never waits. */
int uart_putc(uint8_t c);

/* The oldest received character (0..255), or -1 when none is waiting. Never waits. */
int uart_getc(void);

/*
 * Queue one character, waiting at most UART_TX_TIMEOUT_MS for room in the TX
 * FIFO; returns -1 (and counts the character as dropped) on timeout.
 */
int uart_putc_wait(uint8_t c);

/* Wait (at most UART_TX_TIMEOUT_MS) until everything queued has been sent. */
void uart_flush(void);

/* Characters uart_putc_wait gave up on. */
uint32_t uart_dropped(void);

#define UART_TX_TIMEOUT_MS 20u

#endif
