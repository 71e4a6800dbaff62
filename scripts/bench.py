#!/usr/bin/env python3
"""make bench: measured figures of the simulator, the soft core and the datapath.

Simulated cycle counts are exact and repeatable; wall-clock figures (the simulator's
speed) depend on this machine and are reported only here, never asserted in tests.
Each section runs one measurement; a section whose tool is missing says so."""
import os
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


def bench_two_nics():
    """Two NICs (solonic_sim --nics 2): the exchange, then the console's bench (work-request generator)."""
    section("two NICs, the console's bench (posted by the work-request generator; PMTU 1024 from the "
            "pingpong exchange, wire limit 92.25 Gb/s at 4 KiB)")
    sys.path.insert(0, str(ROOT / "scripts"))
    from nicsim import ConsoleTimeout, NicPair
    try:
        with NicPair(max_seconds=1200) as (a, b):
            b.send("listen --wait 5000")
            b.wait_for(r"listen --wait 5000\n", 60)
            out = a.cmd("connect 10.0.0.2", timeout=300)
            if "exchange with 10.0.0.2 done" not in out:
                raise RuntimeError(f"connect failed: {out.strip()[-300:]}")
            b.wait_for(r"exchange with 10\.0\.0\.1 done", 300)
            b.wait_for("solonic> ", 60)
            m = re.search(r"^0x([0-9a-f]{8}) 0x0*100000 ", b.cmd("mr list", timeout=60), re.M)
            if not m:
                raise RuntimeError("NIC 1 has no MR on its test buffer")
            rk = f"--rkey 0x{m[1]}"
            print(" test   #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]")
            for line in (f"bench write 64 2000 {rk}", f"bench write 4096 256 {rk}", f"bench write 65536 64 {rk}",
                         f"bench read 4096 256 {rk}", f"bench read 65536 16 {rk}",
                         "bench send 4096 64", "bench send 65536 64"):
                out = a.cmd(line, timeout=600)
                m = re.search(r"^ (\d+) +(\d+) +([\d.]+) +([\d.]+) +([\d.]+)\n", out, re.M)
                if not m:
                    raise RuntimeError(f"{line}: no table: {out.strip()[-300:]}")
                print(f" {line.split()[1]:<6} {m[1]:<10} {m[2]:<14} {m[3]:<18} {m[4]:<20} {m[5]}")
            out = a.cmd(f"bench lat write 64 16 {rk}", timeout=300)
            m = re.search(r"min (\d+), max (\d+) cycles", out)
            if not m:
                raise RuntimeError(f"bench lat: {out.strip()[-300:]}")
            print(f"64 B WRITE post to completion (bench lat, firmware-started, generator-posted): "
                  f"{m[1]}..{m[2]} cycles")
    except ConsoleTimeout as e:
        raise RuntimeError(f"two NICs: {e}")


def bench_user_stream():
    """Two NICs: NIC 0's user-logic source (rtl/user) streams 1 GiB (SOLONIC_USER_MIB MiB) of
    64 KiB WRITEs at MTU 4096 into a streaming MR of NIC 1, whose sink checks every byte."""
    mib = int(os.environ.get("SOLONIC_USER_MIB", "1024"))
    n = mib * 16
    section(f"user logic: NIC 0's source into NIC 1's sink, {mib} MiB of 64 KiB WRITEs, MTU 4096 "
            "(goodput from the source's and the sink's cycle counters)")
    sys.path.insert(0, str(ROOT / "scripts"))
    from nicsim import ConsoleTimeout, NicPair
    t0 = time.monotonic()
    try:
        with NicPair(args=["--max-cycles", str(10**10)], max_seconds=7200) as (a, b):
            b.send("listen --mtu 4096 --wait 5000")
            b.wait_for(r"listen --mtu 4096 --wait 5000\n", 60)
            out = a.cmd("connect 10.0.0.2 --mtu 4096", timeout=300)
            if "exchange with 10.0.0.2 done" not in out:
                raise RuntimeError(f"connect failed: {out.strip()[-300:]}")
            b.wait_for("solonic> ", 300)
            out = b.cmd("user sink --addr 0x40000000 --region 0x40000000 --seed 7", timeout=60)
            m = re.search(r"streaming MR key 0x([0-9a-f]{8})", out)
            if not m:
                raise RuntimeError(f"user sink: {out.strip()[-300:]}")
            a.cmd(f"user source start --len 65536 --count {n} --addr 0x40000000 --region 0x40000000 "
                  f"--rkey 0x{m[1]} --seed 7", timeout=60)
            while True:
                out = a.cmd("user", timeout=60)
                if "user source: done" in out:
                    break
                if time.monotonic() - t0 > 7000:
                    raise RuntimeError(f"the source did not finish: {out.strip()}")
                time.sleep(5)
            print(out.strip().splitlines()[0])
            print(b.cmd("user", timeout=60).strip().splitlines()[1])
            print(f"({time.monotonic() - t0:.0f} s wall)")
    except ConsoleTimeout as e:
        raise RuntimeError(f"user stream: {e}")


def main():
    failed = 0
    steps = [bench_core,
             lambda: bench_make("packet layer: beats per cycle and Gb/s per frame size", "net-bench")]
    for extra in ("mem-bench", "roce-bench", "transport-bench"):
        if subprocess.run(["make", "-n", extra], cwd=ROOT, capture_output=True).returncode == 0:
            steps.append(lambda t=extra: bench_make(f"{t}", t))
    if SIM.exists() and FW.exists():
        steps.append(bench_two_nics)
        steps.append(bench_user_stream)
    for step in steps:
        try:
            step()
        except RuntimeError as e:
            print(f"bench: {e}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
