/* System commands: help, version, uptime, exit, fault, watchdog. */
#include <solonic_regs.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "fw.h"
#include "sim.h"
#include "timer.h"
#include "wdog.h"

static void help_line(const struct con_cmd *c, int width) {
    int n = printf("  %s%s%s", c->name, c->args[0] ? " " : "", c->args);
    printf("%*s  %s\n", width - n + 2, "", c->help);
}

static int cmd_help(int argc, char **argv) {
    if (argc > 2) {
        printf("help: too many arguments\n");
        return CON_ERR;
    }
    if (argc == 2) {
        const struct con_cmd *c = con_find(argv[1]);
        if (!c) {
            printf("help: no command '%s'; type 'help'\n", argv[1]);
            return CON_ERR;
        }
        con_usage(c);
        printf("  %s\n", c->help);
        if (c->more) c->more();
        return CON_OK;
    }
    /* The linker sorted the table by name (SORT_BY_NAME in linker/solonic.ld). */
    int width = 0;
    for (const struct con_cmd *c = __con_cmds_start; c < __con_cmds_end; c++) {
        int n = 2 + (int)strlen(c->name) + (c->args[0] ? 1 + (int)strlen(c->args) : 0);
        if (n > width) width = n;
    }
    printf("commands:\n");
    for (const struct con_cmd *c = __con_cmds_start; c < __con_cmds_end; c++)
        help_line(c, width);
    return CON_OK;
}
CON_COMMAND(help, "[COMMAND]", "list the commands, or show how to use one", cmd_help);

static int cmd_version(int argc, char **argv) {
    (void)argv;
    if (argc != 1) {
        printf("version: takes no arguments\n");
        return CON_ERR;
    }
    printf("solonic %s\n", fw_version);
    printf("built %s with gcc %s, picolibc %s\n", fw_build_date, __VERSION__, _PICOLIBC_VERSION);
    printf("bitstream %08lx, core clock %lu Hz\n", (unsigned long)REG32(SYSINFO_GIT_HASH),
           (unsigned long)REG32(SYSINFO_CLK_HZ));
    return CON_OK;
}
CON_COMMAND(version, "", "firmware version, build date and bitstream identity", cmd_version);

static int cmd_uptime(int argc, char **argv) {
    (void)argv;
    if (argc != 1) {
        printf("uptime: takes no arguments\n");
        return CON_ERR;
    }
    uint64_t cycles = tmr_cycles();
    uint32_t hz = tmr_clk_hz();
    uint32_t ms = (uint32_t)((cycles / hz) * 1000u + ((cycles % hz) * 1000u) / hz);
    printf("uptime %lu ms, %llu cycles at %lu Hz", (unsigned long)ms, (unsigned long long)cycles,
           (unsigned long)hz);
    if (tmr_tick_period_ms())
        printf(", %lu timer ticks of %lu ms", (unsigned long)tmr_ticks(),
               (unsigned long)tmr_tick_period_ms());
    printf("\n");
    return CON_OK;
}
CON_COMMAND(uptime, "", "time since reset in milliseconds and core cycles", cmd_uptime);

static int cmd_exit(int argc, char **argv) {
    uint32_t code = 0;

    if (argc > 2) {
        printf("exit: too many arguments\n");
        return CON_ERR;
    }
    if (argc == 2) {
        if (con_parse_u32("exit", "CODE", argv[1], &code) != 0) return CON_ERR;
        if (code > 255) {
            printf("exit: CODE: expected 0..255, got %lu\n", (unsigned long)code);
            return CON_ERR;
        }
    }
    if (!sim_present()) {
        printf("exit: there is no simulation to end (this is a board)\n");
        return CON_ERR;
    }
    printf("exit: ending the simulation with code %lu\n", (unsigned long)code);
    sim_exit(code);
}
CON_COMMAND(exit, "[CODE]", "end the simulation with exit code CODE (default 0)", cmd_exit);

/* A word load from addr, exactly one lw (the compiler would split a misaligned one). */
static void fault_load(uint32_t addr) {
    uint32_t v;

    __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(addr) : "memory");
    (void)v;
}

static int cmd_fault(int argc, char **argv) {
    if (argc != 2) goto usage;
    printf("fault: provoking '%s'\n", argv[1]);
    if (strcmp(argv[1], "illegal") == 0)
        __asm__ volatile(".word 0x00000000"); /* all-zero: defined to be illegal */
    else if (strcmp(argv[1], "load") == 0)
        fault_load(0x50000000u); /* unmapped */
    else if (strcmp(argv[1], "misaligned") == 0)
        fault_load(0x10000002u);
    else if (strcmp(argv[1], "ebreak") == 0)
        __asm__ volatile("ebreak");
    else if (strcmp(argv[1], "ecall") == 0)
        __asm__ volatile("ecall");
    else if (strcmp(argv[1], "hang") == 0) {
        if (!wdog_armed()) {
            printf("fault: the watchdog is off: a hang would last until a power-on reset\n");
            return CON_ERR;
        }
        printf("fault: spinning with interrupts off; the watchdog restarts the firmware in %lu ms\n",
               (unsigned long)wdog_timeout_ms());
        __asm__ volatile("csrc mstatus, %0" ::"r"(8u)); /* MIE */
        for (;;)
            __asm__ volatile("" ::: "memory");
    } else
        goto usage;
    printf("fault: no trap taken\n");
    return CON_ERR;
usage:
    printf("fault: expected one of illegal, load, misaligned, ebreak, ecall, hang\n");
    return CON_ERR;
}
CON_COMMAND(fault, "KIND",
            "take an exception (illegal|load|misaligned|ebreak|ecall; ends the simulation) or hang "
            "(the watchdog restarts the firmware)",
            cmd_fault);

static void wdog_show(void) {
    if (wdog_armed())
        printf("watchdog: on, timeout %lu ms, %lu ms left", (unsigned long)wdog_timeout_ms(),
               (unsigned long)wdog_remaining_ms());
    else
        printf("watchdog: off");
    printf(", %lu restart(s) since power-on\n", (unsigned long)wdog_bites());
}

static int cmd_watchdog(int argc, char **argv) {
    if (argc > 2) {
        printf("watchdog: expected no argument, MS (1..%u) or off\n", WDOG_MAX_MS);
        return CON_ERR;
    }
    if (argc == 2 && strcmp(argv[1], "off") == 0) {
        wdog_stop();
    } else if (argc == 2) {
        uint32_t ms;
        if (con_parse_u32("watchdog", "MS", argv[1], &ms) != 0) return CON_ERR;
        if (ms < 1 || ms > WDOG_MAX_MS) {
            printf("watchdog: MS: expected 1..%u, got %lu\n", WDOG_MAX_MS, (unsigned long)ms);
            return CON_ERR;
        }
        wdog_start(ms);
    }
    wdog_show();
    return CON_OK;
}
CON_COMMAND(watchdog, "[MS|off]",
            "show the watchdog, arm it with a timeout of MS ms, or turn it off", cmd_watchdog);
