#!/usr/bin/env python3
"""Check a RoCEv2 capture: every RoCE packet's ICRC, and tshark's decode.

    check_pcap.py FILE.pcap [--expect OPCODE ...] [--echo [--chk-from IP]]

For every Ethernet/IPv4/UDP frame to port 4791 the ICRC is recomputed (CRC-32
over the invariant fields: 8 bytes of ones for the absent LRH, the IPv4 header
with TOS, TTL and checksum set to ones, the UDP header with its checksum set to
ones, the BTH with its reserved byte 4 set to ones, then the rest of the
packet up to the ICRC) and compared with the stored one (least significant
byte first). Then tshark decodes the file: it must find exactly as many
InfiniBand (RoCE) frames and no malformed packet. With --echo, every SEND
conversation (a QP pair) is reassembled in PSN order and must be an
ibv_rc_pingpong data phase: each message came back unchanged, as many each
way; --chk-from IP: IP's messages are the tool's --chk buffer (0x7b, 0 at
each 4 KiB page start). Exit 0 when all holds.
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


SEND_OPS = {0x00: 0, 0x01: 0, 0x02: 0, 0x03: 4, 0x04: 0, 0x05: 4, 0x16: 4, 0x17: 4}  # extra header bytes
SEND_LAST_OPS = {0x02, 0x03, 0x04, 0x05, 0x16, 0x17}
PAGE = 4096


def send_messages(frames):
    """The SEND messages of every QP pair, reassembled in PSN order (retransmitted packets,
    same PSN, count once and must carry the same payload). Returns (conversations, problems):
    conversations is a list of dicts {a, b, sport, first: (src, [messages]), second: (...)}
    in the order they began, `first` being the side that sent the first SEND."""
    flows, order, bad = {}, [], []
    for i, (f, orig) in enumerate(frames, 1):
        p = roce_packet(f)
        if p is None or len(f) < orig:
            continue
        ip, udp, ib = p
        op = ib[0]
        if op not in SEND_OPS or len(ib) < 16:
            continue
        src, dst = ip[12:16], ip[16:20]
        sport = struct.unpack(">H", udp[0:2])[0]
        dqpn = int.from_bytes(ib[5:8], "big")
        psn = int.from_bytes(ib[9:12], "big")
        pad = (ib[1] >> 4) & 3
        payload = bytes(ib[12 + SEND_OPS[op]:len(ib) - 4 - pad])
        key = (src, dst, sport, dqpn)
        segs = flows.setdefault(key, [])
        # a new conversation on the same key starts with a far-away (random) PSN
        if not segs or (psn - segs[-1]["base"]) & 0xFFFFFF >= 1 << 20:
            segs.append({"base": psn, "pkts": {}, "t": i})
            order.append((i, key, len(segs) - 1))
        seg = segs[-1]
        rel = (psn - seg["base"]) & 0xFFFFFF
        if rel in seg["pkts"]:
            if seg["pkts"][rel][1] != payload:
                bad.append(f"frame {i}: a retransmitted SEND (PSN {psn:#x}) carries other data")
            continue
        seg["pkts"][rel] = (op, payload)
    def messages(seg):
        msgs, cur = [], b""
        for rel in sorted(seg["pkts"]):
            op, payload = seg["pkts"][rel]
            cur += payload
            if op in SEND_LAST_OPS:
                msgs.append(cur)
                cur = b""
        return msgs
    convs, used = [], set()
    for t, key, n in order:
        if (key, n) in used:
            continue
        src, dst, sport, _ = key
        # the answer: the other direction, same UDP source port (both ends derive it from the
        # QP pair), the first segment that began after this one and is not taken yet
        other = None
        for t2, key2, n2 in order:
            if (key2, n2) not in used and key2[:3] == (dst, src, sport) and t2 > t:
                other = (key2, n2)
                break
        used.add((key, n))
        first = (".".join(map(str, src)), messages(flows[key][n]))
        second = (".".join(map(str, dst)), [])
        if other:
            used.add(other)
            second = (".".join(map(str, dst)), messages(flows[other[0]][other[1]]))
        convs.append({"a": first[0], "b": second[0], "sport": sport, "first": first,
                      "second": second})
    return convs, bad


def chk_pattern_ok(msg):
    """ibv_rc_pingpong --chk's client buffer: 0x7b, with 0 at the start of every page."""
    return all(b == (0 if i % PAGE == 0 else 0x7B) for i, b in enumerate(msg))


