#!/usr/bin/env python3
"""The RoCE and exchange commands of the firmware in the simulated NIC.

    test_qpx_console.py CASE     run one case, exit 0 on pass
    test_qpx_console.py --list   the case names

args_*: argument checking of every new command on today's SoC, which has no
RoCE transport: each command rejects bad arguments first (naming them), then
says "no RoCE transport".

xchg_*: the exchange itself (listen/connect --dry: no QP is programmed, so it
runs without the transport) against a peer built on Scapy on the NIC's
--eth0 udp port (127.0.0.1 only): the peer speaks TCP by hand and sends the
reference bytes of tests/data/*.decode.txt (its GID patched to its own
address), or garbage, a truncated message, an unsupported version, a close
halfway, a reset, or nothing at all.
"""
import ast
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "tests/mgmt"))

from scapy.layers.inet import IP, TCP  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402

from nicpeer import PEER_IP, PEER_MAC, NicPeer, nic_ip, nic_mac  # noqa: E402
from nicsim import PROMPT, Failure, Sim, check, check_true, tail, typed  # noqa: E402

PORT = 18515
DATA = os.path.join(ROOT, "tests/data")
NO_ROCE = "no RoCE transport (nothing answers at the roce register block)"


def exchange(name):
    """[(from_client, payload)] of the TCP exchange in tests/data/NAME.decode.txt."""
    out = []
    lines = open(os.path.join(DATA, name + ".decode.txt")).read().split("\n")
    for j, line in enumerate(lines):
        m = re.match(r"frame \d+\s+[\d.]+:(\d+) -> [\d.]+:(\d+) len=\d+$", line)
        if m:
            out.append((int(m.group(2)) == PORT, ast.literal_eval(lines[j + 1].strip())))
    return out


def patch_gid(msg, ip):
    """The reference message with its GID replaced by ip's IPv4-mapped GID."""
    a, b, c, d = (int(x) for x in ip.split("."))
    if len(msg) == 52:
        return msg[:19] + b"00000000000000000000ffff%02x%02x%02x%02x" % (a, b, c, d) + b"\x00"
    if len(msg) == 108:
        g = b":".join(b"%02x" % x for x in bytes(10) + b"\xff\xff" + bytes([a, b, c, d]))
        return msg[:50] + g + msg[97:]
    return msg


# ---- argument checking (no transport)

