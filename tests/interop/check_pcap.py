#!/usr/bin/env python3
"""Check a RoCEv2 capture: every RoCE packet's ICRC, and tshark's decode.

    check_pcap.py FILE.pcap [--expect OPCODE ...]

For every Ethernet/IPv4/UDP frame to port 4791 the ICRC is recomputed (CRC-32
over the invariant fields: 8 bytes of ones for the absent LRH, the IPv4 header
with TOS, TTL and checksum set to ones, the UDP header with its checksum set to
ones, the BTH with its reserved byte 4 set to ones, then the rest of the
packet up to the ICRC) and compared with the stored one (least significant
byte first). Then tshark decodes the file: it must find exactly as many
InfiniBand (RoCE) frames and no malformed packet. Exit 0 when all holds.
"""
import argparse
import collections
import struct
import subprocess
import sys
import zlib

ROCE_PORT = 4791
OPCODES = {0x00: "SEND_FIRST", 0x01: "SEND_MIDDLE", 0x02: "SEND_LAST", 0x03: "SEND_LAST_IMM",
           0x04: "SEND_ONLY", 0x05: "SEND_ONLY_IMM", 0x06: "WRITE_FIRST", 0x07: "WRITE_MIDDLE",
           0x08: "WRITE_LAST", 0x09: "WRITE_LAST_IMM", 0x0A: "WRITE_ONLY",
           0x0B: "WRITE_ONLY_IMM", 0x0C: "READ_REQUEST", 0x0D: "READ_RESPONSE_FIRST",
           0x0E: "READ_RESPONSE_MIDDLE", 0x0F: "READ_RESPONSE_LAST", 0x10: "READ_RESPONSE_ONLY",
           0x11: "ACKNOWLEDGE", 0x12: "ATOMIC_ACKNOWLEDGE", 0x13: "COMPARE_SWAP",
           0x14: "FETCH_ADD", 0x16: "SEND_LAST_INV", 0x17: "SEND_ONLY_INV"}


def read_pcap(data):
    """Frames of a classic pcap file (either byte order, micro- or nanosecond)."""
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        e = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = ">"
    else:
        raise ValueError("not a classic pcap file")
    linktype = struct.unpack(e + "I", data[20:24])[0]
    if linktype != 1:
        raise ValueError(f"link type {linktype}, expected Ethernet (1)")
    off, frames = 24, []
    while off + 16 <= len(data):
        _, _, incl, orig = struct.unpack(e + "IIII", data[off:off + 16])
        off += 16
        frames.append((data[off:off + incl], orig))
        off += incl
    return frames


def roce_packet(frame):
    """(ip_header, udp_header, ib_part) of an IPv4 RoCEv2 frame, else None."""
    if len(frame) < 14 + 20 + 8 or frame[12:14] != b"\x08\x00":
        return None
    ip = frame[14:]
    ihl = (ip[0] & 0x0F) * 4
    total = struct.unpack(">H", ip[2:4])[0]
    if ip[0] >> 4 != 4 or ip[9] != 17 or total > len(ip):
        return None
    ip = ip[:total]                     # drops Ethernet padding
    udp = ip[ihl:ihl + 8]
    if struct.unpack(">H", udp[2:4])[0] != ROCE_PORT:
        return None
    return ip[:ihl], udp, ip[ihl + 8:]


def icrc(ip_hdr, udp_hdr, ib):
    """The ICRC RoCEv2 puts after `ib` (ib without its last 4 bytes)."""
    ip = bytearray(ip_hdr)
    ip[1] = 0xFF                        # TOS (DSCP, ECN)
    ip[8] = 0xFF                        # TTL
    ip[10:12] = b"\xff\xff"             # header checksum
    udp = bytearray(udp_hdr)
    udp[6:8] = b"\xff\xff"              # UDP checksum
    bth = bytearray(ib[:12])
    bth[4] = 0xFF                       # resv8a (FECN, BECN, reserved)
    return zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(bth) + ib[12:-4]) & 0xFFFFFFFF


def check_icrc(frames):
    """(opcode counter, list of problems)."""
    ops, bad = collections.Counter(), []
    for i, (f, orig) in enumerate(frames, 1):
        p = roce_packet(f)
        if p is None:
            continue
        ip, udp, ib = p
        if len(f) < orig:
            bad.append(f"frame {i}: truncated in the capture ({len(f)} of {orig} bytes)")
            continue
        if len(ib) < 16:
            bad.append(f"frame {i}: RoCE packet of {len(ib)} bytes")
            continue
        ops[OPCODES.get(ib[0], "OPCODE_0x%02x" % ib[0])] += 1
        want = icrc(ip, udp, ib)
        got = int.from_bytes(ib[-4:], "little")
        if want != got:
            bad.append(f"frame {i}: ICRC {got:08x}, computed {want:08x}")
    return ops, bad


def tshark_check(path):
    """(RoCE frames tshark decodes, malformed frames), or raises on a tshark failure."""
    def count(flt):
        p = subprocess.run(["tshark", "-n", "-r", path, "-Y", flt, "-T", "fields",
                            "-e", "frame.number"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError(f"tshark failed on {path}: {p.stderr.strip()[:300]}")
        return [ln for ln in p.stdout.splitlines() if ln.strip()]
    return len(count("infiniband")), count("_ws.malformed || _ws.expert.severity == error")


def check(path, expect=(), tshark=True):
    """Problems found in the capture (empty: all good) and the opcode counts."""
    data = open(path, "rb").read()
    frames = read_pcap(data)
    ops, bad = check_icrc(frames)
    n = sum(ops.values())
    if n == 0:
        bad.append("no RoCE packet in the capture")
    for op in expect:
        if ops[op] == 0:
            bad.append(f"no {op} packet in the capture")
    if tshark:
        decoded, malformed = tshark_check(path)
        if decoded != n:
            bad.append(f"tshark decodes {decoded} RoCE frames, the capture has {n}")
        if malformed:
            bad.append("tshark reports malformed or erroneous frames: " + ", ".join(malformed[:10]))
    return bad, ops


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pcap")
    ap.add_argument("--expect", nargs="*", default=[], help="opcodes that must occur")
    ap.add_argument("--no-tshark", action="store_true")
    a = ap.parse_args()
    bad, ops = check(a.pcap, a.expect, not a.no_tshark)
    print(f"{a.pcap}: {sum(ops.values())} RoCE packets: "
          + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())))
    for b in bad:
        print("  " + b)
    print("ok" if not bad else f"{len(bad)} problem(s)")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
