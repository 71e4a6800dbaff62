"""TCP and UDP through the NIC's management port: Scapy connects to the
firmware's echo service (port 7) and to a closed port."""
import os
import re
import sys

from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nicpeer import PEER_IP, PEER_MAC, NicPeer, is_from_nic, nic_ip, nic_mac, valid_checksums  # noqa: E402
from nicsim import check, check_true  # noqa: E402

ECHO = 7
CLOSED = 18515  # the QP exchange port: nothing listens there yet


def seg(sport, dport, flags, seq, ack=0, payload=b"", options=None):
    t = TCP(sport=sport, dport=dport, flags=flags, seq=seq, ack=ack, window=8192, options=options or [])
    return Ether(dst=nic_mac(), src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip()) / t / payload


def tcp_from(sport):
    return lambda f: is_from_nic(f) and TCP in f and f[TCP].sport == sport


def checked(r, what):
    ok, why = valid_checksums(r)
    check_true(f"{what}: checksums", ok, "valid IP and TCP/UDP checksums", why)
    return r


def handshake(n, sport, isn):
    n.send(seg(sport, ECHO, "S", isn, options=[("MSS", 1460)]))
    sa = checked(n.expect(lambda f: tcp_from(ECHO)(f) and f[TCP].dport == sport, "SYN/ACK from the echo port"),
                 "SYN/ACK")
    check("SYN/ACK flags", "SA", str(sa[TCP].flags))
    check("SYN/ACK ack (our ISN + 1)", isn + 1, sa[TCP].ack)
    check("SYN/ACK destination port", sport, sa[TCP].dport)
    mss = dict(o for o in sa[TCP].options if isinstance(o, tuple)).get("MSS")
    check_true("SYN/ACK MSS option", mss is not None and 536 <= mss <= 1460, "MSS 536..1460", mss)
    check_true("SYN/ACK window", sa[TCP].window > 0, "> 0", sa[TCP].window)
    n.send(seg(sport, ECHO, "A", isn + 1, sa[TCP].seq + 1))
    return sa[TCP].seq + 1


def test_tcp_syn_to_closed_port_gets_rst():
    with NicPeer() as n:
        n.boot()
        n.send(seg(40000, CLOSED, "S", 5000))
        r = checked(n.expect(tcp_from(CLOSED), "an answer to SYN on a closed port"), "RST")
        check("closed port: flags", "RA", str(r[TCP].flags))
        check("closed port: ack (ISN + 1)", 5001, r[TCP].ack)


def test_tcp_echo_handshake_data_close():
    with NicPeer() as n:
        n.boot()
        isn = 100000
        nic_seq = handshake(n, 40001, isn)
        data = b"hello solonic, " * 40  # 600 bytes
        n.send(seg(40001, ECHO, "PA", isn + 1, nic_seq, data))
        got = b""
        while len(got) < len(data):
            r = checked(n.expect(lambda f: tcp_from(ECHO)(f) and len(f[TCP].payload) > 0, "echoed data"), "echo")
            check("echoed segment's sequence number", nic_seq + len(got), r[TCP].seq)
            got += bytes(r[TCP].payload)
        check("echoed bytes", data.hex(), got.hex())
        check_true("the echo acknowledges our data", r[TCP].ack == isn + 1 + len(data), isn + 1 + len(data), r[TCP].ack)
        nic_seq += len(got)
        n.send(seg(40001, ECHO, "FA", isn + 1 + len(data), nic_seq))
        r = checked(n.expect(lambda f: tcp_from(ECHO)(f) and "F" in str(f[TCP].flags), "the NIC's FIN"), "FIN")
        check("the NIC's FIN acknowledges ours", isn + 2 + len(data), r[TCP].ack)
        check("the NIC's FIN sequence number", nic_seq, r[TCP].seq)
        n.send(seg(40001, ECHO, "A", isn + 2 + len(data), nic_seq + 1))


def test_udp_echo():
    with NicPeer() as n:
        n.boot()
        payload = bytes(range(256)) * 4
        n.send(Ether(dst=nic_mac(), src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip()) /
               UDP(sport=5555, dport=ECHO) / payload)
        r = checked(n.expect(lambda f: is_from_nic(f) and UDP in f and f[UDP].sport == ECHO, "UDP echo"), "UDP echo")
        check("UDP echo: destination port", 5555, r[UDP].dport)
        check("UDP echo: payload", payload.hex(), bytes(r[UDP].payload).hex())


def test_tcp_half_open_flood_leaves_room_for_a_real_connection():
    """Twelve SYNs that are never completed (twice lwIP's TCP PCBs) and then a real
    connection: a SYN that finds the pool full evicts the oldest half-open connection
    (with a RST), so the real handshake and its echo work at once; the evictions are
    counted in stats: 12 + 1 SYNs into 6 PCBs, 7 evictions."""
    with NicPeer(keep_stdin=True) as n:
        n.boot()
        for i in range(12):
            n.send(seg(41000 + i, ECHO, "S", 7000 + i))
            n.expect(lambda f, p=41000 + i: tcp_from(ECHO)(f) and f[TCP].dport == p and str(f[TCP].flags) == "SA",
                     f"SYN/ACK to half-open connection {i + 1}")
        isn = 300000
        nic_seq = handshake(n, 41100, isn)
        data = b"after the flood"
        n.send(seg(41100, ECHO, "PA", isn + 1, nic_seq, data))
        r = n.expect(lambda f: tcp_from(ECHO)(f) and f[TCP].dport == 41100 and len(bytes(f[TCP].payload)) > 0,
                     "the echo after the flood")
        check("the echo after the flood", data, bytes(r[TCP].payload)[:len(data)])
        n.sim.send("stats\n")
        out = n.sim.reply("stats")
        m = re.search(r"^tcp\s+half_open_evicted (\d+)", out, re.M)
        check_true("stats: the evictions", m is not None, "tcp half_open_evicted N", out)
        check("half-open connections evicted (12 + 1 SYNs, 6 PCBs)", 7, int(m.group(1)))
