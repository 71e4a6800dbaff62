"""The management path under abuse (fw/README.md, "The management port under abuse").

One simulator run drives each attack against the echo service (TCP 7) and the QP
exchange (TCP 18515, the NIC as ibv_rc_pingpong's server) and then does a real
exchange, Scapy playing every peer: a SYN flood from many addresses and ports,
connections that complete the handshake and say nothing, garbage and an oversized
bogus exchange message, a RST storm, oversized frames and IP fragments. At the
end lwIP's pools, heap and PCB counts in `stats` are back to the values read at
the start (TIME_WAIT connections excepted: lwIP reuses them on demand)."""
import os
import random
import re
import sys

from scapy.layers.inet import IP, TCP, UDP, fragment
from scapy.layers.l2 import Ether

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nicpeer import PEER_IP, PEER_MAC, NicPeer, is_from_nic, nic_ip, nic_mac  # noqa: E402
from nicsim import Failure, check, check_true  # noqa: E402

ECHO = 7
QPX = 18515
POOL = 6       # MEMP_NUM_TCP_PCB (fw/net/lwipopts.h): stats says "of 6"
IDLE_MS = 1    # the idle bound the test sets with 'tcp idle' to end connections (simulated ms:
               # seconds of wall time); while connections must live it sets 10000 again
FLOOD = 8      # SYNs per port in the flood (more than the pool's PCBs), from as many addresses
# the flood's sources: hosts on the link the peer answers ARP for
HOSTS = [(f"10.0.0.{101 + i}", f"02:00:00:00:01:{i:02x}") for i in range(FLOOD)]


# ---------------------------------------------------------------- stats
def read_stats(n):
    """`stats` -> {name: int}: lwIP's table rows as ip.drop etc., the pools as memp.<pool>.used,
    every 'name N' pair of the other lines under the line's first word."""
    n.sim.send("stats\n")
    out = n.sim.reply("stats")
    cols = ("xmit", "recv", "drop", "chkerr", "lenerr", "memerr", "rterr", "proterr", "err")
    d = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 10 and all(x.isdigit() for x in w[1:]):
            d.update({f"{w[0]}.{c}": int(v) for c, v in zip(cols, w[1:])})
        elif len(w) == 6 and w[0] == "memp" and all(x.isdigit() for x in w[2:]):
            d.update({f"memp.{w[1]}.{c}": int(v) for c, v in zip(("used", "max", "avail", "err"), w[2:])})
        else:
            for a, b in zip(w[1:], w[2:]):
                if re.fullmatch(r"[a-z_0-9]+", a) and b.isdigit():
                    d[f"{w[0]}.{a}"] = int(b)
    for k in ("tcp.active", "tcp.time_wait", "tcp.listening", "heap.used", "memp.tcp_pcb.used"):
        check_true(f"stats prints {k}", k in d, k, out)
    return d


def idle_view(d):
    """What must come back: every pool's use (TCP PCBs less those in TIME_WAIT), the heap,
    the connections and listeners."""
    v = {k: x for k, x in d.items() if k.startswith("memp.") and k.endswith(".used")}
    # lwIP's own timers (ARP, TCP): the TCP timer runs while any PCB exists and stops at
    # its next tick (250 ms) after the last one went; no traffic makes more of them
    v.pop("memp.sys_timeout.used", None)
    v["memp.tcp_pcb.used"] -= d["tcp.time_wait"]
    v.update({k: d[k] for k in ("heap.used", "tcp.active", "tcp.listening")})
    return v


def tcp_table(n, line="tcp"):
    """`tcp` (far shorter than `stats`, which costs 600k cycles of UART output) ->
    ({bound, half_open_evicted, idle_aborted}, [(state, local port, peer)])."""
    n.sim.send(line + "\n")
    out = n.sim.reply(line)
    m = re.search(r"tcp: idle bound (\d+) ms, half_open_evicted (\d+) idle_aborted (\d+)", out)
    check_true("tcp: the first line", m is not None, "tcp: idle bound N ms, half_open_evicted N idle_aborted N", out)
    rows = re.findall(r"^([A-Z_0-9]+)[ \t]+(\d+)(?:[ \t]+(\S+))?", out, re.M)
    c = dict(zip(("bound", "half_open_evicted", "idle_aborted"), (int(x) for x in m.groups())))
    return c, [(s, int(p), peer) for s, p, peer in rows]


