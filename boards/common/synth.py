#!/usr/bin/env python3
"""make synth: a synthesis estimate with Debian's Yosys (0.23) for UltraScale+.

Each block is synthesised on its own (`synth_xilinx -family xcup -noiopad
-noclkbuf -flatten`, no pins, no placement), at the default QP count and at
4096 QPs where the block has an NQP parameter. From the netlist:

  LUT     LUT1..LUT6 cells (a LUT6_2 would count once; Yosys does not make them)
  LUTRAM  distributed-RAM cells (RAM32M/RAM64M/RAM*X1*), counted apart
  FF      FDRE/FDSE/FDCE/FDPE
  RAMB36 / RAMB18 / URAM288 / DSP  the hard blocks
  levels  the longest register-to-register (or port) path, counted in LUTs plus
          CARRY cells (MUXF7/8/9 are inside a slice and count 0), by our own
          walk over the JSON netlist: a first timing proxy, not a timing report

Results are cached in build/synth/cache/ keyed by the SHA-256 of the Yosys
script and every input file, so an unchanged block is not synthesised again.
At most 2 Yosys runs go in parallel. The table goes to build/synth/report.md
and to stdout.

usage: synth.py [--jobs N] [--only NAME[,NAME]] FILE...   (FILE: the NIC's RTL, packages first)
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "build" / "synth"
BOARD_RTL = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "boards/common/rtl").glob("*.sv"))

# (name, top module, parameters, group)
BLOCKS = [
    ("soc_top", "soc_top", {"UART_SERIAL": 1}, "SoC"),
    ("net_rx", "net_rx", {}, "packet layer"),
    ("net_tx_arbiter", "net_tx_arbiter", {}, "packet layer"),
    ("roce_rx_parse", "roce_rx_parse", {}, "packet layer"),
    ("roce_icrc_check", "roce_icrc_check", {}, "packet layer"),
    ("roce_tx_build", "roce_tx_build", {}, "packet layer"),
    ("roce_icrc_insert", "roce_icrc_insert", {}, "packet layer"),
    ("roce_transport", "roce_transport", {}, "transport"),
    ("roce_transport_4096qp", "roce_transport", {"NQP": 4096}, "transport"),
    ("nic_top", "nic_top", {"UART_SERIAL": 1}, "NIC"),
    ("nic_top_4096qp", "nic_top", {"UART_SERIAL": 1, "NQP": 4096}, "NIC"),
    ("board_mac_rx_cdc", "board_mac_rx_cdc", {}, "board"),
    ("board_mac_tx_cdc", "board_mac_tx_cdc", {}, "board"),
]

SEQ_PREFIX = ("FD", "RAMB", "URAM", "DSP48", "SRL", "RAM32M", "RAM64M", "RAM32X", "RAM64X",
              "RAM128X", "RAM256X", "RAM16X", "RAM32X1", "FIFO")

# capacity of the boards' parts (AMD data sheets DS923 / the Alveo U55C data sheet DS978)
PARTS = {
    "VCU118 (XCVU9P)": {"LUT": 1182240, "FF": 2364480, "RAMB36": 2160, "URAM288": 960, "DSP": 6840},
    "U55C (XCU55C)": {"LUT": 1303680, "FF": 2607360, "RAMB36": 2016, "URAM288": 960, "DSP": 9024},
}


def sha(paths, extra):
    h = hashlib.sha256(extra.encode())
    for p in paths:
        h.update(p.encode())
        h.update((ROOT / p).read_bytes())
    return h.hexdigest()[:24]


def yosys_script(files, top, params, json_out, stat_out, flatten_first=True):
    chp = "".join(f"chparam -set {k} {v} {top}; " for k, v in params.items())
    # Yosys 0.23 can fail mapping a LUTRAM in a flattened design (lutrams_xc5v_map.v:
    # "invalid OPTION_ABITS/WIDTH"); then the block is synthesised hierarchically and
    # flattened afterwards (flatten_first=False)
    synth = (f"synth_xilinx -family xcup -noiopad -noclkbuf -flatten -top {top}; " if flatten_first else
             f"synth_xilinx -family xcup -noiopad -noclkbuf -top {top}; flatten; ")
    return (f"read_verilog -sv -DSYNTHESIS {' '.join(files)}; {chp}{synth}"
            f"tee -q -o {stat_out} stat; write_json {json_out}")


def cell_counts(stat_text):
    counts = {}
    for line in stat_text.splitlines():
        f = line.split()
        if len(f) == 2 and f[1].isdigit() and f[0][0].isupper():
            counts[f[0]] = counts.get(f[0], 0) + int(f[1])
    return counts


def summarise(counts):
    lut = sum(v for k, v in counts.items() if k.startswith("LUT") and k[3:].isdigit())
    ff = sum(v for k, v in counts.items() if k in ("FDRE", "FDSE", "FDCE", "FDPE"))
    lutram = sum(v for k, v in counts.items() if k.startswith("RAM") and not k.startswith("RAMB"))
    return {"LUT": lut, "FF": ff, "LUTRAM": lutram,
            "RAMB36": counts.get("RAMB36E2", 0), "RAMB18": counts.get("RAMB18E2", 0),
            "URAM288": counts.get("URAM288", 0), "DSP": counts.get("DSP48E2", 0),
            "CARRY": counts.get("CARRY4", 0) + counts.get("CARRY8", 0)}


def logic_levels(netlist_path, top):
    """Longest combinational path in LUT+CARRY levels between sequential cells / ports."""
    with open(netlist_path) as f:
        nl = json.load(f)
    mod = nl["modules"][top]
    cells = mod["cells"]
    drivers = {}   # net bit -> cell name (combinational cells only)
    weight = {}
    for name, c in cells.items():
        t = c["type"]
        if t.startswith(SEQ_PREFIX):
            continue
        weight[name] = 1 if (t.startswith("LUT") or t.startswith("CARRY")) else 0
        for port, d in c.get("port_directions", {}).items():
            if d == "output":
                for b in c["connections"][port]:
                    if isinstance(b, int):
                        drivers[b] = name
    fanin = {}
    for name in weight:
        c = cells[name]
        ins = set()
        for port, d in c.get("port_directions", {}).items():
            if d == "input":
                for b in c["connections"][port]:
                    if isinstance(b, int) and b in drivers:
                        ins.add(drivers[b])
        fanin[name] = ins
    depth = {}
    sys.setrecursionlimit(1000000)
    on_stack = set()

    def d(n):
        if n in depth:
            return depth[n]
        if n in on_stack:      # a combinational loop: cut it here
            return 0
        on_stack.add(n)
        best = 0
        for m in fanin[n]:
            best = max(best, d(m))
        on_stack.discard(n)
        depth[n] = best + weight[n]
        return depth[n]

    # iterative warm-up in topological-ish order keeps the recursion shallow
    for n in weight:
        d(n)
    return max(depth.values(), default=0)


def closure(files, top):
    """Packages plus the files of top's module hierarchy (a word search for module names),
    so a file elsewhere in the tree that Yosys cannot read does not stop this block."""
    mod_file, text = {}, {}
    for f in files:
        t = (ROOT / f).read_text(errors="replace")
        text[f] = t
        for m in re.findall(r"^\s*module\s+(\w+)", t, re.M):
            mod_file[m] = f
    pkgs = [f for f in files if re.search(r"^\s*package\s+\w+", text[f], re.M)]
    if top not in mod_file:
        return None
    need, todo = set(), [mod_file[top]]
    words = {f: set(re.findall(r"\b(\w+)\b", text[f])) for f in files}
    while todo:
        f = todo.pop()
        if f in need:
            continue
        need.add(f)
        for m in words[f] & mod_file.keys():
            if mod_file[m] not in need:
                todo.append(mod_file[m])
    return pkgs + [f for f in files if f in need and f not in pkgs]


def run_block(name, top, params, all_files):
    files = closure(all_files, top)
    if files is None:
        return {"name": name, "params": params, "error": f"no module {top} in the RTL", "seconds": 0}
    script_key = yosys_script(files, top, params, "J", "S")
    key = sha(files, script_key)
    cache = OUT / "cache" / f"{name}-{key}.json"
    if cache.exists():
        r = json.loads(cache.read_text())
        r["cached"] = True
        return r
    work = OUT / "work" / name
    work.mkdir(parents=True, exist_ok=True)
    jpath, spath, log = work / "netlist.json", work / "stat.txt", work / "yosys.log"
    t0 = time.monotonic()
    p = subprocess.run(["yosys", "-q", "-l", str(log), "-p",
                        yosys_script(files, top, params, str(jpath), str(spath))],
                       cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0 and "lutrams_xc5v_map" in log.read_text(errors="replace"):
        p = subprocess.run(["yosys", "-q", "-l", str(log), "-p",
                            yosys_script(files, top, params, str(jpath), str(spath), flatten_first=False)],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    secs = time.monotonic() - t0
    if p.returncode != 0:
        return {"name": name, "params": params,
                "error": f"yosys exit {p.returncode}; see {log.relative_to(ROOT)}",
                "seconds": round(secs, 1)}
    r = summarise(cell_counts(spath.read_text()))
    r["levels"] = logic_levels(jpath, top)
    r.update({"name": name, "top": top, "params": params, "seconds": round(secs, 1),
              "yosys": "0.23 synth_xilinx -family xcup"})
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(r, indent=1))
    jpath.unlink()   # large; the cache keeps the figures
    r["cached"] = False
    return r


def fits(results):
    """How many QPs fit each part's block RAM, from the growth of nic_top from 256 to 4096 QPs."""
    a, b = results.get("nic_top"), results.get("nic_top_4096qp")
    if not a or not b or "error" in a or "error" in b:
        return []
    kb = lambda r: r["RAMB36"] * 36 + r["RAMB18"] * 18 + r["URAM288"] * 288   # Kib
    per_qp = (kb(b) - kb(a)) / (4096 - 256)
    base = kb(a) - 256 * per_qp
    rows = []
    for part, cap in PARTS.items():
        total = cap["RAMB36"] * 36 + cap["URAM288"] * 288
        bram_only = cap["RAMB36"] * 36
        rows.append((part, per_qp, base,
                     int((bram_only - base) / per_qp) if per_qp > 0 else None,
                     int((total - base) / per_qp) if per_qp > 0 else None))
    return rows


