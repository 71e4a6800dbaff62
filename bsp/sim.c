/* Simulation control (regs/simctrl.toml) and picolibc's _exit. */
#include "sim.h"

#include <solonic_regs.h>
#include <unistd.h>

#include "csr.h"
#include "uart.h"

int sim_present(void) {
    return (REG32(SIMCTRL_IN_SIM) & 1u) != 0;
}

void sim_exit(uint32_t code) {
    uart_flush();
    CSR_CLEAR(mstatus, MSTATUS_MIE);
    REG32(SIMCTRL_EXIT) = code;
    /* The harness stops at the write; a board has nothing to return to. */
    for (;;)
        ;
}

/* exit() (and a return from main, see start.S) ends here. */
void _exit(int code) {
    sim_exit((uint32_t)code);
}
