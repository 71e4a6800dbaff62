"""tests/core: the rv_core RV32IM + Zicsr soft core.

Each ISA program in tests/core/progs runs on QEMU (the reference) and on
rv_core in tests/core/tb (zero-wait bus, then random bus delays with two
seeds); signatures must match word for word and the core-only self-checks
must pass (see run_isa.py). Also: lint, Yosys elaboration, CPI bounds, and a
mutation test proving the suite catches a broken core.
"""
import glob
import os

ORDER = 20

_PROGS = sorted(os.path.splitext(os.path.basename(p))[0]
                for p in glob.glob("tests/core/progs/*.[Sc]")
                if os.path.basename(p) != "crt.S")
_RTL = sorted(glob.glob("rtl/core/*.sv"))  # core_pkg.sv sorts first

BUILD = (["build/core/Vtb_core", "build/core/Vtb_core_fault"]
         + ["build/core/progs/%s.core.hex" % p for p in _PROGS]
         + ["build/core/progs/%s.qemu.elf" % p for p in _PROGS])

RUN = ["/usr/bin/python3", "tests/core/run_isa.py"]

# Cycles per instruction of the cpi.c kernels (zero-wait bus), measured
# 1.197 / 1.727 / 1.400 / 1.430 (before the timing work 1.016 / 1.001 / 1.001 /
# 1.143: the fetch address is registered, so a taken jump costs one cycle, a
# redirect from E (registered) three; load data reaches a user two instructions on one cycle
# late; the registered bus request of a load or store goes out the cycle after
# the response of the one before); the bounds leave a little room.
CPI_BOUNDS = {1: 1.25, 2: 1.80, 3: 1.45, 4: 1.50}


def cases():
    out = [
        {"name": "lint_verilator",
         "cmd": ["verilator", "--lint-only", "-Wall", "--top-module", "rv_core"] + _RTL,
         "timeout": 120},
        {"name": "yosys_elaborate",
         "cmd": ["yosys", "-q", "-p",
                 "read_verilog -sv %s; hierarchy -check -top rv_core; proc; check -assert"
                 % " ".join(_RTL)],
         "timeout": 120},
    ]
    for p in _PROGS:
        cmd = RUN + [p, "--stall-seeds", "1,2"]
        if p == "cpi":
            for tag, bound in sorted(CPI_BOUNDS.items()):
                cmd += ["--cpi", "%d:%.2f" % (tag, bound)]
        out.append({"name": "isa_" + p, "cmd": cmd, "timeout": 180})
    # Mutation: the model built with SOLONIC_FAULT_INJECT (SRA acts as SRL)
    # must be caught by the suite.
    for p in ("alu", "rand"):
        out.append({"name": "mutation_sra_caught_by_" + p,
                    "cmd": RUN + [p, "--model", "build/core/Vtb_core_fault", "--expect-fail"],
                    "timeout": 180})
    return out
