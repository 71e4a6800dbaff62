#!/usr/bin/env python3
"""make run: two NICs in one simulation, joined by the wire model.

The QP exchange (ibv_rc_pingpong's) over TCP through lwIP on both soft cores,
then RDMA WRITE, READ and SEND with every byte checked by the on-board memory's
fill/verify engine (a distinct seed and address for each transfer; before each
transfer the destination must NOT verify, after it must), then perftest-style
bench runs, then the user-logic examples (NIC 0's source into NIC 1's sink). Prints both consoles in order, each line with its NIC, a bench
table and a summary line; exits 0 only if every step's output matched.

    demo_two_nics.py                 the scripted demo
    demo_two_nics.py --interactive   NIC 0's console on this terminal, NIC 1's on a
                                     pseudo-terminal (its path and how to attach are printed)
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from nicsim import FW, SIM, ConsoleTimeout, NicPair  # noqa: E402

WIRE_GBPS = 100.0        # the wire model's default rate (solonic_sim --wire rate=100e9)
CMD_TIMEOUT = 300.0      # wall seconds for one console command (the simulation is slow)
BUF = 0x100000           # the exchange's test buffer (QPX_BUF_BASE) on both NICs
FLOAT = r"([0-9]+\.[0-9]+)"


class Demo:
    def __init__(self, a, b):
        self.nic = {0: a, 1: b}
        self.steps = 0
        self.bad = []
        self.figures = {}
        self.bench_rows = []

    def show(self, n, line, out):
        print(f"[NIC {n}] solonic> {line}")
        for l in out.rstrip("\n").split("\n") if out.strip() else []:
            print(f"[NIC {n}] {l}")
        sys.stdout.flush()

    def check(self, what, ok, expected, got):
        self.steps += 1
        if not ok:
            self.bad.append(what)
            print(f"demo: FAIL {what}\n  expected: {expected}\n  got:      {got!r}")

    def run(self, n, line, pattern=None, what=None):
        """Type line on NIC n; the answer must match pattern (regex); return the match or None."""
        try:
            out = self.nic[n].cmd(line, timeout=CMD_TIMEOUT).replace("\r", "")  # CRLF split over reads
        except ConsoleTimeout as e:
            self.check(what or line, False, f"an answer to '{line}'", str(e))
            return None
        self.show(n, line, out)
        if pattern is None:
            return out
        m = re.search(pattern, out, re.M)
        self.check(what or f"NIC {n}: {line}", m is not None, f"/{pattern}/", out)
        return m

    # ---- the steps

    def exchange(self):
        print("\n== the QP exchange: NIC 1 listens, NIC 0 connects (ibv_rc_pingpong over lwIP TCP)")
        b = self.nic[1]
        b.send("listen --wait 5000")
        b.wait_for(r"listen --wait 5000\n", 30)  # the echo: NIC 1 is listening
        m = self.run(0, "connect 10.0.0.2",
                     r"QP 0x(\w+) RTS: peer 10\.0\.0\.2 .*\n.*ready to send ([0-9.]+) us \((\d+) cycles\)"
                     r"(?s:.*)pingpong exchange with 10\.0\.0\.2 done", "NIC 0: connect reaches RTS")
        try:
            out = b.wait_for(r"solonic> ", CMD_TIMEOUT)[: -len("solonic> ")].replace("\r", "")
        except ConsoleTimeout as e:
            out = str(e)
        self.show(1, "listen --wait 5000", out)
        m1 = re.search(r"QP 0x(\w+) RTS: peer 10\.0\.0\.1 (?s:.*)pingpong exchange with 10\.0\.0\.1 done", out)
        self.check("NIC 1: listen reaches RTS", m1 is not None, "QP ... RTS: peer 10.0.0.1 ... done", out)
        if not m or not m1:
            return False
        self.qpn = int(m.group(1), 16)
        self.figures["connect to RTS"] = f"{m.group(2)} us ({m.group(3)} cycles) of simulated time"
        # pingpong carries no rkey: read the peer's key of its test buffer from its console
        keys = {}
        for n in (0, 1):
            mk = self.run(n, "mr list", rf"^0x([0-9a-f]{{8}}) 0x0*{BUF:x} ", f"NIC {n}: the test buffer's MR")
            keys[n] = int(mk.group(1), 16) if mk else 0
        self.rkey = {0: keys[1], 1: keys[0]}  # the key each side uses for the other's buffer
        return True

    def transfer(self, title, f_nic, d_nic, moves, seed, addr, length):
        """fill on f_nic, check d_nic's copy does not match yet, move, check it does."""
        print(f"\n== {title}: 0x{addr:x} + 0x{length:x}, seed {seed}")
        self.run(f_nic, f"fill {addr:#x} {length:#x} {seed}", r"^fill: .* bytes in \d+ cycles")
        self.run(d_nic, f"verify {addr:#x} {length:#x} {seed}", r"^verify: FAILED: \d+ of \d+ bytes differ",
                 f"NIC {d_nic}: before the {title} the destination does not hold the pattern")
        for n, line, pat in moves:
            self.run(n, line, pat)
        self.run(d_nic, f"verify {addr:#x} {length:#x} {seed}", r"^verify: .* all bytes match",
                 f"NIC {d_nic}: after the {title} every byte matches")
        self.run(d_nic, f"verify {addr:#x} {length:#x} {seed + 1}", r"^verify: FAILED",
                 f"NIC {d_nic}: the check is not vacuous (another seed fails)")

    def transfers(self):
        q = f"{self.qpn:#x}"
        a, ln = BUF + 0x10000, 0x10000
        self.transfer("RDMA WRITE NIC 0 -> NIC 1", 0, 1,
                      [(0, f"write {q} {a:#x} {a:#x} {self.rkey[0]:#x} {ln:#x}",
                        rf"^write: IBV_WC_SUCCESS, {ln} bytes")], 11, a, ln)
        a = BUF + 0x30000
        self.transfer("RDMA READ NIC 0 <- NIC 1", 1, 0,
                      [(0, f"read {q} {a:#x} {a:#x} {self.rkey[0]:#x} {ln:#x}",
                        rf"^read: IBV_WC_SUCCESS, {ln} bytes")], 22, a, ln)
        a, ln = BUF + 0x50000, 0x8000
        self.transfer("RDMA WRITE NIC 1 -> NIC 0", 1, 0,
                      [(1, f"write {q} {a:#x} {a:#x} {self.rkey[1]:#x} {ln:#x}",
                        rf"^write: IBV_WC_SUCCESS, {ln} bytes")], 44, a, ln)
        # a SEND lands in the receive WQEs the exchange pre-posted at the test buffer
        ln = 0x1000
        self.transfer("SEND NIC 0 -> NIC 1 (into the pre-posted receive buffer)", 0, 1,
                      [(0, f"send {q} {BUF:#x} {ln:#x}", rf"^send: IBV_WC_SUCCESS, {ln} bytes"),
                       (1, f"qp show {q}", r"receives posted \d+, completed 1, errors 0")], 33, BUF, ln)

    def bench(self, line):
        m = self.run(0, line, r"^ #bytes +#iterations +BW peak\[Gb/sec\] +BW average\[Gb/sec\] +MsgRate\[Mpps\]\n"
                     rf" *(\d+) +(\d+) +{FLOAT} +{FLOAT} +{FLOAT}", f"NIC 0: {line}: a perftest table")
        if not m:
            return
        size, iters, peak, avg, rate = int(m[1]), int(m[2]), float(m[3]), float(m[4]), float(m[5])
        ok = 0 < avg <= peak < WIRE_GBPS and rate > 0
        self.check(f"{line}: 0 < BW average <= BW peak < {WIRE_GBPS:g} Gb/s", ok,
                   f"0 < avg <= peak < {WIRE_GBPS:g}", f"peak {peak} avg {avg} rate {rate}")
        self.bench_rows.append((line.split()[1], size, iters, peak, avg, rate))

    def benches(self):
        print("\n== perftest-style runs (bench) from NIC 0; the transport's work-request generator posts "
              "every work request")
        rk = f"--rkey {self.rkey[0]:#x}"
        for line in (f"bench write 65536 64 {rk}", f"bench write 4096 64 {rk}", f"bench write 64 1000 {rk}",
                     f"bench read 65536 16 {rk}", f"bench read 4096 64 {rk}",
                     "bench send 4096 64"):
            self.bench(line)
        m = self.run(0, f"bench lat write 64 16 {rk}",
                     rf"^ #bytes +#iterations +t_min\[usec\] +t_max\[usec\] +t_avg\[usec\]\n *64 +16 +{FLOAT} +"
                     rf"{FLOAT} +{FLOAT}", "NIC 0: bench lat write: a latency table")
        if m:
            self.figures["write latency 64 B"] = f"t_min {m[1]} t_avg {m[3]} t_max {m[2]} us"
            self.check("latency: 0 < t_min <= t_avg <= t_max", 0 < float(m[1]) <= float(m[3]) <= float(m[2]),
                       "0 < t_min <= t_avg <= t_max", m.group(0))


    def user_stream(self):
        print("\n== user logic (rtl/user, the console's user): NIC 0's source streams RDMA WRITEs into a "
              "streaming MR of NIC 1, whose sink checks every byte")
        m = self.run(1, "user sink --addr 0x40000000 --region 0x4000000 --seed 7",
                     r"streaming MR key 0x([0-9a-f]{8}) over", "NIC 1: user sink: a streaming MR")
        if not m:
            return
        if not self.run(0, f"user source start --len 65536 --count 128 --addr 0x40000000 --region 0x4000000 "
                           f"--rkey 0x{m[1]} --seed 7", r"^user source: QP", "NIC 0: user source start"):
            return
        end = time.monotonic() + CMD_TIMEOUT
        while True:
            out = self.nic[0].cmd("user", timeout=CMD_TIMEOUT).replace("\r", "")
            if "user source: done" in out or time.monotonic() > end:
                break
            time.sleep(0.5)
        self.show(0, "user", out)
        src = re.search(r"user source: done, 128 posted, 128 completed, 0 errors, .* ([0-9.]+) Gb/s", out)
        self.check("NIC 0: the source's 128 WRITEs completed without error", src is not None,
                   "user source: done, 128 posted, 128 completed, 0 errors", out)
        k = self.run(1, "user", r"^user sink: \d+ chunks, 128 messages, 8388608 bytes, 0 bad beats, 0 gaps, "
                                rf"0 unaligned, \d+ cycles, {FLOAT} Gb/s", "NIC 1: the sink: every byte as sent")
        if src and k:
            self.figures["user source -> sink, 128 x 64 KiB"] = f"source {src[1]} Gb/s, sink {k[1]} Gb/s, 0 bad beats"


