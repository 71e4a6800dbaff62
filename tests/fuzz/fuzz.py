#!/usr/bin/env python3
"""Whole-NIC RoCE fuzz (issue 15 item 2): mutated frames at a NIC whose QPs are in RTS.

    fuzz.py [--frames N] [--seed S] [--batch B] [--pool K] [--rearm-every R] [--min-live F] [--out DIR]
            [--shards N] [--json FILE]

The NIC (build/sim/solonic_sim, its port on a unix datagram socket: lossless, so the
peer's count of what it sent is exact) makes a QP with its own `listen` (the fence QP),
and `qp clone --quiet` makes K more in RTS from it (the pool). Batches of B frames follow,
seeded, in rounds: one draw at each live pool QP (a request built right and then, for
most, mutated one way: the kinds in KINDS: opcode, PSN around the expected one, rkey,
addresses and lengths at and across MR edges, RETH length, destination QPN, truncation,
ICRC, IP/UDP lengths and checksum, oversize frames, pad count, version, byte flips,
multi-packet sequence errors, UD and atomics), then the fence: a zero-length WRITE at
the fence QP, whose ACK says the NIC took every frame before it. The pool QPs that
answered with a NAK that ends the QP (remote access, invalid request) are then in
ERROR: they take no frames until a `qp rearm` of them (sent at the fence, done by the
firmware while the next round goes to the others, its answer checked at the next
fence: exactly those QPs back in RTS) brings them back at their first PSN. So nearly
every frame reaches a live QP, in sequence; a frame to a dead QP stays possible (a
mutated destination QPN, R > 1). Every --sync frames a ping and a resync: each pool QP
gets a zero-length WRITE at the PSN the model expects and one 2^22 ahead, whose
sequence NAK carries the PSN its responder expects. The frames of batch i are a
function of the seed, i and the NIC's answers at the fences (in order, so the run is
reproducible: the same seed gives the same counters). After the responder's part the
NIC is the requester: it READs from the peer (`read` on its console) and the peer
answers with mutated READ responses and ACKs/NAKs around the request's PSNs, then with
the right ones; the READ must complete and its bytes match.

After every batch, the invariants: the NIC answers a ping from the peer; `stats`
accounts for every frame the peer sent (fw/README.md's identity, exact); `verify` of
the seeded pattern over all memory the test filled outside the MR that allows remote
writes finds every byte unchanged; a fresh exchange makes a new QP on which a WRITE
from the peer and a READ back return the bytes written (and `verify` agrees); it is the
next batch's fence QP. A failed invariant prints the seed and batch and writes the
batch's frames to a pcap.
--shards N runs N of these at once (seeds S .. S + N - 1, each its own simulator and
--out subdirectory, the frames split between them) and merges their tables: make fuzz
uses both cores so. At the end: a table of frames by mutation kind, drops by counter, the NIC's NAKs by
kind, the pool's rearms, the share of RoCE frames that reached a live QP (and in
sequence: not dropped in a NAK episode nor a duplicate; --min-live sets a floor on it),
wall time and frames per wall second.
"""
import argparse
import collections
import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

import nicfuzz as nf
from nicfuzz import (Failure, Peer, aeth, atomic_eth, bth, check, check_true, parse_stats, reseal, reth,
                     roce)
import session as ss

OPC = ss.OPC
PMTU = ss.PMTU
FILL_SEED = 77
# kind -> weight. The kinds that mostly end the QP (a remote access or invalid request NAK:
# rkey, edge, reth_len, seq, atomic, opcode, half of oversize) are weighted low: each QP
# ended costs the firmware three context writes in `qp rearm` (about 40 ms of wall time,
# some eighty good frames' worth); as weighted, about 6 % of the frames end their QP
KINDS = {
    "good": 34, "good_multi": 3, "good_read": 6, "good_atomic": 2,
    "opcode": 1, "psn": 6, "rkey": 1, "edge": 1, "reth_len": 1, "dqpn": 2, "trunc": 4, "icrc": 4,
    "ip_len": 3, "ip_csum": 2, "udp_len": 3, "oversize": 1, "pad": 2, "tver": 1, "flip": 3,
    "seq": 1, "ud": 1, "atomic": 1,
}
RESP_KINDS = ["rsp_psn", "rsp_opcode", "rsp_syndrome", "rsp_len", "rsp_dqpn", "rsp_trunc", "rsp_icrc",
              "rsp_flip", "rsp_ghost_ack"]
NAK_NAMES = {0: "ack", 1: "rnr_nak", 3: "nak"}
NAK_CODES = {0: "nak_psn_seq", 1: "nak_invalid_request", 2: "nak_remote_access", 3: "nak_remote_op",
             4: "nak_invalid_rd_request"}


