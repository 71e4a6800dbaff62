"""Two interop guests (server 10.0.0.1, client 10.0.0.2) joined by a datagram
socket pair on 127.0.0.1: ibv_rc_pingpong with --chk, then ib_write_bw, in one
boot of each guest. The server's capture of eth0 must hold only RoCE packets
with correct ICRCs that tshark decodes without a malformed packet."""
import os
import pathlib
import re
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "interop"))
sys.path.insert(0, str(REPO / "tests" / "interop"))
import check_pcap   # noqa: E402
import run_guest    # noqa: E402

OUT = REPO / "build" / "interop" / "test_pair"
PINGPONG = "ibv_rc_pingpong -g 1 -n 5 -s 2048 --chk"
WRITE_BW = "ib_write_bw -x 1 -n 5"     # perftest rejects -n below 5; -x is its GID index


@pytest.fixture(scope="module")
def pair():
    OUT.mkdir(parents=True, exist_ok=True)
    for f in OUT.glob("*"):
        f.unlink()
    srv, cli = run_guest.run_pair([PINGPONG, WRITE_BW],
                                  [PINGPONG + " {peer}", WRITE_BW + " {peer}"],
                                  timeout=360, pcap_dir=str(OUT), console_dir=str(OUT))
    print(f"server: {srv.seconds:.1f} s, ready at {srv.ready_seconds:.1f} s; "
          f"client: {cli.seconds:.1f} s, ready at {cli.ready_seconds:.1f} s; accel {srv.accel}")
    return srv, cli


def _test(res, i):
    assert len(res.tests) > i, f"{res.name}: test {i + 1} did not run: {res.reason}\n" + \
        "\n".join(res.console.splitlines()[-20:])
    return res.tests[i]


def test_guests_finish(pair):
    for res in pair:
        assert res.ok, f"{res.reason}\n--- console of {res.name}:\n" + \
            "\n".join(res.console.splitlines()[-30:])


def test_rc_pingpong(pair):
    for res in pair:
        cmd, rc, out = _test(res, 0)
        assert rc == 0, f"{res.name}: `{cmd}` exited {rc}:\n{out}"
        # 5 iterations of 2048 bytes each way: "20480 bytes in ... seconds"
        assert re.search(r"^20480 bytes in [0-9.]+ seconds", out, re.M), out
        assert re.search(r"^5 iters in [0-9.]+ seconds", out, re.M), out
        assert "GID ::ffff:10.0.0." in out, out


def test_write_bw(pair):
    for res in pair:
        cmd, rc, out = _test(res, 1)
        assert rc == 0, f"{res.name}: `{cmd}` exited {rc}:\n{out}"
        # the result line: #bytes #iterations BW peak BW average MsgRate
        assert re.search(r"^\s*65536\s+5\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s*$", out, re.M), out
        assert re.search(r"GID index\s*:\s*1", out), out


def test_capture_decodes(pair):
    srv, _ = pair
    assert srv.pcap and os.path.exists(srv.pcap), f"no capture from the server: {srv.reason}"
    bad, ops = check_pcap.check(srv.pcap, expect=["SEND_FIRST", "SEND_LAST", "WRITE_FIRST",
                                                  "WRITE_MIDDLE", "WRITE_LAST", "ACKNOWLEDGE"])
    assert not bad, "\n".join(bad)
    # 5 x 64 KiB written at path MTU 1024: 5 x 64 WRITE packets at least
    writes = ops["WRITE_FIRST"] + ops["WRITE_MIDDLE"] + ops["WRITE_LAST"]
    assert writes >= 5 * 64, ops
