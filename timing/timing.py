#!/usr/bin/env python3
"""make timing: every block of the NIC synthesised alone by Yosys for UltraScale+, its
worst path in LUT levels and Yosys's `sta` estimate, checked against timing/budget.toml.

For each block of budget.toml Yosys 0.23 runs

    read_verilog -sv -DSYNTHESIS <packages and the block's files>
    read_verilog -sv -DSYNTHESIS -lib <files of sub-blocks that are blocks themselves>
    chparam ...; synth_xilinx -family xcup -abc9 -noiopad -noclkbuf -flatten -top BLOCK
    sta; write_json

and this script walks the netlist:

  levels   the longest combinational path, in LUTs, from a start point (a flip-flop,
           a block RAM / DSP / URAM output, a LUTRAM's or SRL's stored data, a black-box
           sub-block's output, an input port) to an end point (a flip-flop's or hard
           block's input, a LUTRAM write port, a black-box input, an output port).
           A LUTRAM or SRL read (address to data) counts as one LUT; MUXF7/8/9 count 0
           (inside the slice); CARRY8 cells on the path are counted beside the LUTs.
  sta      Yosys's `sta` latest arrival in ns (clock-to-Q included, no routing, no
           setup): Yosys 0.23 annotates its xc7 (7-series) delays, so this is an
           estimate of logic delay only.
  outputs  the structural rule: every output port bit driven by a register or through
           at most one LUT from registers, never combinationally from an input port.

Results are cached in timing/cache/ (checked in) by the SHA-256 of the Yosys version,
the script and every input file, so a block is synthesised again only when something
it is built from changed. The table is printed and written to build/timing/report.md.

Exit status: 1 when a block is over the budget (`--ratchet`: over its debt line
instead, or over the budget when it has none) or a run failed.

usage: timing.py [--jobs N] [--only B[,B]] [--ratchet] [--no-cache] [--budget F] [--out D] [--cache D] FILE...
"""
import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "timing"
CACHE = ROOT / "timing" / "cache"
WRITE_CACHE = CACHE   # where fresh results go (make timing-check: under build/, not the tree)
BUDGET = ROOT / "timing" / "budget.toml"
CACHE_FORMAT = 1   # bump when the walk or the figures change meaning

COMB_LUT = re.compile(r"^LUT[1-6]$")
COMB_FREE = re.compile(r"^(MUXF[789]|INV|BUF)$")
CARRY = re.compile(r"^CARRY[48]$")
# distributed RAM and shift registers: the read (address -> data) is combinational
LUTRAM = re.compile(r"^(RAM\d+M\d*|RAM\d+X\d+[SD]|SRL16E|SRLC16E|SRLC32E)$")
READ_ADDR = re.compile(r"^(A\d*|ADDR[A-H]|DPRA\d*)$")


# ------------------------------------------------------------------ inputs

def load_budget(path):
    with open(path, "rb") as f:
        b = tomllib.load(f)
    blocks = {}
    for name, spec in b.get("block", {}).items():
        blocks[name] = {"top": spec.get("top", name), "params": spec.get("params", {}),
                        "group": spec.get("group", ""), "domain": spec.get("domain", "")}
    return b["budget"], blocks, b.get("debt", {})


def modules_of(files):
    """module name -> file, and each file's words (to find what it instantiates)."""
    mod_file, words = {}, {}
    for f in files:
        t = (ROOT / f).read_text(errors="replace")
        t = re.sub(r"//[^\n]*", "", t)
        for m in re.findall(r"^\s*module\s+(\w+)", t, re.M):
            mod_file[m] = f
        words[f] = set(re.findall(r"\b(\w+)\b", t))
    return mod_file, words


