#!/usr/bin/env python3
"""The user-logic examples in the whole NIC (rtl/user, fw/cmd_user.c): two NICs in
build/sim/solonic_sim joined by the wire model, driven through their consoles.

    test_user_system.py CASE | --list

source_to_sink: NIC A's source streams 64 KiB WRITEs at MTU 4096 into a streaming MR of NIC B
  whose sink checks every beat: goodput from the source's cycles at least 97 Gb/s (both the
  source's and the sink's figure), every message, chunk and byte counted, no bad beat, no gap;
  the counter mode; a sink told another seed finds every beat bad (the check can fail).
source_to_memory: the same into B's ordinary memory (the exchange's buffer), round a 1 MiB
  region four times: `verify` fails before and passes after with the source's seed, not with
  another; the sink saw nothing.
paced_stop_errors: --gbps 40 gives 40 Gb/s (within 2 %); a source without a count runs until
  `user source stop` and drains; a wrong rkey completes every WRITE in error (REM_ACCESS_ERR
  first, the rest flushed) with nothing reaching B; every wrong console line answered with
  what was wrong.
Every wait is bounded (simulated cycles and wall seconds).
"""
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from nicsim import Failure, check, check_true  # noqa: E402

BUF = 0x100000            # QPX_BUF_BASE: the exchange's test buffer
STREAM = 0x40000000       # B's streaming MR in these tests
MAX_CYCLES = "400000000"
SRC = re.compile(r"user source: (\w+), (\d+) posted, (\d+) completed, (\d+) errors(?: \(first: status (\d+)\))?, "
                 r"(\d+) unaligned, (\d+) cycles, ([0-9.]+) Gb/s\n")
SNK = re.compile(r"user sink: (\d+) chunks, (\d+) messages, (\d+) bytes, (\d+) bad beats(?: \(first at (0x\w+)\))?, "
                 r"(\d+) gaps, (\d+) unaligned, (\d+) cycles, ([0-9.]+) Gb/s\n")


def pair():
    from nicsim import NicPair
    return NicPair(args=["--max-cycles", MAX_CYCLES], max_seconds=500)


def cmd(con, line, timeout=120):
    return con.cmd(line, timeout=timeout).replace("\r", "")


def connect(a, b):
    """B listens, A connects, MTU 4096: the QP on A."""
    b.send("listen --mtu 4096 --wait 5000")
    b.wait_for(r"listen --mtu 4096 --wait 5000\n", 30)
    out = cmd(a, "connect 10.0.0.2 --mtu 4096")
    m = re.search(r"qpx: QP 0x(\w+) RTS: peer 10\.0\.0\.2 ", out)
    check_true("A's QP in RTS", m is not None, "qpx: QP 0x.. RTS: peer 10.0.0.2", out)
    b.wait_for(r"solonic> ", 120)
    return int(m.group(1), 16)


def status(con):
    out = cmd(con, "user")
    s, k = SRC.search(out), SNK.search(out)
    check_true("the user status lines", s is not None and k is not None, "user source: ... / user sink: ...", out)
    src = dict(state=s.group(1), posted=int(s.group(2)), completed=int(s.group(3)), errors=int(s.group(4)),
               first=s.group(5) and int(s.group(5)), unaligned=int(s.group(6)), cycles=int(s.group(7)),
               gbps=float(s.group(8)))
    snk = dict(chunks=int(k.group(1)), messages=int(k.group(2)), bytes=int(k.group(3)), bad=int(k.group(4)),
               first_bad=k.group(5), gaps=int(k.group(6)), unaligned=int(k.group(7)), cycles=int(k.group(8)),
               gbps=float(k.group(9)))
    return src, snk


def wait_done(a, seconds=120):
    end = time.monotonic() + seconds
    while True:
        src, _ = status(a)
        if src["state"] == "done":
            return src
        check_true("the source ends within its bound", time.monotonic() < end, f"done within {seconds} s", src)
        time.sleep(0.5)


def sink_key(b, seed, mode="pattern"):
    out = cmd(b, f"user sink --addr {STREAM:#x} --region 0x4000000 --seed {seed} --mode {mode}")
    m = re.search(r"streaming MR key 0x([0-9a-f]{8}) over", out)
    if m is None:   # registered by an earlier call: mr list has it
        m = re.search(rf"^0x([0-9a-f]{{8}}) 0x0*{STREAM:x} ", cmd(b, "mr list"), re.M)
    check_true("B's streaming MR", m is not None, "its key", out)
    check_true("sink cleared", f"user sink: cleared, checking {mode} seed {seed:#x}" in out,
               "user sink: cleared ...", out)
    return int(m.group(1), 16)


