"""The switched fabric (sim/fabric): the switch model's unit tests (test_switch.cpp), the
arithmetic of make fabric's tables on synthetic data (test_experiments_math.py, under a
second; the experiments themselves are make fabric's, not make test's) and one system case,
3 NICs through the switch (test_fabric_system.py)."""
ORDER = 9
BUILD = ["build/fabric/test_switch", "build/sim/solonic_sim", "build/fw/solonic.hex"]


def cases():
    return [
        {"name": "switch_model", "cmd": ["build/fabric/test_switch"]},
        {"name": "experiments_math", "cmd": ["/usr/bin/python3", "tests/fabric/test_experiments_math.py"],
         "timeout": 30},
        {"name": "three_nics_exchange_bench_counters", "cmd": ["/usr/bin/python3", "tests/fabric/test_fabric_system.py"],
         "timeout": 300},
    ]
