#!/usr/bin/env python3
"""The whole-NIC soak: two simulated NICs, each with its firmware, exchange over lwIP
(perftest's write_bw exchange with --qps N on TCP 18515), then the firmware's `soak`
command (fw/cmd_soak.c) runs a seeded mix of WRITE, WRITE_IMM, READ, SEND, SEND_IMM,
CMP_AND_SWP and FETCH_AND_ADD over the N QPs (path MTUs 256..4096) on a faulty wire,
NIC 0 posting, NIC 1 the target: every completion and every byte checked by the NICs.

    soak.py [--ops N] [--seed S] [--wire SPEC] [--wire-back SPEC] [--qps N]
            [--max-size B] [--depth N] [--ack-timeout T] [--max-seconds S]

Prints a table (operations and bytes by kind, retransmissions, NAKs by kind from both
NICs' `stats`, the wire's faults, wall seconds, operations per wall second) and exits
1 on any error, a console that stops answering, or the wall bound (--max-seconds).
"""
import argparse
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from nicsim import NicPair, PROMPT  # noqa: E402

# RoCE frames only (UDP 4791): the TCP exchange goes through clean, lwIP's retransmission
# timer is seconds of simulated time
WIRE = "drop=0.005,dup=0.002,reorder=0.01,depth=32,corrupt=0.002,jitter=400,inorder=1,port=4791,seed=1"


class SoakError(Exception):
    pass


# the transport's counters the table shows, then those that must not move
ROWS = [("retransmits (packets resent)", "retransmits"), ("ACK timeouts", "local_ack_timeout_err"),
        ("NAK sequence received", "packet_seq_err"), ("implied NAK (READ)", "implied_nak_seq_err"),
        ("NAK sequence sent", "out_of_sequence"), ("duplicate requests", "duplicate_request"),
        ("RNR NAK received", "rnr_nak_received"), ("NAK invalid received", "req_remote_invalid_request"),
        ("NAK access received", "req_remote_access_errors"), ("error completions", "req_cqe_error")]
COUNTERS = [k for _, k in ROWS] + ["resp_cqe_error", "qp_errors"]


def counters(con):
    """COUNTERS of one NIC, by name: `stats NAME ...` lines of at most 127 characters (the
    console's limit); a whole `stats` prints 3.6 KB, ~300,000 cycles of the firmware's printf."""
    out, line = {}, "stats"
    for k in COUNTERS + [None]:
        if k is not None and len(line) + 1 + len(k) <= 127:
            line += " " + k
            continue
        out.update(con.stats(*line.split()[1:]))
        line = "stats " + (k or "")
    return out


def report(text):
    """soak report: {kind: (ops, bytes)}."""
    return {k: (int(n), int(b)) for k, n, b in re.findall(r"^soak: (\w+) +(\d+) ops +(\d+) bytes$", text, re.M)}


