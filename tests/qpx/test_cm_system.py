"""RDMA CM's passive side in the firmware (fw/roce/cm.c) on the real NIC
(build/sim/solonic_sim), a Scapy peer on its Ethernet port (tests/mgmt/nicpeer.py).

The peer's MADs are the REQ/RTU/DREQ that rdma_client sent in an rxe guest
(tests/data/cm_rdma_client.pcap), with the communication ID, service port,
transport, PSN and timeouts patched at the IBTA offsets here in Python and the ICRC
computed by tests/interop/check_pcap.py: nothing of the firmware's codec is used to
make or read a frame. Every NIC frame must carry a correct ICRC.

- a REQ for a port nobody listens on: REJ, invalid service ID (8), the console names it;
- a UC REQ: REJ, invalid transport (9), "UD/UC not supported"; a SIDR_REQ: SIDR_REP
  unsupported (1);
- listen --cm: REQ -> REP (the REQ's comm ID, a QP in the transport), a duplicate REQ ->
  the same REP again, RTU -> established (console, qp list, qpx), DREQ -> DREP (again
  for a duplicate), the QP freed after the time-wait;
- no RTU: the REP is sent again on the REQ's CM response timeout, then an RC SEND to
  the new QP is taken as the RTU (the transport ACKs it);
- the RTU lost and an RDMA WRITE first: the transport executes it on the QP in RTR (ACK,
  the bytes in memory), the firmware takes it as the RTU (qp_hw_state.req): RTS;
- no RTU at all: after the REQ's max CM retries, REJ (timeout, message REP);
- connect --cm (the active side): the REQ (service ID, librdmacm's header, QPN, PSN,
  GIDs, path MTU), a REJ ends it with its reason; again: REP -> RTU (again for a
  duplicate REP), established; DREQ -> DREP; qpx disconnect: the NIC's DREQ, sent again
  until the DREP;
- console: bad arguments of listen --cm and connect --cm answered with what was wrong; a
  second perftest -R session (listen or connect --rdma-cm) refused while one runs, a
  session without -R beside it accepted.
"""
import os
import re
import struct
import sys

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests/mgmt"))
sys.path.insert(0, os.path.join(ROOT, "tests/interop"))
os.environ.setdefault("SOLONIC_NIC_SIM", os.path.join(ROOT, "build/sim/solonic_sim"))
import check_pcap  # noqa: E402
from nicpeer import PEER_IP, PEER_MAC, NicPeer, nic_ip, nic_mac  # noqa: E402
from nicsim import check, check_true  # noqa: E402

REQ, MRA, REJ, REP, RTU, DREQ, DREP, SIDR_REQ, SIDR_REP = range(0x10, 0x19)
C = 24  # the CM message starts after the 24-byte MAD header


def captured():
    """{attr: MAD bytes} of rdma_client's first REQ to 7471, its RTU and DREQ."""
    out = {}
    frames = check_pcap.read_pcap(open(os.path.join(ROOT, "tests/data/cm_rdma_client.pcap"), "rb").read())
    for f, _ in frames:
        p = check_pcap.roce_packet(f)
        if not p or int.from_bytes(p[2][5:8], "big") != 1:
            continue
        mad = p[2][20:276]
        attr = int.from_bytes(mad[16:18], "big")
        if attr == REQ and int.from_bytes(mad[C + 14:C + 16], "big") != 7471:
            continue
        out.setdefault(attr, mad)
    return out


CAP = captured()


def set_u(b, off, n, v):
    b[off:off + n] = v.to_bytes(n, "big")


def req(comm, port, psn=0x123456, tid=1, transport=0, cm_timeout=8, retries=15, qpn=0x11):
    m = bytearray(CAP[REQ])
    set_u(m, 8, 8, tid)
    set_u(m, C, 4, comm)
    set_u(m, C + 14, 2, port)                       # service ID: RDMA_PS_TCP << 16 | port
    set_u(m, C + 32, 3, qpn)
    m[C + 43] = (m[C + 43] & 0xF9) | transport << 1
    set_u(m, C + 44, 3, psn)
    m[C + 47] = cm_timeout << 3 | (m[C + 47] & 7)  # local CM response timeout: ours to wait
    m[C + 51] = retries << 4 | (m[C + 51] & 0x0F)  # max CM retries
    return bytes(m)


