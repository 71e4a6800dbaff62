"""rping (librdmacm's example, rdmacm-utils) against the simulated NIC, both roles, over
RDMA CM. One simulator (NIC 0 on a UDP socket, every frame into a pcap) and one guest boot:

  1. the NIC as rping's server (`tool on -n 3 -s 64`, `listen --cm --tool rping`, port
     7174) and the guest's `rping -c -a 10.0.0.1 -v -C 3 -S 64`: each ping the client
     SENDs its start buffer's address, rkey and size; the NIC's firmware reads the
     16 bytes (the fill/check engine's peek), READs the buffer, SENDs, reads the
     second description, WRITEs the text back, SENDs. rping checks every byte of
     each ping (-v prints them) and exits 0;
  2. the guest's `rping -s -v -C 3 -S 64` and the NIC's `connect --cm 10.0.0.2 --tool
     rping` (retried while the guest answers REJ): the NIC writes rping's text of each
     ping, advertises its buffers, checks the text the guest WROTE back, then
     disconnects as rping's client does; the guest prints the pings it READ.

The guest's rping is the independent check of what the NIC moves; the text each
side prints is compared with rping's format, built here. The capture must decode in
tshark with correct ICRCs (check_pcap) and hold the READs and WRITEs."""
import pathlib
import re
import sys
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "interop"))
sys.path.insert(0, str(REPO / "tests" / "interop"))
import check_pcap   # noqa: E402
import nic_peer     # noqa: E402

OUT = REPO / "build" / "interop" / "rping"
N, SIZE = 3, 64
# the client retries while the NIC is not listening yet (a REJ), as the reference run did
TESTS = [f"for i in 1 2 3 4 5 6 7 8 9 10; do rping -c -a {nic_peer.NIC_IP} -v -C {N} -S {SIZE} "
         f"&& exit 0; sleep 2; done; exit 1",
         f"rping -s -v -C {N} -S {SIZE}"]


def rping_text(ping, size):
    """rping's start buffer of ping PING without its final NUL: the header, then letters
    from 'A' + ping cycling through 'A'..'z'."""
    head = f"rdma-ping-{ping}: "
    return (head + "".join(chr(65 + (ping % 58 + j) % 58) for j in range(size)))[:size - 1]


@pytest.fixture(scope="module")
def run():
    with nic_peer.Session("rping", TESTS, OUT, timeout=420, test_timeout=240) as ss:
        r = {"pcap": str(ss.pcap)}
        r["tool"] = ss.nic.cmd(f"tool on -n {N} -s {SIZE} --idle 2000")
        ss.nic.con.send("listen --cm --tool rping --wait 600000")
        # returns once the connection is established and the pings are done
        r["listen"] = ss.nic.con.wait_for(nic_peer.PROMPT, 400)
        r["connect"] = ss.connect_retried(2, f"connect --cm {nic_peer.GUEST_IP} --tool rping",
                                          nic_peer.REFUSED_CM, timeout=300, window=150)
        r["guest"] = ss.finish()
        time.sleep(1)
        r["qpx"] = ss.nic.cmd("qpx", 60)
    r["nic_log"] = ss.nic_log
    return r


def _test(r, i):
    res = r["guest"]
    assert len(res.tests) > i, f"guest test {i + 1} did not run: {res.reason}\n" + \
        "\n".join(res.console.splitlines()[-20:])
    return res.tests[i]


def test_nic_as_rping_server(run):
    _, rc, out = _test(run, 0)
    assert rc == 0, out
    # rping -v: the client's check passed for each ping and it printed the text back
    for i in range(N):
        assert f"ping data: {rping_text(i, SIZE)}" in out, out
    log = run["nic_log"]
    assert re.search(r"cm: QP 0x[0-9a-f]+ established with 10\.0\.0\.2 port 7174", log), log[-3000:]
    for i in range(2):
        line = f"tool: rping server with 10.0.0.2: ping {i} data: {rping_text(i, SIZE)}"
        assert re.search(re.escape(line) + r"\r?\n", log), log[-3000:]
    assert re.search(rf"tool: rping server with 10\.0\.0\.2: {N} pings of {SIZE} bytes in .*: ok",
                     log), log[-3000:]


def test_nic_as_rping_client(run):
    _, rc, out = _test(run, 1)
    assert rc == 0, out
    # the guest server READ each ping's text from the NIC and prints it (-v)
    for i in range(N):
        assert f"server ping data: {rping_text(i, SIZE)}" in out, out
    c = run["connect"]
    assert re.search(r"cm: QP 0x[0-9a-f]+ established with 10\.0\.0\.2 port 7174 \(REP\)", c), c
    assert re.search(rf"tool: rping client with 10\.0\.0\.2: {N} pings of {SIZE} bytes, each "
                     r"checked in .*: ok", run["nic_log"]), run["nic_log"][-3000:]
    assert "established" not in run["qpx"], run["qpx"]     # the NIC disconnected


def test_capture(run):
    bad, ops = check_pcap.check(run["pcap"], expect=["SEND_ONLY", "ACKNOWLEDGE"])
    assert not bad, "\n".join(bad)
    # both roles' READs and WRITEs: N of each per role
    for op in ("READ_REQUEST", "WRITE_ONLY"):
        assert ops.get(op, 0) >= 2 * N, ops
