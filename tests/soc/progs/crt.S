/* Start-up of the SoC test programs: stack at the top of DMEM, .bss
   cleared, trap vector set, main() called, its return value written to the
   simctrl exit register (0x2000_3008). */
    .section .text.start, "ax"
    .globl _start
_start:
    la      sp, __stack_top
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  la      t0, trap_vector
    csrw    mtvec, t0
    call    main
    .globl  soc_exit
soc_exit:
    li      t0, 0x20003008
    sw      a0, 0(t0)
3:  j       3b