def msg(attr, tid, local, remote, extra=b""):
    m = bytearray(CAP.get(attr, CAP[RTU]))
    set_u(m, 8, 8, tid)
    set_u(m, 16, 2, attr)
    set_u(m, C, 4, local)
    set_u(m, C + 4, 4, remote)
    m[C + 8:C + 8 + len(extra)] = extra
    return bytes(m)


def sidr_req(rid, port):
    m = bytearray(256)
    m[0:4] = bytes([1, 7, 2, 3])
    set_u(m, 8, 8, 77)
    set_u(m, 16, 2, SIDR_REQ)
    set_u(m, C, 4, rid)
    set_u(m, C + 4, 2, 0xFFFF)
    set_u(m, C + 8, 8, 0x01060000 | port)
    return bytes(m)


def frame(ib_wo_icrc, ip_id=1):
    """Ether/IPv4/UDP around BTH... with the ICRC check_pcap computes."""
    pkt = (Ether(dst=nic_mac(), src=PEER_MAC) / IP(src=PEER_IP, dst=nic_ip(), flags="DF", ttl=64, id=ip_id) /
           UDP(sport=0xD001, dport=4791, chksum=0) / (ib_wo_icrc + bytes(4)))
    raw = bytearray(bytes(pkt))
    ip, udp, ib = check_pcap.roce_packet(bytes(raw))
    raw[-4:] = check_pcap.icrc(ip, udp, ib).to_bytes(4, "little")
    return bytes(raw)


def qp1(mad, psn=0):
    bth = bytes([0x64, 0, 0xFF, 0xFF, 0, 0, 0, 1, 0x80]) + psn.to_bytes(3, "big")
    deth = (0x80010000).to_bytes(4, "big") + (1).to_bytes(4, "big")
    return frame(bth + deth + mad)


def rc_send(qpn, psn, payload):
    bth = bytes([0x04, 0, 0xFF, 0xFF, 0]) + qpn.to_bytes(3, "big") + bytes([0x80]) + psn.to_bytes(3, "big")
    return frame(bth + payload)


def rc_write(qpn, psn, va, rkey, payload):
    """RDMA WRITE Only (AckReq) with its RETH."""
    bth = bytes([0x0A, 0, 0xFF, 0xFF, 0]) + qpn.to_bytes(3, "big") + bytes([0x80]) + psn.to_bytes(3, "big")
    reth = va.to_bytes(8, "big") + rkey.to_bytes(4, "big") + len(payload).to_bytes(4, "big")
    return frame(bth + reth + payload)


def mr_keys(s):
    s.send("mr list\r")
    return set(int(k, 16) for k in re.findall(r"(?m)^0x([0-9a-f]{8}) 0x", s.reply("mr list")))


def nic_mad(f):
    """The MAD of a QP 1 frame from the NIC (ICRC checked), else None."""
    raw = bytes(f)
    p = check_pcap.roce_packet(raw)
    if not p or f.src != nic_mac():
        return None
    ip, udp, ib = p
    if int.from_bytes(ib[5:8], "big") != 1:
        return None
    assert int.from_bytes(ib[-4:], "little") == check_pcap.icrc(ip, udp, ib), "the NIC's ICRC is wrong"
    assert ib[0] == 0x64 and ib[12:16] == (0x80010000).to_bytes(4, "big") and len(ib) == 280, ib[:20].hex()
    return ib[20:276]


def attr_of(m):
    return int.from_bytes(m[16:18], "big")


def u(m, off, n):
    return int.from_bytes(m[off:off + n], "big")


def expect_mad(n, attr, what, timeout=40):
    f = n.expect(lambda f: (m := nic_mad(f)) is not None and attr_of(m) == attr, what, timeout=timeout)
    return nic_mad(f)


