"""Synthesizability: every RTL file is read and elaborated by Yosys."""
ORDER = 90
BUILD = ["regs"]


def cases():
    return [{"name": "yosys_elaborates_all_rtl", "cmd": ["/usr/bin/python3", "tests/synth/yosys_check.py"],
             "timeout": 600}]
