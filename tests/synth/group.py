"""Synthesizability: every RTL file is read and elaborated by Yosys (make test-full: one
to two minutes of Yosys; in make test the timing group's cache check stands for it, since
every block's entry was made by Yosys synthesizing that block's files as they are); make
synth's reader (boards/common/synth.py) on a small real Yosys run (test_synth_py.py)."""
ORDER = 90
BUILD = ["regs"]


def cases():
    return [{"name": "yosys_elaborates_all_rtl", "cmd": ["/usr/bin/python3", "tests/synth/yosys_check.py"],
             "timeout": 600, "full": True},
            {"name": "synth_py", "pytest": "tests/synth/test_synth_py.py", "timeout": 300}]
