"""The longer set against the simulated NIC (`make interop` only; test_nic.py is the
short one in `make test`). Four runs, one simulator and one guest boot each:

  nic_pingpong: ibv_rc_pingpong --chk with the NIC as server and as client, 2048 B x 5
                and 10001 B x 3 (a message that is not a multiple of the MTU nor of 4:
                pad bytes). The NIC as client sends its test buffer, which holds what
                the tool sent it in the step before: --chk's buffer.
  nic_perftest: ib_write_bw, ib_read_bw, ib_send_bw with the NIC as server, 64 B, 4 KiB
                and 64 KiB (2 KiB instead of 4 KiB for READ), 5 iterations each.
  nic_perftest_client: the same three with the NIC as client (the guest's tool serves,
                the NIC posts the work requests and sends the report), 64 B, 4 KiB, 64 KiB.
  nic_lat:      ib_write_lat, ib_read_lat, ib_send_lat, the NIC as server and as client;
                every write_lat WRITE carries its iteration number in its last byte.
  nic_atomic:   ib_atomic_bw, ib_atomic_lat (FETCH_AND_ADD), the NIC as server and as client.
  nic_rdma_cm:  every perftest tool with -R (its exchange in SENDs over an RDMA CM
                connection, the QPs through RDMA CM), both roles, and -q 4 at 64 KiB.

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
    "nic_perftest": [S("server", "write_bw", 64, 5), S("server", "write_bw", 4096, 5),
                     S("server", "write_bw", 65536, 5), S("server", "read_bw", 64, 5),
                     S("server", "read_bw", 2048, 5), S("server", "read_bw", 65536, 5),
                     S("server", "send_bw", 64, 5), S("server", "send_bw", 4096, 5),
                     S("server", "send_bw", 65536, 5)],
    "nic_perftest_client": [S("client", t, n, 5) for t in ("write_bw", "read_bw", "send_bw")
                            for n in (64, 4096, 65536)],
    "nic_lat": [S(r, t, 64, 5) for t in ("write_lat", "read_lat", "send_lat")
                for r in ("server", "client")],
    # ib_atomic_bw / ib_atomic_lat (FETCH_AND_ADD, 8 bytes), both roles
    "nic_atomic": [S(r, t, 8, 5) for t in ("atomic_bw", "atomic_lat") for r in ("server", "client")],
    # perftest -R (the exchange and the QPs through RDMA CM): every test, both roles, and -q 4
    "nic_rdma_cm": [S(r, t, 8 if t.startswith("atomic") else 4096, 5, rdma_cm=True)
                    for t in nic_peer.PERFTEST for r in ("server", "client")] +
                   [S(r, "write_bw", 65536, 5, 4, rdma_cm=True) for r in ("server", "client")],
    # perftest -a's largest message (8 MiB) and -q 2/4, both roles (the buffer is 16 MiB)
    "nic_large_multi": [S(r, "write_bw", 8 << 20, 5) for r in ("server", "client")] +
                       [S(r, t, 4096, 5, q) for r in ("server", "client") for t in ("write_bw", "read_bw")
                        for q in (2, 4)],
    # perftest -a (2 B .. 8 MiB, 5 of each) as the guest's client and server; the NIC as
    # client runs its one SIZE, 8 MiB (its tool has no all-sizes loop)
    "nic_all_sizes": [S(r, t, 8 << 20, 5, all_sizes=True) for t in ("write_bw", "read_bw")
                      for r in ("server", "client")],
    # the guest's eth0 at MTU 9000 (rxe's active MTU 4096): -m 4096 both roles, then no flag
    # at all (the NIC offers 4096, rxe its active MTU: 4096), and ibv_rc_pingpong -m 4096
    # against the NIC's --mtu 4096 (pingpong exchanges no MTU)
    "nic_jumbo": [S(r, t, 65536, 5, mtu=4096) for t in ("write_bw", "read_bw", "send_bw")
                  for r in ("server", "client")] +
                 [S(r, "write_bw", 65536, 5) for r in ("server", "client")] +
                 [S(r, "pingpong", 10001, 3, mtu=4096) for r in ("server", "client")],
}
# the guest's eth0 MTU per run (1500 when not named: rxe's active MTU 1024)
LINK_MTU = {"nic_jumbo": 9000}


@pytest.fixture(scope="module", params=list(RUNS))
def run(request):
    rr = nic_peer.run(request.param, RUNS[request.param], timeout=900, step_timeout=240,
                      mtu=LINK_MTU.get(request.param, 1500))
    print(nic_peer.table([nic_peer._summary(rr)]))
    return rr


def test_steps(run):
    bad = [f"{st.step.label()}: {st.why}\n{st.guest_out}\n--- NIC:\n{st.nic_out}"
           for st in run.steps if not st.ok]
    assert not bad, "\n\n".join(bad)
    assert run.ok and len(run.steps) == len(RUNS[run.name]), run.why


def test_capture(run):
    # send_lat's SENDs both ways are no echo when the guest serves: pingpong runs only
    pp_run = any(s.test == "pingpong" for s in RUNS[run.name])
    bad, ops = check_pcap.check(run.pcap, echo=pp_run,
                                pattern_from=f"{nic_peer.GUEST_IP},{nic_peer.NIC_IP}")
    assert not bad, "\n".join(bad)
    # every message of more than one packet went at the path MTU that rxe's link gives
    # (1024 at 1500, 4096 at 9000; nic_peer checked the NIC's QPs got it), both ways
    frames = check_pcap.read_pcap(open(run.pcap, "rb").read())
    pmtu = nic_peer.rxe_active_mtu(LINK_MTU.get(run.name, 1500))
    assert not check_pcap.pmtu_problems(frames, pmtu), check_pcap.pmtu_problems(frames, pmtu)
    if run.name == "nic_jumbo":     # and 4096-byte packets went both ways
        full = {(k[0], n) for k, (sizes, _) in check_pcap.path_mtus(frames).items() for n in sizes}
        assert full == {(nic_peer.NIC_IP, 4096), (nic_peer.GUEST_IP, 4096)}, full
    if run.name == "nic_lat":
        # two write_lat runs, 5 WRITEs each way: the n-th WRITE of each side ends with n
        last = check_pcap.write_last_bytes(check_pcap.read_pcap(open(run.pcap, "rb").read()))
        for ip in (nic_peer.NIC_IP, nic_peer.GUEST_IP):
            assert last.get(ip) == [1, 2, 3, 4, 5] * 2, f"{ip}'s write_lat WRITEs end with {last.get(ip)}"
        return
    if not pp_run:
        return
    convs, _ = check_pcap.check_echo(check_pcap.read_pcap(open(run.pcap, "rb").read()))
    pp = [s for s in RUNS[run.name] if s.test == "pingpong"]
    assert len(convs) == len(pp), [(c["first"][0], len(c["first"][1])) for c in convs]
    for c, s in zip(convs, pp):
        first = nic_peer.NIC_IP if s.role == "client" else nic_peer.GUEST_IP
        assert c["first"][0] == first
        assert [len(m) for m in c["first"][1]] == [s.size] * s.iters