def block_files(top, files, mod_file, words, blocks):
    """(files read normally, files read as black boxes) for block top: its module
    hierarchy, stopping at sub-modules that are blocks themselves."""
    pkgs = [f for f in files if f.endswith("_pkg.sv")]
    box_mods = {spec["top"] for spec in blocks.values()} - {top}
    full, boxes, todo = [], [], [mod_file[top]]
    while todo:
        f = todo.pop()
        if f in full:
            continue
        full.append(f)
        for m in sorted(words[f] & mod_file.keys()):
            g = mod_file[m]
            if m in box_mods:
                if g not in boxes and g != mod_file[top]:
                    boxes.append(g)
            elif g not in full:
                todo.append(g)
    full = [f for f in files if f in full and f not in pkgs]
    boxes = [f for f in files if f in boxes and f not in full]
    return pkgs + full, boxes


def yosys_version():
    p = subprocess.run(["yosys", "-V"], stdout=subprocess.PIPE, text=True)
    return p.stdout.strip()


def script(top, params, full, boxes, work):
    def val(v):
        return str(v) if isinstance(v, int) else str(v)
    chp = "".join(f"chparam -set {k} {val(v)} {top}\n" for k, v in params.items())
    lib = f"read_verilog -sv -DSYNTHESIS -lib {' '.join(boxes)}\n" if boxes else ""
    return (f"read_verilog -sv -DSYNTHESIS {' '.join(full)}\n{lib}"
            f"{chp}"
            f"synth_xilinx -family xcup -abc9 -noiopad -noclkbuf -flatten -top {top}\n"
            f"write_json {work}/net.json\n"
            f"tee -q -o {work}/sta.txt sta\n")


def key_of(version, text, paths):
    h = hashlib.sha256(f"{CACHE_FORMAT}\n{version}\n{text}".encode())
    for p in paths:
        h.update(p.encode())
        h.update((ROOT / p).read_bytes())
    return h.hexdigest()[:24]


# ------------------------------------------------------------------ the netlist walk

def top_module(nl, top):
    mods = nl["modules"]
    for name, m in mods.items():
        if int(m.get("attributes", {}).get("top", "0") or "0", 2):
            return m
    if top in mods:
        return mods[top]
    raise KeyError(f"no top module {top} in the netlist")


