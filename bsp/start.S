/*
 * solonic start-up and trap entry (machine mode, RV32IM + Zicsr).
 *
 * _start sits at the reset vector (linker/solonic.ld keeps .text.start
 * first): it sets up sp, gp, tp and mtvec, copies .data/.tdata from their
 * load image in IMEM to DMEM, clears .tbss/.bss, runs the C constructors,
 * calls main(0, NULL) and hands main's return value to exit(), which ends
 * in _exit() -> sim_exit() (bsp/sim.c).
 *
 * trap_entry saves every integer register and the trap CSRs in a
 * struct trap_frame (bsp/trap.h) on the current stack and calls
 * trap_handler(frame); the handler may change frame->mepc (to skip a
 * faulting instruction) before the registers are restored and mret runs.
 */

#define FRAME_WORDS 36          /* x0..x31, mepc, mcause, mtval, mstatus */
#define FRAME_BYTES (FRAME_WORDS * 4)

    .section .text.start, "ax"
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax             /* gp is not set yet */
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      tp, __tls_base
    la      t0, trap_entry
    csrw    mtvec, t0
    csrw    mie, zero
    csrw    mstatus, zero

    /* .data and .tdata: copy words from IMEM to DMEM */
    la      t0, __data_load
    la      t1, __data_start
    la      t2, __data_end
1:  bgeu    t1, t2, 2f
    lw      t3, 0(t0)
    sw      t3, 0(t1)
    addi    t0, t0, 4
    addi    t1, t1, 4
    j       1b
2:
    /* .tbss and .bss: clear, 32 bytes a turn while they last (the firmware's tables make
       .bss large: boot time), then word by word */
    la      t1, __bss_start
    la      t2, __bss_end
    addi    t3, t2, -32
5:  bgtu    t1, t3, 3f
    sw      zero, 0(t1)
    sw      zero, 4(t1)
    sw      zero, 8(t1)
    sw      zero, 12(t1)
    sw      zero, 16(t1)
    sw      zero, 20(t1)
    sw      zero, 24(t1)
    sw      zero, 28(t1)
    addi    t1, t1, 32
    j       5b
3:  bgeu    t1, t2, 4f
    sw      zero, 0(t1)
    addi    t1, t1, 4
    j       3b
4:
    call    __libc_init_array
    li      a0, 0
    li      a1, 0
    call    main
    call    exit                /* never returns */
5:  j       5b
    .size _start, . - _start

    .text
    .globl trap_entry
    .type trap_entry, @function
    .balign 4
trap_entry:
    addi    sp, sp, -FRAME_BYTES
    sw      x1,   1*4(sp)
    /* x2 (sp) is stored below, as its value before the trap */
    sw      x3,   3*4(sp)
    sw      x4,   4*4(sp)
    sw      x5,   5*4(sp)
    sw      x6,   6*4(sp)
    sw      x7,   7*4(sp)
    sw      x8,   8*4(sp)
    sw      x9,   9*4(sp)
    sw      x10, 10*4(sp)
    sw      x11, 11*4(sp)
    sw      x12, 12*4(sp)
    sw      x13, 13*4(sp)
    sw      x14, 14*4(sp)
    sw      x15, 15*4(sp)
    sw      x16, 16*4(sp)
    sw      x17, 17*4(sp)
    sw      x18, 18*4(sp)
    sw      x19, 19*4(sp)
    sw      x20, 20*4(sp)
    sw      x21, 21*4(sp)
    sw      x22, 22*4(sp)
    sw      x23, 23*4(sp)
    sw      x24, 24*4(sp)
    sw      x25, 25*4(sp)
    sw      x26, 26*4(sp)
    sw      x27, 27*4(sp)
    sw      x28, 28*4(sp)
    sw      x29, 29*4(sp)
    sw      x30, 30*4(sp)
    sw      x31, 31*4(sp)
    addi    t0, sp, FRAME_BYTES
    sw      t0,   2*4(sp)
    sw      zero, 0*4(sp)
    csrr    t0, mepc
    sw      t0,  32*4(sp)
    csrr    t0, mcause
    sw      t0,  33*4(sp)
    csrr    t0, mtval
    sw      t0,  34*4(sp)
    csrr    t0, mstatus
    sw      t0,  35*4(sp)

    mv      a0, sp
    call    trap_handler

    lw      t0,  32*4(sp)
    csrw    mepc, t0
    lw      t0,  35*4(sp)
    csrw    mstatus, t0
    lw      x1,   1*4(sp)
    lw      x3,   3*4(sp)
    lw      x4,   4*4(sp)
    lw      x5,   5*4(sp)
    lw      x6,   6*4(sp)
    lw      x7,   7*4(sp)
    lw      x8,   8*4(sp)
    lw      x9,   9*4(sp)
    lw      x10, 10*4(sp)
    lw      x11, 11*4(sp)
    lw      x12, 12*4(sp)
    lw      x13, 13*4(sp)
    lw      x14, 14*4(sp)
    lw      x15, 15*4(sp)
    lw      x16, 16*4(sp)
    lw      x17, 17*4(sp)
    lw      x18, 18*4(sp)
    lw      x19, 19*4(sp)
    lw      x20, 20*4(sp)
    lw      x21, 21*4(sp)
    lw      x22, 22*4(sp)
    lw      x23, 23*4(sp)
    lw      x24, 24*4(sp)
    lw      x25, 25*4(sp)
    lw      x26, 26*4(sp)
    lw      x27, 27*4(sp)
    lw      x28, 28*4(sp)
    lw      x29, 29*4(sp)
    lw      x30, 30*4(sp)
    lw      x31, 31*4(sp)
    addi    sp, sp, FRAME_BYTES
    mret
    .size trap_entry, . - trap_entry
