/* crt.S: start-up, end of test and trap handlers of the ISA programs. */
#include "env.h"

    .option norvc
    .section .text.start, "ax"
    .globl _start
_start:
    /* Known register state on both platforms (QEMU passes a0/a1). */
    li x1, 0
    li x2, 0
    li x3, 0
    li x4, 0
    li x5, 0
    li x6, 0
    li x7, 0
    li x8, 0
    li x9, 0
    li x10, 0
    li x11, 0
    li x12, 0
    li x13, 0
    li x14, 0
    li x15, 0
    li x16, 0
    li x17, 0
    li x18, 0
    li x19, 0
    li x20, 0
    li x21, 0
    li x22, 0
    li x23, 0
    li x24, 0
    li x25, 0
    li x26, 0
    li x27, 0
    li x28, 0
    li x29, 0
    li x30, 0
    li x31, 0
    la sp, _stack_top
    la x31, sig_buf
    la x26, chk_buf
    /* .data from its load image, .bss cleared */
    la t0, _data_lma
    la t1, _data_start
    la t2, _data_end
1:  bgeu t1, t2, 2f
    lw t3, 0(t0)
    sw t3, 0(t1)
    addi t0, t0, 4
    addi t1, t1, 4
    j 1b
2:  la t1, _bss_start
    la t2, _bss_end
3:  bgeu t1, t2, 4f
    sw zero, 0(t1)
    addi t1, t1, 4
    j 3b
4:
#ifdef TARGET_QEMU
    /* The CLINT's mtimecmp resets to 0 (timer pending); the bench's timer is off. */
    TIMER_OFF t0
#endif
    li t0, 0
    li t1, 0
    li t2, 0
    li t3, 0
    la x27, env_trap_abort
    csrw mtvec, x27
    call main
    j env_done

/* ---------------------------------------------------------------- traps */
    .text
    .balign 4
    .globl env_trap_expect
env_trap_expect:
    beqz t3, env_trap_abort
    csrr x27, mcause
    SIG x27
    csrr x27, mepc
    sub x27, x27, t5
    SIG x27
    csrr x27, mtval
    sub x27, x27, t4
    SIG x27
    csrw mepc, t3
    li t3, 0
    mret

    /* An unexpected trap: record (0xDEAD, mepc, mcause) and end the test. */
    .balign 4
    .globl env_trap_abort
env_trap_abort:
    csrr x27, mepc
    sw x27, 4(x26)
    csrr x27, mcause
    sw x27, 8(x26)
    li x27, 0xDEAD
    sw x27, 0(x26)
    addi x26, x26, 12
    j env_done

/* ---------------------------------------------------------------- end of test */
    .globl env_done
env_done:
    la sp, _stack_top
#ifdef TARGET_CORE
    li s0, SIMCTL
    la t0, sig_buf
1:  bgeu t0, x31, 2f
    lw t1, 0(t0)
    sw t1, SIMCTL_SIG(s0)
    addi t0, t0, 4
    j 1b
2:  la t0, chk_buf
3:  bgeu t0, x26, 4f
    lw t1, 0(t0)
    lw t2, 4(t0)
    lw t3, 8(t0)
    sw t2, SIMCTL_CHK_EXP(s0)
    sw t3, SIMCTL_CHK_GOT(s0)
    sw t1, SIMCTL_CHK_ID(s0)
    addi t0, t0, 12
    j 3b
4:  la t0, chk_buf
    sub t1, x26, t0
    snez t1, t1
    sw t1, SIMCTL_EXIT(s0)
5:  j 5b
#else
    /* QEMU: print "S <word>" per signature word, "C <id> <exp> <got>" per
     * failed check, then leave through semihosting SYS_EXIT. */
    la s0, sig_buf
1:  bgeu s0, x31, 2f
    li a0, 'S'
    call env_putc
    lw a0, 0(s0)
    call env_puthex
    li a0, '\n'
    call env_putc
    addi s0, s0, 4
    j 1b
2:  la s0, chk_buf
3:  bgeu s0, x26, 4f
    li a0, 'C'
    call env_putc
    lw a0, 0(s0)
    call env_puthex
    lw a0, 4(s0)
    call env_puthex
    lw a0, 8(s0)
    call env_puthex
    li a0, '\n'
    call env_putc
    addi s0, s0, 12
    j 3b
4:  la s0, chk_buf
    li a1, 0x20026          /* ADP_Stopped_ApplicationExit: status 0 */
    beq s0, x26, 5f
    li a1, 0x20023          /* ADP_Stopped_RunTimeErrorUnknown: status 1 */
5:  li a0, 0x18             /* SYS_EXIT */
    call env_semihost
6:  j 6b

/* a0: character */
env_putc:
    addi sp, sp, -16
    sw ra, 12(sp)
    sb a0, 0(sp)
    mv a1, sp
    li a0, 0x03             /* SYS_WRITEC */
    call env_semihost
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

/* a0: word, printed as " xxxxxxxx" */
env_puthex:
    addi sp, sp, -16
    sw ra, 12(sp)
    sw s1, 8(sp)
    sw s2, 4(sp)
    mv s1, a0
    li a0, ' '
    call env_putc
    li s2, 8
1:  srli a0, s1, 28
    slli s1, s1, 4
    li t0, 10
    blt a0, t0, 2f
    addi a0, a0, 'a' - '0' - 10
2:  addi a0, a0, '0'
    call env_putc
    addi s2, s2, -1
    bnez s2, 1b
    lw s2, 4(sp)
    lw s1, 8(sp)
    lw ra, 12(sp)
    addi sp, sp, 16
    ret

/* The semihosting trap sequence; 16-byte aligned so it never crosses a page. */
    .balign 16
env_semihost:
    slli x0, x0, 0x1f
    ebreak
    srai x0, x0, 7
    ret
#endif

/* ---------------------------------------------------------------- buffers */
    .section .bss.env, "aw", @nobits
    .balign 4
    .globl sig_buf
sig_buf:
    .space 16384
    .globl chk_buf
chk_buf:
    .space 1536
