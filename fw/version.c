/*
 * Build identity.  FW_GIT_DESCRIBE comes from the generated version.h
 * (rewritten only when git describe changes); FW_BUILD_DATE is passed on the
 * command line and this file is recompiled whenever any other object of the
 * image changes (fw/rules.mk).
 */
#include <solonic_regs.h>
#include <stdio.h>

#include "fw.h"
#include "version.h"

#ifndef FW_BUILD_DATE
#define FW_BUILD_DATE "unknown"
#endif

const char fw_version[] = FW_GIT_DESCRIBE;
const char fw_build_date[] = FW_BUILD_DATE;

/* Linker script sizes (linker/solonic.ld), compared with the hardware's. */
extern const char __imem_bytes[], __dmem_bytes[];

void fw_banner(void) {
    uint32_t hz = REG32(SYSINFO_CLK_HZ);
    uint32_t imem = REG32(SYSINFO_IMEM_BYTES);
    uint32_t dmem = REG32(SYSINFO_DMEM_BYTES);

    printf("\nsolonic %s (built %s)\n", fw_version, fw_build_date);
    printf("core clock %lu.%03lu MHz, IMEM %lu KiB, DMEM %lu KiB, bitstream %08lx\n",
           (unsigned long)(hz / 1000000u), (unsigned long)(hz % 1000000u / 1000u),
           (unsigned long)(imem / 1024u), (unsigned long)(dmem / 1024u),
           (unsigned long)REG32(SYSINFO_GIT_HASH));
    if (imem < (uint32_t)(uintptr_t)__imem_bytes || dmem < (uint32_t)(uintptr_t)__dmem_bytes)
        printf("warning: firmware linked for IMEM %lu KiB, DMEM %lu KiB: more than this SoC has\n",
               (unsigned long)((uintptr_t)__imem_bytes / 1024u),
               (unsigned long)((uintptr_t)__dmem_bytes / 1024u));
    printf("type 'help' for the commands\n");
}
