"""The simulated NIC against the unmodified Linux tools in an rxe guest (make test's
short set): one simulator (NIC 0 on a UDP socket, every frame into a pcap) and one
guest boot. The NIC is the server of

  ibv_rc_pingpong -g 1 -n 5 -s 2048 --chk 10.0.0.1   (the NIC echoes each message)
  ib_write_bw -x 1 -s 4096 -n 5 10.0.0.1             (the transport serves the WRITEs)
  ib_write_lat -x 1 -s 64 -n 5 10.0.0.1              (the NIC watches its buffer's last
                                                      byte and writes back)

and the client of the guest's `ib_write_bw -x 1 -s 4096 -n 5` (the NIC posts the WRITEs
and sends the report), and the server of `ib_write_bw -q 2` and of `ib_write_bw -R -q 2`
(perftest's exchange in SENDs over an RDMA CM connection, both QPs through RDMA CM too),
before the write_lat step; then the guest's eth0 goes to MTU 9000 (rxe's active MTU 4096) and
the NIC is the client of `ib_read_bw -s 65536 -n 5`, no MTU flag on either side: the
path MTU must come out 4096 (1024 in every step before). Each tool must exit 0 with its result lines, the NIC must print
its "tool: ...: ok" line, and the capture must decode in tshark with correct ICRCs, the
pingpong echoed byte for byte and the client's data being --chk's buffer, and every
write_lat WRITE carrying its iteration number in its last byte. The longer set
(test_nic_sweep.py) runs with `make interop`."""
import pathlib
import re
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "interop"))
sys.path.insert(0, str(REPO / "tests" / "interop"))
import check_pcap   # noqa: E402
import nic_peer     # noqa: E402

S = nic_peer.Step
STEPS = [S("server", "pingpong", 2048, 5), S("server", "write_bw", 4096, 5),
         S("client", "write_bw", 4096, 5), S("server", "write_bw", 4096, 5, qps=2),
         S("server", "write_bw", 4096, 5, qps=2, rdma_cm=True), S("server", "write_lat", 64, 5),
         S("client", "read_bw", 65536, 5, link_mtu=9000)]
# (write_lat the last step with WRITEs: test_capture reads its WRITEs as each side's last
# five; the jumbo read_bw last: the guest's eth0 stays at 9000 after it)


@pytest.fixture(scope="module")
def run():
    rr = nic_peer.run("nic_quick", STEPS, timeout=520, step_timeout=150)
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


def test_write_bw_nic_client(run):
    st = _step(run, 2)
    assert st.nic_line.startswith("tool: write_bw client with 10.0.0.2: 5 x 4096 bytes"), st.nic_line
    # the guest's server prints the report the NIC sent: the NIC's simulated-time figures
    m = nic_peer.BW_RE.search(st.guest_out)
    assert m and (int(m.group(1)), int(m.group(2))) == (4096, 5), st.guest_out
    assert float(m.group(4)) > 100.0, f"the NIC's simulated BW (MB/s) is missing: {m.group(0)}"


def test_write_lat_nic_server(run):
    st = _step(run, 5)
    assert st.nic_line.startswith("tool: write_lat server with 10.0.0.2: 5 iters of 64 bytes")
    assert nic_peer.LAT_RE.search(st.nic_out), "no latency table from the NIC:\n" + st.nic_out


def test_write_bw_two_qps_nic_server(run):
    """ib_write_bw -q 2 against listen --qps 2: two QPs each way; perftest counts both
    QPs' messages (5 each)."""
    st = _step(run, 3)
    remote = re.findall(r"remote address: LID 0000 QPN (0x[0-9a-f]+)", st.guest_out)
    assert len(set(remote)) == 2, st.guest_out   # the NIC's two QPs, as the guest saw them
    assert "VAddr 0x00000000900000" in st.guest_out, st.guest_out   # the second QP's half of the 16 MiB buffer
    m = nic_peer.BW_RE.search(st.guest_out)
    assert m and (int(m.group(1)), int(m.group(2))) == (4096, 10), st.guest_out
    assert st.nic_line.startswith("tool: write_bw server with 10.0.0.2:"), st.nic_line


