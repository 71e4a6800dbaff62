"""soak: the whole-NIC soak (tests/soak/soak.py, fw/cmd_soak.c; issue 15 item 1).

Two NICs exchange over lwIP (write_bw, 16 QPs), then a seeded mix of WRITE, WRITE_IMM,
READ, SEND, SEND_IMM and atomics at path MTUs 256..4096 on a wire with drop, duplication,
reordering 32 frames deep, corruption and jitter on RoCE frames: every completion and
every byte checked by the NICs. `make soak` runs 100,000 operations of 1 B..1 MiB. The cut
wire must end a soak with the transport's error, bounded.

make test runs a short one: 200 operations over 4 QPs (1 B..16 KiB), the whole path once
(exchange, rounds, every check), about 3.3 M simulated cycles. The 2,000-operation case and
the cut wire only in make test-full ("full"): the 2,000-operation case takes
16.1 M simulated cycles, 370 s of wall time on this 2-core machine with nothing else running
(fw/README.md "soak"), and the cut wire about 340 s, more than make test has left (make soak
runs the campaign on its own).
"""
ORDER = 50
BUILD = ["build/sim/solonic_sim", "build/fw/solonic.elf", "build/fw/solonic.hex"]
PY = "/usr/bin/python3"


def cases():
    short = [{"name": "soak_200_ops_4_qps_faulty_wire_every_byte_checked",
              "cmd": [PY, "tests/soak/soak.py", "--ops", "200", "--qps", "4", "--seed", "5",
                      "--max-size", "16384", "--max-seconds", "900"], "timeout": 1000}]
    return short + [
        {"name": "soak_2000_ops_16_qps_faulty_wire_every_byte_checked", "full": True,
         "cmd": [PY, "tests/soak/soak.py", "--ops", "2000", "--seed", "3", "--max-size", "16384",
                 "--max-seconds", "1500"], "timeout": 1600},
        {"name": "soak_cut_wire_ends_with_retry_exceeded", "full": True,
         "cmd": [PY, "tests/soak/soak.py", "--ops", "100", "--qps", "2", "--wire", "drop=1,port=4791",
                 "--max-seconds", "600", "--expect-error", r"IBV_WC_RETRY_EXC_ERR"], "timeout": 700},
    ]
