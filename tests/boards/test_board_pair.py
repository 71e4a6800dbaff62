"""The VCU118 board top against another NIC: the QP exchange and RDMA transfers
through the CMAC stand-in and the board's clock crossings.

    test_board_pair.py

The board (build/boards/Vtb_board: vcu118_top with the CMAC model at
322.265625 MHz and the NIC at 250 MHz, console on the UART pins, DIP switches
0: 10.0.0.1) and the plain simulated NIC (build/sim/solonic_sim --instance 1:
10.0.0.2) are two processes joined by a pair of UDP sockets on 127.0.0.1, one
Ethernet frame per datagram. The NIC listens, the board connects
(ibv_rc_pingpong's exchange over both lwIPs), then the board WRITEs 64 KiB to
the NIC, READs 32 KiB from it and SENDs 2 KiB to it; every byte is checked by
the destination's fill/verify engine (the pattern is a function of seed and
address, so the destination must fail to verify before the transfer, verify
after it, and fail with another seed). At the end the bench's counters must
agree: no frame dropped by the RX crossing, every frame the CMAC delivered
admitted, every frame the TX crossing handed over received, and the CMAC model
saw no TX underflow, runt or bad tkeep (exit code 3 otherwise).

Every wait is bounded in wall seconds (console timeouts) and in simulated
cycles (--max-cycles of both simulators).
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests/qpx"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from nicsim import PROMPT, Console, Failure, check, check_true  # noqa: E402
from test_qpx_system import BUF, exchange, key_of, moved, wr  # noqa: E402

import board_bench  # noqa: E402

BOARD_SIM = os.path.join(ROOT, "build/boards/Vtb_board")
NIC_SIM = os.path.join(ROOT, "build/sim/solonic_sim")
HEX = os.path.join(ROOT, "build/fw/solonic.hex")
MAX_SECONDS = 500
MAX_CYCLES = "400000000"   # 1.6 s of simulated time on either side


def free_udp_ports(n):
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class Process:
    """One simulator with its console on stdin/stdout and stderr kept in a file."""

    def __init__(self, name, cmdline):
        self.name = name
        self.err = tempfile.TemporaryFile()
        self.p = subprocess.Popen(cmdline, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=self.err, bufsize=0)
        os.set_blocking(self.p.stdout.fileno(), False)
        self.con = Console(name, self.p.stdout.fileno(), self.p.stdin.fileno(), self.p)

    def stderr(self):
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def finish(self, timeout=60):
        """Type exit 0 (if it still runs) and return its exit code."""
        if self.p.poll() is None:
            try:
                self.con.send("exit 0")
            except OSError:
                pass
        try:
            return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None


def main():
    t0 = time.monotonic()
    p_board, p_nic = free_udp_ports(2)
    board = Process("board", [BOARD_SIM, "--fw", HEX, "--instance", "0", "--eth0",
                              f"udp:127.0.0.1:{p_board}:{p_nic}", "--max-cycles", MAX_CYCLES,
                              "--max-seconds", str(MAX_SECONDS)])
    nic = Process("NIC", [NIC_SIM, "--fw", HEX, "--instance", "1", "--eth0", f"udp:{p_nic}:{p_board}",
                          "--max-cycles", MAX_CYCLES, "--max-seconds", str(MAX_SECONDS)])
    rc_board = rc_nic = None
    try:
        banner = board.con.wait_for(re.escape(PROMPT), 120)
        check_true("the board's banner names instance 0 from its DIP switches",
                   "instance 0, mac 02:00:00:00:00:01, ip 10.0.0.1/24" in banner,
                   "instance 0, mac 02:00:00:00:00:01, ip 10.0.0.1/24", banner[-600:])
        nic.con.wait_for(re.escape(PROMPT), 60)
        qpn, us = exchange(nic.con, board.con, "10.0.0.2", "10.0.0.1")
        rkey = key_of(nic.con)
        q = f"{qpn:#x}"
        x = BUF + 0x20000
        moved(board.con, nic.con, lambda: wr(board.con, f"write {q} {x:#x} {x:#x} {rkey:#x} 0x10000", "write", 65536),
              x, 0x10000, 301)
        x = BUF + 0x40000
        moved(nic.con, board.con, lambda: wr(board.con, f"read {q} {x:#x} {x:#x} {rkey:#x} 0x8000", "read", 32768),
              x, 0x8000, 302)
        moved(board.con, nic.con, lambda: wr(board.con, f"send {q} {BUF:#x} 0x800", "send", 2048), BUF, 0x800, 303)
        out = nic.con.cmd(f"qp show {q}", timeout=60).replace("\r", "")
        check_true("the NIC received the board's SEND", re.search(
            r"completed 1, errors 0\n  last receive: IBV_WC_SUCCESS, IBV_WC_RECV, 2048 bytes", out) is not None,
            "completed 1, errors 0 / last receive: IBV_WC_SUCCESS, IBV_WC_RECV, 2048 bytes", out)
    finally:
        rc_board = board.finish()
        rc_nic = nic.finish()
    check("the board's exit code (3: the CMAC model saw an underflow, a runt or a bad tkeep)", 0, rc_board)
    check("the NIC's exit code", 0, rc_nic)
    s = board_bench.stats(board.stderr())
    board_bench.check_crossings(s)
    check("frames cut by the RX crossing (too long or link reset)", (0, 0),
          (s["cdc_rx_cut_long"], s["cdc_rx_cut_link"]))
    # PMTU 1024: the WRITE is 64 frames and the SEND 2 out of the board, the READ 32 responses into it
    check_true("the transfers went through the CMAC: >= 66 frames out, >= 32 in",
               s["line_tx_frames"] >= 66 and s["line_rx_frames"] >= 32, ">= 66 out, >= 32 in",
               (s["line_tx_frames"], s["line_rx_frames"]))
    print(f"board pair: QP {qpn:#x} RTS {us:.0f} us after connect (board time); frames through the CMAC "
          f"{s['line_rx_frames']:.0f} in / {s['line_tx_frames']:.0f} out; board {s['sys_cycles']:.0f} NIC cycles "
          f"in {s['wall_s']:.1f} s; {time.monotonic() - t0:.1f} s wall")


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print(f"FAIL board_pair: {e}")
        sys.exit(1)
    except Exception as e:  # a console timeout, a dead simulator: a failure, said so
        print(f"FAIL board_pair: {type(e).__name__}: {e}")
        sys.exit(1)
    print("PASS board_pair")