# perftest -R's exchange in SENDs over its RDMA CM connection: two-way, not an echo; its
# first message is perftest's version string
PERFTEST_R_FIRST = b"6.06\0"


def check_echo(frames, pattern_from=""):
    """ibv_rc_pingpong's data phase: in every conversation with SENDs both ways (one-way
    ones, ib_send_bw's, and perftest -R's exchange are left alone) the answering side's
    i-th SEND equals the first side's i-th SEND, as many each way; when pattern_from (an
    IPv4 address) sent first, its messages must be --chk's buffer. Returns (the two-way
    conversations, problems)."""
    convs, bad = send_messages(frames)
    convs = [c for c in convs if c["first"][1] and c["second"][1] and
             not c["first"][1][0].startswith(PERFTEST_R_FIRST)]
    for c in convs:
        (a, ma), (b, mb) = c["first"], c["second"]
        tag = f"SENDs {a} <-> {b} (UDP source port {c['sport']})"
        if len(ma) != len(mb):
            bad.append(f"{tag}: {len(ma)} messages one way, {len(mb)} back")
        for i, (x, y) in enumerate(zip(ma, mb)):
            if x != y:
                d = next((j for j in range(min(len(x), len(y))) if x[j] != y[j]), min(len(x), len(y)))
                bad.append(f"{tag}: message {i + 1} came back different ({len(x)} bytes sent, "
                           f"{len(y)} back, first difference at byte {d})")
        if a in pattern_from.split(","):
            for i, m in enumerate(ma):
                if not chk_pattern_ok(m):
                    bad.append(f"{tag}: message {i + 1} from {a} is not --chk's buffer")
    return convs, bad


def write_last_bytes(frames):
    """ib_write_lat's data: per sender IP, the last payload byte of each RDMA WRITE
    message (WRITE_ONLY or WRITE_LAST), in capture order, retransmissions (the same
    PSN again) counted once.
    perftest puts the iteration number (mod 256) there and the peer watches it."""
    seen, out = set(), collections.defaultdict(list)
    for frame, _ in frames:
        pkt = roce_packet(frame)
        if not pkt or len(pkt[2]) < 12 + 4:
            continue
        ip, _, ib = pkt
        op, pad = ib[0], (ib[1] >> 4) & 3
        if op not in (0x08, 0x0A):
            continue
        src = ".".join(str(b) for b in ip[12:16])
        psn = struct.unpack(">I", ib[8:12])[0] & 0xFFFFFF
        if (src, psn) in seen:
            continue
        seen.add((src, psn))
        hdr = 12 + (16 if op == 0x0A else 0)
        payload = ib[hdr:len(ib) - 4 - pad]
        if payload:
            out[src].append(payload[-1])
    return dict(out)


# the packets of a multi-packet message that are full by definition: their payload is the
# QP's path MTU exactly (IBTA 9.7.2: every packet but the last carries PMTU bytes)
FULL_OPS = {0x00, 0x01, 0x06, 0x07, 0x0D, 0x0E}   # SEND/WRITE FIRST, MIDDLE; READ_RESPONSE FIRST, MIDDLE
# bytes between the BTH and the payload: RETH (WRITE FIRST/ONLY), AETH (READ responses but
# MIDDLE, ACK), ImmDt/IETH; READ_REQUEST and the atomics carry none
EXT_HDR = {0x03: 4, 0x05: 4, 0x06: 16, 0x09: 4, 0x0A: 16, 0x0B: 20, 0x0C: 16, 0x0D: 4, 0x0F: 4,
           0x10: 4, 0x11: 4, 0x12: 12, 0x13: 28, 0x14: 28, 0x16: 4, 0x17: 4}


