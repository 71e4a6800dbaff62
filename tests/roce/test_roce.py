#!/usr/bin/env python3
"""Tests of the RoCEv2 header layer (rtl/roce: ICRC check/insert, RX parse, TX build).

Scapy is the reference: it builds the frames (and computes their ICRC the way
Linux rxe does); the captures of Linux soft-RoCE in tests/data are the second
reference. Each test runs a Verilator test bench (build/roce/Vtb_roce_*) and
compares what comes out field by field and byte by byte.

Run one test: /usr/bin/python3 tests/roce/test_roce.py NAME (or all without NAME);
pytest also collects the test_* functions.
"""
import pathlib
import random
import re
import sys
import tempfile
import types

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import roce_ref as R  # noqa: E402

DATA = R.ROOT / "tests" / "data"
CAPTURES = ["rc_pingpong", "write_bw", "read_bw", "write_bw_2qp"]


# ------------------------------------------------------------------ helpers
def rx_run(frames, name, **kw):
    with tempfile.TemporaryDirectory() as td:
        return R.run_rx(frames, td, name, **kw)


def tx_run(items, name, **kw):
    with tempfile.TemporaryDirectory() as td:
        return R.run_tx(items, td, name, **kw)


def expect_counters(res, want):
    errs = ["counter %s: expected %d, got %d" % (k, v, res.cnt.get(k, -1)) for k, v in want.items()
            if res.cnt.get(k, -1) != v]
    R.fail(errs, "drop counters")


# ----------------------------------------------------------------- RX tests
def test_rx_random_packets_parse_field_for_field():
    """3000 random valid packets (every opcode, random fields, 0..8900-byte payloads, random
    variant fields) with seeded idle cycles and back-pressure: all pass, every header field and
    payload byte as Scapy built them, in order, tuser carried along."""
    rng = random.Random(1001)
    pkts = [R.rand_pkt(rng) for _ in range(3000)]
    res = rx_run([p.frame() for p in pkts], "rx_random", seed=7, idle=20, bp=25, hbp=25)
    R.fail(R.check_rx(pkts, res, users=list(range(len(pkts)))), "random packets")
    expect_counters(res, {"icrc": 0, "trunc": 0, "opcode": 0, "version": 0, "len": 0, "ok": len(pkts)})


