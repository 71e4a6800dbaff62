#!/usr/bin/env python3
"""Runs build/cc/Vcc_rp (tests/cc/tb_cc_rp.cpp) and checks cc_rp's rate trajectory
against tests/cc/dcqcn_model.py, QP by QP, sample by sample.

The bench prints its parameters, every CNP and tx-bytes event it drove (cycle, QP) and
each QP's rate read from the block every 997 cycles. The model replays the same events
at the same cycles. Tolerance: the values are compared exactly (same fixed point); in
time, a sample at cycle t may show any value the model held in [t - LAG, t]: the block
applies an event some cycles after it arrives (input register, FIFO, one operation of
at most ~30 cycles) and a timer when the scan reaches the QP (at most one scan round,
2 x NQP operations), and the bench's own rate read lags by up to 5 cycles. LAG = 2000
cycles (8 us) bounds all of that for NQP 16 with margin, and is far below every period
(4 us interval is enforced from the event stamps, not from when it is applied).
Also: the sequence of distinct rates the block showed must appear in the model's
sequence in order, and the four counters must equal the model's.

usage: check_rp.py [--tb PATH] [--end-us N] [--quiet]
"""
import argparse
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import dcqcn_model as dm  # noqa: E402

LAG = 2000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tb", default="build/cc/Vcc_rp")
    ap.add_argument("--end-us", type=int, default=3000)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    out = subprocess.run([a.tb, f"+end_us={a.end_us}"], stdout=subprocess.PIPE, text=True, timeout=600,
                         check=True).stdout
    events, samples, counters, p, unknown = [], {}, None, None, 0
    for ln in out.splitlines():
        w = ln.split()
        if w[0] == "P":
            v = list(map(int, w[1:]))
            p = dm.Params(line=v[0], rmin=v[1], ai=v[2], hai=v[3], g=v[4], alpha_init=v[5], f=v[6],
                          dec_cyc=v[7], alpha_cyc=v[8], rai_cyc=v[9], b_bytes=v[10])
        elif w[0] == "C":
            events.append((int(w[1]), "C", int(w[2]), 0))
        elif w[0] == "U":
            unknown += 1
        elif w[0] == "T":
            events.append((int(w[1]), "T", int(w[2]), int(w[3])))
        elif w[0] == "S":
            samples.setdefault(int(w[2]), []).append((int(w[1]), int(w[3])))
        elif w[0] == "K":
            counters = tuple(map(int, w[1:]))
    if p is None or counters is None:
        sys.exit("check_rp: bench output incomplete")

    fails = 0
    tot = [0, 0, 0]
    seen = {}
    for qpn, smp in sorted(samples.items()):
        rp = dm.RP(p)
        hist = [(0, rp.rate())]          # (cycle, model rate from then on)
        evq = [e for e in events if e[2] == qpn]
        i = 0

        def to(t):
            nonlocal i
            while i < len(evq) and evq[i][0] <= t:
                c, k, _, nb = evq[i]
                rp.advance(c)
                if rp.rate() != hist[-1][1]:
                    hist.append((c, rp.rate()))
                rp.cnp(c) if k == "C" else rp.tx(c, nb)
                if rp.rate() != hist[-1][1]:
                    hist.append((c, rp.rate()))
                i += 1
            # timers alone up to t, one deadline at a time so their times are recorded
            while rp.act and min(rp.t_alpha, rp.t_rate) <= t:
                d = min(rp.t_alpha, rp.t_rate)
                rp.advance(d)
                if rp.rate() != hist[-1][1]:
                    hist.append((d, rp.rate()))

        shown = []
        for t, r in smp:
            to(t)
            # model values held at some time in [t - LAG, t]
            ok_vals = {v for (c, v), nxt in zip(hist, hist[1:] + [(t + 1, None)]) if c <= t and nxt[0] > t - LAG}
            model_now = hist[-1][1]
            good = r in ok_vals
            if not good:
                fails += 1
            if not a.quiet and (not good or (not shown or shown[-1] != r)):
                print(f"qp {qpn:2d} cycle {t:8d} ({t / 250:8.1f} us): rtl {r:6d} Mb/s  model {model_now:6d} Mb/s"
                      f"{'' if good else '  MISMATCH (model values in window: ' + str(sorted(ok_vals)) + ')'}")
            if not shown or shown[-1] != r:
                shown.append(r)
        to(smp[-1][0] + 1)
        mseq = [v for _, v in hist]
        it = iter(mseq)
        if not all(v in it for v in shown):
            fails += 1
            print(f"qp {qpn}: rates shown by the block {shown} are not in the model's order {mseq}")
        for k, v in rp.seen.items():
            seen[k] = seen.get(k, 0) + v
        tot[0] += rp.handled
        tot[1] += rp.ignored
        tot[2] += rp.decreases
        print(f"qp {qpn}: {len(smp)} samples, {len(shown)} distinct rates shown, model changed rate "
              f"{len(mseq) - 1} times, CNPs handled {rp.handled} ignored {rp.ignored}")
    print("the model went through: " + ", ".join(f"{k} {v}" for k, v in seen.items()))
    if a.end_us >= 3000 and not all(seen.values()):
        fails += 1
        print("the schedule no longer reaches every branch of the state machine")
    # CNPs for a QP number >= NQP count as ignored
    exp = (tot[0], tot[1] + unknown, tot[2], 0)
    print(f"counters: rtl handled/ignored/decreases/dropped {counters}, model {exp}")
    if counters != exp:
        fails += 1
    print("check_rp: " + ("PASS" if fails == 0 else f"FAIL ({fails})"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
