"""RoCEv2 header layer (rtl/roce): opcode table, ICRC check/insert, RX parse, TX build.

Scapy (python3-scapy) and the Linux soft-RoCE captures in tests/data are the references.
Run alone: tests/run.py -k roce/ ; one test: /usr/bin/python3 tests/roce/test_roce.py NAME
"""
ORDER = 40
BUILD = ["build/roce/Vtb_roce_rx", "build/roce/Vtb_roce_tx"]

PY = "/usr/bin/python3"
TESTS = [
    "rx_random_packets_parse_field_for_field",
    "rx_bad_packets_dropped_and_counted",
    "rx_truncated_at_every_byte",
    "rx_reference_captures_pass_and_parse",
    "tx_random_packets_bit_identical",
    "tx_reference_captures_rebuilt_bit_identical",
    "line_rate_rx_no_bubbles",
    "line_rate_tx_no_bubbles",
    "line_rate_mixed_sizes_no_bubbles",
]


def cases():
    c = [{"name": t, "cmd": [PY, "tests/roce/test_roce.py", t]} for t in TESTS]
    c.append({"name": "lint_verilator", "cmd": [PY, "tests/roce/lint.py", "verilator"]})
    # Yosys elaborates these files in tests/synth's all-RTL run, which fails on their warnings
    return c