def set_idle(n, ms):
    t, rows = tcp_table(n, f"tcp idle {ms}")
    check(f"tcp idle {ms}: the bound", ms, t["bound"])
    return t, rows


# ---------------------------------------------------------------- a TCP peer in Scapy
class Conn:
    """One TCP connection of the peer (or of a host in HOSTS) to the NIC; every byte the NIC
    sends is acknowledged."""

    def __init__(self, n, dport, sport, host=(PEER_IP, PEER_MAC)):
        self.n, self.dport, self.sport = n, dport, sport
        self.ip, self.mac = host
        self.snd = random.randrange(1 << 31)
        self.rcv = 0
        self.got = b""
        self.fin = False

    def seg(self, flags, payload=b"", seq=None, ack=None):
        t = TCP(sport=self.sport, dport=self.dport, flags=flags, seq=self.snd if seq is None else seq,
                ack=self.rcv if ack is None else ack, window=8192)
        if flags == "S":
            t.options = [("MSS", 1460)]
        return Ether(dst=nic_mac(), src=self.mac) / IP(src=self.ip, dst=nic_ip()) / t / payload

    def mine(self, f):
        return (is_from_nic(f) and TCP in f and f[IP].dst == self.ip and f[TCP].sport == self.dport
                and f[TCP].dport == self.sport)

    def syn(self):
        self.n.send(self.seg("S"))

    def synack(self, what):
        sa = self.n.expect(lambda f: self.mine(f) and str(f[TCP].flags) == "SA", what)
        check(f"{what}: acknowledges the SYN", (self.snd + 1) & 0xffffffff, sa[TCP].ack)
        self.snd = (self.snd + 1) & 0xffffffff
        self.rcv = (sa[TCP].seq + 1) & 0xffffffff
        return sa

    def open(self, what):
        self.syn()
        self.synack(f"{what}: SYN/ACK")
        self.n.send(self.seg("A"))
        return self

    def send(self, data, fin=False):
        self.n.send(self.seg("PA" + ("F" if fin else ""), data))
        self.snd = (self.snd + len(data) + (1 if fin else 0)) & 0xffffffff

    def _take(self, f):
        t = f[TCP]
        data = bytes(t.payload)[:f[IP].len - 4 * f[IP].ihl - 4 * t.dataofs]
        if t.seq == self.rcv and data:
            self.got += data
            self.rcv = (self.rcv + len(data)) & 0xffffffff
        if "F" in str(t.flags) and (t.seq + len(data)) & 0xffffffff == self.rcv:
            self.fin = True
            self.rcv = (self.rcv + 1) & 0xffffffff
        if data or "F" in str(t.flags):
            self.n.send(self.seg("A"))

    def recv(self, nbytes, what):
        while len(self.got) < nbytes:
            self._take(self.n.expect(lambda f: self.mine(f) and (len(f[TCP].payload) > 0 or "F" in
                                                                  str(f[TCP].flags)), what))
            check_true(f"{what}: no FIN before the data", len(self.got) >= nbytes or not self.fin,
                       f"{nbytes} bytes", f"{len(self.got)} bytes and a FIN")
        out, self.got = self.got[:nbytes], self.got[nbytes:]
        return out

    def close(self, what):
        """Our FIN, then the NIC's (the echo and the exchange close when the peer does)."""
        self.send(b"", fin=True)
        while not self.fin:
            self._take(self.n.expect(lambda f: self.mine(f) and "F" in str(f[TCP].flags), what))

    def expect_rst(self, what):
        return self.n.expect(lambda f: self.mine(f) and "R" in str(f[TCP].flags), what)


