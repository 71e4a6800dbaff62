#!/usr/bin/env python3
"""make synth: a synthesis estimate with Debian's Yosys (0.23) for UltraScale+.

Yosys runs `synth_xilinx -family xcup -noiopad -noclkbuf` (no pins, no placement) on
nic_top at the default QP count and on roce_transport at 4096 QPs, hierarchically: every module
is synthesised once per parameter set and not optimised across its ports, so a block's
figures are those of that block alone, in the parameters nic_top gives it. The rows
(the SoC, the packet-layer blocks, the transport, nic_top) are read out of those two
netlists by instance path; nic_top at 4096 QPs is derived (nic_top - roce_transport +
roce_transport at 4096 QPs; nic_top passes NQP to roce_transport only, and no block is
optimised across its ports, though Yosys's figures for one module vary somewhat with
the run it is in); the board's MAC crossings are synthesised on their own
(flattened). Flattening all of nic_top before synthesis is what did not finish in the
first sessions (and made Yosys 0.23 fail on a LUTRAM of the SoC).

From each netlist:

  LUT     LUT1..LUT6 cells (a LUT6_2 would count once; Yosys does not make them)
  LUTRAM  distributed-RAM cells (RAM32M/RAM64M/RAM*X1*), counted apart
  FF      FDRE/FDSE/FDCE/FDPE
  RAMB36 / RAMB18 / URAM288 / DSP  the hard blocks
  levels  the longest path between sequential cells or ports, counted in LUTs plus
          CARRY cells (MUXF7/8/9 are inside a slice and count 0), by our own walk over
          the flattened netlist, inside the block's instance: a first timing proxy, not
          a timing report; the path itself is printed to build/synth/paths.md

Results are cached in build/synth/cache/ keyed by the SHA-256 of the Yosys script and
every input file. Yosys runs under `nice -n 15`, two runs at a time (--jobs; the two
large runs peaked at 8.1 and 7.0 GB side by side), their netlists read one at a time
(each is read whole: about 1 GB of JSON). The table goes to
build/synth/report.md and to stdout, each row with the wall time of the run it came from.

usage: synth.py [--only RUN[,RUN] [--collect]] FILE...   (FILE: the NIC's RTL, packages first)
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import re
import pathlib
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "build" / "synth"
BOARD_RTL = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "boards/common/rtl").glob("*.sv"))

# Yosys runs: (name, top, parameters, hierarchical)
RUNS = [
    ("nic_top", "nic_top", {"UART_SERIAL": 1}, True),
    ("roce_transport_4096qp", "roce_transport", {"NQP": 4096}, True),
    ("board_mac_rx_cdc", "board_mac_rx_cdc", {}, False),
    ("board_mac_tx_cdc", "board_mac_tx_cdc", {}, False),
]

# Rows: (name, run, instance path in the run's top ("" = the top), group)
ROWS = [
    ("soc_top", "nic_top", "u_soc", "SoC"),
    ("net_rx", "nic_top", "u_net_rx", "packet layer"),
    ("net_tx_arbiter", "nic_top", "u_tx_arb", "packet layer"),
    ("roce_icrc_check", "nic_top", "u_roce.u_icrc_check", "packet layer"),
    ("roce_rx_parse", "nic_top", "u_roce.u_parse", "packet layer"),
    ("roce_tx_build", "nic_top", "u_roce.u_build", "packet layer"),
    ("roce_icrc_insert", "nic_top", "u_roce.u_icrc_insert", "packet layer"),
    ("roce_transport", "nic_top", "u_roce", "transport"),
    ("roce_transport_4096qp", "roce_transport_4096qp", "", "transport"),
    ("nic_top", "nic_top", "", "NIC"),
    ("nic_top_4096qp", None, "", "NIC"),   # derived: nic_top - roce_transport + roce_transport_4096qp
    ("board_mac_rx_cdc", "board_mac_rx_cdc", "", "board"),
    ("board_mac_tx_cdc", "board_mac_tx_cdc", "", "board"),
]

SEQ_PREFIX = ("FD", "RAMB", "URAM", "DSP48", "SRL", "RAM32M", "RAM64M", "RAM32X", "RAM64X",
              "RAM128X", "RAM256X", "RAM16X", "RAM32X1", "FIFO")

# capacity of the boards' parts (AMD data sheets DS923 / the Alveo U55C data sheet DS978;
# see docs/boards.md)
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


def yosys_script(files, top, params, hier, out_dir):
    chp = "".join(f"chparam -set {k} {v} {top}; " for k, v in params.items())
    synth = f"synth_xilinx -family xcup -noiopad -noclkbuf {'' if hier else '-flatten '}-top {top}; "
    return (f"read_verilog -sv -DSYNTHESIS {' '.join(files)}; {chp}{synth}"
            f"write_json {out_dir}/hier.json; flatten; opt_clean; write_json {out_dir}/flat.json")


def summarise(counts):
    lut = sum(v for k, v in counts.items() if k.startswith("LUT") and k[3:].isdigit())
    ff = sum(v for k, v in counts.items() if k in ("FDRE", "FDSE", "FDCE", "FDPE"))
    lutram = sum(v for k, v in counts.items() if k.startswith("RAM") and not k.startswith("RAMB"))
    return {"LUT": lut, "FF": ff, "LUTRAM": lutram,
            "RAMB36": counts.get("RAMB36E2", 0), "RAMB18": counts.get("RAMB18E2", 0),
            "URAM288": counts.get("URAM288", 0), "DSP": counts.get("DSP48E2", 0),
            "CARRY": counts.get("CARRY4", 0) + counts.get("CARRY8", 0)}


def hier_counts(nl, top, path):
    """Primitive cell counts of the instance at path (dot-separated) in the hierarchical netlist."""
    mods = nl["modules"]
    mod = top
    for inst in [p for p in path.split(".") if p]:
        cells = mods[mod]["cells"]
        if inst not in cells:
            raise KeyError(f"no instance {inst} in {mod}")
        mod = cells[inst]["type"]
    memo = {}

    def total(m):
        if m in memo:
            return memo[m]
        c = {}
        for cell in mods[m]["cells"].values():
            t = cell["type"]
            if t in mods and not mods[t].get("attributes", {}).get("blackbox"):
                for k, v in total(t).items():
                    c[k] = c.get(k, 0) + v
            else:
                c[t] = c.get(t, 0) + 1
        memo[m] = c
        return c

    return total(mod)


def norm(name):
    """A flattened cell name as an instance path: '$flatten\\u_a.\\u_b.$abc$1' -> 'u_a.u_b.$abc$1'."""
    if name.startswith("$flatten"):
        name = name[len("$flatten"):]
    return name.replace("\\", "")


def logic_levels(mod, prefixes):
    """For each prefix: the longest combinational path in LUT+CARRY levels between sequential
    cells / ports, counting only the cells inside that instance, and the path's cells."""
    cells = mod["cells"]
    drivers, weight = {}, {}
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
    normed = {n: norm(n) for n in weight}
    bitname = {}   # net bit -> a public net name with the bit index, to print the paths
    for nn, info in mod.get("netnames", {}).items():
        if info.get("hide_name"):
            continue
        bits = info["bits"]
        for i, b in enumerate(bits):
            if isinstance(b, int) and b not in bitname:
                bitname[b] = norm(nn) + (f"[{i}]" if len(bits) > 1 else "")
    out = {}
    for pre in prefixes:
        inside = {n for n in weight if not pre or normed[n].startswith(pre + ".")}
        depth, back = {}, {}
        # iterative DFS (the netlists are deep), combinational loops cut where met
        for root in inside:
            if root in depth:
                continue
            stack, on = [(root, iter(fanin[root]))], {root}
            while stack:
                n, it = stack[-1]
                pushed = False
                for m in it:
                    if m in inside and m not in depth and m not in on:
                        stack.append((m, iter(fanin[m])))
                        on.add(m)
                        pushed = True
                        break
                if pushed:
                    continue
                stack.pop()
                on.discard(n)
                best, arg = 0, None
                for m in fanin[n]:
                    if m in depth and depth[m] > best:
                        best, arg = depth[m], m
                depth[n] = best + weight[n]
                back[n] = arg
        if not depth:
            out[pre] = (0, [])
            continue
        end = max(depth, key=depth.get)
        chain, n = [], end
        while n is not None:
            if weight[n]:
                c = cells[n]
                outs = [b for port, d in c.get("port_directions", {}).items() if d == "output"
                        for b in c["connections"][port] if isinstance(b, int)]
                nets = sorted({bitname[b] for b in outs if b in bitname})
                chain.append(f"{c['type']:7s} {', '.join(nets[:2]) if nets else normed[n]}")
            n = back[n]
        chain.reverse()
        # where the path ends: the registers (or RAM/DSP ports) its last LUT feeds, by their outputs
        last = cells[end]
        obits = {b for port, d in last.get("port_directions", {}).items() if d == "output"
                 for b in last["connections"][port] if isinstance(b, int)}
        sinks = []
        for name, c in cells.items():
            if name in weight:
                continue
            if any(isinstance(b, int) and b in obits for port, d in c.get("port_directions", {}).items()
                   if d == "input" for b in c["connections"][port]):
                q = [bitname.get(b) for port, d in c.get("port_directions", {}).items() if d == "output"
                     for b in c["connections"][port] if isinstance(b, int)]
                sinks.append(f"{c['type']} {next((x for x in q if x), norm(name))}")
                if len(sinks) >= 3:
                    break
        chain.append("-> " + ("; ".join(sinks) if sinks else "an output port"))
        out[pre] = (depth[end], chain)
    return out


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


