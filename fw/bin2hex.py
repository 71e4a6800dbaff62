#!/usr/bin/env python3
"""Turn a raw memory image (objcopy -O binary, starting at address 0) into a
$readmemh file: one 32-bit little-endian word per line, 8 hex digits."""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bin", help="raw image, byte 0 at address 0")
    ap.add_argument("hex", help="output file")
    ap.add_argument("--max-bytes", type=lambda s: int(s, 0), default=None,
                    help="fail if the image is larger (the BRAM size)")
    a = ap.parse_args()
    data = open(a.bin, "rb").read()
    if a.max_bytes is not None and len(data) > a.max_bytes:
        sys.exit(f"bin2hex: {a.bin} is {len(data)} bytes, more than {a.max_bytes}")
    data += bytes(-len(data) % 4)
    with open(a.hex, "w") as f:
        for i in range(0, len(data), 4):
            f.write(f"{int.from_bytes(data[i:i + 4], 'little'):08x}\n")


if __name__ == "__main__":
    main()
