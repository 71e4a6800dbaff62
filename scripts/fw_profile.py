#!/usr/bin/env python3
"""Where the firmware spends its cycles: reads a profile of solonic_sim --profile PREFIX
(PREFIX.nicN.txt: "address cycles" per instruction word at the core's last stage) and
sums it by function of the firmware ELF (nm), biggest first.

    fw_profile.py PREFIX.nic0.txt [--elf build/fw/solonic.elf] [--top N]
"""
import argparse
import bisect
import collections
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def functions(elf):
    out = subprocess.run(["riscv64-unknown-elf-nm", "-n", "-S", str(elf)], stdout=subprocess.PIPE, text=True,
                         check=True).stdout
    syms = []
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tTwW":
            syms.append((int(p[0], 16), int(p[1], 16), p[3]))
    return syms


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("profile")
    ap.add_argument("--elf", default=str(ROOT / "build/fw/solonic.elf"))
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    syms = functions(a.elf)
    starts = [s for s, _, _ in syms]
    by_fn, total = collections.Counter(), 0
    for line in open(a.profile):
        addr, n = line.split()
        addr, n = int(addr, 16), int(n)
        total += n
        i = bisect.bisect_right(starts, addr) - 1
        inside = i >= 0 and addr < syms[i][0] + max(syms[i][1], 4)
        by_fn[syms[i][2] if inside else f"(outside any function: {addr:#x})"] += n
    if total == 0:
        sys.exit("fw_profile: the profile is empty")
    print(f"{'cycles':>12} {'share':>6}  function")
    for name, n in by_fn.most_common(a.top):
        print(f"{n:12d} {100.0 * n / total:5.1f}%  {name}")
    print(f"{total:12d} cycles in all")


if __name__ == "__main__":
    main()
