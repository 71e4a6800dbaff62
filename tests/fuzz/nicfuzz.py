"""The pieces of the whole-NIC fuzz and accounting tests (tests/fuzz): a peer on
the simulated NIC's port, RoCEv2 frames built byte by byte, the `stats` parser
and the RX accounting identity, the seeded pattern of the fill/check engine.

The NIC runs in build/sim/solonic_sim with its port on a unix datagram socket
(`--eth0 unix:PATH:PEER`): lossless both ways (a frame the NIC cannot take yet
blocks the peer's send), so every frame the peer sends reaches the NIC and the
peer's own count of what it sent is the expectation the NIC's counters are
checked against. The peer is tests/mgmt/nicpeer.py's (it answers ARP for its address
and ICMP echo requests) on that socket, so that tests/qpx's Tcp helper (a TCP peer built
by hand on Scapy) runs the QP exchange over it unchanged.
"""
import os
import queue
import re
import socket
import struct
import sys
import tempfile
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "tests/fw"))
sys.path.insert(0, os.path.join(ROOT, "tests/mgmt"))
sys.path.insert(0, os.path.join(ROOT, "tests/qpx"))

from nicpeer import NicPeer  # noqa: E402
from nicsim import PROMPT, Failure, Sim, check, check_true, tail  # noqa: E402,F401

PEER_MAC = "02:00:00:00:00:64"
PEER_IP = "10.0.0.100"
NIC_MAC = "02:00:00:00:00:01"
NIC_IP = "10.0.0.1"
ROCE_PORT = 4791
WAIT = 60.0  # wall seconds for one expected frame or console line (a loaded 2-core machine)


def mac_b(s):
    return bytes(int(x, 16) for x in s.split(":"))


def ip_b(s):
    return bytes(int(x) for x in s.split("."))


# ---------------------------------------------------------------- the pattern
from mempattern import M64, pat_word, pattern  # noqa: E402,F401  (tests/fw/mempattern.py)


# ---------------------------------------------------------------- frames
def ip_csum(h):
    if len(h) % 2:
        h = bytes(h) + b"\0"
    s = 0
    for i in range(0, len(h), 2):
        s += h[i] << 8 | h[i + 1]
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def icrc(ip_hdr, udp_hdr, ib):
    """RoCEv2 ICRC over the masked IPv4/UDP headers and the IB packet ib (BTH .. payload, no ICRC),
    as the wire carries it (little endian)."""
    ip = bytearray(ip_hdr)
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10:12] = b"\xff\xff"
    udp = bytearray(udp_hdr)
    udp[6:8] = b"\xff\xff"
    bth = bytearray(ib[:12])
    bth[4] = 0xFF
    return (zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(bth) + ib[12:]) & 0xFFFFFFFF).to_bytes(4, "little")


def eth_hdr(dst=NIC_MAC, src=PEER_MAC, etype=0x0800):
    return mac_b(dst) + mac_b(src) + etype.to_bytes(2, "big")


def ipv4(payload, proto, src=PEER_IP, dst=NIC_IP, ident=0, ttl=64, total=None, csum=None, ver_ihl=0x45):
    tl = 20 + len(payload) if total is None else total
    h = bytearray(struct.pack(">BBHHHBBH4s4s", ver_ihl, 0, tl & 0xFFFF, ident & 0xFFFF, 0x4000, ttl, proto, 0,
                              ip_b(src), ip_b(dst)))
    h[10:12] = (ip_csum(h) if csum is None else csum).to_bytes(2, "big")
    return bytes(h)


def bth(opcode, dqpn, psn, ackreq=1, pad=0, tver=0, se=0, mig=0, pkey=0xFFFF):
    return struct.pack(">BBHB3sB3s", opcode & 0xFF, (se << 7) | (mig << 6) | ((pad & 3) << 4) | (tver & 15),
                       pkey, 0, (dqpn & 0xFFFFFF).to_bytes(3, "big"), (ackreq & 1) << 7,
                       (psn & 0xFFFFFF).to_bytes(3, "big"))


def reth(va, rkey, length):
    return struct.pack(">QII", va & M64, rkey & 0xFFFFFFFF, length & 0xFFFFFFFF)


def aeth(syndrome, msn):
    return bytes([syndrome & 0xFF]) + (msn & 0xFFFFFF).to_bytes(3, "big")


