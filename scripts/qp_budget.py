#!/usr/bin/env python3
"""How many QPs fit a board's block RAM and UltraRAM: derived from the RTL itself.

Yosys (read, hierarchy, proc, flatten, memory_dff, memory_collect; no synthesis, some
seconds) elaborates nic_top at two QP counts and lists every memory with its width and
depth. A memory whose depth grows with NQP is per-QP storage (QP context copies, the
SQ/RQ rings and their pointers, the requester, completer, responder and timer state
tables); the others are fixed (DMA buffers, FIFOs, the SoC's instruction and data
RAMs, the management buffers). Each memory is then packed the way AMD's tools map a
simple dual-port RAM (UG573):

  RAMB36: 512x72, 1Kx36, 2Kx18, 4Kx9, 8Kx4, 16Kx2, 32Kx1 (a RAMB18 is half:
          512x36, 1Kx18, 2Kx9, 4Kx4, 8Kx2, 16Kx1), the cheapest shape, cascaded;
  URAM288: 4Kx72, cascaded in depth and width;
  LUTRAM: memories of at most 64 entries, not counted.

Per-QP tables stay in RAMB36, or (second column) move to the URAM288 the board leaves
free where one URAM288 replaces at least 4 RAMB36. The result is a table of RAMB36 / URAM288 per QP
count and the largest power-of-two QP count that fits each part (NQP is a power of two
in the RTL: its tables are indexed by log2(NQP) bits), next to the part's totals.

usage: qp_budget.py [--nqp 256,1024,4096,16384,65536] [--json out.json] [--md out.md]
"""
import argparse
import hashlib
import json
import math
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

# Device totals. XCVU9P: AMD DS923 (Virtex UltraScale+ FPGA Data Sheet) / the UltraScale+
# product selection guide (XMP103): 2,160 RAMB36 (75.9 Mb), 960 URAM288 (270 Mb).
# XCU55C: AMD DS978 (Alveo U55C Data Center Accelerator Cards Data Sheet): block RAM
# 2,016 (70.9 Mb), UltraRAM 960 (270 Mb).
PARTS = {
    "VCU118 (XCVU9P)": {"RAMB36": 2160, "URAM288": 960},
    "U55C (XCU55C)": {"RAMB36": 2016, "URAM288": 960},
}
# The board wrapper's own RAMs (boards/common/rtl, board_nic's defaults): the NIC's 4 MiB
# AXI RAM (512-bit words in URAM288: 8 wide x 16 deep) and the two MAC crossings (520-bit
# beats, 512 deep RX, 256 deep TX); counted with bram36() below.
BOARD_RAMS = {"mac_rx_cdc": (520, 512), "mac_tx_cdc": (520, 256)}
BOARD_URAM = 128

# URAM288 left for tables on both parts once the board's RAM has its share
URAM_FREE = min(c["URAM288"] for c in PARTS.values()) - BOARD_URAM

BRAM36_SHAPES = [(512, 72), (1024, 36), (2048, 18), (4096, 9), (8192, 4), (16384, 2), (32768, 1)]
BRAM18_SHAPES = [(512, 36), (1024, 18), (2048, 9), (4096, 4), (8192, 2), (16384, 1)]


