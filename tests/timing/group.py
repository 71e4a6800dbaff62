"""The timing budget (timing/budget.toml, docs/timing.md): every block of the NIC within
its budget or its debt line (make timing-check: blocks whose RTL changed since the
checked-in cache are synthesised again, the others come from timing/cache), and the
measuring tool itself on blocks made for it (test_timing.py, make test-full)."""
ORDER = 88
BUILD = ["regs"]


def cases():
    return [{"name": "budget_or_debt", "cmd": ["make", "-s", "timing-check"], "timeout": 1800},
            # the tool's own tests synthesise blocks made for them (about a minute of Yosys):
            # make test-full; make test's budget_or_debt runs the tool on the NIC's blocks
            {"name": "timing_py", "pytest": "tests/timing/test_timing.py", "timeout": 900, "full": True}]
