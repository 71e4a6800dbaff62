#!/usr/bin/env python3
"""The instruction-BRAM image of a firmware ELF as an updatemem .mem file.

The image is what the build bakes in (build/fw/solonic.hex): objcopy -O binary
of the ELF (.text, .rodata and the load image of .data from address 0), as
32-bit little-endian words. The .mem file: '@00000000' (the byte address of
the first word) and one 8-digit hex word per line.

usage: elf2mem.py FILE.elf --out FILE.mem [--bytes 262144]
"""
import argparse
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("elf")
    ap.add_argument("--out", required=True)
    ap.add_argument("--bytes", type=int, default=262144)
    ap.add_argument("--objcopy", default="riscv64-unknown-elf-objcopy")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as td:
        binf = os.path.join(td, "fw.bin")
        subprocess.run([a.objcopy, "-O", "binary", a.elf, binf], check=True)
        data = open(binf, "rb").read()
    if len(data) > a.bytes:
        sys.exit(f"elf2mem: the image is {len(data)} bytes, the instruction BRAM {a.bytes}")
    data += bytes(-len(data) % 4)
    with open(a.out, "w") as f:
        f.write("@00000000\n")
        for i in range(0, len(data), 4):
            f.write("%08x\n" % int.from_bytes(data[i:i + 4], "little"))


if __name__ == "__main__":
    main()
