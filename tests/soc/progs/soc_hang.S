/* Never exits: the simulator must stop it at its limit with exit code 124. */
    .section .text.start, "ax"
    .globl _start
_start:
    li      t0, 0x20001008
    li      t1, 'h'
    sw      t1, 0(t0)
1:  addi    t2, t2, 1
    j       1b
