#!/usr/bin/env python3
"""The harness's Ethernet features: build/sim/solonic_sim with --nics 2, --wire,
--eth0 udp:/unix:, --pcap, --uart1-*, --stats, and its UART output arriving
while the run goes on.

The NICs run tests/sim/progs/sim_eth.c, a console program that sends and
receives frames through the NIC's management buffers. Its frame format is
rebuilt here independently (make_frame), so what arrives is checked byte for
byte; the wire model's line rate, delay and faults are checked against the
numbers of sim/wire/eth_wire.h, computed here again.

    test_eth.py --list     the case names
    test_eth.py CASE       run one case; exit 0 on pass, 1 with expected/got on failure
"""
import os
import re
import select
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "build/sim/solonic_sim")
HEX = os.path.join(ROOT, "build/sim/progs/sim_eth.hex")
PROMPT = "solonic> "
CLK_HZ = 250_000_000
NS_PER_CYCLE = 4
OVERHEAD = 24  # preamble+SFD 8, FCS 4, IFG 12 (sim/wire/eth_wire.h)
TIMEOUT = 120  # wall seconds for one simulator run: a bound, never an assertion


class Failure(Exception):
    pass


def expect(what, expected, got):
    if expected != got:
        raise Failure(f"{what}\n  expected: {expected!r}\n  got:      {got!r}")


def expect_true(what, cond, expected, got):
    if not cond:
        raise Failure(f"{what}\n  expected: {expected}\n  got:      {got}")


def expect_re(what, pattern, text):
    m = re.search(pattern, text, re.M)
    if not m:
        raise Failure(f"{what}\n  expected to match: {pattern!r}\n  got: {text[-2000:]!r}")
    return m


# ---------------------------------------------------------------- frames

def mac(inst):
    return bytes([2, 0, 0, 0, 0, inst])


def make_frame(inst, seq, length):
    """The frame sim_eth's 'tx' sends (see the comment at the top of sim_eth.c)."""
    f = bytearray(b"\xff" * 6 + mac(inst) + b"\x88\xb5" + bytes([inst]) + struct.pack(">I", seq))
    f += bytes((seq + i) & 0xff for i in range(19, length))
    return bytes(f)


def echoed(frame, inst):
    """What sim_eth's 'echo' on NIC inst sends back for a received frame."""
    return frame[6:12] + mac(inst) + frame[12:]


def fnv1a(b):
    h = 2166136261
    for x in b:
        h = ((h ^ x) * 16777619) & 0xffffffff
    return h


def rx_lines(out):
    """sim_eth's 'rx LEN FNV HEX' lines -> [(len, fnv, bytes-prefix)]"""
    return [(int(m.group(1)), int(m.group(2), 16), bytes.fromhex(m.group(3)))
            for m in re.finditer(r"(?:^|> )rx (\d+) ([0-9a-f]{8}) ([0-9a-f]*)$", out, re.M)]


def check_rx(what, frames, out):
    got = rx_lines(out)
    expect(f"{what}: number of frames the NIC printed", len(frames), len(got))
    for i, (f, (n, h, pre)) in enumerate(zip(frames, got)):
        expect(f"{what}: frame {i} (length, FNV-1a, first 256 bytes)", (len(f), fnv1a(f), f[:256]), (n, h, pre))


def wire_ns(length, rate=100e9):
    return (length + OVERHEAD) * 8 / rate * 1e9


def read_pcap(path):
    """[(ns, bytes)] of a nanosecond pcap (magic a1b23c4d), independent of the writer."""
    with open(path, "rb") as f:
        data = f.read()
    magic, vmaj, vmin, _, _, snap, linktype = struct.unpack("<IHHiIII", data[:24])
    expect("pcap magic (nanosecond timestamps)", 0xa1b23c4d, magic)
    expect("pcap link type (Ethernet)", 1, linktype)
    out, off = [], 24
    while off < len(data):
        sec, nsec, incl, orig = struct.unpack("<IIII", data[off:off + 16])
        off += 16
        out.append((sec * 10**9 + nsec, data[off:off + incl]))
        off += incl
    return out


