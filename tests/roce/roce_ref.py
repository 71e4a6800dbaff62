"""Reference side of the RoCE header layer tests.

Independent of the RTL: an opcode table written from the IBTA specification,
RoCEv2 frames built by Scapy (scapy.contrib.roce computes the ICRC the way
Linux rxe does), and the bit layouts of the header structs of
rtl/roce/roce_pkg.sv (the interface contract) to talk to the test benches.
"""
import os
import pathlib
import random
import struct
import subprocess
import sys

from scapy.all import Ether, IP, UDP, Raw, rdpcap  # noqa: F401  (Scapy's layers)
from scapy.contrib.roce import BTH

ROOT = pathlib.Path(__file__).resolve().parents[2]
# ROCE_TB_DIR: where the test bench models are (default build/roce)
BUILD = pathlib.Path(os.environ.get("ROCE_TB_DIR", str(ROOT / "build" / "roce")))
RX_TB = BUILD / "Vtb_roce_rx"
TX_TB = BUILD / "Vtb_roce_tx"

# ------------------------------------------------------------- opcode table
# IBTA 1.4 table 38 (RC), UD SEND ONLY (+ImmDt), RoCEv2 annex A17 CNP.
# opcode: (kind, request, position, payload, extension headers in wire order)
OPS = {
    0x00: ("SEND", 1, "FIRST", 1, ()),
    0x01: ("SEND", 1, "MIDDLE", 1, ()),
    0x02: ("SEND", 1, "LAST", 1, ()),
    0x03: ("SEND", 1, "LAST", 1, ("immdt",)),
    0x04: ("SEND", 1, "ONLY", 1, ()),
    0x05: ("SEND", 1, "ONLY", 1, ("immdt",)),
    0x06: ("WRITE", 1, "FIRST", 1, ("reth",)),
    0x07: ("WRITE", 1, "MIDDLE", 1, ()),
    0x08: ("WRITE", 1, "LAST", 1, ()),
    0x09: ("WRITE", 1, "LAST", 1, ("immdt",)),
    0x0A: ("WRITE", 1, "ONLY", 1, ("reth",)),
    0x0B: ("WRITE", 1, "ONLY", 1, ("reth", "immdt")),
    0x0C: ("READ_REQ", 1, "ONLY", 0, ("reth",)),
    0x0D: ("READ_RESP", 0, "FIRST", 1, ("aeth",)),
    0x0E: ("READ_RESP", 0, "MIDDLE", 1, ()),
    0x0F: ("READ_RESP", 0, "LAST", 1, ("aeth",)),
    0x10: ("READ_RESP", 0, "ONLY", 1, ("aeth",)),
    0x11: ("ACK", 0, "ONLY", 0, ("aeth",)),
    0x12: ("ATOMIC_ACK", 0, "ONLY", 0, ("aeth", "atomicacketh")),
    0x13: ("CMP_SWAP", 1, "ONLY", 0, ("atomiceth",)),
    0x14: ("FETCH_ADD", 1, "ONLY", 0, ("atomiceth",)),
    0x64: ("SEND", 1, "ONLY", 1, ("deth",)),
    0x65: ("SEND", 1, "ONLY", 1, ("deth", "immdt")),
    0x81: ("CNP", 0, "ONLY", 0, ("cnp_resv",)),
}
KIND = {"SEND": 0, "WRITE": 1, "READ_REQ": 2, "READ_RESP": 3, "ACK": 4, "ATOMIC_ACK": 5,
        "CMP_SWAP": 6, "FETCH_ADD": 7, "CNP": 8}
POS = {"FIRST": 0, "MIDDLE": 1, "LAST": 2, "ONLY": 3}
EXT_ORDER = ("deth", "reth", "atomiceth", "aeth", "atomicacketh", "immdt", "cnp_resv")
EXT_LEN = {"deth": 8, "reth": 16, "atomiceth": 28, "aeth": 4, "atomicacketh": 8, "immdt": 4, "cnp_resv": 16}
UNKNOWN_OPS = [op for op in range(256) if op not in OPS]


def hdr_len(op):
    return 12 + sum(EXT_LEN[e] for e in OPS[op][4])


# ------------------------------------------------------------ struct layouts
# Fields MSB first, exactly as the packed structs of roce_pkg.sv.
L_BTH = [("opcode", 8), ("se", 1), ("mig", 1), ("padcnt", 2), ("tver", 4), ("pkey", 16), ("fecn", 1),
         ("becn", 1), ("resv6", 6), ("dqpn", 24), ("ackreq", 1), ("resv7", 7), ("psn", 24)]
