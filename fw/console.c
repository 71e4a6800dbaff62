/* The console's line editor and command dispatch. */
#include "console.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uart.h"


#define CH_CTRL_C 0x03
#define CH_BS 0x08
#define CH_CTRL_U 0x15
#define CH_ESC 0x1b
#define CH_DEL 0x7f

enum esc_state { ESC_NONE, ESC_SEEN, ESC_CSI };

static struct {
    char buf[CON_LINE_MAX + 1];
    uint32_t len;
    bool overlong; /* more than CON_LINE_MAX characters were typed */
    bool after_cr; /* the previous character was CR (CRLF ends one line) */
    enum esc_state esc;
} ed;

static void con_prompt(void) {
    fputs(CON_PROMPT, stdout);
}

static void con_reset_line(void) {
    ed.len = 0;
    ed.overlong = false;
}

const struct con_cmd *con_find(const char *name) {
    for (const struct con_cmd *c = __con_cmds_start; c < __con_cmds_end; c++)
        if (strcmp(c->name, name) == 0) return c;
    return NULL;
}

void con_usage(const struct con_cmd *c) {
    printf("usage: %s%s%s\n", c->name, c->args[0] ? " " : "", c->args);
}

/* ---- type-ahead: characters read while a command watched for Ctrl-C */

static struct {
    uint8_t buf[CON_TYPEAHEAD_MAX];
    uint32_t head, n;
} typeahead;

int con_interrupted(void) {
    int c;
    /* with the buffer full the rest stays in the UART: nothing typed is lost */
    while (typeahead.n < CON_TYPEAHEAD_MAX && (c = uart_getc()) >= 0) {
        if (c == CH_CTRL_C) return 1;
        typeahead.buf[(typeahead.head + typeahead.n++) % CON_TYPEAHEAD_MAX] = (uint8_t)c;
    }
    return 0;
}

int con_typeahead_getc(void) {
    if (typeahead.n == 0) return -1;
    uint8_t c = typeahead.buf[typeahead.head];
    typeahead.head = (typeahead.head + 1u) % CON_TYPEAHEAD_MAX;
    typeahead.n--;
    return c;
}

int con_parse_u32(const char *cmd, const char *what, const char *s, uint32_t *out) {
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    char *end = NULL;
    unsigned long v;

    /* strtoul would accept a sign or leading blanks: only digits are a number here */
    if ((base == 10 && (s[0] < '0' || s[0] > '9')) || (base == 16 && s[2] == '\0')) goto bad;
    errno = 0;
    v = strtoul(s, &end, base);
    if (errno == ERANGE) {
        printf("%s: %s: %s does not fit in 32 bits\n", cmd, what, s);
        return -1;
    }
    if (errno != 0 || end == s || *end != '\0') goto bad;
    *out = (uint32_t)v;
    return 0;
bad:
    printf("%s: %s: expected a number (decimal or 0x hex), got '%s'\n", cmd, what, s);
    return -1;
}

int con_parse_ip4(const char *cmd, const char *what, const char *s, uint32_t *out) {
    const char *p = s;
    uint32_t v = 0;

    for (int i = 0; i < 4; i++) {
        uint32_t part = 0;
        int digits = 0;
        while (*p >= '0' && *p <= '9') {
            part = part * 10u + (uint32_t)(*p++ - '0');
            if (++digits > 3) goto bad;
        }
        if (digits == 0 || part > 255) goto bad;
        v = v << 8 | part;
        if (i < 3 && *p++ != '.') goto bad;
    }
    if (*p != '\0') goto bad;
    *out = v;
    return 0;
bad:
    printf("%s: %s: expected a dotted IPv4 address like 10.0.0.2, got '%s'\n", cmd, what, s);
    return -1;
}

static void con_execute(char *line) {
    char *argv[CON_ARGS_MAX + 1];
    int argc = 0;
    char *p = line;

    for (;;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (*p == '\0') break;
        if (argc == CON_ARGS_MAX) {
            printf("error: too many words (at most %d); line ignored\n", CON_ARGS_MAX);
            return;
        }
        argv[argc++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    argv[argc] = NULL;
    if (argc == 0) return;

    const struct con_cmd *c = con_find(argv[0]);
    if (!c) {
        printf("unknown command '%s'; type 'help'\n", argv[0]);
        return;
    }
    (void)c->fn(argc, argv);
}

static void con_end_line(void) {
    fputs("\n", stdout);
    if (ed.overlong) {
        printf("error: line too long (more than %d characters); ignored\n", CON_LINE_MAX);
    } else {
        ed.buf[ed.len] = '\0';
        con_execute(ed.buf);
    }
    con_reset_line();
    con_prompt();
}

void con_input(uint8_t c) {
    /* Swallow terminal escape sequences (arrow keys: ESC [ A): no history yet. */
    if (ed.esc == ESC_SEEN) {
        ed.esc = (c == '[') ? ESC_CSI : ESC_NONE;
        return;
    }
    if (ed.esc == ESC_CSI) {
        if (c >= 0x40 && c <= 0x7e) ed.esc = ESC_NONE;
        return;
    }

    bool after_cr = ed.after_cr;
    ed.after_cr = (c == '\r');

    switch (c) {
    case '\n':
        if (after_cr) /* the LF of a CRLF */
            break;
        /* fall through */
    case '\r':
        con_end_line();
        break;
    case CH_CTRL_C:
        fputs("^C\n", stdout);
        con_reset_line();
        con_prompt();
        break;
    case CH_CTRL_U:
        if (!ed.overlong)
            for (uint32_t i = 0; i < ed.len; i++)
                fputs("\b \b", stdout);
        con_reset_line();
        break;
    case CH_BS:
    case CH_DEL:
        if (!ed.overlong && ed.len > 0) {
            ed.len--;
            fputs("\b \b", stdout);
        }
        break;
    case CH_ESC:
        ed.esc = ESC_SEEN;
        break;
    default:
        if (c < 0x20 || c > 0x7e) /* other control characters and 8-bit input */
            break;
        if (ed.len < CON_LINE_MAX) {
            ed.buf[ed.len++] = (char)c;
            putchar(c);
        } else if (!ed.overlong) {
            ed.overlong = true;
            putchar('\a');
        }
        break;
    }
}

void con_init(void) {
    con_reset_line();
    ed.after_cr = false;
    ed.esc = ESC_NONE;
    con_prompt();
}

