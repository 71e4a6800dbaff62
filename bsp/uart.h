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
 * case is inline and reads no register: uart_tx_room counts the characters the
 * FIFO surely takes (UART_TX_FIFO_DEPTH after a status read saw it empty, 1 after
 * one saw it not full). Printing goes through it per character, and a status read
 * and a call that saves registers cost more than the character itself. Only these
 * functions write txdata, and no interrupt handler prints (a fatal trap's report
 * at worst overflows one character, counted in the UART's tx_overflow).
 */
#define UART_TX_FIFO_DEPTH 64u /* soc_uart's FIFO_DEPTH */
extern uint32_t uart_tx_room;
int uart_putc_wait_slow(uint8_t c); /* no room known: read the status, wait if full */
static inline __attribute__((always_inline)) int uart_putc_wait(uint8_t c) {
    if (uart_tx_room == 0) return uart_putc_wait_slow(c);
    uart_tx_room--;
    REG32(UART_TXDATA) = c;
    return 0;
}

/* Wait (at most UART_TX_TIMEOUT_MS) until everything queued has been sent. */
void uart_flush(void);

/* Characters uart_putc_wait gave up on. */
uint32_t uart_dropped(void);

#define UART_TX_TIMEOUT_MS 20u

#endif
