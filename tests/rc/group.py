"""Two complete RC transports end to end (tests/rc): each side is roce_transport +
mem_axi_arb + mem_axi_ram (memories 0 and 1), joined by the wire model
(sim/wire/eth_wire), driven through the sbus registers from C++ (tb_rc.cpp).
Every byte that arrives is compared with what the C++ side posted; CQEs with
the IB rules; every WR has a completion deadline and the run a cycle limit.
Longer campaign: make rc-soak. Figures: make transport-bench."""
ORDER = 48
BUILD = ["build/rc/Vtb_rc"]
TB = "build/rc/Vtb_rc"

_TESTS = [
    ("smoke_every_opcode_both_directions", "smoke"),
    ("ect0_marking_on_each_side_ecn_checksum_icrc_on_the_wire", "ect"),
    ("ce_marked_writes_make_cnps_once_per_qp_per_interval_decoded_on_the_wire_counters", "cnp"),
    ("dcqcn_cnps_pace_a_qp_to_its_rate_on_the_wire_other_qp_at_line_rate", "rp"),
    ("every_opcode_every_mtu_0_to_12k", "ops"),
    ("messages_0_b_to_5_mib", "big"),
    ("psn_wrap_both_directions", "wrap"),
    ("64_qps_at_once", "many"),
    ("nak_remote_access_invalid_nothing_written_flush_reset_reuse", "nak_access"),
    ("protection_domains_rkey_and_lkey_of_another_pd_nak_loc_prot_err_counted_right_pd_works", "pd"),
    ("rnr_then_success_and_rnr_retry_exhausted", "rnr"),
    ("wire_cut_retry_exhausted_flush_reset_reuse", "retry_exc"),
    ("qp_error_opcode_out_of_sequence_responder_error_drops_access_nak_both_sides_events_reset", "qp_err"),
    ("small_reads_of_3_qps_pass_a_4mib_read", "read_mix"),
    ("read_256k_mtu256_reordering_wire_duplicate_read_restarts_responses_no_storm", "read_reorder"),
    ("write_1mib_mtu4096_at_least_95pct_of_wire", "perf"),
    ("wrgen_every_byte_round_robin_errors_abort_reset_timeout", "gen"),
    ("wrgen_64b_write_rate_floor_1_and_16_qps", "gen_rate"),
    ("write_64b_post_to_completion_at_most_180_cycles", "lat"),
    ("user_wr_stream_mix_beside_firmware_and_wrgen_error_completions_stalled_completions_stop_only_user", "user"),
    ("user_port_64b_write_rate_floor_1_and_16_qps_64k_write_at_least_97_gbps", "user_rate"),
    ("user_receives_mix_with_firmware_receives_credits_refusals_full_ring_rq_overflow", "user_recv"),
    ("recycling_receive_ring_refusals_4k_send_at_least_90_gbps_no_rnr_ring_order_reset_ends_it", "rq_recycle"),
    ("streaming_mr_write_send_into_read_from_write_from_user_streams_backpressure_errors", "ustream"),
    ("streaming_mr_lossy_wire_retransmissions_reask_every_chunk_exactly_once", "ustream_lossy"),
    ("streaming_mr_64k_write_mtu4096_into_and_from_at_least_97_gbps", "ustream_rate"),
]


def cases():
    c = [{"name": n, "cmd": [TB, f"+test={t}"], "timeout": 300} for n, t in _TESTS]
    c.append({"name": "read_1mib_mtu1024_and_mtu256_at_least_95pct_of_wire_no_rx_queue",
              "cmd": [TB, "+test=perf_read"], "timeout": 300})
    c.append({"name": "memory_200ns_write_and_read_64k_mtu4096_at_least_97_gbps",
              "cmd": [TB, "+test=perf_mem200"], "timeout": 300})
    c.append({"name": "campaign_2000_ops_8_qps_drop1_reorder1_corrupt01_seed1",
              "cmd": [TB, "+test=campaign", "+seed=1", "+ops=2000"], "timeout": 240})
    # seeds 3 and 8 ended in a deadline miss while a duplicate READ waited at the head
    # of the responder's event queue (docs/transport.md, "A duplicate READ replaces")
    for seed in (3, 8):
        c.append({"name": f"campaign_2000_ops_8_qps_drop1_reorder1_corrupt01_seed{seed}",
                  "cmd": [TB, "+test=campaign", f"+seed={seed}", "+ops=2000"], "timeout": 240})
    return c
