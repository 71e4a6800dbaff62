/*
 * The firmware's byte-level access to on-board memory for the tools' data
 * phase, through the fill/check engine (regs/mempat.toml, rtl/mem/mem_pattern.sv):
 * the core has no load/store path to that memory.
 *
 * The engine writes or compares the pattern byte P(seed, A) = byte A mod 8 of
 * pat_word(seed, A / 8), and pat_word(seed, w) = F(seed ^ w) with F a bijection
 * of 64-bit words (two additions and two xorshifts). Inverting F gives, for any
 * wanted 64-bit word X at word address w, the seed F^-1(X) ^ w: a 1..8 byte fill
 * with that seed writes exactly the wanted bytes, and a 1-byte check with it
 * tells whether memory holds the wanted value (write_lat's watch of the last
 * byte of its buffer). A check also returns the first 16 bytes it read (the
 * engine's peek registers): qpx_mem_read, the firmware's memory load.
 * Pure C part (the seeds) compiles on the host too.
 */
#ifndef FW_ROCE_QPX_MEM_H
#define FW_ROCE_QPX_MEM_H

#include <stdbool.h>
#include <stdint.h>

/* pat_word of rtl/mem/mem_pkg.sv and its inverse. */
uint64_t qpx_pat_word(uint64_t seed, uint64_t word);
/* The seed whose pattern word at byte address addr (any; addr / 8 counts) is x. */
uint64_t qpx_pat_seed_for_word(uint64_t addr, uint64_t x);
/* The seed whose pattern byte at addr is v. */
uint64_t qpx_pat_seed_for_byte(uint64_t addr, uint8_t v);

#ifndef QPX_MEM_HOST
/* The engine exists (probed once, quiet). */
bool qpx_mem_present(void);
/* Write n bytes from b at addr (any alignment, any length): one engine run per 8-byte
   word touched (a run takes one seed, and one seed makes one wanted word: the next
   word's pattern follows from it), the next word's seed computed while the engine
   writes the current one, each run waited for at most a millisecond of simulated time;
   0, or -1 (engine busy too long, AXI error) with *err. */
int qpx_mem_write(uint64_t addr, const uint8_t *b, uint32_t n, const char **err);
/* Write one byte; 0 or -1 with *err. */
int qpx_mem_write_byte(uint64_t addr, uint8_t v, const char **err);
/* Fill [addr, addr+len) with ibv_rc_pingpong --chk's buffer (0x7b, 0 at each 4 KiB
   page start, page offsets counted from addr): 0 or -1 with *err. One engine run
   per 8 bytes. */
int qpx_mem_fill_chk(uint64_t addr, uint32_t len, const char **err);
/* Read len (1..QPX_MEM_READ_MAX, any alignment) bytes at addr into out: 0, or -1
   with *err. One engine run. */
#define QPX_MEM_READ_MAX 16u
int qpx_mem_read(uint64_t addr, uint32_t len, uint8_t *out, const char **err);

/* One engine run over [addr, addr+len) (len 1..2^30), mode 0 fill with the pattern of
   seed, 1 check against it, waited for at most ENGINE_RANGE_MS (simulated, the watchdog
   kicked meanwhile; 1 GiB at line rate takes ~90 ms): the status register (its
   dma_status says an AXI error; err_count, first_bad and cycles hold the run's figures),
   or -1 with *err (no engine, busy, no end). The console's fill and verify and the two
   below. */
int qpx_mem_run(uint64_t addr, uint32_t len, uint64_t seed, uint32_t mode, const char **err);
/* Fill [addr, addr+len) with the pattern of seed: 0, or -1 with *err (qpx_mem_run's, or
   an AXI error). */
int qpx_mem_fill(uint64_t addr, uint32_t len, uint64_t seed, const char **err);
/* Check [addr, addr+len) against the pattern of seed: the number of differing bytes
   (0: all match; *first_bad the first one's address otherwise), or -1 with *err. */
int64_t qpx_mem_check(uint64_t addr, uint32_t len, uint64_t seed, uint64_t *first_bad,
                      const char **err);

/* Start a non-blocking check "does the byte at addr hold v": 0 started, -1 busy. */
int qpx_mem_watch_start(uint64_t addr, uint8_t v);
/* Its result: 1 equal, 0 different, -1 still running, -2 the memory answered an error. */
int qpx_mem_watch_result(void);
#endif

#endif
