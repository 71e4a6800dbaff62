/*
 * picolibc stdio on the UART: stdin, stdout and stderr are one stream.
 * Output turns "\n" into "\r\n"; input waits at most STDIN_TIMEOUT_MS for a
 * character and reports end of file otherwise (the console itself polls
 * uart_getc and does not read stdin).
 */
#include <stdio.h>

#include "timer.h"
#include "uart.h"

#define STDIN_TIMEOUT_MS 1000u

/* '\n' and a FIFO of unknown room out of line, so that the common case needs no stack frame */
static __attribute__((noinline)) int uart_stream_put_slow(char c) {
    if (c == '\n' && uart_putc_wait('\r') != 0) return _FDEV_ERR;
    return uart_putc_wait((uint8_t)c) == 0 ? 0 : _FDEV_ERR;
}

static int uart_stream_put(char c, FILE *f) {
    (void)f;
    if (c == '\n' || uart_tx_room == 0) return uart_stream_put_slow(c);
    uart_tx_room--;
    REG32(UART_TXDATA) = (uint8_t)c;
    return 0;
}

static int uart_stream_get(FILE *f) {
    (void)f;
    uint64_t deadline = tmr_cycles() + tmr_ms_to_cycles(STDIN_TIMEOUT_MS);
    do {
        int c = uart_getc();
        if (c >= 0) return c;
    } while (tmr_cycles() < deadline);
    return _FDEV_EOF;
}

static int uart_stream_flush(FILE *f) {
    (void)f;
    uart_flush();
    return 0;
}

static FILE uart_stream =
    FDEV_SETUP_STREAM(uart_stream_put, uart_stream_get, uart_stream_flush, _FDEV_SETUP_RW);

FILE *const stdin = &uart_stream;
FILE *const stdout = &uart_stream;
FILE *const stderr = &uart_stream;