def _error_mix(seed):
    """Good packets interleaved with every kind of bad one. Returns
    (frames, expected good packets, their input indices, expected counters)."""
    rng = random.Random(seed)
    frames, good, users, marked = [], [], [], []
    cnt = {"icrc": 0, "trunc": 0, "opcode": 0, "version": 0, "len": 0}

    def add_good(p, fr=None):
        users.append(len(frames))
        frames.append(fr if fr is not None else p.frame())
        good.append(p)

    def add_bad(fr, why):
        frames.append(fr)
        cnt[why] += 1

    masked = {15, 22, 24, 25, 40, 41, 46}     # TOS, TTL, IP checksum, UDP checksum, BTH byte 4
    for i in range(400):
        add_good(R.rand_pkt(rng))
        kind = rng.randrange(12)
        p = R.rand_pkt(rng)
        fr = bytearray(p.frame())
        if kind == 0:
            # one bit flipped anywhere the ICRC covers (not the IPv4 length, not a masked byte)
            pos = rng.choice([j for j in range(14, len(fr)) if j not in masked and j not in (16, 17)])
            fr[pos] ^= 1 << rng.randrange(8)
            add_bad(bytes(fr), "icrc")
        elif kind == 1:
            # the ICRC itself wrong
            fr[-1 - rng.randrange(4)] ^= 0xFF
            add_bad(bytes(fr), "icrc")
        elif kind == 2:
            # variant fields changed after the ICRC was computed: still good
            q = p
            fr[15] = (fr[15] & 0xFC) | rng.randrange(4)        # ECN (parsed)
            q.net = dict(p.net, tos=fr[15])
            fr[22] = rng.getrandbits(8)                         # TTL
            fr[24] = rng.getrandbits(8)                         # IP checksum
            fr[40], fr[41] = rng.getrandbits(8), rng.getrandbits(8)   # UDP checksum
            b4 = rng.getrandbits(8)                             # FECN, BECN, resv6
            fr[46] = b4
            q.bth = dict(p.bth, fecn=b4 >> 7, becn=(b4 >> 6) & 1, resv6=b4 & 63)
            add_good(q, bytes(fr))
        elif kind == 3:
            # unknown opcode, good ICRC
            q = R.rand_pkt(rng)
            q.op = q.bth["opcode"] = rng.choice(R.UNKNOWN_OPS)
            q.raw_after_bth = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 300)))
            add_bad(q.frame(), "opcode")
        elif kind == 4:
            # bad TVer, good ICRC
            q = R.rand_pkt(rng)
            q.bth["tver"] = rng.randint(1, 15)
            add_bad(q.frame(), "version")
        elif kind == 5:
            # pad count that does not fit in the payload
            op = rng.choice([o for o in R.OPS if R.OPS[o][3]])
            n = rng.randrange(0, 3)
            q = R.rand_pkt(rng, op=op, length=n)
            q.bth["padcnt"] = rng.randint(n + 1, 3)
            q.pad_bytes = b""
            add_bad(q.frame(), "len")
        elif kind == 6:
            # too short for the extension headers the opcode has
            op = rng.choice([o for o in R.OPS if R.OPS[o][4]])
            q = R.rand_pkt(rng, op=op)
            q.bth["padcnt"] = 0
            q.raw_after_bth = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, R.hdr_len(op) - 12)))
            add_bad(q.frame(), "len")
        elif kind == 7:
            # payload or pad on an opcode without payload
            op = rng.choice([o for o in R.OPS if not R.OPS[o][3]])
            q = R.rand_pkt(rng, op=op)
            if rng.random() < 0.5:
                q.payload = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 100)))
                q.bth["padcnt"] = (-len(q.payload)) % 4
                q.pad_bytes = bytes(q.bth["padcnt"])
            else:
                q.payload = bytes(4)
                q.bth["padcnt"] = rng.randint(1, 3)
                q.pad_bytes = b""
            add_bad(q.frame(), "len")
        elif kind == 8:
            # Ethernet padding after a short frame (zero-length SEND ONLY, 58 -> 60 bytes): good
            q = R.rand_pkt(rng, op=0x04, length=0)
            add_good(q, q.frame() + bytes(rng.randint(1, 6)))
        elif kind == 9:
            # a good frame the net layer marked bad (tuser on tlast): dropped, not counted here
            marked.append(len(frames))
            frames.append(bytes(fr))
        elif kind == 10:
            # bytes after the IPv4 total length, over further beats: ignored, the packet passes
            add_good(p, bytes(fr) + bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 200))))
        else:
            # both: the drop marker arrives beats after the frame's end
            marked.append(len(frames))
            frames.append(bytes(fr) + bytes(rng.getrandbits(8) for _ in range(rng.randint(60, 200))))
    # frames longer than MAX_FRAME_BYTES (9018) are dropped as a length error
    for _ in range(2):
        q = R.rand_pkt(rng, op=0x07, length=9100)
        add_bad(q.frame(), "trunc")
        add_good(R.rand_pkt(rng))
    return frames, good, users, marked, cnt


def test_rx_bad_packets_dropped_and_counted():
    """Corrupted ICRC, unknown opcodes, bad TVer, pad that does not fit, too short for the
    headers, payload on payload-less opcodes, oversize: each dropped and counted under its
    reason; frames carrying the net layer's drop marker dropped and not counted; variant-field
    changes and bytes after the IPv4 length pass; every good packet in between passes."""
    frames, good, users, marked, cnt = _error_mix(2002)
    res = rx_run(frames, "rx_errors", marked=marked, seed=11, idle=15, bp=20, hbp=20)
    R.fail(R.check_rx(good, res, users=users), "good packets among bad ones")
    cnt["ok"] = len(good)
    expect_counters(res, cnt)