def test_write_bw_rdma_cm_two_qps_nic_server(run):
    """ib_write_bw -R -q 2 against listen --rdma-cm --qps 2: perftest's exchange in SENDs over
    its own RDMA CM connection, each test QP through RDMA CM (three REQ/REP/RTU), 5 WRITEs
    on each QP."""
    st = _step(run, 4)
    assert re.search(r"rdma_cm QPs\s*: ON", st.guest_out), st.guest_out
    m = nic_peer.BW_RE.search(st.guest_out)
    assert m and (int(m.group(1)), int(m.group(2))) == (4096, 10), st.guest_out
    est = re.findall(r"cm: QP 0x([0-9a-f]+) established with 10\.0\.0\.2 port 18515 \(RTU\)",
                     st.nic_out)
    assert len(est) == 3, st.nic_out
    remote = re.findall(r"remote address: LID 0000 QPN 0x0*([0-9a-f]+)", st.guest_out)
    assert sorted(set(remote)) == sorted(est[1:]), (remote, est)   # the test QPs, not the exchange's
    assert "qpx: perftest -R: RDMA CM listens on port 18515 for 2 connection(s)" in st.nic_out
    assert st.nic_line.startswith("tool: write_bw server with 10.0.0.2:"), st.nic_line


def test_read_bw_jumbo_nic_client(run):
    """No MTU flag: perftest takes the smaller of both offers, the NIC's 4096 and rxe's
    active MTU (4096 on the 9000-byte link); nic_peer checked every earlier step's QPs got
    1024 (the stock link)."""
    st = _step(run, 6)
    assert re.search(r"Mtu\s*: 4096\[B\]", st.guest_out), st.guest_out
    assert st.pmtu == 4096 and all(r.pmtu in (0, 1024) for r in run.steps[:6]), \
        [(r.step.label(), r.pmtu) for r in run.steps]
    m = nic_peer.BW_RE.search(st.guest_out)
    assert m and (int(m.group(1)), int(m.group(2))) == (65536, 5), st.guest_out
    assert st.nic_line.startswith("tool: read_bw client with 10.0.0.2: 5 x 65536 bytes"), st.nic_line


def test_run_clean(run):
    assert run.ok, run.why


def test_capture(run):
    bad, ops = check_pcap.check(run.pcap, expect=["SEND_FIRST", "SEND_LAST", "WRITE_FIRST",
                                                  "WRITE_MIDDLE", "WRITE_LAST", "WRITE_ONLY",
                                                  "ACKNOWLEDGE"],
                                echo=True, pattern_from=nic_peer.GUEST_IP)
    assert not bad, "\n".join(bad)
    frames = check_pcap.read_pcap(open(run.pcap, "rb").read())
    convs, _ = check_pcap.check_echo(frames)
    assert len(convs) == 1, convs
    (a, ma), (b, mb) = convs[0]["first"], convs[0]["second"]
    assert (a, b) == (nic_peer.GUEST_IP, nic_peer.NIC_IP)
    assert len(ma) == 5 and all(len(m) == 2048 for m in ma)
    # 2 x 5 x 4 KiB written at path MTU 1024: FIRST, MIDDLE, MIDDLE, LAST each
    assert ops["WRITE_FIRST"] >= 10 and ops["WRITE_MIDDLE"] >= 20 and ops["WRITE_LAST"] >= 10, ops
    # the path MTU of every multi-packet message: 1024 (the stock link), 4096 only for the
    # guest's READ responses after its link went to 9000 (nic_peer checked the NIC's QPs)
    flows = check_pcap.path_mtus(frames)
    assert all(len(f) <= 1 and (not f or big <= max(f)) for f, big in flows.values()), flows
    full = {(k[0], n) for k, (sizes, _) in flows.items() for n in sizes}
    assert full == {(nic_peer.GUEST_IP, 1024), (nic_peer.NIC_IP, 1024), (nic_peer.GUEST_IP, 4096)}, full
    assert ops["READ_RESPONSE_FIRST"] >= 5 and ops["READ_RESPONSE_MIDDLE"] >= 5 * 14, ops
    # write_lat (64-byte WRITE_ONLY): both sides' n-th WRITE ends with n
    last = check_pcap.write_last_bytes(frames)
    for ip in (nic_peer.NIC_IP, nic_peer.GUEST_IP):
        lat = [x for x in last.get(ip, [])][-5:]
        assert lat == [1, 2, 3, 4, 5], f"{ip}'s write_lat WRITEs end with {lat}"