def run(o):
    t0 = time.monotonic()
    args = ["--wire", o.wire, "--stats", "--max-cycles", str(o.max_cycles)]
    if o.wire_back:
        args += ["--wire-back", o.wire_back]
    pair = NicPair(args=args, max_seconds=o.max_seconds)
    deadline = t0 + o.max_seconds

    def left():
        x = deadline - time.monotonic()
        if x <= 0:
            raise SoakError(f"the wall bound of {o.max_seconds} s is over")
        return x

    with pair as (a, b):
        b.send(f"listen --test write_bw --qps {o.qps} --wait 5000")
        b.wait_for(r"listen --test write_bw .*\n", 30)
        out_c = a.cmd(f"connect 10.0.0.2 --test write_bw --qps {o.qps}", timeout=min(left(), 1200))
        out_s = b.wait_for(re.escape(PROMPT), min(left(), 120))
        for who, out in (("NIC 0", out_c), ("NIC 1", out_s)):
            n = len(re.findall(r"qpx: QP 0x\w+ RTS", out))
            if n != o.qps:
                raise SoakError(f"{who}: the exchange made {n} QPs RTS, expected {o.qps}: {out[-600:]}")
        t_x = time.monotonic() - t0
        before = [counters(c) for c in (a, b)]
        line = (f"soak start {o.seed} {o.ops} --qps {o.qps} --max-size {o.max_size} --depth {o.depth}"
                f" --ack-timeout {o.ack_timeout}")
        for c in (a, b):
            out = c.cmd(line)
            if not out.startswith(f"soak: seed {o.seed}, {o.ops} operations"):
                raise SoakError(f"{c.name}: {line}: {out}")
        rounds, done, round_cycles = 0, False, 0
        while not done:
            b.send("soak serve")
            out_b = b.wait_for(r"^soak: round \d+ ready.*\n|" + re.escape(PROMPT), min(left(), 120))
            if "ready" not in out_b:
                raise SoakError(f"NIC 1: soak serve: {out_b}")
            out_a = a.cmd("soak post", timeout=min(left(), 1200))
            if not re.search(rf"^soak: round {rounds} ok: ", out_a, re.M):
                # (NIC 1 waits its --timeout of simulated time for what will not come)
                raise SoakError(f"NIC 0: soak post (round {rounds}): {out_a}")
            out_b = b.wait_for(re.escape(PROMPT), min(left(), 600))
            if not re.search(rf"^soak: round {rounds} target ok: ", out_b, re.M):
                raise SoakError(f"NIC 1: soak serve (round {rounds}): {out_b}\nNIC 0: {out_a}")
            round_cycles += int(re.search(r"operations in (\d+) cycles", out_a).group(1))
            done = f"soak: all {o.ops} operations done" in out_a
            rounds += 1
            if o.progress and rounds % 50 == 0:
                print(f"soak: {rounds} rounds, {time.monotonic() - t0:.0f} s", flush=True)
        reps = [report(c.cmd("soak report")) for c in (a, b)]
        after = [counters(c) for c in (a, b)]
    wall = time.monotonic() - t0
    if reps[0] != reps[1]:
        raise SoakError(f"the NICs' reports differ: {reps[0]} / {reps[1]}")
    rep = reps[0]
    if rep.get("total", (0, 0))[0] != o.ops:
        raise SoakError(f"{rep.get('total')} operations reported, expected {o.ops}")
    d = [{k: after[i].get(k, 0) - before[i].get(k, 0) for k in after[i]} for i in (0, 1)]
    links = dict(re.findall(r"link (\S+) (.*)", pair.stderr))
    for who, x in (("NIC 0", d[0]), ("NIC 1", d[1])):
        if x.get("req_cqe_error") or x.get("resp_cqe_error") or x.get("qp_errors"):
            raise SoakError(f"{who}: error completions or QP errors: {x}")

    print(f"soak: seed {o.seed}, {o.ops} operations, {o.qps} QPs, 1..{o.max_size} bytes, depth {o.depth}, "
          f"{rounds} rounds; wire {o.wire}" + (f"; back {o.wire_back}" if o.wire_back else ""))
    print(f"{'operation':<16}{'ops':>10}{'bytes':>16}")
    for k, (n, by) in rep.items():
        print(f"{k:<16}{n:>10}{by:>16}")
    print(f"{'transport (stats)':<32}{'NIC 0':>10}{'NIC 1':>10}")
    for title, k in ROWS:
        print(f"{title:<32}{d[0].get(k, 0):>10}{d[1].get(k, 0):>10}")
    for name, st in sorted(links.items()):
        print(f"link {name}: {st}")
    m = re.search(r"stats cycles=(\d+) .*cycles_per_s=(\d+)", pair.stderr)
    if m:
        print(f"simulated {int(m.group(1)):,} cycles ({int(m.group(1)) / 250e3:.1f} ms at 250 MHz), "
              f"{int(m.group(2)):,} cycles per wall second; the initiator's rounds {round_cycles:,} cycles "
              f"({round_cycles / max(rep['total'][0], 1):,.0f} per operation)")
    total = rep["total"][0]
    print(f"wall {wall:.1f} s (exchange {t_x:.1f} s), {total / wall:.1f} operations per wall second, "
          f"{rep['total'][1] / wall / 1e6:.2f} MB per wall second")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--wire", default=WIRE)
    ap.add_argument("--wire-back", default="")
    ap.add_argument("--qps", type=int, default=16)
    ap.add_argument("--max-size", type=int, default=1 << 20)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--max-seconds", type=int, default=3600)
    ap.add_argument("--ack-timeout", type=int, default=6, help="the QPs' local ACK timeout exponent")
    ap.add_argument("--max-cycles", type=int, default=10**12)
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--expect-error", metavar="REGEX",
                    help="pass only if the soak fails with a message matching REGEX (a negative test)")
    o = ap.parse_args()
    try:
        run(o)
    except Exception as e:  # SoakError, ConsoleTimeout: say what happened, exit 1
        if o.expect_error and re.search(o.expect_error, str(e)):
            print(f"soak: failed as expected (/{o.expect_error}/): {e}")
            return 0
        print(f"soak: FAILED: {e}")
        return 1
    if o.expect_error:
        print(f"soak: FAILED: expected an error matching /{o.expect_error}/, the soak passed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