def test_cm_passive_side():
    with NicPeer(keep_stdin=True, max_seconds=600, max_cycles=4_000_000_000) as n:
        n.boot()
        s = n.sim
        # nobody listens on 7999
        n.send(qp1(req(0x1001, 7999, tid=0x501)))
        m = expect_mad(n, REJ, "REJ for a port nobody listens on")
        check("REJ reason", 8, u(m, C + 10, 2))
        check("REJ names the REQ", (0x1001, 0, 0x501), (u(m, C + 4, 4), m[C + 8] >> 6, u(m, 8, 8)))
        s.expect(r"cm: REQ from 10\.0\.0\.100 for port 7999: nobody listens there: REJ \(invalid service ID\)",
                 what="the console's REJ line")
        # UC and UD
        n.send(qp1(req(0x1002, 7471, transport=1, tid=0x502)))
        m = expect_mad(n, REJ, "REJ for a UC REQ")
        check("UC REJ reason", (9, 0x1002), (u(m, C + 10, 2), u(m, C + 4, 4)))
        s.expect(r"UD/UC not supported", what="UC refused on the console")
        n.send(qp1(sidr_req(0x1003, 7471)))
        m = expect_mad(n, SIDR_REP, "SIDR_REP for a UD service lookup")
        check("SIDR_REP request ID and status", (0x1003, 1), (u(m, C, 4), m[C + 4]))

        # listen --cm: REQ, duplicate REQ, RTU, DREQ, duplicate DREQ
        s.send("listen --cm 7471 --wait 600000\r")
        s.expect(r"listen: RDMA CM on port 7471", what="listen --cm's first line")
        n.send(qp1(req(0x2001, 7471, psn=0x0ABCDE, tid=0x601)))
        rep = expect_mad(n, REP, "REP")
        ours, qpn, psn = u(rep, C, 4), u(rep, C + 12, 3), u(rep, C + 20, 3)
        check("REP answers the REQ", (0x2001, 0x601), (u(rep, C + 4, 4), u(rep, 8, 8)))
        check_true("REP's QPN and comm ID", ours != 0 and qpn >= 0x11, "non-zero", (ours, qpn))
        check_true("REP's READ depths", 1 <= rep[C + 24] <= 128 and 1 <= rep[C + 25] <= 128, "1..128",
                   (rep[C + 24], rep[C + 25]))
        n.send(qp1(req(0x2001, 7471, psn=0x0ABCDE, tid=0x601)))
        rep2 = expect_mad(n, REP, "the REP again for a duplicate REQ")
        check("the REP again", rep.hex(), rep2.hex())
        n.send(qp1(msg(RTU, 0x601, 0x2001, ours)))
        s.expect(rf"cm: QP 0x{qpn:x} established with 10\.0\.0\.100 port 7471 \(RTU\)",
                 what="established on the console")
        s.upto_prompt("listen --cm returns")
        s.send("qp list\r")
        out = s.reply("qp list")
        check_true("qp list shows the CM's QP", re.search(rf"0x{qpn:06x} RTS .*rdma_cm established", out),
                   "a line", out)
        s.send("qpx\r")
        out = s.reply("qpx")
        check_true("qpx shows the connection", f"cm: QP 0x{qpn:x} established: peer 10.0.0.100 QPN 0x11" in out,
                   "a line", out)
        dreq = msg(DREQ, 0x602, 0x2001, ours, (0x11).to_bytes(3, "big"))
        n.send(qp1(dreq))
        m = expect_mad(n, DREP, "DREP")
        check("DREP IDs", (ours, 0x2001, 0x602), (u(m, C, 4), u(m, C + 4, 4), u(m, 8, 8)))
        s.expect(rf"cm: DREQ from 10\.0\.0\.100: QP 0x{qpn:x} disconnected, DREP sent", what="DREQ line")
        n.send(qp1(dreq))
        m2 = expect_mad(n, DREP, "the DREP again for a duplicate DREQ")
        check("the DREP again", m.hex(), m2.hex())

        # no RTU: the REP again after the REQ's CM response time (8: about 1 ms), then an RC
        # SEND to the QP is the RTU. Its PSN is the REP's starting PSN: each side's starting PSN is
        # the one it expects to receive (as the kernel's CM and the rxe captures have it)
        s.send("listen --cm 7471 --wait 600000\r")
        s.expect(r"listen: RDMA CM on port 7471", what="the second listen")
        n.send(qp1(req(0x3001, 7471, psn=0x000100, tid=0x701, cm_timeout=8)))
        rep = expect_mad(n, REP, "REP (2)")
        rep_again = expect_mad(n, REP, "the REP sent again without an RTU", timeout=90)
        check("the resent REP", rep.hex(), rep_again.hex())
        qpn, psn = u(rep, C + 12, 3), u(rep, C + 20, 3)
        n.send(rc_send(qpn, psn, b"rdma-cm-first-packet-16"[:16]))
        ack = n.expect(lambda f: (p := check_pcap.roce_packet(bytes(f))) and p[2][0] == 0x11,
                       "the transport's ACK of the SEND", timeout=60)
        check("the ACK's PSN", psn, int.from_bytes(check_pcap.roce_packet(bytes(ack))[2][9:12], "big"))
        s.expect(rf"cm: QP 0x{qpn:x} established with 10\.0\.0\.100 port 7471 \(its first packet taken as RTU\)",
                 what="the SEND taken as the RTU")
        s.upto_prompt("the second listen returns")

        # the RTU lost and an RDMA WRITE first (librdmacm peers whose RTU is lost, perftest -R
        # write tests): the WRITE is executed on the QP in RTR and taken as the RTU. The
        # connection's MR key, as the peer's application would have it: an MR registered and
        # deregistered here shows the slot and tag the CM's takes next (roce.c: the lowest free
        # slot, the tag one more; 256 MR slots), and 'mr list' must show it afterwards
        keys = mr_keys(s)
        s.send("mr reg 0x100000 0x1000\r")
        probe = int(re.search(r"mr key 0x([0-9a-f]+):", s.reply("mr reg 0x100000 0x1000")).group(1), 16)
        s.send(f"mr dereg 0x{probe:x}\r")
        s.reply(f"mr dereg 0x{probe:x}")
        rkey = probe + 0x100
        s.send("listen --cm 7471 --wait 600000\r")
        s.expect(r"listen: RDMA CM on port 7471", what="the listen for a WRITE first")
        n.send(qp1(req(0x5001, 7471, psn=0x000200, tid=0x901, cm_timeout=14)))
        rep = expect_mad(n, REP, "REP (WRITE first)")
        qpn, psn = u(rep, C + 12, 3), u(rep, C + 20, 3)
        data = bytes(range(0x40, 0x60))
        va = 0x100000 + 0x3000
        n.send(rc_write(qpn, psn, va, rkey, data))
        ack = n.expect(lambda f: (p := check_pcap.roce_packet(bytes(f))) and p[2][0] == 0x11
                       and int.from_bytes(p[2][5:8], "big") == 0x11,
                       "the transport's ACK of the WRITE", timeout=60)
        aeth = check_pcap.roce_packet(bytes(ack))[2][12]
        check("the ACK's PSN and syndrome (ACK, not NAK)", (psn, 0),
              (int.from_bytes(check_pcap.roce_packet(bytes(ack))[2][9:12], "big"), aeth & 0xE0))
        s.expect(rf"cm: QP 0x{qpn:x} established with 10\.0\.0\.100 port 7471 \(its first packet taken as RTU\)",
                 what="the WRITE taken as the RTU")
        s.upto_prompt("the WRITE-first listen returns")
        check("the connection's MR key", {rkey}, mr_keys(s) - keys)
        s.send("qp list\r")
        out = s.reply("qp list")
        check_true("the QP is RTS", re.search(rf"0x{qpn:06x} RTS .*rdma_cm established", out), "a line", out)
        s.send(f"dump 0x{va:x} {len(data)}\r")
        out = s.reply(f"dump 0x{va:x} {len(data)}")
        got = bytes(int(x, 16) for l in out.splitlines() if re.match(r"[0-9a-f]{8}:", l)
                    for x in l.split("  ")[0].split()[1:])
        check("the WRITE's bytes in memory", data.hex(), got.hex())

        # no RTU at all: REJ (timeout) after the retries
        s.send("listen --cm 7471 --wait 600000\r")
        s.expect(r"listen: RDMA CM on port 7471", what="the third listen")
        n.send(qp1(req(0x4001, 7471, tid=0x801, cm_timeout=8, retries=2)))
        m = expect_mad(n, REJ, "REJ (timeout) after the REP's retries", timeout=120)
        check("REJ timeout, message REP", (5, 1, 0x4001), (u(m, C + 10, 2), m[C + 8] >> 6, u(m, C + 4, 4)))
        s.expect(r"listen: no connection was established on port 7471", what="the third listen's end")

        s.send("stats\r")
        out = s.reply("stats")
        line = next((l for l in out.splitlines() if l.startswith("cm      rx_mads")), out)
        got = dict(re.findall(r"(\w+) (\d+)", line))
        check_true("CM counters", int(got["rej_sent"]) == 3 and int(got["duplicates"]) >= 2 and
                   int(got["resent"]) >= 3 and int(got["ud_uc_refused"]) == 2 and got["malformed"] == "0",
                   "rej_sent 3, duplicates >= 2, resent >= 3, ud_uc_refused 2, malformed 0", line)


