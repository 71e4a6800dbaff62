#!/usr/bin/python3
"""Writes the test vectors of the net benches (tests/net/tb_net_rx.cpp,
tb_net_tx.cpp): frames built by Scapy (or read from the reference pcaps) and
the expected results from netmodel.py / Scapy, never from the RTL.

RX file lines:
  cfg <our mac hex> <our ip hex>
  frame <hex> <keep override: - | beat:keephex> <mac err 0|1> <verdict> <out hex | ->
  stall 1|0           consumers stop / resume taking (all RoCE and mgmt readies)
  sync                wait until idle, compare every counter and expect nothing pending
  block <name> / endblock   line-rate block: driven back to back, no bubble allowed
TX file lines:
  roce <dmac> <smac> <sip> <dip> <ipid> <sport> <dport> <plen> <payload hex> <frame hex> <len_err 0|1>
  mgmt <frame hex> <tuser 0|1>
  block <name> / endblock / sync
"""
import argparse
import os
import random
import struct

from scapy.all import Ether, IP, UDP, TCP, ICMP, ARP, IPv6, Raw, Dot1Q, rdpcap, raw
from scapy.contrib.roce import BTH

from scapy.utils import checksum

import netmodel as M

OUR_MAC = bytes.fromhex("02005e000101")
OUR_IP = "10.0.0.1"
PEER_MAC = "02:00:5e:00:01:02"
PEER_IP = "10.0.0.2"


def mac_str(b):
    return ":".join(f"{x:02x}" for x in b)


def ip_hex(s):
    return "".join(f"{int(x):02x}" for x in s.split("."))


def pad60(b):
    """What a MAC does to a short frame: zero padding to 60 bytes."""
    return b + bytes(max(0, 60 - len(b)))


class Rx:
    def __init__(self, path, our_mac=OUR_MAC, our_ip=OUR_IP):
        self.f = open(path, "w")
        self.cfg(our_mac, our_ip)
        self.n = 0

    def cfg(self, mac, ip):
        self.mac, self.ip = mac, ip
        self.f.write(f"cfg {mac.hex()} {ip_hex(ip)}\n")

    def frame(self, b, keep=None, mac_err=False, want=None):
        v, out, _ = M.classify(b, self.mac, self.ip, keep_bad=keep is not None, mac_err=mac_err)
        if want is not None:
            assert v == want, f"vector generator: meant {want}, model says {v}"
        kov = "-" if keep is None else f"{keep[0]}:{keep[1]:016x}"
        self.f.write(f"frame {b.hex()} {kov} {int(mac_err)} {v} {out.hex() if out else '-'}\n")
        self.n += 1
        return v

    def line(self, s):
        self.f.write(s + "\n")

    def close(self):
        self.f.close()


# ------------------------------------------------------------ frame builders
def rnd_bytes(r, n):
    return bytes(r.getrandbits(8) for _ in range(n))


def roce(r, plen=None, dst_mac=OUR_MAC, dst_ip=OUR_IP, sport=None, dport=4791, dqpn=None, opcode=None, **ipkw):
    """A RoCEv2 packet as rxe sends it; plen = bytes after BTH before ICRC."""
    if plen is None:
        plen = r.choice([0, 0, 4, 16, 28, r.randrange(0, 1100), r.randrange(0, 4200)])
    p = (Ether(dst=mac_str(dst_mac), src=PEER_MAC)
         / IP(src=PEER_IP, dst=dst_ip, flags="DF", ttl=64, id=r.getrandbits(16), **ipkw)
         / UDP(sport=sport if sport is not None else 0xC000 | r.getrandbits(14), dport=dport, chksum=0)
         / BTH(opcode=opcode if opcode is not None else r.choice([0, 1, 2, 4, 6, 10, 12, 17]),
               dqpn=dqpn if dqpn is not None else r.getrandbits(24),
               psn=r.getrandbits(24), pkey=0xFFFF)
         / Raw(rnd_bytes(r, plen)))
    return pad60(raw(p))


