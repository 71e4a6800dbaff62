"""The simulated NIC against the unmodified Linux tools in an rxe guest (make test's
short set): one simulator (NIC 0 on a UDP socket, every frame into a pcap) and one
guest boot. The NIC is the server of

  ibv_rc_pingpong -g 1 -n 5 -s 2048 --chk 10.0.0.1   (the NIC echoes each message)
  ib_write_bw -x 1 -s 4096 -n 5 10.0.0.1             (the transport serves the WRITEs)

Each tool must exit 0 with its result lines, the NIC must print its "tool: ...: ok"
line, and the capture must decode in tshark with correct ICRCs, the pingpong echoed
byte for byte and the client's data being --chk's buffer. The longer set
(test_nic_sweep.py) runs with `make interop`."""
import pathlib
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "interop"))
sys.path.insert(0, str(REPO / "tests" / "interop"))
import check_pcap   # noqa: E402
import nic_peer     # noqa: E402

STEPS = [nic_peer.Step("server", "pingpong", 2048, 5), nic_peer.Step("server", "write_bw", 4096, 5)]


@pytest.fixture(scope="module")
def run():
    rr = nic_peer.run("nic_quick", STEPS, timeout=300, step_timeout=150)
    print(nic_peer.table([nic_peer._summary(rr)]))
    print(f"run: {rr.seconds:.0f} s, guest ready after {rr.boot_seconds:.0f} s")
    return rr


def _step(rr, i):
    assert len(rr.steps) > i, f"step {i + 1} did not run: {rr.why}\n--- NIC:\n" + \
        "\n".join(rr.nic_log.splitlines()[-20:]) + "\n--- guest:\n" + \
        "\n".join(rr.guest_console.splitlines()[-20:])
    st = rr.steps[i]
    assert st.ok, f"{st.step.label()}: {st.why}\n--- tool:\n{st.guest_out}\n--- NIC:\n{st.nic_out}"
    return st


def test_rc_pingpong_nic_server(run):
    st = _step(run, 0)
    assert "20480 bytes in" in st.guest_out and "5 iters in" in st.guest_out
    assert "remote address: LID 0x0000, QPN 0x000011" in st.guest_out, st.guest_out
    assert "GID ::ffff:10.0.0.1" in st.guest_out, st.guest_out
    assert st.nic_line.startswith("tool: pingpong server with 10.0.0.2: 5 iters of 2048 bytes")


def test_write_bw_nic_server(run):
    st = _step(run, 1)
    assert "VAddr 0x00000000100000" in st.guest_out, st.guest_out   # the NIC's test buffer
    assert st.nic_line.startswith("tool: write_bw server with 10.0.0.2:"), st.nic_line


def test_run_clean(run):
    assert run.ok, run.why


def test_capture(run):
    bad, ops = check_pcap.check(run.pcap, expect=["SEND_FIRST", "SEND_LAST", "WRITE_FIRST",
                                                  "WRITE_MIDDLE", "WRITE_LAST", "ACKNOWLEDGE"],
                                echo=True, pattern_from=nic_peer.GUEST_IP)
    assert not bad, "\n".join(bad)
    convs, _ = check_pcap.check_echo(check_pcap.read_pcap(open(run.pcap, "rb").read()))
    assert len(convs) == 1, convs
    (a, ma), (b, mb) = convs[0]["first"], convs[0]["second"]
    assert (a, b) == (nic_peer.GUEST_IP, nic_peer.NIC_IP)
    assert len(ma) == 5 and all(len(m) == 2048 for m in ma)
    # 5 x 4 KiB written at path MTU 1024: FIRST, MIDDLE, MIDDLE, LAST each
    assert ops["WRITE_FIRST"] >= 5 and ops["WRITE_MIDDLE"] >= 10 and ops["WRITE_LAST"] >= 5, ops
