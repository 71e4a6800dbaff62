#!/usr/bin/env python3
"""Every frame the NIC receives lands in exactly one counter `stats` prints (issue 15 item 6).

A known mix goes to a NIC whose QP is in RTS (made by its own `listen`): good RoCE
WRITEs, a duplicate, an out-of-sequence one and one with a wrong rkey; ARP, ICMP, TCP,
a QP 1 packet and a broadcast burst for the management path; one frame for each drop
reason of the packet layer and of the RoCE parse. `stats` is read before and after:
every counter of the packet layer, the management buffers and the RoCE parse, and the
responder's counters the mix touches, must move by exactly what the mix says (computed
from the frames sent, not read from the NIC), and the identity of fw/README.md must hold
with the peer's own count of the frames it sent.
"""
import sys
import time

import nicfuzz as nf
from nicfuzz import (NIC_IP, NIC_MAC, PEER_IP, PEER_MAC, Failure, Peer, bth, check, check_true,
                     eth_hdr, ip_b, ipv4, mac_b, parse_stats, reth, roce)
import session as ss


def icmp_echo(ident, seq, payload=b"solonic accounting"):
    h = bytearray(b"\x08\x00\x00\x00" + ident.to_bytes(2, "big") + seq.to_bytes(2, "big") + payload)
    h[2:4] = nf.ip_csum(h).to_bytes(2, "big")
    return bytes(h)


def arp_request(target=NIC_IP):
    return (eth_hdr(dst="ff:ff:ff:ff:ff:ff", etype=0x0806) + b"\x00\x01\x08\x00\x06\x04\x00\x01" +
            mac_b(PEER_MAC) + ip_b(PEER_IP) + bytes(6) + ip_b(target))


def tcp_syn(dport):
    seg = bytearray(20)
    seg[0:2] = (40123).to_bytes(2, "big")
    seg[2:4] = dport.to_bytes(2, "big")
    seg[4:8] = (777).to_bytes(4, "big")
    seg[12] = 5 << 4
    seg[13] = 0x02
    seg[14:16] = (8192).to_bytes(2, "big")
    ph = ip_b(PEER_IP) + ip_b(NIC_IP) + b"\x00\x06" + len(seg).to_bytes(2, "big")
    seg[16:18] = nf.ip_csum(ph + bytes(seg)).to_bytes(2, "big")
    return eth_hdr() + ipv4(bytes(seg), 6) + bytes(seg)


def stats(p):
    return parse_stats(p.cmd("stats"))


def settle(p, tries=4):
    """stats once every frame sent has been counted by the packet layer (frames may still be
    on their way: asked again, bounded); returns (stats, frames sent)."""
    for _ in range(tries):
        sent = p.sent
        s = stats(p)
        if sum(s[f"net.{k}"] for k in nf.NET_RX) == sent and p.sent == sent:
            break
        time.sleep(1.0)
    return s, sent