def other(r):
    """Random non-RoCE traffic: ARP, ICMP, TCP, other UDP, IPv6, VLAN,
    multicast, broadcast, foreign unicast, RoCE to another IP."""
    k = r.randrange(11)
    e = Ether(dst=mac_str(OUR_MAC), src=PEER_MAC)
    pl = rnd_bytes(r, r.choice([0, 10, r.randrange(0, 1500)]))
    if k == 0:
        p = Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / ARP(op=1, psrc=PEER_IP, pdst=OUR_IP, hwsrc=PEER_MAC)
    elif k == 1:
        p = e / ARP(op=2, psrc=PEER_IP, pdst=OUR_IP, hwsrc=PEER_MAC, hwdst=mac_str(OUR_MAC))
    elif k == 2:
        p = e / IP(src=PEER_IP, dst=OUR_IP) / ICMP(id=r.getrandbits(16)) / Raw(pl)
    elif k == 3:
        p = e / IP(src=PEER_IP, dst=OUR_IP, flags="DF") / TCP(sport=r.getrandbits(16), dport=18515, flags="PA") / Raw(pl)
    elif k == 4:
        p = e / IP(src=PEER_IP, dst=OUR_IP) / UDP(sport=4791, dport=r.choice([53, 4790, 4792, 18515])) / Raw(pl)
    elif k == 5:
        p = e / IPv6(src="fe80::1", dst="fe80::2") / UDP(dport=4791) / Raw(pl)
    elif k == 6:
        p = e / Dot1Q(vlan=5) / IP(src=PEER_IP, dst=OUR_IP) / UDP(dport=4791) / Raw(pl)
    elif k == 7:
        p = Ether(dst="01:00:5e:00:00:fb", src=PEER_MAC) / IP(src=PEER_IP, dst="224.0.0.251") / UDP(dport=5353) / Raw(pl)
    elif k == 8:
        return roce(r, dst_mac=bytes.fromhex("ffffffffffff"))          # broadcast -> mgmt
    elif k == 9:
        return roce(r, dst_ip="10.0.0.9")                              # not our IP -> mgmt
    else:
        return roce(r, dst_mac=bytes.fromhex("020000aabbcc"))          # foreign unicast -> drop
    return pad60(raw(p))


def fix_ip(b, **fields):
    """Rewrite IPv4 header fields of frame b and recompute its checksum (Scapy)."""
    p = Ether(b)
    for k, v in fields.items():
        setattr(p[IP], k, v)
    p[IP].chksum = None
    return raw(p)


# ----------------------------------------------------------------- RX files
def gen_rx_random(path, seed, n):
    r = random.Random(seed)
    v = Rx(path)
    for i in range(n):
        k = r.random()
        if k < 0.03:
            b = roce(r, dqpn=1, opcode=0x64)                # GSI QP (CM MAD): to the firmware
        elif k < 0.55:
            b = roce(r)
        elif k < 0.93:
            b = other(r)
        else:
            b = roce(r, plen=r.randrange(4000, 8900))       # jumbo
        if r.random() < 0.1 and len(b) + 40 <= M.MAX_FRAME_BYTES:
            b = b + rnd_bytes(r, r.randrange(1, 80))        # trailer past the IP packet
        v.frame(b)
        if i % 500 == 499:
            v.line("sync")
    v.line("sync")
    v.close()


