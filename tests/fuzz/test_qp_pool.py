#!/usr/bin/env python3
"""The fuzz's QP pool on the console: `qp clone N COUNT [--quiet]` and `qp rearm [N ...]`
(fw/README.md "QP errors").

An exchange makes QP Q in RTS; `qp clone Q 3 --quiet` makes three more in RTS towards the
peer's QPNs Q's + 1..3. A WRITE with a wrong rkey at two of them ends both (remote access
NAK, IB's responder rule): `qp list` says ERROR, `stats` counts two more QP errors, and the
console prints no event line for them (quiet). `qp rearm` naming all three brings back
exactly the two, whose responders then execute a WRITE at their first PSN again (ACK,
`verify` of the bytes); the third, never in ERROR, kept its PSN. Bad arguments are refused.
"""
import re
import sys
import time

import nicfuzz as nf
from nicfuzz import Failure, Peer, bth, check, check_true, parse_stats, reth, roce
import session as ss

OPC = ss.OPC


def ack_of(p, peer, psn, what):
    r = p.expect_roce(lambda r: r[1] == peer and r[0] == OPC["ACK"], what)
    return r[2], r[3][0]


def main():
    with Peer() as p:
        try:
            p.boot()
            key = ss.mr_reg(p, ss.C_BASE, ss.C_LEN, 0xF)
            psn0, peer0 = 0x123456, 0x500
            q, _ = ss.exchange(p, peer0, psn0, 43000)
            for line, want in ((f"qp clone {q:#x} 0", "qp clone: COUNT: expected 1..256, got 0"),
                               ("qp clone 0x99 1", "qp: QP 0x99 was not created here"),
                               (f"qp clone {q:#x}", "qp clone: expected a QPN and a COUNT [--quiet]"),
                               ("qp rearm 1", "qp rearm: QPN: expected 2..0xffffff")):
                out = p.cmd(line)
                check_true(f"{line!r} refused", want in out, want, out)
            out = p.cmd(f"qp clone {q:#x} 3 --quiet")
            m = re.search(r"qp clone:([ 0-9a-fx]*) in RTS \(peer QPNs 0x([0-9a-f]+) \+ 1\.\.3\)", out)
            check_true("qp clone: three QPNs in RTS", m is not None and len(m.group(1).split()) == 3,
                       "qp clone: Q1 Q2 Q3 in RTS (peer QPNs 0x500 + 1..3)", out)
            check("qp clone: the source's peer QPN", peer0, int(m.group(2), 16))
            pool = [int(x, 16) for x in m.group(1).split()]
            for i, c in enumerate(pool):
                state, show = ss.qp_state(p, c)
                check(f"qp {c:#x} after the clone", "RTS", state)
                check_true(f"qp {c:#x} towards the peer's QPN {peer0 + 1 + i:#x}, rq_psn {psn0:#x}",
                           f"remote QPN 0x{peer0 + 1 + i:06x}" in show and f"rq_psn 0x{psn0:06x}" in show,
                           "remote QPN / rq_psn as cloned", show)
            errs0 = parse_stats(p.cmd("stats"))["roce.qp_errors"]
            text0 = len(p.sim.text)
            data = bytes(range(64))
            # the third QP executes one WRITE (its PSN moves on); the first two a bad rkey
            p.send(roce(bth(OPC["WRITE_ONLY"], pool[2], psn0) + reth(ss.C_BASE, key, 64), data))
            psn, syn = ack_of(p, peer0 + 3, psn0, "the third clone's ACK")
            check("the third clone's WRITE: ACK (syndrome) of its PSN", (0, psn0), (syn >> 5, psn))
            for i in (0, 1):
                p.send(roce(bth(OPC["WRITE_ONLY"], pool[i], psn0) + reth(ss.C_BASE, key ^ 0x100, 8), data[:8]))
                psn, syn = ack_of(p, peer0 + 1 + i, psn0, f"the NAK of clone {i}")
                check(f"clone {i}: a remote access error NAK", 0x62, syn)
            time.sleep(1)
            out = p.cmd("qp list")
            for i in (0, 1):
                check_true(f"qp list: clone {pool[i]:#x} in ERROR",
                           re.search(rf"0x{pool[i]:06x} ERROR", out) is not None, "ERROR", out)
            check_true(f"qp list: clone {pool[2]:#x} in RTS", re.search(rf"0x{pool[2]:06x} RTS", out) is not None,
                       "RTS", out)
            s = parse_stats(p.cmd("stats"))
            check("stats qp_errors: two more", errs0 + 2, s["roce.qp_errors"])
            check_true("no event line printed for the quiet clones", "entered ERROR" not in p.sim.text[text0:],
                       "no 'entered ERROR'", p.sim.text[text0:][-400:])
            out = p.cmd("qp rearm " + " ".join(f"{c:#x}" for c in pool))
            want = f"qp rearm: {pool[0]:#x} {pool[1]:#x} (2 QPs from ERROR back to RTS)"
            check_true("qp rearm names exactly the two in ERROR", want in out, want, out)
            out = p.cmd("qp rearm")
            check_true("a second qp rearm finds none", "qp rearm: (0 QPs from ERROR back to RTS)" in out,
                       "0 QPs", out)
            for i in (0, 1):   # back at their first PSN: a WRITE there executes
                va = ss.C_BASE + 0x100 * (i + 1)
                p.send(roce(bth(OPC["WRITE_ONLY"], pool[i], psn0) + reth(va, key, 64), nf.pattern(70 + i, va, 64)))
                psn, syn = ack_of(p, peer0 + 1 + i, psn0, f"the ACK on clone {i} after rearm")
                check(f"clone {i} after rearm: ACK (syndrome) of PSN {psn0:#x}", (0, psn0), (syn >> 5, psn))
                got = p.cmd(f"verify {va:#x} 64 {70 + i}")
                check_true(f"clone {i} after rearm: the WRITE's bytes in memory", "all bytes match" in got,
                           "all bytes match", got)
            # the third kept its PSN: the first PSN again is a duplicate (ACKed, not executed)
            p.send(roce(bth(OPC["WRITE_ONLY"], pool[2], psn0 + 1) + reth(ss.C_BASE, key, 8), data[:8]))
            psn, syn = ack_of(p, peer0 + 3, psn0 + 1, "the third clone's next WRITE")
            check("the third clone untouched by rearm: its next PSN executes", (0, psn0 + 1), (syn >> 5, psn))
        except Failure as e:
            print(f"FAIL: {e}")
            return 1
    print("qp pool: clone, quiet ERROR, rearm of exactly the QPs in ERROR, first PSN again: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