def case_source_to_sink():
    with pair() as (a, b):
        connect(a, b)
        key = sink_key(b, 7)
        n = 256
        out = cmd(a, f"user source start --len 65536 --count {n} --addr {STREAM:#x} --region 0x4000000 "
                     f"--rkey {key:#x} --seed 7")
        check_true("start", "user source: QP" in out and "unpaced" in out, "user source: QP ... unpaced", out)
        src = wait_done(a)
        _, snk = status(b)
        check("posted", n, src["posted"])
        check("completed", n, src["completed"])
        check("source errors", 0, src["errors"])
        check("messages at the sink", n, snk["messages"])
        check("chunks at the sink (16 packets of 4096 B each)", n * 16, snk["chunks"])
        check("bytes at the sink", n * 65536, snk["bytes"])
        check("bad beats", 0, snk["bad"])
        check("gaps", 0, snk["gaps"])
        check("unaligned", 0, snk["unaligned"] + src["unaligned"])
        gbps = n * 65536 * 8 * 250e6 / src["cycles"] / 1e9
        check_true("the printed figure is the cycles' (250 MHz)", abs(gbps - src["gbps"]) < 0.02, gbps, src["gbps"])
        check_true("goodput at least 97 Gb/s (source: first post to last completion)", src["gbps"] >= 97.0,
                   ">= 97", src["gbps"])
        check_true("goodput at least 97 Gb/s (sink: first beat to last)", snk["gbps"] >= 97.0, ">= 97", snk["gbps"])
        print(f"source {src['gbps']} Gb/s ({src['cycles']} cycles), sink {snk['gbps']} Gb/s ({snk['cycles']} cycles)")
        # the counter mode
        sink_key(b, 0x1234, "counter")
        cmd(a, f"user source start --len 65536 --count 16 --addr {STREAM:#x} --region 0x4000000 "
               f"--rkey {key:#x} --seed 0x1234 --mode counter")
        wait_done(a)
        _, snk = status(b)
        check("counter mode: bytes", 16 * 65536, snk["bytes"])
        check("counter mode: bad beats", 0, snk["bad"])
        # a sink that expects another seed finds every beat bad
        sink_key(b, 8)
        cmd(a, f"user source start --len 4096 --count 4 --addr {STREAM:#x} --region 0x4000000 "
               f"--rkey {key:#x} --seed 7")
        wait_done(a)
        _, snk = status(b)
        check("another seed: every beat bad", 4 * 4096 // 64, snk["bad"])
        check("another seed: the first bad beat", hex(STREAM), snk["first_bad"])


def case_source_to_memory():
    with pair() as (a, b):
        connect(a, b)
        m = re.search(rf"^0x([0-9a-f]{{8}}) 0x0*{BUF:x} ", cmd(b, "mr list"), re.M)
        check_true("B's test buffer MR", m is not None, "a key for 0x100000", "")
        key = int(m.group(1), 16)
        sink_key(b, 5)
        out = cmd(b, f"verify {BUF:#x} 0x100000 5")
        check_true("before: B's memory does not hold the pattern", out.startswith("verify: FAILED:"), "FAILED", out)
        cmd(a, f"user source start --len 65536 --count 64 --addr {BUF:#x} --region 0x100000 --rkey {key:#x} --seed 5")
        src = wait_done(a)
        check("completed without error", (64, 0), (src["completed"], src["errors"]))
        out = cmd(b, f"verify {BUF:#x} 0x100000 5")
        check_true("after: every byte of the region matches", "all bytes match" in out, "all bytes match", out)
        out = cmd(b, f"verify {BUF:#x} 0x100000 6")
        check_true("another seed does not match", out.startswith("verify: FAILED:"), "FAILED", out)
        _, snk = status(b)
        check("the sink saw nothing (memory, not a streaming MR)", 0, snk["chunks"])
        print(f"64 x 64 KiB into memory: {src['gbps']} Gb/s")
        # a 2 GiB MR (the memory model costs nothing until touched): the last MiB of it
        out = cmd(b, "mr reg 0x80000000 0x80000000 0x2 --pd 1")
        m = re.match(r"mr key 0x([0-9a-f]{8}): 0x80000000 \+ 0x80000000 access 0x2 pd 1\n", out)
        check_true("a 2 GiB MR", m is not None, "mr key 0x..: 0x80000000 + 0x80000000 access 0x2 pd 1", out)
        top = 0x80000000 + 0x80000000 - 0x100000
        cmd(a, f"user source start --len 65536 --count 32 --addr {top:#x} --region 0x100000 "
               f"--rkey 0x{m.group(1)} --seed 11")
        src = wait_done(a)
        check("the 2 GiB MR's last MiB: completed without error", (32, 0), (src["completed"], src["errors"]))
        out = cmd(b, f"verify {top:#x} 0x100000 11")
        check_true("the last MiB of the 2 GiB MR holds the pattern", "all bytes match" in out, "all bytes match", out)
        # one byte past the MR's end: refused by B, nothing written
        cmd(a, f"user source start --len 65536 --count 1 --addr {top + 0x100000 - 0x8000:#x} --region 0x10000 "
               f"--rkey 0x{m.group(1)} --seed 11")
        src = wait_done(a)
        check("a WRITE past the MR's end: REM_ACCESS_ERR", (1, 10), (src["errors"], src["first"]))


def case_paced_stop_errors():
    with pair() as (a, b):
        qpn = connect(a, b)
        key = sink_key(b, 3)
        cmd(a, f"user source start --len 65536 --count 64 --gbps 40 --addr {STREAM:#x} --region 0x4000000 "
               f"--rkey {key:#x} --seed 3")
        src = wait_done(a)
        check_true("paced at 40 Gb/s (within 2 %)", 39.2 <= src["gbps"] <= 40.8, "39.2 .. 40.8", src["gbps"])
        # until stopped
        out = cmd(a, f"user source start --len 4096 --addr {STREAM:#x} --region 0x4000000 --rkey {key:#x} --seed 3")
        check_true("start without a count", "until stopped" in out, "until stopped", out)
        out = cmd(a, f"user source start --len 4096 --addr {STREAM:#x} --region 0x4000000 --rkey {key:#x}")
        check("a second start while running", "user source start: the source is running ('user source stop' ends it)\n", out)
        out = cmd(a, "user source stop")
        check("stop", "user source: stopping (what was posted completes; 'user' shows it)\n", out)
        src = wait_done(a)
        check_true("stopped and drained", src["posted"] > 0 and src["posted"] == src["completed"]
                   and src["errors"] == 0, "posted == completed > 0, no error", src)
        _, snk = status(b)
        check("nothing bad at the sink", 0, snk["bad"])
        # bad console lines
        for line, want in (
                ("user source start --len 100", "user source start: --len must be a multiple of 64 (got 100)"),
                ("user source start --addr 0x40000020 --rkey 1", "user source start: --addr must be a multiple of 64"),
                ("user source start --len 8192 --region 4096", "user source start: --region: expected --len (8192)"),
                ("user source start --bogus 1", "user source start: unknown option '--bogus'"),
                ("user source start --mode fast", "user source start: --mode: expected pattern or counter, got 'fast'"),
                ("user source start --gbps 500", "user source start: --gbps: expected 0 (unpaced) .. 400, got 500"),
                ("user source start 0x77", "user source start: QP 0x77 was not created here"),
                ("user sink --len 4", "user sink: unknown option '--len'"),
                ("user sink --addr 0x1000", "user sink: --addr and --region go together"),
                ("user frobnicate", "user: unknown subcommand 'frobnicate'"),
                ("user source", "user source: expected start [QPN] [OPTIONS] or stop")):
            out = cmd(a, line)
            check_true(f"{line!r} answered with what was wrong", out.startswith(want), want, out)
        # a wrong rkey: the first WRITE is NAKed, the rest flushed; nothing reaches B
        sink_key(b, 3)
        cmd(a, f"user source start --len 4096 --count 8 --addr {STREAM:#x} --region 0x4000000 "
               f"--rkey {key ^ 0x100:#x} --seed 3")
        src = wait_done(a)
        check("every WRITE completed in error", (8, 8), (src["completed"], src["errors"]))
        check("the first error: REM_ACCESS_ERR (10)", 10, src["first"])
        _, snk = status(b)
        check("nothing reached the sink", 0, snk["chunks"])
        out = cmd(a, f"qp show {qpn:#x}")
        check_true("the QP went to ERROR", "ERROR" in out, "state ERROR", out)


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}

if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        sys.exit(0)
    t0 = time.monotonic()
    try:
        CASES[sys.argv[1]]()
    except Failure as e:
        print(f"FAIL {sys.argv[1]}: {e}")
        sys.exit(1)
    print(f"PASS {sys.argv[1]} ({time.monotonic() - t0:.1f} s)")