def stats_of(stderr, link):
    m = re.search(r"^solonic_sim: stats link " + re.escape(link) + r" (.*)$", stderr, re.M)
    if not m:
        raise Failure(f"--stats line for link {link}\n  got: {stderr!r}")
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(1))}


# ----------------------------------------------------------------- runs

def free_udp_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def script_file(d, name, lines):
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    return p


def run(*opts, max_cycles=20_000_000):
    p = subprocess.run([SIM, "--fw", HEX, "--max-cycles", str(max_cycles), *opts], cwd=ROOT,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=TIMEOUT)
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode("latin-1")


class Collector(threading.Thread):
    """Receives datagrams on a socket into a list until stopped; `stall` seconds
    of not reading after the first datagram (to fill the socket queue). With
    `stall_until` (a function), the stall lasts at least `stall` seconds and then
    until it returns true, at most 60 s: on a loaded machine the simulator may
    not fill the queue within a fixed time."""

    def __init__(self, sock, stall=0.0, stall_until=None):
        super().__init__(daemon=True)
        self.sock, self.stall, self.frames, self.stop_at = sock, stall, [], None
        self.stall_until = stall_until
        self.sock.settimeout(0.2)

    def wait_until(self):
        end = time.monotonic() + 60
        while not self.stall_until() and time.monotonic() < end:
            time.sleep(0.2)

    def run(self):
        while self.stop_at is None or time.monotonic() < self.stop_at:
            try:
                d = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not self.frames and self.stall:
                time.sleep(self.stall)
                if self.stall_until is not None:
                    self.wait_until()
            self.frames.append(d)

    def finish(self, linger=0.5):
        self.stop_at = time.monotonic() + linger
        self.join(linger + 2)
        return self.frames


class Live:
    """A simulator run driven through stdin, its output read as it comes."""

    def __init__(self, *opts, max_seconds=90):
        self.err = tempfile.TemporaryFile()
        self.p = subprocess.Popen([SIM, "--fw", HEX, "--max-seconds", str(max_seconds), *opts], cwd=ROOT,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err)
        self.out, self.pos = "", 0

    def expect(self, pattern, timeout=60, what="console output"):
        rx = re.compile(pattern, re.S)
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.out, self.pos)
            if m:
                self.pos = m.end()
                return m
            left = deadline - time.monotonic()
            ended = self.p.poll() is not None
            if left <= 0 or ended:
                self.kill()
                raise Failure(f"{what}\n  expected: /{pattern}/ within {timeout} s\n  got: "
                              f"{'(simulator ended) ' if ended else ''}{self.out[self.pos:][-1500:]!r}"
                              f"\n  stderr: {self.stderr()[-800:]!r}")
            r, _, _ = select.select([self.p.stdout], [], [], min(left, 0.2))
            if r:
                chunk = os.read(self.p.stdout.fileno(), 65536)
                self.out += chunk.decode("latin-1").replace("\r\n", "\n")

    def cmd(self, line, timeout=60):
        """Type a line, return what it printed up to the next prompt."""
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()
        return self.expect(r"(.*?)" + re.escape(PROMPT), timeout, f"reply to {line!r}").group(1)

    def finish(self, line="exit 0", timeout=60):
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.close()
        try:
            self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise Failure(f"simulator exit after {line!r}\n  expected: an exit within {timeout} s\n  got: none")
        self.out += self.p.stdout.read().decode("latin-1").replace("\r\n", "\n")
        return self.p.returncode

    def stderr(self):
        self.err.seek(0)
        return self.err.read().decode("latin-1")

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


# ---------------------------------------------------------------- cases

