"""A NIC with a QP in RTS towards the peer, and the memory the fuzz and accounting
tests use (tests/fuzz): memory regions registered on the console, the QP made by
the firmware's own `listen` (ibv_rc_pingpong's exchange over lwIP's TCP, the peer
speaking it through tests/qpx's Tcp helper), and the peer-side RoCE helpers
(requests to the NIC's responder, a WRITE + READ checked byte for byte)."""
import re

from nicfuzz import (PEER_IP, Failure, aeth, bth, check, check_true, reth, roce, roce_of)  # noqa: F401

import test_qpx_console as tc  # noqa: E402  (tests/qpx: the Tcp helper, the exchange's port)

PMTU = 1024

# on-board memory the tests own (the exchange's buffer is 0x100000 + 16 MiB, all access)
GUARD_LO = 0x4000000           # filled with the seeded pattern; no MR covers it
A_BASE, A_LEN = 0x4010000, 0x2FF0   # MR A: every access (its end is not 64-byte aligned)
B_BASE, B_LEN = 0x4020000, 0x1000   # MR B: local write + remote read only
GUARD_HI = 0x4030000           # the pattern runs up to here; only MR A may change
D_BASE, D_LEN = 0x4040000, 0x10000  # MR D: local write only (a READ's destination)
C_BASE, C_LEN = 0x4060000, 0x1000   # MR E: a fresh QP's WRITE + READ (every access)
# the protection domain of the exchange's QP and so of the MRs above (docs/transport.md
# "Protection domains"): a session takes the lowest PD no other live session holds, and
# every exchange here is the only one (a new listen releases the last)
SESSION_PD = 1

OPC = {"SEND_ONLY": 0x04, "SEND_ONLY_IMM": 0x05, "WRITE_FIRST": 0x06, "WRITE_MIDDLE": 0x07,
       "WRITE_LAST": 0x08, "WRITE_ONLY": 0x0A, "WRITE_ONLY_IMM": 0x0B, "READ_REQ": 0x0C,
       "READ_RESP_FIRST": 0x0D, "READ_RESP_MIDDLE": 0x0E, "READ_RESP_LAST": 0x0F,
       "READ_RESP_ONLY": 0x10, "ACK": 0x11, "ATOMIC_ACK": 0x12, "CMP_SWAP": 0x13, "FETCH_ADD": 0x14}


def mr_reg(p, base, length, access):
    out = p.cmd(f"mr reg {base:#x} {length:#x} {access:#x} --pd {SESSION_PD}")
    m = re.search(r"mr key (0x[0-9a-f]+):", out)
    check_true(f"mr reg {base:#x}", m is not None, "mr key 0x...", out)
    return int(m.group(1), 16)


def exchange(p, peer_qpn, peer_psn, tcp_port):
    """`listen` on the NIC, the pingpong exchange from the peer; returns (NIC QPN, NIC's first PSN).
    The NIC's QP is in RTS afterwards, its responder expecting peer_psn."""
    line = "listen --wait 20000"
    p.sim.send(line + "\r")
    p.sim.expect(re.escape(line) + r"\n", what="echo of listen")
    t = tc.Tcp(p, tcp_port, tc.PORT)
    t.connect()
    gid = b"00000000000000000000ffff" + b"".join(b"%02x" % int(x) for x in PEER_IP.split("."))
    t.send(b"0000:%06x:%06x:" % (peer_qpn, peer_psn) + gid + b"\x00")
    dest = t.recv(52, "the NIC's pingpong destination")
    f = dest.split(b":")
    qpn, psn = int(f[1], 16), int(f[2], 16)
    t.send(b"done\x00")
    t.expect_end("the NIC closes after done")
    # our FIN too, so the NIC's PCB leaves FIN_WAIT_2 (lwIP frees TIME_WAIT PCBs when it needs
    # one, never FIN_WAIT_2 ones: a peer that never closes uses up MEMP_NUM_TCP_PCB)
    t.close()
    p.expect(lambda f: t.mine(f) and "A" in str(f["TCP"].flags) and f["TCP"].ack == t.seq,
             "the NIC's ACK of our FIN")
    out = p.sim.upto_prompt("the exchange")
    check_true("the exchange ends with the QP in RTS", f"QP {qpn:#x} RTS" in out, f"QP {qpn:#x} RTS", out)
    out = p.cmd(f"qp show {qpn:#x}")
    check_true(f"the exchange's QP in PD {SESSION_PD} (the MRs' PD)", f" pd {SESSION_PD}\n" in out.replace("\r", ""),
               f"... pd {SESSION_PD}", out)
    return qpn, psn


def qp_state(p, qpn):
    out = p.cmd(f"qp show {qpn:#x}")
    m = re.search(r"qp 0x[0-9a-f]+: (\S+),", out)
    return (m.group(1) if m else "?"), out


def fresh_write_read(p, key, seed, psn0, peer_qpn, tcp_port, length=300, va=None):
    """A fresh QP by a new exchange; the peer WRITEs `length` bytes of the fill pattern of
    `seed` (at their own NIC addresses) into MR key at va and READs them back: the ACK, the
    READ response's bytes and the NIC's `verify` must all agree. A new `listen`
    releases the last session's QP, so this one stays until the next exchange. Returns (QPN,
    the PSN its responder expects next)."""
    from nicfuzz import pattern
    va = C_BASE + 0x40 if va is None else va
    qpn, _ = exchange(p, peer_qpn, psn0, tcp_port)
    data = pattern(seed, va, length)
    p.send(roce(bth(OPC["WRITE_ONLY"], qpn, psn0) + reth(va, key, length), data))
    r = p.expect_roce(lambda r: r[0] == OPC["ACK"] and r[1] == peer_qpn and r[2] == psn0,
                      f"the ACK of a WRITE on the fresh QP {qpn:#x}")
    check(f"fresh QP {qpn:#x}: the WRITE's AETH syndrome (ACK)", 0, r[3][0] >> 5)
    p.send(roce(bth(OPC["READ_REQ"], qpn, psn0 + 1) + reth(va, key, length)))
    r = p.expect_roce(lambda r: r[0] == OPC["READ_RESP_ONLY"] and r[1] == peer_qpn,
                      f"the READ response on the fresh QP {qpn:#x}")
    check(f"fresh QP {qpn:#x}: the READ response's PSN", psn0 + 1, r[2])
    got = r[3][4:4 + length]
    check_true(f"fresh QP {qpn:#x}: the READ returns what the WRITE wrote", got == data,
               data[:32].hex() + "...", got[:32].hex() + "...")
    out = p.cmd(f"verify {va:#x} {length:#x} {seed}")
    check_true(f"fresh QP {qpn:#x}: verify of the written bytes", "all bytes match" in out, "all bytes match", out)
    return qpn, (psn0 + 2) & 0xFFFFFF
