"""The exchange codec (fw/roce/qpx_msg.c, built for the host: build/qpx/libqpx_msg.so)
against the reference exchanges of Linux soft-RoCE in tests/data.

Expectations come from the captures, not from the code: every TCP payload on
port 18515 in tests/data/*.decode.txt (verbatim bytes), the values the tools
printed about themselves in tests/data/*.run.txt (QPN, PSN, RKey, VAddr, GID),
the IB rules (24-bit QPN/PSN, MTU enum 1..5) and the UDP source ports the
captured RoCE packets carry.
"""
import ast
import ctypes
import os
import re
import struct

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests/data")
LIB = os.path.join(ROOT, "build/qpx/libqpx_msg.so")

CAPTURES = ["rc_pingpong", "write_bw", "read_bw", "write_bw_2qp"]
PERFTEST = CAPTURES[1:]


class Dest(ctypes.Structure):
    _fields_ = [("lid", ctypes.c_uint16), ("out_reads", ctypes.c_uint16), ("qpn", ctypes.c_uint32),
                ("psn", ctypes.c_uint32), ("rkey", ctypes.c_uint32), ("vaddr", ctypes.c_uint64),
                ("srqn", ctypes.c_uint32), ("gid", ctypes.c_uint8 * 16)]


@pytest.fixture(scope="module")
def lib():
    if not os.path.exists(LIB):
        pytest.fail(f"{LIB} is missing: make {os.path.relpath(LIB, ROOT)}")
    L = ctypes.CDLL(LIB)
    cp = ctypes.c_char_p
    P = ctypes.POINTER
    L.qpx_pp_dest_decode.argtypes = [cp, ctypes.c_size_t, P(Dest), P(cp)]
    L.qpx_pt_dest_decode.argtypes = [cp, ctypes.c_size_t, P(Dest), P(cp)]
    L.qpx_pp_dest_encode.argtypes = [P(Dest), cp]
    L.qpx_pt_dest_encode.argtypes = [P(Dest), cp]
    L.qpx_pt_bdest_encode.argtypes = [P(Dest), cp]
    L.qpx_pt_bdest_decode.argtypes = [cp, ctypes.c_size_t, P(Dest), P(ctypes.c_bool), P(cp)]
    L.qpx_pt_version_encode.argtypes = [cp]
    L.qpx_pt_version_decode.argtypes = [cp, ctypes.c_size_t, P(cp)]
    L.qpx_pt_u32_encode.argtypes = [ctypes.c_uint32, cp]
    L.qpx_pt_u32_decode.argtypes = [cp, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_uint32,
                                    P(ctypes.c_uint32), P(cp)]
    L.qpx_pt_mtu_encode.argtypes = [ctypes.c_uint32, cp]
    L.qpx_pt_mtu_decode.argtypes = [cp, ctypes.c_size_t, P(ctypes.c_uint32), P(cp)]
    L.qpx_pt_report_u64_encode.argtypes = [ctypes.c_uint64, cp]
    L.qpx_pt_report_double_encode.argtypes = [ctypes.c_double, cp]
    L.qpx_pt_report_u64_decode.argtypes = [cp]
    L.qpx_pt_report_u64_decode.restype = ctypes.c_uint64
    L.qpx_pt_report_double_decode.argtypes = [cp]
    L.qpx_pt_report_double_decode.restype = ctypes.c_double
    L.qpx_done_encode.argtypes = [cp]
    L.qpx_done_decode.argtypes = [cp, ctypes.c_size_t, P(cp)]
    L.qpx_gid_from_ipv4.argtypes = [ctypes.c_uint32, ctypes.c_char_p]
    L.qpx_gid_to_ipv4.argtypes = [cp, P(ctypes.c_uint32), P(cp)]
    L.qpx_mtu_bytes.argtypes = [ctypes.c_uint32]
    L.qpx_mtu_bytes.restype = ctypes.c_uint32
    L.qpx_udp_sport.argtypes = [ctypes.c_uint32, ctypes.c_uint32]
    L.qpx_udp_sport.restype = ctypes.c_uint16
    return L


# ---- the reference data

