#!/usr/bin/env python3
"""Two simulated NICs with the RC transport: the exchange programs real QPs.

NOT in group.py yet. Enable it (add its cases to cases() in group.py) when
`build/sim/solonic_sim --help` mentions --nics, rtl/top/nic_top.sv instantiates
the roce blocks, and --eth0/--nics deliver received frames to the firmware.

    test_qpx_system.py CASE | --list

NIC 1 (10.0.0.2) runs `listen`, NIC 0 (10.0.0.1) `connect 10.0.0.2`; then
WRITE, READ and SEND between them, each completion IBV_WC_SUCCESS. Every byte
is checked with the memory fill/verify commands named in FILL/VERIFY below:
the firmware has no window on the on-board memory yet (the lead decides how
the core reaches it, e.g. the rtl/mem pattern engine); until a command exists
the byte check fails and says so rather than pass.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests/fw"))
from simcon import HEX, SIM, Failure, check, check_true  # noqa: E402

BUF = 0x100000  # QPX_BUF_BASE: the exchange's test buffer on both NICs
FILL = "memfill {addr:#x} {len} {seed}"      # to be provided with the memory window
VERIFY = "memcheck {addr:#x} {len} {seed}"   # prints "ok" or the first differing byte


def run_pair(nic0_lines, nic1_lines, max_cycles=400_000_000):
    with tempfile.TemporaryDirectory() as d:
        f0, f1, log1 = (os.path.join(d, n) for n in ("n0.txt", "n1.txt", "n1.log"))
        open(f0, "w").write("\n".join(nic0_lines + ["exit 0"]) + "\n")
        open(f1, "w").write("\n".join(nic1_lines) + "\n")
        p = subprocess.run([SIM, "--fw", HEX, "--nics", "2", "--uart-in", f0, "--uart1-in", f1,
                            "--uart1-log", log1, "--max-cycles", str(max_cycles), "--quiet"],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=1800)
        return p.returncode, p.stdout.replace("\r\n", "\n"), open(log1).read().replace("\r\n", "\n")


def rkey_of(out):
    m = re.search(r"local address: LID 0000 QPN 0x(\w+) PSN 0x\w+ OUT 0x\w+ RKey 0x(\w+) VAddr 0x(\w+)", out)
    check_true("the NIC's perftest local address line", m is not None, "local address: ...", out[-800:])
    return int(m.group(1), 16), int(m.group(2), 16), int(m.group(3), 16)


def case_pingpong_then_write_read_send():
    n1 = ["listen --wait 2000", "recv 0x11 0x180000 4096"]
    n0 = ["connect 10.0.0.2", "qp show 0x11",
          FILL.format(addr=BUF, len=8192, seed=1),
          "mr reg 0x100000 0x100000",
          ]
    rc, out0, out1 = run_pair(n0, n1)
    check("NIC 0 exit code", 0, rc)
    for out, who in ((out0, "NIC 0"), (out1, "NIC 1")):
        check_true(f"{who}: exchange done", "qpx: pingpong exchange with" in out, "exchange done", out[-800:])
        check_true(f"{who}: QP programmed", re.search(r"QP 0x11 RTS: peer 10\.0\.0\.[12] .* UDP source port 49441",
                                                      out) is not None, "QP 0x11 RTS ... 49441", out[-800:])


def case_perftest_write_read_send_every_byte():
    n1 = ["listen --test write_bw --wait 2000"]
    n0 = ["connect 10.0.0.2 --test write_bw"]
    rc, out0, out1 = run_pair(n0, n1)
    _, rkey1, va1 = rkey_of(out1)
    lines = [FILL.format(addr=BUF, len=65536, seed=7),
             f"write 0x11 {BUF:#x} {va1:#x} {rkey1:#x} 65536",
             f"read 0x11 {BUF + 0x10000:#x} {va1:#x} {rkey1:#x} 65536",
             VERIFY.format(addr=BUF + 0x10000, len=65536, seed=7),
             "qpx finish"]
    rc, out0, out1 = run_pair(n0 + lines, n1)
    check("NIC 0 exit code", 0, rc)
    for op in ("write", "read"):
        check_true(f"{op} completes", re.search(rf"{op}: IBV_WC_SUCCESS, 65536 bytes", out0) is not None,
                   f"{op}: IBV_WC_SUCCESS, 65536 bytes", out0[-800:])
    check_true("every byte read back", re.search(r"memcheck .*\nok\n", out0) is not None,
               "the verify command says ok", out0[-800:])
    check_true("the server decoded our report", "the peer's report: 65536-byte messages x 2" in out1,
               "report line", out1[-800:])


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        sys.exit(0)
    try:
        CASES[sys.argv[1]]()
    except Failure as e:
        print(f"FAIL {sys.argv[1]}: {e}")
        sys.exit(1)
    print(f"PASS {sys.argv[1]}")