def case_two_nics_exchange():
    """NIC 0 sends frames over the cable, NIC 1 echoes them, NIC 0 prints what came back."""
    sent = [make_frame(0, s, 60) for s in range(4)] + [make_frame(0, s, 300) for s in (10, 11)]
    back = [echoed(f, 1) for f in sent]
    with tempfile.TemporaryDirectory() as d:
        s0 = script_file(d, "n0.txt", ["tx 4 60", "tx 2 300 10", "rx 6", "stats"])
        s1 = script_file(d, "n1.txt", ["echo 6", "stats", "exit 0"])
        log1, pcap = os.path.join(d, "n1.log"), os.path.join(d, "t.pcap")
        rc, out, err = run("--nics", "2", "--uart-in", s0, "--uart1-in", s1, "--uart1-log", log1,
                           "--pcap", pcap, "--stats")
        expect(f"exit code (stderr {err[-600:]!r})", 0, rc)
        check_rx("NIC 0 (the echoes)", back, out)
        expect_re("NIC 0's counters: 6 frames in, 6 out", r"stats rx_frames=6 .*tx_frames=6", out)
        with open(log1) as f:
            log = f.read()
        expect_re("NIC 1's console in --uart1-log", r"sim_eth instance 1 [^\n]*\nsolonic> ok echo 6\n", log.replace("\r", ""))
        expect("NIC 1's output is not on stdout", False, "instance 1" in out)
        expect_re("stderr reports NIC 1's exit code", r"NIC 1 firmware exit code 0 at cycle \d+", err)
        a, b = stats_of(err, "nic0->nic1"), stats_of(err, "nic1->nic0")
        expect("--stats nic0->nic1 frames_in, bytes_in, frames_out",
               (6, sum(map(len, sent)), 6), (a["frames_in"], a["bytes_in"], a["frames_out"]))
        expect("--stats nic1->nic0 frames_in, bytes_in", (6, sum(map(len, back))), (b["frames_in"], b["bytes_in"]))
        frames = [f for _, f in read_pcap(pcap)]
        expect("pcap: the 12 frames, each direction in order",
               (sent, back), ([f for f in frames if f[0] == 0xff], [f for f in frames if f[0] != 0xff]))


def case_two_nics_line_rate_and_delay():
    """Timestamps in the pcap follow the wire: back-to-back frames at 250 Mb/s are
    exactly one wire time apart; a delay of D cycles moves every arrival by D."""
    with tempfile.TemporaryDirectory() as d:
        # rx 1 100000: nothing comes back (NIC 1 has no console); the frames
        # still on a 250 Mb/s wire arrive meanwhile
        s0 = script_file(d, "n0.txt", ["tx 6 1000", "rx 1 100000", "stats"])
        pc = {}
        for name, spec in (("slow", "rate=250e6"), ("nodelay", "seed=3"), ("delay", "seed=3,delay=1000")):
            pc[name] = os.path.join(d, name + ".pcap")
            rc, out, err = run("--nics", "2", "--uart-in", s0, "--wire", spec, "--pcap", pc[name],
                               "--max-cycles", "400000")
            expect(f"exit code with --wire {spec} (stderr {err[-400:]!r})", 0, rc)
        slow = read_pcap(pc["slow"])
        expect("frames at 250 Mb/s", [make_frame(0, s, 1000) for s in range(6)], [f for _, f in slow])
        gaps = [b[0] - a[0] for a, b in zip(slow, slow[1:])]
        # the CPU fills a 1000-byte frame in well under its 32768 ns of wire
        # time, so the frames queue at the serializer and leave back to back
        expect("arrival spacing at 250 Mb/s (ns): (1000 + 24) * 8 bits / 250e6", [round(wire_ns(1000, 250e6))] * 5,
               gaps)
        a, b = read_pcap(pc["nodelay"]), read_pcap(pc["delay"])
        expect("the same frames with and without delay", [f for _, f in a], [f for _, f in b])
        expect("arrival shift by delay=1000 cycles (ns)", [1000 * NS_PER_CYCLE] * 6,
               [tb - ta for (ta, _), (tb, _) in zip(a, b)])
        # at 100 Gb/s a 1000-byte frame is 20.48 cycles: the CPU is the bottleneck
        gaps = [q[0] - p[0] for p, q in zip(a, a[1:])]
        expect_true("at 100 Gb/s frames are at least one wire time apart", min(gaps) >= wire_ns(1000) - 4,
                    f">= {wire_ns(1000):.2f} ns", gaps)


