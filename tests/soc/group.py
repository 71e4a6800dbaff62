"""The SoC (rtl/soc): soc_sys under a bus-master bench, and test programs on
the simulator build/sim/solonic_sim (with rv_core)."""
import subprocess

ORDER = 30
BUILD = ["build/soc/Vsoc_sys_tb", "build/soc/Vsoc_sys_serial_tb", "build/sim/solonic_sim", "soc-progs"]
PY = "/usr/bin/python3"
RUN_PROG = "tests/soc/run_prog.py"

# the bench's tests (build/soc/Vsoc_sys_tb list)
BENCH = ["reg_ids", "unmapped_err", "mem_bytes", "fw_load", "ext_port", "early_request", "uart_chars", "timer", "simctrl", "wdog"]
BENCH_SERIAL = ["uart_serial", "reg_ids"]


def cases():
    out = [{"name": f"bench_{t}", "cmd": ["build/soc/Vsoc_sys_tb", t], "timeout": 120} for t in BENCH]
    out += [{"name": f"bench_serial_{t}", "cmd": ["build/soc/Vsoc_sys_serial_tb", t], "timeout": 120}
            for t in BENCH_SERIAL]
    names = subprocess.run([PY, RUN_PROG, "--list"], stdout=subprocess.PIPE, text=True,
                           check=True).stdout.split()
    out += [{"name": n, "cmd": [PY, RUN_PROG, n], "timeout": 300} for n in names]
    return out
