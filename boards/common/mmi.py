#!/usr/bin/env python3
"""Write the MMI file updatemem needs, from the placed design's instruction-BRAM
cells (the CSV that boards/common/tcl/build.tcl writes after place and route:
cell, site, bram_addr_begin, bram_addr_end, bram_slice_begin, bram_slice_end).

The instruction memory is soc_bram u_imem (32-bit words, IMEM_BYTES). Vivado
splits it over RAMB36/RAMB18 cells, each holding a bit slice (slice_begin..
slice_end of the 32-bit word) of a range of word addresses (addr_begin..
addr_end). The MMI lists them as one AddressSpace (byte addresses 0 ..
IMEM_BYTES-1) of BusBlocks, one per address range in address order, each with
one BitLane per cell, MSB first. The script checks that every bit of every word
is held exactly once; a gap or an overlap is an error, not a wrong MMI.

usage: mmi.py CSV --out FILE.mmi [--part PART] [--proc solonic/imem] [--bytes 262144]
"""
import argparse
import csv
import re
import sys
from collections import defaultdict


def load(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            m = re.match(r"(RAMB36|RAMB18)_(X\d+Y\d+)$", r["site"].strip())
            if not m:
                raise ValueError(f"{r['cell']}: site {r['site']!r} is not a RAMB36/RAMB18 site")
            rows.append({"cell": r["cell"], "type": m.group(1), "xy": m.group(2),
                         "a0": int(r["bram_addr_begin"]), "a1": int(r["bram_addr_end"]),
                         "s0": int(r["bram_slice_begin"]), "s1": int(r["bram_slice_end"])})
    return rows


def build(rows, nbytes, width=32, proc="solonic/imem", part=""):
    words = nbytes // (width // 8)
    blocks = defaultdict(list)
    for r in rows:
        if r["a0"] > r["a1"] or r["s0"] > r["s1"] or r["s1"] >= width:
            raise ValueError(f"{r['cell']}: bad range addr {r['a0']}..{r['a1']} bits {r['s0']}..{r['s1']}")
        blocks[(r["a0"], r["a1"])].append(r)
    # coverage: the address ranges tile 0..words-1, each range's slices tile 0..width-1
    expect = 0
    for (a0, a1) in sorted(blocks):
        if a0 != expect:
            raise ValueError(f"word addresses {expect}..{a0 - 1} are in no BRAM" if a0 > expect
                             else f"word addresses from {a0} are in two BRAMs")
        bits = sorted((r["s0"], r["s1"]) for r in blocks[(a0, a1)])
        nxt = 0
        for s0, s1 in bits:
            if s0 != nxt:
                raise ValueError(f"words {a0}..{a1}: bit {nxt} " + ("missing" if s0 > nxt else "held twice"))
            nxt = s1 + 1
        if nxt != width:
            raise ValueError(f"words {a0}..{a1}: bits {nxt}..{width - 1} missing")
        expect = a1 + 1
    if expect != words:
        raise ValueError(f"the BRAMs hold words 0..{expect - 1}, the memory has {words}")
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<MemInfo Version="1" Minor="0">',
           f'  <Processor Endianness="Little" InstPath="{proc}">',
           f'    <AddressSpace Name="imem" Begin="0" End="{nbytes - 1}">']
    for (a0, a1) in sorted(blocks):
        out.append("      <BusBlock>")
        for r in sorted(blocks[(a0, a1)], key=lambda r: -r["s1"]):
            out += [f'        <BitLane MemType="{r["type"]}" Placement="{r["xy"]}">',
                    f'          <DataWidth MSB="{r["s1"]}" LSB="{r["s0"]}"/>',
                    f'          <AddressRange Begin="0" End="{a1 - a0}"/>',
                    '          <Parity ON="false" NumBits="0"/>',
                    "        </BitLane>"]
        out.append("      </BusBlock>")
    out += ["    </AddressSpace>", "  </Processor>", "  <Config>",
            f'    <Option Name="Part" Val="{part}"/>', "  </Config>", "  <DRC>",
            '    <Rule Name="RDADDRCHANGE" Val="false"/>', "  </DRC>", "</MemInfo>"]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--out", required=True)
    ap.add_argument("--part", default="")
    ap.add_argument("--proc", default="solonic/imem")
    ap.add_argument("--bytes", type=int, default=262144)
    a = ap.parse_args()
    try:
        text = build(load(a.csv), a.bytes, proc=a.proc, part=a.part)
    except (ValueError, KeyError) as e:
        sys.exit(f"mmi: {a.csv}: {e}")
    with open(a.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
