#!/usr/bin/env python3
"""Lint and elaborate the RoCE header layer: `verilator --lint-only -Wall` of every module
(and the test bench wrappers), then Yosys reads and elaborates the files (hierarchy -check;
proc; check). Usage: lint.py [verilator|yosys] (default both)."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
PKG = "rtl/roce/roce_pkg.sv"
MODS = ["roce_axis_assert", "roce_fifo", "roce_ram_sdp", "roce_icrc_engine", "roce_icrc_check", "roce_icrc_insert",
        "roce_rx_parse", "roce_tx_build"]
LIB = ["rtl/lib/lib_skid.sv", "rtl/lib/lib_fifo.sv"]
FILES = [PKG] + LIB + ["rtl/roce/%s.sv" % m for m in MODS]
TBS = ["tests/roce/tb_roce_rx.sv", "tests/roce/tb_roce_tx.sv"]


def run(cmd):
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main(what):
    bad = 0
    if what in ("all", "verilator"):
        for top in MODS + ["tb_roce_rx", "tb_roce_tx"]:
            rc, out = run(["verilator", "--lint-only", "-Wall", *FILES, *TBS, "--top-module", top])
            print("%s verilator lint %s" % ("PASS" if rc == 0 else "FAIL", top))
            if rc:
                print(out)
                bad += 1
    if what in ("all", "yosys"):
        rc, out = run(["yosys", "-q", "-p", "read_verilog -sv %s; hierarchy -check; proc; check" % " ".join(FILES)])
        if rc == 0 and "Warning" in out:
            rc = 1
        print("%s yosys elaboration of %d files" % ("PASS" if rc == 0 else "FAIL", len(FILES)))
        if rc:
            print(out)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "all"))
