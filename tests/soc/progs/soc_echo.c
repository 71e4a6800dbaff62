/* UART both ways: prints a banner and the prompt "solonic> ", reads a line,
   answers with it in upper case, prompts again; "quit" exits with 5. */
#include "soc_test.h"

uint32_t on_trap(struct trap *t) {
    put_str("FAIL unexpected trap, mcause 0x");
    put_hex(t->mcause);
    put_char('\n');
    soc_exit(99);
}

static int get_char(void) {
    uint32_t v;
    do { v = REG(UART_RXDATA); } while (!(v & 0x100u));
    return (int)(v & 0xffu);
}

int main(void) {
    char line[80];
    put_str("soc_echo ready\n");
    for (;;) {
        put_str("solonic> ");
        unsigned n = 0;
        for (;;) {
            int c = get_char();
            if (c == '\n' || c == '\r') break;
            if (n < sizeof line - 1) line[n++] = (char)c;
        }
        line[n] = 0;
        if (n == 4 && line[0] == 'q' && line[1] == 'u' && line[2] == 'i' && line[3] == 't') return 5;
        for (unsigned i = 0; i < n; i++) put_char(line[i] >= 'a' && line[i] <= 'z' ? line[i] - 32 : line[i]);
        put_char('\n');
    }
}