def top_name(nl, top):
    """The top module's name in a netlist: top itself, or Yosys's $paramod name for it when
    chparam set its parameters (the module marked top)."""
    if top in nl["modules"]:
        return top
    marked = [k for k, m in nl["modules"].items() if int(m.get("attributes", {}).get("top", "0") or "0", 2)]
    if len(marked) != 1:
        raise KeyError(f"no module {top} and {len(marked)} modules marked top in the netlist")
    return marked[0]


COLLECT_LOCK = threading.Lock()   # one netlist in memory at a time


def collect(name, top, params, work, secs, rows):
    """The rows' figures from a finished run's netlists in work/."""
    with COLLECT_LOCK:
        return _collect(name, top, params, work, secs, rows)


def _collect(name, top, params, work, secs, rows):
    with open(work / "hier.json") as f:
        hnl = json.load(f)
    with open(work / "flat.json") as f:
        fnl = json.load(f)
    lv = logic_levels(fnl["modules"][top_name(fnl, top)], [path for _, path in rows])
    htop = top_name(hnl, top)
    res = {}
    for r, path in rows:
        fig = summarise(hier_counts(hnl, htop, path))
        fig["levels"], fig["path"] = lv[path]
        fig.update({"run": name, "instance": path or top, "top": top, "params": params,
                    "seconds": secs, "yosys": "0.23 synth_xilinx -family xcup"})
        res[r] = fig
    return res


