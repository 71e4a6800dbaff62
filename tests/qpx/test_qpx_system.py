#!/usr/bin/env python3
"""System tests: the exchange, the transfers and bench with the RC transport.

    test_qpx_system.py CASE | --list

pair_*: two NICs in one build/sim/solonic_sim (--nics 2, the wire model),
driven through scripts/nicsim.py. The exchange in both roles; WRITE, READ and
SEND in both directions with every byte checked by the memory's fill/verify
engine (the pattern is a function of seed and address: the destination must
fail to verify before the transfer and verify after it, and another seed must
fail); bench's tables parsed and bounded (0 < BW average <= BW peak < the
wire's 100 Gb/s, latencies ordered); Ctrl-C and a peer that stopped answering
end a bench run within its bounds.

args_bench_and_pd: every wrong input of bench, exact messages; then protection domains on the
console: qp create / mr reg --pd checked and shown (qp show, qp list, mr list), a work request
finds an lkey of its QP's PD only.

peer_*: one NIC with the transport, a Scapy TCP peer on its --eth0 udp port
(tests/qpx/test_qpx_console.py's Tcp): an exchange the peer abandons halfway,
garbage from the peer, a peer that never answers. Each must print one line,
put the QP back to RESET and free it and its MR, and leave bench nothing to run on.

Every wait is bounded: simulated cycles (--max-cycles) and wall seconds.
"""
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, HERE)

from nicsim import Failure, NicPair, Sim, check, check_true, tail, typed  # noqa: E402

BUF = 0x100000          # QPX_BUF_BASE: the exchange's test buffer on both NICs
BUF_BYTES = 0x1000000   # QPX_BUF_BYTES: its size (perftest -a goes to 8 MiB)
WIRE_GBPS = 100.0       # solonic_sim's default wire rate
MAX_CYCLES = "200000000"  # 800 ms of simulated time per two-NIC run
NUM = r"([0-9]+\.[0-9]+)"


# ---- two NICs

def pair(max_seconds=400):
    return NicPair(args=["--max-cycles", MAX_CYCLES], max_seconds=max_seconds)


def cmd(con, line, timeout=120):
    return con.cmd(line, timeout=timeout).replace("\r", "")


def exchange(server, client, server_ip, client_ip):
    """server listens, client connects: both QPs RTS; returns (qpn, us to RTS)."""
    server.send("listen --wait 5000")
    server.wait_for(r"listen --wait 5000\n", 30)
    out_c = cmd(client, f"connect {server_ip}")
    out_s = server.wait_for(r"solonic> ", 120).replace("\r", "")
    m = re.search(rf"qpx: QP 0x(\w+) RTS: peer {re.escape(server_ip)} .*\n"
                  rf"qpx: QP 0x\1 ready to send ([0-9.]+) us \((\d+) cycles\) after connect started\n"
                  rf"qpx: pingpong exchange with {re.escape(server_ip)} done\n$", out_c)
    check_true("client: RTS, time to RTS, exchange done", m is not None,
               "QP RTS / ready to send N us (N cycles) after connect started / done", out_c)
    ms = re.search(rf"qpx: QP 0x(\w+) RTS: peer {re.escape(client_ip)} .*\n"
                   rf"qpx: QP 0x\1 ready to send [0-9.]+ us \(\d+ cycles\) after the client connected\n"
                   rf"qpx: pingpong exchange with {re.escape(client_ip)} done\n", out_s)
    check_true("server: RTS, time to RTS, exchange done", ms is not None, "QP RTS ... done", out_s)
    us, cycles = float(m.group(2)), int(m.group(3))
    check_true("the printed time agrees with the cycles at 250 MHz", abs(us - cycles / 250.0) < 0.2,
               f"{cycles / 250.0:.1f} us", us)
    check_true("time to RTS is plausible", 1 < us < 20000, "1 .. 20000 us", us)
    return int(m.group(1), 16), us


def key_of(con):
    out = cmd(con, "mr list")
    m = re.search(rf"^0x([0-9a-f]{{8}}) 0x0*{BUF:x} ", out, re.M)
    check_true("the test buffer's MR", m is not None, f"a key for base {BUF:#x}", out)
    return int(m.group(1), 16)


def moved(src, dst, move, addr, length, seed):
    """fill on src; dst must not verify; move(); dst must verify; another seed must not."""
    out = cmd(src, f"fill {addr:#x} {length:#x} {seed}")
    check_true("fill", out.startswith(f"fill: 0x{addr:08x} + 0x{length:x} seed {seed}:"), "fill: ...", out)
    out = cmd(dst, f"verify {addr:#x} {length:#x} {seed}")
    check_true("before the transfer the destination does not hold the pattern",
               out.startswith("verify: FAILED:"), "verify: FAILED: ...", out)
    move()
    out = cmd(dst, f"verify {addr:#x} {length:#x} {seed}")
    check_true("after the transfer every byte matches", "all bytes match" in out,
               f"verify: 0x{addr:08x} + 0x{length:x} seed {seed}: all bytes match", out)
    out = cmd(dst, f"verify {addr:#x} {length:#x} {seed + 1}")
    check_true("another seed does not match", out.startswith("verify: FAILED:"), "verify: FAILED", out)


def wr(con, line, op, length):
    out = cmd(con, line)
    check_true(f"{line}", re.match(rf"{op}: IBV_WC_SUCCESS, {length} bytes, \d+ us\n$", out) is not None,
               f"{op}: IBV_WC_SUCCESS, {length} bytes, N us", out)


def bw_table(out, size, iters):
    """The throughput table's numbers, bounded."""
    m = re.search(r"^ #bytes +#iterations +BW peak\[Gb/sec\] +BW average\[Gb/sec\] +MsgRate\[Mpps\]\n"
                  rf" (\d+) +(\d+) +{NUM} +{NUM} +{NUM}\n", out, re.M)
    check_true("a perftest bandwidth table", m is not None, "#bytes #iterations BW peak ...", out)
    check("#bytes", size, int(m.group(1)))
    check("#iterations", iters, int(m.group(2)))
    peak, avg, rate = float(m.group(3)), float(m.group(4)), float(m.group(5))
    check_true("0 < BW average <= BW peak < the wire's rate", 0 < avg <= peak < WIRE_GBPS,
               f"0 < avg <= peak < {WIRE_GBPS}", f"peak {peak} avg {avg}")
    # the message rate and the average describe the same run
    check_true("MsgRate x size = BW average", abs(rate * 1e6 * size * 8 / 1e9 - avg) <= 0.02 * avg + 0.01,
               f"{rate} Mpps x {size} B = {avg} Gb/s", rate * 1e6 * size * 8 / 1e9)
    return peak, avg, rate


