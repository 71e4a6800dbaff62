/* Machine-mode CSR access and the bits the BSP uses (RISC-V privileged spec). */
#ifndef BSP_CSR_H
#define BSP_CSR_H

#include <stdint.h>

#define CSR_READ(csr)                                                                              \
    ({                                                                                             \
        uint32_t v_;                                                                               \
        __asm__ volatile("csrr %0, " #csr : "=r"(v_));                                             \
        v_;                                                                                        \
    })
#define CSR_WRITE(csr, val) __asm__ volatile("csrw " #csr ", %0" ::"rK"(val))
#define CSR_SET(csr, bits) __asm__ volatile("csrs " #csr ", %0" ::"rK"(bits))
#define CSR_CLEAR(csr, bits) __asm__ volatile("csrc " #csr ", %0" ::"rK"(bits))

#define MSTATUS_MIE (1u << 3)
#define MIE_MTIE (1u << 7)

#define MCAUSE_INTERRUPT (1u << 31)
#define MCAUSE_CODE(c) ((c)&0x7fffffffu)
#define IRQ_M_TIMER 7u

#define EXC_INSN_MISALIGNED 0u
#define EXC_INSN_FAULT 1u
#define EXC_ILLEGAL_INSN 2u
#define EXC_BREAKPOINT 3u
#define EXC_LOAD_MISALIGNED 4u
#define EXC_LOAD_FAULT 5u
#define EXC_STORE_MISALIGNED 6u
#define EXC_STORE_FAULT 7u
#define EXC_ECALL_M 11u

#endif
