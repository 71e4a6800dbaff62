"""A peer on the simulated NIC's Ethernet port, built on Scapy (an independent
TCP/IP implementation), for the end-to-end tests tests/mgmt/test_lwip_*.py.

The NIC's port is a UDP socket on 127.0.0.1 carrying one Ethernet frame
(without FCS) per datagram: the simulator's `--eth0 udp:127.0.0.1:LOCAL:REMOTE`.
Which simulator: $SOLONIC_NIC_SIM, else the real NIC, build/sim/solonic_sim
(nic_top: its packet layer routes the frames to the management buffers).
build/mgmt/Vtb_fw_mgmt (the SoC with only the management buffers) takes the
same options and can stand in for it.

The peer (10.0.0.100, 02:00:00:00:00:64) answers ARP requests for its address
(and for every other address a test puts in `hosts`) and ICMP echo requests to
it on its own, counting them; every other frame goes to a queue the test reads
with expect(). Every wait has a wall-clock deadline.
"""
import os
import queue
import socket
import sys
import threading
import time

from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.l2 import ARP, Ether

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from nicsim import Failure, Sim, tail  # noqa: E402  (the console driver)

PEER_MAC = "02:00:00:00:00:64"
PEER_IP = "10.0.0.100"
WAIT = 30.0  # seconds of wall time for one expected frame (the simulation runs ~1000x slower than life)


def nic_mac(instance=0):
    return "02:00:00:00:00:%02x" % (1 + instance)


def nic_ip(instance=0):
    return "10.0.0.%d" % (1 + instance)


def free_udp_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def valid_checksums(pkt):
    """(ok, what): the IP and L4 checksums of pkt agree with Scapy's own computation."""
    fresh = pkt.copy()
    layers = []
    if IP in fresh:
        del fresh[IP].chksum
        layers.append(IP)
    for L in (TCP, UDP, ICMP):
        if L in fresh:
            del fresh[L].chksum
            layers.append(L)
    fresh = Ether(bytes(fresh))
    for L in layers:
        if pkt[L].chksum != fresh[L].chksum:
            return False, f"{L.__name__} checksum 0x{pkt[L].chksum:04x}, computed 0x{fresh[L].chksum:04x}"
    return True, ""


class NicPeer:
    """The simulator with its console, and the peer on its Ethernet port."""

    def __init__(self, keys="", instance=None, max_cycles=400_000_000, max_seconds=150, keep_stdin=False,
                 extra=()):
        self.frames = queue.Queue()
        self.arp_requests = 0    # ARP requests for the peer's address, answered
        self.echo_requests = []  # (id, seq, payload) of ICMP echo requests to the peer, answered
        self.answer_arp = True
        self.hosts = {PEER_IP: PEER_MAC}  # the addresses whose ARP requests the peer answers
        self.answer_echo = True
        extra = ["--eth0", self._open_port(), *extra]
        if instance is not None:
            extra += ["--instance", str(instance)]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self.sim = Sim(keys, max_cycles=max_cycles, max_seconds=max_seconds, extra=extra, keep_stdin=keep_stdin,
                       sim=os.environ.get("SOLONIC_NIC_SIM", os.path.join(ROOT, "build/sim/solonic_sim")))

    def _open_port(self):
        """Open the peer's end (self.sock); return the simulator's --eth0 for the NIC's end."""
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.1)
        self.nic_port = free_udp_port()
        return f"udp:127.0.0.1:{self.nic_port}:{self.sock.getsockname()[1]}"

    # ---- the wire
    def send(self, pkt):
        self.sock.sendto(bytes(pkt), ("127.0.0.1", self.nic_port))

    def _run(self):
        while not self._stop.is_set():
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            self._take(data)

    def _take(self, data):
        """A frame from the NIC: answered (ARP for the peer, ICMP echo to it) or queued for expect()."""
        f = Ether(data)
        hosts = self.hosts
        if ARP in f and f[ARP].op == 1 and f[ARP].pdst in hosts and self.answer_arp:
            self.arp_requests += 1
            mac = hosts[f[ARP].pdst]
            self.send(Ether(dst=f.src, src=mac) /
                      ARP(op=2, hwsrc=mac, psrc=f[ARP].pdst, hwdst=f[ARP].hwsrc, pdst=f[ARP].psrc))
        elif IP in f and ICMP in f and f[IP].dst == PEER_IP and f[ICMP].type == 8 and self.answer_echo:
            self.echo_requests.append((f[ICMP].id, f[ICMP].seq, bytes(f[ICMP].payload)))
            self.send(Ether(dst=f.src, src=PEER_MAC) / IP(src=PEER_IP, dst=f[IP].src) /
                      ICMP(type=0, id=f[ICMP].id, seq=f[ICMP].seq) / bytes(f[ICMP].payload))
        else:
            self.frames.put((time.monotonic(), f))

    def expect(self, match, what, timeout=WAIT):
        """The first frame from the NIC for which match(frame) is true; the others are skipped."""
        deadline = time.monotonic() + timeout
        skipped = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(what, f"such a frame within {timeout} s",
                              f"{len(skipped)} other frames: " +
                              "; ".join(f.summary() for f in skipped[-5:]) + self.sim_note())
            try:
                _, f = self.frames.get(timeout=min(left, 0.5))
            except queue.Empty:
                if self.sim.p.poll() is not None:
                    raise Failure(what, "a frame from the running simulator",
                                  f"the simulator ended (exit {self.sim.p.returncode})" + self.sim_note())
                continue
            if match(f):
                return f
            skipped.append(f)

    def expect_none(self, match, what, quiet_for):
        """No frame matching match arrives within quiet_for seconds."""
        deadline = time.monotonic() + quiet_for
        while (left := deadline - time.monotonic()) > 0:
            try:
                _, f = self.frames.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if match(f):
                raise Failure(what, "no such frame", f.summary())

    def sim_note(self):
        try:
            self.sim._read(0)
        except (OSError, ValueError):
            pass
        return "\n  console: " + repr(tail(self.sim.text, 600)) + self.sim.stderr_note()

    def boot(self):
        return self.sim.boot()

    def close(self):
        self.sim.stop()
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def is_from_nic(f, instance=0):
    return f.src == nic_mac(instance)
