"""ARP through the NIC's management port: Scapy asks, lwIP answers."""
import os
import sys

from scapy.layers.l2 import ARP, Ether

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nicpeer import PEER_IP, PEER_MAC, NicPeer, is_from_nic, nic_ip, nic_mac  # noqa: E402
from nicsim import check  # noqa: E402


def who_has(ip):
    return Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / ARP(op=1, hwsrc=PEER_MAC, psrc=PEER_IP, pdst=ip)


def is_arp_reply(f):
    return ARP in f and f[ARP].op == 2


def check_reply(r, instance):
    check("ARP reply: Ethernet destination", PEER_MAC, r.dst)
    check("ARP reply: Ethernet source (the NIC's default MAC)", nic_mac(instance), r.src)
    check("ARP reply: sender hardware address", nic_mac(instance), r[ARP].hwsrc)
    check("ARP reply: sender protocol address", nic_ip(instance), r[ARP].psrc)
    check("ARP reply: target hardware address", PEER_MAC, r[ARP].hwdst)
    check("ARP reply: target protocol address", PEER_IP, r[ARP].pdst)
    check("ARP reply: frame padded to 60 bytes", 60, len(bytes(r)))


def test_arp_who_has_our_address_is_answered():
    with NicPeer() as n:
        n.boot()
        n.send(who_has(nic_ip()))
        check_reply(n.expect(lambda f: is_from_nic(f) and is_arp_reply(f), "ARP reply to who-has " + nic_ip()), 0)


def test_arp_who_has_another_address_is_ignored():
    with NicPeer() as n:
        n.boot()
        n.send(who_has("10.0.0.77"))
        n.send(who_has(nic_ip()))  # then one for us: its reply proves the first one was seen and ignored
        r = n.expect(lambda f: is_from_nic(f) and is_arp_reply(f), "ARP reply")
        check("the only ARP reply is for the NIC's address", nic_ip(), r[ARP].psrc)
        n.expect_none(lambda f: is_arp_reply(f), "a second ARP reply", quiet_for=3)


def test_arp_default_address_follows_instance_number():
    with NicPeer(instance=2) as n:
        n.boot()
        n.send(who_has(nic_ip(2)))
        check_reply(n.expect(lambda f: is_from_nic(f, 2) and is_arp_reply(f), "ARP reply from instance 2"), 2)
