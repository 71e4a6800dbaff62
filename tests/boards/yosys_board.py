#!/usr/bin/env python3
"""Elaborate a board top with Yosys 0.23 (as make yosys-check does for rtl/):
the board's RTL and boards/common/rtl, with the Xilinx primitives and the CMAC
as black boxes (their port lists taken from the simulation stand-ins in
tests/boards) and nic_top as a black box too (make yosys-check elaborates the
NIC itself; reading all of it here takes minutes). Exits non-zero with Yosys'
message.

usage: yosys_board.py [--mem MEM] [--cells FILE] [--hierarchy-only] TOP FILE...
  --mem MEM     elaborate with the top's MEM parameter set to MEM
  --hierarchy-only  resolve the hierarchy only (no proc, no check): which
                modules are instantiated, in seconds
  --cells FILE  write Yosys's 'stat' of the elaborated design (its cells by type,
                per module: which black boxes, e.g. IP cores, it instantiates)
"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "boards/common"))
import synth  # noqa: E402  (closure(): the files of a module's hierarchy)

STANDINS = ["tests/boards/sim_prims.sv", "tests/boards/cmac_usplus_0.sv", "tests/boards/ip_stubs.sv", "rtl/top/nic_top.sv"]


def blackboxes():
    out = []
    for f in STANDINS:
        text = (ROOT / f).read_text()
        for m in re.finditer(r"^module\s+(\w+).*?\);", text, re.S | re.M):
            head = re.sub(r"//[^\n]*", "", m.group(0))
            head = re.sub(r"/\*.*?\*/", "", head, flags=re.S)
            out.append("(* blackbox *)\n" + head + "\nendmodule\n")
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    mem = cells = None
    full = True
    while args and args[0].startswith("--"):
        if args[0] == "--hierarchy-only":
            full, args = False, args[1:]
            continue
        opt, val, args = args[0], args[1], args[2:]
        if opt == "--mem":
            mem = val
        elif opt == "--cells":
            cells = val
        else:
            sys.exit(f"yosys_board: unknown option {opt}")
    top, files = args[0], args[1:]
    files = [f for f in files if f != "rtl/top/nic_top.sv"]
    files = synth.closure(files, top)
    if files is None:
        sys.exit(f"yosys_board: no module {top}")
    with tempfile.NamedTemporaryFile("w", suffix=".sv", delete=False) as bb:
        bb.write("`default_nettype none\n" + blackboxes())
    pkgs = [f for f in files if f.endswith("_pkg.sv")]
    rest = [f for f in files if f not in pkgs]
    script = (f"read_verilog -sv {' '.join(pkgs)}; read_verilog -sv -lib {bb.name}; "
              f"read_verilog -sv -DSYNTHESIS {' '.join(rest)}; chparam -set MEM_BYTES 4096 board_nic; "
              + (f'chparam -set MEM "{mem}" {top}; ' if mem else "")
              + f"hierarchy -check -top {top}" + ("; proc; check" if full else "")
              + (f"; tee -q -o {cells} stat" if cells else ""))
    p = subprocess.run(["yosys", "-q", "-p", script], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    pathlib.Path(bb.name).unlink()
    if p.returncode != 0:
        print(p.stdout[-4000:])
        sys.exit(f"yosys_board: Yosys rejected {top} (exit {p.returncode})")
    print(f"yosys_board: {top}: {len(files)} files read and elaborated")


if __name__ == "__main__":
    main()