def atomic_eth(va, rkey, swap_add, compare):
    return struct.pack(">QIQQ", va & M64, rkey & 0xFFFFFFFF, swap_add & M64, compare & M64)


def roce(ib_hdrs, payload=b"", sport=0xC123, pad=None, ip_kw=None, udp_len=None, bad_icrc=False,
         dst=NIC_MAC, dst_ip=NIC_IP):
    """A whole RoCEv2 frame: Ethernet, IPv4, UDP, ib_hdrs (BTH first, with its pad count already set
    when pad is None: then the payload is padded to 4 bytes here), payload, ICRC."""
    body = bytes(ib_hdrs) + payload
    if pad is None:
        p = -len(payload) % 4
        body = bytes([body[0], (body[1] & ~0x30) | (p << 4)]) + body[2:] + bytes(p)
    else:
        body = body + bytes(pad)
    ulen = 8 + len(body) + 4
    udp = struct.pack(">HHHH", sport, ROCE_PORT, ulen if udp_len is None else udp_len, 0)
    ip = ipv4(udp + body + bytes(4), 17, dst=dst_ip, **(ip_kw or {}))
    c = icrc(ip, udp, body)
    if bad_icrc:
        c = bytes([c[0] ^ 0x01]) + c[1:]
    return eth_hdr(dst=dst) + ip + udp + body + c


def reseal(frame):
    """frame with its IPv4 checksum and ICRC made right again (after a field was mutated)."""
    f = bytearray(frame)
    ih = (f[14] & 15) * 4
    f[24:26] = b"\0\0"
    f[24:26] = ip_csum(f[14:14 + ih]).to_bytes(2, "big")
    tl = int.from_bytes(f[16:18], "big")
    end = 14 + tl
    if ih == 20 and 42 + 16 <= end <= len(f):
        f[end - 4:end] = icrc(f[14:34], f[34:42], bytes(f[42:end - 4]))
    return bytes(f)


# parsed NIC frame: (opcode, dqpn, psn, rest after the BTH) for RoCE to the peer
def roce_of(data):
    if len(data) < 58 or data[12:14] != b"\x08\x00" or data[23] != 17:
        return None
    if int.from_bytes(data[36:38], "big") != ROCE_PORT:
        return None
    tl = int.from_bytes(data[16:18], "big")
    ib = data[42:14 + tl]
    return ib[0], int.from_bytes(ib[5:8], "big"), int.from_bytes(ib[9:12], "big"), ib[12:-4], ib


# ---------------------------------------------------------------- pcap
def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", i // 1000000, i % 1000000, len(fr), len(fr)) + fr)


