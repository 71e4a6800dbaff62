#!/usr/bin/env python3
"""make bench: measured figures of the simulator, the soft core and the datapath.

Simulated cycle counts are exact and repeatable; wall-clock figures (the simulator's
speed) depend on this machine and are reported only here, never asserted in tests.
Each section runs one measurement; a section whose tool is missing says so."""
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIM = ROOT / "build/sim/solonic_sim"
FW = ROOT / "build/fw/solonic.hex"


def sim_session(lines, extra=()):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(l + "\n" for l in lines))
        script = f.name
    t0 = time.monotonic()
    p = subprocess.run([str(SIM), "--fw", str(FW), "--uart-in", script, "--stats", "--max-seconds", "600", *extra],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    wall = time.monotonic() - t0
    pathlib.Path(script).unlink()
    m = re.search(r"stats cycles=(\d+) instret=(\d+) wall_s=([\d.]+) cycles_per_s=(\d+)", p.stderr)
    if p.returncode != 0 or not m:
        raise RuntimeError(f"simulator run failed ({p.returncode}): {p.stderr.strip()[-400:]}")
    return p.stdout, {"cycles": int(m[1]), "instret": int(m[2]), "wall": float(m[3]), "cps": int(m[4]),
                      "proc_wall": wall}


def section(title):
    print(f"\n== {title}")


def bench_core():
    section("soft core and simulator (firmware in the simulated SoC, 250 MHz nominal)")
    _, boot = sim_session([])
    print(f"boot to the first prompt and out: {boot['cycles']} cycles, {boot['instret']} instructions, "
          f"CPI {boot['cycles'] / max(1, boot['instret']):.3f}")
    out, run = sim_session(["cpi 256"])
    for m in re.finditer(r"cpi (\S+)\s+cycles (\d+) instructions (\d+) cpi ([\d.]+)", out):
        print(f"compute loop {m[1]:<6}: {m[2]} cycles, {m[3]} instructions, CPI {m[4]}")
    print(f"simulator speed: {run['cps'] / 1e6:.2f} M simulated cycles per wall second "
          f"({run['cycles']} cycles in {run['wall']:.2f} s; {run['cps'] / 250e6 * 1e3:.2f} ms of "
          f"simulated time per wall second)")


def bench_make(title, target):
    section(title)
    p = subprocess.run(["make", "-s", "--no-print-directory", target], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace")
    print(p.stdout.rstrip())
    if p.returncode != 0:
        raise RuntimeError(f"make {target} failed ({p.returncode})")


def main():
    failed = 0
    steps = [bench_core,
             lambda: bench_make("packet layer: beats per cycle and Gb/s per frame size", "net-bench")]
    for extra in ("mem-bench", "roce-bench", "transport-bench"):
        if subprocess.run(["make", "-n", extra], cwd=ROOT, capture_output=True).returncode == 0:
            steps.append(lambda t=extra: bench_make(f"{t}", t))
    for step in steps:
        try:
            step()
        except RuntimeError as e:
            print(f"bench: {e}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
