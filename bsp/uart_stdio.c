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

/* "\r\n" out of line, so that the common case needs no stack frame */
static __attribute__((noinline)) int uart_stream_newline(void) {
    return uart_putc_wait('\r') == 0 && uart_putc_wait('\n') == 0 ? 0 : _FDEV_ERR;
}

_Static_assert(_FDEV_ERR == -1, "uart_putc_wait's -1 is the stream's error");

static int uart_stream_put(char c, FILE *f) {
    (void)f;
    if (c != '\n') return uart_putc_wait((uint8_t)c);
    return uart_stream_newline();
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