ARGS = [
    # (command line, expected output)
    ("qp", "qp: expected create [--pd N], list, show N, reset N, destroy N, clone N COUNT or rearm [N ...]"),
    ("qp frob", "qp: unknown subcommand 'frob' (create, list, show, reset, destroy, clone, rearm)"),
    ("qp create 5", "qp create: takes no arguments"),
    ("qp create --pd 300", "qp create: --pd: expected a protection domain 0..255, got 300"),
    ("qp create --pd 3 --pd 4", "qp create: --pd takes one N and comes last"),
    ("qp list x", "qp list: takes no arguments"),
    ("qp show", "qp show: expected a QPN"),
    ("qp show 1", "qp: QPN: expected 2..0xffffff (0 and 1 are not RC QPs), got 1"),
    ("qp reset 0x1000000", "qp: QPN: expected 2..0xffffff (0 and 1 are not RC QPs), got 0x1000000"),
    ("qp destroy zz", "qp: QPN: expected a number (decimal or 0x hex), got 'zz'"),
    ("qp create", "qp: " + NO_ROCE),
    ("qp create --pd 255", "qp: " + NO_ROCE),
    ("qp list", "qp: " + NO_ROCE),
    ("qp show 0x11", "qp: " + NO_ROCE),
    ("qp reset 17", "qp: " + NO_ROCE),
    ("mr", "mr: expected reg ADDR LEN [ACCESS] [--stream] [--pd N], list or dereg KEY"),
    ("mr reg 0x1000", "mr reg: expected ADDR LEN [ACCESS] [--stream] [--pd N]"),
    ("mr reg 0x1000 16 --pd -1", "mr reg: --pd: expected a number (decimal or 0x hex), got '-1'"),
    ("mr reg 0x1000 0", "mr: LEN: a region has at least one byte"),
    ("mr reg 0xffffffffffffffff 2", "mr: ADDR + LEN wraps around 2^64"),
    ("mr reg 0x10000000000000000 2", "mr: ADDR: 0x10000000000000000 does not fit in 64 bits"),
    ("mr reg 1x 2", "mr: ADDR: expected a number (decimal or 0x hex), got '1x'"),
    ("mr reg 0 4096 16", "mr: ACCESS: expected 0..0xf (bit 0 local write, 1 remote write, 2 remote read, "
                         "3 remote atomic), got 16"),
    ("mr dereg", "mr dereg: expected KEY"),
    ("mr dereg -1", "mr: KEY: expected a number (decimal or 0x hex), got '-1'"),
    ("mr list 1", "mr list: takes no arguments"),
    ("mr reg 0x100000 0x100000 0xf", "mr: " + NO_ROCE),
    ("mr reg 0x100000 0x100000 0xf --pd 9", "mr: " + NO_ROCE),
    ("mr list", "mr: " + NO_ROCE),
    ("mr dereg 0x101", "mr: " + NO_ROCE),
    ("write 0x11 0 0 0x100", "write: expected QPN LADDR RADDR RKEY LEN [--imm VALUE]"),
    ("write 1 0 0 0x100 8", "write: QPN: expected 2..0xffffff (0 and 1 are not RC QPs), got 1"),
    ("write 0x11 q 0 0x100 8", "write: LADDR: expected a number (decimal or 0x hex), got 'q'"),
    ("write 0x11 0 0x 0x100 8", "write: RADDR: expected a number (decimal or 0x hex), got '0x'"),
    ("write 0x11 0 0 0x100000000 8", "write: RKEY: 0x100000000 does not fit in 32 bits"),
    ("write 0x11 0 0 0x100 0x80000001", "write: LEN: at most 0x80000000 (2^31) bytes, got 0x80000001"),
    ("write 0x11 0xffffffffffffffff 0 1 2", "write: the buffer wraps around 2^64"),
    ("write 0x11 0x100000 0x200000 0x101 4096", "write: " + NO_ROCE),
    ("read 0x11 0 0 0x100", "read: expected QPN LADDR RADDR RKEY LEN"),
    ("read 0x11 0 0 0x100 8 9", "read: expected QPN LADDR RADDR RKEY LEN"),
    ("read 0x11 0x100000 0x200000 0x101 4096", "read: " + NO_ROCE),
    ("send 0x11 0", "send: expected QPN LADDR LEN [--imm VALUE]"),
    ("send 0x11 0 y", "send: LEN: expected a number (decimal or 0x hex), got 'y'"),
    ("send 0x11 0x100000 64", "send: " + NO_ROCE),
    ("recv 0x11 0x100000", "recv: expected QPN LADDR LEN"),
    ("recv 0 0x100000 64", "recv: QPN: expected 2..0xffffff (0 and 1 are not RC QPs), got 0"),
    ("recv 0x11 0x100000 64", "recv: " + NO_ROCE),
    ("atomic", "atomic: expected cas QPN LADDR RADDR RKEY COMPARE SWAP or fadd QPN LADDR RADDR RKEY ADD"),
    ("atomic swap 0x11 0 0 1 2", "atomic: expected cas QPN LADDR RADDR RKEY COMPARE SWAP or fadd QPN LADDR "
                                 "RADDR RKEY ADD"),
    ("atomic cas 0x11 0 0 1 2", "atomic cas: expected QPN LADDR RADDR RKEY COMPARE SWAP"),
    ("atomic fadd 0x11 0 0 1 2 3", "atomic fadd: expected QPN LADDR RADDR RKEY ADD"),
    ("atomic cas 0x11 0 4 1 2 3", "atomic: LADDR and RADDR must be 8-byte aligned"),
    ("atomic fadd 0x11 0x100004 0 1 2", "atomic: LADDR and RADDR must be 8-byte aligned"),
    ("atomic cas 0x11 0 0 1 2 x", "atomic: SWAP: expected a number (decimal or 0x hex), got 'x'"),
    ("atomic fadd 0x11 0 0 1 0x1ffffffffffffffff", "atomic: ADD: 0x1ffffffffffffffff does not fit in 64 bits"),
    ("atomic cas 0x11 0x100000 0x200000 0x101 0 1", "atomic: " + NO_ROCE),
    ("atomic fadd 0x11 0x100000 0x200000 0x101 1", "atomic: " + NO_ROCE),
    ("listen --tool", "listen: --tool needs a value"),
    ("listen --tool rping", "listen: --tool: expected pingpong or perftest, got 'rping'"),
    ("listen --test write", "listen: --test: expected write_bw, read_bw, send_bw, atomic_bw, write_lat, "
                            "read_lat, send_lat or atomic_lat, got 'write'"),
    ("listen --tool pingpong --test read_bw", "listen: --test is a perftest option (ibv_rc_pingpong has no "
                                              "tests to choose)"),
    ("listen --timeout 0", "listen: --timeout: expected 1..10000 ms, got 0"),
    ("listen --wait 600001", "listen: --wait: expected 1..600000 ms, got 600001"),
    ("listen --fast", "listen: unknown option '--fast' (see 'help listen')"),
    ("listen", "listen: " + NO_ROCE),
    ("listen --test send_lat", "listen: " + NO_ROCE),
    ("connect", "connect: expected IP [options] (see 'help connect')"),
    ("connect 10.0.0.256", "connect: IP: expected a dotted IPv4 address like 10.0.0.2, got '10.0.0.256'"),
    ("connect 10.0.0.2 --wait 5", "connect: --wait is a listen option"),
    ("connect 10.0.0.2 --idle 5", "connect: --idle is a listen option"),
    ("listen --idle 0", "listen: --idle: expected 1..3600000 ms, got 0"),
    ("listen --idle", "listen: --idle needs a value"),
    ("listen --qps 255", "listen: --qps: expected 1..254, got 255"),
    ("listen --qps 2", "listen: --qps is for perftest's bandwidth tests (write_bw, read_bw, send_bw, atomic_bw): "
                       "ibv_rc_pingpong and the latency tests use one QP"),
    ("connect 10.0.0.2 --test write_lat --qps 2", "connect: --qps is for perftest's bandwidth tests (write_bw, "
                                                  "read_bw, send_bw, atomic_bw): ibv_rc_pingpong and the latency tests use one QP"),
    ("listen --test write_bw --qps 2 --mtu 1024 --idle 5 --wait 9 --timeout 7", "listen: " + NO_ROCE),
    ("port now", "port: takes no arguments"),
    ("port", "port: " + NO_ROCE),
    ("listen --mtu 1500", "listen: --mtu: expected 256, 512, 1024, 2048 or 4096, got 1500"),
    ("connect 10.0.0.2 --mtu x", "connect: --mtu: expected a number (decimal or 0x hex), got 'x'"),
    ("connect 10.0.0.2 --timeout", "connect: --timeout needs a value"),
    ("connect 10.0.0.2 --tool perftest", "connect: " + NO_ROCE),
    ("qpx frob", "qpx: unknown subcommand 'frob' (status, finish, abort, disconnect [QPN])"),
    ("qpx status now", "qpx: too many arguments (status, finish, abort or disconnect [QPN])"),
    ("qpx", "qpx: no session"),
    ("qpx finish", "qpx: no perftest session is waiting for the end of its test"),
    ("qpx abort", "qpx: no session"),
]


