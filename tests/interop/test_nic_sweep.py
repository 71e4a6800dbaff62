"""The longer set against the simulated NIC (`make interop` only; test_nic.py is the
short one in `make test`). Two runs, one simulator and one guest boot each:

  nic_pingpong: ibv_rc_pingpong --chk with the NIC as server and as client, 2048 B x 5
                and 10001 B x 3 (a message that is not a multiple of the MTU nor of 4:
                pad bytes). The NIC as client sends its test buffer, which holds what
                the tool sent it in the step before: --chk's buffer.
  nic_perftest: ib_write_bw, ib_read_bw, ib_send_bw with the NIC as server, 4 KiB and
                64 KiB (2 KiB and 64 KiB for READ), 5 iterations each.

Every step must pass (the tool exits 0 with its result line, the NIC prints its ok
line) and each capture must decode in tshark with correct ICRCs, every pingpong
echoed byte for byte and carrying --chk's buffer."""
import pathlib
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "interop"))
sys.path.insert(0, str(REPO / "tests" / "interop"))
import check_pcap   # noqa: E402
import nic_peer     # noqa: E402

S = nic_peer.Step
RUNS = {
    "nic_pingpong": [S("server", "pingpong", 2048, 5), S("client", "pingpong", 2048, 5),
                     S("server", "pingpong", 10001, 3), S("client", "pingpong", 10001, 3)],
    "nic_perftest": [S("server", "write_bw", 4096, 5), S("server", "write_bw", 65536, 5),
                     S("server", "read_bw", 2048, 5), S("server", "read_bw", 65536, 5),
                     S("server", "send_bw", 4096, 5), S("server", "send_bw", 65536, 5)],
}


@pytest.fixture(scope="module", params=list(RUNS))
def run(request):
    rr = nic_peer.run(request.param, RUNS[request.param], timeout=900, step_timeout=240)
    print(nic_peer.table([nic_peer._summary(rr)]))
    return rr


def test_steps(run):
    bad = [f"{st.step.label()}: {st.why}\n{st.guest_out}\n--- NIC:\n{st.nic_out}"
           for st in run.steps if not st.ok]
    assert not bad, "\n\n".join(bad)
    assert run.ok and len(run.steps) == len(RUNS[run.name]), run.why


def test_capture(run):
    bad, ops = check_pcap.check(run.pcap, echo=True,
                                pattern_from=f"{nic_peer.GUEST_IP},{nic_peer.NIC_IP}")
    assert not bad, "\n".join(bad)
    convs, _ = check_pcap.check_echo(check_pcap.read_pcap(open(run.pcap, "rb").read()))
    pp = [s for s in RUNS[run.name] if s.test == "pingpong"]
    assert len(convs) == len(pp), [(c["first"][0], len(c["first"][1])) for c in convs]
    for c, s in zip(convs, pp):
        first = nic_peer.NIC_IP if s.role == "client" else nic_peer.GUEST_IP
        assert c["first"][0] == first
        assert [len(m) for m in c["first"][1]] == [s.size] * s.iters