def case_pair_nic1_listens():
    """NIC 1 listens, NIC 0 connects; WRITE and SEND 0 -> 1, READ 1 -> 0; bench."""
    with pair() as (a, b):
        qpn, _ = exchange(b, a, "10.0.0.2", "10.0.0.1")
        rkey = key_of(b)
        q = f"{qpn:#x}"
        x = BUF + 0x20000
        moved(a, b, lambda: wr(a, f"write {q} {x:#x} {x:#x} {rkey:#x} 0x10000", "write", 65536),
              x, 0x10000, 101)
        x = BUF + 0x40000
        moved(b, a, lambda: wr(a, f"read {q} {x:#x} {x:#x} {rkey:#x} 0x8000", "read", 32768), x, 0x8000, 102)
        moved(a, b, lambda: wr(a, f"send {q} {BUF:#x} 0x800", "send", 2048), BUF, 0x800, 103)
        out = cmd(b, f"qp show {q}")
        check_true("NIC 1 counted the receive", re.search(r"completed 1, errors 0\n  last receive: "
                                                          r"IBV_WC_SUCCESS, IBV_WC_RECV, 2048 bytes\n", out)
                   is not None, "completed 1 ... last receive: IBV_WC_SUCCESS, IBV_WC_RECV, 2048 bytes", out)
        # immediates: a SEND and a WRITE carrying one; the receiver's completions show it
        moved(a, b, lambda: wr(a, f"send {q} {BUF:#x} 0x400 --imm 0xfeedbeef", "send", 1024), BUF, 0x400, 104)
        out = cmd(b, f"qp show {q}")
        want = "completed 2, errors 0\n  last receive: IBV_WC_SUCCESS, IBV_WC_RECV, 1024 bytes, immediate 0xfeedbeef\n"
        check_true("SEND with immediate: NIC 1's receive completion", want in out, want, out)
        x = BUF + 0x60000
        moved(a, b, lambda: wr(a, f"write {q} {x:#x} {x:#x} {rkey:#x} 0x1000 --imm 0x12345678", "write", 4096),
              x, 0x1000, 105)
        out = cmd(b, f"qp show {q}")
        want = ("completed 3, errors 0\n  last receive: IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM, 4096 bytes, "
                "immediate 0x12345678\n")
        check_true("WRITE with immediate: NIC 1's receive completion", want in out, want, out)
        for line, why in ((f"send {q} {BUF:#x} 0x400 --imm", "send: --imm takes one VALUE and comes last"),
                          (f"send {q} {BUF:#x} 0x400 --imm zz", "send: VALUE"),
                          (f"write {q} {x:#x} {x:#x} {rkey:#x} --imm 5", "write: expected QPN LADDR RADDR RKEY LEN")):
            out = cmd(a, line)
            check_true(f"'{line}' refused", out.startswith(why), why, out)
        # bench: the default QP is the exchange's
        for line, size, iters in ((f"bench write 65536 16 --rkey {rkey:#x}", 65536, 16),
                                  (f"bench read 4096 32 --rkey {rkey:#x}", 4096, 32),
                                  ("bench send 4096 32", 4096, 32)):
            out = cmd(a, line)
            # the default depth: the transport's SQ depth (64, rtl/roce/roce_transport.sv)
            check_true(f"{line}: header", re.match(rf"bench: \S+( \S+)? on QP {q}, {size} bytes x {iters}, 64 "
                                                   r"outstanding at most", out) is not None, "bench: ... on QP", out)
            bw_table(out, size, iters)
        # posted by the work-request generator: 4 KiB WRITEs near the wire (measured 91.36 Gb/s at
        # PMTU 1024, whose wire limit is 92.25; simulated cycles are exact, so a floor is stable)
        out = cmd(a, f"bench write 4096 256 --rkey {rkey:#x}")
        _, avg, _ = bw_table(out, 4096, 256)
        check_true("4 KiB WRITE goodput >= 85 Gb/s (the generator posts, not the firmware)", avg >= 85.0,
                   ">= 85 Gb/s", avg)
        check_true("said who posted", "posted by the work-request generator" in out, "posted by the ...", out)
        out = cmd(a, f"bench write 64 4 --qps 2 --rkey {rkey:#x}")
        check("--qps 2 with one connected QP: said so",
              f"bench: --qps 2: QP 0x{qpn + 1:x} is not created here; only 1 consecutive connected QP from "
              f"0x{qpn:x} (listen/connect --qps N connect N)\n", out)
        out = cmd(a, "bench write 4096 8")
        check_true("pingpong carries no rkey: said so", "the exchange carried no rkey (pingpong): assuming "
                   f"the peer's test buffer has key 0x{rkey:x} like ours" in out, "the note", out)
        out = cmd(a, f"bench lat read 4096 8 {q} --rkey {rkey:#x}")
        m = re.search(rf"^ #bytes +#iterations +t_min\[usec\] +t_max\[usec\] +t_avg\[usec\]\n 4096 +8 +{NUM} +"
                      rf"{NUM} +{NUM}\n", out, re.M)
        check_true("a latency table", m is not None, "#bytes #iterations t_min t_max t_avg", out)
        tmin, tmax, tavg = (float(m.group(i)) for i in (1, 2, 3))
        check_true("0 < t_min <= t_avg <= t_max < 1 ms", 0 < tmin <= tavg <= tmax < 1000, "ordered", m.group(0))
        out = cmd(b, f"qp show {q}")
        check_true("the SEND bench landed on NIC 1 (after the 3 receives above)", "completed 35, errors 0" in out,
                   "completed 35", out)
        # SENDs NIC to NIC: NIC 1's firmware posts each receive WQE again as its completion comes
        # (fw/roce/roce.c, ~410 cycles a receive) and its QPs advertise the shortest RNR NAK timer,
        # 0.01 ms. 64 KiB SENDs (~1,430 cycles each on the wire at PMTU 1024) leave it time to
        # keep the receive queue full: no RNR NAK, the wire's rate (92.3 Gb/s measured). 4 KiB
        # ones (~360 cycles) outrun it: RNR NAKs of 0.01 ms, ~20 Gb/s (0.92 Gb/s with 0.64 ms).
        def rnr_naks():
            st = cmd(b, "stats resp_nak_rnr")
            m = re.search(r"resp_nak_rnr (\d+)", st)
            check_true("stats: resp_nak_rnr", m is not None, "resp_nak_rnr N", st)
            return int(m.group(1))
        naks = rnr_naks()
        _, avg, _ = bw_table(cmd(a, "bench send 65536 64"), 65536, 64)
        check("64 KiB SENDs: NIC 1 kept its receive queue filled (no RNR NAK)", naks, rnr_naks())
        check_true("64 KiB SEND goodput >= 90 Gb/s", avg >= 90.0, ">= 90 Gb/s", avg)
        _, avg, _ = bw_table(cmd(a, "bench send 4096 256"), 4096, 256)
        check_true("4 KiB SEND goodput >= 15 Gb/s (short RNR waits, receives posted first)", avg >= 15.0,
                   ">= 15 Gb/s", avg)
        out = cmd(b, f"qp show {q}")
        check_true("every SEND landed on NIC 1 once (35 + 64 + 256)", "completed 355, errors 0" in out,
                   "completed 355", out)
        # --recv-ring: a second session whose QP's receive queue the transport keeps full itself
        # (a recycling ring, docs/transport.md): 4 KiB SENDs at the wire's rate (92.6 Gb/s at PMTU
        # 1024; 91.57 measured) with no RNR NAK, even while NIC 1's console is busy printing
        # `help listen` (the firmware reposts nothing then: its text takes far longer than the run);
        # the receives counted in gen_recv_done
        def counters(con):
            st = cmd(con, "stats resp_nak_rnr gen_recv_done")
            got = {k: re.search(rf"\b{k} (\d+)", st) for k in ("resp_nak_rnr", "gen_recv_done")}
            check_true("stats: resp_nak_rnr, gen_recv_done", all(got.values()), "both counters", st)
            return {k: int(v.group(1)) for k, v in got.items()}
        b.send("listen --port 18516 --recv-ring --wait 5000")
        b.wait_for(r"listen --port 18516 --recv-ring --wait 5000\n", 30)
        out = cmd(a, "connect 10.0.0.2 --port 18516")
        m = re.search(r"qpx: QP 0x(\w+) RTS: peer 10\.0\.0\.2 ", out)
        check_true("--recv-ring session: NIC 0's QP RTS", m is not None, "QP 0x.. RTS", out)
        out = b.wait_for(r"solonic> ", 120).replace("\r", "")
        m2 = re.search(r"qpx: QP 0x(\w+) RTS: peer 10\.0\.0\.1 ", out)
        check_true("--recv-ring session: NIC 1's QP RTS", m2 is not None, "QP 0x.. RTS", out)
        q2, q2b = int(m.group(1), 16), int(m2.group(1), 16)
        c0 = counters(b)
        check("stats with a misspelt counter", "stats: 'gen_recv_dne' is not a transport counter (the 'roce' and "
              "'rdma' lines of 'stats' name them all)\n", cmd(b, "stats gen_recv_dne"))
        b.send("help listen")
        _, avg, _ = bw_table(cmd(a, f"bench send 4096 256 {q2:#x}"), 4096, 256)
        b.wait_for(r"solonic> ", 60)
        c1 = counters(b)
        check("recycling ring: no RNR NAK", c0["resp_nak_rnr"], c1["resp_nak_rnr"])
        check("recycling ring: 256 receives counted in gen_recv_done", 256, c1["gen_recv_done"] - c0["gen_recv_done"])
        check_true("4 KiB SEND goodput into a recycling ring >= 90 Gb/s", avg >= 90.0, ">= 90 Gb/s", avg)
        out = cmd(b, f"qp show {q2b:#x}")
        check_true("qp show: the recycling ring", "receives: a recycling ring in the transport" in out,
                   "receives: a recycling ring ...", out)
        out = cmd(b, "listen --recv-ring --tool perftest --test send_bw --port 18517 --wait 1")
        check("--recv-ring with perftest: refused", "listen: --recv-ring is for the pingpong exchange's QP "
              "(perftest's tools count the NIC's receives one by one)\n", out)