def gen_rx_bad(path, seed):
    r = random.Random(seed)
    v = Rx(path)

    def good():
        v.frame(roce(r, plen=r.randrange(0, 200)), want=M.ROCE)
        v.line("sync")

    base = roce(r, plen=200)             # 14+20+8+12+200+4 = 258 bytes, 5 beats
    # truncation at every byte of the headers and at beat edges
    for cut in list(range(1, 60)) + [63, 64, 65, 127, 128, 129, 200, 255, 257]:
        v.frame(base[:cut])
        good()
    # same with ARP: only the Ethernet header is required
    arp = raw(Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / ARP(psrc=PEER_IP, pdst=OUR_IP))
    for cut in (1, 13, 14, 20, 42):
        v.frame(arp[:cut], want=M.TRUNC if cut < 14 else M.MGMT)
        good()
    # destination QP 1 (the GSI QP, connection-manager MADs) goes to management untouched;
    # QP 0x000001 only: QP 0x010000 and 0x000100 are ordinary RoCE
    v.frame(roce(r, plen=256, dqpn=1, opcode=0x64), want=M.MGMT); good()
    v.frame(roce(r, plen=256, dqpn=0x010000), want=M.ROCE); good()
    v.frame(roce(r, plen=256, dqpn=0x000100), want=M.ROCE); good()
    # IP total length larger than the frame, 1 and many beats
    v.frame(fix_ip(roce(r, plen=100), len=200), want=M.TRUNC); good()
    v.frame(fix_ip(roce(r, plen=1000), len=1100), want=M.TRUNC); good()
    # bad IP checksum: flip bits of the checksum and of other header words
    for i in range(24):
        b = bytearray(roce(r, plen=r.randrange(0, 300)))
        pos = 14 + (10 if i < 8 else r.choice([2, 3, 4, 5, 8, 12, 13, 14, 15, 16, 17, 18, 19]))
        b[pos] ^= 1 << r.randrange(8)
        v.frame(bytes(b), want=M.BAD_CSUM); good()
    # IP options (IHL 6..15, checksum right): management, cut to total length
    for ihl in range(6, 16):
        body = struct.pack("!HHHH", 1234, 4791, 48, 0) + rnd_bytes(r, 40)
        opts = bytes([1]) * (ihl * 4 - 20)                  # NOP options
        tot = ihl * 4 + len(body)
        ih = bytearray(struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, tot, r.getrandbits(16), 0x4000,
                                   64, 17, 0, bytes.fromhex(ip_hex(PEER_IP)), bytes.fromhex(ip_hex(OUR_IP))))
        ih[10:12] = checksum(bytes(ih) + opts).to_bytes(2, "big")
        b = OUR_MAC + bytes.fromhex(PEER_MAC.replace(":", "")) + b"\x08\x00" + bytes(ih) + opts + body
        v.frame(b + bytes(r.randrange(0, 3)), want=M.MGMT); good()
    # fragments: MF set, offset != 0, both
    for fl, off in ((1, 0), (0, 1), (1, 100), (0, 8191)):
        v.frame(fix_ip(roce(r, plen=64), flags=fl | 2 * 0, frag=off), want=M.MGMT); good()
    # version / IHL / total length errors (checksum kept right)
    for ver in (0, 1, 5, 6, 15):
        v.frame(fix_ip(roce(r), version=ver), want=M.BAD_HDR); good()
    for ihl in (0, 1, 4):
        v.frame(fix_ip(roce(r), ihl=ihl), want=M.BAD_HDR); good()
    for tl in (0, 19):
        v.frame(fix_ip(roce(r, plen=20), len=tl), want=M.BAD_HDR); good()
    # RoCE UDP length not total length - 20
    for d in (-1, 1, -8, 100):
        b = bytearray(roce(r, plen=64))
        ul = int.from_bytes(b[38:40], "big") + d
        b[38:40] = ul.to_bytes(2, "big")
        v.frame(bytes(b), want=M.BAD_HDR); good()
    # addressing: other UDP port, other IP, other MAC, broadcast, multicast
    v.frame(roce(r, dport=4790), want=M.MGMT); good()
    v.frame(roce(r, dport=4792), want=M.MGMT); good()
    v.frame(roce(r, dst_ip="10.0.0.3"), want=M.MGMT); good()
    v.frame(roce(r, dst_mac=bytes.fromhex("02005e000102")), want=M.NOT_FOR_US); good()
    v.frame(roce(r, dst_mac=bytes.fromhex("ffffffffffff")), want=M.MGMT); good()
    v.frame(roce(r, dst_mac=bytes.fromhex("01005e000001")), want=M.MGMT); good()
    v.frame(raw(Ether(dst='02:00:00:aa:bb:cc', src=PEER_MAC) / ARP()), want=M.NOT_FOR_US); good()
    # padding of short frames: Ethernet padding and a longer trailer are cut off
    v.frame(roce(r, plen=0), want=M.ROCE); good()                  # 58 + 2 pad
    v.frame(roce(r, plen=0) + bytes(70), want=M.ROCE); good()     # trailer into beat 2
    v.frame(roce(r, plen=50) + rnd_bytes(r, 200), want=M.ROCE); good()
    # tkeep holes and partial non-last beats
    for b, keep in ((roce(r, plen=10), (0, (1 << 40) - 1 - (1 << 20))),            # hole, 1 beat
                    (roce(r, plen=10), (0, 0)),                                   # empty beat
                    (roce(r, plen=200), (0, (1 << 63) - 1)),                      # beat 0 partial
                    (roce(r, plen=200), (2, (1 << 32) - 1)),                      # middle partial
                    (roce(r, plen=200), (4, 0x2)),                                # last: no byte 0
                    (roce(r, plen=200), (4, 0)),                                  # last empty
                    (other(random.Random(3)), (0, 0xFF00FF))):
        nb = M.beats(len(b))
        if keep[0] < nb:
            v.frame(b, keep=keep, want=M.MALFORMED); good()
    # MAC errors
    v.frame(roce(r, plen=10), mac_err=True, want=M.MAC_ERR); good()
    v.frame(roce(r, plen=1000), mac_err=True, want=M.MAC_ERR); good()
    v.frame(arp, mac_err=True, want=M.MAC_ERR); good()
    # sizes at the limit: jumbo RoCE and non-IP frames, oversize
    v.frame(roce(r, plen=M.MAX_FRAME_BYTES - 58), want=M.ROCE); good()
    big = raw(Ether(dst=mac_str(OUR_MAC), src=PEER_MAC, type=0x88B5) / Raw(rnd_bytes(r, 9004)))
    v.frame(big, want=M.MGMT); good()
    v.frame(big + b"x", want=M.MALFORMED); good()
    v.frame(big + rnd_bytes(r, 300), want=M.MALFORMED); good()
    v.frame(roce(r, plen=M.MAX_FRAME_BYTES - 57), want=M.MALFORMED); good()
    v.frame(fix_ip(roce(r, plen=M.MAX_FRAME_BYTES - 58), len=9100), want=M.TRUNC); good()
    v.close()