def scripted():
    t0 = time.monotonic()
    with NicPair(max_seconds=1500) as (a, b):
        d = Demo(a, b)
        print(f"demo: two NICs ({SIM} --nics 2), NIC 0 10.0.0.1 and NIC 1 10.0.0.2 on one cable")
        if d.exchange():
            d.transfers()
            d.benches()
            d.user_stream()
    if d.bench_rows:
        print("\n== bench summary (NIC 0 -> NIC 1, simulated time, 250 MHz core clock, 100 Gb/s wire)")
        print(" test   #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]")
        for op, size, iters, peak, avg, rate in d.bench_rows:
            print(f" {op:<6} {size:<10} {iters:<14} {peak:<18.2f} {avg:<20.2f} {rate:.6f}")
    for k, v in d.figures.items():
        print(f"demo: {k}: {v}")
    good = d.steps - len(d.bad)
    print(f"demo: {good} of {d.steps} checks as expected ({time.monotonic() - t0:.0f} s wall)"
          + ("" if not d.bad else "; failed: " + "; ".join(d.bad)))
    return 0 if d.steps and not d.bad else 1


def interactive():
    """NIC 0 on this terminal; NIC 1 on a pty whose path is printed with how to attach."""
    cmd = [SIM, "--fw", FW, "--nics", "2", "--uart1-pty"]
    p = subprocess.Popen(cmd, stderr=subprocess.PIPE)

    def relay():
        told = False
        for raw in iter(p.stderr.readline, b""):
            line = raw.decode(errors="replace").rstrip("\r\n")
            sys.stderr.write(line + "\r\n")
            m = re.search(r"(/dev/pts/\d+)", line)
            if m and not told:
                told = True
                sys.stderr.write(f"NIC 1's console is {m[1]}: attach from another terminal with "
                                 f"'picocom {m[1]}' (Debian package picocom; Ctrl-A Ctrl-X quits) or "
                                 f"'screen {m[1]}' (package screen). Ctrl-] here ends the run.\r\n")
            sys.stderr.flush()
    t = threading.Thread(target=relay, daemon=True)
    t.start()
    try:
        rc = p.wait()
    except KeyboardInterrupt:
        p.terminate()
        rc = p.wait()
    t.join(timeout=2)
    return rc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--interactive", action="store_true")
    args = ap.parse_args()
    for f in (SIM, FW):
        if not os.path.exists(f):
            print(f"demo: {f} is missing (make {'sim' if f == SIM else 'fw'})")
            return 2
    return interactive() if args.interactive else scripted()


if __name__ == "__main__":
    sys.exit(main())