L_EXT = {
    "deth": [("qkey", 32), ("resv8", 8), ("sqpn", 24)],
    "reth": [("va", 64), ("rkey", 32), ("dma_len", 32)],
    "atomiceth": [("va", 64), ("rkey", 32), ("swap_add", 64), ("compare", 64)],
    "aeth": [("syndrome", 8), ("msn", 24)],
    "atomicacketh": [("orig", 64)],
    "immdt": [("data", 32)],
}
L_ROCE_HDR = ([("bth." + n, w) for n, w in L_BTH] +
              [(e + "." + n, w) for e in ("deth", "reth", "atomiceth", "aeth", "atomicacketh", "immdt")
               for n, w in L_EXT[e]])
L_INFO = ([("valid", 1), ("kind", 4), ("request", 1), ("pos", 2), ("has_payload", 1)] +
          [(e, 1) for e in EXT_ORDER] +
          [("off_" + e, 6) for e in EXT_ORDER[:6]] + [("hdr_len", 6)])
L_RX_HDR = (L_ROCE_HDR + [("info." + n, w) for n, w in L_INFO] +
            [("pay_len", 16), ("src_ip", 32), ("dst_ip", 32), ("udp_sport", 16), ("ip_ecn", 2)])
L_TX_HDR = L_ROCE_HDR + [("pay_len", 16)]
RX_HDR_W = sum(w for _, w in L_RX_HDR)
TX_HDR_W = sum(w for _, w in L_TX_HDR)
assert RX_HDR_W == 796 and TX_HDR_W == 656


def pack(layout, fields):
    v = 0
    for n, w in layout:
        x = fields.get(n, 0)
        assert 0 <= x < (1 << w), (n, x)
        v = (v << w) | x
    return v


def unpack(layout, v):
    out = {}
    for n, w in reversed(layout):
        out[n] = v & ((1 << w) - 1)
        v >>= w
    return out


def to_hex(v, bits):
    return format(v, "0%dx" % ((bits + 3) // 4))


def info_fields(op):
    """Expected opcode table row of op (prefixed 'info.'), from OPS alone."""
    if op not in OPS:
        return {"info." + n: 0 for n, _ in L_INFO}
    kind, req, pos, pay, exts = OPS[op]
    f = {"valid": 1, "kind": KIND[kind], "request": req, "pos": POS[pos], "has_payload": pay}
    off = 12
    for e in EXT_ORDER:
        f[e] = int(e in exts)
        if e != "cnp_resv":
            f["off_" + e] = off
        if e in exts:
            off += EXT_LEN[e]
    f["hdr_len"] = off
    return {"info." + n: v for n, v in f.items()}


# -------------------------------------------------------- packet description
def ext_bytes(name, f):
    """Wire bytes of extension header name from its field values."""
    if name == "deth":
        return struct.pack(">IB", f["qkey"], f["resv8"]) + f["sqpn"].to_bytes(3, "big")
    if name == "reth":
        return struct.pack(">QII", f["va"], f["rkey"], f["dma_len"])
    if name == "atomiceth":
        return struct.pack(">QIQQ", f["va"], f["rkey"], f["swap_add"], f["compare"])
    if name == "aeth":
        return bytes([f["syndrome"]]) + f["msn"].to_bytes(3, "big")
    if name == "atomicacketh":
        return struct.pack(">Q", f["orig"])
    if name == "immdt":
        return struct.pack(">I", f["data"])
    if name == "cnp_resv":
        return bytes(16)
    raise KeyError(name)


class Pkt:
    """One RoCEv2 packet: every field value, and the frame Scapy builds from them."""

    def __init__(self, op, bth, ext, payload, net, pad_bytes=None, raw_after_bth=None):
        self.op = op
        self.bth = bth                # dict of L_BTH fields (padcnt included)
        self.ext = ext                # {name: {field: value}}
        self.payload = payload
        self.net = net                # Ethernet/IP/UDP values
        self.pad_bytes = pad_bytes if pad_bytes is not None else bytes(bth["padcnt"])
        self.raw_after_bth = raw_after_bth   # override of everything after the BTH (bad packets)

    def frame(self):
        n = self.net
        b = self.bth
        after = self.raw_after_bth
        if after is None:
            after = b"".join(ext_bytes(e, self.ext.get(e, {})) for e in OPS[self.op][4])
            after += self.payload + self.pad_bytes
        p = (Ether(dst=n["dst_mac"], src=n["src_mac"]) /
             IP(src=n["src_ip"], dst=n["dst_ip"], tos=n["tos"], ttl=n["ttl"], id=n["ip_id"], flags="DF") /
             UDP(sport=n["sport"], dport=4791, chksum=n["udp_csum"]) /
             BTH(opcode=b["opcode"], solicited=b["se"], migreq=b["mig"], padcount=b["padcnt"],
                 version=b["tver"], pkey=b["pkey"], fecn=b["fecn"], becn=b["becn"], resv6=b["resv6"],
                 dqpn=b["dqpn"], ackreq=b["ackreq"], resv7=b["resv7"], psn=b["psn"]) /
             Raw(after))
        return bytes(p)

    def roce_hdr_fields(self):
        f = {"bth." + k: v for k, v in self.bth.items()}
        for e, vals in self.ext.items():
            if e in OPS[self.op][4] and e != "cnp_resv":
                for k, v in vals.items():
                    f[e + "." + k] = v
        return f

    def rx_expect(self):
        """Header fields roce_rx_parse must report."""
        f = self.roce_hdr_fields()
        f.update(info_fields(self.op))
        ip = lambda s: int.from_bytes(bytes(int(x) for x in s.split(".")), "big")  # noqa: E731
        f.update({"pay_len": len(self.payload), "src_ip": ip(self.net["src_ip"]),
                  "dst_ip": ip(self.net["dst_ip"]), "udp_sport": self.net["sport"],
                  "ip_ecn": self.net["tos"] & 3})
        return f

    def tx_hdr_hex(self):
        f = self.roce_hdr_fields()
        f["bth.padcnt"] = 0          # the builder computes the pad count itself
        f["pay_len"] = len(self.payload)
        return to_hex(pack(L_TX_HDR, f), TX_HDR_W)


def rand_ext(rng, name):
    r = lambda bits: rng.getrandbits(bits)  # noqa: E731
    return {
        "deth": lambda: {"qkey": r(32), "resv8": r(8), "sqpn": r(24)},
        "reth": lambda: {"va": r(64), "rkey": r(32), "dma_len": r(32)},
        "atomiceth": lambda: {"va": r(64), "rkey": r(32), "swap_add": r(64), "compare": r(64)},
        "aeth": lambda: {"syndrome": r(8), "msn": r(24)},
        "atomicacketh": lambda: {"orig": r(64)},
        "immdt": lambda: {"data": r(32)},
        "cnp_resv": lambda: {},
    }[name]()


def rand_len(rng):
    c = rng.random()
    if c < 0.08:
        return rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 60, 63, 64, 65, 127, 128, 129])
    if c < 0.45:
        return rng.randint(0, 200)
    if c < 0.80:
        return rng.randint(200, 1100)
    if c < 0.98:
        return rng.randint(1100, 4200)
    return rng.randint(4200, 8900)


