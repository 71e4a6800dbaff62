"""Congestion control (rtl/cc): cc_rp, the DCQCN reaction point, driven by a fixed CNP
schedule and tx-byte events at its own rates (tb_cc_rp.cpp), its rate trajectory checked
sample by sample against the Python model written from the paper (dcqcn_model.py); cc_np,
the notification point, against the once-per-interval rule computed in its bench."""
ORDER = 47
BUILD = ["build/cc/Vcc_rp", "build/cc/Vcc_np"]


def cases():
    return [
        {"name": "rp_trajectory_3ms_vs_model", "cmd": ["/usr/bin/python3", "tests/cc/check_rp.py"],
         "timeout": 60},
        {"name": "np_cnp_once_per_interval_backpressure", "cmd": ["build/cc/Vcc_np", "+test=paced"], "timeout": 60},
        {"name": "np_burst_overflow_counted", "cmd": ["build/cc/Vcc_np", "+test=burst"], "timeout": 60},
        {"name": "lint_wall_nqp256_and_4096", "cmd": ["make", "-s", "cc-lint"], "timeout": 120},
    ]
