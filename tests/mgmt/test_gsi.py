"""RoCEv2 packets for QP 1 (the GSI QP: connection-manager MADs) go through the real
NIC's packet layer to the firmware's RDMA CM (fw/roce/cm.c, tested in depth by
tests/qpx/test_cm_system.py). Here: a QP 1 packet that is no CM MAD (a zeroed MAD
body) is counted as malformed with its reason and not answered, and lwIP does not
answer it with ICMP port unreachable. Scapy is the peer."""
import os
import sys

from scapy.contrib.roce import BTH
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.l2 import Ether

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("SOLONIC_NIC_SIM", os.path.join(os.path.dirname(__file__), "../../build/sim/solonic_sim"))
from nicpeer import PEER_IP, PEER_MAC, NicPeer, nic_ip, nic_mac  # noqa: E402
from nicsim import check  # noqa: E402


def mad(qpn):
    # UD SEND ONLY with a DETH (Q_Key, source QP 1) and a zeroed 256-byte MAD body
    deth = (0x80010000).to_bytes(4, "big") + (1).to_bytes(4, "big")
    return (Ether(dst=nic_mac(), src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip(), flags="DF", ttl=64) /
            UDP(sport=0xC001, dport=4791, chksum=0) / BTH(opcode=0x64, dqpn=qpn, psn=1, pkey=0xFFFF) /
            (deth + bytes(256)))


def test_qp1_non_mads_are_counted_as_malformed_and_not_answered():
    with NicPeer(keep_stdin=True, max_seconds=120) as n:
        n.boot()
        for _ in range(3):
            n.send(mad(1))
        for _ in range(5):  # the three frames may still be on their way: ask again, bounded
            n.sim.send("stats\n")
            out = n.sim.reply("stats")
            if "qp1_mads 3 " in out:
                break
        check("the stats line for QP 1", "gsi     qp1_mads 3 other_roce 0",
              next((l for l in out.splitlines() if l.startswith("gsi")), out))
        cm = next((l for l in out.splitlines() if l.startswith("cm      rx_mads")), out)
        check("the CM's counters", True, "rx_mads 3 tx_mads 0 malformed 3 " in cm)
        # Scapy's BTH layer appends a correct ICRC: the MAD header is what is wrong
        check("the last malformed reason", True, "cm      last malformed: MAD base version is not 1" in out)
        n.expect_none(lambda f: ICMP in f or (UDP in f and f[UDP].dport == 4791),
                      "an answer to a malformed QP 1 packet", quiet_for=2)
