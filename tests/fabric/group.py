"""The switched fabric (sim/fabric): the switch model's unit tests (test_switch.cpp) and
one system case, 3 NICs through the switch (test_fabric_system.py)."""
ORDER = 9
BUILD = ["build/fabric/test_switch", "build/sim/solonic_sim", "build/fw/solonic.hex"]


def cases():
    return [
        {"name": "switch_model", "cmd": ["build/fabric/test_switch"]},
        {"name": "three_nics_exchange_bench_counters", "cmd": ["/usr/bin/python3", "tests/fabric/test_fabric_system.py"],
         "timeout": 300},
    ]