def test_rx_truncated_at_every_byte():
    """A packet of each header shape truncated at every byte position (1..L-1), each followed by
    a good packet: all truncated frames dropped as length errors, all good ones pass."""
    rng = random.Random(3003)
    frames, good, users = [], [], []
    ntrunc = 0
    for op, n in [(0x04, 0), (0x11, 0), (0x0A, 70), (0x13, 0), (0x0D, 150), (0x64, 9)]:
        full = R.rand_pkt(rng, op=op, length=n).frame()
        for cut in range(1, len(full)):
            frames.append(full[:cut])
            ntrunc += 1
            g = R.rand_pkt(rng, length=rng.randint(0, 100))
            users.append(len(frames))
            frames.append(g.frame())
            good.append(g)
    res = rx_run(frames, "rx_trunc", seed=13, idle=10, bp=10, hbp=10)
    R.fail(R.check_rx(good, res, users=users), "good packets after truncated ones")
    expect_counters(res, {"icrc": 0, "trunc": ntrunc, "opcode": 0, "version": 0, "len": 0, "ok": len(good)})


def _decode_table(name):
    """The RoCE packet table of shared/reference NAME.decode.txt (tshark's view)."""
    text = (DATA / (name + ".decode.txt")).read_text()
    lines = text.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("--- RoCEv2 packets"))
    head = lines[i + 1]
    cols = ["frame", "len", "src", "dst", "sport", "dport", "opcode", "destqp", "psn", "ack", "reth.va",
            "reth.rkey", "reth.len", "aeth.synd", "aeth.msn", "icrc"]
    starts = [head.index(c if c != "opcode" else "opcode (info)") for c in cols]
    rows = []
    for ln in lines[i + 2:]:
        if ln.startswith("---") or not ln.strip():
            break
        r = {}
        for j, c in enumerate(cols):
            end = starts[j + 1] if j + 1 < len(cols) else len(ln)
            r[c] = ln[starts[j]:end].strip()
        r["opcode"] = int(r["opcode"].split()[0])
        rows.append(r)
    return rows


def _capture_packets(name):
    """(frame bytes, decode-table row) for every RoCE frame of a capture."""
    frames = [bytes(p) for p in R.rdpcap(str(DATA / (name + ".pcap")))
              if R.UDP in p and p[R.UDP].dport == 4791]
    rows = _decode_table(name)
    assert len(frames) == len(rows), "%s: %d frames on 4791, %d table rows" % (name, len(frames), len(rows))
    return list(zip(frames, rows))


def _expect_from_capture(fr, row):
    """Expected header fields: from the decode table (tshark) where it has them, the rest
    read from the frame's bytes at the IBTA offsets."""
    op = row["opcode"]
    exts = R.OPS[op][4]
    f = {"bth.opcode": op, "bth.dqpn": int(row["destqp"], 16), "bth.psn": int(row["psn"], 16),
         "bth.ackreq": int(row["ack"])}
    b = fr[42:54]
    f.update({"bth.se": b[1] >> 7, "bth.mig": (b[1] >> 6) & 1, "bth.padcnt": (b[1] >> 4) & 3,
              "bth.tver": b[1] & 15, "bth.pkey": int.from_bytes(b[2:4], "big"), "bth.fecn": b[4] >> 7,
              "bth.becn": (b[4] >> 6) & 1, "bth.resv6": b[4] & 63, "bth.resv7": b[8] & 127})
    if "reth" in exts:
        f.update({"reth.va": int(row["reth.va"], 16), "reth.rkey": int(row["reth.rkey"], 16),
                  "reth.dma_len": int(row["reth.len"])})
    if "aeth" in exts:
        f.update({"aeth.syndrome": int(row["aeth.synd"]), "aeth.msn": int(row["aeth.msn"])})
    if "immdt" in exts:
        off = 12 + sum(R.EXT_LEN[e] for e in exts[:exts.index("immdt")])
        f["immdt.data"] = int.from_bytes(fr[42 + off:46 + off], "big")
    f.update(R.info_fields(op))
    hl = R.hdr_len(op)
    pad = f["bth.padcnt"]
    f.update({"pay_len": len(fr) - 42 - hl - pad - 4, "src_ip": int.from_bytes(bytes(map(int, row["src"].split("."))), "big"),
              "dst_ip": int.from_bytes(bytes(map(int, row["dst"].split("."))), "big"),
              "udp_sport": int(row["sport"]), "ip_ecn": fr[15] & 3})
    payload = fr[42 + hl:len(fr) - 4 - pad]
    return f, payload