def rand_net(rng, variant=True):
    ipstr = lambda: ".".join(str(rng.randint(1, 254)) for _ in range(4))  # noqa: E731
    mac = lambda: ":".join("%02x" % rng.getrandbits(8) for _ in range(6))  # noqa: E731
    return {"dst_mac": mac(), "src_mac": mac(), "src_ip": ipstr(), "dst_ip": ipstr(),
            "tos": rng.getrandbits(8) if variant else 0, "ttl": rng.randint(1, 255) if variant else 64,
            "ip_id": rng.getrandbits(16), "sport": rng.getrandbits(16),
            "udp_csum": rng.choice([0, None, rng.getrandbits(16)]) if variant else 0}


def rand_pkt(rng, op=None, length=None, variant=True, pad_random=True):
    """A valid packet with random fields. variant: random TOS/TTL/UDP checksum/FECN/BECN/resv6
    (fields the ICRC does not cover)."""
    if op is None:
        op = rng.choice(list(OPS))
    kind, req, pos, has_pay, exts = OPS[op]
    n = 0
    if has_pay:
        n = rand_len(rng) if length is None else length
    pad = (-n) % 4
    bth = {"opcode": op, "se": rng.getrandbits(1), "mig": rng.getrandbits(1), "padcnt": pad, "tver": 0,
           "pkey": rng.getrandbits(16), "fecn": rng.getrandbits(1) if variant else 0,
           "becn": rng.getrandbits(1) if variant else 0, "resv6": rng.getrandbits(6) if variant else 0,
           "dqpn": rng.getrandbits(24), "ackreq": rng.getrandbits(1), "resv7": rng.getrandbits(7),
           "psn": rng.getrandbits(24)}
    ext = {e: rand_ext(rng, e) for e in exts}
    payload = rng.randbytes(n)
    pad_bytes = rng.randbytes(pad) if pad_random else bytes(pad)
    return Pkt(op, bth, ext, payload, rand_net(rng, variant), pad_bytes)


# ------------------------------------------------------------- test benches
def run_tb(exe, in_lines, tmpdir, name, seed=1, idle=0, bp=0, hbp=0, max_cycles=3_000_000):
    """Run a test bench on in_lines; returns the lines of its result file."""
    if not pathlib.Path(exe).exists():
        raise RuntimeError("%s is missing: run `make %s` first" % (exe, pathlib.Path(exe).relative_to(ROOT)))
    fin = pathlib.Path(tmpdir) / (name + ".in")
    fout = pathlib.Path(tmpdir) / (name + ".out")
    fin.write_text("\n".join(in_lines) + "\n")
    cmd = [str(exe), "+in=%s" % fin, "+out=%s" % fout, "+seed=%d" % seed, "+idle=%d" % idle,
           "+bp=%d" % bp, "+hbp=%d" % hbp, "+max=%d" % max_cycles]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    if p.returncode != 0:
        raise AssertionError("test bench %s failed (exit %d):\n%s" % (exe.name, p.returncode, p.stdout[-3000:]))
    return fout.read_text().splitlines()


