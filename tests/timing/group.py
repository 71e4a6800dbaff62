"""The timing budget (timing/budget.toml, docs/timing.md): every block of the NIC within
its budget or its debt line (make timing-check: blocks whose RTL changed since the
checked-in cache are synthesised again, the others come from timing/cache), and the
measuring tool itself on blocks made for it (test_timing.py)."""
ORDER = 88
BUILD = ["regs"]


def cases():
    return [{"name": "budget_or_debt", "cmd": ["make", "-s", "timing-check"], "timeout": 1800},
            {"name": "timing_py", "pytest": "tests/timing/test_timing.py", "timeout": 900}]