def case_two_nics_exit_codes():
    """With two NICs NIC 1's failure is the run's unless NIC 0 failed."""
    with tempfile.TemporaryDirectory() as d:
        # NIC 0 waits 40,000 cycles for a frame that never comes: NIC 1 has exited by then
        ok0 = script_file(d, "ok0.txt", ["rx 0", "rx 1 40000"])
        fail0 = script_file(d, "fail0.txt", ["rx 1 40000", "exit 3"])
        exit7 = script_file(d, "exit7.txt", ["exit 7"])
        exit0 = script_file(d, "exit0.txt", ["exit 0"])
        for s0, s1, want, name in ((ok0, exit7, 7, "NIC 0 ok, NIC 1 exit 7"),
                                   (fail0, exit7, 3, "NIC 0 exit 3, NIC 1 exit 7"),
                                   (ok0, exit0, 0, "NIC 0 ok, NIC 1 exit 0")):
            rc, out, err = run("--nics", "2", "--uart-in", s0, "--uart1-in", s1)
            expect(f"process exit code ({name}; stderr {err[-300:]!r})", want, rc)
            code = 7 if s1 == exit7 else 0
            expect_re(f"stderr names NIC 1's exit code ({name})", rf"NIC 1 firmware exit code {code} at cycle", err)
        rc, out, err = run("--nics", "2", "--uart-in", ok0)
        expect("exit code when NIC 1 never exits", 0, rc)
        expect_re("stderr says NIC 1 was running", r"NIC 1 was still running", err)


def case_udp_peer_both_ways():
    """A Scapy peer on UDP: its frames reach the NIC byte-exact and appear in the
    pcap; the NIC's frames arrive as datagrams byte-exact; the console output
    reaches the test while the run goes on (prompt flushed)."""
    from scapy.all import ARP, IP, UDP, Ether, Raw  # python3-scapy
    lport, rport = free_udp_ports(2)
    peer = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    peer.bind(("127.0.0.1", rport))
    frames_in = [
        bytes(Ether(dst="ff:ff:ff:ff:ff:ff", src="52:54:00:12:34:56") /
              ARP(op=1, hwsrc="52:54:00:12:34:56", psrc="10.0.0.1", pdst="10.0.0.2")),
        bytes(Ether(dst="ff:ff:ff:ff:ff:ff", src="52:54:00:12:34:56") / IP(src="10.0.0.1", dst="255.255.255.255") /
              UDP(sport=1234, dport=5678) / Raw(bytes(range(256)) * 2)),
        bytes(Ether(dst="02:00:00:00:00:00", src="52:54:00:12:34:56", type=0x88b5) / Raw(b"\xa5" * 1486)),
    ]
    with tempfile.TemporaryDirectory() as d:
        pcap = os.path.join(d, "u.pcap")
        live = Live("--eth0", f"udp:{lport}:{rport}", "--pcap", pcap, "--stats")
        try:
            banner = live.expect(r"(.*?)" + re.escape(PROMPT), 30, "banner and prompt while the run goes on")
            expect("simulator still running when the prompt arrived", None, live.p.poll())
            expect_re("banner", r"sim_eth instance 0", banner.group(1))
            for f in frames_in:
                peer.sendto(f, ("127.0.0.1", lport))
            out = live.cmd("rx 3 20000000")
            check_rx("frames from the UDP peer", frames_in, out)
            live.cmd("tx 5 100 40")
            peer.settimeout(20)
            got = [peer.recv(65536) for _ in range(5)]
            expect("datagrams from the NIC (one frame each, no FCS)", [make_frame(0, 40 + s, 100) for s in range(5)], got)
            rc = live.finish()
        finally:
            live.kill()
        err = live.stderr()
        expect(f"exit code (stderr {err[-400:]!r})", 0, rc)
        pc = read_pcap(pcap)
        expect("pcap: the peer's frames and the NIC's, in time order",
               frames_in + [make_frame(0, 40 + s, 100) for s in range(5)], [f for _, f in pc])
        ts = [t for t, _ in pc[:3]]
        gaps = [b - a for a, b in zip(ts, ts[1:])]
        need = [wire_ns(len(f)) for f in frames_in[1:]]
        expect_true("pcap: inbound frames at least one wire time apart (ns)",
                    all(g >= n - NS_PER_CYCLE for g, n in zip(gaps, need)), f">= {need}", gaps)
        st = stats_of(err, f"udp:127.0.0.1:{lport}->nic0")
        expect("--stats inbound link frames_in, bytes_in", (3, sum(map(len, frames_in))),
               (st["frames_in"], st["bytes_in"]))
        expect_re("--stats socket line", rf"socket udp:{lport}:{rport} datagrams_sent=5 datagrams_received=3 ", err)
    peer.close()