def rel(p):
    """p relative to the project root where it is inside it."""
    try:
        return p.relative_to(ROOT)
    except ValueError:
        return p


def log_cpu_seconds(log):
    """user + system CPU seconds from the end of a Yosys log, or None."""
    m = re.search(r"CPU: user ([\d.]+)s system ([\d.]+)s", log.read_text(errors="replace")[-4000:]) if log.exists() else None
    return round(float(m.group(1)) + float(m.group(2)), 1) if m else None


def run(name, top, params, hier, all_files, collect_only=False):
    """One Yosys run; returns {row name: figures} for the rows read from it. collect_only:
    read the netlists a finished run left in its work folder (reading them failed) instead."""
    rows = [(r, path) for r, rn, path, _ in ROWS if rn == name]   # (no rows: derived ones)
    files = closure(all_files, top)
    if files is None:
        return {r: {"error": f"no module {top} in the RTL", "seconds": 0} for r, _ in rows}
    key = sha(files, yosys_script(files, top, params, hier, "D") + repr(rows))
    cache = OUT / "cache" / f"{name}-{key}.json"
    if cache.exists():
        res = json.loads(cache.read_text())
        for r in res.values():
            r["cached"] = True
        return res
    work = OUT / "runs" / name
    work.mkdir(parents=True, exist_ok=True)
    log = work / "yosys.log"
    if collect_only:
        if not (work / "hier.json").exists() or not (work / "flat.json").exists():
            return {r: {"error": f"--collect: no netlists in {rel(work)}", "seconds": 0} for r, _ in rows}
        cpu = log_cpu_seconds(log)
        secs = f"{cpu} CPU" if cpu is not None else "?"
    else:
        print(f"synth: {name}: yosys started ({'hierarchical' if hier else 'flattened'}; "
              f"{', '.join(f'{k}={v}' for k, v in params.items()) or 'defaults'})", file=sys.stderr, flush=True)
        t0 = time.monotonic()
        p = subprocess.run(["nice", "-n", "15", "yosys", "-q", "-l", str(log), "-p",
                            yosys_script(files, top, params, hier, str(work))],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        secs = round(time.monotonic() - t0, 1)
        if p.returncode != 0:
            return {r: {"error": f"yosys exit {p.returncode}; see {rel(log)}", "seconds": secs}
                    for r, _ in rows}
    res = collect(name, top, params, work, secs, rows)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(res, indent=1))
    (work / "hier.json").unlink()
    (work / "flat.json").unlink()   # large; the cache keeps the figures
    for r in res.values():
        r["cached"] = False
    return res