def case_args_every_command():
    # an SoC without the transport: solonic_sim has it now, the mgmt SoC does not
    lines = [a for a, _ in ARGS]
    with Sim(typed(*lines, "stats"), max_cycles=60_000_000, sim=os.path.join(ROOT, "build/mgmt/Vtb_fw_mgmt")) as s:
        s.boot()
        for line, want in ARGS:
            check(f"output of {line!r}", want + "\n", s.reply(line))
        out = s.reply("stats")
        check_true("stats ends with the transport's line", out.endswith("roce    " + NO_ROCE + "\n"),
                   "roce    " + NO_ROCE, tail(out, 300))
        check("exit code", 0, s.wait_exit())


def case_args_help_lists_every_command():
    # the help texts are long: about 60 s of wall time on an idle machine (the wall bound only
    # catches a hang; the cycle bound is the run's)
    with Sim(typed("help", *[f"help {c}" for c in ("qp", "mr", "listen", "connect", "qpx")]),
             max_cycles=40_000_000, max_seconds=240) as s:
        s.boot()
        out = s.reply("help")
        for c in ("atomic", "connect", "listen", "mr", "port", "qp", "qpx", "read", "recv", "send", "write"):
            check_true(f"'help' lists {c}", re.search(rf"^  {c} ", out, re.M) is not None, c, tail(out))
        for c in ("qp", "mr"):
            s.reply(f"help {c}")
        out = s.reply("help listen")
        for opt in ("--wait MS", "--idle MS", "--qps N", "--mtu BYTES"):
            check_true(f"help listen explains {opt}", opt in out, opt, out)
        check_true("help connect explains --test", "--test write_bw" in s.reply("help connect"), "--test", "")
        s.reply("help qpx")
        check("exit code", 0, s.wait_exit())


# ---- a TCP peer by hand (Scapy frames through NicPeer)

