/* Trap handling: the frame bsp/start.S saves, and probing accesses. */
#ifndef BSP_TRAP_H
#define BSP_TRAP_H

#include <stdint.h>

/* Layout fixed by trap_entry in bsp/start.S. */
struct trap_frame {
    uint32_t x[32]; /* x[0] reads as 0, x[2] is sp before the trap */
    uint32_t mepc;
    uint32_t mcause;
    uint32_t mtval;
    uint32_t mstatus;
};

/* C side of trap_entry: interrupts to their driver, exceptions are fatal. */
void trap_handler(struct trap_frame *f);

/*
 * A 32-bit load or store that reports a bus error or misalignment instead
 * of taking the fatal exception path: 0 on success, -1 when the access
 * trapped (*mcause, if not NULL, receives the exception cause).
 */
int trap_probe_read32(uint32_t addr, uint32_t *val, uint32_t *mcause);
int trap_probe_write32(uint32_t addr, uint32_t val, uint32_t *mcause);

/* A short name for an exception cause ("load access fault"). */
const char *trap_cause_name(uint32_t mcause);

#endif