def fault_run(d, spec, frames=200, length=64, extra=()):
    """NIC 0 sends `frames` frames through --wire spec to a UDP peer; what arrives."""
    lport, rport = free_udp_ports(2)
    peer = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
    peer.bind(("127.0.0.1", rport))
    col = Collector(peer)
    col.start()
    # rx 1 30000: nothing comes; it lets a frame held back for reordering out
    # (eth_wire releases it after 20000 cycles) before the run ends
    s = script_file(d, "f.txt", [f"tx {frames} {length}", "rx 1 30000", "stats"])
    rc, out, err = run("--eth0", f"udp:{lport}:{rport}", "--wire", spec, "--uart-in", s, "--stats", *extra)
    got = col.finish()
    peer.close()
    expect(f"exit code with --wire {spec} (stderr {err[-400:]!r})", 0, rc)
    expect_re("all frames handed to the NIC", rf"ok tx {frames}\n", out)
    return got, stats_of(err, f"nic0->udp:127.0.0.1:{rport}")


def seq_of(f):
    return struct.unpack(">I", f[15:19])[0]


def case_udp_wire_faults_seeded():
    """--wire faults change what arrives as configured, counted in --stats, and
    the same seed gives the same arrivals."""
    n = 200
    sent = [make_frame(0, s, 64) for s in range(n)]
    with tempfile.TemporaryDirectory() as d:
        clean, st = fault_run(d, "seed=1")
        expect("no faults: every frame, in order, byte-exact", sent, clean)
        expect("--stats no faults", (n, n, 0), (st["frames_in"], st["frames_out"], st["dropped"]))

        got, st = fault_run(d, "drop=0.2,seed=7")
        seqs = [seq_of(f) for f in got]
        expect("drop: what arrives is in order and unaltered", [sent[s] for s in seqs], got)
        expect("drop: --stats dropped = frames missing", n - len(got), st["dropped"])
        expect_true("drop: about 20% lost (binomial, 200 frames: 15..65)", 15 <= st["dropped"] <= 65,
                    "15..65", st["dropped"])
        again, _ = fault_run(d, "drop=0.2,seed=7")
        expect("drop: the same seed loses the same frames", seqs, [seq_of(f) for f in again])
        other, _ = fault_run(d, "drop=0.2,seed=8")
        expect_true("drop: another seed loses other frames", [seq_of(f) for f in other] != seqs,
                    "a different set", "the same set")

        got, st = fault_run(d, "dup=0.15,seed=3")
        seqs = [seq_of(f) for f in got]
        expect("dup: every frame arrives", list(range(n)), sorted(set(seqs)))
        expect("dup: --stats duplicated = extra copies", len(got) - n, st["duplicated"])
        expect_true("dup: some duplicates (binomial: 10..55)", 10 <= st["duplicated"] <= 55, "10..55",
                    st["duplicated"])
        expect("dup: copies are byte-exact", [sent[s] for s in seqs], got)

        got, st = fault_run(d, "reorder=0.15,seed=4")
        seqs = [seq_of(f) for f in got]
        expect("reorder: every frame once", list(range(n)), sorted(seqs))
        swaps = sum(1 for a, b in zip(seqs, seqs[1:]) if a > b)
        # a held frame goes behind the next one: one inversion each; the last
        # frame, if held, has no successor and is released in place
        expect_true("reorder: --stats reordered = frames that arrived behind their successor",
                    swaps == st["reordered"] or (swaps == st["reordered"] - 1 and seqs[-1] == n - 1),
                    st["reordered"], swaps)
        expect_true("reorder: some reordering (10..55)", 10 <= swaps <= 55, "10..55", swaps)

        got, st = fault_run(d, "corrupt=0.2,skip=19,seed=5")
        expect("corrupt: every frame arrives, in order", list(range(n)), [seq_of(f) for f in got])
        flips = []
        for s, f in enumerate(got):
            diff = [(i, a ^ b) for i, (a, b) in enumerate(zip(sent[s], f)) if a != b]
            if diff:
                expect_true(f"corrupt: frame {s} differs in one bit at or after byte 19",
                            len(diff) == 1 and diff[0][0] >= 19 and bin(diff[0][1]).count("1") == 1,
                            "one flipped bit", diff)
                flips.append(s)
        expect("corrupt: --stats corrupted = frames with a flipped bit", len(flips), st["corrupted"])
        expect_true("corrupt: some corrupted (15..65)", 15 <= len(flips) <= 65, "15..65", len(flips))

        spec = "drop=0.1,dup=0.1,reorder=0.1,corrupt=0.1,skip=19,seed=11,delay=300"
        a, _ = fault_run(d, spec)
        b, _ = fault_run(d, spec)
        expect("all faults at once: the same seed gives the same datagrams", a, b)


