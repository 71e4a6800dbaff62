/* Every SoC register block answers its ID and VERSION words; sysinfo
   describes this SoC; simctrl says it is a simulation. Exit 0 when all match. */
#include "soc_test.h"

uint32_t on_trap(struct trap *t) {
    put_str("FAIL unexpected trap, mcause 0x");
    put_hex(t->mcause);
    put_char('\n');
    soc_exit(99);
}

int main(void) {
    check("sysinfo ID 'SLNC'", 0x534c4e43u, REG(SYSINFO_BASE));
    check("sysinfo VERSION", 1, REG(SYSINFO_BASE + 4));
    check("uart ID 'UART'", 0x55415254u, REG(UART_BASE));
    check("uart VERSION", 1, REG(UART_BASE + 4));
    check("timer ID 'TIMR'", 0x54494d52u, REG(TIMER_BASE));
    check("timer VERSION", 1, REG(TIMER_BASE + 4));
    check("simctrl ID 'SIMC'", 0x53494d43u, REG(SIMCTRL_BASE));
    check("simctrl VERSION", 1, REG(SIMCTRL_BASE + 4));
    check("sysinfo clk_hz", 250000000u, REG(SYSINFO_BASE + 0x0c));
    check("sysinfo imem_bytes", 256u * 1024, REG(SYSINFO_BASE + 0x10));
    check("sysinfo dmem_bytes", 256u * 1024, REG(SYSINFO_BASE + 0x14));
    check("simctrl in_sim", 1, REG(SIMCTRL_BASE + 0x0c));
    REG(SYSINFO_BASE + 0x18) = 0xa5a5c3c3u;
    check("sysinfo scratch", 0xa5a5c3c3u, REG(SYSINFO_BASE + 0x18));
    put_str(soc_fails ? "soc_ids: FAILED\n" : "soc_ids: ok\n");
    return soc_fails ? 1 : 0;
}