def gen_rx_full(path, seed, roce_depth, mgmt_depth, hdr_depth):
    """Consumers stopped: the model of the queue space decides which frames fit."""
    r = random.Random(seed)
    v = Rx(path)
    occ = {M.ROCE: 0, M.MGMT: 0}
    nhdr = 0
    depth = {M.ROCE: roce_depth, M.MGMT: mgmt_depth}
    v.line("stall 1")
    frames = []
    for i in range(60):
        k = r.random()
        if k < 0.6:
            frames.append(roce(r, plen=r.choice([0, 30, 300, 1000, 2000])))
        elif k < 0.8:
            frames.append(raw(Ether(dst="ff:ff:ff:ff:ff:ff", src=PEER_MAC) / ARP(psrc=PEER_IP, pdst=OUR_IP)))
        else:
            frames.append(pad60(raw(Ether(dst=mac_str(OUR_MAC), src=PEER_MAC) / IP(src=PEER_IP, dst=OUR_IP)
                                    / ICMP() / Raw(rnd_bytes(r, r.choice([10, 500, 1400]))))))
    for b in frames:
        c, out, resv = M.classify(b, OUR_MAC, OUR_IP)
        assert c in (M.ROCE, M.MGMT)
        fits = depth[c] - occ[c] >= resv and (c != M.ROCE or nhdr < hdr_depth)
        kov = "-"
        if fits:
            occ[c] += M.beats(len(out))
            nhdr += c == M.ROCE
            v.line(f"frame {b.hex()} {kov} 0 {c} {out.hex()}")
        else:
            full = M.ROCE_FULL if c == M.ROCE else M.MGMT_FULL
            v.line(f"frame {b.hex()} {kov} 0 {full} -")
    v.line("stall 0")
    v.line("sync")
    # many tiny RoCE frames: the header queue is the limit
    v.line("stall 1")
    nhdr = 0
    for i in range(hdr_depth + 5):
        b = roce(r, plen=0)
        c, out, _ = M.classify(b, OUR_MAC, OUR_IP)
        if nhdr < hdr_depth:
            nhdr += 1
            v.line(f"frame {b.hex()} - 0 {c} {out.hex()}")
        else:
            v.line(f"frame {b.hex()} - 0 {M.ROCE_FULL} -")
    v.line("stall 0")
    v.line("sync")
    v.frame(roce(r, plen=100), want=M.ROCE)
    v.line("sync")
    v.close()


