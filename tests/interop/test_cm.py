"""RDMA CM against the simulated NIC: librdmacm's unmodified rdma_client in an rxe guest
(rdmacm-utils) connects through QP 1 to the NIC's `listen --cm 7471`.

One simulator (NIC 0 on a UDP socket, every frame into a pcap) and one guest boot:

  1. `rdma_client -s 10.0.0.1 -p 7999`: nobody listens there; the NIC answers the REQ
     with a REJ (invalid service ID) and the tool exits by itself with
     "rdma_connect: Connection refused";
  2. `rdma_client -s 10.0.0.1` against `tool on -n 1 -s 16` + `listen --cm 7471`: REQ,
     REP, RTU, the tool's 16-byte SEND echoed back by the NIC's firmware (qpx_tool.c's
     ibv_rc_pingpong server), then rdma_disconnect: DREQ, DREP. The tool prints
     "rdma_client: end 0";
  3. the active side: the guest's `rdma_server` and the NIC's `connect --cm 10.0.0.2`
     (retried while the guest answers REJ, its server not listening yet): REQ, REP,
     RTU, the NIC's 16-byte SEND (ibv_rc_pingpong's client, --chk's buffer) answered by
     rdma_server's own 16-byte SEND, then its rdma_disconnect: DREQ, DREP. The tool prints
     "rdma_server: end 0";
  4. `udaddy -s 10.0.0.1` (UD through rdma_cm: a SIDR_REQ): the NIC answers SIDR_REP
     "unsupported", says "UD/UC not supported", and udaddy exits by itself with an error.

The capture must decode in tshark with correct ICRCs (check_pcap), the CM messages in
the order above between the right ends, and the SEND echoed byte for byte."""
import pathlib
import re
import subprocess
import sys
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "interop"))
sys.path.insert(0, str(REPO / "tests" / "interop"))
import check_pcap   # noqa: E402
import nic_peer     # noqa: E402

OUT = REPO / "build" / "interop" / "cm"
PORT, NOBODY = 7471, 7999
TESTS = [f"rdma_client -s {nic_peer.NIC_IP} -p {NOBODY}; echo rdma_client exit $?",
         f"rdma_client -s {nic_peer.NIC_IP}", "rdma_server",
         f"udaddy -s {nic_peer.NIC_IP}; echo udaddy exit $?"]
REQ, REJ, REP, RTU, DREQ, DREP = 0x10, 0x12, 0x13, 0x14, 0x15, 0x16


@pytest.fixture(scope="module")
def run():
    with nic_peer.Session("rdma_client", TESTS, OUT, timeout=420, test_timeout=240) as ss:
        r = {"pcap": str(ss.pcap)}
        r["tool"] = ss.nic.cmd("tool on -n 1 -s 16 --idle 2000")
        ss.nic.con.send(f"listen --cm {PORT} --wait 600000")
        # returns once the connection is established and the echo is done
        r["listen"] = ss.nic.con.wait_for(nic_peer.PROMPT, 400)
        # the guest's rdma_server: connect until it listens (a REJ before that), bounded
        r["connect"] = ss.connect_retried(3, f"connect --cm {nic_peer.GUEST_IP}", nic_peer.REFUSED_CM,
                                          timeout=200)
        r["guest"] = ss.finish()
        time.sleep(1)
        r["qpx"] = ss.nic.cmd("qpx", 60)
        r["stats"] = ss.nic.cmd("stats", 60)
    r["nic_log"] = ss.nic_log
    return r


def _test(r, i):
    res = r["guest"]
    assert len(res.tests) > i, f"guest test {i + 1} did not run: {res.reason}\n" + \
        "\n".join(res.console.splitlines()[-20:])
    return res.tests[i]


def test_rej_for_nobody_listening(run):
    _, rc, out = _test(run, 0)
    assert "rdma_connect: Connection refused" in out, out
    assert "rdma_client exit 255" in out, out      # main returns rdma_connect's -1
    assert re.search(rf"cm: REQ from 10\.0\.0\.2 for port {NOBODY}: nobody listens there: REJ",
                     run["nic_log"]), run["nic_log"][-2000:]


def test_rdma_client_connects_sends_and_disconnects(run):
    _, rc, out = _test(run, 1)
    assert rc == 0 and "rdma_client: end 0" in out, out
    log = run["nic_log"]
    assert re.search(rf"cm: REQ from 10\.0\.0\.2 port {PORT} .*REP sent", log), log[-3000:]
    assert re.search(r"cm: QP 0x[0-9a-f]+ established with 10\.0\.0\.2 port 7471", log), log[-3000:]
    assert re.search(r"tool: pingpong server with 10\.0\.0\.2: 1 iters of 16 bytes.*: ok", log), log[-3000:]
    assert re.search(r"cm: DREQ from 10\.0\.0\.2: QP 0x[0-9a-f]+ disconnected, DREP sent", log), log[-3000:]