FIG = ("LUT", "FF", "LUTRAM", "RAMB36", "RAMB18", "URAM288", "DSP", "CARRY")


def derive_4096(results):
    """nic_top at 4096 QPs = nic_top - its roce_transport + roce_transport at 4096 QPs (nic_top passes NQP to roce_transport only; an estimate, since
    Yosys's figures for one module vary somewhat with the run it is in)."""
    a, t, t4 = (results.get(n) for n in ("nic_top", "roce_transport", "roce_transport_4096qp"))
    if not all(x and "error" not in x for x in (a, t, t4)):
        return
    r = {k: a[k] - t[k] + t4[k] for k in FIG}
    r.update({"levels": max(a["levels"], t4["levels"]), "path": [], "instance": "nic_top (derived)",
              "params": {"UART_SERIAL": 1, "NQP": 4096}, "derived": True,
              "seconds": f"{a['seconds']} + {t4['seconds']}"})
    results["nic_top_4096qp"] = r


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
        bram_only = cap["RAMB36"] * 36
        rows.append((part, per_qp, base,
                     int((bram_only - base) / per_qp) if per_qp > 0 else None))
    return rows


def lut_levels(r):
    """How many of the path's levels are LUTs (CARRY cells in a chain are much faster)."""
    n = sum(1 for c in r.get("path") or [] if c.startswith("LUT"))
    return f" ({n})" if n else ""


