"""bsp/udiv64.c (the firmware's fast path in front of libgcc's __udivdi3 / __umoddi3)
compiled for the host with counting stand-ins for libgcc (tests/fw/udiv64_shim.c):
quotient and remainder against Python's integers at the 32-bit edges and at random, one
32-bit division exactly when dividend and divisor both fit in 32 bits and the divisor is
not zero, libgcc otherwise."""
import ctypes
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = ctypes.CDLL(os.path.join(ROOT, "build/fw_host/libfwudiv64.so"))
for f in ("fw_udiv64", "fw_umod64"):
    getattr(LIB, f).argtypes = [ctypes.c_uint64, ctypes.c_uint64]
    getattr(LIB, f).restype = ctypes.c_uint64
LIB.host_real_calls.restype = ctypes.c_uint32
M32, M64 = (1 << 32) - 1, (1 << 64) - 1
EDGES = [0, 1, 2, 3, 7, 10, 1000, M32 - 1, M32, M32 + 1, 1 << 33, M64 - 1, M64]


def values():
    rnd = random.Random(7)
    out = [(a, b) for a in EDGES for b in EDGES]
    out += [(rnd.getrandbits(rnd.choice((8, 31, 32, 33, 64))), rnd.getrandbits(rnd.choice((4, 32, 33, 64))))
            for _ in range(4000)]
    return out


def test_quotient_and_remainder_and_the_path_taken():
    for a, b in values():
        for f, want in (("fw_udiv64", a // b if b else M64), ("fw_umod64", a % b if b else a)):
            before = LIB.host_real_calls()
            got = getattr(LIB, f)(a, b)
            slow = LIB.host_real_calls() - before
            assert got == want, (f, a, b, got, want)
            assert slow == (0 if (a <= M32 and 0 < b <= M32) else 1), (f, a, b, slow)