def rep_for(req_mad, comm, qpn=0x44, psn=0x2222):
    """The peer's REP to the NIC's REQ (the captured REP, patched)."""
    m = bytearray(CAP[REP])
    m[8:16] = req_mad[8:16]                         # the REQ's TID
    set_u(m, C, 4, comm)
    m[C + 4:C + 8] = req_mad[C:C + 4]               # the NIC's comm ID
    set_u(m, C + 12, 3, qpn)
    set_u(m, C + 20, 3, psn)
    return bytes(m)


def test_cm_active_side():
    with NicPeer(keep_stdin=True, max_seconds=400, max_cycles=2_000_000_000) as n:
        n.boot()
        s = n.sim
        s.send("connect --cm 10.0.0.100 7999\r")
        req1 = expect_mad(n, REQ, "the NIC's REQ")
        check("service ID", 0x0000000001060000 | 7999, u(req1, C + 8, 8))
        check("transport RC, path MTU 1024", (0, 3), (req1[C + 43] >> 1 & 3, req1[C + 50] >> 4))
        check("GIDs", (bytes(10) + b"\xff\xff" + bytes([10, 0, 0, 1]), bytes(10) + b"\xff\xff" + bytes([10, 0, 0, 100])),
              (req1[C + 56:C + 72], req1[C + 72:C + 88]))
        pd = req1[C + 140:]
        check("librdmacm's header", (0, 0x40, bytes([10, 0, 0, 1]), bytes([10, 0, 0, 100])),
              (pd[0], pd[1], pd[16:20], pd[32:36]))
        check_true("QPN", u(req1, C + 32, 3) >= 0x11, ">= 0x11", u(req1, C + 32, 3))
        rej = bytearray(msg(REJ, u(req1, 8, 8), 0, u(req1, C, 4)))
        set_u(rej, C + 8, 1, 0)                         # message rejected: REQ
        set_u(rej, C + 10, 2, 8)
        n.send(qp1(bytes(rej)))
        out = s.upto_prompt("connect --cm after the REJ")
        check_true("the REJ's reason on the console", "rejected the connection request of QP" in out and
                   "reason 8 (invalid service ID (nobody listens))" in out, "the reason", out)

        s.send("connect --cm 10.0.0.100\r")
        req2 = expect_mad(n, REQ, "the second REQ")
        check("default port", 7471, u(req2, C + 14, 2))
        our_qpn, our_psn = u(req2, C + 32, 3), u(req2, C + 44, 3)
        n.send(qp1(rep_for(req2, 0x5005)))
        rtu = expect_mad(n, RTU, "the NIC's RTU")
        check("RTU IDs", (u(req2, C, 4), 0x5005), (u(rtu, C, 4), u(rtu, C + 4, 4)))
        out = s.upto_prompt("connect --cm returns")
        check_true("established", f"cm: QP 0x{our_qpn:x} established with 10.0.0.100 port 7471 (REP)" in out,
                   "the line", out)
        n.send(qp1(rep_for(req2, 0x5005)))
        rtu2 = expect_mad(n, RTU, "the RTU again for a duplicate REP")
        check("the same RTU", rtu.hex(), rtu2.hex())
        # the QP: PSNs as the kernel's CM sets them (REP's = what the NIC sends from, REQ's =
        # what it expects), the peer's QPN
        s.send(f"qp show 0x{our_qpn:x}\r")
        out = s.reply(f"qp show 0x{our_qpn:x}")
        check_true("qp show", "remote QPN 0x000044" in out and "sq_psn 0x002222" in out and
                   f"rq_psn 0x{our_psn:06x}" in out, "the REP's values", out)
        n.send(qp1(msg(DREQ, 0x99, 0x5005, u(req2, C, 4), (our_qpn).to_bytes(3, "big"))))
        drep = expect_mad(n, DREP, "DREP")
        check("DREP IDs", (u(req2, C, 4), 0x5005), (u(drep, C, 4), u(drep, C + 4, 4)))

        # the NIC disconnects: qpx disconnect sends a DREQ, again while no DREP comes
        s.send("qpx disconnect\r")
        out = s.reply("qpx disconnect")
        check_true("nothing to disconnect (the peer did)", "no established RDMA CM connection" in out, "", out)
        s.send("connect --cm 10.0.0.100\r")
        req3 = expect_mad(n, REQ, "the third REQ")
        n.send(qp1(rep_for(req3, 0x6006, qpn=0x55)))
        expect_mad(n, RTU, "the third RTU")
        s.upto_prompt("connect --cm returns (3)")
        s.send("qpx disconnect\r")
        dreq = expect_mad(n, DREQ, "the NIC's DREQ")
        check("DREQ IDs and QPN", (u(req3, C, 4), 0x6006, 0x55), (u(dreq, C, 4), u(dreq, C + 4, 4), u(dreq, C + 8, 3)))
        dreq2 = expect_mad(n, DREQ, "the DREQ again without a DREP", timeout=150)
        check("the same DREQ", dreq.hex(), dreq2.hex())
        n.send(qp1(msg(DREP, u(dreq, 8, 8), 0x6006, u(req3, C, 4))))
        out = s.upto_prompt("qpx disconnect returns")
        check_true("DREP on the console", "cm: DREP from 10.0.0.100: QP 0x" in out, "the line", out)