# ---------------------------------------------------------------- the peer
class Peer(NicPeer):
    """tests/mgmt's NicPeer with its port on a unix datagram socket pair; the peer counts
    every frame it sends (self.sent) and keeps the last ones (self.recent) for a pcap.

    NIC frames: RoCE ones go to self.roce_q as (opcode, dqpn, psn, rest, ib) unless self.roce_hook
    (called in the reader thread) takes them; the others go to NicPeer (ARP and ICMP echo for
    the peer answered, the rest to self.frames for expect())."""

    def __init__(self, keys="", max_cycles=4_000_000_000, max_seconds=3600, extra=(), keep_recent=4096):
        self.lock = threading.Lock()
        self.sent = 0
        self.recent = []
        self.keep_recent = keep_recent
        self.roce_q = queue.Queue()
        self.roce_hook = None
        self.received = 0
        super().__init__(keys, max_cycles=max_cycles, max_seconds=max_seconds, keep_stdin=True, extra=extra)
        self.sim.timeout = WAIT

    def _open_port(self):
        self.dir = tempfile.mkdtemp(prefix="solonic_fuzz_")
        self.nic_path = os.path.join(self.dir, "nic")
        self.peer_path = os.path.join(self.dir, "peer")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.peer_path)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.sock.settimeout(0.1)
        return f"unix:{self.nic_path}:{self.peer_path}"

    # ---- the wire
    def send(self, pkt):
        data = bytes(pkt)
        if len(data) < 60:
            data += bytes(60 - len(data))
        deadline = time.monotonic() + WAIT
        while True:
            try:
                self.sock.sendto(data, self.nic_path)
                break
            except (BlockingIOError, socket.timeout, FileNotFoundError, ConnectionRefusedError) as e:
                if time.monotonic() > deadline or self.sim.p.poll() is not None:
                    raise Failure("sending a frame to the NIC", "the NIC's socket takes it",
                                  f"{type(e).__name__}: {e}" + self.sim.stderr_note())
                time.sleep(0.01)
        with self.lock:
            self.sent += 1
            self.recent.append(data)
            if len(self.recent) > self.keep_recent:
                del self.recent[:len(self.recent) - self.keep_recent]

    def _take(self, data):
        self.received += 1
        r = roce_of(data)
        if r is not None and data[30:34] == ip_b(PEER_IP):
            h = self.roce_hook
            if h is None or not h(r):
                self.roce_q.put(r)
            return
        super()._take(data)

    def expect(self, match, what, timeout=WAIT):
        return super().expect(match, what, timeout)

    def expect_roce(self, match, what, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(what, f"such a RoCE frame from the NIC within {timeout} s", "none" + self.sim_note())
            try:
                r = self.roce_q.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if match(r):
                return r

    def drain_roce(self):
        out = []
        while True:
            try:
                out.append(self.roce_q.get_nowait())
            except queue.Empty:
                return out

    # ---- the console
    def cmd(self, line, timeout=WAIT):
        self.sim.send(line + "\r")
        self.sim.expect(re.escape(line) + r"\n", timeout=timeout, what=f"echo of {line!r}")
        return self.sim.expect(r"(.*?)" + re.escape(PROMPT), timeout=timeout,
                               what=f"output of {line!r}").group(1)

    def close(self):
        super().close()
        for p in (self.peer_path, self.nic_path):
            try:
                os.unlink(p)
            except OSError:
                pass
        try:
            os.rmdir(self.dir)
        except OSError:
            pass


# ---------------------------------------------------------------- stats
LWIP_COLS = ("xmit", "recv", "drop", "chkerr", "lenerr", "memerr", "rterr", "proterr", "err")


def parse_stats(out):
    """`stats` output -> {"layer.name": int}: lwIP's table rows as link.recv etc., every
    'name N' pair of the other lines under the line's first word."""
    d = {}
    for line in out.splitlines():
        w = line.split()
        if not w:
            continue
        if len(w) == 10 and all(x.isdigit() for x in w[1:]):
            for c, v in zip(LWIP_COLS, w[1:]):
                d[f"{w[0]}.{c}"] = int(v)
            continue
        for a, b in zip(w[1:], w[2:]):
            if re.fullmatch(r"[a-z_0-9]+", a) and b.isdigit():
                d[f"{w[0]}.{a}"] = int(b)
    return d


NET_RX = ("rx_roce", "rx_mgmt", "drop_bad_csum", "drop_trunc", "drop_bad_hdr", "drop_malformed",
          "drop_mac_err", "drop_not_for_us", "drop_roce_full", "drop_mgmt_full")
ROCE_RX = ("rx_icrc_bad", "rx_bad_len", "rx_bad_opcode", "rx_bad_version", "rx_packets")


def identity(s, sent):
    """The RX accounting identity of fw/README.md ("every frame in one counter"): a list of
    (what, left, right) that must be equal, every term read from stats s; sent is the
    number of frames the peer sent (the one figure that does not come from the NIC)."""
    net = sum(s[f"net.{k}"] for k in NET_RX)
    return [
        ("frames sent = sum of the packet layer's RX counters", sent, net),
        ("net rx_mgmt = mgmt rx_frames + rx_drop_full + rx_drop_too_long", s["net.rx_mgmt"],
         s["mgmt.rx_frames"] + s["mgmt.rx_drop_full"] + s["mgmt.rx_drop_too_long"]),
        ("mgmt rx_frames = lwIP link recv + driver rx_runt + rx_nomem + rx_waiting", s["mgmt.rx_frames"],
         s["link.recv"] + s["driver.rx_runt"] + s["driver.rx_nomem"] + s["mgmt.rx_waiting"]),
        ("net rx_roce = roce rx_icrc_bad + rx_bad_len + rx_bad_opcode + rx_bad_version + rx_packets",
         s["net.rx_roce"], sum(s[f"roce.{k}"] for k in ROCE_RX)),
    ]


def check_identity(s, sent):
    bad = [f"{w}: {a} != {b}" for w, a, b in identity(s, sent) if a != b]
    return bad