def echo_round(n, sport, data, what):
    c = Conn(n, ECHO, sport).open(what)
    c.send(data)
    check(f"{what}: the echo", data.hex(), c.recv(len(data), f"{what}: the echo").hex())
    c.close(f"{what}: the NIC's FIN")


# ---------------------------------------------------------------- the exchange (ibv_rc_pingpong)
def pp_dest(qpn, psn, ip=PEER_IP):
    a = [int(x) for x in ip.split(".")]
    gid = "00000000000000000000ffff" + "".join(f"{x:02x}" for x in a)
    return f"0000:{qpn:06x}:{psn:06x}:{gid}".encode() + b"\0"


def start_listen(n, opts=""):
    line = ("listen " + opts).strip()
    n.sim.send(line + "\n")
    n.sim.expect(re.escape(line) + r"\n", what=f"echo of {line!r}")


def real_exchange(n, sport, what, listening=False):
    """The NIC listens; the peer connects as ibv_rc_pingpong's client: its destination, the
    NIC's (decoded and checked), "done" with the FIN, as rdma-core's client closes at once."""
    if not listening:
        start_listen(n)
    c = Conn(n, QPX, sport).open(f"{what}: the client's handshake")
    psn = random.randrange(1 << 24)
    c.send(pp_dest(0x100, psn))
    got = c.recv(52, f"{what}: the NIC's destination")
    m = re.fullmatch(rb"([0-9a-f]{4}):([0-9a-f]{6}):([0-9a-f]{6}):([0-9a-f]{32})\0", got)
    check_true(f"{what}: the NIC's destination", m is not None, "LID:QPN:PSN:GID and a NUL", got)
    check(f"{what}: the NIC's GID", "00000000000000000000ffff0a000001", m.group(4).decode())
    c.send(b"done\0", fin=True)
    while not c.fin:
        c._take(n.expect(lambda f: c.mine(f) and "F" in str(f[TCP].flags), f"{what}: the NIC's FIN"))
    out = n.sim.upto_prompt(f"{what}: the end of listen")
    check_true(f"{what}: the console", f"qpx: pingpong exchange with {PEER_IP} done" in out,
               "qpx: pingpong exchange with 10.0.0.100 done", out)
    check_true(f"{what}: the peer's QP in the console", "QPN 0x100," in out, "QPN 0x100", out)


def failed_exchange(n, what, opts, act, want):
    """listen, then a client that misbehaves (act(conn)): the console says want, the NIC resets."""
    start_listen(n, opts)
    c = Conn(n, QPX, random.randrange(46000, 47000)).open(f"{what}: handshake")
    act(c)
    c.expect_rst(f"{what}: the NIC's RST")
    out = n.sim.upto_prompt(f"{what}: the end of listen")
    check_true(f"{what}: the console line", re.search(want, out) is not None, f"/{want}/", out)