def test_listen_cm_arguments():
    with NicPeer(keep_stdin=True, max_seconds=120) as n:
        n.boot()
        s = n.sim
        for line, want in [
            ("listen --cm 70000", "listen: --cm PORT: expected 1..65535, got 70000"),
            ("listen --cm abc", "listen: PORT:"),
            ("listen --cm 7471 --qps 2", "listen: --qps is not an option of --cm"),
            ("listen --cm --mtu 1000", "listen: --mtu: expected 256, 512, 1024, 2048 or 4096, got 1000"),
            ("listen --cm --wait", "listen: --wait needs a value"),
            ("listen --tool perftest --cm", "listen: --cm comes first"),
            ("connect --cm", "connect: --cm: expected IP [PORT] [--mtu BYTES]"),
            ("connect --cm 10.0.0", "connect: IP: expected a dotted IPv4 address"),
            ("connect --cm 10.0.0.100 0", "connect: --cm PORT: expected 1..65535, got 0"),
            ("connect --cm 10.0.0.100 --qps 2", "connect: --qps is not an option of --cm"),
            ("qpx disconnect 0", "qpx disconnect: QPN: expected a QP number like 0x11, got 0"),
            ("qpx disconnect 0x11", "qpx disconnect: that QP has no established RDMA CM connection"),
        ]:
            s.send(line + "\r")
            out = s.reply(line)
            check_true(f"'{line}'", want in out, want, out)
        s.send("listen --cm 7000 --wait 2\r")
        out = s.reply("listen --cm 7000 --wait 2")
        check_true("a listen nobody connects to ends", "no RDMA CM connection on port 7000 within 2 ms" in out,
                   "the timeout line", out)
        # perftest -R runs one session at a time (one RDMA CM listener): a second one, server
        # or client, is refused naming the first; a session without -R runs beside it
        for line, want in [
            ("listen --test write_bw --rdma-cm --bg", "listen: session 1 runs on"),
            ("listen --port 18600 --test write_bw --rdma-cm --bg",
             "listen: perftest -R: session 1 uses RDMA CM (one -R session at a time; 'qpx abort 1' ends it)"),
            ("connect 10.0.0.100 --test write_bw --rdma-cm --bg",
             "connect: perftest -R: session 1 uses RDMA CM (one -R session at a time; 'qpx abort 1' ends it)"),
            ("listen --port 18600 --test write_bw --bg", "listen: session 2 runs on"),
            ("qpx", "qpx 1: write_bw server (perftest -R: RDMA CM), peer not yet known, exchanging"),
            ("qpx abort 1", "qpx 1: session stopped: aborted from the console"),
            ("qpx abort 2", "qpx: session stopped: aborted from the console"),
            ("qpx", "qpx: no session"),
        ]:
            s.send(line + "\r")
            out = s.reply(line)
            check_true(f"'{line}'", want in out, want, out)
