"""RoCEv2 packets for QP 1 (the GSI QP: connection-manager MADs) go through the real
NIC's packet layer to the firmware, which counts them and says once that RDMA CM is not
supported; lwIP does not answer them with ICMP port unreachable. Scapy is the peer."""
import os
import sys

from scapy.contrib.roce import BTH
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.l2 import Ether

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("SOLONIC_NIC_SIM", os.path.join(os.path.dirname(__file__), "../../build/sim/solonic_sim"))
from nicpeer import PEER_IP, PEER_MAC, NicPeer, nic_ip, nic_mac  # noqa: E402
from simcon import check  # noqa: E402


def mad(qpn):
    # UD SEND ONLY with a DETH (Q_Key, source QP 1) and a 256-byte MAD body, as rdma_cm sends it
    deth = (0x80010000).to_bytes(4, "big") + (1).to_bytes(4, "big")
    return (Ether(dst=nic_mac(), src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip(), flags="DF", ttl=64) /
            UDP(sport=0xC001, dport=4791, chksum=0) / BTH(opcode=0x64, dqpn=qpn, psn=1, pkey=0xFFFF) /
            (deth + bytes(256)))


def test_qp1_mads_are_counted_reported_once_and_not_answered():
    with NicPeer(keep_stdin=True, max_seconds=120) as n:
        n.boot()
        for _ in range(3):
            n.send(mad(1))
        n.sim.expect(r"RDMA CM is not supported yet.*\n", what="the console's note about RDMA CM")
        for _ in range(5):  # the three frames may still be on their way: ask again, bounded
            n.sim.send("stats\n")
            out = n.sim.reply("stats")
            if "qp1_mads 3 " in out:
                break
        check("the stats line for QP 1", "gsi     qp1_mads 3 other_roce 0 (RDMA CM not supported yet)",
              next((l for l in out.splitlines() if l.startswith("gsi")), out))
        text = n.sim.text
        check("the console's note about RDMA CM, once", 1, text.count("RDMA CM is not supported yet"))
        check("the note names the sender", True, f"from {PEER_IP} (QP 1)" in text)
        n.expect_none(lambda f: ICMP in f, "an ICMP answer to a RoCE packet", quiet_for=2)
