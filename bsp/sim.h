/* Simulation control: end the simulation with an exit code (regs/simctrl.toml). */
#ifndef BSP_SIM_H
#define BSP_SIM_H

#include <stdint.h>

/* Exit codes the BSP itself uses (the harness uses 124 and 2). */
#define SIM_EXIT_OK 0
#define SIM_EXIT_TRAP 70 /* unexpected exception or interrupt */

/* Non-zero when running in the Verilator harness, 0 on a board. */
int sim_present(void);

/*
 * Flush the UART, write code to the simctrl exit register and stop.  In the
 * simulation the harness ends the process with this exit code; on a board
 * (where the write does nothing) the core halts in a wfi loop.
 */
__attribute__((noreturn)) void sim_exit(uint32_t code);

#endif
