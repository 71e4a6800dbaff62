"""make fabric: congestion experiments on the simulated switch (docs/fabric.md).

Every experiment is one bounded run of build/sim/solonic_sim --nics N (a cycle limit and a
wall-time limit; every console wait bounded), driven through the NICs' consoles
(scripts/nicsim.py). It prints a table computed from the switch's --fabric-csv series, its
counters (--stats) and the NICs' own counters (`user`, `stats COUNTER ...`), and writes a PNG
(per-flow throughput and the bottleneck's queue depth against time) under build/fabric/.

  incast_taildrop  NICs 0..7 each WRITE long flows to NIC 8 (the user-logic source, 64 KiB
                   WRITEs until stopped), no congestion control, a small shared buffer with
                   tail drop; a victim flow, one 64 KiB WRITE from NIC 9 to NIC 0, before and
                   during the incast
  incast_pfc       the same with 802.3x PAUSE (--pfc) and the default 4 MiB buffer
  alltoall         8 NICs, every ordered pair connected, all-to-all as 7 rounds of the shift
                   permutation (round r: NIC i writes to NIC (i + r) mod 8), one user source
                   per NIC

  incast_dcqcn     the incast with DCQCN (issue 18): every NIC sends ECT(0) (`cc ect on`), the
                   switch marks CE by RED (Kmin 5 KB, Kmax 200 KB, Pmax 1 %), tail drop at
                   the default 4 MiB buffer; DCQCN with the paper's parameters (CC_SETUP:
                   CNPs and decreases at most every 50 us, T = 55 us, g = 1/256); it prints whether the queue stays below Kmax over the second half,
                   nothing is dropped, goodput >= 90 % of the wire limit and Jain >= 0.95

--cc dcqcn runs incast_dcqcn alone.

The exit status is 1 when an experiment could not run (its error is printed), 0 otherwise.
Run it with /usr/bin/python3 (matplotlib: python3-matplotlib, scripts/deps.sh).
"""
import argparse
import csv
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

CLOCK_HZ = 250e6         # core clock: cycles -> seconds
LINE_GBPS = 100.0        # every switch port and link (sim/README.md, "The switch")
WIRE_EXTRA = 24          # preamble, FCS and inter-frame gap per frame (the wire model's framing)
ROCE_HDRS = 14 + 20 + 8 + 12 + 4  # Ethernet, IPv4, UDP, BTH, ICRC (the FCS is in WIRE_EXTRA)
RETH = 16                # the first packet of a WRITE carries the RETH
MSG = 65536              # bytes per WRITE of the long flows and of the victim flow
BUF_ADDR, BUF_LEN = 0x100000, 0x1000000  # the test buffer a CM connection registers (fw/roce/cm.c)
CM_PORT = 7471

SENDER_COUNTERS = ["req_packets", "req_retrans", "req_timeouts", "comp_nak_seq"]
RECEIVER_COUNTERS = ["resp_nak_seq", "resp_dup"]
CC_COUNTERS = ["np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "rp_cnp_ignored",
               "rp_rate_dec", "rp_paced"]  # regs/roce.toml (rtl/cc, docs/cc.md)
# the DCQCN paper's parameters where they differ from the reset values (docs/cc.md): a CNP
# per QP at most every 50 us at the NP and one decrease per 50 us at the RP, the rate timer
# T = 55 us, g = 1/256
CC_SETUP = ["cc ect on", "cc np-interval 12500", "cc set dec_cyc 12500", "cc set rai_cyc 13750", "cc set g 1020"]
KMAX = 200000            # the switch's RED Kmax (sim/README.md), bytes


class ExperimentError(Exception):
    pass


T_START = time.monotonic()


def log(what):
    print(f"   [{time.monotonic() - T_START:6.0f} s] {what}", flush=True)


# ---- arithmetic (tests/fabric/test_experiments_math.py checks these on synthetic data)

def jain(xs):
    """Jain's fairness index (sum x)^2 / (n sum x^2): 1 when all are equal, 1/n when one has all."""
    xs = list(xs)
    sq = sum(x * x for x in xs)
    if not xs or sq == 0:
        return float("nan")
    return sum(xs) ** 2 / (len(xs) * sq)