def test_rx_reference_captures_pass_and_parse():
    """Every RoCE frame of the Linux soft-RoCE captures passes the ICRC check and parses to the
    fields of the decode tables (tshark) and to the payload bytes of the frame."""
    total = 0
    for name in CAPTURES:
        pk = _capture_packets(name)
        res = rx_run([fr for fr, _ in pk], "ref_" + name, seed=17, idle=20, bp=20, hbp=20)
        errs = []
        if len(res.hdrs) != len(pk):
            errs.append("headers: expected %d, got %d" % (len(pk), len(res.hdrs)))
        pays = iter(res.pays)
        for i, ((fr, row), (h, _)) in enumerate(zip(pk, res.hdrs)):
            exp, payload = _expect_from_capture(fr, row)
            for k in h:
                exp.setdefault(k, 0)
            d = R.diff_fields(exp, h)
            if d:
                errs.append("%s frame %s: %s" % (name, row["frame"], "; ".join(d[:6])))
            if payload:
                got = next(pays, None)
                if got != payload:
                    errs.append("%s frame %s payload: expected %d bytes, got %s" %
                                (name, row["frame"], len(payload), None if got is None else len(got)))
        R.fail(errs, "capture " + name)
        expect_counters(res, {"icrc": 0, "trunc": 0, "opcode": 0, "version": 0, "len": 0, "ok": len(pk)})
        total += len(pk)
    print("reference frames checked: %d" % total)


# ----------------------------------------------------------------- TX tests
def _tx_items(pkts, frames):
    return [(p.tx_hdr_hex(), fr[:42], p.payload) for p, fr in zip(pkts, frames)]


def _check_tx(pkts, frames_expected, res):
    errs = []
    for chain, got_list, cut in (("a (prefix + ICRC)", res.a, None), ("b (BTH..pad)", res.b, 42)):
        if len(got_list) != len(frames_expected):
            errs.append("chain %s: expected %d frames, got %d" % (chain, len(frames_expected), len(got_list)))
        for i, (want, got) in enumerate(zip(frames_expected, got_list)):
            if cut is not None:
                want = want[cut:-4]
            if want != got:
                at = next((j for j in range(min(len(want), len(got))) if want[j] != got[j]), min(len(want), len(got)))
                errs.append("chain %s packet %d (opcode 0x%02x, %d payload bytes): expected %d bytes, got %d, "
                            "first difference at byte %d (expected %s, got %s)" %
                            (chain, i, pkts[i].op, len(pkts[i].payload), len(want), len(got), at,
                             want[at:at + 8].hex(), got[at:at + 8].hex()))
            if len(errs) > 20:
                break
    return errs


def test_tx_random_packets_bit_identical():
    """3000 random headers + payloads: the builder + ICRC insert produce frames bit-identical to
    Scapy's (ICRC included); the builder without prefix produces BTH..pad bit-identical.
    Seeded idle cycles on the header and payload inputs, back-pressure on the outputs."""
    rng = random.Random(4004)
    pkts = [R.rand_pkt(rng, variant=False, pad_random=False) for _ in range(3000)]
    frames = [p.frame() for p in pkts]
    res = tx_run(_tx_items(pkts, frames), "tx_random", seed=19, idle=20, bp=25)
    R.fail(_check_tx(pkts, frames, res), "TX random packets")


