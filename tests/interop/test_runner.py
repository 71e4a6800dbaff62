"""The interop runner and the pcap checker, without a peer.

- A guest that does not finish within its bound: run_guest.py kills QEMU and
  exits 124 with a message that says so, in about the bound.
- check_pcap.py accepts the reference captures and catches a corrupted ICRC.
- the runner reads a guest's console right (tests, exit codes, failures).
"""
import os
import pathlib
import struct
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "interop"))
sys.path.insert(0, str(REPO / "tests" / "interop"))
import check_pcap   # noqa: E402
import run_guest    # noqa: E402

DATA = REPO / "tests" / "interop" / "data"


def _qemu_with_port(port):
    """PIDs of processes whose command line names this UDP port."""
    pids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                cmd = open(f"/proc/{d}/cmdline", "rb").read().decode(errors="replace")
            except OSError:
                continue
            if "qemu-system" in cmd and f"local.port={port}," in cmd:
                pids.append(int(d))
    return pids


def test_guest_timeout_fails_cleanly():
    lp, rp = run_guest.free_udp_ports(2)
    bound = 12
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/python3", "interop/run_guest.py", "guest", "--ip", "10.0.0.9/24",
                        "--local-port", str(lp), "--remote-port", str(rp),
                        "--test", "sleep 600", "--timeout", str(bound)],
                       cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=bound + 60)
    took = time.monotonic() - t0
    assert p.returncode == 124, f"exit {p.returncode}, expected 124:\n{p.stdout}"
    assert f"did not finish within {bound} s" in p.stdout, p.stdout
    # the KVM probe may run first (once per host boot): allow for it
    assert took < bound + run_guest.KVM_PROBE_SECONDS + 20, f"took {took:.1f} s"
    assert not _qemu_with_port(lp), "QEMU still running after the runner returned"


def test_checker_accepts_reference_captures():
    for name in ("rc_pingpong.pcap", "write_bw.pcap"):
        bad, ops = check_pcap.check(str(DATA / name))
        assert not bad, f"{name}: " + "\n".join(bad)
        assert sum(ops.values()) > 0


def test_checker_catches_bad_icrc(tmp_path):
    data = bytearray((DATA / "write_bw.pcap").read_bytes())
    frames = check_pcap.read_pcap(bytes(data))
    # flip one payload byte of the first RoCE packet with a payload
    off = 24
    for f, _ in frames:
        off += 16
        if check_pcap.roce_packet(f) and len(f) > 200:
            data[off + 150] ^= 0x01
            break
        off += len(f)
    bad_file = tmp_path / "bad.pcap"
    bad_file.write_bytes(bytes(data))
    bad, _ = check_pcap.check(str(bad_file), tshark=False)
    assert any("ICRC" in b for b in bad), bad


class _Exited:
    returncode = 0


def _parse(console, tests, timed_out=False, ready=5.0):
    g = run_guest.Guest(run_guest.GuestSpec(ip="10.0.0.2/24", peer="10.0.0.1", local_port=1,
                                            remote_port=2, tests=tests, name="g"))
    g.proc, g.ready_at, g.disk = _Exited(), ready, ""
    return g._parse(console, timed_out, 1.0)


def test_console_parsing():
    ok = ("noise\n===SOLONIC-READY===\n===SOLONIC-TEST-BEGIN 1===\nhello\n"
          "===SOLONIC-TEST-END 1 rc=0===\n===SOLONIC-TEST-BEGIN 2===\nbye\n"
          "===SOLONIC-TEST-END 2 rc=3===\n===SOLONIC-DONE===\n")
    r = _parse(ok, ["echo hello", "x {peer}"])
    assert r.tests == [("echo hello", 0, "hello"), ("x 10.0.0.1", 3, "bye")]
    assert (r.ok, r.status) == (False, 3) and "`x 10.0.0.1` exited with 3" in r.reason
    r = _parse(ok.replace("rc=3", "rc=0"), ["a", "b"])
    assert r.ok and r.status == 0 and r.reason == ""
    r = _parse("===SOLONIC-FAIL rxe0 not ACTIVE after 30s===\n", ["a"], ready=-1)
    assert r.status == 2 and "rxe0 not ACTIVE" in r.reason
    r = _parse("Kernel panic\n", ["a"], ready=-1)
    assert r.status == 2 and "stopped before finishing" in r.reason
    r = _parse("booting\n", ["a"], timed_out=True, ready=-1)
    assert r.status == 124 and "never became ready" in r.reason


