"""The arithmetic of make fabric's tables (scripts/fabric_experiments.py) on synthetic data:
Jain's index against its definition on known cases, the payload ceiling against the framing
counted by hand, and a synthetic --fabric-csv (written here, in the switch's format) whose
per-flow throughput, window, second-half bytes, fairness and queue figures are known in
advance.
No simulation: well under a second."""
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))

import fabric_experiments as fx  # noqa: E402

failures = []


def check(what, ok, expected, got):
    print(f"{'ok  ' if ok else 'FAIL'} {what}: expected {expected}, got {got}")
    if not ok:
        failures.append(what)


def close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(b))


def main():
    # Jain: equal shares 1; one of n takes all 1/n; (1, 3): 16 / (2 x 10) = 0.8
    check("jain of equal shares", close(fx.jain([5, 5, 5, 5]), 1.0), 1.0, fx.jain([5, 5, 5, 5]))
    check("jain, one of 8 has everything", close(fx.jain([7] + [0] * 7), 1 / 8), 0.125, fx.jain([7] + [0] * 7))
    check("jain of (1, 3)", close(fx.jain([1, 3]), 0.8), 0.8, fx.jain([1, 3]))
    check("jain of nothing is undefined", math.isnan(fx.jain([0, 0])), "nan", fx.jain([0, 0]))

    # a 64 KiB WRITE at PMTU 1024: 64 packets of 1024 B, each with 58 B of headers and ICRC
    # and 24 B of preamble, FCS and gap, plus one RETH: 65536 / 70800 of the line
    want = 100.0 * 65536 / (65536 + 64 * 82 + 16)
    got = fx.payload_ceiling_gbps(65536, 1024)
    check("payload ceiling, 64 KiB at PMTU 1024", close(got, want), want, got)
    got = fx.payload_ceiling_gbps(1000, 4096)
    want = 100.0 * 1000 / (1000 + 82 + 16)
    check("payload ceiling, one short packet", close(got, want), want, got)

    check("MAC to NIC index", [fx.mac_index("02:00:00:00:00:01"), fx.mac_index("02:00:00:00:00:0a")] == [0, 9],
          [0, 9], [fx.mac_index("02:00:00:00:00:01"), fx.mac_index("02:00:00:00:00:0a")])

    # synthetic series: 3 ports, samples every 1000 cycles from 1000 to 10000; flow 0->2 sends
    # 6250 B per sample, flow 1->2 6250 B in the first half and 18750 B in the second; the queue
    # at port 2 holds 100 x i bytes at sample i, the others none
    sample = 1000
    rows = ["cycle,kind,name,value"]
    for i in range(1, 11):
        c = i * sample
        for p in range(3):
            rows.append(f"{c},queue,port{p},{100 * i if p == 2 else 0}")
        rows.append(f"{c},flow,02:00:00:00:00:01>02:00:00:00:00:03,6250")
        rows.append(f"{c},flow,02:00:00:00:00:02>02:00:00:00:00:03,{6250 if c <= 5000 else 18750}")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.csv")
        with open(path, "w") as f:
            f.write("\n".join(rows) + "\n")
        cycles, queues, flows = fx.read_series(path)
    check("samples read", cycles == [i * sample for i in range(1, 11)] and sorted(queues) == [0, 1, 2],
          "10 samples, 3 ports", (len(cycles), sorted(queues)))
    # 6250 B in 1000 cycles of 4 ns = 6250 x 8 / 4 us = 12.5 Gb/s
    g = fx.flow_gbps(flows, (0, 2), cycles, sample)
    check("flow throughput per sample", all(close(x, 12.5) for x in g), "12.5 Gb/s each", g)
    check("an absent flow is 0", fx.flow_gbps(flows, (2, 0), cycles, sample) == [0.0] * 10, "zeros",
          fx.flow_gbps(flows, (2, 0), cycles, sample))
    # window (0, 10000]: the second half is the samples after 5000: 6000..10000, 5 samples
    st = fx.window_stats(cycles, queues, flows, [(0, 2), (1, 2)], 2, 0, 10000)
    check("second-half bytes", st["second_half_bytes"] == {(0, 2): 5 * 6250, (1, 2): 5 * 18750},
          {(0, 2): 31250, (1, 2): 93750}, st["second_half_bytes"])
    check("jain over the second half (1 : 3)", close(st["jain"], 0.8), 0.8, st["jain"])
    check("queue max and mean", st["queue_max"] == 1000 and close(st["queue_mean"], 550.0) and st["samples"] == 10,
          (1000, 550.0, 10), (st["queue_max"], st["queue_mean"], st["samples"]))
    # a window that starts at 4000: (4000, 10000], mid 7000: second half 8000..10000; queue
    # samples 5000..10000: 500..1000, mean 750
    st = fx.window_stats(cycles, queues, flows, [(0, 2), (1, 2)], 2, 4000, 10000)
    check("a later window", st["second_half_bytes"] == {(0, 2): 3 * 6250, (1, 2): 3 * 18750}
          and st["queue_max"] == 1000 and close(st["queue_mean"], 750.0),
          ({(0, 2): 18750, (1, 2): 56250}, 1000, 750.0),
          (st["second_half_bytes"], st["queue_max"], st["queue_mean"]))
    # the window follows the flows: flow 0->2 from the sample at 3000 to the one at 7000 only
    late = {(0, 2): {c: (6250 if 3000 <= c <= 7000 else 0) for c in cycles}}
    got = (fx.flows_start(late, [(0, 2)], 0, sample), fx.flows_end(late, [(0, 2)], 2000, 10000),
           fx.flows_end(late, [(0, 2)], 2000, 5000))
    check("window from the flows' first and last samples", got == (2000, 7000, 5000), (2000, 7000, 5000), got)
    try:
        fx.flows_start(late, [(1, 2)], 0, sample)
        check("no bytes of the flows: an error", False, "ExperimentError", "none")
    except fx.ExperimentError as e:
        check("no bytes of the flows: an error", "no bytes" in str(e), "no bytes ...", str(e))
    # the queue's maximum over the second half: samples 6000..10000 of a queue that rises and
    # then falls (port 2: 100 i for i = 1..10 above; here 1000 - 100 i: 400..0 after 5000)
    q_down = {2: [1000 - 100 * i for i in range(1, 11)]}
    st = fx.window_stats(cycles, q_down, flows, [(0, 2)], 2, 0, 10000)
    check("queue max over the second half", (st["queue_max"], st["queue_max_2nd"]) == (900, 400), (900, 400),
          (st["queue_max"], st["queue_max_2nd"]))
    # the DCQCN criteria on made-up figures: each one met, then each one missed
    base = {"queue_max_2nd": 150000, "port": {8: {"drops": 0}, 1: {"drops": 0}}, "aggregate_gbps": 90.0,
            "ceiling_gbps": 95.0, "jain": 0.99}
    got = [ok for _, ok, _ in fx.dcqcn_verdict(base)]
    check("DCQCN criteria all met", got == [True] * 4, [True] * 4, got)
    bad = dict(base, queue_max_2nd=200000, port={8: {"drops": 0}, 1: {"drops": 3}}, aggregate_gbps=85.0, jain=0.94)
    got = [ok for _, ok, _ in fx.dcqcn_verdict(bad)]
    check("DCQCN criteria all missed (Kmax reached, drops at another port, 89.5 %, Jain 0.94)", got == [False] * 4,
          [False] * 4, got)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