def exchange(name):
    """[(src_ip, dst_port, payload bytes)] of the TCP exchange in NAME.decode.txt, in order."""
    out = []
    lines = open(os.path.join(DATA, name + ".decode.txt")).read().split("\n")
    i = lines.index("--- TCP out-of-band exchange (payload verbatim as a Python bytes literal; "
                    "binary ones also as hex)")
    for j in range(i + 1, len(lines)):
        if lines[j].startswith("---"):
            break
        m = re.match(r"frame \d+\s+([\d.]+):(\d+) -> ([\d.]+):(\d+) len=(\d+)$", lines[j])
        if m:
            payload = ast.literal_eval(lines[j + 1].strip())
            assert len(payload) == int(m.group(5)), lines[j]
            out.append((m.group(1), int(m.group(4)), payload))
    assert out, f"no exchange found in {name}.decode.txt"
    return out


def printed_dests(name):
    """What the tools printed as their own ('local address') and their peer's data."""
    text = open(os.path.join(DATA, name + ".run.txt")).read()
    dests = []
    for m in re.finditer(r"local address:\s+LID (?:0x)?([0-9a-f]+),? QPN 0x([0-9a-f]+),? PSN 0x([0-9a-f]+)"
                         r"(?:,? OUT 0x([0-9a-f]+))?(?:,? RKey 0x([0-9a-f]+))?(?:,? VAddr 0x([0-9a-f]+))?"
                         r"(?:, GID ::ffff:([\d.]+))?", text):
        lid, qpn, psn, out, rkey, va, gid = m.groups()
        dests.append({"lid": int(lid, 16), "qpn": int(qpn, 16), "psn": int(psn, 16),
                      "out": int(out, 16) if out else None, "rkey": int(rkey, 16) if rkey else None,
                      "vaddr": int(va, 16) if va else None, "ip": gid})
    assert dests, f"no 'local address' lines in {name}.run.txt"
    return dests


def ip_num(ip):
    a, b, c, d = (int(x) for x in ip.split("."))
    return a << 24 | b << 16 | c << 8 | d


def gid_of(ip):
    return bytes(10) + b"\xff\xff" + bytes(int(x) for x in ip.split("."))


def err_text(e):
    return e.value.decode() if e.value else None


def decode_dest(lib, fn, msg):
    d = Dest()
    e = ctypes.c_char_p()
    rc = fn(msg, len(msg), ctypes.byref(d), ctypes.byref(e))
    return rc, d, err_text(e)


# ---- ibv_rc_pingpong

def test_pingpong_reference_messages_decode_and_reencode_exactly(lib):
    msgs = [(src, p) for src, _, p in exchange("rc_pingpong") if len(p) == 52]
    assert len(msgs) == 2, f"expected the two 52-byte destinations, got {len(msgs)}"
    printed = {d["psn"]: d for d in printed_dests("rc_pingpong")}
    for src, p in msgs:
        rc, d, e = decode_dest(lib, lib.qpx_pp_dest_decode, p)
        assert rc == 0, f"decode {p!r}: expected success, got error {e!r}"
        want = printed.get(d.psn)
        assert want is not None, f"PSN 0x{d.psn:06x} of {p!r} is not one the tools printed: {sorted(printed)}"
        assert (d.lid, d.qpn) == (want["lid"], want["qpn"]), f"LID/QPN expected {want}, got {d.lid} {d.qpn:#x}"
        assert bytes(d.gid) == gid_of(want["ip"]), f"GID expected ::ffff:{want['ip']}, got {bytes(d.gid).hex()}"
        assert want["ip"] == src, f"the GID's IPv4 {want['ip']} is the sender's address {src}"
        buf = ctypes.create_string_buffer(52)
        lib.qpx_pp_dest_encode(ctypes.byref(d), buf)
        assert buf.raw == p, f"re-encoded\n  expected {p!r}\n  got      {buf.raw!r}"
    done = [p for _, _, p in exchange("rc_pingpong") if len(p) == 5]
    assert done == [b"done\x00"], f"expected one 'done\\0', got {done}"
    e = ctypes.c_char_p()
    assert lib.qpx_done_decode(done[0], 5, ctypes.byref(e)) == 0
    buf = ctypes.create_string_buffer(5)
    lib.qpx_done_encode(buf)
    assert buf.raw == b"done\x00"


def pp_ref():
    return [p for _, _, p in exchange("rc_pingpong") if len(p) == 52][0]