def test_checker_echo():
    """ibv_rc_pingpong's server receives into its buffer and sends that buffer: the
    reference capture (two rxe guests, -n 3 -s 2048, no --chk) is an echo."""
    frames = check_pcap.read_pcap((DATA / "rc_pingpong.pcap").read_bytes())
    convs, bad = check_pcap.check_echo(frames)
    assert not bad, bad
    assert len(convs) == 1
    (a, ma), (b, mb) = convs[0]["first"], convs[0]["second"]
    assert (a, b, len(ma), len(mb)) == ("10.0.0.2", "10.0.0.1", 3, 3)
    assert all(len(m) == 2048 for m in ma + mb)
    # without --chk the client's buffer is all 0x7b: not --chk's (0 at each page start)
    _, bad = check_pcap.check_echo(frames, pattern_from="10.0.0.2")
    assert len(bad) == 3 and all("not --chk's buffer" in b for b in bad), bad
    # one byte changed in the server's second answer: caught
    data = bytearray((DATA / "rc_pingpong.pcap").read_bytes())
    off, seen = 24, 0
    for f, _ in frames:
        off += 16
        p = check_pcap.roce_packet(f)
        if p and p[0][12:16] == bytes([10, 0, 0, 1]) and p[2][0] == 0x00:   # SEND_FIRST
            seen += 1
            if seen == 2:
                data[off + 14 + 20 + 8 + 12 + 100] ^= 0x40
                break
        off += len(f)
    _, bad = check_pcap.check_echo(check_pcap.read_pcap(bytes(data)))
    assert any("message 2 came back different" in b and "byte 100" in b for b in bad), bad


def _pcap(frames):
    """A classic little-endian microsecond pcap of Ethernet frames."""
    out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    for i, f in enumerate(frames):
        out += struct.pack("<IIII", 0, i, len(f), len(f)) + f
    return out


def test_checker_accepts_one_byte_sends(tmp_path):
    """A 1-byte SEND ONLY (3 pad bytes) and its ACK are well-formed RoCE: tshark's
    RPC-over-RDMA heuristic would call the SEND malformed, so the check turns it off."""
    from scapy.all import IP, UDP, Ether  # python3-scapy
    frames = []
    for src, dst, bth, payload in (
            ("10.0.0.2", "10.0.0.1", bytes([0x04, 0x70, 0xFF, 0xFF, 0, 0, 0, 0x11, 0x80, 0, 0, 7]), b"\x2a\0\0\0"),
            ("10.0.0.1", "10.0.0.2", bytes([0x11, 0x00, 0xFF, 0xFF, 0, 0, 0, 0x12, 0, 0, 0, 7]),
             bytes([0x1F, 0, 0, 8]))):  # ACK: AETH syndrome ACK, MSN 8
        pkt = Ether(src="02:00:00:00:00:02", dst="02:00:00:00:00:01") / IP(src=src, dst=dst, flags="DF", id=1) / \
            UDP(sport=49152, dport=4791, chksum=0) / (bth + payload + b"\0\0\0\0")
        raw = bytearray(bytes(pkt))
        ip_hdr, udp_hdr, ib = check_pcap.roce_packet(bytes(raw))
        raw[-4:] = struct.pack("<I", check_pcap.icrc(ip_hdr, udp_hdr, ib))
        frames.append(bytes(raw))
    path = tmp_path / "one_byte_send.pcap"
    path.write_bytes(_pcap(frames))
    bad, ops = check_pcap.check(str(path))
    assert not bad, bad
    assert sum(ops.values()) == 2, ops