def test_tx_reference_captures_rebuilt_bit_identical():
    """Every RoCE frame of the captures rebuilt from its parsed fields, payload and
    Ethernet/IPv4/UDP header: bit-identical to the capture, ICRC included."""
    pkts, frames = [], []
    for name in CAPTURES:
        for fr, row in _capture_packets(name):
            exp, payload = _expect_from_capture(fr, row)
            op = row["opcode"]
            f = {k: v for k, v in exp.items() if k.split(".")[0] in ("bth", "reth", "aeth", "immdt")}
            f["bth.padcnt"] = 0
            f["pay_len"] = len(payload)
            pkts.append(types.SimpleNamespace(op=op, payload=payload,
                                              hdr=R.to_hex(R.pack(R.L_TX_HDR, f), R.TX_HDR_W)))
            frames.append(fr)
    items = [(p.hdr, fr[:42], p.payload) for p, fr in zip(pkts, frames)]
    res = tx_run(items, "tx_ref", seed=23, idle=20, bp=20)
    R.fail(_check_tx(pkts, frames, res), "TX rebuild of the captures")
    print("reference frames rebuilt: %d" % len(frames))


# ---------------------------------------------------------------- line rate
# RoCEv2 frames without Ethernet padding are 42 + 4k bytes long (2 mod 4)
LR_SIZES = [74, 78, 82, 102, 126, 130, 194, 258, 502, 1082, 1098, 4182]


def _lr_pkt(rng, size):
    """A valid packet of a random opcode whose frame is exactly size bytes."""
    while True:
        op = rng.choice(list(R.OPS))
        n = size - 46 - R.hdr_len(op)
        if (R.OPS[op][3] and n >= 0) or n == 0:
            break
    p = R.rand_pkt(rng, op=op, length=n, variant=False, pad_random=False)
    fr = p.frame()
    assert len(fr) == size, (size, len(fr))
    return p, fr


def test_line_rate_rx_no_bubbles():
    """Back-to-back frames of one size (>= 76 bytes), no idle, no back-pressure: the RX chain
    takes a beat every cycle (never stalls its input) and the checker feeds the parser without a
    gap. Beats per cycle and cycles per frame vs the 100 GbE wire time are reported."""
    rng = random.Random(5005)
    errs, report = [], []
    for size in LR_SIZES:
        pk = [_lr_pkt(rng, size) for _ in range(60)]
        frames = [fr for _, fr in pk]
        L = len(frames[0])
        res = rx_run(frames, "lr_rx_%d" % L)
        s = res.stat
        e = R.check_rx([p for p, _ in pk], res)
        errs += ["size %d: %s" % (L, x) for x in e]
        span_in = s["in_last"] - s["in_first"] + 1
        span_mid = s["mid_last"] - s["mid_first"] + 1
        beats = (L + 63) // 64
        if s["in_stall"] != 0 or s["in_gaps"] != 0:
            errs.append("size %d: input stalled %d cycles (expected 0)" % (L, s["in_stall"]))
        if s["mid_gaps"] != 0:
            errs.append("size %d: %d idle cycles between checker and parser (expected 0)" % (L, s["mid_gaps"]))
        if s["in_beats"] != 60 * beats:
            errs.append("size %d: expected %d input beats, got %d" % (L, 60 * beats, s["in_beats"]))
        wire = (L + 24) / 50
        report.append("  RX %5d B: %2d beats/frame, in %.3f beats/cycle, checker->parser %.3f beats/cycle, "
                      "%.2f cycles/frame (wire %.2f)" % (L, beats, s["in_beats"] / span_in, s["mid_beats"] / span_mid,
                                                         span_in / 60, wire))
    print("\n".join(report))
    R.fail(errs, "RX line rate")


