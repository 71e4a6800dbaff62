/*
 * The UART console: line editing, the command table and helpers for
 * command handlers.
 *
 * A command registers itself next to its handler:
 *
 *     static int cmd_uptime(int argc, char **argv) { ... }
 *     CON_COMMAND(uptime, "", "time since reset", cmd_uptime);
 *
 * The macro puts a struct con_cmd into section .con_cmds.<name>; the linker
 * script (linker/solonic.ld) collects these sections sorted by name between
 * __con_cmds_start and __con_cmds_end.  Nothing central changes when a
 * command is added.  CON_COMMAND_MORE also names a function that prints
 * further lines for 'help NAME'.
 */
#ifndef FW_CONSOLE_H
#define FW_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

/* A handler returns CON_OK or CON_ERR; argv[0] is the command name. */
#define CON_OK 0
#define CON_ERR 1

struct con_cmd {
    const char *name; /* one word, what the user types */
    const char *args; /* argument synopsis, "" for none */
    const char *help; /* one line */
    int (*fn)(int argc, char **argv);
    void (*more)(void); /* optional: more lines for 'help NAME' */
};

#define CON_COMMAND_MORE(name_, args_, help_, fn_, more_)                                          \
    static const struct con_cmd con_cmd_##name_                                                    \
        __attribute__((used, section(".con_cmds." #name_), aligned(4))) = {#name_, args_, help_,   \
                                                                           fn_, more_}
#define CON_COMMAND(name_, args_, help_, fn_) CON_COMMAND_MORE(name_, args_, help_, fn_, NULL)

#define CON_LINE_MAX 127 /* characters in one command line */
#define CON_ARGS_MAX 24  /* words in one command line (user source start with every option) */
#define CON_PROMPT "solonic> "

extern const struct con_cmd __con_cmds_start[];
extern const struct con_cmd __con_cmds_end[];

/* Print the prompt; call once before feeding characters. */
void con_init(void);

/* Feed one received character to the line editor (fw/main.c's console_poll: the
   type-ahead kept while a command ran first, then the UART, a bounded number a pass). */
void con_input(uint8_t c);

/*
 * While a command runs: 1 if Ctrl-C was typed since the last call. Every other
 * character is kept, in the order typed, for the console (con_typeahead_getc);
 * with CON_TYPEAHEAD_MAX kept, the rest waits in the UART's receive FIFO. Every
 * command that watches for Ctrl-C calls this one function, so no typed
 * character is lost whichever command runs.
 */
#define CON_TYPEAHEAD_MAX 1024
int con_interrupted(void);

/* The oldest character con_interrupted kept; -1 when none (fw/main.c feeds them
   to the console before it reads the UART again). */
int con_typeahead_getc(void);

/* The command called name, or NULL. */
const struct con_cmd *con_find(const char *name);

/* "usage: NAME ARGS" for one command. */
void con_usage(const struct con_cmd *c);

/*
 * Parse a 32-bit unsigned number: decimal, or hexadecimal with 0x.  On
 * failure print "CMD: WHAT: expected a number (decimal or 0x hex), got 'S'"
 * and return -1.
 */
int con_parse_u32(const char *cmd, const char *what, const char *s, uint32_t *out);

/*
 * Parse a strict dotted IPv4 address (four decimal numbers 0..255, nothing else) into
 * *out, host order (10.0.0.1 -> 0x0a000001). On failure print "CMD: WHAT: expected a
 * dotted IPv4 address like 10.0.0.2, got 'S'" and return -1.
 */
int con_parse_ip4(const char *cmd, const char *what, const char *s, uint32_t *out);

#endif
