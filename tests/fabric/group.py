"""The switched fabric (sim/fabric): the switch model's unit tests (test_switch.cpp)."""
ORDER = 9
BUILD = ["build/fabric/test_switch"]


def cases():
    return [
        {"name": "switch_model", "cmd": ["build/fabric/test_switch"]},
    ]
