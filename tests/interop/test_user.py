"""The user-logic source (rtl/user, the console's `user`) against rdma_rxe: the NIC streams
RDMA WRITEs made by its source, with no firmware work per message, into a Linux guest.

One simulator (NIC 0 on a UDP socket, every frame into a pcap) and one guest boot. The
guest runs the unmodified `ib_write_bw -x 1 -s 65536 -n 5` as the server; the NIC connects
with perftest's exchange (the guest's buffer address and rkey) but runs no perftest test
itself: `user source start --len 65536 --count 32 --region 0x10000 --seed 21` writes 32
messages of the seeded pattern into the guest's buffer, each completing with success (rxe
ACKed it: the data is in the guest's memory). Every WRITE message in the capture (the wire,
not the NIC's word) must carry exactly the pattern bytes of its addresses (perftest's
write_bw QP allows no READ back, and perftest checks no data). `qpx finish` then ends the
perftest session and the guest's tool exits 0. The capture must decode in tshark with
correct ICRCs."""
import pathlib
import re
import sys
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "interop"))
sys.path.insert(0, str(REPO / "tests" / "interop"))
sys.path.insert(0, str(REPO / "tests" / "fw"))
import check_pcap   # noqa: E402
import nic_peer     # noqa: E402
from mempattern import pattern   # noqa: E402

OUT = REPO / "build" / "interop" / "user"
TESTS = ["ib_write_bw -x 1 -s 65536 -n 5"]
SEED = 21


@pytest.fixture(scope="module")
def run():
    with nic_peer.Session("user_source", TESTS, OUT, timeout=420, test_timeout=300) as ss:
        r = {"pcap": str(ss.pcap)}
        r["connect"] = ss.connect_retried(1, f"connect {nic_peer.GUEST_IP} --test write_bw",
                                          nic_peer.REFUSED_TCP, timeout=200)
        m = re.search(r"qpx: QP 0x(\w+) RTS", r["connect"])
        r["qpn"] = m and int(m.group(1), 16)
        r["start"] = ss.nic.cmd(f"user source start --len 65536 --count 32 --region 0x10000 --seed {SEED}", 60)
        end, out = time.monotonic() + 240, ""
        while time.monotonic() < end:
            out = ss.nic.cmd("user", 60)
            if "user source: done" in out:
                break
            time.sleep(1)
        r["user"] = out
        m = re.search(r"round 0x(\w+) \+ 0x10000 rkey 0x(\w+),", r["start"])
        r["raddr"], r["rkey"] = (int(m.group(1), 16), int(m.group(2), 16)) if m else (None, None)
        r["finish"] = ss.nic.cmd("qpx finish", 120)
        r["guest"] = ss.finish()
    r["nic_log"] = ss.nic_log
    return r


def test_exchange_gave_the_guests_buffer(run):
    assert run["qpn"], run["connect"]
    assert run["raddr"] is not None, run["start"]


def test_source_wrote_32_messages_without_error(run):
    m = re.search(r"user source: done, 32 posted, 32 completed, 0 errors, 0 unaligned, (\d+) cycles, ([0-9.]+) Gb/s",
                  run["user"])
    assert m, run["user"]
    print(f"source into rxe: {m.group(2)} Gb/s of simulated time ({m.group(1)} cycles)")


def write_messages(frames, src):
    """The RDMA WRITE messages src sent, from the capture: [(va, payload)], a
    retransmission (a PSN seen before) counted once."""
    seen, out, cur = set(), [], None
    for frame, _ in frames:
        pkt = check_pcap.roce_packet(frame)
        if not pkt or len(pkt[2]) < 16 or ".".join(str(b) for b in pkt[0][12:16]) != src:
            continue
        ib = pkt[2]
        op, pad, psn = ib[0], (ib[1] >> 4) & 3, int.from_bytes(ib[9:12], "big")
        if op not in (0x06, 0x07, 0x08, 0x0A) or psn in seen:
            continue
        seen.add(psn)
        hdr = 12 + (16 if op in (0x06, 0x0A) else 0)
        payload = ib[hdr:len(ib) - 4 - pad]
        if op in (0x06, 0x0A):
            cur = [int.from_bytes(ib[12:20], "big"), bytearray()]
        if cur is not None:
            cur[1] += payload
        if op in (0x08, 0x0A) and cur is not None:
            out.append((cur[0], bytes(cur[1])))
            cur = None
    return out


def test_every_write_carries_the_pattern_of_its_addresses(run):
    frames = check_pcap.read_pcap(open(run["pcap"], "rb").read())
    msgs = write_messages(frames, nic_peer.NIC_IP)
    assert len(msgs) == 32, [(hex(va), len(p)) for va, p in msgs]
    for va, data in msgs:
        assert va == run["raddr"] and len(data) == 65536, (hex(va), len(data))
        assert data == pattern(SEED, va, len(data)), f"message at {va:#x}: not the pattern of seed {SEED}"
        assert data != pattern(SEED + 1, va, len(data))


def test_guest_tool_ends_well(run):
    res = run["guest"]
    assert res.tests and res.tests[0][1] == 0, res.console[-2000:]


def test_capture(run):
    bad, ops = check_pcap.check(run["pcap"], expect=["WRITE_FIRST", "WRITE_LAST", "ACKNOWLEDGE"])
    assert not bad, "\n".join(bad)
    assert ops["WRITE_FIRST"] >= 32, ops
