"""fw/roce/qpx_mem.c's pure part compiled for the host: the pattern word against the
definition of rtl/mem/mem_pkg.sv written here in Python, and the seeds the firmware's
memory writes use (qpx_pat_seed_for_word / _for_byte): the engine's pattern of the seed
is the wanted word (byte) at the wanted address, at the edges and at random."""
import ctypes
import os
import random

from mempattern import M64, pat_word  # tests/fw/mempattern.py: the definition, in Python

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = ctypes.CDLL(os.path.join(ROOT, "build/fw_host/libfwqpxmem.so"))
LIB.qpx_pat_word.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
LIB.qpx_pat_seed_for_word.argtypes = [ctypes.c_uint64, ctypes.c_uint64]
LIB.qpx_pat_seed_for_byte.argtypes = [ctypes.c_uint64, ctypes.c_uint8]
for f in ("qpx_pat_word", "qpx_pat_seed_for_word", "qpx_pat_seed_for_byte"):
    getattr(LIB, f).restype = ctypes.c_uint64
EDGES = [0, 1, 0x7b7b7b7b7b7b7b7b, 0x8000000000000000, M64 - 1, M64]


def samples(n=3000):
    rnd = random.Random(14)
    out = [(a, x) for a in (0, 7, 8, 0x100000 + 3, M64 - 7) for x in EDGES]
    return out + [(rnd.getrandbits(rnd.choice((12, 32, 40, 64))), rnd.getrandbits(64)) for _ in range(n)]


def test_pattern_word_is_mem_pkg_pat_word():
    for a, x in samples(500):
        assert LIB.qpx_pat_word(x, a) == pat_word(x, a), (hex(x), hex(a))


def test_seed_for_word_makes_the_wanted_word_at_the_address():
    for a, x in samples():
        seed = LIB.qpx_pat_seed_for_word(a, x)
        assert pat_word(seed, a >> 3) == x, (hex(a), hex(x), hex(seed))


def test_seed_for_byte_makes_the_wanted_byte_at_the_address():
    rnd = random.Random(15)
    for a in [0, 1, 6, 7, 8, M64] + [rnd.getrandbits(40) for _ in range(1000)]:
        v = rnd.getrandbits(8)
        seed = LIB.qpx_pat_seed_for_byte(a, v)
        assert (pat_word(seed, a >> 3) >> (8 * (a & 7))) & 0xff == v, (hex(a), v, hex(seed))
