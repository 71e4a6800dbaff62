/*
 * lwIP's architecture header for the solonic soft core (RV32IM, little
 * endian, picolibc). lwIP includes it through lwip/arch.h.
 */
#ifndef FW_NET_ARCH_CC_H
#define FW_NET_ARCH_CC_H

#include <stdint.h>
#include <stdio.h>

#ifndef BYTE_ORDER
#define BYTE_ORDER LITTLE_ENDIAN
#endif

/* picolibc has errno.h; the raw API does not need lwIP's own errno values */
#define LWIP_ERRNO_STDINCLUDE 1

/* Diagnostics go to the console; a failed assertion ends the run (net_port.c). */
void net_port_assert(const char *msg, const char *file, int line) __attribute__((noreturn));
#define LWIP_PLATFORM_DIAG(x)                                                                      \
    do {                                                                                           \
        printf x;                                                                                  \
    } while (0)
#define LWIP_PLATFORM_ASSERT(x) net_port_assert((x), __FILE__, __LINE__)

/*
 * lwIP's pool memory and heap (memp.c, mem.c) go to .noinit (linker/solonic.ld), which
 * start-up does not clear: memp_init and mem_init write every link and header they rely
 * on. Clearing them was about a quarter of the boot.
 */
#define LWIP_DECLARE_MEMORY_ALIGNED(variable_name, size)                                           \
    u8_t variable_name[LWIP_MEM_ALIGN_BUFFER(size)] __attribute__((section(".noinit." #variable_name)))

/* Random numbers for TCP initial sequence numbers and local ports (net_port.c). */
uint32_t net_port_rand(void);
#define LWIP_RAND() net_port_rand()

#endif
