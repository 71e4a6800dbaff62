"""The register description and its generator (regs/regtool.py)."""
ORDER = 5
BUILD = ["build/regs/Vdemo_regs", "regs"]


def cases():
    return [{"name": "regtool", "pytest": "tests/regs/test_regtool.py"}]