class Tcp:
    """One TCP connection between the peer (PEER_IP) and the NIC's port 18515."""

    def __init__(self, n, peer_port, nic_port):
        self.n, self.pp, self.np = n, peer_port, nic_port
        self.seq = 1000
        self.ack = 0
        self.rx = b""
        self.fin = False
        self.rst = False

    def frame(self, flags, payload=b""):
        return (Ether(dst=nic_mac(), src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip()) /
                TCP(sport=self.pp, dport=self.np, flags=flags, seq=self.seq, ack=self.ack, window=8192) /
                payload)

    def mine(self, f):
        return (f.src == nic_mac() and TCP in f and f[TCP].sport == self.np and f[TCP].dport == self.pp)

    def accept(self):
        """The NIC connects to us (connect): SYN -> SYN/ACK -> ACK."""
        syn = self.n.expect(lambda f: f.src == nic_mac() and TCP in f and f[TCP].dport == PORT
                            and "S" in str(f[TCP].flags), "SYN from the NIC to port 18515")
        self.np = syn[TCP].sport
        self.ack = syn[TCP].seq + 1
        self.n.send(self.frame("SA"))
        self.seq += 1

    def refuse(self):
        syn = self.n.expect(lambda f: f.src == nic_mac() and TCP in f and f[TCP].dport == PORT,
                            "SYN from the NIC to port 18515")
        self.np = syn[TCP].sport
        self.ack = syn[TCP].seq + 1
        self.seq = 0
        self.n.send(self.frame("RA"))

    def connect(self):
        """We connect to the NIC (listen)."""
        self.n.send(self.frame("S"))
        sa = self.n.expect(lambda f: self.mine(f) and str(f[TCP].flags) == "SA", "SYN/ACK from the NIC")
        self.seq += 1
        self.ack = sa[TCP].seq + 1
        self.n.send(self.frame("A"))

    def send(self, data):
        self.n.send(self.frame("PA", data))
        self.seq += len(data)

    def close(self):
        self.n.send(self.frame("FA"))
        self.seq += 1

    def _take(self, f):
        t = f[TCP]
        n = f[IP].len - 4 * f[IP].ihl - 4 * t.dataofs  # without the Ethernet padding
        data = bytes(t.payload)[:n]
        if "R" in str(t.flags):
            self.rst = True
            return
        if data and t.seq == self.ack:
            self.rx += data
            self.ack += len(data)
        if "F" in str(t.flags) and t.seq + len(data) == self.ack:
            self.ack += 1
            self.fin = True
        if data or "F" in str(t.flags):
            self.n.send(self.frame("A"))

    def recv(self, size, what):
        """Exactly size bytes from the NIC."""
        while len(self.rx) < size:
            self._take(self.n.expect(self.mine, f"{what}: data from the NIC ({len(self.rx)} of {size} bytes)"))
        data, self.rx = self.rx[:size], self.rx[size:]
        return data

    def expect_end(self, what, want_rst=False):
        """The NIC closes (FIN, or RST when want_rst) and sends nothing more."""
        while not (self.fin or self.rst):
            self._take(self.n.expect(self.mine, what))
        check(f"{what}: extra bytes", b"", self.rx)
        if want_rst:
            check_true(what, self.rst or self.fin, "RST or FIN", "")


class SimPeer(NicPeer):
    """NicPeer (on $SOLONIC_NIC_SIM) whose frames are padded to Ethernet's 60-byte minimum, as
    a real peer's MAC pads them."""

    def send(self, pkt):
        data = bytes(pkt)
        self.sock.sendto(data + bytes(max(0, 60 - len(data))), ("127.0.0.1", self.nic_port))


def start(keys, keep_stdin=False):
    """The NIC and its peer: on $SOLONIC_NIC_SIM (solonic_sim) when set, else on
    build/mgmt/Vtb_fw_mgmt (the SoC with the management buffers), as tests/mgmt does
    until solonic_sim's --eth0 delivers received frames to the firmware. With
    keep_stdin the test types more lines later (n.sim.send)."""
    if os.environ.get("SOLONIC_NIC_SIM"):
        n = SimPeer(keys, max_cycles=300_000_000, max_seconds=400, keep_stdin=keep_stdin)
    else:
        n = NicPeer(keys, max_cycles=300_000_000, max_seconds=400, keep_stdin=keep_stdin)
    n.boot()
    return n