def report(results, order):
    lines = ["# Synthesis estimate (Yosys 0.23, UltraScale+)", "",
             "`synth_xilinx -family xcup -noiopad -noclkbuf -flatten`, each block on its own, no pins, "
             "no placement. Levels: the longest path between registers, RAMs, DSPs or ports in LUTs "
             "plus CARRY cells (our own walk over the netlist), a first timing proxy only.", "",
             "| block | params | LUT | FF | LUTRAM | RAMB36 | RAMB18 | URAM288 | DSP | levels | Yosys s |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in order:
        r = results[name]
        prm = ",".join(f"{k}={v}" for k, v in (r.get("params") or {}).items()) or "defaults"
        if "error" in r:
            lines.append(f"| {name} | {prm} | {r['error']} | | | | | | | | |")
            continue
        lines.append(f"| {name} | {prm} | {r['LUT']} | {r['FF']} | {r['LUTRAM']} | {r['RAMB36']} | "
                     f"{r['RAMB18']} | {r['URAM288']} | {r['DSP']} | {r['levels']} | "
                     f"{r['seconds']}{' (cached)' if r.get('cached') else ''} |")
    rows = fits(results)
    if rows:
        lines += ["", "QPs that fit, from nic_top's block-RAM growth between 256 and 4096 QPs "
                  "(Kib per QP; the rest of nic_top taken as fixed; Yosys maps tables to RAMB36/18 only):", "",
                  "| part | Kib per QP | fixed Kib | QPs in RAMB36 alone | QPs in RAMB36 + URAM288 |",
                  "| --- | ---: | ---: | ---: | ---: |"]
        for part, per_qp, base, b1, b2 in rows:
            lines.append(f"| {part} | {per_qp:.2f} | {base:.0f} | {b1} | {b2} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    files = [f for f in a.files if f.endswith(".sv")] + BOARD_RTL
    missing = [f for f in files if not (ROOT / f).exists()]
    if missing:
        sys.exit(f"synth: missing input files: {' '.join(missing)} (run 'make regs' first)")
    sel = [b for b in BLOCKS if not a.only or b[0] in a.only.split(",")]
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    with cf.ThreadPoolExecutor(max_workers=max(1, min(a.jobs, 2))) as ex:
        futs = {ex.submit(run_block, n, t, p, files): n for n, t, p, _ in sel}
        for fut in cf.as_completed(futs):
            r = fut.result()
            results[futs[fut]] = r
            state = r.get("error") or f"{r['LUT']} LUT, {r['FF']} FF, {r['levels']} levels"
            print(f"synth: {futs[fut]}: {state} ({r['seconds']} s{', cached' if r.get('cached') else ''})",
                  file=sys.stderr, flush=True)
    text = report(results, [b[0] for b in sel])
    (OUT / "report.md").write_text(text)
    (OUT / "results.json").write_text(json.dumps(results, indent=1))
    print(text)
    if any("error" in r for r in results.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