def report(results):
    lines = ["# Synthesis estimate (Yosys 0.23, UltraScale+)", "",
             "`synth_xilinx -family xcup -noiopad -noclkbuf`, hierarchical, on nic_top at the default QP count "
             "and on roce_transport at 4096 QPs; each block's row is its instance in that netlist (no "
             "optimisation across its ports); nic_top at 4096 QPs is derived (nic_top - roce_transport + "
             "roce_transport at 4096 QPs; its levels are the "
             "larger of the two). The board crossings are synthesised alone (flattened). No pins, no placement. "
             "Levels: the longest path between registers, RAMs, DSPs or ports inside the block, in LUTs plus "
             "CARRY cells (our own walk over the flattened netlist), a first timing proxy only; in brackets how many "
             "of them are LUTs (consecutive CARRY cells of one adder are far faster than a LUT each). Yosys s: the "
             "wall time of the run the row comes from (one nic_top run gives all its rows).", "",
             "| block | instance | params | LUT | FF | LUTRAM | RAMB36 | RAMB18 | URAM288 | DSP | levels (LUTs of them) | Yosys s |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, _, _, _ in ROWS:
        r = results.get(name)
        if r is None:
            continue
        prm = ",".join(f"{k}={v}" for k, v in (r.get("params") or {}).items()) or "defaults"
        if r.get("instance") not in (None, r.get("top"), "nic_top (derived)"):
            prm = f"in {r['run']}"
        if "error" in r:
            lines.append(f"| {name} | | | {r['error']} | | | | | | | | {r['seconds']} |")
            continue
        lines.append(f"| {name} | {r['instance']} | {prm} | {r['LUT']} | {r['FF']} | {r['LUTRAM']} | {r['RAMB36']} | "
                     f"{r['RAMB18']} | {r['URAM288']} | {r['DSP']} | {r['levels']}{lut_levels(r)} | "
                     f"{r['seconds']}{' (cached)' if r.get('cached') else ''} |")
    parts = [results.get(n) for n in ("nic_top", "board_mac_rx_cdc", "board_mac_tx_cdc")]
    if all(p and "error" not in p for p in parts):
        t = {k: sum(p[k] for p in parts) for k in ("LUT", "FF", "LUTRAM", "RAMB36", "RAMB18", "URAM288", "DSP")}
        lines.append(f"| **total** (nic_top + crossings) | | defaults | {t['LUT']} | {t['FF']} | {t['LUTRAM']} | "
                     f"{t['RAMB36']} | {t['RAMB18']} | {t['URAM288']} | {t['DSP']} | | |")
        for part, cap in PARTS.items():
            lines.append(f"| share of {part} | | | {100 * t['LUT'] / cap['LUT']:.1f}% | {100 * t['FF'] / cap['FF']:.1f}% | | "
                         f"{100 * (t['RAMB36'] + t['RAMB18'] / 2) / cap['RAMB36']:.1f}% | | | | | |")
    rows = fits(results)
    if rows:
        lines += ["", "Block RAM growth of nic_top between 256 and 4096 QPs as Yosys maps it (RAMB36/18 only; "
                  "scripts/qp_budget.py gives the table-by-table count and URAM288):", "",
                  "| part | Kib per QP | fixed Kib | QPs in RAMB36 alone (linear) |",
                  "| --- | ---: | ---: | ---: |"]
        for part, per_qp, base, b1 in rows:
            lines.append(f"| {part} | {per_qp:.2f} | {base:.0f} | {b1} |")
    return "\n".join(lines) + "\n"


def paths_report(results):
    lines = ["# Longest paths (LUT + CARRY levels) per block", ""]
    for name, _, _, _ in ROWS:
        r = results.get(name)
        if not r or "error" in r or not r.get("path"):
            continue
        lines += [f"## {name}: {r['levels']} levels", ""] + [f"    {c}" for c in r["path"]] + [""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2, help="Yosys runs at a time (default 2)")
    ap.add_argument("--only", default="")
    ap.add_argument("--collect", action="store_true",
                    help="read the netlists a finished Yosys run left in build/synth/runs/RUN (after reading "
                         "them failed) instead of running Yosys again; with --only")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    files = [f for f in a.files if f.endswith(".sv")] + BOARD_RTL
    missing = [f for f in files if not (ROOT / f).exists()]
    if missing:
        sys.exit(f"synth: missing input files: {' '.join(missing)} (run 'make regs' first)")
    sel = [x for x in RUNS if not a.only or x[0] in a.only.split(",")]
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    prev = OUT / "results.json"
    if a.only and prev.exists():
        results.update(json.loads(prev.read_text()))
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(run, name, top, params, hier, files, a.collect) for name, top, params, hier in sel]
        done = [f.result() for f in cf.as_completed(futs)]
    for res in done:
        for row, r in res.items():
            results[row] = r
            state = r.get("error") or f"{r['LUT']} LUT, {r['FF']} FF, {r['levels']} levels"
            print(f"synth: {row}: {state} ({r['seconds']} s{', cached' if r.get('cached') else ''})",
                  file=sys.stderr, flush=True)
    derive_4096(results)
    text = report(results)
    (OUT / "report.md").write_text(text)
    (OUT / "paths.md").write_text(paths_report(results))
    (OUT / "results.json").write_text(json.dumps(results, indent=1))
    print(text)
    if any("error" in r for r in results.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
