"""Congestion control (rtl/cc): cc_rp, the DCQCN reaction point, driven by a fixed CNP
schedule and tx-byte events at its own rates (tb_cc_rp.cpp), its rate trajectory checked
sample by sample against the Python model written from the paper (dcqcn_model.py)."""
ORDER = 47
BUILD = ["build/cc/Vcc_rp"]


def cases():
    return [
        {"name": "rp_trajectory_3ms_vs_model", "cmd": ["/usr/bin/python3", "tests/cc/check_rp.py"],
         "timeout": 60},
        {"name": "lint_wall_nqp256_and_4096", "cmd": ["make", "-s", "cc-lint"], "timeout": 120},
    ]