def test_line_rate_tx_no_bubbles():
    """Back-to-back packets (headers and payload always offered, outputs always ready): the TX
    chain's output carries a beat every cycle from the first to the last frame, and each frame
    takes exactly ceil(L/64) cycles."""
    rng = random.Random(6006)
    errs, report = [], []
    for size in LR_SIZES:
        pk = [_lr_pkt(rng, size) for _ in range(60)]
        pkts = [p for p, _ in pk]
        frames = [fr for _, fr in pk]
        L = len(frames[0])
        res = tx_run(_tx_items(pkts, frames), "lr_tx_%d" % L)
        errs += ["size %d: %s" % (L, x) for x in _check_tx(pkts, frames, res)]
        s = res.stat
        beats = (L + 63) // 64
        span = s["a_last"] - s["a_first"] + 1
        if s["a_gaps"] != 0:
            errs.append("size %d: %d idle output cycles between frames (expected 0)" % (L, s["a_gaps"]))
        if s["a_beats"] != 60 * beats:
            errs.append("size %d: expected %d output beats, got %d" % (L, 60 * beats, s["a_beats"]))
        report.append("  TX %5d B: %2d beats/frame, out %.3f beats/cycle, %.2f cycles/frame (wire %.2f)" %
                      (L, beats, s["a_beats"] / span, span / 60, (L + 24) / 50))
    print("\n".join(report))
    R.fail(errs, "TX line rate")


def test_line_rate_mixed_sizes_no_bubbles():
    """Back-to-back packets of random opcodes and random sizes (76..4182 bytes): the RX chain
    never stalls its input, the TX chain never leaves an output cycle idle, and everything
    arrives intact."""
    rng = random.Random(7007)
    pk = [_lr_pkt(rng, 78 + 4 * rng.randrange(0, 1027)) for _ in range(400)]
    pkts = [p for p, _ in pk]
    frames = [fr for _, fr in pk]
    beats = sum((len(f) + 63) // 64 for f in frames)
    errs = []
    rx = rx_run(frames, "lr_mixed_rx")
    errs += R.check_rx(pkts, rx)
    if rx.stat["in_stall"] != 0 or rx.stat["in_gaps"] != 0 or rx.stat["in_beats"] != beats:
        errs.append("RX input: expected %d beats in %d cycles, got %d beats, %d stalled cycles" %
                    (beats, beats, rx.stat["in_beats"], rx.stat["in_stall"] + rx.stat["in_gaps"]))
    tx = tx_run(_tx_items(pkts, frames), "lr_mixed_tx")
    errs += _check_tx(pkts, frames, tx)
    if tx.stat["a_gaps"] != 0 or tx.stat["a_beats"] != beats:
        errs.append("TX output: expected %d beats without a gap, got %d beats, %d idle cycles" %
                    (beats, tx.stat["a_beats"], tx.stat["a_gaps"]))
    wire = sum(len(f) + 24 for f in frames) / 50
    print("  mixed sizes: %d frames, %d beats; RX input %d cycles, TX output %d cycles; wire %.0f cycles; "
          "checker->parser idle cycles %d (store and forward, sizes vary)" %
          (len(frames), beats, rx.stat["in_last"] - rx.stat["in_first"] + 1,
           tx.stat["a_last"] - tx.stat["a_first"] + 1, wire, rx.stat["mid_gaps"]))
    R.fail(errs, "mixed line rate")


# ------------------------------------------------------------------- runner
TESTS = {n[5:]: f for n, f in sorted(globals().items()) if n.startswith("test_") and callable(f)}


def main(argv):
    names = argv or list(TESTS)
    bad = 0
    for n in names:
        f = TESTS.get(n) or TESTS.get(re.sub("^test_", "", n))
        if f is None:
            print("unknown test %s; tests: %s" % (n, ", ".join(TESTS)))
            return 2
        try:
            f()
            print("PASS %s" % n)
        except AssertionError as e:
            bad += 1
            print("FAIL %s: %s" % (n, e))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
