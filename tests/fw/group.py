"""The firmware (bsp/, fw/) in the simulated SoC, driven through its UART console."""
import subprocess

ORDER = 40
BUILD = ["build/sim/solonic_sim", "build/fw/solonic.elf", "build/fw/solonic.hex"]
PY = "/usr/bin/python3"
SCRIPT = "tests/fw/test_console.py"


def cases():
    names = subprocess.run([PY, SCRIPT, "--list"], stdout=subprocess.PIPE, text=True,
                           check=True).stdout.split()
    return [{"name": n, "cmd": [PY, SCRIPT, n], "timeout": 240} for n in names]