def reply_of(n, line, pattern):
    """Wait for the echo of line, then for pattern in its output; return the match."""
    n.sim.expect(re.escape(line) + r"\n", what=f"echo of {line!r}")
    return n.sim.expect(pattern, what=f"output of {line!r}")


PP_LOCAL = r"local address: LID 0x0000, QPN 0x000011, PSN 0x([0-9a-f]{6}), GID ::ffff:10\.0\.0\.1\n"


def check_pp_dest(msg, what):
    """Our 52-byte destination: the reference format with our GID (::ffff:10.0.0.1)."""
    m = re.fullmatch(rb"0000:000011:([0-9a-f]{6}):00000000000000000000ffff0a000001\x00", msg)
    check_true(what, m is not None, "b'0000:000011:PSN:00000000000000000000ffff0a000001\\x00'", repr(msg))
    return int(m.group(1), 16)


def case_xchg_pingpong_client_reference():
    ref = exchange("rc_pingpong")
    server_msg = patch_gid([p for c, p in ref if not c][0], PEER_IP)
    line = f"connect {PEER_IP} --dry"
    with start(typed(line, "qpx")) as n:
        t = Tcp(n, PORT, 0)
        t.accept()
        psn = check_pp_dest(t.recv(52, "client destination"), "the NIC's destination")
        m = reply_of(n, line, PP_LOCAL)
        check("PSN printed and sent", psn, int(m.group(1), 16))
        t.send(server_msg)
        check("the client's last message", b"done\x00", t.recv(5, "done"))
        t.expect_end("the NIC closes after done")
        out = n.sim.upto_prompt("connect output")
        for want in ["remote address: LID 0x0000, QPN 0x000011, PSN 0x283fa3, GID ::ffff:10.0.0.100",
                     "would be: peer 10.0.0.100 02:00:00:00:00:64, QPN 0x11, PMTU 1024, UDP source port 49441",
                     "qpx: pingpong exchange with 10.0.0.100 done"]:
            check_true("connect output", want in out, want, out)
        check("qpx after the exchange", "qpx: no session\n", n.sim.reply("qpx"))


def case_xchg_pingpong_server_reference():
    """Our server against the client side of rc_pingpong.decode.txt. The NIC closes first,
    the peer then closes: the NIC's end sits in TIME_WAIT, and the next listen binds port
    18515 all the same (SO_REUSEADDR)."""
    client_msg = patch_gid([p for c, p in exchange("rc_pingpong") if c][0], PEER_IP)
    line = "listen --dry --wait 500"
    with start(typed(line, "listen --dry --wait 1")) as n:
        reply_of(n, line, PP_LOCAL)
        t = Tcp(n, 40000, PORT)
        t.connect()
        t.send(client_msg)
        check_pp_dest(t.recv(52, "server destination"), "the NIC's answer")
        t.send(b"done\x00")
        t.expect_end("the NIC closes after done")
        t.close()
        out = n.sim.upto_prompt("listen output")
        for want in ["remote address: LID 0x0000, QPN 0x000011, PSN 0xc93ca0, GID ::ffff:10.0.0.100",
                     "qpx: pingpong exchange with 10.0.0.100 done"]:
            check_true("listen output", want in out, want, out)
        out = n.sim.reply("listen --dry --wait 1")
        check_true("a listen right after the exchange", "no client connected to port 18515 within 1 ms" in out,
                   "no client ... within 1 ms (not 'in use')", out)


def check_pt_dest_qp(msg, what, qpn, vaddr):
    m = re.fullmatch(rb"0000:0001:%06x:([0-9a-f]{6}):00000000:%016x:" % (qpn, vaddr) +
                     rb"00:00:00:00:00:00:00:00:00:00:ff:ff:0a:00:00:01:00000000:\x00", msg)
    check_true(what, m is not None, f"QPN {qpn:#x}, VADDR {vaddr:#x}, GID 10.0.0.1", repr(msg))
    return msg