def nic_files():
    out = subprocess.run(["make", "-s", "--no-print-directory", "--eval=print-nic-rtl: ; @echo $(NIC_RTL)",
                          "print-nic-rtl"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = out.split()
    missing = [f for f in files if not (ROOT / f).exists()]
    if missing:
        sys.exit(f"qp_budget: missing {' '.join(missing)} (run 'make regs' first)")
    return files


def memories(files, nqp, top="nic_top"):
    """[(name, width, depth, sync_read)] of every memory of top at NQP=nqp."""
    out = ROOT / "build" / "synth"
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f"qp_budget_mem_{nqp}.tmp"
    script = (f"read_verilog -sv -DSYNTHESIS {' '.join(files)}; chparam -set NQP {nqp} {top}; "
              f"hierarchy -top {top}; proc; flatten; opt_clean; memory_dff; memory_collect; "
              f"tee -q -o {tmp} dump t:$mem_v2")
    h = hashlib.sha256(script.encode())
    for f in files:
        h.update((ROOT / f).read_bytes())
    dump = out / f"qp_budget_mem_{nqp}_{h.hexdigest()[:16]}.txt"   # cached: the RTL did not change
    if not dump.exists():
        p = subprocess.run(["nice", "-n", "15", "yosys", "-q", "-p", script], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            sys.exit(f"qp_budget: yosys failed:\n{p.stdout[-3000:]}")
        tmp.rename(dump)
    mems, cur = [], None
    for line in dump.read_text().splitlines():
        m = re.match(r"\s*cell \$mem_v2 (\S+)", line)
        if m:
            cur = {"name": m.group(1).lstrip("\\")}
            mems.append(cur)
            continue
        m = re.match(r"\s*parameter \\(WIDTH|SIZE|RD_CLK_ENABLE|RD_PORTS) (\S+)", line)
        if m and cur is not None:
            k, v = m.groups()
            cur[k] = v
    out = []
    for c in mems:
        ports = int(c["RD_PORTS"])
        clk_en = c["RD_CLK_ENABLE"].split("'")[-1] if "'" in c["RD_CLK_ENABLE"] else c["RD_CLK_ENABLE"]
        sync = ports > 0 and all(ch == "1" for ch in clk_en[-ports:])
        out.append((c["name"], int(c["WIDTH"]), int(c["SIZE"]), sync))
    return out


def bram36(width, depth):
    """RAMB36 equivalents (a RAMB18 counts 0.5) of a width x depth simple dual-port RAM."""
    best = min(math.ceil(depth / d) * math.ceil(width / w) for d, w in BRAM36_SHAPES)
    best18 = min(math.ceil(depth / d) * math.ceil(width / w) for d, w in BRAM18_SHAPES) / 2
    return min(best, best18)


def board_fixed():
    return {"RAMB36": sum(bram36(w, d) for w, d in BOARD_RAMS.values()), "URAM288": BOARD_URAM}


def uram(width, depth):
    return math.ceil(depth / 4096) * math.ceil(width / 72)


def is_lutram(width, depth, sync):
    # depth only: Yosys's memory_dff does not always fold the read register of our block-RAM
    # templates in a flattened design, so the read-port flag is not a reliable sign; the
    # RTL's memories of 128 entries and more are all written as block-RAM templates
    return depth <= 64


def classify(mems_a, nqp_a, mems_b, nqp_b):
    """Pair the memories of two elaborations; per-QP: depth = k * NQP in both."""
    b = {n: (w, d, s) for n, w, d, s in mems_b}
    per_qp, fixed = [], []
    for n, w, d, s in mems_a:
        if n not in b:
            # Yosys names the ROMs it makes of case statements by a counter: such a memory
            # cannot be paired and is counted as fixed (none is per-QP today)
            if "$auto$" not in n:
                sys.exit(f"qp_budget: memory {n} exists at NQP={nqp_a} but not at NQP={nqp_b}")
            fixed.append({"name": n, "width": w, "depth": d, "sync": s})
            continue
        wb, db, _ = b[n]
        if db != d and d % nqp_a == 0 and db % nqp_b == 0 and d // nqp_a == db // nqp_b:
            per_qp.append({"name": n, "width": w, "per_qp_rows": d // nqp_a, "width_b": wb, "sync": s})
        else:
            fixed.append({"name": n, "width": w, "depth": d, "sync": s})
    return per_qp, fixed


def widths_at(per_qp, nqp, mems_by_n):
    """Widths can depend on NQP (QP numbers, pointers): take them from an elaboration at nqp
    when there is one, else the width at the larger of the two measured counts."""
    return {t["name"]: mems_by_n.get(nqp, {}).get(t["name"], t["width_b"]) for t in per_qp}


def budget(per_qp, fixed, nqp, widths, uram_cap):
    """RAMB36 and URAM288 for nqp QPs. uram_cap URAM288 are free for tables: tables move
    there greedily, the ones that save the most RAMB36 per URAM288 first, as long as a
    URAM288 replaces at least 4 RAMB36 (a URAM288 holds 8 times the bits) and they fit."""
    tabs = []
    bits = 0
    for t in per_qp:
        w, d = widths[t["name"]], t["per_qp_rows"] * nqp
        bits += w * d
        tabs.append((bram36(w, d), uram(w, d)))
    r36, ur = sum(b for b, _ in tabs), 0
    for b, u in sorted(tabs, key=lambda x: x[0] / x[1], reverse=True):
        if b / u >= 4 and ur + u <= uram_cap:
            r36 -= b
            ur += u
    fixed36 = sum(bram36(t["width"], t["depth"]) for t in fixed if not is_lutram(t["width"], t["depth"], t["sync"]))
    return {"nqp": nqp, "per_qp_bits": bits, "table_RAMB36": r36, "table_URAM288": ur,
            "fixed_RAMB36": fixed36}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nqp", default="256,512,1024,2048,4096,8192,16384,32768,65536")
    ap.add_argument("--measure", default="256,4096", help="the two QP counts Yosys elaborates")
    ap.add_argument("--json")
    ap.add_argument("--md")
    a = ap.parse_args()
    BOARD_FIXED = board_fixed()
    files = nic_files()
    na, nb = (int(x) for x in a.measure.split(","))
    ma, mb = memories(files, na), memories(files, nb)
    per_qp, fixed = classify(ma, na, mb, nb)
    by_n = {na: {n: w for n, w, _, _ in ma}, nb: {n: w for n, w, _, _ in mb}}
    counts = [int(x) for x in a.nqp.split(",")]
    lines = ["Per-QP storage of nic_top (memories whose depth is a multiple of NQP), from Yosys's "
             f"elaboration at NQP={na} and {nb}:", "",
             "| table | bits per QP (at NQP=%d) | RAMB36 at %d | RAMB36 at %d |" % (nb, na, nb),
             "| --- | ---: | ---: | ---: |"]
    total_bits_qp = 0
    for t in sorted(per_qp, key=lambda t: t["name"]):
        wa, wb = by_n[na][t["name"]], by_n[nb][t["name"]]
        bq = wb * t["per_qp_rows"]
        total_bits_qp += bq
        lines.append(f"| `{t['name']}` | {bq} ({t['per_qp_rows']} x {wb}) | "
                     f"{bram36(wa, t['per_qp_rows'] * na):g} | {bram36(wb, t['per_qp_rows'] * nb):g} |")
    fixed_ram = [t for t in fixed if not is_lutram(t["width"], t["depth"], t["sync"])]
    fixed36 = sum(bram36(t["width"], t["depth"]) for t in fixed_ram)
    lines += ["", f"Per QP: {total_bits_qp} bits ({total_bits_qp / 8:.0f} bytes) of table RAM. "
              f"Fixed block RAM of nic_top: {fixed36:g} RAMB36 ({len(fixed_ram)} memories; "
              f"{len(fixed) - len(fixed_ram)} memories of at most 64 entries go to LUTRAM). "
              f"The board wrapper adds {BOARD_FIXED['RAMB36']} RAMB36 (MAC crossings) and "
              f"{BOARD_FIXED['URAM288']} URAM288 (the NIC's 4 MiB memory).", "",
             "| QPs | table bits | tables alone, RAMB36 | nic_top, RAMB36 | nic_top, tables in URAM288 where it pays: RAMB36 + URAM288 |",
             "| ---: | ---: | ---: | ---: | ---: |"]
    rows = []
    for n in counts:
        w = widths_at(per_qp, n, by_n)
        b = budget(per_qp, fixed, n, w, 0)
        u = budget(per_qp, fixed, n, w, URAM_FREE)
        rows.append((n, b, u))
        lines.append(f"| {n} | {b['per_qp_bits'] / 1e6:.2f} Mb | {b['table_RAMB36']:g} | "
                     f"{b['table_RAMB36'] + b['fixed_RAMB36']:g} | "
                     f"{u['table_RAMB36'] + u['fixed_RAMB36']:g} + {u['table_URAM288']} |")
    lines += ["", "| part | RAMB36 | URAM288 | most QPs, tables in RAMB36 | most QPs, large tables in URAM288 |",
              "| --- | ---: | ---: | ---: | ---: |"]
    fit = {}
    for part, cap in PARTS.items():
        best_b = best_u = 0
        for n, b, u in rows:
            if b["table_RAMB36"] + b["fixed_RAMB36"] + BOARD_FIXED["RAMB36"] <= cap["RAMB36"]:
                best_b = max(best_b, n)
            if (u["table_RAMB36"] + u["fixed_RAMB36"] + BOARD_FIXED["RAMB36"] <= cap["RAMB36"]
                    and u["table_URAM288"] + BOARD_FIXED["URAM288"] <= cap["URAM288"]):
                best_u = max(best_u, n)
        fit[part] = (best_b, best_u)
        lines.append(f"| {part} | {cap['RAMB36']} | {cap['URAM288']} | {best_b or 'none'} | {best_u or 'none'} |")
    lines += ["", f"(QP counts tried: {', '.join(map(str, counts))}; the NIC's memory and the crossings included.)"]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.md:
        pathlib.Path(a.md).write_text(text)
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps({
            "per_qp": per_qp, "fixed": fixed, "per_qp_bits": total_bits_qp, "fixed_RAMB36": fixed36,
            "rows": [{"nqp": n, "bram_only": b, "with_uram": u} for n, b, u in rows],
            "fit": fit}, indent=1))


if __name__ == "__main__":
    main()