def case_pair_perftest_two_qps():
    """perftest's exchange with --qps 2 on both NICs (no tool): NIC 1 listens, NIC 0
    connects; two QPs RTS on each side, each with its half of the buffer; a WRITE on the
    second QP lands; bench --qps 2 runs over both; 'qpx finish' ends the test on both."""
    with pair() as (a, b):
        b.send("listen --test write_bw --qps 2 --wait 5000")
        b.wait_for(r"listen --test write_bw --qps 2 --wait 5000\n", 30)
        out_c = cmd(a, "connect 10.0.0.2 --test write_bw --qps 2")
        out_s = b.wait_for(r"solonic> ", 120).replace("\r", "")
        rts_c = re.findall(r"qpx: QP 0x(\w+) RTS: peer 10\.0\.0\.2 [0-9a-f:]+ QPN 0x(\w+), PMTU 4096,", out_c)
        rts_s = re.findall(r"qpx: QP 0x(\w+) RTS: peer 10\.0\.0\.1 [0-9a-f:]+ QPN 0x(\w+), PMTU 4096,", out_s)
        check("client: two QPs RTS at PMTU 4096 (both NICs offer 4096)", 2, len(rts_c))
        check("server: two QPs RTS", 2, len(rts_s))
        # each side's QP k is connected to the other side's QP k
        check("the QPs pair up", [(q, r) for q, r in rts_c], [(r, q) for q, r in rts_s])
        q1 = int(rts_c[1][0], 16)
        check("consecutive QPNs", int(rts_c[0][0], 16) + 1, q1)
        locals_c = re.findall(r"local address: LID 0000 QPN 0x(\w+) .* VAddr 0x(\w+)", out_c)
        check("the client's buffers: one half each",
              [int(rts_c[0][0], 16), BUF, q1, BUF + BUF_BYTES // 2],
              [int(x, 16) for pair_ in locals_c for x in pair_])
        rkey = key_of(b)
        x = BUF + BUF_BYTES // 2 + 0x1000
        moved(a, b, lambda: wr(a, f"write {q1:#x} {x:#x} {x:#x} {rkey:#x} 0x2000", "write", 8192), x, 0x2000, 301)
        out = cmd(a, f"bench write 4096 64 --qps 2 --rkey {rkey:#x}")
        check_true("bench over both QPs", f"on QPs 0x{int(rts_c[0][0], 16):x}..0x{q1:x}, 4096 bytes x 64" in out,
                   "bench: ... on QPs A..B, 4096 bytes x 64", out)
        bw_table(out, 4096, 64)
        out = cmd(a, "port")
        for want in (r"port 1: state PORT_ACTIVE \(4\), link_layer Ethernet", r"active_mtu 4096 \(5\)",
                     r"GID\[0\] ::ffff:10\.0\.0\.1, RoCE v2", r"max_qp \d+ \(QPNs 2\.\.\d+",
                     r"max_qp_rd_atom \d+"):
            check_true(f"port: {want}", re.search(want, out) is not None, want, out)
        out = cmd(a, "stats")
        m = re.search(r"rdma +retransmits (\d+) req_cqe_error (\d+) resp_cqe_error (\d+)", out)
        check_true("stats: rdma-named counters", m is not None, "rdma retransmits N req_cqe_error N ...", out)
        check("no error completions on a clean run", ("0", "0"), m.groups()[1:])
        # the responder's request and byte counters against what this test sent:
        # one 8 KiB WRITE and the bench's 64 x 4 KiB, nothing else over RoCE
        sent = 0x2000 + 64 * 4096
        m = re.search(r"rdma +rx_bytes (\d+) tx_bytes (\d+)", out)
        check_true("stats: rdma rx_bytes/tx_bytes", m is not None, "rdma rx_bytes N tx_bytes N", out)
        check("NIC 0 sent the WRITEs' payload bytes", sent, int(m.group(2)))
        out_b = cmd(b, "stats")
        m = re.search(r"rdma +rx_write_requests (\d+) rx_read_requests (\d+) rx_atomic_requests (\d+) "
                      r"rx_send_requests (\d+)", out_b)
        check_true("stats: rdma rx_*_requests", m is not None, "rdma rx_write_requests N ...", out_b)
        check("NIC 1 executed 65 WRITE requests, nothing else", (65, 0, 0, 0), tuple(int(x) for x in m.groups()))
        m = re.search(r"rdma +rx_bytes (\d+) tx_bytes (\d+)", out_b)
        check("NIC 1 parsed the WRITEs' payload bytes and sent none", (sent, 0), (int(m.group(1)), int(m.group(2))))
        out = cmd(a, "qpx finish")
        check_true("the client's end of the test", "qpx: write_bw end-of-test exchange with 10.0.0.2 done" in out,
                   "end-of-test exchange done", out)
        out = b.wait_for(r"write_bw end-of-test exchange with 10\.0\.0\.1 done", 60)


def case_pair_perftest_other_test():
    """The client runs another test than the server listens for: the server names it at the
    exchange (not after a step timeout) and serves the next listen."""
    with pair() as (a, b):
        for listen, conn, want in (
                ("write_bw", "write_lat", "the peer sent a barrier before any RoCE packet of the test: it runs "
                                          "another test (a latency test or send_bw, which exchange one more "
                                          "barrier), not write_bw"),
                ("write_lat", "write_bw", "the peer sends RoCE packets where write_lat exchanges one more "
                                          "barrier: it runs another test (write_bw or read_bw?), not write_lat")):
            b.send(f"listen --test {listen} --wait 5000")
            b.wait_for(rf"listen --test {listen} --wait 5000\n", 30)
            out_c = cmd(a, f"connect 10.0.0.2 --test {conn}")
            if conn == "write_bw":  # the client's test starts: one WRITE posted by hand
                m = re.search(r"qpx: QP 0x(\w+) RTS", out_c)
                k = re.search(r"remote address: .* RKey 0x(\w+) ", out_c)
                check_true("the write_bw client is ready", m and k, "qpx: QP ... RTS, the server's RKey", out_c)
                cmd(a, f"write 0x{m.group(1)} {BUF:#x} {BUF:#x} 0x{k.group(1)} 64")  # NIC 1's listen runs
            out_s = b.wait_for(r"qpx: the peer[^\n]*\n", 120).replace("\r", "")
            check_true(f"server of {listen}, client of {conn}", want in out_s, want, out_s)
            if listen.endswith("_lat"):  # a lat server's listen returns only now, with its prompt
                b.wait_for(r"solonic> ", 30)
            cmd(a, "qpx abort")  # the client's session, if it still runs
            check(f"server of {listen}: free again", "qpx: no session\n", cmd(b, "qpx"))


def case_pair_nic0_listens():
    """The roles reversed: NIC 0 listens, NIC 1 connects; WRITE both ways, SEND 1 -> 0; bench from NIC 1."""
    with pair() as (a, b):
        qpn, _ = exchange(a, b, "10.0.0.1", "10.0.0.2")
        k0, k1 = key_of(a), key_of(b)
        q = f"{qpn:#x}"
        x = BUF + 0x60000
        moved(b, a, lambda: wr(b, f"write {q} {x:#x} {x:#x} {k0:#x} 0x4000", "write", 16384), x, 0x4000, 201)
        x = BUF + 0x70000
        moved(a, b, lambda: wr(a, f"write {q} {x:#x} {x:#x} {k1:#x} 0x4000", "write", 16384), x, 0x4000, 202)
        moved(b, a, lambda: wr(b, f"send {q} {BUF:#x} 0x1000", "send", 4096), BUF, 0x1000, 203)
        out = cmd(b, f"bench write 16384 16 --rkey {k0:#x}")
        bw_table(out, 16384, 16)


def case_pair_qp_error_console():
    """A QP in ERROR as the console tells it (docs/transport.md "QP errors"): a WRITE
    with a wrong rkey fails with IBV_WC_REM_ACCESS_ERR; both NICs announce their
    QP's move to ERROR (the requester's and the responder's, each with its reason);
    qp show / qp list say ERROR and why; a later WRITE is flushed; qp reset takes
    the QP back to RESET, and a new exchange gives a QP on which a WRITE works."""
    with pair() as (a, b):
        qpn, _ = exchange(b, a, "10.0.0.2", "10.0.0.1")
        rkey = key_of(b)
        q = f"{qpn:#x}"
        x = BUF + 0x20000
        out = cmd(a, f"write {q} {x:#x} {x:#x} {rkey ^ 0x100:#x} 0x100")
        check_true("a wrong rkey: REM_ACCESS_ERR", re.search(r"^write: IBV_WC_REM_ACCESS_ERR, 0 bytes, \d+ us$",
                                                            out, re.M) is not None,
                   "write: IBV_WC_REM_ACCESS_ERR, 0 bytes, N us", out)
        out += cmd(a, f"qp show {q}")
        ev = (rf"roce: QP 0x{qpn:06x} entered ERROR: IBV_WC_REM_ACCESS_ERR \(as requester\); "
              rf"'qp reset 0x{qpn:x}' or a new exchange brings it back\n")
        check_true("NIC 0 announces its QP's ERROR", re.search(ev, out) is not None, ev, out)
        show = (rf"qp 0x{qpn:06x}: ERROR, created by the exchange\n"
                rf"  in ERROR since the transport said so \(context written as RTS\): IBV_WC_REM_ACCESS_ERR, "
                rf"as requester; 'qp reset' or a new exchange brings it back\n")
        check_true("qp show: ERROR and why", re.search(show, out) is not None, show, out)
        check_true("qp show: the session's own PD (1: the only session)", re.search(r" pd 1\n", out) is not None,
                   "... pd 1", out)
        # the responder NIC: its QP entered ERROR when it sent the NAK
        got = b.wait_for(rf"roce: QP 0x{qpn:06x} entered ERROR: responder sent NAK remote access error "
                         rf"\(as responder\)", 60)
        check_true("NIC 1 announces its QP's ERROR", "entered ERROR" in got, "roce: QP ... entered ERROR", got)
        out = cmd(b, "qp list")
        row = (rf"^0x{qpn:06x} ERROR .*\n"
               rf"         why: responder sent NAK remote access error\n")
        check_true("qp list: ERROR and why", re.search(row, out, re.M) is not None, row, out)
        # the receive flush (IBA 11.6.2): the 64 receives the exchange posted complete with WR_FLUSH_ERR
        out = cmd(b, f"qp show {q}")
        want = "receives posted 64, completed 0, errors 64\n  last receive: IBV_WC_WR_FLUSH_ERR, IBV_WC_RECV, 0 bytes\n"
        check_true("NIC 1's waiting receives flushed", want in out, want, out)
        check("stats rq_flushed rq_flush_lost", "roce    rq_flushed 64 rq_flush_lost 0\n",
              cmd(b, "stats rq_flushed rq_flush_lost"))
        check(f"a receive posted to the QP in ERROR: refused", "recv: the QP is in ERROR: 'qp reset' it first\n",
              cmd(b, f"recv {q} {BUF:#x} 0x100"))
        out = cmd(a, f"write {q} {x:#x} {x:#x} {rkey:#x} 0x100")
        check_true("a WRITE on the QP in ERROR is flushed", re.search(r"^write: IBV_WC_WR_FLUSH_ERR, 0 bytes",
                                                                     out, re.M) is not None,
                   "write: IBV_WC_WR_FLUSH_ERR, 0 bytes, N us", out)
        out = cmd(a, "stats")
        check_true("stats counts the QP event", re.search(r"qp_errors 1 qp_events_lost 0", out) is not None,
                   "qp_errors 1 qp_events_lost 0", out)
        for con in (a, b):
            check(f"qp reset {q}", f"qp 0x{qpn:06x} back to RESET\n", cmd(con, f"qp reset {q}"))
        out = cmd(a, f"qp show {q}")
        check_true("after qp reset: RESET, no reason", out.startswith(f"qp 0x{qpn:06x}: RESET,")
                   and "in ERROR" not in out, "qp ...: RESET, created by ...", out)
        # a new exchange: a new QP, a WRITE works
        qpn2, _ = exchange(b, a, "10.0.0.2", "10.0.0.1")
        rkey = key_of(b)
        moved(a, b, lambda: wr(a, f"write {qpn2:#x} {x:#x} {x:#x} {rkey:#x} 0x1000", "write", 4096), x, 0x1000, 111)
        out = cmd(a, "qp list")
        check_true("the new QP is RTS, in PD 1 (the last session's was released)",
                   re.search(rf"^0x{qpn2:06x} RTS .*   1 exchange$", out, re.M) is not None,
                   f"0x{qpn2:06x} RTS ... 1 exchange", out)
        out = cmd(a, "mr list")
        check_true("the session's MR in its PD", re.search(r"^0x[0-9a-f]{8} 0x0000000000100000 \S+ 0xf +1$", out, re.M)
                   is not None, "KEY 0x0000000000100000 LEN 0xf 1", out)


def case_pair_bench_read_depth3():
    """bench read 65536 8 --depth 3 (it once hung with comp_drop_resp counting up):
    it must finish with a bounded table, and the READ data must have arrived
    (a READ of a filled range verifies afterwards)."""
    with pair() as (a, b):
        qpn, _ = exchange(b, a, "10.0.0.2", "10.0.0.1")
        rkey = key_of(b)
        out = cmd(a, f"bench read 65536 8 --depth 3 --rkey {rkey:#x}", timeout=300)
        check_true("bench read --depth 3: header", re.match(rf"bench: \S+( \S+)? on QP {qpn:#x}, 65536 bytes x 8, 3 "
                                                            r"outstanding at most", out) is not None,
                   "bench: ... 3 outstanding at most", out)
        bw_table(out, 65536, 8)
        x = BUF + 0x40000
        moved(b, a, lambda: wr(a, f"read {qpn:#x} {x:#x} {x:#x} {rkey:#x} 0x10000", "read", 65536), x, 0x10000, 104)


def case_pair_bench_interrupt_and_silent_peer():
    """Ctrl-C ends a long run (the QP stays usable); a peer whose QP was reset ends one by timeout."""
    with pair() as (a, b):
        qpn, _ = exchange(b, a, "10.0.0.2", "10.0.0.1")
        rkey = key_of(b)
        line = f"bench write 65536 100000 --rkey {rkey:#x}"
        a.send(line)
        a.wait_for(r"bench: RDMA WRITE on QP .*\n", 60)
        time.sleep(1.0)  # some completions first (wall time; the count is checked below)
        os.write(a.fd_out, b"\x03")
        out = a.wait_for(r"solonic> ", 120)[: -len("solonic> ")].replace("\r", "")
        m = re.search(r"\^C\n(?s:.*)bench: interrupted \(Ctrl-C\) after (\d+) of 100000 completions\n$", out)
        check_true("Ctrl-C ends the run", m is not None, "^C ... bench: interrupted (Ctrl-C) after N of 100000", out)
        n = int(m.group(1))
        check_true("some but not all completed", 0 < n < 100000, "0 < N < 100000", n)
        bw_table(out, 65536, n)
        bw_table(cmd(a, f"bench write 4096 16 --rkey {rkey:#x}"), 4096, 16)  # nothing left behind
        out = cmd(b, f"qp reset {qpn:#x}")
        check("NIC 1 resets its QP", f"qp 0x{qpn:06x} back to RESET\n", out)
        out = cmd(a, f"bench write 64 4 --rkey {rkey:#x} --timeout 1")
        check_true("a silent peer: the wait ends", out.endswith(
            "bench: no completion within 1 ms (0 of 4 posted work requests completed)\n"),
            "bench: no completion within 1 ms (0 of 4 posted work requests completed)", out)


# ---- wrong input (one NIC with the transport)

ARGS = [
    ("bench", "bench: expected [lat] write|read|send SIZE ITERS [QPN] [--rkey KEY] [--depth N] "
              "[--qps N] [--timeout MS] (see 'help bench')"),
    ("bench lat", "bench: expected [lat] write|read|send SIZE ITERS [QPN] [--rkey KEY] [--depth N] "
                  "[--qps N] [--timeout MS] (see 'help bench')"),
    ("bench atomic 8 1", "bench: expected write, read or send (or lat), got 'atomic'"),
    ("bench lat lat 8 1", "bench: expected write, read or send, got 'lat'"),
    ("bench write", "bench write: expected SIZE ITERS"),
    ("bench lat send 64", "bench lat send: expected SIZE ITERS"),
    ("bench read 64 --depth 2", "bench read: expected SIZE ITERS"),
    ("bench write 0 1", "bench: SIZE: expected 1..16777216 bytes (the exchange's test buffer), got 0"),
    ("bench write 0x1000001 1", "bench: SIZE: expected 1..16777216 bytes (the exchange's test buffer), got "
                                "0x1000001"),
    ("bench write 64k 1", "bench: SIZE: expected a number (decimal or 0x hex), got '64k'"),
    ("bench send 64 0", "bench: ITERS: expected 1..100000, got 0"),
    ("bench send 64 100001", "bench: ITERS: expected 1..100000, got 100001"),
    ("bench write 64 1 1", "bench: QPN: expected 2..0xffffff (0 and 1 are not RC QPs), got 1"),
    ("bench write 64 1 0x1000000", "bench: QPN: expected 2..0xffffff (0 and 1 are not RC QPs), got 0x1000000"),
    ("bench write 64 1 0x11 0x12", "bench: unexpected argument '0x12' (see 'help bench')"),
    ("bench write 64 1 --fast", "bench: unknown option '--fast' (see 'help bench')"),
    ("bench write 64 1 --rkey", "bench: --rkey needs a value"),
    ("bench write 64 1 --rkey x", "bench: --rkey: expected a number (decimal or 0x hex), got 'x'"),
    ("bench write 64 1 --timeout 0", "bench: --timeout: expected 1..10000 ms, got 0"),
    ("bench write 64 1 --timeout 10001", "bench: --timeout: expected 1..10000 ms, got 10001"),
    ("bench write 64 1 --depth 0", "bench: --depth: expected 1..512 (at most the SQ depth per QP), got 0"),
    ("bench write 64 1 --depth 513", "bench: --depth: expected 1..512 (at most the SQ depth per QP), got 513"),
    ("bench write 64 1 --qps 0", "bench: --qps: expected 1..64, got 0"),
    ("bench write 64 1 --qps 65", "bench: --qps: expected 1..64, got 65"),
    ("bench lat write 64 1 --depth 2", "bench: --depth: a latency run has one work request outstanding"),
    # well-formed, but nothing to run on
    ("bench write 64 1", "bench: no connected QP (run listen or connect first, or give a QPN)"),
    ("bench write 64 1 0x12", "bench: QP 0x12 was not created here (see 'qp list')"),
    ("qp create", "qp 0x000011 created (INIT, PD 0)"),
    ("bench send 64 1 0x11", "bench: QP 0x11 is in INIT, not RTS (listen or connect programs it)"),
]


# protection domains on the console (docs/transport.md "Protection domains"), after ARGS (which
# made QP 0x11 in PD 0): --pd checked and shown; a QP's work request takes an lkey of its own PD
# only (the MR key: tag 1, row 0); a streaming MR (--stream) registered and listed
ARGS_PD = [
    ("qp create --pd", "qp create: --pd takes one N and comes last"),
    ("qp create --pd 5 7", "qp create: --pd takes one N and comes last"),
    ("qp create --pd 256", "qp create: --pd: expected a protection domain 0..255, got 256"),
    ("qp create --pd x", "qp create: --pd: expected a number (decimal or 0x hex), got 'x'"),
    ("mr reg 0x4000000 0x1000 --pd 0x100", "mr reg: --pd: expected a protection domain 0..255, got 0x100"),
    ("mr reg 0x4000000 --pd 5", "mr reg: expected ADDR LEN [ACCESS] [--stream] [--pd N]"),
    ("qp create --pd 5", "qp 0x000012 created (INIT, PD 5)"),
    ("qp create", "qp 0x000013 created (INIT, PD 0)"),
    ("mr reg 0x4000000 0x1000 0x1 --pd 5", "mr key 0x00000100: 0x4000000 + 0x1000 access 0x1 pd 5"),
    ("mr reg 0x5000000 0x10000 --stream --pd 5", "mr key 0x00000201: 0x5000000 + 0x10000 access 0xf pd 5 stream"),
    ("mr list", "key        base               length             access  pd\n"
                "0x00000100 0x0000000004000000 0x0000000000001000 0x1      5\n"
                "0x00000201 0x0000000005000000 0x0000000000010000 0xf      5 stream"),
    ("write 0x13 0x4000000 0 0x100 16", "write: no memory region of PD 0 covers 0x4000000 + 0x10 (see 'mr list')"),
    ("write 0x12 0x4000000 0 0x100 16", "write: QP 0x12 is in INIT, not RTS (listen or connect programs it)"),
]


def case_args_bench_and_pd():
    lines = [a for a, _ in ARGS + ARGS_PD]
    with Sim(typed(*lines, "help bench", "help", "qp show 0x12", "qp list"), max_cycles=80_000_000,
             max_seconds=120) as s:
        s.boot()
        for line, want in ARGS + ARGS_PD:
            check(f"output of {line!r}", want + "\n", s.reply(line).replace("\r", ""))
        out = s.reply("help bench")
        for want in ("usage: bench [lat] write|read|send SIZE ITERS [QPN] [OPTIONS]", "--rkey KEY", "--depth N",
                     "--qps N", "--timeout MS", "Ctrl-C", "work-request"):
            check_true("help bench", want in out, want, tail(out))
        out = s.reply("help")
        check_true("help lists bench", re.search(r"^  bench \[lat\] write\|read\|send", out, re.M) is not None,
                   "  bench [lat] write|read|send ...", tail(out))
        out = s.reply("qp show 0x12").replace("\r", "")
        check_true("qp show: the PD", re.search(r" access 0xe pd 5\n", out) is not None, "... access 0xe pd 5", out)
        out = s.reply("qp list").replace("\r", "")
        rows = [(0x11, 0), (0x12, 5), (0x13, 0)]
        check_true("qp list: the PD column", all(re.search(rf"^0x{q:06x} INIT .* 0x000000 0x000000 {pd:3d} console$",
                                                           out, re.M) for q, pd in rows),
                   "0x000011 INIT ... 0 console / 0x000012 ... 5 / 0x000013 ... 0", out)
        check("exit code", 0, s.wait_exit())


# ---- a Scapy peer on the NIC's --eth0 port, with the transport (real QPs)

def peer_nic(keys):
    os.environ.setdefault("SOLONIC_NIC_SIM", os.path.join(ROOT, "build/sim/solonic_sim"))
    import test_qpx_console as tc
    return tc, tc.start(keys)


AFTER = ("qp list", "mr list", "bench write 64 1")
EMPTY = {"qp list": "qp: no QPs (qp create, listen or connect make one)\n",
         "mr list": "mr: no memory regions\n",
         "bench write 64 1": "bench: no connected QP (run listen or connect first, or give a QPN)\n"}


def failed_cleanly(n, want):
    m = n.sim.expect(r"(qpx: [^\n]*)\n" + re.escape("solonic> "), what="the failure line")
    check_true("failure line", want in m.group(1) and m.group(1).endswith("; QP 0x11 back to RESET"),
               want + " ...; QP 0x11 back to RESET", m.group(1))
    for line in AFTER:
        check(f"after the failure: {line}", EMPTY[line], n.sim.reply(line))


def case_peer_abandons_halfway():
    """The peer connects, sends 20 of its 52 bytes and closes: the QP is undone."""
    line = "listen --wait 500"
    tc, n = peer_nic(typed(line, *AFTER))
    with n:
        n.sim.expect(re.escape(line) + r"\n", what="echo")
        n.sim.expect(r"local address: LID 0x0000, QPN 0x000011", what="the QP was created")
        t = tc.Tcp(n, 40010, tc.PORT)
        t.connect()
        t.send(tc.patch_gid([p for c, p in tc.exchange("rc_pingpong") if c][0], tc.PEER_IP)[:20])
        t.close()
        failed_cleanly(n, "the peer closed the connection after 20 of 52 bytes of the pingpong destination")


def case_peer_sends_garbage():
    """The NIC connects; the peer answers its destination with garbage."""
    line = "connect 10.0.0.100"
    tc, n = peer_nic(typed(line, *AFTER))
    with n:
        t = tc.Tcp(n, tc.PORT, 0)
        t.accept()
        t.recv(52, "client destination")
        t.send(b"0000:000011:zzzzzz:" + b"g" * 32 + b"\x00")
        failed_cleanly(n, "bad pingpong destination from the peer: pingpong destination: PSN")


def case_peer_never_answers():
    """The peer accepts the connection and then says nothing: the step times out (simulated ms)."""
    line = "connect 10.0.0.100 --timeout 2"
    tc, n = peer_nic(typed(line, *AFTER))
    with n:
        t = tc.Tcp(n, tc.PORT, 0)
        t.accept()
        t.recv(52, "client destination")
        failed_cleanly(n, "timeout: no pingpong destination from the peer within 2 ms (got 0 of 52 bytes)")


def case_peer_ud_uc_pingpong():
    """ibv_ud_pingpong / ibv_uc_pingpong speak rc_pingpong's exchange, then send UD
    (opcode 0x64, with a DETH) or UC (0x24) SENDs: the NIC drops them, counts them by name
    (resp_drop_not_rc, rx_bad_opcode), says on the console that UD/UC is not supported,
    and touches no receive WQE. Then a WRITE larger than the path MTU (a peer with a
    larger MTU): NAKed, and the console says why."""
    from scapy.contrib.roce import BTH
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether
    line = "listen --wait 500"
    os.environ.setdefault("SOLONIC_NIC_SIM", os.path.join(ROOT, "build/sim/solonic_sim"))
    import test_qpx_console as tc
    n = tc.start(typed(line, exit_code=None), keep_stdin=True)
    with n:
        n.sim.expect(re.escape(line) + r"\n", what="echo")
        t = tc.Tcp(n, 40011, tc.PORT)
        t.connect()
        client_msg = tc.patch_gid([p for c, p in tc.exchange("rc_pingpong") if c][0], tc.PEER_IP)
        t.send(client_msg)
        dest = t.recv(52, "the NIC's destination")
        qpn = int(dest.split(b":")[1], 16)
        t.send(b"done\x00")
        t.expect_end("the NIC closes after done")
        n.sim.upto_prompt("the exchange")

        def frame(opcode, ext):
            return (Ether(dst=tc.nic_mac(), src=tc.PEER_MAC) / IP(src=tc.PEER_IP, dst=tc.nic_ip(), flags="DF") /
                    UDP(sport=0xC123, dport=4791, chksum=0) / BTH(opcode=opcode, dqpn=qpn, psn=5, pkey=0xFFFF) /
                    (ext + bytes(64)))
        deth = (0x11111111).to_bytes(4, "big") + (0x11).to_bytes(4, "big")
        n.send(frame(0x64, deth))   # UD SEND ONLY
        m = n.sim.expect(r"roce: UD/UC not supported \(solonic's QPs are RC\): dropped (\d+) UD packets to RC QPs "
                         r"\(resp_drop_not_rc\) and (\d+) packets with a UC or unknown opcode", what="the UD note")
        check("the note counts the UD packet", ("1", "0"), m.groups())
        n.send(frame(0x24, b""))    # UC SEND ONLY
        for _ in range(5):  # the frame may still be on its way: ask again, bounded
            n.sim.send("stats\n")
            out = n.sim.reply("stats")
            if re.search(r"rx_bad_opcode 1\b", out):
                break
        check_true("stats: the UC packet in rx_bad_opcode", re.search(r"rx_bad_opcode 1\b", out) is not None,
                   "rx_bad_opcode 1", out)
        check_true("stats: the UD packet in resp_drop_not_rc", re.search(r"resp_drop_not_rc 1\b", out) is not None,
                   "resp_drop_not_rc 1", out)
        n.sim.send(f"qp show {qpn:#x}\n")
        out = n.sim.reply(f"qp show {qpn:#x}")
        check_true("no receive WQE consumed", "completed 0, errors 0" in out, "completed 0, errors 0", out)
        # an RC WRITE ONLY at the expected PSN with more payload than the QP's path MTU
        # (1024, pingpong's): the invalid-request NAK, and the console names the reason
        psn = int(client_msg.split(b":")[2], 16)
        reth = (0x1000).to_bytes(8, "big") + (0x1234).to_bytes(4, "big") + (1100).to_bytes(4, "big")
        n.send(Ether(dst=tc.nic_mac(), src=tc.PEER_MAC) / IP(src=tc.PEER_IP, dst=tc.nic_ip(), flags="DF") /
               UDP(sport=0xC123, dport=4791, chksum=0) /
               BTH(opcode=0x0A, dqpn=qpn, psn=psn, pkey=0xFFFF, ackreq=1) / (reth + bytes(1100)))
        nak = n.expect(lambda f: UDP in f and f[UDP].dport == 4791 and BTH in f and f[BTH].opcode == 0x11,
                       "the NIC's answer to the oversize WRITE")
        check("NAK: invalid request (AETH syndrome 0x61)", 0x61, bytes(nak[BTH].payload)[0])
        check("NAK: the PSN of the WRITE", psn, nak[BTH].psn)
        m = n.sim.expect(r"roce: (\d+) requests NAKed \(invalid request\) so far because their payload was "
                         r"longer than the QP's path MTU", what="the PMTU note")
        check("the note counts one request", "1", m.group(1))


LAT_ROW = (r"^ (\d+) +(\d+) +" + NUM + r" +" + NUM + r" +" + NUM + r" +" + NUM + r" +" + NUM +
           r" +" + NUM + r" +" + NUM + r"\n")


def tool_run(server, client, test, size, iters, opts="", wall=300):
    """Both NICs armed ('tool on'): NIC 1 listens, NIC 0 connects (both with opts); both run
    their side of perftest's TEST (each wait bounded by wall seconds). Returns (client's
    output, server's output)."""
    for con in (server, client):
        out = cmd(con, f"tool on -n {iters} -s {size} --idle 50")
        # (an earlier session's RDMA CM lines may come first)
        check_true("tool on", re.search(rf"^tool: on \(-n {iters} -s {size}, idle bound 50 ms\)",
                                        out, re.M) is not None, "tool: on (...)", out)
    line = f"listen --test {test} --wait 5000 {opts}".strip()
    server.send(line)
    server.wait_for(re.escape(line) + r"\n", 30)
    out_c = cmd(client, f"connect 10.0.0.2 --test {test} {opts}".strip(), timeout=wall)
    out_s = server.wait_for(r"solonic> ", wall).replace("\r", "")
    end = rf"tool: {test} server with 10\.0\.0\.1: .*: (ok|FAILED.*)\r?\n"
    if not re.search(end, out_s):
        try:
            out_s += server.wait_for(end, wall).replace("\r", "")
        except Exception:
            print("server so far:\n" + out_s)
            raise
    check_true(f"{test}: the client's line", re.search(
        rf"^tool: {test} client with 10\.0\.0\.2: .*: ok\n", out_c, re.M) is not None,
        f"tool: {test} client with 10.0.0.2: ...: ok", tail(out_c))
    check_true(f"{test}: the server's line", re.search(
        rf"^tool: {test} server with 10\.0\.0\.1: .*: ok\n", out_s, re.M) is not None,
        f"tool: {test} server with 10.0.0.1: ...: ok", tail(out_s))
    return out_c, out_s


def rdma_requests(con):
    """stats' rx_write/read/atomic/send_requests of one NIC."""
    out = cmd(con, "stats")
    m = re.search(r"rdma +rx_write_requests (\d+) rx_read_requests (\d+) rx_atomic_requests (\d+) "
                  r"rx_send_requests (\d+)", out)
    check_true("stats: rdma rx_*_requests", m is not None, "rdma rx_write_requests N ...", out)
    return tuple(int(x) for x in m.groups())


def lat_row(out, size, iters, lo, hi):
    m = re.search(LAT_ROW, out, re.M)
    check_true("a perftest latency table", m is not None, "#bytes #iterations t_min ...", out)
    check("#bytes", size, int(m.group(1)))
    check("#iterations", iters, int(m.group(2)))
    tmin, tmax, typ, avg = (float(m.group(i)) for i in (3, 4, 5, 6))
    check_true("t_min <= t_typical, t_avg <= t_max", tmin <= typ <= tmax and tmin <= avg <= tmax,
               "ordered", m.group(0))
    check_true(f"{lo} us < t_min, t_max < {hi} us (simulated)", lo < tmin and tmax < hi,
               f"{lo}..{hi}", m.group(0))
    return avg


def u64_at(con, addr):
    """The little-endian 64-bit word at addr of con's on-board memory (dump)."""
    out = cmd(con, f"dump {addr:#x} 8")
    m = re.match(rf"{addr:08x}:((?: [0-9a-f]{{2}}){{8}}) ", out)
    check_true(f"dump {addr:#x} 8", m is not None, f"{addr:08x}: 8 bytes", out)
    return int.from_bytes(bytes(int(x, 16) for x in m.group(1).split()), "little")


def case_pair_perftest_tools():
    """Both NICs as perftest's peers ('tool on'), NIC 0 the client, NIC 1 the server, of
    atomic_bw: FETCH_AND_ADDs, then perftest -A CMP_AND_SWAP's compare-0-swap-0, counted by
    NIC 1's responder, the server's word and the original value the client got back checked;
    --atomic's argument checks. The latency and bandwidth tools between the two NICs are
    pair_perftest_tools_lat_bw (`make test-full`); make test runs them
    against rxe in the interop group (write_lat and write_bw in both roles, -q 2)."""
    with pair() as (a, b):
        t0 = time.monotonic()
        # atomics: NIC 0 posts FETCH_AND_ADDs (8 bytes each) as ib_atomic_bw's client does;
        # NIC 1's responder executes each once
        before = rdma_requests(b)
        v0 = u64_at(b, BUF)
        out_c, out_s = tool_run(b, a, "atomic_bw", 8, 8)
        check_true("atomic_bw: the client's table (8-byte messages x 8)",
                   re.search(r"^ 8 +8 +" + NUM + r" +" + NUM + r" +" + NUM + r"\n", out_c, re.M) is not None,
                   " 8 8 peak avg rate", out_c)
        after = rdma_requests(b)
        check("atomic_bw: NIC 1 executed 8 atomics and nothing else", (0, 0, 8, 0),
              tuple(x - y for x, y in zip(after, before)))
        # FETCH_AND_ADD 1, eight times on the server's first 8 bytes (little-endian in memory):
        # +8 there, and the last one's original value in the client's buffer
        v1 = u64_at(b, BUF)
        check("FETCH_AND_ADD x 8: the server's word went up by 8", (v0 + 8) % 2**64, v1)
        check("FETCH_AND_ADD: the client holds the last original value", (v0 + 7) % 2**64, u64_at(a, BUF))
        # perftest -A CMP_AND_SWAP (both sides given it, as perftest's both sides are): compare 0,
        # swap 0, so the server's word stays; each answer carries it, the client keeps the last
        before = after
        out_c, out_s = tool_run(b, a, "atomic_bw", 8, 8, "--atomic CMP_AND_SWAP")
        check_true("atomic_bw CMP_AND_SWAP: the client's table",
                   re.search(r"^ 8 +8 +" + NUM + r" +" + NUM + r" +" + NUM + r"\n", out_c, re.M) is not None,
                   " 8 8 peak avg rate", out_c)
        after = rdma_requests(b)
        check("CMP_AND_SWAP: NIC 1 executed 8 atomics and nothing else", (0, 0, 8, 0),
              tuple(x - y for x, y in zip(after, before)))
        check_true("the server's word is not 0 (a compare with 0 fails)", v1 != 0, "not 0", v1)
        check("CMP_AND_SWAP: the server's word unchanged (a FETCH_AND_ADD would add 8)", v1, u64_at(b, BUF))
        check("CMP_AND_SWAP: the client holds the original value", v1, u64_at(a, BUF))
        out = cmd(a, "connect 10.0.0.2 --test write_bw --atomic CMP_AND_SWAP")
        check("--atomic with a test without atomics: refused",
              "connect: --atomic is for --test atomic_bw or atomic_lat\n", out)
        out = cmd(a, "connect 10.0.0.2 --test atomic_bw --atomic SWAP")
        check("--atomic: a bad type refused", "connect: --atomic: expected CMP_AND_SWAP or "
              "FETCH_AND_ADD (perftest's -A), got 'SWAP'\n", out)
        print(f"atomic_bw: {time.monotonic() - t0:.1f} s wall")


def case_pair_perftest_tools_lat_bw():
    """Both NICs as perftest's peers ('tool on'; make test-full only, about 150 s): NIC 0
    the client, NIC 1 the server of write_lat (each watches its buffer's last byte and writes
    back), send_lat, read_lat, atomic_lat, write_bw (NIC 0 posts the WRITEs and sends the
    report NIC 1 prints) and write_bw -q 2 (each tool costs about 30 s of wall time; the
    interop sweep runs all of them against rxe)."""
    figs = []
    with pair() as (a, b):
        t0 = time.monotonic()
        out_c, out_s = tool_run(b, a, "write_lat", 64, 4)
        wl = lat_row(out_c, 64, 4, 0.5, 100)
        lat_row(out_s, 64, 4, 0.5, 100)
        figs.append(f"write_lat 64 B {wl:.2f} us")
        print(f"write_lat: {time.monotonic() - t0:.1f} s wall")
        t0 = time.monotonic()
        sl = lat_row(tool_run(b, a, "send_lat", 256, 6)[0], 256, 6, 0.5, 100)
        rl = lat_row(tool_run(b, a, "read_lat", 4096, 6)[0], 4096, 6, 0.5, 100)
        alat = lat_row(tool_run(b, a, "atomic_lat", 8, 6)[0], 8, 6, 0.5, 100)
        figs += [f"send_lat 256 B {sl:.2f} us", f"read_lat 4096 B {rl:.2f} us", f"atomic_lat 8 B {alat:.2f} us"]
        print(f"send_lat, read_lat, atomic_lat: {time.monotonic() - t0:.1f} s wall")
        t0 = time.monotonic()
        out_c, out_s = tool_run(b, a, "write_bw", 16384, 4)
        m = re.search(r"^ 16384 +4 +" + NUM + r" +" + NUM + r" +" + NUM + r"\n", out_c, re.M)
        check_true("the client's bandwidth table (MB/s)", m is not None, " 16384 4 peak avg rate", out_c)
        avg = float(m.group(2))
        ms = re.search(r"qpx: the peer's report: 16384-byte messages x 4, BW average " + NUM +
                       r" MB/s", out_s)
        check_true("the server got the client's report", ms is not None and
                   abs(float(ms.group(1)) - avg) < 0.01, f"BW average {avg:.2f}", tail(out_s))
        # 100 Gb/s is 11920.93 MB/s (2^20 bytes)
        check_true("0 < BW average < the wire's rate", 0 < avg < 11920.93, "0 .. 11920.93 MB/s", avg)
        figs.append(f"write_bw 16 KiB x 4 {avg:.2f} MB/s")
        print(f"write_bw: {time.monotonic() - t0:.1f} s wall")
        # perftest -q 2: the client posts ITERS on each QP, round robin; the report counts both
        out_c, out_s = tool_run(b, a, "write_bw", 4096, 6, "--qps 2")
        check_true("--qps 2: the client's table counts both QPs' messages",
                   re.search(r"^ 4096 +12 +" + NUM, out_c, re.M) is not None, " 4096 12 ...", out_c)
        check_true("--qps 2: the server got a report of 12", re.search(
            r"qpx: the peer's report: 4096-byte messages x 12,", out_s) is not None, "x 12", tail(out_s))
        out = cmd(a, "qp list")
        for q in re.findall(r"qpx: QP 0x(\w+) RTS", out_c):
            m = re.search(rf"^0x0*{q} .*", out, re.M)
            check_true(f"QP 0x{q} of the two", m is not None, f"QP 0x{q} in qp list", out)
        print("NIC-to-NIC (simulated time): " + ", ".join(figs))


def many_qps(a, b, n, opts, iters=2, size=4096):
    """write_bw with --qps N between the two NICs ('tool on'): N QPs RTS on each side,
    each side's k-th paired with the other's k-th, every QP of the client posted ITERS
    WRITEs (its table and the server's report count N x ITERS), qp list shows them all.
    Returns (client's QPNs, server's QPNs)."""
    # the exchange's items go one TCP round trip each (about 50,000 cycles): 16 QPs take
    # about 2 M cycles, which a loaded machine may stretch to minutes
    out_c, out_s = tool_run(b, a, "write_bw", size, iters, f"--qps {n} {opts}".strip(), wall=1200)
    if "--rdma-cm" in opts:
        rts_c = re.findall(r"cm: QP 0x(\w+) established with 10\.0\.0\.2 port 18515 \(REP\)", out_c)[1:]
        rts_s = re.findall(r"local address: .*QPN 0x(\w+) ", out_s)
        peers_c = re.findall(r"remote address: .*QPN 0x(\w+) ", out_c)
    else:
        pairs_c = re.findall(r"qpx: QP 0x(\w+) RTS: peer 10\.0\.0\.2 [0-9a-f:]+ QPN 0x(\w+),", out_c)
        pairs_s = re.findall(r"qpx: QP 0x(\w+) RTS: peer 10\.0\.0\.1 [0-9a-f:]+ QPN 0x(\w+),", out_s)
        check("server: every QP RTS", n, len(pairs_s))
        check("each side's QP k is connected to the other side's QP k",
              [(q, r) for q, r in pairs_c], [(r, q) for q, r in pairs_s])
        rts_c, peers_c = [q for q, _ in pairs_c], [r for _, r in pairs_c]
        rts_s = [q for q, _ in pairs_s]
    rts_c, rts_s, peers_c = ([int(q, 16) for q in x] for x in (rts_c, rts_s, peers_c))
    check(f"client: {n} QPs", n, len(rts_c))
    check(f"server: {n} QPs", n, len(set(rts_s)))
    check("distinct QPNs on the client", n, len(set(rts_c)))
    check("the client's peers are the server's QPs, in order", sorted(set(rts_s), key=rts_s.index),
          peers_c[:n])
    total = n * iters
    check_true(f"--qps {n}: the client's table counts every QP's messages",
               re.search(rf"^ {size} +{total} +" + NUM, out_c, re.M) is not None, f" {size} {total} ...", out_c)
    check_true(f"--qps {n}: the server got a report of {total}", re.search(
        rf"qpx: the peer's report: {size}-byte messages x {total},", out_s) is not None, f"x {total}",
        tail(out_s))
    return rts_c, rts_s


def case_pair_perftest_16_qps():
    """perftest -q 16 between the two NICs over the TCP exchange (make test-full only; write_bw, 'tool on',
    2 WRITEs per QP): 16 QPs on each side, paired in order, every QP's WRITEs counted by the
    client and in the report the server prints; the QPs stay listed (qp list) until the next
    session. The firmware tracked 16 QPs at most before (ROCE_MAX_QPS 16)."""
    with pair(max_seconds=1500) as (a, b):
        before = rdma_requests(b)
        rts_c, _ = many_qps(a, b, 16, "")
        after = rdma_requests(b)
        check("NIC 1 executed 32 WRITE requests", (32, 0, 0, 0), tuple(x - y for x, y in zip(after, before)))
        out = cmd(a, "qp list")
        for q in rts_c:
            check_true(f"QP {q:#x} listed", re.search(rf"^0x0*{q:x} ", out, re.M) is not None, f"{q:#x}", out)


def case_pair_perftest_rdma_cm_16_qps():
    """perftest -R -q 16 between the two NICs (make test-full only): 17 RDMA CM connections
    (the exchange's and 16 QPs'; CM_MAX_CONNS was 8), write_bw on all 16, every connection
    ended afterwards."""
    with pair(max_seconds=3000) as (a, b):
        many_qps(a, b, 16, "--rdma-cm")
        time.sleep(1)
        for con in (a, b):
            out = cmd(con, "qpx")
            check_true("--rdma-cm: the connections ended (DREQ/DREP)", "established" not in out,
                       "no established connection", out)


def case_pair_perftest_64_qps():
    """perftest -q 64 over the TCP exchange (make test-full only): beyond the 16 the
    firmware tracked before, 64 QPs on each side."""
    with pair(max_seconds=3000) as (a, b):
        many_qps(a, b, 64, "", iters=1)


def case_pair_perftest_rdma_cm():
    """perftest -R between the two NICs (--rdma-cm, 'tool on'; make test-full only, about
    3 minutes): the exchange in SENDs over an RDMA CM connection on port 18515 (perftest
    4.5's -R), the test's QPs through RDMA CM too (2 QPs: three REQ/REP/RTU in all),
    write_bw runs on them, the report crosses, every connection ends (DREQ/DREP). A -R
    client against a listen without --rdma-cm: refused, the server says why, the client
    gives up."""
    with pair() as (a, b):
        out_c, out_s = tool_run(b, a, "write_bw", 4096, 6, "--qps 2 --rdma-cm")
        check_true("--rdma-cm: the server listened for two connections",
                   "qpx: perftest -R: RDMA CM listens on port 18515 for 2 connection(s)" in out_s,
                   "RDMA CM listens ... 2 connection(s)", tail(out_s))
        est = re.findall(r"cm: QP 0x(\w+) established with 10\.0\.0\.2 port 18515 \(REP\)", out_c)
        check("--rdma-cm: the client established three connections (the exchange's, 2 QPs)", 3,
              len(est))
        est = est[1:]
        # (each RDMA CM connection has its own PD and MR: the client posts on QP 2 with
        # QP 2's lkey, else IBV_WC_LOC_PROT_ERR)
        check_true("--rdma-cm: the client's table counts both QPs' messages",
                   re.search(r"^ 4096 +12 +" + NUM, out_c, re.M) is not None, " 4096 12 ...", out_c)
        check_true("--rdma-cm: the server got a report of 12", re.search(
            r"qpx: the peer's report: 4096-byte messages x 12,", out_s) is not None, "x 12", tail(out_s))
        # the exchanged destinations are the RDMA CM connections' QPs
        for q in est:
            check_true(f"QP 0x{q} in the exchange", re.search(rf"local address: .*QPN 0x0*{q} ", out_c)
                       is not None, f"local address ... QPN 0x{q}", out_c)
        time.sleep(1)
        for con in (a, b):
            out = cmd(con, "qpx")
            check_true("--rdma-cm: the connections ended (DREQ/DREP)", "established" not in out,
                       "no established connection", out)
        # a perftest -R client against a listen without --rdma-cm: its REQs to port 18515 are
        # refused, the server's console says why, the client gives up after its tries
        b.send("listen --test write_bw --wait 20")
        b.wait_for(r"--wait 20\n", 30)
        out_c = cmd(a, "connect 10.0.0.2 --test write_bw --rdma-cm", timeout=300)
        out_s = b.wait_for(r"solonic> ", 300).replace("\r", "")
        check_true("the server names perftest -R", "for port 18515: nobody listens there: REJ "
                   "(invalid service ID) (perftest -R? listen/connect --rdma-cm)" in out_s,
                   "... (perftest -R? ...)", tail(out_s))
        check_true("the client gives up after its tries", re.search(
            r"qpx: perftest -R: the peer's port 18515 \(nothing listens there\?\) did not accept "
            r"RDMA CM connection 1 in 10 tries", out_c) is not None, "... in 10 tries", tail(out_c))


def rping_text(ping, size):
    """rping's start buffer of ping PING (librdmacm's examples/rping.c, -S SIZE): the
    header, letters from 'A' + ping cycling through 'A'..'z', a NUL last."""
    head = f"rdma-ping-{ping}: "
    letters = "".join(chr(65 + (ping % 58 + j) % 58) for j in range(size - len(head)))
    return ((head + letters)[:size - 1] + "\0").encode()


def dump_bytes(out):
    """The bytes of a 'dump' listing."""
    data = b""
    for m in re.finditer(r"^[0-9a-f]{8}:((?: [0-9a-f]{2})+)", out, re.M):
        data += bytes(int(x, 16) for x in m.group(1).split())
    return data


def case_pair_cm_rping():
    """rping's protocol over RDMA CM between the two NICs ('tool on', --tool rping): NIC 1
    listens as rping's server (READs the advertised buffer, WRITEs it back), NIC 0
    connects as its client (3 pings of 64 bytes, each checked, then disconnects). The
    server's console shows the pings' text as rping -v does, and 'dump' of both buffers
    shows the text of the last ping (compared with rping's own format, built here)."""
    n, size = 3, 64
    with pair() as (a, b):
        for con in (a, b):
            out = cmd(con, f"tool on -n {n} -s {size} --idle 50")
            check_true("tool on", out.startswith("tool: on"), "tool: on (...)", out)
        line = "listen --cm --tool rping --wait 5000"
        b.send(line)
        out = b.wait_for(r"waiting 5000 ms\n", 30).replace("\r", "")
        check_true("listen --cm --tool rping: rping's port", "RDMA CM on port 7174 " in out,
                   "RDMA CM on port 7174", out)
        out_c = cmd(a, "connect --cm 10.0.0.2 --tool rping", timeout=300)
        out_s = b.wait_for(r"solonic> ", 300).replace("\r", "")
        check_true("client: established, pings checked", re.search(
            rf"^tool: rping client with 10\.0\.0\.2: {n} pings of {size} bytes, each checked in "
            r"[0-9.]+ us \(simulated time\): ok\n", out_c, re.M) is not None,
            f"tool: rping client with 10.0.0.2: {n} pings of {size} bytes, each checked ...: ok",
            tail(out_c))
        check_true("server: the pings done", re.search(
            rf"^tool: rping server with 10\.0\.0\.1: {n} pings of {size} bytes in [0-9.]+ us "
            r"\(simulated time\): ok\n", out_s, re.M) is not None,
            f"tool: rping server with 10.0.0.1: {n} pings of {size} bytes ...: ok", tail(out_s))
        for i in range(2):
            want = rping_text(i, size)[:size - 1].decode()
            check_true(f"server: ping {i}'s text as rping -v shows it",
                       f"tool: rping server with 10.0.0.1: ping {i} data: {want}\n" in out_s,
                       want, tail(out_s))
        # the last ping's text: in the client's start and second buffers, the server's buffer
        last = rping_text(n - 1, size)
        for con, off, what in ((a, 0x20000, "client's start buffer"), (a, 0x10000, "client's second buffer"),
                               (b, 0x10000, "server's buffer")):
            got = dump_bytes(cmd(con, f"dump {BUF + off:#x} {size}"))
            check(f"dump: the {what} holds ping {n - 1}'s text", last, got)
        out = cmd(a, "dump 0x100000 0")
        check("dump: LEN 0 refused", "dump: LEN must be 1..4096 bytes, got 0\n", out[out.index("dump:"):])
        # the client disconnected as rping does: both sides' connection leaves
        out = cmd(a, "qpx")
        check_true("client: the CM connection left established", "established" not in out,
                   "no established connection", out)



def reply(con, line, timeout=120):
    """A command's answer, without what the console printed before its echo (the lines a
    session running in the background printed meanwhile)."""
    out = cmd(con, line, timeout)
    return out.split(f"{line}\n", 1)[1] if f"{line}\n" in out else out


def session_of(out, tag):
    """A perftest client's exchange as it printed it: (QPN, the peer's rkey and VAddr)."""
    m = re.search(rf"{tag}QP 0x(\w+) RTS: peer 10\.0\.0\.2 ", out)
    k = re.search(r"remote address: LID 0000 QPN 0x\w+ PSN 0x\w+ OUT 0x\w+ RKey 0x(\w+) VAddr 0x(\w+)", out)
    check_true(f"{tag or 'qpx: '}the client's QP RTS and the server's buffer", m and k,
               f"{tag}QP 0x.. RTS ... remote address ... RKey ... VAddr", out)
    return int(m.group(1), 16), int(k.group(1), 16), int(k.group(2), 16)


def case_pair_two_sessions():
    """Several exchange sessions at once (qpx.h): NIC 1 listens on ports 18515 and 18600
    (--bg: the console is back at once), NIC 0 connects to both; each session has its own
    QP, PD, MR and 16 MiB test buffer (session N's at BUF + (N-1) x 16 MiB) and data moves
    on both; a third client on the busy port is refused (both sides say why, the server
    counts it); 'qpx finish' without an ID names the IDs; aborting session 1 leaves session 2
    running; so does a new session 1 whose peer stays silent past its --idle (the idle bound
    is each session's); then data again on session 2, bench --session 2, 'qpx finish 2'."""
    with pair() as (a, b):
        out = cmd(b, "listen --test write_bw --bg")
        check("listen --bg returns at once (after its local address)",
              "listen: session 1 runs on ('qpx' shows it, 'qpx abort 1' ends it)", out.splitlines()[-1])
        out = cmd(b, "listen --test write_bw --bg")
        check("a second listen on the same port: refused", "listen: session 1 listens on port 18515 (see 'qpx'; "
              "another port: --port P)\n", out)
        check("on another port: session 2", "listen: session 2 runs on ('qpx' shows it, 'qpx abort 2' ends it)",
              cmd(b, "listen --test write_bw --port 18600 --bg").splitlines()[-1])
        out = cmd(b, "qpx")
        for want in (r"^qpx 1: write_bw server, peer not yet known, exchanging, step 1 of \d+ \(perftest version\)$",
                     r"^qpx 2: write_bw server, peer not yet known, exchanging, step 1 of \d+ \(perftest version\)$",
                     r"^qpx 2: port 18600, clients refused 0$"):
            check_true(f"qpx lists both: {want}", re.search(want, out, re.M) is not None, want, out)
        # session 1: alone on NIC 0, its lines as with one session
        out1 = cmd(a, "connect 10.0.0.2 --test write_bw")
        q1, k1, v1 = session_of(out1, "qpx: ")
        check("session 1's buffer on NIC 1: the test buffer", BUF, v1)
        b.wait_for(r"qpx 1: write_bw server with 10\.0\.0\.1 ready: [^\n]*\n", 60)
        out2 = cmd(a, "connect 10.0.0.2 --test write_bw --port 18600")
        q2, k2, v2 = session_of(out2, "qpx 2: ")
        check("session 2's buffer on NIC 1: the next 16 MiB", BUF + BUF_BYTES, v2)
        check_true("own QPs and keys", q1 != q2 and k1 != k2, "different QPNs and rkeys", (q1, q2, k1, k2))
        b.wait_for(r"qpx 2: write_bw server with 10\.0\.0\.1 ready: [^\n]*\n", 60)
        # a third client on port 18600, whose session has its client
        out = cmd(a, "connect 10.0.0.2 --test write_bw --port 18600")
        check_true("the third client: refused, said why",
                   "qpx 3: 10.0.0.2 port 18600 reset the connection before answering: a session there has "
                   "its client already (try another port), or it ended; QP" in out, "qpx 3: ... reset ...", out)
        b.wait_for(r"qpx 2: refused a client from 10\.0\.0\.1 on port 18600: this port's session has its client "
                   r"\(refused 1; a second session listens on another port: listen --port P\)\n", 60)
        # data on both sessions, each into its own buffer (another seed's pattern does not match)
        both = ((q1, k1, BUF + 0x3000, 401), (q2, k2, BUF + BUF_BYTES + 0x3000, 402))
        for q, k, x, seed in both:
            reply(a, f"fill {x:#x} 0x2000 {seed}")
            wr(a, f"write {q:#x} {x:#x} {x:#x} {k:#x} 0x2000", "write", 8192)
        for _, _, x, seed in both:
            out = reply(b, f"verify {x:#x} 0x2000 {seed}")
            check_true(f"session data at {x:#x}: every byte", "all bytes match" in out, "all bytes match", out)
        out = reply(b, f"verify {BUF + BUF_BYTES + 0x3000:#x} 0x2000 401")
        check_true("another seed does not match", out.startswith("verify: FAILED:"), "verify: FAILED", out)
        out = reply(a, "qpx finish")
        check("finish without an ID among two sessions", "qpx: 2 sessions run (1, 2): say which\n", out)
        # session 1 aborted on NIC 1: NIC 0's session 1 sees the reset, session 2 goes on
        out = reply(b, "qpx abort 1")
        check_true("abort 1", re.search(rf"qpx 1: session stopped: aborted from the console \(during the test\); "
                                        rf"QP 0x\w+ back to RESET\n", out) is not None, "qpx 1: session stopped", out)
        a.wait_for(rf"qpx 1: the peer reset the connection (\(lwIP error -?\d+\) )?during the test; QP 0x{q1:x} "
                   rf"back to RESET\n", 60)
        # the idle bound is each session's: a new session 1 whose peer stays silent past --idle 1 ends
        # by itself, session 2 (idle bound 30 s) goes on
        cmd(b, "listen --test write_bw --idle 1 --bg")
        cmd(a, "connect 10.0.0.2 --test write_bw")
        b.wait_for(r"qpx 1: the peer went silent: no TCP data and no RoCE packet for 1 ms \(--idle\); QP 0x\w+ "
                   r"back to RESET\n", 120)
        a.wait_for(r"qpx 1: the peer reset the connection (\(lwIP error -?\d+\) )?during the test; QP 0x\w+ back "
                   r"to RESET\n", 60)
        out = reply(b, "qpx")
        check_true("NIC 1's session 2 still runs, alone", re.match(r"qpx: write_bw server, peer 10\.0\.0\.1, test "
                                                               r"running, .*\nqpx: port 18600, clients refused 1\n"
                                                               r"qpx: QP 0x\w+ RTS, buffer 0x1100000 \+ 0x1000000 ",
                                                               out) is not None, "qpx 2: ... test running", out)
        x = BUF + BUF_BYTES + 0x8000
        reply(a, f"fill {x:#x} 0x4000 403")
        wr(a, f"write {q2:#x} {x:#x} {x:#x} {k2:#x} 0x4000", "write", 16384)
        out = reply(b, f"verify {x:#x} 0x4000 403")
        check_true("session 2's data after the others ended", "all bytes match" in out, "all bytes match", out)
        out = reply(a, "bench write 4096 16 --session 2")
        check_true("bench --session 2: session 2's QP", f"on QP 0x{q2:x}, 4096 bytes x 16" in out,
                   f"bench: ... on QP 0x{q2:x}, 4096 bytes x 16", out)
        bw_table(out, 4096, 16)
        out = reply(a, "qpx finish 2")
        check_true("finish 2 (alone now: no ID in its lines)", "qpx: write_bw end-of-test exchange with 10.0.0.2 done"
                   in out, "qpx: write_bw end-of-test exchange with 10.0.0.2 done", out)
        b.wait_for(r"qpx: write_bw end-of-test exchange with 10\.0\.0\.1 done\n", 60)
        check("NIC 1: no session runs", "qpx: no session", reply(b, "qpx").split(";")[0].strip())

CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}
# cases of make test-full only (tests/run.py --full): the long ones (minutes each; make
# test's interop group runs perftest -R, -q 2 and the latency and bandwidth tools against
# the rxe guest instead; a -q 16 exchange is about 2 M cycles) and those that run again what
# other cases check: NIC 0 as the listener (pair_nic1_listens has the roles the other way),
# --depth 3 (an old hang's regression), the wrong test named at the exchange, -q 2 between
# the NICs (pair_two_sessions has two QPs at once), atomic_bw's tools between the NICs
# (atomics: tests/rc, tests/soak, the interop group), rping between the NICs (the interop
# group runs the NIC as rping's server and client against rping itself)
FULL_ONLY = {"pair_cm_rping", "pair_perftest_rdma_cm", "pair_perftest_rdma_cm_16_qps", "pair_perftest_64_qps",
             "pair_perftest_16_qps", "pair_perftest_tools_lat_bw", "pair_perftest_tools",
             "pair_perftest_two_qps", "pair_perftest_other_test", "pair_nic0_listens",
             "pair_bench_read_depth3"}


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(f"{c} full" if c in FULL_ONLY else c for c in CASES))
        return 0
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print(f"usage: {sys.argv[0]} --list (a name a line; 'full': make test-full only) | CASE ({', '.join(CASES)})", file=sys.stderr)
        return 2
    t0 = time.monotonic()
    try:
        CASES[sys.argv[1]]()
    except Failure as e:
        print(f"FAIL {sys.argv[1]}: {e}")
        return 1
    except Exception as e:  # a console timeout from nicsim, a dead simulator: a failure, said so
        print(f"FAIL {sys.argv[1]}: {type(e).__name__}: {e}")
        return 1
    print(f"PASS {sys.argv[1]} ({time.monotonic() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
