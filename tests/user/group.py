"""The user-logic examples (rtl/user: user_source, user_sink).

- tb_user.cpp: each block against a C++ bench that plays the transport (work requests,
  payload requests with repeats, every byte against the reference pattern, pacing, the
  sink's counters).
- test_user_system.py: the examples in the whole NIC (nic_top USER_EXAMPLES = 1), two NICs
  in build/sim/solonic_sim: NIC A's source into NIC B's sink at 64 KiB / MTU 4096
  (>= 97 Gb/s, every byte checked), into B's memory (verify), pacing, stop, a wrong rkey,
  the console's errors."""
import subprocess

ORDER = 46
PY = "/usr/bin/python3"
TB = "build/user/Vtb_user"
SYSTEM = "tests/user/test_user_system.py"
BUILD = [TB, "build/sim/solonic_sim", "build/fw/solonic.hex"]


def cases():
    c = [
        {"name": "source_writes_round_the_region_every_payload_byte_repeats_error_completion", "cmd": [TB, "+test=source"]},
        {"name": "source_counter_mode_every_payload_byte", "cmd": [TB, "+test=source_counter"]},
        {"name": "source_runs_until_stop_then_drains", "cmd": [TB, "+test=stop"]},
        {"name": "source_rate_50_bytes_a_cycle_within_1pct", "cmd": [TB, "+test=rate"]},
        {"name": "sink_counts_bad_beat_gap_unaligned_counter_mode", "cmd": [TB, "+test=sink"]},
    ]
    names = subprocess.run([PY, SYSTEM, "--list"], stdout=subprocess.PIPE, text=True, check=True).stdout.split()
    return [{"name": "system_" + n, "cmd": [PY, SYSTEM, n], "timeout": 600} for n in names] + c