def case_xchg_perftest_server_two_qps():
    """listen --qps 2 against the client side of ib_write_bw -q 2 (write_bw_2qp.decode.txt):
    both destinations (QPN 0x11 and 0x12, each with its half of the buffer), twice, the
    barrier, the end of the test; a second client destination that disagrees is refused."""
    ref = exchange("write_bw_2qp")
    client = [patch_gid(p, PEER_IP) for c, p in ref if c]
    server = [p for c, p in ref if not c]
    line = "listen --test write_bw --qps 2 --dry --wait 500"
    with start(typed(line, exit_code=None)) as n:
        n.sim.expect(re.escape(line) + r"\n", what="echo")
        t = Tcp(n, 40006, PORT)
        t.connect()
        dests = 0
        for i, sm, got in replay(t, client, server):
            if len(sm) == 108:
                # items 4-7: QP 0, QP 1, QP 0, QP 1; later barriers repeat QP 0
                k = dests % 2 if dests < 4 else 0
                check_pt_dest_qp(got, f"server destination {dests} (QP {k})", 0x11 + k, 0x100000 + k * 0x800000)
                dests += 1
            if dests == 5 and len(sm) == 108:
                n.sim.expect(r"write_bw server with 10\.0\.0\.100 ready", what="ready line")
        check("destination items the server sent", 7, dests)
        check("the server's done", b"done\x00", t.recv(5, "done"))
        t.send(b"done\x00")
        t.expect_end("the NIC closes after done")
        out = n.sim.text
        for qpn in (0x11, 0x12):
            check_true(f"dry run line for the peer's QP {qpn:#x}",
                       re.search(rf"would be: peer 10\.0\.0\.100 [0-9a-f:]+, QPN {qpn:#x}, PMTU 1024,", out) is not None,
                       f"would be: ... QPN {qpn:#x}", out)
        n.sim.expect(r"write_bw end-of-test exchange with 10\.0\.0\.100 done", what="end line")


def case_xchg_perftest_read_client_write_listen():
    """A read_bw client (OUT 0x80) against listen --test write_bw: named at its destination."""
    client = [patch_gid(p, PEER_IP) for c, p in exchange("read_bw") if c]

    def act(t):
        for cm in client[:4]:
            t.send(cm)
            t.recv(len(cm), "server item")
        t.send(client[4])
    failing_listen("--test write_bw", act, "the peer runs a READ or atomic test (its destination has OUT 128), not write_bw")


def case_xchg_perftest_two_qps_expected_one():
    """A -q 2 client against a plain listen: the second destination is refused, with the fix."""
    ref = exchange("write_bw_2qp")
    client = [patch_gid(p, PEER_IP) for c, p in ref if c]

    def act(t):
        for cm in client[:5]:
            t.send(cm)
            t.recv(len(cm), "server item")
        t.send(client[5])
    failing_listen("--test write_bw", act, "bad perftest destination from the peer: perftest barrier: the peer's "
                   "destination changed (a peer with -q 2 or more needs --qps N here)")


def perftest_server_mtu(opts, peer_offer, want_offer, want_pmtu):
    """A write_bw client whose MTU item offers peer_offer (IB enum digit): the NIC's
    answer and the path MTU it would program."""
    ref = exchange("write_bw")
    client = [patch_gid(p, PEER_IP) for c, p in ref if c]
    server = [p for c, p in ref if not c]
    line = f"listen --test write_bw --dry --wait 500 {opts}".strip()
    with start(typed(line, exit_code=None)) as n:
        n.sim.expect(re.escape(line) + r"\n", what="echo")
        t = Tcp(n, 40005, PORT)
        t.connect()
        for i, (cm, sm) in enumerate(zip(client, server)):
            if len(cm) == 2:
                cm = peer_offer + b"\x00"
            t.send(cm)
            got = t.recv(len(sm), f"server item {i}")
            if len(sm) == 2:
                check(f"the NIC's MTU offer ({line})", want_offer + b"\x00", got)
            if i == 6:
                break
        m = n.sim.expect(r"would be: [^\n]*PMTU (\d+),", what="the path MTU the exchange chose")
        check(f"path MTU ({line}, the peer offers {peer_offer.decode()})", want_pmtu, int(m.group(1)))


def case_xchg_perftest_mtu_jumbo_peer():
    """A jumbo peer (rxe active_mtu 4096 offers 5): 4096 without any flag."""
    perftest_server_mtu("", b"5", b"5", 4096)


def case_xchg_perftest_mtu_capped():
    """--mtu 2048 against a jumbo peer: the NIC offers 2048 (enum 4) and uses it."""
    perftest_server_mtu("--mtu 2048", b"5", b"4", 2048)


