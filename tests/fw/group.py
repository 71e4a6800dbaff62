"""The firmware (bsp/, fw/) in the simulated SoC, driven through its UART console; and
bsp/string.c (memcpy/memmove/memset by words), bsp/udiv64.c (the 64-bit division's fast
path) and fw/roce/qpx_mem.c's pattern seeds compiled for the host (test_string.py,
test_udiv64.py, test_qpx_mem.py)."""
import subprocess

ORDER = 40
BUILD = ["build/sim/solonic_sim", "build/fw/solonic.elf", "build/fw/solonic.hex", "build/fw_host/libfwstring.so",
         "build/fw_host/libfwudiv64.so", "build/fw_host/libfwqpxmem.so"]
PY = "/usr/bin/python3"
SCRIPT = "tests/fw/test_console.py"


def cases():
    names = subprocess.run([PY, SCRIPT, "--list"], stdout=subprocess.PIPE, text=True,
                           check=True).stdout.split()
    return [{"name": n, "cmd": [PY, SCRIPT, n], "timeout": 240} for n in names] + [
        {"name": "string", "pytest": "tests/fw/test_string.py", "timeout": 120},
        {"name": "udiv64", "pytest": "tests/fw/test_udiv64.py", "timeout": 60},
        {"name": "qpx_mem", "pytest": "tests/fw/test_qpx_mem.py", "timeout": 60}]
