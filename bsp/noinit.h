/*
 * Scratch memory start-up does not clear (.noinit, linker/solonic.ld): for buffers every
 * user writes before reading. Clearing .bss is most of the boot (the core stores a word
 * in 3 cycles), so large scratch buffers go here: NOINIT(name) before the declaration.
 */
#ifndef BSP_NOINIT_H
#define BSP_NOINIT_H

#define NOINIT(name) __attribute__((section(".noinit." #name)))

#endif
