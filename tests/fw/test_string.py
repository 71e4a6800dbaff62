"""bsp/string.c (the firmware's memcpy, memmove and memset, by words where the pointers
allow) compiled for the host: every alignment of source and destination, every length up
to 70 bytes and a few long ones, against Python's own slice copies, and the guard bytes
around the destination untouched."""
import ctypes
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = ctypes.CDLL(os.path.join(ROOT, "build/fw_host/libfwstring.so"))
for f in ("fw_memcpy", "fw_memmove"):
    getattr(LIB, f).argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
    getattr(LIB, f).restype = ctypes.c_void_p
LIB.fw_memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
LIB.fw_memset.restype = ctypes.c_void_p
LENGTHS = list(range(0, 71)) + [255, 256, 1000, 4099]
SIZE = 4200 + 64


PATTERNS = {seed: random.Random(seed).randbytes(SIZE) for seed in (1, 2, 3, 4)}


def buf(seed):
    b = PATTERNS[seed]
    return ctypes.create_string_buffer(b, SIZE), bytearray(b)


def test_memcpy_every_alignment_and_length():
    for da in range(4):
        for sa in range(4):
            for n in LENGTHS:
                dst, want = buf(1)
                src, s = buf(2)
                base = ctypes.addressof(dst)
                r = LIB.fw_memcpy(base + 8 + da, ctypes.addressof(src) + 8 + sa, n)
                want[8 + da:8 + da + n] = s[8 + sa:8 + sa + n]
                assert r == base + 8 + da
                assert dst.raw == bytes(want), (da, sa, n)


def test_memmove_overlapping_both_ways():
    for da in range(4):
        for sa in range(4):
            for n in LENGTHS:
                for shift in (-9, -4, -1, 1, 3, 4, 8):
                    b, want = buf(3)
                    base = ctypes.addressof(b)
                    src = 64 + sa
                    dst = src + shift + da
                    if dst < 0 or dst + n > SIZE or src + n > SIZE:
                        continue
                    LIB.fw_memmove(base + dst, base + src, n)
                    want[dst:dst + n] = bytes(want[src:src + n])
                    assert b.raw == bytes(want), (da, sa, n, shift)


def test_memset_every_alignment_and_length():
    for da in range(4):
        for n in LENGTHS:
            for c in (0, 0xa5, 0x1ff):  # memset takes the low byte of c
                b, want = buf(4)
                LIB.fw_memset(ctypes.addressof(b) + 8 + da, c, n)
                want[8 + da:8 + da + n] = bytes([c & 0xff]) * n
                assert b.raw == bytes(want), (da, n, c)