def walk(mod, boxes):
    """Worst path and the output-port rule of one flattened module (see the docstring)."""
    cells = mod["cells"]
    bitname = {}
    for nn, info in mod.get("netnames", {}).items():
        if info.get("hide_name"):
            continue
        bits = info["bits"]
        for i, b in enumerate(bits):
            if isinstance(b, int) and b not in bitname:
                bitname[b] = nn.replace("\\", "") + (f"[{i}]" if len(bits) > 1 else "")
    in_ports = set()
    for pn, p in mod["ports"].items():
        if p["direction"] == "input":
            in_ports.update(b for b in p["bits"] if isinstance(b, int))

    # comb nodes: cell -> (weight, carry, input bits, output bits)
    comb, driver = {}, {}
    ends = []          # (bit, description) of every path end point
    types = {}
    for name, c in cells.items():
        t = c["type"]
        types[t] = types.get(t, 0) + 1
        dirs = c.get("port_directions", {})
        conn = c["connections"]
        ins = [(p, b) for p, d in dirs.items() if d == "input" for b in conn[p] if isinstance(b, int)]
        outs = [b for p, d in dirs.items() if d == "output" for b in conn[p] if isinstance(b, int)]
        if COMB_LUT.match(t) or COMB_FREE.match(t) or CARRY.match(t):
            w = 1 if COMB_LUT.match(t) else 0
            comb[name] = (w, 1 if CARRY.match(t) else 0, [b for _, b in ins], t)
            for b in outs:
                driver[b] = name
        elif LUTRAM.match(t):
            comb[name] = (1, 0, [b for p, b in ins if READ_ADDR.match(p)], t)
            for b in outs:
                driver[b] = name
            ends += [(b, f"{t} {p}") for p, b in ins if not READ_ADDR.match(p)]
        else:   # a register, a hard block or a black box: its inputs end paths
            q = next((bitname[b] for b in outs if b in bitname), name.replace("\\", ""))
            label = f"{t} {q}" if not any(t == m or t.endswith("\\" + m) or f"\\{m}\\" in t for m in boxes) \
                else f"block {name.replace(chr(92), '')}"
            ends += [(b, f"{label} .{p}") for p, b in ins]
    # outputs ports end paths too
    out_bits = []
    for pn, p in mod["ports"].items():
        if p["direction"] == "output":
            for i, b in enumerate(p["bits"]):
                if isinstance(b, int):
                    out_bits.append((b, f"{pn}[{i}]" if len(p["bits"]) > 1 else pn))

    # arrival per net bit: (LUTs, CARRYs, reached from an input port); a combinational
    # loop (none should exist) is cut where it closes
    memo, busy = {}, set()

    def arrival(bit):
        stack = [(bit, False)]
        while stack:
            b, expanded = stack.pop()
            if b in memo:
                continue
            d = driver.get(b)
            if d is None:
                memo[b] = (0, 0, b in in_ports)
                continue
            fin = comb[d][2]
            if not expanded:
                stack.append((b, True))
                busy.add(b)
                stack.extend((x, False) for x in fin if x not in memo and x not in busy)
                continue
            busy.discard(b)
            w, cy = comb[d][0], comb[d][1]
            best, anyin = (0, 0), False
            for x in fin:
                lv, c, i = memo.get(x, (0, 0, False))
                anyin |= i
                best = max(best, (lv, c))
            memo[b] = (best[0] + w, best[1] + cy, anyin)
        return memo[bit]

    worst = (-1, 0, None, None)
    for b, what in ends + [(b, f"output {n}") for b, n in out_bits]:
        a = arrival(b)
        if (a[0], a[1]) > (worst[0], worst[1]):
            worst = (a[0], a[1], b, what)
    # the worst path, start to end
    path = []
    if worst[2] is not None:
        b = worst[2]
        while driver.get(b) is not None:
            d = driver[b]
            w, cy, fin, t = comb[d]
            path.append(f"{t} {bitname.get(b, '')}".rstrip())
            nxt = [x for x in fin if x in memo]
            if not nxt:
                break
            b = max(nxt, key=lambda x: memo[x][:2])
        start = bitname.get(b, f"net {b}")
        path.append(f"start {start}")
        path.reverse()
        path.append(f"end {worst[3]}")
    # the output rule, per port: combinational from an input, or more than one LUT
    # after a register (the deepest bit of the port is reported)
    bad = {}
    for b, n in out_bits:
        port = re.sub(r"\[\d+\]$", "", n)
        lv, _, from_in = arrival(b)
        if b in in_ports or (from_in and driver.get(b) is not None):
            bad[port] = "combinational from an input"
        elif lv > 1 and not bad.get(port, "").startswith("comb"):
            old = int(bad[port].split()[0]) if port in bad else 0
            bad[port] = f"{max(lv, old)} LUTs after a register"
    outs = [f"{p}: {why}" for p, why in sorted(bad.items())]
    return {"levels": max(worst[0], 0), "carry": worst[1], "path": path, "comb_outputs": outs}


def resources(types):
    lut = sum(v for k, v in types.items() if COMB_LUT.match(k))
    ff = sum(v for k, v in types.items() if re.match(r"^FD[RSCP]E$", k))
    lutram = sum(v for k, v in types.items() if LUTRAM.match(k))
    return {"LUT": lut, "FF": ff, "LUTRAM": lutram,
            "RAMB36": types.get("RAMB36E2", 0), "RAMB18": types.get("RAMB18E2", 0),
            "URAM": types.get("URAM288", 0), "DSP": types.get("DSP48E2", 0),
            "CARRY": sum(v for k, v in types.items() if CARRY.match(k))}


def parse_abc_del(text):
    """abc9's own critical delay (ps) of its last mapping round: the depth it maps every path up to."""
    dels = re.findall(r"^ABC: \w+:\s+Del =\s*(\d+(?:\.\d+)?)", text, re.M)
    return round(float(dels[-1])) if dels else None


