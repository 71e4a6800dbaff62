#!/usr/bin/python3
"""Run one ISA program on QEMU (the reference) and on rv_core (tb_core), and
compare their signatures word for word.

    run_isa.py PROG [--model build/core/Vtb_core] [--stall-seeds 1,2]
               [--cpi TAG:MAX ...] [--expect-fail]

PROG names tests/core/progs/PROG.{S,c}, built by tests/core/rules.mk into
build/core/progs/PROG.core.hex (bench) and PROG.qemu.elf (QEMU).

The core runs once with a zero-wait bus and once per --stall-seeds seed with
random grant and response delays; every run must give QEMU's signature, no
failed self-check (the program's written expectations where QEMU differs by
design) and exit code 0.

--cpi TAG:MAX asserts that the section the program reported with PERF tag
TAG (zero-wait run) took at most MAX cycles per retired instruction.

--expect-fail inverts the verdict (the mutation test): passes only when the
model's signature differs from QEMU's or a self-check fails.
"""

import argparse
import os
import re
import subprocess
import sys

BUILD = "build/core"
QEMU = [
    "qemu-system-riscv32", "-machine", "virt", "-bios", "none", "-nographic",
    "-monitor", "none", "-serial", "none",
    "-semihosting-config", "enable=on,target=native",
    # An RV32IM machine-mode hart like rv_core: no C (so jumps to 2-byte
    # aligned targets trap), no A/F/D, no S/U/H modes (misa then matches).
    "-cpu", "rv32,c=false,a=false,f=false,d=false,s=false,u=false,h=false",
    # Virtual time from the instruction count (1 ns per instruction; idle time
    # skipped to the next timer event), so the timer interrupts of irq.S land at
    # the same instruction on every run: with the host's clock a loaded machine
    # delayed QEMU's timer past irq.S's bounded wait and the reference changed.
    "-icount", "shift=0,sleep=off",
]
QEMU_TIMEOUT = 60
CORE_TIMEOUT = 120
MAX_CYCLES = 3_000_000
SHOW = 12  # mismatches printed per run


def run_qemu(prog):
    elf = os.path.join(BUILD, "progs", prog + ".qemu.elf")
    try:
        p = subprocess.run(QEMU + ["-kernel", elf], capture_output=True, text=True,
                           timeout=QEMU_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, ["QEMU timed out after %d s" % QEMU_TIMEOUT]
    sig, errors = [], []
    # QEMU writes the semihosting console to stderr.
    for line in (p.stdout + p.stderr).splitlines():
        f = line.split()
        if f and f[0] == "S" and len(f) == 2:
            sig.append(int(f[1], 16))
        elif f and f[0] == "C" and len(f) == 4:
            errors.append("QEMU: self-check %d failed: expected %s got %s" % (int(f[1], 16), f[2], f[3]))
    if p.returncode != 0 and not errors:
        errors.append("QEMU exited with %d: %s" % (p.returncode, p.stderr.strip()[-400:]))
    return sig, errors


def run_core(model, prog, stall, seed):
    hexf = os.path.join(BUILD, "progs", prog + ".core.hex")
    rundir = os.path.join(BUILD, "run")
    os.makedirs(rundir, exist_ok=True)
    tag = "%s.%s.s%d" % (prog, os.path.basename(model), seed if stall else 0)
    sigf = os.path.join(rundir, tag + ".sig")
    if os.path.exists(sigf):
        os.remove(sigf)
    cmd = [model, "+prog=" + hexf, "+sig=" + sigf, "+stall=%d" % stall, "+seed=%d" % seed,
           "+max_cycles=%d" % MAX_CYCLES]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=CORE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, ["%s: no exit within %d s" % (tag, CORE_TIMEOUT)], {}, ""
    errors = []
    perf = {}
    summary = ""
    for line in p.stdout.splitlines():
        if line.startswith("CHECK FAIL"):
            errors.append("core: " + line)
        elif line.startswith("PERF"):
            m = re.match(r"PERF tag=(\d+) cycles=(\d+) instret=(\d+)", line)
            if m:
                perf[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
        elif line.startswith("TB "):
            summary = line
    if p.returncode != 0 and not errors:
        errors.append("core exited with %d: %s" % (p.returncode, (summary or p.stdout[-400:]).strip()))
    sig = []
    if os.path.exists(sigf):
        with open(sigf) as f:
            sig = [int(x, 16) for x in f.read().split()]
    return sig, errors, perf, summary


def compare(ref, got):
    """Differences as text lines; empty when equal."""
    out = []
    if len(ref) != len(got):
        out.append("signature length: expected %d words (QEMU) got %d (core)" % (len(ref), len(got)))
    n = 0
    for i, (a, b) in enumerate(zip(ref, got)):
        if a != b:
            n += 1
            if n <= SHOW:
                out.append("  word %4d: expected %08x got %08x" % (i, a, b))
    if n > SHOW:
        out.append("  ... %d differing words in all" % n)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("--model", default=os.path.join(BUILD, "Vtb_core"))
    ap.add_argument("--stall-seeds", default="1")
    ap.add_argument("--cpi", action="append", default=[])
    ap.add_argument("--expect-fail", action="store_true")
    a = ap.parse_args()

    ref, qerr = run_qemu(a.prog)
    if qerr or not ref:
        for e in qerr:
            print(e)
        if not ref:
            print("FAIL %s: QEMU gave no signature" % a.prog)
        else:
            print("FAIL %s: the reference run itself failed" % a.prog)
        return 1
    print("%s: QEMU signature %d words" % (a.prog, len(ref)))

    configs = [(0, 0)] + [(1, int(s)) for s in a.stall_seeds.split(",") if s]
    problems = []
    perf0 = {}
    for stall, seed in configs:
        label = "zero-wait bus" if not stall else "random bus delays, seed %d" % seed
        sig, errors, perf, summary = run_core(a.model, a.prog, stall, seed)
        if not stall:
            perf0 = perf
        diff = compare(ref, sig) if sig is not None else ["no signature"]
        print("%s on %s (%s): %s" % (a.prog, os.path.basename(a.model), label, summary))
        if diff or errors:
            problems.append(label)
            for e in errors:
                print("  " + e)
            if diff:
                print("  signature differs from QEMU:")
                for d in diff:
                    print("  " + d)

    for spec in a.cpi:
        tag, bound = spec.split(":")
        tag, bound = int(tag), float(bound)
        if tag not in perf0:
            problems.append("cpi")
            print("  CPI tag %d: expected a PERF report, got none" % tag)
            continue
        cyc, ins = perf0[tag]
        cpi = cyc / ins if ins else float("inf")
        ok = cpi <= bound
        print("  CPI tag %d: %d cycles / %d instructions = %.3f (expected <= %.2f)%s"
              % (tag, cyc, ins, cpi, bound, "" if ok else "  FAIL"))
        if not ok:
            problems.append("cpi %d" % tag)

    if a.expect_fail:
        if problems:
            print("PASS %s: the faulty model was caught (%s)" % (a.prog, ", ".join(problems)))
            return 0
        print("FAIL %s: expected the faulty model to be caught, got matching signatures" % a.prog)
        return 1
    if problems:
        print("FAIL %s: %s" % (a.prog, "; ".join(problems)))
        return 1
    print("PASS %s" % a.prog)
    return 0


if __name__ == "__main__":
    sys.exit(main())