def case_xchg_peer_silent_during_test():
    """A perftest client that goes silent once the test runs (its host vanished):
    the NIC's server ends the session after --idle ms by itself, says why, and
    serves the next listen."""
    ref = exchange("write_bw")
    client = [patch_gid(p, PEER_IP) for c, p in ref if c]
    server = [p for c, p in ref if not c]
    line = "listen --test write_bw --dry --wait 500 --idle 3"
    with start(typed(line, exit_code=None), keep_stdin=True) as n:
        n.sim.expect(re.escape(line) + r"\n", what="echo")
        t = Tcp(n, 40004, PORT)
        t.connect()
        for i, (cm, sm) in enumerate(zip(client, server)):
            t.send(cm)
            t.recv(len(sm), f"server item {i}")
            if i == 6:
                break
        n.sim.expect(r"write_bw server with 10\.0\.0\.100 ready", what="ready line")
        n.sim.upto_prompt("listen returns while the test runs")
        m = n.sim.expect(r"(qpx: [^\n]*)\n", what="the session's end")
        want = "qpx: the peer went silent: no TCP data and no RoCE packet for 3 ms (--idle)"
        check("the session's end", want, m.group(1))
        t.expect_end("the NIC drops the connection", want_rst=True)
        n.sim.send(typed("qpx", "listen --dry --wait 1"))
        check("after the silence", "qpx: no session\n", n.sim.reply("qpx"))
        out = n.sim.reply("listen --dry --wait 1")
        check_true("a new listen works", "no client connected to port 18515 within 1 ms" in out,
                   "no client ... within 1 ms", out)


def replay(t, client, server):
    """Send the client's items up to its "done"; yield (i, the reference server item, what
    the NIC answered in its place)."""
    for i, (cm, sm) in enumerate(zip(client, server)):
        if len(cm) == 5:
            return
        t.send(cm)
        yield i, sm, t.recv(len(sm), f"server item {i}")


def check_pt_dest(msg, what, out_reads=1):
    m = re.fullmatch(rb"0000:%04x:000011:([0-9a-f]{6}):00000000:0000000000100000:" % out_reads +
                     rb"00:00:00:00:00:00:00:00:00:00:ff:ff:0a:00:00:01:00000000:\x00", msg)
    check_true(what, m is not None, "LID:OUT:QPN:PSN:RKEY:VADDR:GID(10.0.0.1):SRQN: + NUL", repr(msg))
    return msg


def case_xchg_perftest_client_write_bw_reference():
    """Our client against a peer replaying the server side of write_bw.decode.txt."""
    ref = exchange("write_bw")
    server = [patch_gid(p, PEER_IP) for c, p in ref if not c]
    client = [p for c, p in ref if c]
    line = f"connect {PEER_IP} --test write_bw --dry"
    with start(typed(line, "qpx finish", "qpx")) as n:
        t = Tcp(n, PORT, 0)
        t.accept()
        ours = None
        for i, (cm, sm) in enumerate(zip(client, server)):
            got = t.recv(len(cm), f"client item {i}")
            if len(cm) == 108:
                ours = ours or check_pt_dest(got, f"client destination {i}")
                check(f"client barrier {i} repeats the destination", ours, got)
            elif len(cm) == 8:
                pass  # our own report: checked below
            elif len(cm) == 2:
                check(f"client item {i}: the NIC offers MTU 4096 (enum 5)", b"5\x00", got)
            else:
                check(f"client item {i} (version / system data / done)", cm, got)
            if i < len(server) - 1 or len(sm) != 5:
                t.send(sm)
            if i == 6:
                n.sim.expect(r"write_bw client with 10\.0\.0\.100 ready", what="ready line")
        t.send(b"done\x00")
        t.expect_end("the NIC closes after done")
        m = re.search(r"would be: [^\n]*PMTU (\d+),", n.sim.text)
        check("path MTU: the peer (rxe, 1500-byte link) offered 1024", "1024", m and m.group(1))
        n.sim.expect(r"qpx finish\n", what="echo of qpx finish")
        out = n.sim.upto_prompt("finish output")
        check_true("finish output", "qpx: write_bw end-of-test exchange with 10.0.0.100 done" in out,
                   "end-of-test done", out)


