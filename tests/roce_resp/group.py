"""The responder (rtl/roce/roce_resp*, roce_rq, roce_qp_table, roce_mr_table):
Scapy-built requests and replays of Linux rxe captures, answers checked
against an independent model of the IB responder rules (resp_test.py)."""
ORDER = 40
BUILD = ["build/roce_resp/Vtb_roce_resp"]

SCENARIOS = ["inorder_mtu256", "inorder_mtu1024", "inorder_mtu4096", "inorder_mtu1024_backpressure",
             "duplicates", "out_of_sequence", "bad_inputs", "protection_domains", "perf_mtu4096",
             "interleave_2qp", "interleave_2qp_backpressure",
             "replay_write_bw", "replay_read_bw", "replay_rc_pingpong", "replay_write_bw_2qp"]


def cases():
    c = [{"name": s, "cmd": ["/usr/bin/python3", "tests/roce_resp/resp_test.py", s], "timeout": 120}
         for s in SCENARIOS]
    c.append({"name": "lint_nqp256_4096", "cmd": ["make", "-s", "roce-resp-lint"], "timeout": 200})
    return c
