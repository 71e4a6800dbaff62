"""TCP and UDP through the NIC's management port: Scapy connects to the
firmware's echo service (port 7) and to a closed port."""
import os
import sys

from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.l2 import Ether

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nicpeer import PEER_IP, PEER_MAC, NicPeer, is_from_nic, nic_ip, nic_mac, valid_checksums  # noqa: E402
from simcon import check, check_true  # noqa: E402

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
    sa = checked(n.expect(tcp_from(ECHO), "SYN/ACK from the echo port"), "SYN/ACK")
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
