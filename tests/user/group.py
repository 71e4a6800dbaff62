"""The user-logic examples (rtl/user: user_source, user_sink) against a C++ bench that
plays the transport (tests/user/tb_user.cpp): work requests, payload requests with
repeats, every byte against the reference pattern, pacing, the sink's counters."""
ORDER = 46
BUILD = ["build/user/Vtb_user"]
TB = "build/user/Vtb_user"


def cases():
    return [
        {"name": "source_writes_round_the_region_every_payload_byte_repeats_error_completion", "cmd": [TB, "+test=source"]},
        {"name": "source_counter_mode_every_payload_byte", "cmd": [TB, "+test=source_counter"]},
        {"name": "source_runs_until_stop_then_drains", "cmd": [TB, "+test=stop"]},
        {"name": "source_rate_50_bytes_a_cycle_within_1pct", "cmd": [TB, "+test=rate"]},
        {"name": "sink_counts_bad_beat_gap_unaligned_counter_mode", "cmd": [TB, "+test=sink"]},
    ]