PP_BAD = [
    # (what, mutate(bytes) -> bytes, expected error substring)
    ("short (51 bytes)", lambda p: p[:51], "wrong length"),
    ("long (53 bytes)", lambda p: p + b"\x00", "wrong length"),
    ("empty", lambda p: b"", "wrong length"),
    ("no NUL at the end", lambda p: p[:51] + b"0", "not NUL-terminated"),
    ("bad hex in the LID", lambda p: b"00g0" + p[4:], "LID: expected 4 hex digits"),
    ("bad hex in the QPN", lambda p: p[:5] + b"00001x" + p[11:], "QPN: expected 6 hex digits"),
    ("bad hex in the PSN", lambda p: p[:12] + b" 93ca0" + p[18:], "PSN: expected 6 hex digits"),
    ("bad hex in the GID", lambda p: p[:19] + b"z" + p[20:], "GID: expected 32 hex digits"),
    ("NUL inside the GID", lambda p: p[:40] + b"\x00" + p[41:], "GID: expected 32 hex digits"),
    ("separator after the LID", lambda p: p[:4] + b"-" + p[5:], "expected ':' after the LID"),
    ("separator after the QPN", lambda p: p[:11] + b";" + p[12:], "expected ':' after the QPN"),
    ("separator after the PSN", lambda p: p[:18] + b" " + p[19:], "expected ':' after the PSN"),
    ("QPN 0", lambda p: p[:5] + b"000000" + p[11:], "QPN 0 and 1"),
    ("QPN 1", lambda p: p[:5] + b"000001" + p[11:], "QPN 0 and 1"),
    ("a perftest destination", lambda p: [x for _, _, x in exchange("write_bw") if len(x) == 108][0],
     "wrong length"),
]


@pytest.mark.parametrize("what,mutate,want", PP_BAD, ids=[b[0] for b in PP_BAD])
def test_pingpong_malformed_rejected_with_reason(lib, what, mutate, want):
    msg = mutate(pp_ref())
    rc, _, e = decode_dest(lib, lib.qpx_pp_dest_decode, msg)
    assert rc == -1, f"{what}: expected rejection, got success for {msg!r}"
    assert e and want in e, f"{what}: expected an error containing {want!r}, got {e!r}"


def test_pingpong_uppercase_hex_accepted(lib):
    """rc_pingpong reads with sscanf %x, which takes either case."""
    p = pp_ref()
    up = p[:19] + p[19:51].upper() + b"\x00"
    rc, d, e = decode_dest(lib, lib.qpx_pp_dest_decode, up)
    assert rc == 0, f"expected success, got {e!r}"
    rc2, d2, _ = decode_dest(lib, lib.qpx_pp_dest_decode, p)
    assert bytes(d.gid) == bytes(d2.gid)


# ---- perftest

def test_perftest_reference_destinations_decode_and_reencode_exactly(lib):
    for name in PERFTEST:
        printed = {(d["qpn"], d["psn"]): d for d in printed_dests(name)}
        msgs = [(src, p) for src, _, p in exchange(name) if len(p) == 108]
        assert len(msgs) >= 10, f"{name}: expected at least 10 destination messages, got {len(msgs)}"
        for src, p in msgs:
            rc, d, e = decode_dest(lib, lib.qpx_pt_dest_decode, p)
            assert rc == 0, f"{name}: decode {p!r}: expected success, got {e!r}"
            want = printed.get((d.qpn, d.psn))
            assert want is not None, f"{name}: QPN/PSN {d.qpn:#x}/{d.psn:#x} not printed by the tools"
            got = {"lid": d.lid, "out": d.out_reads, "rkey": d.rkey, "vaddr": d.vaddr}
            exp = {k: want[k] for k in ("lid", "out", "rkey", "vaddr")}
            if exp["out"] is None:  # write tests do not print OUT; the README: 0001 for writes
                exp["out"] = 1
            assert got == exp, f"{name}: {p!r}\n  expected {exp}\n  got      {got}"
            assert bytes(d.gid) == gid_of(src), f"{name}: GID expected ::ffff:{src}, got {bytes(d.gid).hex()}"
            assert d.srqn == 0
            buf = ctypes.create_string_buffer(108)
            lib.qpx_pt_dest_encode(ctypes.byref(d), buf)
            assert buf.raw == p, f"{name}: re-encoded\n  expected {p!r}\n  got      {buf.raw!r}"