def server_client(frames):
    """MAC of each IP, from the pcap's IPv4 frames."""
    macs = {}
    for p in frames:
        if IP in p:
            macs[p[IP].src] = bytes.fromhex(p.src.replace(":", ""))
    return macs


def gen_rx_pcap(path, pcaps):
    v = Rx(path)
    for pc in pcaps:
        fr = rdpcap(pc)
        macs = server_client(fr)
        for ip in sorted(macs):                     # once as each side
            v.cfg(macs[ip], ip)
            for p in fr:
                v.frame(raw(p))
            v.line("sync")
    v.close()


def gen_rx_linerate(path, seed, sizes, n):
    r = random.Random(seed)
    v = Rx(path)
    for L in sizes:
        v.line(f"block rx_{L}")
        for _ in range(n):
            b = roce(r, plen=L - 58)
            assert len(b) == L
            v.frame(b, want=M.ROCE)
        v.line("endblock")
        v.line("sync")
    v.line("block rx_mixed_76_9018")
    for _ in range(n * 4):
        L = r.choice([76, 77, 100, 128, 129, 500, 1082, 1500, r.randrange(76, 9019)])
        v.frame(roce(r, plen=L - 58), want=M.ROCE)
    v.line("endblock")
    v.line("block rx_mgmt_mixed")
    for _ in range(n * 2):
        L = r.randrange(76, 1600)
        b = pad60(raw(Ether(dst=mac_str(OUR_MAC), src=PEER_MAC) / IP(src=PEER_IP, dst=OUR_IP)
                      / TCP(dport=18515) / Raw(rnd_bytes(r, L - 54))))
        v.frame(b, want=M.MGMT)
    v.line("endblock")
    v.line("sync")
    v.close()


# ----------------------------------------------------------------- TX files
def tx_roce_line(dmac, smac, sip, dip, ipid, sport, dport, payload, plen=None):
    """Expected frame from Scapy with rxe's header choices."""
    hl = len(payload) if plen is None else plen
    p = (Ether(dst=mac_str(dmac), src=mac_str(smac))
         / IP(src=sip, dst=dip, id=ipid, flags="DF", ttl=64, tos=0, len=hl + 28)
         / UDP(sport=sport, dport=dport, chksum=0, len=hl + 8) / Raw(payload))
    fr = raw(p)
    return (f"roce {dmac.hex()} {smac.hex()} {ip_hex(sip)} {ip_hex(dip)} {ipid:04x} {sport:04x} "
            f"{dport:04x} {hl:04x} {payload.hex()} {fr.hex()} {int(plen is not None and plen != len(payload))}")


def tx_rand_roce(r, plen):
    return tx_roce_line(OUR_MAC, bytes.fromhex("02005e000102"), OUR_IP, PEER_IP, r.getrandbits(16),
                        0xC000 | r.getrandbits(14), 4791, rnd_bytes(r, plen))