# ---------------------------------------------------------------- the test
def test_attacks_leave_the_port_to_the_next_exchange_and_lwip_back_at_idle():
    random.seed(15)
    with NicPeer(keep_stdin=True, max_cycles=2_000_000_000, max_seconds=600) as n:
        n.hosts.update(HOSTS)
        n.boot()
        idle = read_stats(n)
        base = idle_view(idle)
        t0, _ = tcp_table(n)
        check("the idle bound at boot (NET_TCP_IDLE_MS)", 10000, t0["bound"])

        # 1. SYN flood: FLOOD SYNs on 7 and on 18515 (while it listens), each from its own
        # address and port, never completed; each SYN beyond the pool's PCBs evicts the
        # oldest half-open connection, so the real client's SYN gets in at once
        for i, h in enumerate(HOSTS):
            c = Conn(n, ECHO, 50000 + i, h)
            c.syn()
            c.synack(f"flood on 7: SYN/ACK to {h[0]}")
        start_listen(n)
        for i, h in enumerate(HOSTS):
            c = Conn(n, QPX, 51000 + i, h)
            c.syn()
            c.synack(f"flood on 18515: SYN/ACK to {h[0]}")
        real_exchange(n, 45000, "exchange after the SYN flood", listening=True)
        echo_round(n, 45001, b"after the flood", "echo after the SYN flood")
        t, rows = tcp_table(n)
        check("half-open connections evicted: every PCB taken beyond the pool's evicts one "
              "(2 x FLOOD + 1 - POOL)", 2 * FLOOD + 1 - POOL, t["half_open_evicted"] - t0["half_open_evicted"])
        half_open = sum(1 for st, _, _ in rows if st == "SYN_RCVD")
        check_true("half-open connections left by the flood", half_open > 0, "> 0", rows)
        # the idle bound ends them
        set_idle(n, IDLE_MS)
        for _ in range(20):
            t2, rows = tcp_table(n)
            if not any(st == "SYN_RCVD" for st, _, _ in rows):
                break
        check("half-open connections after the idle bound", [], [r for r in rows if r[0] == "SYN_RCVD"])
        check("half-open connections aborted after the idle bound", half_open,
              t2["idle_aborted"] - t["idle_aborted"])

        # 2. silent connections: POOL connections to the echo port complete the handshake and
        # say nothing; they hold every PCB, so a new SYN finds none; the idle bound aborts them
        # (a RST each) and the client's next SYN gets in
        set_idle(n, 10000)
        silent = [Conn(n, ECHO, 52000 + i).open(f"silent connection {i}") for i in range(POOL)]
        late = Conn(n, ECHO, 52100)
        late.syn()
        t, rows = tcp_table(n)
        check("connections in the pool: the silent ones", [(52000 + i) for i in reversed(range(POOL))],
              [int(peer.split(":")[1]) for st, p, peer in rows if st == "ESTABLISHED"])
        set_idle(n, IDLE_MS)
        seen, reset = [], set()
        while len(reset) < len(silent):
            f = n.expect(lambda f: seen.append(f) or any(c.mine(f) and "R" in str(f[TCP].flags) for c in silent),
                         f"the RSTs ending the silent connections (got {sorted(reset)})")
            reset.add(f[TCP].dport)
        t2, _ = set_idle(n, 10000)
        check("silent connections aborted", POOL, t2["idle_aborted"] - t["idle_aborted"])
        check("answers to the SYN that found the pool full (dropped: no PCB for it)", [],
              [f.summary() for f in seen if late.mine(f)])
        late.syn()  # the client's retransmission
        late.synack("the retried SYN after the silent connections")
        late.n.send(late.seg("A"))
        late.send(b"late")
        check("echo after the silent connections", b"late", late.recv(4, "echo after the silent connections"))
        late.close("the NIC's FIN after the echo")
        # ... and on the exchange port: the session's step timeout (--timeout) ends it
        failed_exchange(n, "silent exchange client", "--timeout 1", lambda c: None,
                        r"qpx: timeout: no pingpong destination from the peer within 1 ms")
        real_exchange(n, 45002, "exchange after a silent client")

        # 3. garbage: random bytes to the echo come back; to the exchange, a malformed
        # destination and an oversized bogus message end the session with a console line
        junk = bytes(random.randrange(256) for _ in range(700))
        echo_round(n, 45003, junk, "echo of random bytes")
        failed_exchange(n, "garbage to the exchange", "", lambda c: c.send(junk[:52]),
                        r"qpx: bad pingpong destination from the peer: pingpong destination: [^\n]+; QP 0x[0-9a-f]+ back to RESET")
        failed_exchange(n, "oversized exchange message", "", lambda c: c.send(b"0000:" + junk[:995]),
                        r"qpx: bad pingpong destination from the peer: pingpong destination: [^\n]+")
        real_exchange(n, 45004, "exchange after garbage")

        # 4. RST storm: out-of-window RSTs are ignored, an in-window one that is not exact gets
        # a challenge ACK (RFC 5961), RSTs for connections that do not exist get nothing; the
        # connection lives on; the exact RST ends it
        a = Conn(n, ECHO, 45005).open("the connection under the RST storm")
        for off in (100000, -100000, 1 << 30, 8192 + 1):
            n.send(a.seg("R", seq=(a.snd + off) & 0xffffffff))
        n.send(a.seg("R", seq=(a.snd + 10) & 0xffffffff))
        ack = n.expect(lambda f: a.mine(f) and str(f[TCP].flags) == "A", "the challenge ACK to an in-window RST")
        check("the challenge ACK acknowledges what we sent", a.snd, ack[TCP].ack)
        for port, sport in ((ECHO, 40001), (QPX, 40002), (9999, 40003)):
            n.send(Conn(n, port, sport).seg("R"))
            n.send(Conn(n, port, sport).seg("RA"))
        a.send(b"still here")
        seen = []
        f = n.expect(lambda f: seen.append(f) or (a.mine(f) and len(f[TCP].payload) > 0), "echo after the RST storm")
        a._take(f)
        check("echo after the RST storm", b"still here", a.recv(10, "echo after the RST storm"))
        check("answers to RSTs for connections that do not exist", [],
              [f.summary() for f in seen if TCP in f and f[TCP].dport in (40001, 40002, 40003)])
        n.send(a.seg("R"))  # exact: seq = what the NIC expects next
        a.send(b"gone?")
        a.expect_rst("the RST answering data to the reset connection")
        check("the reset connection", [], [r for r in tcp_table(n)[1] if r[2] and r[2].endswith(":45005")])

        # 5. oversized: a segment longer than the MSS and the MTU (but within a mgmt slot) is
        # taken and echoed in MSS-sized segments; a frame longer than a slot is dropped and
        # counted by the mgmt buffer; IP fragments are dropped and counted (no reassembly)
        b = Conn(n, ECHO, 45006).open("the oversized segment's connection")
        big = bytes(random.randrange(256) for _ in range(1800))
        b.send(big)
        check("echo of a 1800-byte segment (MSS 1460, MTU 1500)", big.hex(), b.recv(1800, "echo of 1800 bytes").hex())
        b.close("the NIC's FIN after the oversized segment")
        n.send(Ether(dst=nic_mac(), src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip()) / UDP(sport=5555, dport=ECHO) /
               (b"y" * 3000))
        u = IP(src=PEER_IP, dst=nic_ip(), id=77) / UDP(sport=5556, dport=ECHO) / (b"z" * 1000)
        frags = fragment(u, fragsize=512)
        for fr in frags:
            n.send(Ether(dst=nic_mac(), src=PEER_MAC) / fr)
        echo_round(n, 45007, b"after the oversized frames", "echo after the oversized frames")

        # and the last real exchange; lwIP back at its idle use
        real_exchange(n, 45008, "the last exchange")
        for _ in range(10):  # the last ACKs may still be on their way
            _, rows = tcp_table(n)
            if [r for r in rows if r[0] != "TIME_WAIT"] == [r for r in rows if r[0] == "LISTEN" and r[1] == ECHO]:
                break
        end = read_stats(n)
        check("lwIP's pools, heap and connections back at idle", base, idle_view(end))
        # the oversized frames, counted where they were dropped (the only ones the test sent)
        check("frames longer than a slot: mgmt rx_drop_too_long", 1,
              end["mgmt.rx_drop_too_long"] - idle["mgmt.rx_drop_too_long"])
        check("IP fragments dropped: ip opterr", len(frags), end["ip.opterr"] - idle["ip.opterr"])
        check_true("TIME_WAIT connections within the pool", end["tcp.time_wait"] <= POOL, f"<= {POOL}",
                   end["tcp.time_wait"])
        if n.sim.p.poll() is not None:
            raise Failure("the simulator", "still running", f"exit {n.sim.p.returncode}")
