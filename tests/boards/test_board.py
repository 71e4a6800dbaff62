"""The VCU118 board top in simulation (build/boards/Vtb_board): the firmware
boots from the image, its console runs over the board's UART pins (at a test
baud rate), and ARP and ICMP go through the CMAC stand-in at 322.265625 MHz and
the clock crossings to the NIC at 250 MHz. The peer is Scapy on a UDP socket
(tests/mgmt/nicpeer.py), an independent implementation of ARP and ICMP."""
import os
import random
import re
import sys

from scapy.layers.inet import ICMP, IP
from scapy.layers.l2 import ARP, Ether

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "mgmt"))
from nicpeer import PEER_IP, PEER_MAC, NicPeer, nic_ip, nic_mac, valid_checksums  # noqa: E402
from nicsim import check, check_true, typed  # noqa: E402

import board_bench  # noqa: E402

os.environ.setdefault("SOLONIC_NIC_SIM", "build/boards/Vtb_board")
INSTANCE = 5   # the DIP switches: MAC 02:00:00:00:00:06, IP 10.0.0.6


def stats(sim):
    sim.err.seek(0)
    return board_bench.stats(sim.err.read().decode(errors="replace"))


def test_board_boots_over_uart_pins_and_answers_arp_and_ping_through_the_cmac_crossing():
    rnd = random.Random(7)
    me_mac, me_ip = nic_mac(INSTANCE), nic_ip(INSTANCE)
    with NicPeer(keys=typed("ping 10.0.0.100 2", exit_code=0), instance=INSTANCE, max_seconds=200) as n:
        banner = n.boot()
        check_true("banner over the UART pins names the instance from the DIP switches",
                   f"instance {INSTANCE}, mac {me_mac}, ip {me_ip}/24" in banner,
                   f"'instance {INSTANCE}, mac {me_mac}, ip {me_ip}/24'", banner)
        # ARP request from the peer -> reply from the board
        n.send(Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) /
               ARP(op=1, hwsrc=PEER_MAC, psrc=PEER_IP, pdst=me_ip))
        r = n.expect(lambda f: ARP in f and f[ARP].op == 2 and f[ARP].psrc == me_ip, "ARP reply")
        check("ARP reply: sender MAC", me_mac, r[ARP].hwsrc)
        check("ARP reply: target", (PEER_MAC, PEER_IP), (r[ARP].hwdst, r[ARP].pdst))
        check("ARP reply frame padded to the Ethernet minimum by the TX crossing (60 bytes + FCS)",
              60, len(bytes(r)))
        check("ARP reply padding is zeros", bytes(18).hex(), bytes(r)[42:60].hex())
        # ICMP echo: a multi-beat frame both ways, and a short one
        for seq, size in ((1, 1400), (2, 0), (3, 333)):
            payload = bytes(rnd.randrange(256) for _ in range(size))
            n.send(Ether(dst=me_mac, src=PEER_MAC) / IP(src=PEER_IP, dst=me_ip) /
                   ICMP(type=8, id=0x77, seq=seq) / payload)
            e = n.expect(lambda f, s=seq: ICMP in f and f[ICMP].type == 0 and f[ICMP].seq == s,
                         f"echo reply seq {seq}")
            check(f"echo reply seq {seq}: payload ({size} bytes)", payload.hex(),
                  bytes(e[ICMP].payload)[:size].hex())
            ok, what = valid_checksums(e)
            check_true(f"echo reply seq {seq}: checksums", ok, "valid IP and ICMP checksums", what)
        # the board's console pings the peer (its ARP request, the peer's replies)
        out = n.sim.reply("ping 10.0.0.100 2")
        replies = re.findall(r"reply from 10\.0\.0\.100: seq=(\d+)", out)
        check("console ping over the UART pins: replies", ["1", "2"], replies)
        rc = n.sim.wait_exit(timeout=120)
        check("exit code (3: the CMAC model saw a TX underflow, a runt or a bad tkeep)", 0, rc)
        s = stats(n.sim)
        board_bench.check_crossings(s)
        check_true("both clocks ran (322.265625 vs 250 MHz)",
                   1.25 < s["mac_cycles"] / s["sys_cycles"] < 1.33, "a ratio near 1.289",
                   s["mac_cycles"] / s["sys_cycles"])