def parse_sta(text):
    m = re.search(r"Latest arrival time in '.*?' is (\d+):", text)
    return round(int(m.group(1)) / 1000, 2) if m else None


# ------------------------------------------------------------------ one block

def run_block(name, spec, files, mod_file, words, blocks, version, use_cache):
    top = spec["top"]
    if top not in mod_file:
        return {"error": f"no module {top} in the RTL"}
    full, boxes = block_files(top, files, mod_file, words, blocks)
    box_mods = sorted({m for m, f in mod_file.items() if f in boxes})
    key = key_of(version, script(top, spec["params"], full, boxes, "W"), full + boxes)
    for cache in dict.fromkeys((CACHE / f"{name}.json", WRITE_CACHE / f"{name}.json")):
        if use_cache and cache.exists():
            r = json.loads(cache.read_text())
            if r.get("key") == key:
                r["cached"] = True
                return r
    work = pathlib.Path(tempfile.mkdtemp(prefix=f"{name}-", dir=OUT / "runs"))
    t0 = time.monotonic()
    p = subprocess.run(["nice", "-n", "10", "yosys", "-q", "-l", str(work / "yosys.log"), "-s", "/dev/stdin"],
                       input=script(top, spec["params"], full, boxes, work), cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    secs = round(time.monotonic() - t0, 1)
    if p.returncode != 0:
        tail = "\n".join(p.stdout.strip().splitlines()[-5:])
        return {"error": f"yosys exit {p.returncode} (log {work / 'yosys.log'}): {tail}", "seconds": secs}
    with open(work / "net.json") as f:
        nl = json.load(f)
    mod = top_module(nl, top)
    types = {}
    for c in mod["cells"].values():
        types[c["type"]] = types.get(c["type"], 0) + 1
    r = walk(mod, set(box_mods))
    r.update(resources(types))
    r["sta_ns"] = parse_sta((work / "sta.txt").read_text(errors="replace")) if (work / "sta.txt").exists() else None
    r["abc_del_ps"] = parse_abc_del((work / "yosys.log").read_text(errors="replace"))
    r.update({"key": key, "top": top, "params": spec["params"], "boxes": box_mods,
              "seconds": secs, "yosys": version})
    if not os.environ.get("TIMING_KEEP"):
        (work / "net.json").unlink()
    if use_cache:
        WRITE_CACHE.mkdir(parents=True, exist_ok=True)
        (WRITE_CACHE / f"{name}.json").write_text(json.dumps(r, indent=1, sort_keys=True) + "\n")
    r["cached"] = False
    return r


# ------------------------------------------------------------------ judging and the table

def limits(budget, spec):
    b = dict(budget)
    b.pop("cmac", None)
    if spec["domain"] == "cmac":
        b.update(budget["cmac"])
    return b


def judge(r, lim, debt):
    """(over the budget: [why], over the debt line (or the budget when none): [why])"""
    over, worse = [], []
    if "error" in r:
        return ["failed"], ["failed"]
    if r["levels"] > lim["lut_levels"]:
        over.append(f"{r['levels']} LUT levels > {lim['lut_levels']}")
    if r["sta_ns"] is not None and r["sta_ns"] > lim["sta_ns"]:
        over.append(f"sta {r['sta_ns']} ns > {lim['sta_ns']}")
    if r["comb_outputs"]:
        over.append(f"{len(r['comb_outputs'])} outputs not registered")
    d = debt or {}
    if r["levels"] > d.get("lut_levels", lim["lut_levels"]):
        worse.append(f"{r['levels']} LUT levels > {d.get('lut_levels', lim['lut_levels'])}")
    if r["sta_ns"] is not None and r["sta_ns"] > d.get("sta_ns", lim["sta_ns"]):
        worse.append(f"sta {r['sta_ns']} ns > {d.get('sta_ns', lim['sta_ns'])}")
    if len(r["comb_outputs"]) > d.get("comb_outputs", 0):
        worse.append(f"{len(r['comb_outputs'])} outputs not registered > {d.get('comb_outputs', 0)}")
    return over, worse


def table(results, blocks, budget, debt):
    lines = ["# Timing per block (Yosys 0.23, UltraScale+)", "",
             f"Budget: at most {budget['lut_levels']} LUT levels and a Yosys `sta` estimate of at most "
             f"{budget['sta_ns']} ns on every path of every block (CMAC domain: {budget['cmac']['lut_levels']} "
             f"levels, {budget['cmac']['sta_ns']} ns), every output registered (timing/budget.toml). "
             "Each block is synthesised alone with `synth_xilinx -family xcup -abc9`, flattened, sub-blocks "
             "that are blocks themselves as black boxes. `sta` is Yosys's own estimate with its xc7 delay "
             "model (Yosys 0.23 has no UltraScale+ delays): logic and clock-to-Q only, no routing, no "
             "setup. `abc9 Del` is abc9's own critical delay in ps (carries included): abc9 stretches other "
             "paths up to it, so it is the margin figure. docs/timing.md says how to read this table.", "",
             "| block | group | LUT levels | CARRY | sta ns | abc9 Del ps | LUT | FF | LUTRAM | RAMB36 | RAMB18 | URAM | DSP "
             "| outputs not registered | verdict | worst path (start -> end) | s |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |"]
    for name, spec in blocks.items():
        r = results.get(name)
        if r is None:
            continue
        if "error" in r:
            lines.append(f"| {name} | {spec['group']} | | | | | | | | | | | | | **failed**: {r['error'][:200]} | | |")
            continue
        over, worse = judge(r, limits(budget, spec), debt.get(name))
        verdict = "ok" if not over else ("**over** (debt)" if not worse else "**OVER**")
        p = r["path"]
        ends = f"{p[0][6:]} -> {p[-1][4:]}" if len(p) >= 2 else ""
        lines.append(f"| {name} | {spec['group']} | {r['levels']} | {r['carry']} | {r['sta_ns']} | {r.get('abc_del_ps', '')} | {r['LUT']} | "
                     f"{r['FF']} | {r['LUTRAM']} | {r['RAMB36']} | {r['RAMB18']} | {r['URAM']} | {r['DSP']} | "
                     f"{len(r['comb_outputs'])} | {verdict} | `{ends}` | "
                     f"{r.get('seconds', '')}{' (cached)' if r.get('cached') else ''} |")
    return "\n".join(lines) + "\n"


def details(results, blocks):
    lines = ["# Worst path and unregistered outputs per block", ""]
    for name in blocks:
        r = results.get(name)
        if not r or "error" in r:
            continue
        lines += [f"## {name}: {r['levels']} LUT levels, {r['carry']} CARRY, sta {r['sta_ns']} ns, "
                  f"abc9 Del {r.get('abc_del_ps')} ps", ""]
        lines += [f"    {c}" for c in r["path"]] + [""]
        if r["comb_outputs"]:
            lines += ["Outputs not registered:", ""] + [f"- {o}" for o in r["comb_outputs"]] + [""]
    return "\n".join(lines)


def main():
    global OUT, CACHE, WRITE_CACHE
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated blocks")
    ap.add_argument("--ratchet", action="store_true",
                    help="fail only on blocks worse than their debt line (make test)")
    ap.add_argument("--print-debt", action="store_true",
                    help="print a [debt] line for every block over the budget, from this run's figures")
    ap.add_argument("--no-cache", action="store_true", help="synthesise every block, write no cache")
    ap.add_argument("--budget", default=str(BUDGET))
    ap.add_argument("--out", default=str(OUT), help="report folder (default build/timing)")
    ap.add_argument("--cache", default=str(CACHE), help="cache folder (default timing/cache)")
    ap.add_argument("--write-cache", default="",
                    help="write fresh results here instead of --cache (read from both; make timing-check "
                         "uses build/timing/cache so that make test leaves the tree as it was)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    OUT, CACHE = pathlib.Path(a.out).resolve(), pathlib.Path(a.cache).resolve()
    WRITE_CACHE = pathlib.Path(a.write_cache).resolve() if a.write_cache else CACHE
    budget, blocks, debt = load_budget(a.budget)
    if a.only:
        want = a.only.split(",")
        unknown = [w for w in want if w not in blocks]
        if unknown:
            sys.exit(f"timing: no block {', '.join(unknown)} in {a.budget}")
        all_blocks, blocks = blocks, {k: v for k, v in blocks.items() if k in want}
    else:
        all_blocks = blocks
    files = [f for f in a.files if f.endswith(".sv")]
    missing = [f for f in files if not (ROOT / f).exists()]
    if missing:
        sys.exit(f"timing: missing input files: {' '.join(missing)} (run 'make regs' first)")
    mod_file, words = modules_of(files)
    version = yosys_version()
    (OUT / "runs").mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    results = {}
    # which sub-blocks are black boxes follows from every block of the budget, not --only
    order = sorted(blocks, key=lambda n: -len(block_files(blocks[n]["top"], files, mod_file, words, all_blocks)[0])
                   if blocks[n]["top"] in mod_file else 0)
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {ex.submit(run_block, n, blocks[n], files, mod_file, words, all_blocks, version, not a.no_cache): n
                for n in order}
        for f in cf.as_completed(futs):
            n = futs[f]
            try:
                r = f.result()
            except Exception as e:   # a walk that fails is a failed block, not a crash
                r = {"error": f"{type(e).__name__}: {e}"}
            results[n] = r
            state = r.get("error") or (f"{r['levels']} LUT levels, sta {r['sta_ns']} ns, abc9 Del {r.get('abc_del_ps')} ps, "
                                       f"{len(r['comb_outputs'])} unregistered outputs")
            print(f"timing: {n}: {state} ({r.get('seconds', '?')} s{', cached' if r.get('cached') else ''})",
                  file=sys.stderr, flush=True)
    fresh = sorted(n for n, r in results.items() if "key" in r and not r.get("cached"))
    if fresh and WRITE_CACHE != CACHE:
        print(f"timing: {CACHE.relative_to(ROOT) if CACHE.is_relative_to(ROOT) else CACHE} is stale for "
              f"{', '.join(fresh)}: run 'make timing ONLY={','.join(fresh)}' and commit its entries",
              file=sys.stderr, flush=True)
    text = table(results, blocks, budget, debt)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "report.md").write_text(text)
    (OUT / "paths.md").write_text(details(results, blocks))
    (OUT / "results.json").write_text(json.dumps(results, indent=1, sort_keys=True))
    print(text)
    bad = []
    for n, spec in blocks.items():
        over, worse = judge(results[n], limits(budget, spec), debt.get(n))
        why = worse if a.ratchet else over
        if why:
            r = results[n]
            bad.append(f"timing: {n}: {'; '.join(why)}" +
                       (f"\n    {r['path'][0]} ... {r['path'][-1]}" if r.get("path") else "") +
                       (f"\n    {r['error']}" if "error" in r else ""))
    if a.print_debt:
        for n, spec in blocks.items():
            r = results[n]
            if "error" not in r and judge(r, limits(budget, spec), None)[0]:
                lim = limits(budget, spec)
                print(f"{n} = {{ lut_levels = {max(r['levels'], lim['lut_levels'])}, "
                      f"sta_ns = {max(r['sta_ns'] or 0, lim['sta_ns'])}, comb_outputs = {len(r['comb_outputs'])} }}")
    print(f"timing: {len(blocks)} blocks in {time.monotonic() - t0:.0f} s; details in "
          f"{OUT / 'paths.md'}", file=sys.stderr)
    if bad:
        print("\n".join(bad), file=sys.stderr)
        print(f"timing: {len(bad)} blocks {'worse than their debt line' if a.ratchet else 'over the budget'}",
              file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