def path_mtus(frames):
    """Per flow (source IP, destination IP, destination QPN, UDP source port: a QPN used
    again by a later session comes with another peer QPN, so another port): the set of
    payload sizes of its full packets (FIRST and MIDDLE of SEND, WRITE and READ responses)
    and the largest payload of any of its packets. A flow's full packets all carry its path
    MTU; none carries more. Returns {(src, dst, dqpn, sport): (set of full sizes, largest)}."""
    out = {}
    for frame, orig in frames:
        pkt = roce_packet(frame)
        if not pkt or len(frame) < orig or len(pkt[2]) < 16:
            continue
        ip, udp, ib = pkt
        op, pad = ib[0], (ib[1] >> 4) & 3
        n = len(ib) - 12 - EXT_HDR.get(op, 0) - 4 - pad
        key = (".".join(map(str, ip[12:16])), ".".join(map(str, ip[16:20])),
               int.from_bytes(ib[5:8], "big"), struct.unpack(">H", udp[0:2])[0])
        if op == 0x0C:      # a READ request has no payload
            n = 0
        elif key[2] == 1:   # QP 1 (RDMA CM's MADs): UD, a DETH of 8 bytes
            n -= 8
        full, big = out.get(key, (set(), 0))
        if op in FULL_OPS:
            full.add(n)
        out[key] = (full, max(big, n))
    return out


def pmtu_problems(frames, pmtu):
    """Every flow that sent a message of more than one packet did so at `pmtu`: its full
    packets carry exactly pmtu bytes, and no packet of any flow carries more."""
    bad = []
    for (src, dst, qpn, _), (full, big) in sorted(path_mtus(frames).items()):
        if full and full != {pmtu}:
            bad.append(f"{src} -> {dst} QP {qpn:#x}: full packets of {sorted(full)} bytes, "
                       f"path MTU {pmtu} expected")
        if big > pmtu:
            bad.append(f"{src} -> {dst} QP {qpn:#x}: a payload of {big} bytes, above the path MTU {pmtu}")
    return bad


def tshark_check(path):
    """(RoCE frames tshark decodes, malformed frames), or raises on a tshark failure."""
    def count(flt):
        # RPC-over-RDMA's heuristic claims any short SEND payload and calls it malformed
        p = subprocess.run(["tshark", "-n", "--disable-heuristic", "rpcrdma_infiniband", "-r", path, "-Y", flt, "-T", "fields",
                            "-e", "frame.number"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError(f"tshark failed on {path}: {p.stderr.strip()[:300]}")
        return [ln for ln in p.stdout.splitlines() if ln.strip()]
    return len(count("infiniband")), count("_ws.malformed || _ws.expert.severity == error")


def check(path, expect=(), tshark=True, echo=False, pattern_from=""):
    """Problems found in the capture (empty: all good) and the opcode counts. echo: every
    SEND conversation must be a pingpong (check_echo)."""
    data = open(path, "rb").read()
    frames = read_pcap(data)
    ops, bad = check_icrc(frames)
    if echo:
        bad += check_echo(frames, pattern_from)[1]
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
    ap.add_argument("--echo", action="store_true",
                    help="every SEND conversation is ibv_rc_pingpong's: echoed byte for byte")
    ap.add_argument("--chk-from", default="", metavar="IP",
                    help="with --echo: IP sends ibv_rc_pingpong --chk's client buffer")
    a = ap.parse_args()
    bad, ops = check(a.pcap, a.expect, not a.no_tshark, a.echo, a.chk_from)
    print(f"{a.pcap}: {sum(ops.values())} RoCE packets: "
          + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())))
    if a.echo:
        for c in send_messages(read_pcap(open(a.pcap, "rb").read()))[0]:
            (x, mx), (y, my) = c["first"], c["second"]
            print(f"  SENDs {x} -> {y}: {len(mx)} messages of {sorted({len(m) for m in mx})} bytes, "
                  f"{len(my)} back")
    for b in bad:
        print("  " + b)
    print("ok" if not bad else f"{len(bad)} problem(s)")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
