"""The fill/check engine's pattern in Python (rtl/mem/mem_pkg.sv pat_word,
rtl/mem/mem_pattern_ref.h): byte A of seed S is byte A mod 8 of pat_word(S, A / 8).
The tests' independent copy of the definition (tests/fw/test_qpx_mem.py, tests/fuzz)."""
M64 = (1 << 64) - 1


def xorshift(x):
    x ^= (x << 13) & M64
    x ^= x >> 7
    x ^= (x << 17) & M64
    return x


def pat_word(seed, word):
    """mem_pkg::pat_word: the pattern's 64-bit word `word` (address / 8) of `seed`."""
    x = xorshift(((seed ^ word) + 0x9E3779B97F4A7C15) & M64)
    return xorshift((x + 0xD1B54A32D192ED03) & M64)


def pattern(seed, addr, n):
    """The bytes `fill ADDR n SEED` writes at addr."""
    out = bytearray()
    w0, w1 = addr >> 3, (addr + n + 7) >> 3
    for w in range(w0, w1):
        out += pat_word(seed, w).to_bytes(8, "little")
    s = addr - (w0 << 3)
    return bytes(out[s:s + n])
