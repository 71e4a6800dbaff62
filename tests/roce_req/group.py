"""The send side of the RC transport: send queue, requester, completer, timers,
CQ and TX mux (rtl/roce/roce_sq, roce_req, roce_comp*, roce_cq*, roce_tx_mux)
against a C++ peer responder written from the IB rules (tb_roce_req.cpp)."""
ORDER = 46
BUILD = ["build/roce_req/Vtb_roce_req"]
TB = "build/roce_req/Vtb_roce_req"

_TESTS = [
    ("every_opcode_every_mtu_0_to_12k", "ops"),
    ("messages_of_several_mib", "big"),
    ("psn_wrap", "wrap"),
    ("64_qps_at_once", "many"),
    ("sequence_nak_resend", "seqnak"),
    ("ack_timeout_resend", "timeout"),
    ("read_resumed_implicit_nak_and_timeout", "read_resume"),
    ("rnr_wait_retry_forever_and_exhausted", "rnr"),
    ("retry_exhausted_error_and_flush", "retry_exc"),
    ("fatal_naks_error_and_flush", "fatal"),
    ("lkey_range_loc_prot_err", "lkey"),
    ("qp_reset_and_reuse", "reset"),
    ("post_refused", "post_reject"),
    ("line_rate_1mib_write_mtu4096", "perf"),
    ("tx_mux_no_starvation", "mux"),
    ("coalesced_acks_stalls", "coalesce"),
]


def cases():
    c = [{"name": n, "cmd": [TB, f"+test={t}"], "timeout": 120} for n, t in _TESTS]
    c += [{"name": f"loss_dup_delay_seed{s}", "cmd": [TB, "+test=loss", f"+seed={s}"], "timeout": 120}
          for s in (1, 2, 3, 4)]
    c.append({"name": "lint_wall_nqp256_and_4096", "cmd": ["make", "--no-print-directory", "roce-req-lint"],
              "timeout": 300})
    return c