def case_xchg_perftest_server_read_bw_reference():
    """Our server against a peer replaying the client side of read_bw.decode.txt."""
    ref = exchange("read_bw")
    client = [patch_gid(p, PEER_IP) for c, p in ref if c]
    server = [p for c, p in ref if not c]
    line = "listen --test read_bw --dry --wait 500"
    with start(typed(line, exit_code=None)) as n:  # the end-of-test runs after listen returned
        n.sim.expect(re.escape(line) + r"\n", what="echo")
        t = Tcp(n, 40001, PORT)
        t.connect()
        ours = None
        for i, sm, got in replay(t, client, server):
            if len(sm) == 108:
                ours = ours or check_pt_dest(got, f"server destination {i}")
                check(f"server barrier {i} repeats the destination", ours, got)
            elif len(sm) == 2:
                check(f"server item {i}: the NIC offers MTU 4096 (enum 5)", b"5\x00", got)
            elif len(sm) != 8:
                check(f"server item {i}", sm, got)
            if i == 6:
                n.sim.expect(r"read_bw server with 10\.0\.0\.100 ready", what="ready line")
        check("the server's done", b"done\x00", t.recv(5, "done"))
        t.send(b"done\x00")
        t.expect_end("the NIC closes after done")
        n.sim.expect(r"the peer's report: 2048-byte messages x 5, BW average [0-9.]+ MB/s",
                     what="the client's report, decoded")
        n.sim.expect(r"read_bw end-of-test exchange with 10\.0\.0\.100 done", what="end line")


# ---- failures: one line each, and the NIC keeps serving

def failing_listen(opts, peer_actions, want, keys_after=("qpx",), nic_closes=True):
    line = f"listen --dry --wait 500 {opts}".strip()
    with start(typed(line, *keys_after, "listen --dry --wait 1")) as n:
        n.sim.expect(re.escape(line) + r"\n", what="echo")
        t = Tcp(n, 40002, PORT)
        t.connect()
        peer_actions(t)
        m = n.sim.expect(r"(qpx: [^\n]*)\n" + re.escape(PROMPT), what="the failure line")
        check_true("failure message", want in m.group(1), want, m.group(1))
        if nic_closes:
            t.expect_end("the NIC drops the connection", want_rst=True)
        check("after the failure", "qpx: no session\n", n.sim.reply("qpx"))
        out = n.sim.reply("listen --dry --wait 1")
        check_true("a new listen works", "no client connected to port 18515 within 1 ms" in out,
                   "no client ... within 1 ms", out)


def case_xchg_garbage_destination():
    failing_listen("", lambda t: t.send(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" + b"x" * 24 + b"\x00"),
                   "bad pingpong destination from the peer: pingpong destination: LID: expected 4 hex digits")


def case_xchg_truncated_then_close():
    msg = patch_gid([p for c, p in exchange("rc_pingpong") if c][0], PEER_IP)

    def act(t):
        t.send(msg[:20])
        t.close()
    failing_listen("", act, "the peer closed the connection after 20 of 52 bytes of the pingpong destination")


def case_xchg_unsupported_version():
    failing_listen("--test write_bw", lambda t: t.send(b"5.60" + bytes(12)),
                   "bad perftest version from the peer: perftest version: unsupported")


def case_xchg_closed_halfway():
    ref = exchange("write_bw")

    def act(t):
        t.send(ref[0][1])
        t.recv(16, "version")
        t.close()
    failing_listen("--test write_bw", act,
                   "the peer closed the connection after 0 of 4 bytes of the perftest cycle buffer size")


def case_xchg_reset_halfway():
    def act(t):
        t.send(b"6.06" + bytes(12))
        t.recv(16, "version")
        t.n.send(t.frame("R"))
    failing_listen("--test send_bw", act, "the peer reset the connection", nic_closes=False)


def case_xchg_peer_never_answers():
    line = f"connect {PEER_IP} --dry --timeout 3"
    with start(typed(line, "qpx")) as n:
        t = Tcp(n, PORT, 0)
        t.accept()
        t.recv(52, "client destination")
        m = n.sim.expect(r"(qpx: [^\n]*)\n" + re.escape(PROMPT), what="the failure line")
        want = "timeout: no pingpong destination from the peer within 3 ms (got 0 of 52 bytes)"
        check_true("failure message", want in m.group(1), want, m.group(1))
        check("after the failure", "qpx: no session\n", n.sim.reply("qpx"))


def case_xchg_connection_refused():
    line = f"connect {PEER_IP} --dry --test write_lat"
    with start(typed(line)) as n:
        Tcp(n, PORT, 0).refuse()
        m = n.sim.expect(r"(qpx: [^\n]*)\n" + re.escape(PROMPT), what="the failure line")
        want = "cannot connect to 10.0.0.100 port 18515: refused (nothing listens there)"
        check_true("failure message", want in m.group(1), want, m.group(1))


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print(f"usage: {sys.argv[0]} --list | CASE ({', '.join(CASES)})", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    try:
        CASES[sys.argv[1]]()
    except Failure as e:
        print(f"FAIL {sys.argv[1]}: {e}")
        return 1
    print(f"PASS {sys.argv[1]} ({time.monotonic() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