def test_perftest_reference_version_sysdata_mtu_reports_done(lib):
    for name in PERFTEST:
        ex = exchange(name)
        e = ctypes.c_char_p()
        v16 = [p for _, _, p in ex if len(p) == 16]
        assert len(v16) == 2, f"{name}: two 16-byte version blocks expected, got {len(v16)}"
        buf = ctypes.create_string_buffer(16)
        lib.qpx_pt_version_encode(buf)
        for p in v16:
            assert lib.qpx_pt_version_decode(p, 16, ctypes.byref(e)) == 0, f"{name}: {err_text(e)}"
            assert buf.raw == p, f"{name}: version expected {p!r}, got {buf.raw!r}"
        four = [p for _, _, p in ex if len(p) == 4]
        assert len(four) == 4, f"{name}: cycle buffer and cache line both ways, got {four}"
        for p, (lo, hi, want) in zip(four, [(64, 1 << 30, 4096)] * 2 + [(16, 4096, 64)] * 2):
            v = ctypes.c_uint32()
            assert lib.qpx_pt_u32_decode(p, 4, lo, hi, ctypes.byref(v), ctypes.byref(e)) == 0, err_text(e)
            assert v.value == want, f"{name}: {p!r} expected {want}, got {v.value}"
            b = ctypes.create_string_buffer(4)
            lib.qpx_pt_u32_encode(want, b)
            assert b.raw == p
        mtu = [p for _, _, p in ex if len(p) == 2]
        assert mtu == [b"3\x00", b"3\x00"], f"{name}: MTU messages {mtu}"
        v = ctypes.c_uint32()
        assert lib.qpx_pt_mtu_decode(mtu[0], 2, ctypes.byref(v), ctypes.byref(e)) == 0
        assert v.value == 3 and lib.qpx_mtu_bytes(3) == 1024, "MTU enum 3 is 1024 bytes (README)"
        b = ctypes.create_string_buffer(2)
        lib.qpx_pt_mtu_encode(3, b)
        assert b.raw == b"3\x00"
        # the bw report: 5 x 8 bytes from the client (port 18515 is the server's)
        rep = [p for _, dport, p in ex if len(p) == 8 and dport == 18515]
        assert len(rep) == 5, f"{name}: 5 report items from the client, got {len(rep)}"
        size, iters = struct.unpack(">Q", rep[0])[0], struct.unpack(">Q", rep[1])[0]
        assert lib.qpx_pt_report_u64_decode(rep[0]) == size
        assert lib.qpx_pt_report_u64_decode(rep[1]) == iters
        cmd = open(os.path.join(DATA, name + ".run.txt")).read()
        m = re.search(r"RUN: ib_\w+ (?:-q (\d+) )?-s (\d+) -n (\d+)", cmd)
        nqp = int(m.group(1) or 1)  # perftest reports the iterations of all its QPs
        want = (int(m.group(2)), int(m.group(3)) * nqp)
        assert (size, iters) == want, \
            f"{name}: report size/iterations expected {want} (-s, -n x -q), got {size}/{iters}"
        for p in rep[2:]:
            want = struct.unpack(">d", p)[0]
            got = lib.qpx_pt_report_double_decode(p)
            assert got == want and got > 0, f"{name}: double {p.hex()} expected {want}, got {got}"
            b = ctypes.create_string_buffer(8)
            lib.qpx_pt_report_double_encode(want, b)
            assert b.raw == p
        b = ctypes.create_string_buffer(8)
        lib.qpx_pt_report_u64_encode(size, b)
        assert b.raw == rep[0]
        done = [p for _, _, p in ex if len(p) == 5]
        assert done == [b"done\x00"] * 2, f"{name}: 'done\\0' both ways, got {done}"


def pt_ref():
    return [p for _, _, p in exchange("read_bw") if len(p) == 108][0]


