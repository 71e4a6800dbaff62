#!/usr/bin/env python3
"""Read and elaborate every RTL file with Yosys, so nothing only a simulator accepts lands.

Packages first (RTL_PKGS order from the Makefile), then every other file under rtl/
and the generated register blocks; `hierarchy -check` then proves every instantiated
module exists, and `proc` that every process is synthesizable. Exits non-zero with
Yosys' message on the first error, and on any warning that names a file of the RoCE
header layer (tests/roce/lint.py's FILES: that layer is kept free of Yosys warnings).
"""
import importlib.util
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def warning_free_files():
    spec = importlib.util.spec_from_file_location("roce_lint", ROOT / "tests/roce/lint.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.FILES
PKG_ORDER = ["rtl/core/core_pkg.sv", "rtl/net/net_pkg.sv", "rtl/roce/roce_pkg.sv", "rtl/mem/mem_pkg.sv",
             "rtl/roce/roce_qp_pkg.sv", "rtl/roce/roce_req_pkg.sv"]


def main():
    pkgs = [p for p in PKG_ORDER if (ROOT / p).exists()]
    pkgs += sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("rtl/*/*_pkg.sv")
                   if str(p.relative_to(ROOT)) not in pkgs)
    files = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("rtl/*/*.sv")
                   if str(p.relative_to(ROOT)) not in pkgs)
    files += sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("build/gen/rtl/*.sv"))
    if not files:
        sys.exit("yosys_check: no RTL files found")
    script = "read_verilog -sv " + " ".join(pkgs + files) + "; hierarchy -check; proc; check"
    p = subprocess.run(["yosys", "-q", "-p", script], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        print(p.stdout)
        sys.exit(f"yosys_check: Yosys rejected the RTL (exit {p.returncode})")
    strict = warning_free_files()
    bad = [line for line in p.stdout.splitlines() if "Warning" in line and any(f in line for f in strict)]
    if bad:
        print("\n".join(bad))
        sys.exit(f"yosys_check: {len(bad)} Yosys warnings in the RoCE header layer (kept warning-free)")
    print(f"yosys_check: {len(pkgs) + len(files)} files read and elaborated")


if __name__ == "__main__":
    main()