class RxResult:
    def __init__(self, lines):
        self.hdrs, self.pays, self.cnt, self.stat = [], [], {}, {}
        for ln in lines:
            t = ln.split()
            if t[0] == "H":
                self.hdrs.append((unpack(L_RX_HDR, int(t[1], 16)), int(t[2], 16)))
            elif t[0] == "P":
                assert len(t) == 2, "payload without tlast: " + ln
                self.pays.append(bytes.fromhex(t[1]) if t[1] != "-" else b"")
            elif t[0] == "C":
                self.cnt[t[1]] = int(t[2])
            elif t[0] == "S":
                self.stat[t[1]] = int(t[2])


def run_rx(frames, tmpdir, name, marked=(), **kw):
    """frames: bytes each; marked: indices of frames whose tlast carries the net layer's drop marker."""
    m = set(marked)
    return RxResult(run_tb(RX_TB, [f.hex() + (" bad" if i in m else "") for i, f in enumerate(frames)],
                           tmpdir, name, **kw))


class TxResult:
    def __init__(self, lines):
        self.a, self.b, self.stat = [], [], {}
        for ln in lines:
            t = ln.split()
            if t[0] == "A":
                self.a.append(bytes.fromhex(t[1]))
            elif t[0] == "B":
                self.b.append(bytes.fromhex(t[1]))
            elif t[0] == "S":
                self.stat[t[1]] = int(t[2])


def run_tx(items, tmpdir, name, **kw):
    """items: (tx_hdr hex, 42-byte prefix, payload) per packet."""
    lines = ["%s %s %s" % (h, pfx[::-1].hex(), pay.hex() if pay else "-") for h, pfx, pay in items]
    return TxResult(run_tb(TX_TB, lines, tmpdir, name, **kw))


def diff_fields(exp, got):
    """Fields where exp and got differ: 'name: expected X, got Y' lines."""
    out = []
    for k in exp:
        if exp[k] != got.get(k, 0):
            out.append("%s: expected 0x%x, got 0x%x" % (k, exp[k], got.get(k, 0)))
    return out


def check_rx(pkts_expected, res, users=None):
    """Compare the RX output with the packets expected to pass, in order.
    Returns a list of failure lines (empty when everything matches)."""
    errs = []
    if len(res.hdrs) != len(pkts_expected):
        errs.append("headers out: expected %d, got %d" % (len(pkts_expected), len(res.hdrs)))
    want_pays = [p.payload for p in pkts_expected if len(p.payload) > 0]
    if len(res.pays) != len(want_pays):
        errs.append("payload packets out: expected %d, got %d" % (len(want_pays), len(res.pays)))
    pi = 0
    for i, (p, (h, user)) in enumerate(zip(pkts_expected, res.hdrs)):
        exp = p.rx_expect()
        got = {k: v for k, v in h.items()}
        # fields not listed in exp must be zero (headers the opcode does not have)
        for k in got:
            exp.setdefault(k, 0)
        d = diff_fields(exp, got)
        if users is not None and user != users[i] & 0xFFFF:
            d.append("tuser: expected 0x%x, got 0x%x" % (users[i] & 0xFFFF, user))
        if d:
            errs.append("packet %d (opcode 0x%02x, %d payload bytes): %s" % (i, p.op, len(p.payload), "; ".join(d[:6])))
        if len(p.payload) > 0:
            if pi < len(res.pays) and res.pays[pi] != p.payload:
                g = res.pays[pi]
                at = next((j for j in range(min(len(g), len(p.payload))) if g[j] != p.payload[j]),
                          min(len(g), len(p.payload)))
                errs.append("packet %d payload: expected %d bytes, got %d, first difference at byte %d "
                            "(expected %s, got %s)" % (i, len(p.payload), len(g), at, p.payload[at:at + 8].hex(),
                                                       g[at:at + 8].hex()))
            pi += 1
        if len(errs) > 20:
            errs.append("...")
            break
    return errs


def fail(errs, what):
    if errs:
        print("FAIL %s:" % what)
        for e in errs[:40]:
            print("  " + e)
        raise AssertionError("%s: %d mismatches (first: %s)" % (what, len(errs), errs[0]))


if __name__ == "__main__":
    sys.exit("roce_ref.py is a library; run tests/roce/test_roce.py")