PT_BAD = [
    ("short (107 bytes)", lambda p: p[:107], "wrong length"),
    ("long (109 bytes)", lambda p: p + b"\x00", "wrong length"),
    ("no NUL at the end", lambda p: p[:107] + b":", "not NUL-terminated"),
    ("bad hex in the LID", lambda p: b"x" + p[1:], "LID: expected 4 hex digits"),
    ("bad hex in OUT_READS", lambda p: p[:5] + b"00G0" + p[9:], "OUT_READS: expected 4 hex digits"),
    ("bad hex in the QPN", lambda p: p[:10] + b"-00011" + p[16:], "QPN: expected 6 hex digits"),
    ("bad hex in the PSN", lambda p: p[:17] + b"df906k" + p[23:], "PSN: expected 6 hex digits"),
    ("bad hex in the RKEY", lambda p: p[:24] + b"0000028?" + p[32:], "RKEY: expected 8 hex digits"),
    ("bad hex in the VADDR", lambda p: p[:33] + b"+" + p[34:], "VADDR: expected 16 hex digits"),
    ("bad hex in the GID", lambda p: p[:50] + b"0q" + p[52:], "GID: expected 16 x 2 hex digits"),
    ("GID separator", lambda p: p[:52] + b"." + p[53:], "GID: expected ':' after each byte"),
    ("bad hex in the SRQN", lambda p: p[:98] + b"0000000Z" + p[106:], "SRQN: expected 8 hex digits"),
    ("no ':' after the SRQN", lambda p: p[:106] + b" \x00", "expected ':' after the SRQN"),
    ("separator after OUT_READS", lambda p: p[:9] + b"," + p[10:], "expected ':' after OUT_READS"),
    ("QPN 0", lambda p: p[:10] + b"000000" + p[16:], "QPN 0 and 1"),
    ("a pingpong destination", lambda p: pp_ref(), "wrong length"),
]


@pytest.mark.parametrize("what,mutate,want", PT_BAD, ids=[b[0] for b in PT_BAD])
def test_perftest_malformed_destination_rejected_with_reason(lib, what, mutate, want):
    msg = mutate(pt_ref())
    rc, _, e = decode_dest(lib, lib.qpx_pt_dest_decode, msg)
    assert rc == -1, f"{what}: expected rejection, got success for {msg!r}"
    assert e and want in e, f"{what}: expected an error containing {want!r}, got {e!r}"


VERSION_BAD = [
    ("6.05", b"6.05" + bytes(12), "unsupported"),
    ("5.33", b"5.33" + bytes(12), "unsupported"),
    ("6.06 without NUL padding", b"6.06" + b" " * 12, "no NUL"),
    ("bytes after the NUL", b"6.06\x00" + b"x" + bytes(10), "not all NUL"),
    ("short (4 bytes)", b"6.06", "wrong length"),
    ("long (17 bytes)", b"6.06" + bytes(13), "wrong length"),
    ("6.060", b"6.060" + bytes(11), "unsupported"),
    ("empty string", bytes(16), "unsupported"),
]


@pytest.mark.parametrize("what,msg,want", VERSION_BAD, ids=[b[0] for b in VERSION_BAD])
def test_perftest_bad_version_rejected(lib, what, msg, want):
    e = ctypes.c_char_p()
    assert lib.qpx_pt_version_decode(msg, len(msg), ctypes.byref(e)) == -1, f"{what}: accepted"
    assert want in err_text(e), f"{what}: expected {want!r} in the error, got {err_text(e)!r}"


def test_perftest_bad_sysdata_mtu_done_rejected(lib):
    e = ctypes.c_char_p()
    v = ctypes.c_uint32()
    for msg, want in [(b"\x00\x00\x10", "wrong length"), (b"\x00\x00\x10\x00\x00", "wrong length"),
                      (b"\x00\x00\x10\x01", "power of two"), (b"\x00\x00\x00\x00", "power of two"),
                      (b"\x80\x00\x00\x00", "power of two")]:
        assert lib.qpx_pt_u32_decode(msg, len(msg), 64, 1 << 30, ctypes.byref(v), ctypes.byref(e)) == -1, msg
        assert want in err_text(e), f"{msg!r}: expected {want!r}, got {err_text(e)!r}"
    for msg, want in [(b"6\x00", "1..5"), (b"0\x00", "1..5"), (b"a\x00", "1..5"), (b"33", "not NUL"),
                      (b"3", "wrong length"), (b"3\x00\x00", "wrong length"), (b"", "wrong length")]:
        assert lib.qpx_pt_mtu_decode(msg, len(msg), ctypes.byref(v), ctypes.byref(e)) == -1, msg
        assert want in err_text(e), f"{msg!r}: expected {want!r}, got {err_text(e)!r}"
    for n in range(1, 6):
        assert lib.qpx_pt_mtu_decode(b"%d\x00" % n, 2, ctypes.byref(v), ctypes.byref(e)) == 0
        assert v.value == n and lib.qpx_mtu_bytes(n) == 128 << n
    for msg in [b"done", b"Done\x00", b"done\x00\x00", b"don\x00\x00", b""]:
        assert lib.qpx_done_decode(msg, len(msg), ctypes.byref(e)) == -1, msg
        assert "done" in err_text(e)