def test_nic_peer_refuses_steps_perftest_would_refuse():
    """A step perftest itself refuses (fewer than 5 iterations) fails at once, named,
    instead of waiting for a guest tool that already exited."""
    import nic_peer
    assert nic_peer.Step.parse("server:write_bw:4096:5").iters == 5
    assert nic_peer.Step.parse("client:pingpong:64:1").iters == 1
    st = nic_peer.Step.parse("server:write_bw:4096:5:2")
    assert st.qps == 2 and " -q 2" in st.guest_cmd() and st.nic_cmds(50)[1].endswith(" --qps 2")
    for spec, want in (("server:write_bw:4096:4", "perftest refuses fewer than 5 iterations (-n 4)"),
                       ("server:write:64:5", "bad step server:write"),
                       ("server:write_bw:64", "expected ROLE:TEST:SIZE:ITERS[:QPS]"),
                       ("server:write_lat:64:5:2", "QPS 1..16, and only for the bandwidth tests"),
                       ("server:write_bw:x:5", "SIZE, ITERS and QPS are numbers"),
                       ("server:write_bw:4096:5:m3000", "MTU is one of 256, 512, 1024, 2048, 4096"),
                       ("server:write_bw:4096:5:eth9216", "the guest's link MTU is 576..9000"),
                       ("server:write_bw:4096:5:a", "-a is for write_bw, read_bw, send_bw"),
                       ("server:write_lat:8388608:5:a", "-a is for write_bw, read_bw, send_bw"),
                       ("server:write_bw:4096:5:x", "unknown flag 'x'")):
        try:
            nic_peer.Step.parse(spec)
        except ValueError as e:
            assert want in str(e), (spec, str(e))
        else:
            raise AssertionError(f"{spec} accepted")
    # the flags: the tools' command lines, and the path MTU each step's QPs must get
    st = nic_peer.Step.parse("client:read_bw:65536:5:eth9000:m2048")
    assert (st.mtu, st.link_mtu) == (2048, 9000), st
    assert st.guest_cmd() == "ip link set eth0 mtu 9000 && ib_read_bw -x 1 -s 65536 -n 5 -m 2048"
    assert st.expected_pmtu(1500) == 2048
    st = nic_peer.Step.parse("server:write_bw:8388608:5:a")
    assert st.guest_cmd() == "ib_write_bw -x 1 -a -n 5 {peer}" and st.nic_cmds(9)[0].endswith("-s 8388608 --idle 9")
    pp = nic_peer.Step.parse("server:pingpong:10001:3:m4096")
    assert pp.nic_cmds(9)[1].endswith(" --mtu 4096") and pp.guest_cmd().endswith(" -m 4096 {peer}")
    # rxe: 80 header bytes (RXE_MAX_HDR_LENGTH) under the link MTU, the largest IB MTU
    assert [nic_peer.rxe_active_mtu(m) for m in (1500, 1103, 1104, 2175, 4176, 9000)] == \
        [1024, 512, 1024, 2048, 4096, 4096]
    # perftest: the smaller of both offers (the NIC's 4096); pingpong: 1024 unless -m
    assert [nic_peer.Step("server", "write_bw", 64, 5).expected_pmtu(m) for m in (1500, 9000)] == [1024, 4096]
    assert nic_peer.Step("server", "pingpong", 64, 5).expected_pmtu(9000) == 1024
    p = subprocess.run([sys.executable, str(REPO / "interop/nic_peer.py"), "run", "--name", "x",
                        "--step", "server:read_bw:64:2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60)
    assert p.returncode == 2 and "fewer than 5 iterations" in p.stderr, (p.returncode, p.stderr)


def test_checker_path_mtu():
    """path_mtus / pmtu_problems: a flow's FIRST and MIDDLE packets carry its path MTU
    exactly (RETH, AETH, pad bytes and ICRC not counted), no packet more; a READ request's
    RETH is no payload."""
    from scapy.all import IP, UDP, Ether  # python3-scapy

    def frame(op, payload, ext=b"", src="10.0.0.2", dst="10.0.0.1", qpn=0x11, pad=0):
        bth = bytes([op, pad << 4, 0xFF, 0xFF, 0, 0, 0, qpn, 0, 0, 0, 1])
        raw = bytes(Ether() / IP(src=src, dst=dst) / UDP(sport=49152, dport=4791) /
                    (bth + ext + payload + b"\0" * pad + b"\0" * 4))
        return raw, len(raw)
    write = [frame(0x06, b"a" * 4096, b"\0" * 16), frame(0x07, b"a" * 4096), frame(0x08, b"a" * 99, pad=1)]
    read = [frame(0x0C, b"", b"\0" * 16, src="10.0.0.1", dst="10.0.0.2", qpn=0x12),
            frame(0x0D, b"b" * 1024, b"\0" * 4, qpn=0x11), frame(0x0F, b"b" * 8, b"\0" * 4, qpn=0x11)]
    got = check_pcap.path_mtus(write + read[:1])
    assert got == {("10.0.0.2", "10.0.0.1", 0x11, 49152): ({4096}, 4096),
                   ("10.0.0.1", "10.0.0.2", 0x12, 49152): (set(), 0)}, got
    assert check_pcap.pmtu_problems(write + read[:1], 4096) == []
    bad = check_pcap.pmtu_problems(write + read, 4096)      # a 1024-byte READ response FIRST
    assert bad == ["10.0.0.2 -> 10.0.0.1 QP 0x11: full packets of [1024, 4096] bytes, path MTU 4096 expected"], bad
    bad = check_pcap.pmtu_problems(read, 512)
    assert len(bad) == 2 and "above the path MTU 512" in bad[1], bad