def gen_tx_random(path, seed, n):
    r = random.Random(seed)
    with open(path, "w") as f:
        for i in range(n):
            k = r.random()
            if k < 0.55:
                plen = r.choice([1, 2, 12, 16, 21, 22, 23, 24, 28, 64, 85, 86, 87, r.randrange(1, 1100),
                                 r.randrange(1, 4200), r.randrange(4000, 8900)])
                f.write(tx_rand_roce(r, plen) + "\n")
            elif k < 0.95:
                b = other(r)
                f.write(f"mgmt {b.hex()} {int(r.random() < 0.05)}\n")
            else:
                pl = rnd_bytes(r, r.randrange(1, 300))
                f.write(tx_roce_line(OUR_MAC, bytes.fromhex("02005e000102"), OUR_IP, PEER_IP, 7, 0xC001,
                                     4791, pl, plen=len(pl) + r.choice([-1, 1, 64])) + "\n")
            if i % 400 == 399:
                f.write("sync\n")
        f.write("sync\n")


def gen_tx_pcap(path, pcaps):
    """Rebuild every RoCE frame of the captures from its fields + UDP payload:
    the builder must give back rxe's frame byte for byte."""
    with open(path, "w") as f:
        for pc in pcaps:
            for p in rdpcap(pc):
                if UDP in p and p[UDP].dport == 4791:
                    ip, u = p[IP], p[UDP]
                    pl = raw(u.payload)
                    line = tx_roce_line(bytes.fromhex(p.dst.replace(":", "")),
                                        bytes.fromhex(p.src.replace(":", "")),
                                        ip.src, ip.dst, ip.id, u.sport, u.dport, pl)
                    exp = line.split()[10]
                    assert exp == raw(p).hex(), "Scapy rebuild differs from the capture"
                    f.write(line + "\n")
                else:
                    f.write(f"mgmt {raw(p).hex()} 0\n")
        f.write("sync\n")


def gen_tx_linerate(path, seed, sizes, n):
    r = random.Random(seed)
    with open(path, "w") as f:
        for L in sizes:                                   # L = frame bytes
            f.write(f"block tx_roce_{L}\n")
            for _ in range(n):
                f.write(tx_rand_roce(r, L - 42) + "\n")
            f.write("endblock\nsync\n")
        for L in sizes:
            f.write(f"block tx_both_{L}\n")
            for _ in range(n):
                f.write(tx_rand_roce(r, L - 42) + "\n")
                b = raw(Ether(dst=PEER_MAC, src=mac_str(OUR_MAC)) / IP(src=OUR_IP, dst=PEER_IP)
                        / TCP() / Raw(rnd_bytes(r, L - 54)))
                f.write(f"mgmt {b.hex()} 0\n")
            f.write("endblock\nsync\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--pcaps", nargs="*", default=[])
    ap.add_argument("--roce-depth", type=int, default=256)
    ap.add_argument("--mgmt-depth", type=int, default=256)
    ap.add_argument("--hdr-depth", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    o = lambda n: os.path.join(a.outdir, n)
    sizes = [60, 64, 65, 70, 75, 76, 77, 100, 127, 128, 129, 192, 256, 512, 1024, 1082, 1500, 4096, 9018]
    gen_rx_random(o("rx_random.vec"), a.seed, 2000)
    gen_rx_random(o("rx_random2.vec"), a.seed + 10, 3000)
    gen_rx_bad(o("rx_bad.vec"), a.seed + 1)
    gen_rx_full(o("rx_full.vec"), a.seed + 2, a.roce_depth, a.mgmt_depth, a.hdr_depth)
    gen_rx_pcap(o("rx_pcap.vec"), a.pcaps)
    gen_rx_linerate(o("rx_linerate.vec"), a.seed + 3, sizes, 40)
    gen_tx_random(o("tx_random.vec"), a.seed + 4, 2000)
    gen_tx_random(o("tx_random2.vec"), a.seed + 14, 3000)
    gen_tx_pcap(o("tx_pcap.vec"), a.pcaps)
    gen_tx_linerate(o("tx_linerate.vec"), a.seed + 5, [s for s in sizes if s >= 64], 40)


if __name__ == "__main__":
    main()