# ---- GIDs and the UDP source port

def test_gid_mapping(lib):
    g = ctypes.create_string_buffer(16)
    lib.qpx_gid_from_ipv4(ip_num("10.0.0.2"), g)
    assert g.raw == gid_of("10.0.0.2"), f"expected ::ffff:10.0.0.2, got {g.raw.hex()}"
    ip = ctypes.c_uint32()
    e = ctypes.c_char_p()
    assert lib.qpx_gid_to_ipv4(gid_of("192.168.7.9"), ctypes.byref(ip), ctypes.byref(e)) == 0
    assert ip.value == ip_num("192.168.7.9")
    assert lib.qpx_gid_to_ipv4(bytes(16), ctypes.byref(ip), ctypes.byref(e)) == -1
    assert "no GID" in err_text(e)
    # GID[0] of the reference guests: link-local from the MAC (rc_pingpong.run.txt)
    ll = bytes.fromhex("fe80000000000000505400fffe000001")
    assert lib.qpx_gid_to_ipv4(ll, ctypes.byref(ip), ctypes.byref(e)) == -1
    assert "not IPv4-mapped" in err_text(e)


def roce_packets(name):
    """(src ip, sport, destqp) of every RoCE packet in NAME.decode.txt."""
    text = open(os.path.join(DATA, name + ".decode.txt")).read()
    sec = text.split("--- RoCEv2 packets (UDP 4791)")[1].split("\n---")[0]
    out = []
    for line in sec.splitlines()[2:]:
        f = line.split()
        if len(f) > 8 and f[5] == "4791":
            qp = [x for x in f if re.fullmatch(r"0x[0-9a-f]{6}", x)][0]
            out.append((f[2], int(f[4]), int(qp, 16)))
    return out


def test_udp_sport_rule_matches_every_captured_packet(lib):
    assert lib.qpx_udp_sport(0x11, 0x11) == 49441, "README: QP 0x11<->0x11 gives 49441"
    for name in CAPTURES:
        # QP pairs from the exchange: the i-th destination of the client with the i-th of the server
        fmt = lib.qpx_pp_dest_decode if name == "rc_pingpong" else lib.qpx_pt_dest_decode
        size = 52 if name == "rc_pingpong" else 108
        by_src = {}
        for src, _, p in exchange(name):
            if len(p) == size:
                rc, d, e = decode_dest(lib, fmt, p)
                assert rc == 0, e
                if d.qpn not in by_src.setdefault(src, []):
                    by_src[src].append(d.qpn)
        (a, qa), (b, qb) = sorted(by_src.items())
        partner = {(a, y): x for x, y in zip(qa, qb)}
        partner.update({(b, x): y for x, y in zip(qa, qb)})
        pkts = roce_packets(name)
        assert pkts, f"{name}: no RoCE packets parsed"
        for src, sport, destqp in pkts:
            local = partner[(src, destqp)]
            got = lib.qpx_udp_sport(local, destqp)
            assert got == sport, (f"{name}: packet from {src} QP {local:#x} -> {destqp:#x}: "
                                  f"expected sport {sport}, got {got}")
        if name == "write_bw_2qp":
            assert {s for _, s, _ in pkts} == {49441, 49476}, "two QPs, two source ports"


def test_udp_sport_rule_properties(lib):
    """The rule is symmetric and always in 0xC000..0xFFFF; large QPNs use the 64-bit product."""
    for a, b in [(2, 3), (0x11, 0x12), (0xffffff, 0xfffffe), (0x123456, 0x654321), (0x800000, 2)]:
        s = lib.qpx_udp_sport(a, b)
        assert s == lib.qpx_udp_sport(b, a) and 0xC000 <= s <= 0xFFFF
        v = a * b
        v ^= v >> 20
        v ^= v >> 40
        fl = v & 0xFFFFF
        assert s == 0xC000 | ((fl & 0x3FFF) ^ (fl >> 14)), f"QPs {a:#x},{b:#x}"


