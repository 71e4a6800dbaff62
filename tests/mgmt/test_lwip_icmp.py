"""ICMP through the NIC's management port: echo requests from Scapy, and the
console's ping against the Scapy peer."""
import os
import random
import re
import sys

from scapy.layers.inet import ICMP, IP
from scapy.layers.l2 import Ether

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nicpeer import PEER_IP, PEER_MAC, NicPeer, is_from_nic, nic_ip, nic_mac, valid_checksums  # noqa: E402
from nicsim import check, check_true, typed  # noqa: E402


def echo(ident, seq, payload, chksum=None):
    icmp = ICMP(type=8, id=ident, seq=seq) if chksum is None else ICMP(type=8, id=ident, seq=seq, chksum=chksum)
    return Ether(dst=nic_mac(), src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip()) / icmp / payload


def is_reply(f, seq):
    return is_from_nic(f) and ICMP in f and f[ICMP].type == 0 and f[ICMP].seq == seq


def test_icmp_echo_requests_answered_byte_exact():
    rnd = random.Random(11)
    with NicPeer() as n:
        n.boot()
        for seq in (1, 2, 3):
            payload = bytes(rnd.randrange(256) for _ in range(rnd.choice([0, 8, 56, 1000, 1472])))
            n.send(echo(0x1234, seq, payload))
            r = n.expect(lambda f, s=seq: is_reply(f, s), f"echo reply seq {seq}")
            check(f"seq {seq}: reply IP source", nic_ip(), r[IP].src)
            check(f"seq {seq}: reply IP destination", PEER_IP, r[IP].dst)
            check(f"seq {seq}: reply Ethernet destination (the peer, from ARP)", PEER_MAC, r.dst)
            check(f"seq {seq}: reply id", 0x1234, r[ICMP].id)
            check(f"seq {seq}: reply payload ({len(payload)} bytes)", payload.hex(),
                  bytes(r[ICMP].payload)[:len(payload)].hex())
            check(f"seq {seq}: IP total length", 20 + 8 + len(payload), r[IP].len)
            ok, what = valid_checksums(r)
            check_true(f"seq {seq}: checksums", ok, "valid IP and ICMP checksums", what)
        check_true("the NIC asked the peer's MAC by ARP", n.arp_requests >= 1, ">= 1 ARP request", n.arp_requests)


def test_icmp_echo_with_bad_checksum_dropped():
    with NicPeer() as n:
        n.boot()
        good = echo(7, 1, b"x" * 20)
        bad_sum = Ether(bytes(good))[ICMP].chksum ^ 0x0101
        n.send(echo(7, 1, b"x" * 20, chksum=bad_sum))
        n.send(echo(7, 2, b"y" * 20))
        r = n.expect(lambda f: is_from_nic(f) and ICMP in f and f[ICMP].type == 0, "an echo reply")
        check("the first reply answers the good request (seq 2), not the corrupt one", 2, r[ICMP].seq)
        n.expect_none(lambda f: ICMP in f and f[ICMP].seq == 1, "a reply to the corrupt request", quiet_for=3)


def ping_summary(out):
    m = re.search(r"(\d+) sent, (\d+) received, (\d+)% lost", out)
    check_true("ping summary line", m is not None, "'N sent, N received, N% lost'", out)
    return tuple(int(x) for x in m.groups())


def test_console_ping_peer_then_arp_and_stats():
    with NicPeer(keys=typed("ping 10.0.0.100 3", "arp", "stats", exit_code=None)) as n:
        n.boot()
        out = n.sim.reply("ping 10.0.0.100 3")
        replies = re.findall(r"reply from 10\.0\.0\.100: seq=(\d+) ttl=(\d+) rtt=(\d+) us\n", out)
        check("ping: replies seen on the console (seq numbers)", ["1", "2", "3"], [r[0] for r in replies])
        check("ping: summary", (3, 3, 0), ping_summary(out))
        check_true("ping: no reply flagged as differing", "DIFFERS" not in out, "no 'DIFFERS'", out)
        check("peer: echo requests received (seq numbers)", [1, 2, 3], [e[1] for e in n.echo_requests])
        check("peer: echo request payload length", [32, 32, 32], [len(e[2]) for e in n.echo_requests])
        arp = n.sim.reply("arp")
        check_true("arp: the peer's entry", re.search(r"10\.0\.0\.100\s+02:00:00:00:00:64", arp) is not None,
                   "10.0.0.100 02:00:00:00:00:64", arp)
        stats = n.sim.reply("stats")
        # ping's raw PCB takes the replies before lwIP's ICMP layer: they count in link and ip
        rows = {r[0]: (int(r[1]), int(r[2])) for r in re.findall(r"^(link|ip|icmp)\s+(\d+)\s+(\d+)", stats, re.M)}
        check("stats: rows link, ip, icmp", ["icmp", "ip", "link"], sorted(rows))
        check_true("stats: ip xmit/recv count the 3 echoes and replies",
                   rows["ip"][0] >= 3 and rows["ip"][1] >= 3, ">= (3, 3)", rows["ip"])
        check_true("stats: link xmit/recv count them and the ARP exchange",
                   rows["link"][0] >= 4 and rows["link"][1] >= 4, ">= (4, 4)", rows["link"])
        m = re.search(r"^mgmt\s+rx_frames (\d+) rx_drop_full (\d+)", stats, re.M)
        check_true("stats: mgmt rx counters", m is not None, "mgmt rx_frames N rx_drop_full N", stats)
        check_true("stats: mgmt rx_frames counts at least the 3 replies and the ARP reply",
                   int(m.group(1)) >= 4, ">= 4", m.group(1))