def case_unix_backpressure_lossless():
    """unix datagram sockets: a peer that stops reading holds the NIC back
    instead of losing frames; the peer's frames all reach the NIC."""
    with tempfile.TemporaryDirectory() as d:
        path, peer_path, pcap = os.path.join(d, "nic.sock"), os.path.join(d, "peer.sock"), os.path.join(d, "x.pcap")
        peer = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)  # a few frames
        peer.bind(peer_path)
        n, length = 300, 1000
        live = Live("--eth0", f"unix:{path}:{peer_path}", "--pcap", pcap, "--stats")
        # the stall ends once the NIC has put 20 frames on its port (its pcap: 24 bytes of
        # file header, 16 of record header a frame): more than the socket's queue holds
        # (net.unix.max_dgram_qlen, 10 by default), so the socket has blocked by then
        col = Collector(peer, stall=3.0, stall_until=lambda: os.path.exists(pcap) and
                        os.path.getsize(pcap) >= 24 + 20 * (16 + length))
        col.start()
        try:
            live.expect(re.escape(PROMPT), 30, "first prompt")
            out = live.cmd(f"tx {n} {length}", timeout=90)
            expect("tx reply", f"ok tx {n}\n", out)
            # the other way: 100 frames as fast as a blocking socket takes them
            tx = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            inbound = [make_frame(9, s, 200) for s in range(100)]
            for f in inbound:
                tx.sendto(f, path)
            tx.close()
            live.cmd("rx 1 2000000")  # time for the inbound frames to reach the NIC
            rc = live.finish()
        finally:
            live.kill()
        got = col.finish(linger=1.0)
        peer.close()
        err = live.stderr()
        expect(f"exit code (stderr {err[-400:]!r})", 0, rc)
        expect("frames from the NIC through the stalled peer: all, in order, byte-exact",
               [seq_of(make_frame(0, s, length)) for s in range(n)], [seq_of(f) for f in got])
        expect("frames byte-exact", [make_frame(0, s, length) for s in range(n)], got)
        m = expect_re("--stats socket line", r"socket unix:\S+ datagrams_sent=(\d+) datagrams_received=(\d+) "
                      r"send_blocked=(\d+) send_errors=(\d+)", err)
        sent, received, blocked, errors = map(int, m.groups())
        expect("datagrams sent, received, send errors", (n, 100, 0), (sent, received, errors))
        expect_true("the stalled peer blocked the socket (send_blocked > 0)", blocked > 0, "> 0", blocked)
        to_nic = [f for _, f in read_pcap(pcap) if f[11] == 9]
        expect("pcap: every frame of the peer reached the NIC, in order", inbound, to_nic)
        expect_true("socket path removed at the end", not os.path.exists(path), "no " + path, "still there")


def case_uart1_pty():
    """--uart1-pty: NIC 1's console on a pseudo-terminal whose path is on stderr."""
    live = Live("--nics", "2", "--uart1-pty")
    fd = None
    try:
        live.expect(re.escape(PROMPT), 30, "NIC 0's prompt")
        err = live.stderr()
        m = expect_re("stderr names the pty", r"NIC 1's UART is on (/dev/pts/\d+)", err)
        fd = os.open(m.group(1), os.O_RDWR | os.O_NOCTTY)
        buf, deadline = b"", time.monotonic() + 30
        while b"solonic> " not in buf and time.monotonic() < deadline:
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                buf += os.read(fd, 4096)
        expect_re("NIC 1's banner on the pty", r"sim_eth instance 1 [^\n]*\nsolonic> ", buf.decode("latin-1"))
        os.write(fd, b"stats\r")
        buf, deadline = b"", time.monotonic() + 30
        while b"solonic> " not in buf and time.monotonic() < deadline:
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                buf += os.read(fd, 4096)
        expect_re("NIC 1's answer on the pty", r"stats rx_frames=0 [^\n]*\nsolonic> ", buf.decode("latin-1"))
        expect("NIC 1's output is not on stdout", False, "instance 1" in live.out)
        rc = live.finish()
    finally:
        if fd is not None:
            os.close(fd)
        live.kill()
    expect("exit code", 0, rc)