def main():
    with Peer() as p:
        p.boot()
        key_a = ss.mr_reg(p, ss.A_BASE, ss.A_LEN, 0xF)
        peer_qpn, psn = 0x000321, 0x0100
        qpn, _ = ss.exchange(p, peer_qpn, psn, 40001)
        s0, sent0 = settle(p)
        bad = nf.check_identity(s0, sent0)
        check_true("the identity after boot and the exchange", not bad, "every sum equal", "; ".join(bad))

        want = {}   # counter -> how much the mix moves it

        def add(*names):
            for n in names:
                want[n] = want.get(n, 0) + 1

        def w(psn_, key=key_a, va=ss.A_BASE, n=32, **kw):
            return roce(bth(ss.OPC["WRITE_ONLY"], qpn, psn_, **kw) + reth(va, key, n), bytes(range(n)))

        auto0 = p.sent
        mix = []   # (frame, counters it must move); sent one at a time, paced
        for i in range(3):   # good WRITEs in sequence
            mix.append((w(psn + i), ("net.rx_roce", "roce.rx_packets", "rdma.rx_write_requests")))
        mix.append((w(psn + 1), ("net.rx_roce", "roce.rx_packets", "roce.resp_dup")))
        mix.append((w(psn + 13), ("net.rx_roce", "roce.rx_packets", "roce.resp_nak_seq")))
        mix.append((arp_request(), ("net.rx_mgmt", "mgmt.rx_frames", "link.recv")))
        mix.append((eth_hdr() + ipv4(icmp_echo(9, 1), 1) + icmp_echo(9, 1),
                    ("net.rx_mgmt", "mgmt.rx_frames", "link.recv")))
        mix.append((tcp_syn(9), ("net.rx_mgmt", "mgmt.rx_frames", "link.recv")))
        # QP 1 (the GSI QP): the packet layer hands it to the firmware
        mix.append((roce(bth(0x64, 1, 0) + bytes(8) + bytes(24)),
                    ("net.rx_mgmt", "mgmt.rx_frames", "link.recv", "gsi.qp1_mads")))
        # RoCE for another IP of ours: the firmware's (lwIP drops it)
        mix.append((roce(bth(0x0A, qpn, psn) + reth(0, 0, 0), dst_ip="10.0.0.77"),
                    ("net.rx_mgmt", "mgmt.rx_frames", "link.recv")))
        # the packet layer's drops
        mix.append((eth_hdr(dst="02:00:00:00:77:77") + ipv4(icmp_echo(9, 2), 1) + icmp_echo(9, 2),
                    ("net.drop_not_for_us",)))
        mix.append((eth_hdr() + ipv4(icmp_echo(9, 3), 1, csum=0x1234) + icmp_echo(9, 3), ("net.drop_bad_csum",)))
        mix.append((eth_hdr() + ipv4(icmp_echo(9, 4), 1, ver_ihl=0x44) + icmp_echo(9, 4), ("net.drop_bad_hdr",)))
        mix.append((roce(bth(0x0A, qpn, psn + 3) + reth(ss.A_BASE, key_a, 4), bytes(4), udp_len=40),
                    ("net.drop_bad_hdr",)))
        long_icmp = icmp_echo(9, 5, bytes(200))
        mix.append(((eth_hdr() + ipv4(long_icmp, 1, total=20 + len(long_icmp) + 100) + long_icmp),
                    ("net.drop_trunc", "mgmt.rx_drop_bad")))   # 3 beats: queued, then marked bad
        mix.append((w(psn + 3)[:50], ("net.drop_trunc",)))     # one beat: dropped before queueing
        big = icmp_echo(9, 6, bytes(9100))
        # past 9018 bytes: queued (it fits the queue), marked bad on its 141st beat
        mix.append((eth_hdr() + ipv4(big, 1) + big, ("net.drop_malformed", "mgmt.rx_drop_bad")))
        # the RoCE parse's drops
        mix.append((roce(bth(0x0A, qpn, psn + 3) + reth(ss.A_BASE, key_a, 4), bytes(4), bad_icrc=True),
                    ("net.rx_roce", "roce.rx_icrc_bad")))
        mix.append((roce(bth(0x24, qpn, psn + 3), bytes(8)), ("net.rx_roce", "roce.rx_bad_opcode")))
        mix.append((roce(bth(0x0A, qpn, psn + 3, tver=1) + reth(ss.A_BASE, key_a, 4), bytes(4)),
                    ("net.rx_roce", "roce.rx_bad_version")))
        mix.append((roce(bth(0x0A, qpn, psn + 3) + bytes(4)), ("net.rx_roce", "roce.rx_bad_len")))
        # the transport's drops
        mix.append((roce(bth(0x0A, 0x7777, psn + 3) + reth(ss.A_BASE, key_a, 4), bytes(4)),
                    ("net.rx_roce", "roce.rx_packets", "roce.resp_drop_qp")))
        mix.append((roce(bth(0x64, qpn, psn + 3) + bytes(8), bytes(16)),
                    ("net.rx_roce", "roce.rx_packets", "roce.resp_drop_not_rc")))
        # last: a WRITE at the expected PSN with the wrong rkey (whatever it does to the QP)
        mix.append((w(psn + 3, key=key_a ^ 0x100), ("net.rx_roce", "roce.rx_packets", "roce.resp_nak_acc")))
        for f, names in mix:
            p.send(f)
            add(*names)
            time.sleep(0.15)   # paced: the firmware takes each management frame before the next
        # a burst of 12 broadcast frames of an unknown ethertype: the ring has 8 slots
        burst = [eth_hdr(dst="ff:ff:ff:ff:ff:ff", etype=0x88B5) + bytes([i]) * 46 for i in range(12)]
        for f in burst:
            p.send(f)
        time.sleep(2.0)
        # the answers the mix must bring: ARP reply, echo reply, RST, ACKs and NAKs
        p.expect(lambda f: f.haslayer("ARP") and f["ARP"].op == 2, "the NIC's ARP reply")
        p.expect(lambda f: f.haslayer("ICMP") and f["ICMP"].type == 0 and f["ICMP"].seq == 1, "the echo reply")
        s1, _ = settle(p)
        auto = p.sent - auto0 - len(mix) - len(burst)   # the peer's own ARP replies (to the NIC's requests)
        want["net.rx_mgmt"] = want.get("net.rx_mgmt", 0) + auto + len(burst)
        want["link.recv"] = want.get("link.recv", 0) + auto
        want["mgmt.rx_frames"] = want.get("mgmt.rx_frames", 0) + auto
        d = {k: s1.get(k, 0) - s0.get(k, 0) for k in set(s1) | set(s0)}
        # the burst: every frame either stored or dropped for a full ring, at least 12 - 8 - 2 dropped
        burst_full = d["mgmt.rx_drop_full"]
        check_true("the burst overflowed the 8-slot ring and was counted", 2 <= burst_full <= 12,
                   "2..12 in mgmt rx_drop_full", str(burst_full))
        want["mgmt.rx_drop_full"] = burst_full
        want["mgmt.rx_frames"] += len(burst) - burst_full
        want["link.recv"] += len(burst) - burst_full
        checked = ["net." + k for k in nf.NET_RX] + ["roce." + k for k in nf.ROCE_RX] + [
            "mgmt.rx_frames", "mgmt.rx_drop_full", "mgmt.rx_drop_too_long", "mgmt.rx_drop_bad", "link.recv",
            "driver.rx_runt", "driver.rx_nomem", "gsi.qp1_mads", "roce.resp_drop_qp", "roce.resp_drop_not_rc",
            "roce.resp_dup", "roce.resp_nak_seq", "roce.resp_nak_acc", "roce.resp_nak_inv", "rdma.rx_write_requests"]
        wrong = []
        for k in checked:
            if d.get(k, 0) != want.get(k, 0):
                wrong.append(f"{k}: moved {d.get(k, 0)}, the mix says {want.get(k, 0)}")
        print(f"mix: {len(mix)} frames one at a time, a burst of {len(burst)}, {auto} ARP replies; "
              f"{p.sent} frames sent since boot")
        for k in checked:
            print(f"  {k:26s} +{d.get(k, 0)}")
        check_true("every counter moved by what the mix says", not wrong, "no difference", "; ".join(wrong))
        bad = nf.check_identity(s1, p.sent)
        check_true("the identity of fw/README.md", not bad, "every sum equal", "; ".join(bad))
        for w_, a, b in nf.identity(s1, p.sent):
            print(f"  {w_}: {a} = {b}")
        print("accounting: every frame in exactly one counter")


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print(f"FAIL: {e}")
        sys.exit(1)