def test_console_ping_without_answer_times_out_keeps_typeahead():
    # everything is typed at once: ping reads 'version' and 'exit' while it waits,
    # and the console must still get them, in order, after ping
    with NicPeer(keys=typed("ping 10.0.0.200 2 1", "version")) as n:
        n.boot()
        out = n.sim.reply("ping 10.0.0.200 2 1")
        check("ping without an answer: timeouts", 2, out.count("no reply within 1 ms"))
        check("ping without an answer: summary", (2, 0, 100), ping_summary(out))
        check_true("the line typed during ping runs after it", n.sim.reply("version").startswith("solonic "),
                   "'solonic ...'", n.sim.text[n.sim.pos - 200:])
        check("the exit typed during ping still reaches the console", 0, n.sim.wait_exit())


def test_console_ping_ctrl_c_stops():
    with NicPeer(keys="ping 10.0.0.200 1000 5\r\x03" + typed(exit_code=3)) as n:
        n.boot()
        out = n.sim.reply("ping 10.0.0.200 1000 5")
        check_true("Ctrl-C stops ping", "^C" in out, "'^C'", out)
        check("Ctrl-C stops ping after the first echo", (1, 0, 100), ping_summary(out))
        check("the exit typed after Ctrl-C", 3, n.sim.wait_exit())


def test_packet_layer_drops_counted_in_stats():
    """Frames the packet layer must drop (an IPv4 header checksum that is wrong, a
    unicast for another MAC) never reach lwIP, and `stats` names each in its net line."""
    with NicPeer(keep_stdin=True) as n:
        n.boot()
        bad = Ether(dst=nic_mac(), src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip(), chksum=0x1234) / \
            ICMP(type=8, id=7, seq=1) / b"bad ip checksum"
        other = Ether(dst="02:00:00:00:77:77", src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip()) / \
            ICMP(type=8, id=7, seq=2) / b"for another MAC"
        for _ in range(2):
            n.send(bad)
        for _ in range(3):
            n.send(other)
        for _ in range(5):  # the frames may still be on their way: ask again, bounded
            n.sim.send("stats\n")
            out = n.sim.reply("stats")
            m = re.search(r"^net\s+drop_bad_csum (\d+) drop_trunc (\d+) drop_bad_hdr (\d+) drop_malformed (\d+) "
                          r"drop_mac_err (\d+) drop_roce_full (\d+) drop_mgmt_full (\d+)", out, re.M)
            check_true("stats: the packet layer's drop line", m is not None, "net drop_bad_csum N ...", out)
            if m.group(1) == "2":
                break
        check("the packet layer's drops: bad checksum 2, nothing else", (2, 0, 0, 0, 0, 0, 0),
              tuple(int(x) for x in m.groups()))
        m = re.search(r"^net\s+rx_roce (\d+) rx_mgmt (\d+) tx_frames (\d+) drop_not_for_us (\d+)", out, re.M)
        check_true("stats: the packet layer's pass line", m is not None, "net rx_roce N ...", out)
        check("frames for another MAC dropped", 3, int(m.group(4)))
        check("no RoCE frame", 0, int(m.group(1)))
        n.expect_none(lambda f: is_from_nic(f) and ICMP in f, "an answer to a dropped frame", quiet_for=1)


def test_console_ping_keeps_every_typed_character():
    """More than a line's worth typed while ping waits (here 24 commands, 240
    characters): every one runs after ping, in order (the console's one
    type-ahead buffer, fw/console.c)."""
    lines = ["mem rd 0x0" for _ in range(24)]
    with NicPeer(keys=typed("ping 10.0.0.200 2 1", *lines)) as n:
        n.boot()
        out = n.sim.reply("ping 10.0.0.200 2 1")
        check("ping without an answer: summary", (2, 0, 100), ping_summary(out))
        for i, line in enumerate(lines):
            r = n.sim.reply(line)
            check_true(f"typed line {i + 1} of {len(lines)} ran after ping", r.startswith("00000000: "),
                       "00000000: ...", r)
        check("the exit typed during ping still reaches the console", 0, n.sim.wait_exit())