def test_stats_and_state(run):
    line = next((ln for ln in run["stats"].splitlines() if ln.startswith("cm      rx_mads")), "")
    got = dict(re.findall(r"(\w+) (\d+)", line))
    assert got and got["malformed"] == "0" and int(got["rej_sent"]) >= 1, run["stats"]
    assert "established" not in run["qpx"], run["qpx"]     # disconnected by then


def test_rdma_server_nic_connects(run):
    _, rc, out = _test(run, 2)
    assert rc == 0 and "rdma_server: end 0" in out, out
    c = run["connect"]
    assert re.search(r"cm: REQ sent to 10\.0\.0\.2 port 7471", c), c
    assert re.search(r"cm: QP 0x[0-9a-f]+ established with 10\.0\.0\.2 port 7471 \(REP\)", c), c
    assert re.search(r"tool: pingpong client with 10\.0\.0\.2: 1 iters of 16 bytes.*: ok", run["nic_log"]), c
    assert len(re.findall(r"cm: DREQ from 10\.0\.0\.2: QP 0x[0-9a-f]+ disconnected, DREP sent",
                          run["nic_log"])) == 2, run["nic_log"][-3000:]


def test_udaddy_refused(run):
    _, rc, out = _test(run, 3)
    m = re.search(r"udaddy exit (\d+)", out)
    assert m and m.group(1) != "0", out
    assert re.search(r"cm: SIDR_REQ from 10\.0\.0\.2 .*UD/UC not supported", run["nic_log"]), \
        run["nic_log"][-2000:]


def _tshark_cm(pcap):
    out = subprocess.run(["tshark", "-r", pcap, "-Y", "infiniband.bth.destqp == 1", "-T", "fields",
                          "-E", "separator=|", "-e", "ip.src", "-e", "infiniband.mad.attributeid",
                          "-e", "infiniband.cm.rej.reason", "-e", "infiniband.cm.req.serviceid.dport"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True).stdout
    return [ln.split("|") for ln in out.splitlines()]


def test_capture(run):
    bad, ops = check_pcap.check(run["pcap"], expect=["SEND_ONLY", "ACKNOWLEDGE"])
    assert not bad, "\n".join(bad)
    msgs = _tshark_cm(run["pcap"])
    # retransmissions aside, the order of first appearance
    seq = []
    for src, attr, reason, dport in msgs:
        key = (src, int(attr, 16), reason, dport)
        if key not in seq:
            seq.append(key)
    want = [(nic_peer.GUEST_IP, REQ, "", str(NOBODY)), (nic_peer.NIC_IP, REJ, "8", ""),
            (nic_peer.GUEST_IP, REQ, "", str(PORT)), (nic_peer.NIC_IP, REP, "", ""),
            (nic_peer.GUEST_IP, RTU, "", ""), (nic_peer.GUEST_IP, DREQ, "", ""),
            (nic_peer.NIC_IP, DREP, "", "")]
    norm = [(s, a, str(int(r, 0)) if r else "", str(int(d, 0)) if d else "") for s, a, r, d in seq]
    assert norm[:len(want)] == want, norm
    # the active side: the NIC's REQ (maybe REJ'd while rdma_server was starting), the
    # guest's REP, the NIC's RTU, the guest's DREQ (already seen above: deduplicated)
    rest = [(s, a) for s, a, _, _ in norm[len(want):]]
    for m in [(nic_peer.NIC_IP, REQ), (nic_peer.GUEST_IP, REP), (nic_peer.NIC_IP, RTU)]:
        assert m in rest, (m, norm)
    frames = check_pcap.read_pcap(open(run["pcap"], "rb").read())
    convs, _ = check_pcap.check_echo(frames)
    assert len(convs) == 2, convs
    # rdma_client's SEND, echoed by the NIC byte for byte
    (a, ma), (b, mb) = convs[0]["first"], convs[0]["second"]
    assert a == nic_peer.GUEST_IP and len(ma) == 1 and len(ma[0]) == 16 and ma == mb, convs[0]
    # the NIC's SEND to rdma_server: --chk's buffer; rdma_server answers from its own 16-byte
    # send buffer (not an echo)
    (a, ma), (b, mb) = convs[1]["first"], convs[1]["second"]
    assert a == nic_peer.NIC_IP and len(ma) == 1 and check_pcap.chk_pattern_ok(ma[0]), convs[1]
    assert len(ma[0]) == 16 and len(mb) == 1 and len(mb[0]) == 16, convs[1]