# ---- perftest -R: the items in SENDs over the exchange's RDMA CM connection

def r_sends():
    """[(src_ip, payload)] of the SEND ONLY packets on the exchange's QP in the -R capture
    (the first RC QP the CM connected: the lowest destination QPN), in order."""
    sys_path = os.path.join(ROOT, "tests/interop")
    import sys
    if sys_path not in sys.path:
        sys.path.insert(0, sys_path)
    import check_pcap
    frames = check_pcap.read_pcap(open(os.path.join(DATA, "perftest_R_write_bw.pcap"), "rb").read())
    out = []
    for f, _ in frames:
        p = check_pcap.roce_packet(f)
        if not p:
            continue
        ip, _, ib = p
        opcode, pad, dqp = ib[0], ib[1] >> 4 & 3, int.from_bytes(ib[5:8], "big")
        if opcode == 0x04 and dqp != 1:
            out.append((".".join(str(b) for b in ip[12:16]), dqp, ib[12:len(ib) - 4 - pad]))
    comm = min(q for _, q, _ in out)
    return [(src, pl) for src, q, pl in out if q == comm]


def test_perftest_R_destinations_decode_and_reencode_exactly(lib):
    sends = r_sends()
    run = open(os.path.join(DATA, "perftest_R_write_bw.run.txt")).read()
    # each side printed its own QP: 'local address: LID 0000 QPN 0x0012 PSN 0x8dfd76' + its GID line
    printed = {}
    for m in re.finditer(r"local address: LID 0000 QPN 0x([0-9a-f]+) PSN 0x([0-9a-f]+)\n"
                         r" GID: (?:\d+:){12}(\d+):(\d+):(\d+):(\d+)", run):
        ip = ".".join(str(int(x)) for x in m.group(3, 4, 5, 6))
        printed[ip] = (int(m.group(1), 16), int(m.group(2), 16))
    assert len(printed) == 2, run
    dests = [(src, pl) for src, pl in sends if len(pl) == 56]
    # two empty barriers each way around the CM connection of the test QP, then the
    # destinations: each side's twice, the barrier before the test, the one after it and
    # ctx_close_connection's (its QP 0's each time)
    assert len(dests) == 4 + 2 * 5, [len(p) for _, p in sends]
    empties = 0
    for src, pl in dests:
        d, e, empty = Dest(), ctypes.c_char_p(), ctypes.c_bool()
        assert lib.qpx_pt_bdest_decode(pl, 56, ctypes.byref(d), ctypes.byref(empty),
                                       ctypes.byref(e)) == 0, err_text(e)
        if empty.value:
            assert pl == bytes(56)
            empties += 1
            continue
        assert (d.qpn, d.psn) == printed[src], (src, hex(d.qpn), hex(d.psn))
        assert bytes(d.gid) == gid_of(src) and d.lid == 0 and d.out_reads == 1
        buf = ctypes.create_string_buffer(56)
        lib.qpx_pt_bdest_encode(ctypes.byref(d), buf)
        # bytes 20..23 are the struct's padding: whatever the sender's stack held (we send 0)
        assert buf.raw[:20] + buf.raw[24:] == pl[:20] + pl[24:], (buf.raw.hex(), pl.hex())
        assert buf.raw[20:24] == bytes(4)
    assert empties == 4
    # the other items are the TCP exchange's bytes: perftest's version string first
    assert sends[0][1] == b"6.06" + bytes(12) and sends[1][1] == b"6.06" + bytes(12)


@pytest.mark.parametrize("what,mutate,want", [
    ("short", lambda b: b[:55], "wrong length"),
    ("QPN above 24 bits", lambda b: b[:8] + b"\x01" + b[9:], "above 24 bits"),
    ("QPN 1", lambda b: b[:8] + (1).to_bytes(4, "big") + b[12:], "QPN 1"),
])
def test_perftest_R_destination_malformed_rejected(lib, what, mutate, want):
    good = next(pl for _, pl in r_sends() if len(pl) == 56 and any(pl))
    msg = mutate(good)
    d, e, empty = Dest(), ctypes.c_char_p(), ctypes.c_bool()
    assert lib.qpx_pt_bdest_decode(msg, len(msg), ctypes.byref(d), ctypes.byref(empty),
                                   ctypes.byref(e)) != 0, what
    assert want in err_text(e), (what, err_text(e))