def payload_ceiling_gbps(msg, pmtu, line_gbps=LINE_GBPS):
    """The most payload a line carries with WRITEs of msg bytes at path MTU pmtu (every packet's
    headers, the first one's RETH and each frame's preamble, FCS and gap on the wire)."""
    packets = -(-msg // pmtu)
    wire = msg + packets * (ROCE_HDRS + WIRE_EXTRA) + RETH
    return line_gbps * msg / wire


def mac_index(mac):
    """NIC k's MAC is 02:00:00:00:00:<k+1> (sim/README.md): its index."""
    return int(mac.split(":")[-1], 16) - 1


def read_series(path):
    """--fabric-csv rows -> (sample cycles, {port: [bytes per sample]}, {(src, dst): {cycle: bytes}})."""
    cycles, queues, flows = [], {}, {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            c, v = int(r["cycle"]), int(r["value"])
            if r["kind"] == "queue":
                if not cycles or cycles[-1] != c:
                    cycles.append(c)
                queues.setdefault(int(r["name"][4:]), []).append(v)
            elif r["kind"] == "flow":
                s, d = r["name"].split(">")
                flows.setdefault((mac_index(s), mac_index(d)), {})[c] = v
    return cycles, queues, flows


def flow_gbps(flows, key, cycles, sample):
    """One flow's throughput per sample (Gb/s: its bytes in the interval that ends at each cycle)."""
    per = flows.get(key, {})
    return [per.get(c, 0) * 8 / (sample / CLOCK_HZ) / 1e9 for c in cycles]


def flows_start(flows, keys, after, sample):
    """The start of the first sample interval after cycle `after` in which one of the flows
    carried bytes (the consoles' commands take a while: the window starts with the traffic)."""
    first = [c for k in keys for c, v in flows.get(k, {}).items() if c > after and v > 0]
    if not first:
        raise ExperimentError(f"no bytes of the flows {keys} after cycle {after} in the --fabric-csv series")
    return min(first) - sample


def flows_end(flows, keys, start, until):
    """The last sample in (start, until] in which one of the flows carried bytes."""
    last = [c for k in keys for c, v in flows.get(k, {}).items() if start < c <= until and v > 0]
    return max(last) if last else until


def window_stats(cycles, queues, flows, keys, port, t0, t1):
    """Over the samples in (t0, t1]: each flow's bytes in the second half, Jain's index over them,
    and the mean and max of port's queue depth."""
    mid = (t0 + t1) / 2
    idx = [i for i, c in enumerate(cycles) if t0 < c <= t1]
    late = [cycles[i] for i in idx if cycles[i] > mid]
    second = {k: sum(flows.get(k, {}).get(c, 0) for c in late) for k in keys}
    q = [queues[port][i] for i in idx] if port in queues else []
    q2 = [queues[port][i] for i in idx if cycles[i] > mid] if port in queues else []
    return {
        "queue_max_2nd": max(q2) if q2 else 0,
        "second_half_bytes": second,
        "jain": jain(second.values()),
        "queue_max": max(q) if q else 0,
        "queue_mean": sum(q) / len(q) if q else 0.0,
        "samples": len(idx),
    }


# ---- console helpers

def kv(text):
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", text)}


def sim_stats(stderr):
    port = {int(m.group(1)): kv(m.group(2)) for m in re.finditer(r"stats switch port(\d+) (.*)", stderr)}
    mac = {int(m.group(1)): kv(m.group(2)) for m in re.finditer(r"stats mac nic(\d+) (.*)", stderr)}
    sw = re.search(r"stats switch (buffer_bytes=.*)", stderr)
    top = re.search(r"stats (cycles=\d+ .*)", stderr)
    if not port or not sw or not top:
        raise ExperimentError(f"the simulator printed no --stats: {stderr[-1500:]}")
    return port, mac, kv(sw.group(1)), kv(top.group(1))


def uptime(con):
    out = con.cmd("uptime", timeout=60)
    m = re.search(r"uptime \d+ ms, (\d+) cycles", out)
    if not m:
        raise ExperimentError(f"{con.name}: uptime: {out!r}")
    return int(m.group(1))


def wait_until(con, cycle, wall):
    """Poll `uptime` on con until the simulated clock passes cycle (bounded by wall seconds)."""
    end = time.monotonic() + wall
    while True:
        now = uptime(con)
        if now >= cycle:
            return now
        if time.monotonic() > end:
            raise ExperimentError(f"simulated cycle {cycle} not reached within {wall:.0f} s (at {now})")
        time.sleep(0.5)


def answer(con, line, timeout):
    """The answer to a line already sent to con (as Console.cmd returns it)."""
    from nicsim import PROMPT
    out = con.wait_for(re.escape(PROMPT), timeout)[:-len(PROMPT)]
    first, _, rest = out.partition("\n")
    return rest if first.strip() == line.strip() else out


def all_cmd(cons, line, timeout):
    """The same line on several consoles at once (the NICs run in parallel); their answers."""
    for c in cons:
        c.send(line)
    return [answer(c, line, timeout) for c in cons]


def cm_connect(server, client, server_ip, timeout):
    """listen --cm on server, connect --cm from client: (client QPN, server QPN, PMTU)."""
    server.send(f"listen --cm {CM_PORT} --wait 60000")
    server.wait_for(r"listen: RDMA CM on port", timeout)
    out = client.cmd(f"connect --cm {server_ip}", timeout=timeout)
    m = re.search(r"cm: REQ sent to \S+ port \d+ \(QP 0x(\w+), PSN 0x\w+, PMTU (\d+)\)", out)
    ok = re.search(r"cm: QP 0x(\w+) established", out)
    sout = server.wait_for(r"solonic> ", timeout)
    s = re.search(r"cm: QP 0x(\w+) established with", sout)
    if not (m and ok and s):
        raise ExperimentError(f"RDMA CM connection {client.name} -> {server.name} failed: {out!r} / {sout!r}")
    return int(m.group(1), 16), int(s.group(1), 16), int(m.group(2))


def keys_by_qp(con):
    """{QPN: rkey of the MR of that QP's protection domain} from `qp list` and `mr list`."""
    pd_of = {int(m.group(1), 16): int(m.group(2))
             for m in re.finditer(r"^0x([0-9a-f]{6}) +\w+ .* +(\d+) rdma_cm", con.cmd("qp list"), re.M)}
    key_of = {}
    for m in re.finditer(r"^0x([0-9a-f]{8}) 0x0*100000 0x0*1000000 0xf +(\d+)$", con.cmd("mr list"), re.M):
        key_of.setdefault(int(m.group(2)), int(m.group(1), 16))
    return {q: key_of[pd] for q, pd in pd_of.items() if pd in key_of}


def parse_user(out):
    m = re.search(r"user source: (\w+), (\d+) posted, (\d+) completed, (\d+) errors.*?, (\d+) cycles, "
                  r"([0-9.]+) Gb/s", out)
    if not m:
        raise ExperimentError(f"user: {out!r}")
    return {"state": m.group(1), "posted": int(m.group(2)), "completed": int(m.group(3)),
            "errors": int(m.group(4)), "cycles": int(m.group(5)), "gbps": float(m.group(6))}


def parse_counters(out, names):
    got = {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", out)}
    missing = [n for n in names if n not in got]
    if missing:
        raise ExperimentError(f"stats: no {missing} in {out!r}")
    return got


def victim_latency(con, qpn, rkey):
    out = con.cmd(f"bench lat write {MSG} 1 {qpn:#x} --rkey {rkey:#x} --timeout 10000", timeout=600)
    m = re.search(r"min (\d+), max (\d+) cycles", out)
    if not m:
        raise ExperimentError(f"victim flow: {out!r}")
    return int(m.group(1))


# ---- the experiments

def nicset(n, sim_args, max_cycles, max_seconds, args):
    from nicsim import NicSet
    return NicSet(n, args=["--stats", "--max-cycles", str(max_cycles), *sim_args], fw=args.fw, sim=args.sim,
                  max_seconds=max_seconds)


def incast(name, variant_args, args, tmp, cc=False):
    """NICs 0..7 -> NIC 8 (long flows), NIC 9 -> NIC 0 (the victim); returns the result dict.
    cc: every NIC sends ECT(0) (`cc ect on`) and runs DCQCN with the paper's parameters
    (CC_SETUP); the senders' and the sink's DCQCN counters are read too."""
    n, sink, victim = 10, 8, 9
    series = os.path.join(tmp, f"{name}.csv")
    window = args.window
    group = nicset(n, ["--fabric-csv", series, "--fabric-sample", str(args.sample), *variant_args],
                   args.max_cycles, args.max_seconds, args)
    res = {"name": name, "sim_args": " ".join(variant_args), "window": window}
    with group as cons:
        senders = cons[:8]
        to = args.max_seconds
        qp = {}
        log(f"{n} NICs booted; RDMA CM connections: NICs 0..7 -> NIC 8, NIC 9 -> NIC 0")
        if cc:
            for line in CC_SETUP:
                for o in all_cmd(cons, line, to):
                    if not o.startswith("cc: ") or any(w in o for w in ("range", "unknown", "expected")):
                        raise ExperimentError(f"{line}: {o!r}")
        for k in range(8):
            c, s, pmtu = cm_connect(cons[sink], cons[k], f"10.0.0.{sink + 1}", to)
            qp[k] = (c, s)
        vq, vs, _ = cm_connect(cons[0], cons[victim], "10.0.0.1", to)
        log(f"connected at cycle {uptime(cons[victim])}")
        res["pmtu"] = pmtu
        rkey8, rkey0 = keys_by_qp(cons[sink]), keys_by_qp(cons[0])
        if any(qp[k][1] not in rkey8 for k in qp) or vs not in rkey0:
            raise ExperimentError(f"no rkey for every connection: {qp} {rkey8} / {vs} {rkey0}")
        res["victim_idle"] = victim_latency(cons[victim], vq, rkey0[vs])
        t0 = uptime(cons[victim])
        for k, c in enumerate(senders):
            c.send(f"user source start {qp[k][0]:#x} --len {MSG} --addr {BUF_ADDR:#x} --region {BUF_LEN:#x} "
                   f"--rkey {rkey8[qp[k][1]]:#x}")
        for k, c in enumerate(senders):
            out = c.wait_for(r"solonic> ", to)
            if "until stopped" not in out:
                raise ExperimentError(f"{c.name}: user source start: {out!r}")
        log(f"8 flows started at cycle {t0}")
        wait_until(cons[victim], t0 + window // 2, to)
        res["victim_busy"] = victim_latency(cons[victim], vq, rkey0[vs])
        t1 = wait_until(cons[victim], t0 + window, to)
        log(f"measured at cycle {t1}")
        users = [parse_user(o) for o in all_cmd(senders, "user", to)]
        cnt = [parse_counters(o, SENDER_COUNTERS) for o in all_cmd(senders, "stats " + " ".join(SENDER_COUNTERS), to)]
        rcnt = parse_counters(cons[sink].cmd("stats " + " ".join(RECEIVER_COUNTERS), timeout=to), RECEIVER_COUNTERS)
        if cc:
            res["cc_senders"] = [parse_counters(o, CC_COUNTERS)
                                 for o in all_cmd(senders, "stats " + " ".join(CC_COUNTERS), to)]
            res["cc_sink"] = parse_counters(cons[sink].cmd("stats " + " ".join(CC_COUNTERS), timeout=to), CC_COUNTERS)
        all_cmd(senders, "user source stop", to)
    port, mac, sw, top = sim_stats(group.stderr)
    cycles, queues, flows = read_series(series)
    keys = [(k, sink) for k in range(8)]
    t0 = flows_start(flows, keys, t0, args.sample)
    t1 = flows_end(flows, keys, t0, t1)
    res.update(window_stats(cycles, queues, flows, keys, sink, t0, t1))
    res.update({"t0": t0, "t1": t1, "users": users, "counters": cnt, "receiver": rcnt, "port": port, "mac": mac,
                "switch": sw, "sim": top, "cycles": cycles, "queues": queues, "flows": flows, "keys": keys,
                "bottleneck": sink})
    span = max(u["cycles"] for u in users)
    res["aggregate_gbps"] = sum((u["completed"] - u["errors"]) * MSG for u in users) * 8 / (span / CLOCK_HZ) / 1e9
    res["ceiling_gbps"] = payload_ceiling_gbps(MSG, pmtu)
    return res


def connect_steps(edges):
    """Split directed connections (client, server) into steps in which no NIC is both a server
    and a client and none has two connections (a listen --cm and a connect --cm each hold a
    console): greedy, in the order given."""
    left, steps = list(edges), []
    while left:
        busy, step, rest = set(), [], []
        for c, s in left:
            if c in busy or s in busy:
                rest.append((c, s))
            else:
                step.append((c, s))
                busy |= {c, s}
        steps.append(step)
        left = rest
    return steps


def cm_connect_many(cons, step, timeout):
    """One step of connect_steps at once: {(client, server): (client QPN, server QPN)}."""
    for c, s in step:
        cons[s].send(f"listen --cm {CM_PORT} --wait 60000")
    for c, s in step:
        cons[s].wait_for(r"listen: RDMA CM on port", timeout)
    for c, s in step:
        cons[c].send(f"connect --cm 10.0.0.{s + 1}")
    got = {}
    for c, s in step:
        out = answer(cons[c], f"connect --cm 10.0.0.{s + 1}", timeout)
        sout = cons[s].wait_for(r"solonic> ", timeout)
        m = re.search(r"cm: REQ sent to \S+ port \d+ \(QP 0x(\w+),", out)
        ok = re.search(r"cm: QP 0x\w+ established", out)
        v = re.search(r"cm: QP 0x(\w+) established with", sout)
        if not (m and ok and v):
            raise ExperimentError(f"RDMA CM connection NIC {c} -> NIC {s} failed: {out!r} / {sout!r}")
        got[(c, s)] = (int(m.group(1), 16), int(v.group(1), 16))
    return got


def alltoall(args, tmp):
    """8 NICs, every ordered pair connected (RDMA CM), then 7 rounds: in round r NIC i writes
    --round-writes 64 KiB WRITEs to NIC (i + r) mod 8 (one user-logic source per NIC: one flow
    at a time); a round ends when every source is done."""
    n = 8
    series = os.path.join(tmp, "alltoall.csv")
    nw = args.round_writes
    group = nicset(n, ["--fabric-csv", series, "--fabric-sample", str(args.sample)], args.max_cycles,
                   args.max_seconds, args)
    res = {"name": "alltoall", "sim_args": "", "writes": nw, "rounds": []}
    shifts = list(range(1, args.rounds + 1))
    edges = [(i, (i + r) % n) for r in shifts for i in range(n)]
    with group as cons:
        to = args.max_seconds
        steps = connect_steps(edges)
        log(f"{n} NICs booted; {len(edges)} RDMA CM connections in {len(steps)} steps")
        qp = {}
        for st in steps:
            qp.update(cm_connect_many(cons, st, to))
        qps = all_cmd(cons, "qp list", to)
        mrs = all_cmd(cons, "mr list", to)
        rkey = {}
        for j in range(n):
            pd_of = {int(m.group(1), 16): int(m.group(2))
                     for m in re.finditer(r"^0x([0-9a-f]{6}) +\w+ .* +(\d+) rdma_cm", qps[j], re.M)}
            key_of = {}
            for m in re.finditer(r"^0x([0-9a-f]{8}) 0x0*100000 0x0*1000000 0xf +(\d+)$", mrs[j], re.M):
                key_of.setdefault(int(m.group(2)), int(m.group(1), 16))
            for (c, s), (cq, sq) in qp.items():
                if s == j and pd_of.get(sq) in key_of:
                    rkey[(c, s)] = key_of[pd_of[sq]]
        if len(rkey) != len(edges):
            raise ExperimentError(f"rkeys for {len(rkey)} of {len(edges)} connections")
        log(f"connected at cycle {uptime(cons[0])}")
        for r in shifts:
            t0 = uptime(cons[0])
            for i, c in enumerate(cons):
                e = (i, (i + r) % n)
                c.send(f"user source start {qp[e][0]:#x} --len {MSG} --count {nw} --addr {BUF_ADDR:#x} "
                       f"--region {BUF_LEN:#x} --rkey {rkey[e]:#x}")
            for i, c in enumerate(cons):
                out = c.wait_for(r"solonic> ", to)
                if f"QP 0x{qp[(i, (i + r) % n)][0]:x}, {nw} WRITEs" not in out:
                    raise ExperimentError(f"round {r}: NIC {i}: user source start: {out!r}")
            end = time.monotonic() + to
            while True:
                users = [parse_user(o) for o in all_cmd(cons, "user", to)]
                if all(u["state"] == "done" for u in users):
                    break
                if time.monotonic() > end:
                    raise ExperimentError(f"round {r}: the sources did not finish within {to} s: {users}")
            t1 = uptime(cons[0])
            log(f"round {r}: cycles {t0}..{t1}")
            res["rounds"].append({"shift": r, "t0": t0, "t1": t1, "users": users})
        cnt = [parse_counters(o, SENDER_COUNTERS) for o in all_cmd(cons, "stats " + " ".join(SENDER_COUNTERS), to)]
    port, mac, sw, top = sim_stats(group.stderr)
    cycles, queues, flows = read_series(series)
    res.update({"counters": cnt, "port": port, "mac": mac, "switch": sw, "sim": top, "cycles": cycles,
                "queues": queues, "flows": flows, "pmtu": None})
    for rd in res["rounds"]:
        keys = [(i, (i + rd["shift"]) % n) for i in range(n)]
        rd["t0"] = flows_start(flows, keys, rd["t0"], args.sample)
        rd["t1"] = flows_end(flows, keys, rd["t0"], rd["t1"])
        st = window_stats(cycles, queues, flows, keys, None, rd["t0"], rd["t1"])
        idx = [j for j, c in enumerate(cycles) if rd["t0"] < c <= rd["t1"]]
        rd["queue_max"] = max((queues[p][j] for p in queues for j in idx), default=0)
        rd["jain"] = st["jain"]
        span = max(u["cycles"] for u in rd["users"])
        rd["aggregate_gbps"] = sum((u["completed"] - u["errors"]) * MSG for u in rd["users"]) * 8 / (span / CLOCK_HZ) / 1e9
    return res


# ---- tables and plots

def incast_table(r):
    lines = [f"== {r['name']}: NICs 0..7 -> NIC 8, {MSG // 1024} KiB WRITEs, PMTU {r['pmtu']}, "
             f"simulator {r['sim_args'] or '(defaults)'}",
             f"   window {r['t1'] - r['t0']} cycles ({(r['t1'] - r['t0']) / CLOCK_HZ * 1e6:.0f} us) from cycle "
             f"{r['t0']} (the first and last samples with the flows' bytes, up to the reading of the counters)",
             "   flow     goodput[Gb/s]  WRITEs  packets  retrans  timeouts  seq_NAKs  pauses_rx  2nd-half[MB]"]
    for k, (u, c) in enumerate(zip(r["users"], r["counters"])):
        lines.append(f"   {k} -> 8   {u['gbps']:13.2f}  {u['completed']:6d}  {c['req_packets']:7d}  "
                     f"{c['req_retrans']:7d}  {c['req_timeouts']:8d}  {c['comp_nak_seq']:8d}  "
                     f"{r['mac'][k]['pauses_received']:9d}  {r['second_half_bytes'][(k, 8)] / 1e6:12.3f}")
    p = r["port"][8]
    lines += [
        f"   aggregate goodput {r['aggregate_gbps']:.2f} Gb/s = {r['aggregate_gbps'] / LINE_GBPS * 100:.1f}% of the "
        f"{LINE_GBPS:.0f} Gb/s line, {r['aggregate_gbps'] / r['ceiling_gbps'] * 100:.1f}% of its payload ceiling "
        f"{r['ceiling_gbps']:.2f} Gb/s at PMTU {r['pmtu']}",
        f"   Jain's fairness index over the second half (switch ingress bytes per flow): {r['jain']:.4f}",
        f"   drops at port 8: {p['drops']}, over all ports: {sum(x['drops'] for x in r['port'].values())}; "
        f"pauses sent: {sum(x['pauses_sent'] for x in r['port'].values())}, resumes: "
        f"{sum(x['resumes_sent'] for x in r['port'].values())}; NIC 8 sent {r['receiver']['resp_nak_seq']} "
        f"sequence NAKs, answered {r['receiver']['resp_dup']} duplicates",
        f"   queue to port 8 in the window: max {r['queue_max']} B, mean {r['queue_mean']:.0f} B "
        f"({r['samples']} samples); whole run max {p['max_queue_bytes']} B, buffer max used "
        f"{r['switch']['buffer_max_used']} of {r['switch']['buffer_bytes']} B",
        f"   victim flow NIC 9 -> NIC 0, one {MSG // 1024} KiB WRITE, post to completion: idle "
        f"{r['victim_idle']} cycles ({r['victim_idle'] / CLOCK_HZ * 1e6:.2f} us), during the incast "
        f"{r['victim_busy']} cycles ({r['victim_busy'] / CLOCK_HZ * 1e6:.2f} us, x{r['victim_busy'] / r['victim_idle']:.2f})",
        f"   simulation: {r['sim']['cycles']} cycles, {r['sim']['wall_s']} s wall"
        if "wall_s" in r["sim"] else f"   simulation: {r['sim']['cycles']} cycles",
    ]
    if "cc_senders" in r:
        cs, ck = r["cc_senders"], r["cc_sink"]
        lines.append("   DCQCN: CNPs handled per sender " + " ".join(str(c["rp_cnp_handled"]) for c in cs) +
                     f", rate decreases {sum(c['rp_rate_dec'] for c in cs)}, ignored {sum(c['rp_cnp_ignored'] for c in cs)}"
                     f", paced packets {sum(c['rp_paced'] for c in cs)}; NIC 8 saw {ck['np_ecn_marked_roce_packets']} "
                     f"CE-marked packets and sent {ck['np_cnp_sent']} CNPs; the switch marked {p['ecn_marked']} at port 8")
        v = dcqcn_verdict(r)
        lines.append("   DCQCN criteria (issue 18): " + "; ".join(f"{k} {'yes' if ok else 'NO'} ({why})"
                                                           for k, ok, why in v))
    return "\n".join(lines)


def dcqcn_verdict(r):
    """The incast-with-DCQCN criteria: (name, met, figure) each."""
    p = r["port"][8]
    drops = sum(x["drops"] for x in r["port"].values())
    ceiling = r["ceiling_gbps"]
    return [
        ("queue below Kmax over the second half", r["queue_max_2nd"] < KMAX, f"max {r['queue_max_2nd']} B < {KMAX}"),
        ("zero drops", drops == 0, f"{drops} drops, {p['drops']} at port 8"),
        ("goodput >= 90 % of the wire limit", r["aggregate_gbps"] >= 0.9 * ceiling,
         f"{r['aggregate_gbps']:.2f} of {ceiling:.2f} Gb/s, {r['aggregate_gbps'] / ceiling * 100:.1f} %"),
        ("Jain >= 0.95 over the second half", r["jain"] >= 0.95, f"{r['jain']:.4f}"),
    ]


def alltoall_table(r):
    lines = [f"== alltoall: 8 NICs, {len(r['rounds'])} of 7 rounds (round r: NIC i -> NIC (i + r) mod 8), {MSG // 1024} KiB WRITEs, "
             f"{r['writes']} per flow and round",
             "   round  aggregate[Gb/s]  min flow  max flow  Jain  max queue[B]"]
    for rd in r["rounds"]:
        g = [u["gbps"] for u in rd["users"]]
        lines.append(f"   {rd['shift']:5d}  {rd['aggregate_gbps']:15.2f}  {min(g):8.2f}  {max(g):8.2f}  "
                     f"{rd['jain']:.3f}  {rd['queue_max']:12d}")
    tot = {k: sum(c[k] for c in r["counters"]) for k in SENDER_COUNTERS}
    lines.append(f"   all rounds: drops {sum(x['drops'] for x in r['port'].values())}, retransmissions "
                 f"{tot['req_retrans']}, timeouts {tot['req_timeouts']}, packets {tot['req_packets']}; "
                 f"simulation {r['sim']['cycles']} cycles" + (f", {r['sim']['wall_s']} s wall" if "wall_s" in r["sim"] else ""))
    return "\n".join(lines)


def plot(r, path, sample):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cycles, queues, flows = r["cycles"], r["queues"], r["flows"]
    if r["name"] == "alltoall":
        t0, t1 = r["rounds"][0]["t0"], r["rounds"][-1]["t1"]
        keys = sorted(k for k in flows if k[0] < 8 and k[1] < 8 and k[0] != k[1])
        ports = sorted(queues)
    else:
        t0, t1 = r["t0"], r["t1"]
        keys = r["keys"] + [(9, 0)]
        ports = [r["bottleneck"]]
    lo = t0 - 10 * sample
    idx = [i for i, c in enumerate(cycles) if lo <= c <= t1 + 10 * sample]
    us = [(cycles[i] - t0) / CLOCK_HZ * 1e6 for i in idx]
    fig, (a, b) = plt.subplots(2, 1, figsize=(7, 5), sharex=True, dpi=80)
    for k in keys:
        g = flow_gbps(flows, k, cycles, sample)
        if any(g[i] for i in idx):
            a.plot(us, [g[i] for i in idx], lw=0.8, label=f"{k[0]}->{k[1]}" if r["name"] != "alltoall" else None)
    a.set_ylabel("flow Gb/s (switch ingress)")
    if r["name"] != "alltoall":
        a.legend(fontsize=6, ncol=5, loc="upper right")
    a.set_title(f"{r['name']}: per-flow throughput and queue depth")
    for p in ports:
        b.plot(us, [queues[p][i] / 1024 for i in idx], lw=0.8, label=f"port {p}")
    b.set_ylabel("egress queue KiB")
    b.set_xlabel("us since the flows started")
    if len(ports) > 1:
        b.legend(fontsize=6, ncol=4)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


EXPERIMENTS = ["incast_taildrop", "incast_pfc", "incast_dcqcn", "alltoall"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=",".join(EXPERIMENTS), help="comma-separated: " + ", ".join(EXPERIMENTS))
    ap.add_argument("--cc", choices=["none", "dcqcn"], default="none",
                    help="dcqcn: run only incast_dcqcn (the incast with DCQCN)")
    ap.add_argument("--window", type=int, default=400000, help="incast: cycles the long flows are measured")
    ap.add_argument("--round-writes", type=int, default=32, help="alltoall: 64 KiB WRITEs per flow and round")
    ap.add_argument("--rounds", type=int, default=7, choices=range(1, 8), metavar="1..7",
                    help="alltoall: the rounds run (shifts 1..ROUNDS)")
    ap.add_argument("--sample", type=int, default=5000, help="--fabric-sample: cycles per CSV sample")
    ap.add_argument("--buffer", type=int, default=262144, help="incast_taildrop: the switch's shared buffer, bytes")
    ap.add_argument("--portcap", type=int, default=131072,
                    help="incast_taildrop: the most one egress queue holds, bytes (room for the victim flow)")
    ap.add_argument("--pfc", default="xoff=20000,xon=10000", help="incast_pfc: --pfc thresholds")
    ap.add_argument("--max-cycles", type=int, default=20000000, help="each simulation's cycle limit")
    ap.add_argument("--max-seconds", type=int, default=1500, help="each simulation's wall-time limit")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "fabric"), help="where the PNGs and tables go")
    ap.add_argument("--sim", default=os.environ.get("SOLONIC_SIM", os.path.join(ROOT, "build/sim/solonic_sim")))
    ap.add_argument("--fw", default=os.environ.get("SOLONIC_FW", os.path.join(ROOT, "build/fw/solonic.hex")))
    args = ap.parse_args(argv)
    if args.cc == "dcqcn":
        args.only = "incast_dcqcn"
    todo = [e for e in args.only.split(",") if e]
    bad = [e for e in todo if e not in EXPERIMENTS]
    if bad:
        print(f"fabric: unknown experiment(s) {bad}: expected some of {EXPERIMENTS}")
        return 2
    for f in (args.sim, args.fw):
        if not os.path.exists(f):
            print(f"fabric: {f} is missing (make build/sim/solonic_sim fw)")
            return 1
    import matplotlib  # noqa: F401  (fail before the long runs when it is missing)
    os.makedirs(args.out, exist_ok=True)
    failed = []
    t_all = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for e in todo:
            t = time.monotonic()
            print(f"fabric: {e} ...", flush=True)
            try:
                if e == "incast_taildrop":
                    r = incast(e, ["--fabric", f"buffer={args.buffer},portcap={args.portcap}"], args, tmp)
                elif e == "incast_pfc":
                    r = incast(e, ["--pfc", args.pfc], args, tmp)
                elif e == "incast_dcqcn":
                    r = incast(e, [], args, tmp, cc=True)
                else:
                    r = alltoall(args, tmp)
            except Exception as x:  # any failure of one experiment: say it, go on with the others
                print(f"fabric: {e} could not run: {type(x).__name__}: {x}", flush=True)
                failed.append(e)
                continue
            table = incast_table(r) if e.startswith("incast") else alltoall_table(r)
            table += f"\n   wall time of the experiment: {time.monotonic() - t:.0f} s"
            print(table, flush=True)
            with open(os.path.join(args.out, f"{e}.txt"), "w") as f:
                f.write(table + "\n")
            png = os.path.join(args.out, f"{e}.png")
            plot(r, png, args.sample)
            print(f"   plot: {os.path.relpath(png, ROOT)}", flush=True)
    print(f"fabric: {len(todo) - len(failed)} of {len(todo)} experiments ran in {time.monotonic() - t_all:.0f} s"
          + (f"; could not run: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