def case_option_errors():
    """Bad Ethernet options are harness errors (exit 2) that name the problem."""
    busy = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    busy.bind(("127.0.0.1", 0))
    bport = busy.getsockname()[1]
    cases = [
        (["--nics", "17"], r"--nics is 1 to 16"),
        (["--nics", "3", "--uart3-log", "/tmp/x"], r"--uart3-in, -log and -pty need --nics 4"),
        (["--nics", "2", "--link", "1:drop=0.1"], r"need the switch"),
        (["--nics", "3", "--wire-back", "drop=0.1"], r"--wire-back needs --nics 2 without --switch"),
        (["--nics", "3", "--fabric", "kmin=9,kmax=8"], r"kmin must not exceed kmax"),
        (["--nics", "3", "--pfc", "xoff=10"], r"--pfc: needs both xoff=BYTES and xon=BYTES"),
        (["--nics", "3", "--link", "3:drop=0.1"], r"no such NIC"),
        (["--nics", "4", "--instance", "13"], r"goes past instance 15"),
        (["--eth0", "tcp:1:2"], r"--eth0 wants udp:LPORT:RPORT or unix:PATH:PEERPATH"),
        (["--eth0", "udp:0:70000"], r"ports are 1\.\.65535"),
        (["--eth0", f"udp:{bport}:9"], rf"cannot bind 127\.0\.0\.1:{bport}"),
        (["--eth0", "udp:1:2", "--wire", "drop=2"], r"--wire: wire option 'drop' is a probability"),
        (["--nics", "2", "--wire", "bogus=1"], r"unknown wire option 'bogus'"),
        (["--wire", "drop=0.1"], r"--wire needs --nics 2 or more, or --eth0"),
        (["--uart1-log", "/tmp/x"], r"need --nics 2"),
        (["--nics", "2", "--eth0", "udp:1:2"], r"--eth0 needs --nics 1"),
        (["--nics", "2", "--uart1-pty", "--uart1-in", "/dev/null"], r"exclude each other"),
        (["--pcap", "/nonexistent/dir/x.pcap"], r"--pcap: cannot write /nonexistent/dir/x\.pcap"),
    ]
    try:
        for opts, msg in cases:
            rc, out, err = run(*opts, max_cycles=1000)
            expect(f"exit code for {' '.join(opts)}", 2, rc)
            expect_re(f"message for {' '.join(opts)}", msg, err)
    finally:
        busy.close()


CASES = {
    "two_nics_exchange_frames": case_two_nics_exchange,
    "two_nics_line_rate_and_delay_in_pcap": case_two_nics_line_rate_and_delay,
    "two_nics_exit_codes": case_two_nics_exit_codes,
    "udp_peer_both_ways_byte_exact": case_udp_peer_both_ways,
    "udp_wire_faults_seeded": case_udp_wire_faults_seeded,
    "unix_backpressure_lossless": case_unix_backpressure_lossless,
    "uart1_pty": case_uart1_pty,
    "option_errors": case_option_errors,
}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test_eth.py --list | CASE")
    if sys.argv[1] == "--list":
        print("\n".join(CASES))
        return 0
    if sys.argv[1] not in CASES:
        sys.exit(f"test_eth.py: no case {sys.argv[1]!r}")
    t0 = time.monotonic()
    try:
        CASES[sys.argv[1]]()
    except Failure as e:
        print(f"FAIL {sys.argv[1]}: {e}")
        return 1
    except subprocess.TimeoutExpired as e:
        print(f"FAIL {sys.argv[1]}: the simulator ran longer than {TIMEOUT} s: {e.cmd}")
        return 1
    print(f"{sys.argv[1]}: passed ({time.monotonic() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