class Gen:
    """The responder's part: requests at the NIC's QP, built right then mutated."""

    def __init__(self, seed, qpn, key_a, key_b, epsn):
        self.r = random.Random(seed)
        self.qpn, self.ka, self.kb, self.epsn = qpn, key_a, key_b, epsn
        self.other = qpn + 1   # another live QP (a mutated destination QPN names it)
        self.kinds = list(KINDS)
        self.weights = [KINDS[k] for k in self.kinds]

    def rb(self, n):
        return self.r.randbytes(n)

    def inside(self, base, length, n):
        return base + self.r.randrange(0, max(1, length - n + 1))

    def write(self, psn, n=None, va=None, key=None, opcode=OPC["WRITE_ONLY"], ackreq=None):
        r = self.r
        n = r.choice([0, 1, 3, 8, 63, 64, 100, 257, 1024]) if n is None else n
        va = self.inside(ss.A_BASE, ss.A_LEN, n) if va is None else va
        key = self.ka if key is None else key
        ackreq = r.randrange(2) if ackreq is None else ackreq
        hdr = bth(opcode, self.qpn, psn, ackreq=ackreq) + reth(va, key, n)
        if opcode == OPC["WRITE_ONLY_IMM"]:
            hdr += r.randrange(1 << 32).to_bytes(4, "big")
        return roce(hdr, self.rb(n))

    def read(self, psn, n=None, va=None, key=None):
        r = self.r
        n = r.choice([0, 1, 8, 512, 1024, 1025, 3000]) if n is None else n
        base, length, k = r.choice([(ss.A_BASE, ss.A_LEN, self.ka), (ss.B_BASE, ss.B_LEN, self.kb)])
        va = self.inside(base, length, n) if va is None else va
        return roce(bth(OPC["READ_REQ"], self.qpn, psn) + reth(va, k if key is None else key, n)), max(1, -(-n // PMTU))

    def atomic(self, psn, va=None, key=None):
        r = self.r
        op = r.choice([OPC["CMP_SWAP"], OPC["FETCH_ADD"]])
        va = (ss.A_BASE + 8 * r.randrange(ss.A_LEN // 8)) if va is None else va
        return roce(bth(op, self.qpn, psn) + atomic_eth(va, self.ka if key is None else key,
                                                        r.randrange(1 << 64), r.randrange(1 << 64)))

    def send(self, psn):
        r = self.r
        op = r.choice([OPC["SEND_ONLY"], OPC["SEND_ONLY_IMM"], OPC["WRITE_ONLY_IMM"]])
        if op == OPC["WRITE_ONLY_IMM"]:
            return self.write(psn, n=r.randrange(0, 64), opcode=op)
        hdr = bth(op, self.qpn, psn, ackreq=1)
        if op == OPC["SEND_ONLY_IMM"]:
            hdr += b"\x12\x34\x56\x78"
        return roce(hdr, self.rb(r.randrange(0, 64)))

    def frames(self):
        """[(frame, kind)] for one draw; PSN-advancing only for the good kinds."""
        r = self.r
        kind = r.choices(self.kinds, self.weights)[0]
        e = self.epsn
        if kind == "good":
            f = self.write(e)
            self.epsn = (e + 1) & 0xFFFFFF
            return [(f, kind)]
        if kind == "good_multi":
            n = r.choice([1025, 2048, 2049, 3000])
            npk = -(-n // PMTU)
            va = self.inside(ss.A_BASE, ss.A_LEN, n)
            data = self.rb(n)
            out = []
            for i in range(npk):
                chunk = data[i * PMTU:(i + 1) * PMTU]
                if i == 0:
                    out.append(roce(bth(OPC["WRITE_FIRST"], self.qpn, e) + reth(va, self.ka, n), chunk))
                else:
                    op = OPC["WRITE_LAST"] if i == npk - 1 else OPC["WRITE_MIDDLE"]
                    out.append(roce(bth(op, self.qpn, e + i, ackreq=int(i == npk - 1)), chunk))
            self.epsn = (e + npk) & 0xFFFFFF
            return [(f, kind) for f in out]
        if kind == "good_read":
            f, npk = self.read(e)
            self.epsn = (e + npk) & 0xFFFFFF
            return [(f, kind)]
        if kind == "good_atomic":
            self.epsn = (e + 1) & 0xFFFFFF
            return [(self.atomic(e), kind)]
        # mutations: a request at the expected PSN, changed one way (the PSN model does not move)
        base = r.choice([lambda: self.write(e), lambda: self.read(e)[0], lambda: self.atomic(e),
                         lambda: self.send(e)])
        if kind == "opcode":
            f = bytearray(base())
            f[42] = r.randrange(256)
            return [(reseal(f), kind)]
        if kind == "psn":
            d = r.choice([-3, -2, -1, 1, 2, 3, 4, 1 << 23, -(1 << 23), (1 << 23) - 1, r.randrange(1 << 24)])
            f = bytearray(base())
            f[51:54] = ((e + d) & 0xFFFFFF).to_bytes(3, "big")
            return [(reseal(f), kind)]
        if kind == "rkey":
            key = r.choice([self.kb, self.ka ^ (1 << r.randrange(32)), 0, 0xFFFFFFFF, r.randrange(1 << 32)])
            return [(r.choice([lambda: self.write(e, key=key), lambda: self.read(e, key=key)[0],
                               lambda: self.atomic(e, key=key)])(), kind)]
        if kind == "edge":
            n = r.choice([1, 2, 8, 64, 100, 1024])
            end = ss.A_BASE + ss.A_LEN
            va = r.choice([ss.A_BASE - 1, ss.A_BASE - n, ss.A_BASE - n + 1, end - n, end - n + 1, end, end - 1,
                           ss.B_BASE - n + 1, ss.A_BASE + (1 << 32), (1 << 64) - r.randrange(1, 64)])
            if r.randrange(3) == 0:
                return [(self.atomic(e, va=va & ~7 if r.randrange(2) else va), kind)]
            if r.randrange(2):
                return [(self.write(e, n=n, va=va), kind)]
            return [(self.read(e, n=n, va=va)[0], kind)]
        if kind == "reth_len":
            n = r.choice([1, 8, 100])
            f = bytearray(self.write(e, n=n))
            claim = r.choice([n - 1, n + 1, 0, 1 << 31, 0xFFFFFFFF, n + 4])
            f[66:70] = (claim & 0xFFFFFFFF).to_bytes(4, "big")
            return [(reseal(f), kind)]
        if kind == "dqpn":
            f = bytearray(base())
            f[47:50] = r.choice([0, 2, self.other, 0xFFFFFF, r.randrange(1 << 24)]).to_bytes(3, "big")
            return [(reseal(f), kind)]
        if kind == "trunc":
            f = base()
            cut = r.randrange(14, len(f))
            f = bytearray(f[:cut])
            if r.randrange(2) and cut >= 42:   # lengths made to match the cut: the RoCE layer sees it
                f[16:18] = (cut - 14).to_bytes(2, "big")
                f[38:40] = (cut - 34).to_bytes(2, "big")
                f = bytearray(reseal(f))
            return [(bytes(f), kind)]
        if kind == "icrc":
            f = bytearray(base())
            i = r.randrange(42, len(f))
            f[i] ^= 1 << r.randrange(8)
            return [(bytes(f), kind)]
        if kind == "ip_len":
            f = bytearray(base())
            tl = int.from_bytes(f[16:18], "big")
            f[16:18] = ((tl + r.choice([-8, -4, -1, 1, 4, 64, -tl, 0xFFFF - tl])) & 0xFFFF).to_bytes(2, "big")
            if r.randrange(2):
                f[24:26] = b"\0\0"
                f[24:26] = nf.ip_csum(f[14:34]).to_bytes(2, "big")
            return [(bytes(f), kind)]
        if kind == "ip_csum":
            f = bytearray(base())
            f[24] ^= 1 << r.randrange(8)
            return [(bytes(f), kind)]
        if kind == "udp_len":
            f = bytearray(base())
            ul = int.from_bytes(f[38:40], "big")
            f[38:40] = ((ul + r.choice([-1, 1, -4, 4, -ul, 0xFFFF - ul])) & 0xFFFF).to_bytes(2, "big")
            return [(bytes(f), kind)]
        if kind == "oversize":
            if r.randrange(2):   # a WRITE with more payload than the path MTU (NAK), up to a jumbo frame
                return [(self.write(e, n=r.choice([1025, 2048, 4096, 8000])), kind)]
            f = base()
            return [(f + self.rb(9019 - len(f) + r.randrange(0, 200)), kind)]   # past 9018 bytes
        if kind == "pad":
            f = bytearray(base())
            f[43] = (f[43] & ~0x30) | (r.randrange(4) << 4)
            return [(reseal(f), kind)]
        if kind == "tver":
            f = bytearray(base())
            f[43] = (f[43] & 0xF0) | r.randrange(1, 16)
            return [(reseal(f), kind)]
        if kind == "flip":
            f = bytearray(base())
            for _ in range(r.randrange(1, 5)):
                f[r.randrange(12, len(f))] = r.randrange(256)
            return [(reseal(f) if r.randrange(2) else bytes(f), kind)]
        if kind == "seq":
            va = self.inside(ss.A_BASE, ss.A_LEN, 2 * PMTU)
            c = self.rb(PMTU)
            first = roce(bth(OPC["WRITE_FIRST"], self.qpn, e) + reth(va, self.ka, PMTU + 5), c)
            mid = roce(bth(OPC["WRITE_MIDDLE"], self.qpn, e), c)
            last = roce(bth(OPC["WRITE_LAST"], self.qpn, e), c[:5])
            close = roce(bth(OPC["WRITE_LAST"], self.qpn, e + 1, ackreq=1), c[:5])   # ends the FIRST's message
            seqs = [[mid], [last], [first, first, close], [first, self.write(e + 1), close],
                    [first, self.send(e + 1), close],
                    [first, roce(bth(OPC["WRITE_MIDDLE"], self.qpn, e + 1), c[:100]), close]]
            q = r.choice(seqs)
            if len(q) == 3:   # the FIRST and the closing LAST are in order
                self.epsn = (e + 2) & 0xFFFFFF
            return [(f, kind) for f in q]
        if kind == "ud":
            return [(roce(bth(r.choice([0x64, 0x65]), self.qpn, e) + self.rb(8) +
                          (self.rb(4) if r.randrange(2) else b""), self.rb(r.randrange(64))), kind)]
        if kind == "atomic":   # misaligned, wrong key, to the read-only MR
            va = ss.A_BASE + 8 * r.randrange(ss.A_LEN // 8) + r.randrange(1, 8)
            return [(r.choice([lambda: self.atomic(e, va=va), lambda: self.atomic(e, va=ss.B_BASE, key=self.kb)])(),
                     kind)]
        raise AssertionError(kind)


REARM_MAX = 22        # QPNs on one `qp rearm` line (the console's 24 words)
FATAL = (1, 2, 3, 4)   # the NAK codes that end the QP (docs/transport.md "QP errors")


class Slot:
    """One of the NIC's QPs the fuzz aims at: its QPN, the peer's QPN it answers to and the
    PSN its responder is expected to want next (the model the generator builds around)."""

    def __init__(self, qpn, peer, epsn):
        self.qpn, self.peer, self.epsn, self.epsn0 = qpn, peer, epsn, epsn
        self.down = False   # in ERROR, its `qp rearm` on the way: no frames until it is back


class Stats:
    def __init__(self):
        self.kinds = collections.Counter()
        self.naks = collections.Counter()
        self.replies = 0
        self.probes = collections.Counter()
        self.peers = set()  # the peer QPNs of the QPs aimed at (answers to others go to roce_q)
        self.sync = {}      # peer QPN -> the PSN its responder's last NAK said it expects (steering)
        self.last = {}      # peer QPN -> (opcode, PSN, AETH syndrome) of the NIC's last answer
        self.fatal = set()  # peer QPNs whose QP sent a NAK that ends it (since the last rearm)
        self.rearmed = 0    # QPs brought back from ERROR by `qp rearm`
        self.rearms = 0     # `qp rearm` commands
        self.replaced = 0   # fence QPs replaced by a new exchange
        self.key_a = 0      # MR A's key (the probes' zero-length WRITEs name it)

    def hook(self):
        def h(r):
            op, dqpn, psn, rest, _ = r
            if dqpn not in self.peers:
                return False
            self.replies += 1
            self.last[dqpn] = (op, psn, rest[0] if rest else None)
            if op in (OPC["ACK"], OPC["ATOMIC_ACK"], OPC["READ_RESP_FIRST"], OPC["READ_RESP_LAST"],
                      OPC["READ_RESP_ONLY"]) and len(rest) >= 4:
                syn = rest[0]
                t = syn >> 5
                if t == 3:   # a NAK carries the PSN the responder expects
                    self.naks[NAK_CODES.get(syn & 31, f"nak_{syn & 31}")] += 1
                    self.sync[dqpn] = psn
                    if syn & 31 in FATAL:
                        self.fatal.add(dqpn)
                elif t == 1:
                    self.naks["rnr_nak"] += 1
                    self.sync[dqpn] = psn
                else:        # an ACK: everything up to psn done (the estimate only moves forward:
                    self.naks["ack" if op == OPC["ACK"] else "read/atomic response"] += 1
                    self.sync.pop(dqpn, None)   # the ACK of a duplicate carries an older PSN)
            elif op == OPC["READ_RESP_MIDDLE"]:
                self.naks["read/atomic response"] += 1
            else:
                self.naks[f"other opcode 0x{op:02x}"] += 1
            return True
        return h


def ping(p, ident, seq, tries=3):
    """An echo request from the peer, answered within 20 s; up to `tries` requests (one sent
    right behind a burst may find the management ring full: dropped and counted)."""
    from test_accounting import icmp_echo
    seq &= 0x3FFF
    for t in range(tries):
        body = icmp_echo(ident, seq << 2 | t, b"fuzz ping %d" % seq)
        p.send(nf.eth_hdr() + nf.ipv4(body, 1) + body)
        try:
            p.expect(lambda f: f.haslayer("ICMP") and f["ICMP"].type == 0 and f["ICMP"].id == ident and
                     f["ICMP"].seq >> 2 == seq, f"the NIC's echo reply {seq}", timeout=20)
            return
        except Failure:
            if t == tries - 1:
                raise


def fence(p, st, f):
    """A zero-length WRITE, ACK requested, at the fence QP f (a QP the fuzz never aims at):
    its responder works in order, so its ACK comes after the NIC took every frame sent
    before it (and the hook every answer to them). True on the ACK of that PSN; False
    otherwise (the fence QP was hit by a mutated destination QPN: the caller replaces it)."""
    st.last[f.peer] = None
    psn = f.epsn
    p.send(roce(bth(OPC["WRITE_ONLY"], f.qpn, psn, ackreq=1) + reth(ss.A_BASE, st.key_a, 0)))
    st.kinds["fence (zero-length WRITE)"] += 1
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        x = st.last.get(f.peer)
        if x is not None:
            if x[0] == OPC["ACK"] and x[2] >> 5 == 0 and x[1] == psn:
                f.epsn = (psn + 1) & 0xFFFFFF
                return True
            return False
        time.sleep(0.002)
    return False


def resync(p, st, slots, f):
    """The PSN each pool QP's responder expects, from the QP itself: a zero-length WRITE at
    the model's PSN (ends a NAK episode the model is right about), then one 2^22 ahead (a
    PSN sequence NAK that carries the expected PSN, whatever the model thought), then the
    fence; each slot takes the PSN of its last NAK. Returns the frames sent."""
    for s in slots:
        if s.down:
            continue
        for d in (0, 1 << 22):
            p.send(roce(bth(OPC["WRITE_ONLY"], s.qpn, s.epsn + d, ackreq=1) + reth(ss.A_BASE, st.key_a, 0)))
            st.kinds["probe (zero-length WRITE)"] += 1
    return 2 * len(slots)


def settle(p, tries=6):
    for _ in range(tries):
        sent = p.sent
        s = parse_stats(p.cmd("stats"))
        if sum(s[f"net.{k}"] for k in nf.NET_RX) == sent and p.sent == sent:
            return s, sent
        time.sleep(0.5)
    return s, sent


def requester_batch(p, r, qpn, peer_qpn, key_d, nmut, st, seed):
    """The NIC READs 2500 bytes from the peer; the peer answers with nmut mutated responses
    around the request's PSNs first, then with the right ones (again for every READ the NIC
    sends, as a retransmission after a NAK or an implicit NAK asks). The READ must complete
    with success and verify against the pattern the peer served."""
    n = 2500
    laddr = ss.D_BASE + r.randrange(0, 0x1000)
    raddr = 0x7000_0000 + r.randrange(0, 1 << 20)
    line = f"read {qpn:#x} {laddr:#x} {raddr:#x} 0x1234 {n}"
    st.pending = []
    saved = p.roce_hook
    p.roce_hook = None
    p.drain_roce()
    p.sim.send(line + "\r")
    req = p.expect_roce(lambda x: x[0] == OPC["READ_REQ"] and x[1] == peer_qpn, "the NIC's READ request")
    psn0 = req[2]
    data = nf.pattern(seed, laddr, n)

    def answer(psn, va, length):
        out = []
        k = max(1, -(-length // PMTU))
        off = va - raddr
        for i in range(k):
            chunk = data[off + i * PMTU: off + min(length, (i + 1) * PMTU)]
            if k == 1:
                op, h = OPC["READ_RESP_ONLY"], aeth(0x1F, 1)
            elif i == 0:
                op, h = OPC["READ_RESP_FIRST"], aeth(0x1F, 1)
            elif i == k - 1:
                op, h = OPC["READ_RESP_LAST"], aeth(0x1F, 1)
            else:
                op, h = OPC["READ_RESP_MIDDLE"], b""
            out.append(roce(bth(op, qpn, psn + i, ackreq=0) + h, chunk))
        return out

    right = answer(psn0, raddr, n)
    for _ in range(nmut):
        kind = r.choice(RESP_KINDS)
        st.kinds[kind] += 1
        i = r.randrange(len(right))
        f = bytearray(right[i])
        if kind == "rsp_psn":    # outside the outstanding PSNs: older (duplicates) or beyond
            d = r.choice([-1, -2, -3, -100, 3, 4, 5, 1 << 23])
            f[51:54] = ((psn0 + d) & 0xFFFFFF).to_bytes(3, "big")
            f = reseal(f)
        elif kind == "rsp_opcode":  # another response or request opcode, at an old PSN
            f[42] = r.choice([OPC["ACK"], OPC["ATOMIC_ACK"], OPC["READ_RESP_ONLY"], OPC["READ_RESP_MIDDLE"],
                              r.randrange(256)])
            f[51:54] = ((psn0 - 1 - r.randrange(4)) & 0xFFFFFF).to_bytes(3, "big")
            f = reseal(f)
        elif kind == "rsp_syndrome":   # an ACK/NAK with any syndrome at an old PSN (a duplicate)
            f = roce(bth(OPC["ACK"], qpn, (psn0 - 1 - r.randrange(8)) & 0xFFFFFF, ackreq=0) +
                     aeth(r.randrange(256), r.randrange(1 << 24)))
        elif kind == "rsp_ghost_ack":  # an ACK beyond every request sent (no such request)
            f = roce(bth(OPC["ACK"], qpn, (psn0 + 3 + r.randrange(1000)) & 0xFFFFFF, ackreq=0) +
                     aeth(r.choice([0x1F, 0x60, 0x61, 0x62, 0x63, 0x20]), 0))
        elif kind == "rsp_len":  # a payload that does not fit where it claims to be, at an old PSN
            f = roce(bytes(f[42:54]) + (bytes(f[54:58]) if f[42] != OPC["READ_RESP_MIDDLE"] else b""),
                     r.randbytes(r.choice([0, 1, 1023, 1025, 2000])))
            f = bytearray(f)
            f[51:54] = ((psn0 - 1 - r.randrange(4)) & 0xFFFFFF).to_bytes(3, "big")
            f = reseal(f)
        elif kind == "rsp_dqpn":
            f[47:50] = r.choice([0, 2, qpn + 1, peer_qpn + 1, 0xFFFFFF]).to_bytes(3, "big")
            f = reseal(f)
        elif kind == "rsp_trunc":
            f = f[:r.randrange(14, len(f))]
        elif kind == "rsp_icrc":
            f[r.randrange(42, len(f))] ^= 1 << r.randrange(8)
        elif kind == "rsp_flip":   # any bytes of the headers; the checksums left as they are
            for _ in range(r.randrange(1, 4)):
                f[r.randrange(12, 58)] = r.randrange(256)
        p.send(bytes(f))
    for f in right:
        p.send(f)
    deadline = time.monotonic() + nf.WAIT * 2
    answered = 0
    seen = []
    while True:
        # serve retransmitted READ requests while waiting for the console's line
        try:
            x = p.roce_q.get(timeout=0.2)
            seen.append(f"op 0x{x[0]:02x} psn 0x{x[2]:06x} {x[3][:16].hex()}")
            if x[0] == OPC["READ_REQ"] and x[1] == peer_qpn:
                va = int.from_bytes(x[3][0:8], "big")
                ln = int.from_bytes(x[3][12:16], "big")
                for f in answer(x[2], va, ln):
                    p.send(f)
                answered += 1
        except queue.Empty:
            pass
        p.sim._read(0)
        txt = p.sim.text[p.sim.pos:]
        if "read: " in txt and "\n" in txt[txt.index("read: "):]:
            break
        if time.monotonic() > deadline:
            raise Failure("requester batch: the READ completes", f"a 'read:' line within {nf.WAIT * 2} s",
                          repr(nf.tail(txt, 400)) + f"; first READ request PSN 0x{psn0:06x}; the NIC sent since: " +
                          "; ".join(seen[-12:]))
    out = p.sim.upto_prompt("the READ")
    p.roce_hook = saved
    check_true(f"requester batch: {line} completes with success", f"IBV_WC_SUCCESS, {n} bytes" in out,
               f"IBV_WC_SUCCESS, {n} bytes", out)
    out = p.cmd(f"verify {laddr:#x} {n} {seed}")
    check_true("requester batch: the READ's bytes are the peer's", "all bytes match" in out, "all bytes match", out)
    return answered


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=2500)
    ap.add_argument("--sync", type=int, default=2500, help="frames between PSN re-synchronisations")
    ap.add_argument("--pool", type=int, default=64, help="QPs the frames go to, one draw each per round")
    ap.add_argument("--rearm-every", type=int, default=1, help="rounds between a fence + `qp rearm`")
    ap.add_argument("--min-live", type=float, default=0.0,
                    help="fail unless at least this fraction of the RoCE frames reached a live QP in sequence")
    ap.add_argument("--resp-mut", type=int, default=40, help="mutated responses per requester batch")
    ap.add_argument("--out", default="build/fuzz")
    ap.add_argument("--sim-arg", action="append", default=[],
                    help="an extra argument of build/sim/solonic_sim (e.g. --sim-arg=--stats, "
                         "--sim-arg=--profile --sim-arg=PREFIX)")
    ap.add_argument("--max-seconds", type=int, default=0,
                    help="the simulator's wall-time bound (default: 3,600 s, or 50 ms a frame when more)")
    ap.add_argument("--shards", type=int, default=1,
                    help="runs at once, each its own simulator and seed (seed, seed + 1, ...), the frames split "
                         "between them, their tables merged")
    ap.add_argument("--json", default="", help="write the run's counts here (what --shards merges)")
    a = ap.parse_args()
    if a.shards > 1:
        return run_shards(a, sys.argv[1:])
    max_seconds = a.max_seconds or max(3600, a.frames // 20)
    os.makedirs(a.out, exist_ok=True)
    t0 = time.monotonic()
    st = Stats()
    peer_qpn = 0x000400
    batch = 0
    with Peer(keep_recent=a.batch * 4 + 1000, max_seconds=max_seconds, extra=a.sim_arg) as p:
        try:
            p.boot()
            key_a = ss.mr_reg(p, ss.A_BASE, ss.A_LEN, 0xF)
            key_b = ss.mr_reg(p, ss.B_BASE, ss.B_LEN, 0x5)
            key_d = ss.mr_reg(p, ss.D_BASE, ss.D_LEN, 0x1)
            key_c = ss.mr_reg(p, ss.C_BASE, ss.C_LEN, 0xF)
            out = p.cmd(f"fill {ss.GUARD_LO:#x} {ss.GUARD_HI - ss.GUARD_LO:#x} {FILL_SEED}")
            check_true("fill of the guarded memory", "fill:" in out and "bytes in" in out, "fill: ...", out)
            rng = random.Random(a.seed)
            epsn = rng.randrange(1 << 24)
            st.key_a = key_a
            # the fence QP (an exchange's; every batch ends with a new one) and the pool the
            # frames go to: `qp clone` copies of the first exchange's QP, towards the peer's
            # QPNs peer_qpn + 1 .. + POOL (the exchanges take theirs above them)
            qpn, _ = ss.exchange(p, peer_qpn, epsn, 41000)
            fq = Slot(qpn, peer_qpn, epsn)
            out = p.cmd(f"qp clone {qpn:#x} {a.pool} --quiet")
            m = re.search(r"qp clone:([ 0-9a-fx]*) in RTS", out)
            made = [int(x, 16) for x in m.group(1).split()] if m else []
            check_true(f"qp clone: {a.pool} QPs in RTS", len(made) == a.pool, f"{a.pool} QPNs", out)
            slots = [Slot(q, peer_qpn + 1 + i, epsn) for i, q in enumerate(made)]
            by_qpn = {x.qpn: x for x in slots}
            peer_qpn += a.pool + 1
            st.peers = {fq.peer} | {x.peer for x in slots}
            p.roce_hook = st.hook()
            s_first, _ = settle(p)
            gen = Gen(a.seed, slots[0].qpn, key_a, key_b, epsn)
            sent_fuzz = 0
            sent_probes = 0
            t_send = 0.0

            def new_fence(why):
                nonlocal peer_qpn
                st.replaced += 1
                st.probes[f"fence QP replaced ({why})"] += 1
                p.roce_hook = None
                st.peers.discard(fq.peer)
                peer_qpn += 1
                fq.epsn = rng.randrange(1 << 24)
                fq.qpn, _ = ss.exchange(p, peer_qpn, fq.epsn, 44000 + peer_qpn % 20000)
                fq.peer = peer_qpn
                st.peers.add(fq.peer)
                p.roce_hook = st.hook()

            rearming = []   # the `qp rearm` line on its way and the slots it names (down till then)

            def collect():
                """The output of the `qp rearm` sent at the last fence (the firmware did it while
                the next round went to the other QPs): exactly the QPs it named are back in RTS,
                their PSN model back to their first PSN."""
                if not rearming:
                    return
                line, xs = rearming.pop()
                # (its echo may have QP event lines in the middle: the answer line is whole)
                m = p.sim.expect(r"qp rearm:([ 0-9a-fx]*) \(\d+ QPs from ERROR back to RTS\)\n",
                                 what=f"the answer to {line!r}")
                p.sim.expect(re.escape(nf.PROMPT), what=f"the prompt after {line!r}")
                got = [int(q, 16) for q in m.group(1).split()]
                check(f"{line}: the QPs that sent a NAK that ends the QP were in ERROR, and are back",
                      [x.qpn for x in xs], got)
                for x in xs:
                    x.epsn, x.down = x.epsn0, False
                    st.sync.pop(x.peer, None)
                st.rearmed += len(xs)

            def settle_round():
                """The fence; then the pool QPs a fatal NAK ended go down and a `qp rearm` of
                them (up to REARM_MAX, the console's line) is sent, its output taken at the next
                fence; the live QPs take the PSN of their last NAK. Returns the frames sent."""
                sent = 1
                while not fence(p, st, fq):
                    collect()
                    new_fence("it did not ACK")
                    sent += 1
                collect()
                dead = [x for x in slots if x.peer in st.fatal]
                st.fatal.clear()
                for x in slots:
                    if st.sync.get(x.peer) is not None:
                        x.epsn = st.sync.pop(x.peer)
                for x in dead:
                    x.down = True
                if dead:   # the rest (rare) wait for the next fence, down
                    st.fatal.update(x.peer for x in dead[REARM_MAX:])
                    dead = dead[:REARM_MAX]
                    line = "qp rearm " + " ".join(f"{x.qpn:#x}" for x in dead)
                    p.sim.send(line + "\r")
                    st.rearms += 1
                    rearming.append((line, dead))
                return sent

            while sent_fuzz < a.frames:
                batch += 1
                gen.r = random.Random(a.seed * 1_000_003 + batch)
                p.recent.clear()
                todo = min(a.batch, a.frames - sent_fuzz)
                tb = time.monotonic()
                n = 0
                sub = 0
                rnd = 0
                probes = 0   # the fences' and resync's zero-length WRITEs (not in --frames)
                while n < todo:
                    # a round: one draw at each pool QP; every REARM_EVERY rounds the fence and the
                    # rearm, so that a QP a fatal NAK ended takes at most REARM_EVERY - 1 draws
                    # while in ERROR (each QP back from ERROR costs the firmware three context
                    # writes: the knob trades live frames for wall time)
                    rnd += 1
                    live = [x for x in slots if not x.down]
                    if not live:   # every pool QP on its way back: the next fence brings them
                        probes += settle_round()
                        continue
                    for i, x in enumerate(live):
                        gen.qpn, gen.epsn, gen.other = x.qpn, x.epsn, live[(i + 1) % len(live)].qpn
                        for f, kind in gen.frames():
                            p.send(f)
                            st.kinds[kind] += 1
                            n += 1
                        x.epsn = gen.epsn
                        if n >= todo:
                            break
                    if rnd % a.rearm_every == 0 and n < todo:
                        probes += settle_round()
                    if n // a.sync > sub:   # every SYNC frames: a ping round trip, and each pool
                        sub = n // a.sync   # QP's responder tells the PSN it expects
                        ping(p, 0x5a00 + batch % 256, sub)
                        probes += resync(p, st, slots, fq)
                        probes += settle_round()
                probes += settle_round()   # the last round's dead QPs back before the invariants
                collect()
                t_send += time.monotonic() - tb
                sent_fuzz += n
                sent_probes += probes
                # invariants
                ping(p, 0x5a5a, batch)
                s, sent = settle(p)
                bad = nf.check_identity(s, sent)
                check_true(f"batch {batch}: every frame sent is in exactly one counter", not bad,
                           "every sum equal", "; ".join(bad))
                for lo, hi in ((ss.GUARD_LO, ss.A_BASE), (ss.A_BASE + ss.A_LEN, ss.GUARD_HI)):
                    out = p.cmd(f"verify {lo:#x} {hi - lo:#x} {FILL_SEED}")
                    check_true(f"batch {batch}: memory outside the remotely writable MR unchanged "
                               f"({lo:#x}..{hi:#x})", "all bytes match" in out, "all bytes match", out)
                state, show = ss.qp_state(p, fq.qpn)
                if state == "RTS":
                    nmut = min(a.resp_mut, max(1, todo // 20))
                    requester_batch(p, random.Random(a.seed * 7919 + batch), fq.qpn, fq.peer, key_d, nmut, st,
                                    1000 + batch)
                    sent_fuzz += nmut
                else:
                    st.kinds[f"fence QP left RTS ({state})"] += 1
                # a fresh exchange (the firmware releases the last session's QP) and a WRITE +
                # READ on the new QP, the next batch's fence
                p.roce_hook = None
                st.peers.discard(fq.peer)
                peer_qpn += 1
                fq.qpn, fq.epsn = ss.fresh_write_read(p, key_c, 2000 + batch, rng.randrange(1 << 24), peer_qpn,
                                                      42000 + batch % 20000)
                fq.peer = peer_qpn
                fresh = fq.qpn
                st.peers.add(fq.peer)
                p.roce_hook = st.hook()
                el = time.monotonic() - t0
                print(f"batch {batch}: {sent_fuzz} frames, fresh QP {fresh:#x} ok, {el:.0f} s, "
                      f"{sent_fuzz / el:.0f} frames/s", flush=True)
            s, sent = settle(p)
            bad = nf.check_identity(s, sent)
            check_true("at the end: every frame sent is in exactly one counter", not bad, "every sum equal",
                       "; ".join(bad))
        except (Failure, OSError, ValueError, IndexError) as e:
            path = os.path.join(a.out, f"fail_seed{a.seed}_batch{batch}.pcap")
            nf.write_pcap(path, list(p.recent))
            print(f"FAIL (seed {a.seed}, batch {batch}; rerun: tests/fuzz/fuzz.py --seed {a.seed} "
                  f"--frames {a.frames} --batch {a.batch}): {e}")
            print(f"the batch's {len(p.recent)} frames: {path}")
            return 1
    wall = time.monotonic() - t0
    d = {k: s.get(k, 0) - s_first.get(k, 0) for k in s}
    summary = {"seeds": [a.seed], "frames": sent_fuzz, "probes_sent": sent_probes, "batches": batch, "wall": wall,
               "t_send": t_send, "kinds": dict(st.kinds), "d": d, "naks": dict(st.naks), "pool": a.pool,
               "rearm_every": a.rearm_every, "rearms": st.rearms, "rearmed": st.rearmed, "probes": dict(st.probes)}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f)
    return report(summary, a.min_live)


def report(sm, min_live):
    """The tables of a run (or of shards merged: merge()); 1 when the live share is below min_live."""
    seeds = ", ".join(str(x) for x in sm["seeds"])
    kinds, d, wall = sm["kinds"], sm["d"], sm["wall"]
    print(f"\nfuzz: seed {seeds}, {sm['frames']} mutated frames (and {sm['probes_sent']} fence and resync probes) in "
          f"{sm['batches']} batches, {wall:.1f} s wall, "
          f"{sm['frames'] / wall:.0f} frames per wall second overall "
          f"({sum(kinds.get(k, 0) for k in KINDS) / max(sm['t_send'], 1e-9):.0f} while sending)")
    print("\n| frames by kind | count |\n| --- | ---: |")
    for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"| {k} | {v} |")
    print("\n| drops and deliveries by counter (during the fuzz) | count |\n| --- | ---: |")
    for k in ["net." + x for x in nf.NET_RX] + ["mgmt.rx_frames", "mgmt.rx_drop_full", "mgmt.rx_drop_bad",
                                                   "roce." + nf.ROCE_RX[0]] + ["roce." + x for x in nf.ROCE_RX[1:]] + [
            "roce.resp_drop_qp", "roce.resp_drop_not_rc", "roce.resp_drop_oos", "roce.resp_drop_dup",
            "roce.resp_dup", "roce.comp_drop_resp", "roce.req_retrans"]:
        print(f"| {k} | {d.get(k, 0)} |")
    print("\n| the NIC's answers to the fuzz QP | count |\n| --- | ---: |")
    for k, v in sorted(sm["naks"].items(), key=lambda kv: -kv[1]):
        print(f"| {k} | {v} |")
    print("\n| the pool's QPs | count |\n| --- | ---: |")
    print(f"| QPs the frames go to (`qp clone`) | {sm['pool']} |")
    print(f"| rounds (a draw at each pool QP) between fences and `qp rearm` | {sm['rearm_every']} |")
    print(f"| `qp rearm` commands (after a fence that followed a fatal NAK) | {sm['rearms']} |")
    print(f"| QPs brought back from ERROR to RTS | {sm['rearmed']} |")
    for k, v in sorted(sm["probes"].items(), key=lambda kv: -kv[1]):
        print(f"| {k} | {v} |")
    for k in ("resp_nak_seq", "resp_nak_inv", "resp_nak_acc", "resp_nak_rnr", "resp_nak_op", "qp_errors",
              "qp_events_lost"):
        print(f"| stats {k} | {d.get('roce.' + k, 0)} |")
    # the RoCE frames the transport parsed that a QP in RTS took (answered, executed, or
    # dropped by its own checks), against those dropped for their QP (unknown, or in ERROR);
    # and of those, the ones it took in sequence: not dropped inside a PSN sequence NAK
    # episode nor answered as duplicates (which a responder does not check again)
    k = ("rx_packets", "resp_drop_qp", "resp_drop_oos", "resp_dup", "resp_drop_dup")
    parsed, dead, oos, dup, dropdup = (d.get(f"roce.{x}", 0) for x in k)
    inseq = parsed - dead - oos - dup - dropdup
    live = inseq / max(1, parsed)
    print(f"\nfuzz: of {parsed} RoCE frames parsed, {parsed - dead} reached a live QP "
          f"({100 * (parsed - dead) / max(1, parsed):.1f} %; resp_drop_qp {dead}), {inseq} a live QP in sequence "
          f"({100 * live:.1f} %; resp_drop_oos {oos}, resp_dup {dup}, resp_drop_dup {dropdup})")
    if live < min_live:
        print(f"FAIL (seed {seeds}): {100 * live:.1f} % of the RoCE frames reached a live QP in sequence, "
              f"expected at least {100 * min_live:.1f} %")
        return 1
    print(f"\nfuzz: {sm['frames']} frames, every invariant held after each of {sm['batches']} batches")
    return 0


def merge(parts, wall):
    """The summaries of shards run at once as one: counts added, wall time the whole run's."""
    sm = {"seeds": [], "frames": 0, "probes_sent": 0, "batches": 0, "wall": wall, "t_send": 0.0, "kinds": {},
          "d": {}, "naks": {}, "pool": parts[0]["pool"], "rearm_every": parts[0]["rearm_every"], "rearms": 0,
          "rearmed": 0, "probes": {}}
    for x in parts:
        sm["seeds"] += x["seeds"]
        for k in ("frames", "probes_sent", "batches", "rearms", "rearmed"):
            sm[k] += x[k]
        sm["t_send"] = max(sm["t_send"], x["t_send"])   # (the shards send at the same time)
        for k in ("kinds", "d", "naks", "probes"):
            for kk, v in x[k].items():
                sm[k][kk] = sm[k].get(kk, 0) + v
    return sm


def run_shards(a, argv):
    """--shards N: N runs at once (seeds seed .. seed + N - 1, frames split between them), each
    its own simulator, its output prefixed; then their tables merged. Any shard failing fails."""
    n = a.shards
    each = -(-a.frames // n)
    keep = []   # the arguments passed on: all but --shards, --frames, --seed, --out, --json
    skip = {"--shards", "--frames", "--seed", "--out", "--json"}
    it = iter(argv)
    for x in it:
        name = x.split("=", 1)[0]
        if name in skip:
            if "=" not in x:
                next(it, None)
            continue
        keep.append(x)
    t0 = time.monotonic()
    procs, outq = [], queue.Queue()
    for i in range(n):
        out = os.path.join(a.out, f"shard{i}")
        os.makedirs(out, exist_ok=True)
        cmd = [sys.executable, os.path.abspath(__file__), "--frames", str(each), "--seed", str(a.seed + i),
               "--out", out, "--json", os.path.join(out, "summary.json")] + keep
        pr = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        procs.append(pr)

        def pump(pr=pr, i=i):
            for line in pr.stdout:
                outq.put(f"[shard {i}, seed {a.seed + i}] {line}")
            outq.put(None)
        threading.Thread(target=pump, daemon=True).start()
    done = 0
    while done < n:
        line = outq.get()
        if line is None:
            done += 1
        else:
            print(line, end="", flush=True)
    rcs = [pr.wait() for pr in procs]
    bad = [i for i, rc in enumerate(rcs) if rc != 0]
    if bad:
        print(f"FAIL: shard(s) {', '.join(f'{i} (seed {a.seed + i})' for i in bad)} failed; their output above")
        return 1
    parts = []
    for i in range(n):
        with open(os.path.join(a.out, f"shard{i}", "summary.json")) as f:
            parts.append(json.load(f))
    return report(merge(parts, time.monotonic() - t0), a.min_live)


if __name__ == "__main__":
    sys.exit(main())
