#!/usr/bin/env python3
"""Run the unmodified Linux tools in an interop guest against the simulated NIC.

One run = one simulator (build/sim/solonic_sim, NIC 0's Ethernet port on a UDP
datagram socket on 127.0.0.1, every frame into a pcap) and one guest (rdma_rxe,
interop/run_guest.py) whose -netdev dgram points at it. The guest is 10.0.0.2,
the NIC 10.0.0.1 (instance 0's default). A run executes a list of steps in
order, one guest boot for all of them:

  NIC as server: 'tool on ...' and 'listen ...' on the NIC's console, the tool
                 in the guest as client (it retries while the NIC is not
                 listening yet);
  NIC as client: the tool in the guest as server, 'tool on ...' and
                 'connect 10.0.0.2 ...' on the NIC's console once the guest runs
                 it (retried while refused).

The NIC's data phase (fw/roce/qpx_tool.c) ends each step with one line
"tool: ...: ok" (or FAILED). A step passes when the guest's tool exited 0 with
its result lines and the NIC's line says ok. Every wait is bounded.

    nic_peer.py run --name pp --step 'server:pingpong:2048:5' --step 'server:write_bw:4096:5'
    nic_peer.py table build/interop/nic/*.json

    nic_peer.py run --name jumbo --mtu 9000 --step 'server:write_bw:65536:5:m4096'

Step spec: ROLE:TEST:SIZE:ITERS[:QPS][:R][:a][:mMTU][:ethMTU], ROLE server|client (the
NIC's role), TEST pingpong|write_bw|read_bw|send_bw|write_lat|read_lat|send_lat|atomic_bw|
atomic_lat (SIZE 8: perftest's atomics are 8 bytes and take no -s). Flags: R perftest -R
(the QPs through RDMA CM); a perftest -a (2 B .. 8 MiB; SIZE 8388608, the NIC's size);
m4096 the tool's -m (pingpong: the NIC's --mtu too); eth9000 the guest's eth0 MTU set
first (`ip link set`, rxe follows). --mtu: the guest's eth0 MTU from boot (9000: rxe's
active MTU 4096). Each step's QPs must get the path MTU both tools' rules give (the
NIC's "QP ... RTS" lines; Step.expected_pmtu). From Python: run(name, [Step(...)]) ->
RunResult; Session(...) is one simulator and one guest for a test of its own.
"""
import argparse
import dataclasses
import json
import os
import pathlib
import re
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "interop"))
sys.path.insert(0, str(REPO / "scripts"))
import nicsim       # noqa: E402
import run_guest    # noqa: E402

SIM = nicsim.SIM     # $SOLONIC_SIM, else build/sim/solonic_sim
FW = nicsim.FW       # $SOLONIC_FW, else build/fw/solonic.hex
OUT = REPO / "build" / "interop" / "nic"
NIC_IP, GUEST_IP = "10.0.0.1", "10.0.0.2"
PROMPT = re.escape(nicsim.PROMPT)
PERFTEST = ("write_bw", "read_bw", "send_bw", "write_lat", "read_lat", "send_lat", "atomic_bw", "atomic_lat")
RDMA_CM_MAX_QPS = 8     # the NIC's RDMA CM connections (fw/roce/cm.h CM_MAX_CONNS)
PERFTEST_MIN_ITERS = 5  # perftest's own floor for -n: fewer and the guest's tool exits at once
IB_MTUS = (256, 512, 1024, 2048, 4096)
GUEST_MAX_MTU = 9000    # the guest's eth0 (virtio-net); the NIC takes frames up to 9018 bytes
ALL_SIZES = [1 << i for i in range(1, 24)]   # perftest -a: 2 B .. 8 MiB
STEP_SPEC = "ROLE:TEST:SIZE:ITERS[:QPS][:R][:a][:mMTU][:ethMTU]"
# the NIC's console line for each QP it programs (fw/roce/qpx.c program_qp)
RTS_RE = re.compile(r"^qpx: QP 0x[0-9a-f]+ RTS: .*, PMTU (\d+),", re.M)
LAT_RE = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+"
                    r"([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s*$", re.M)
BW_RE = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s*$", re.M)
# A NIC client's data phase ends after this much simulated time without a
# completion: the simulator runs at about 30-250 k cycles/s beside a TCG guest,
# so 10 ms (2.5 M cycles) is 10-80 s of wall time, well inside a step's 240 s.
# The guest answers within about a second of wall time (about 1 ms simulated at most);
# the transport's own ACK timeout (67 ms) is longer than this: a lost response
# ends the run here with a FAILED line instead of a recovery minutes later.
CLIENT_IDLE_MS = 10
TOOL_LINE_RE = re.compile(r"^tool: .*: (ok|FAILED.*)\r?$", re.M)


@dataclasses.dataclass
class Step:
    role: str          # the NIC's: server (listen) or client (connect)
    test: str          # pingpong or one of PERFTEST
    size: int
    iters: int = 5
    qps: int = 1       # perftest -q (the NIC: --qps), bandwidth tests only
    rdma_cm: bool = False  # perftest -R (the NIC: --rdma-cm): the QPs through RDMA CM
    mtu: int = 0       # the tool's -m (pingpong: the NIC's --mtu too; perftest: the NIC offers
                       # its default, 4096, and both take the smaller offer); 0: no flag
    link_mtu: int = 0  # first `ip link set eth0 mtu LINK_MTU` in the guest (rxe follows); 0: leave
    all_sizes: bool = False  # perftest -a (2 B .. 8 MiB, ITERS each; SIZE: the NIC's, 8 MiB)

    def __post_init__(self):
        if self.role not in ("server", "client") or self.test not in ("pingpong",) + PERFTEST:
            raise ValueError(f"bad step {self.role}:{self.test}: expected server|client and pingpong or "
                             + "|".join(PERFTEST))
        if self.test != "pingpong" and self.iters < PERFTEST_MIN_ITERS:
            raise ValueError(f"step {self.label()}: perftest refuses fewer than {PERFTEST_MIN_ITERS} "
                             f"iterations (-n {self.iters})")
        if self.iters < 1 or self.size < 1:
            raise ValueError(f"step {self.label()}: size and iterations must be at least 1")
        if self.test.startswith("atomic") and self.size != 8:
            raise ValueError(f"step {self.label()}: perftest's atomics are 8 bytes: SIZE 8")
        if self.qps != 1 and (self.test not in PERFTEST or self.is_lat() or not 1 <= self.qps <= 16):
            raise ValueError(f"step {self.label()}: QPS 1..16, and only for the bandwidth tests")
        if self.rdma_cm and (self.test not in PERFTEST or self.qps > RDMA_CM_MAX_QPS):
            raise ValueError(f"step {self.label()}: -R is perftest's, with QPS 1..{RDMA_CM_MAX_QPS}")
        if self.mtu and self.mtu not in IB_MTUS:
            raise ValueError(f"step {self.label()}: MTU is one of {', '.join(map(str, IB_MTUS))}")
        if self.link_mtu and not 576 <= self.link_mtu <= GUEST_MAX_MTU:
            raise ValueError(f"step {self.label()}: the guest's link MTU is 576..{GUEST_MAX_MTU}")
        if self.all_sizes and (self.test not in ("write_bw", "read_bw", "send_bw") or self.rdma_cm
                               or self.size != ALL_SIZES[-1]):
            raise ValueError(f"step {self.label()}: -a is for write_bw, read_bw, send_bw without -R, "
                             f"with SIZE {ALL_SIZES[-1]} (its largest message)")

    @classmethod
    def parse(cls, spec):
        parts, kw = spec.split(":"), {}
        while len(parts) > 4 and not parts[-1].isdigit():   # the trailing flags
            f = parts.pop()
            m = re.fullmatch(r"(m|eth)(\d+)", f)
            if f == "R":
                kw["rdma_cm"] = True
            elif f == "a":
                kw["all_sizes"] = True
            elif m:
                kw["mtu" if m.group(1) == "m" else "link_mtu"] = int(m.group(2))
            else:
                raise ValueError(f"bad step {spec!r}: unknown flag {f!r} (R, a, mMTU, ethMTU)")
        if len(parts) not in (4, 5):
            raise ValueError(f"bad step {spec!r}: expected {STEP_SPEC}")
        role, test = parts[:2]
        try:
            nums = [int(x, 0) for x in parts[2:]]
        except ValueError:
            raise ValueError(f"bad step {spec!r}: SIZE, ITERS and QPS are numbers") from None
        return cls(role, test, *nums, **kw)

    def guest_cmd(self):
        if self.test == "pingpong":
            cmd = f"ibv_rc_pingpong -g 1 -n {self.iters} -s {self.size} --chk"
        else:
            # perftest picks the IPv4 RoCE v2 GID (index 1) itself; -x 1 says so anyway
            size = "" if self.test.startswith("atomic") else f" -s {self.size}"  # atomics: 8 B, no -s
            if self.all_sizes:
                size = " -a"
            cmd = f"ib_{self.test} -x 1{size} -n {self.iters}"
            if self.qps > 1:
                cmd += f" -q {self.qps}"
            if self.rdma_cm:
                cmd += " -R"
        if self.mtu:
            cmd += f" -m {self.mtu}"
        if self.link_mtu:
            cmd = f"ip link set eth0 mtu {self.link_mtu} && {cmd}"
        return cmd + (" {peer}" if self.role == "server" else "")

    def nic_cmds(self, idle_ms):
        if self.test == "pingpong":
            tool = f"tool on -n {self.iters} -s {self.size} --idle {idle_ms}"
            xchg = "listen --wait 600000" if self.role == "server" else f"connect {GUEST_IP}"
        else:
            tool = f"tool on -n {self.iters} -s {self.size} --idle {idle_ms}"
            xchg = (f"listen --tool perftest --test {self.test} --wait 600000"
                    if self.role == "server" else f"connect {GUEST_IP} --test {self.test}")
            if self.qps > 1:
                xchg += f" --qps {self.qps}"
            if self.rdma_cm:
                xchg += " --rdma-cm"
        if self.mtu and self.test == "pingpong":
            xchg += f" --mtu {self.mtu}"   # rc_pingpong's exchange carries no MTU: both are told
        return tool, xchg

    def expected_pmtu(self, link_mtu):
        """The path MTU the QPs must get, the guest's eth0 at link_mtu (this step's own
        link_mtu wins): pingpong has no MTU in its exchange, both sides use their -m (the
        NIC's --mtu; 1024 both without); perftest takes the smaller of both offers, the
        NIC's 4096 and the guest's -m or else rxe's active MTU."""
        if self.test == "pingpong":
            return self.mtu or 1024
        return min(4096, self.mtu or rxe_active_mtu(self.link_mtu or link_mtu))

    def is_lat(self):
        return self.test.endswith("_lat")

    def guest_prints_result(self):
        """ib_read_lat's and ib_atomic_lat's servers measure nothing and print no result line."""
        return not (self.test in ("read_lat", "atomic_lat") and self.role == "client")

    def label(self):
        tool = "ibv_rc_pingpong" if self.test == "pingpong" else f"ib_{self.test}"
        q = f" -q {self.qps}" if self.qps > 1 else ""
        r = " -R" if self.rdma_cm else ""
        m = f" -m {self.mtu}" if self.mtu else ""
        e = f" (eth0 MTU {self.link_mtu})" if self.link_mtu else ""
        s = "-a" if self.all_sizes else f"-s {self.size}"
        return f"{tool} {s} -n {self.iters}{q}{r}{m}{e}, NIC {self.role}"


def rxe_active_mtu(link_mtu):
    """rdma_rxe's active MTU on an Ethernet link of link_mtu bytes: the largest IB MTU
    that fits with its 80 header bytes (RXE_MAX_HDR_LENGTH: 1500 -> 1024, 9000 -> 4096)."""
    room = link_mtu - 80
    return max([m for m in IB_MTUS if m <= room] or [0])


@dataclasses.dataclass
class StepResult:
    step: Step
    ok: bool = False
    why: str = ""
    guest_rc: int = -1
    guest_out: str = ""
    nic_out: str = ""
    nic_line: str = ""
    figures: str = ""
    seconds: float = 0.0
    pmtu: int = 0      # the path MTU of the step's QPs, from the NIC's RTS lines (0: none printed)


@dataclasses.dataclass
class RunResult:
    name: str
    ok: bool
    why: str
    steps: list
    pcap: str
    seconds: float
    boot_seconds: float
    nic_log: str
    guest_console: str
    sim_stats: str = ""
    counters: dict = dataclasses.field(default_factory=dict)


def _figures(step, out):
    """The tool's own result line(s), condensed."""
    if step.test == "pingpong":
        m1 = re.search(r"^(\d+) bytes in ([0-9.]+) seconds = ([0-9.]+) Mbit/sec", out, re.M)
        m2 = re.search(r"^(\d+) iters in [0-9.]+ seconds = ([0-9.]+) usec/iter", out, re.M)
        if m1 and m2:
            return f"{m1.group(1)} B in {m1.group(2)} s = {m1.group(3)} Mbit/s, {m2.group(2)} usec/iter"
        return ""
    if step.is_lat():
        m = LAT_RE.search(out)
        if m:
            return (f"{m.group(1)} B x {m.group(2)}: t_min {m.group(3)} us, t_typical "
                    f"{m.group(5)} us, t_avg {m.group(6)} us")
        return "" if step.guest_prints_result() else "(the server measures nothing)"
    rows = BW_RE.findall(out)
    if rows and step.all_sizes and len(rows) > 1:
        return (f"{len(rows)} sizes {rows[0][0]} .. {rows[-1][0]} B x {rows[0][1]}: "
                f"BW average {rows[0][3]} .. {rows[-1][3]} MB/s")
    if rows:
        r = rows[-1]
        return f"{r[0]} B x {r[1]}: BW peak {r[2]} MB/s, average {r[3]} MB/s, {r[4]} Mpps"
    return ""


def _guest_ok(step, out):
    if step.test == "pingpong":
        want = step.size * step.iters * 2
        if not re.search(rf"^{want} bytes in [0-9.]+ seconds", out, re.M):
            return f"no '{want} bytes in ... seconds' line"
        if not re.search(rf"^{step.iters} iters in [0-9.]+ seconds", out, re.M):
            return f"no '{step.iters} iters in ...' line"
        if "invalid data" in out:
            return "the tool found invalid data (--chk)"
        return ""
    if not step.guest_prints_result():
        return ""
    iters = step.iters * step.qps  # perftest -q N counts every QP's messages
    if step.all_sizes and step.role == "server":
        # the guest's client ran every size and printed a line for each
        got = [(int(a), int(b)) for a, b, *_ in BW_RE.findall(out)]
        want = [(n, iters) for n in ALL_SIZES]
        return "" if got == want else f"-a: result lines for {got}, expected {want[0]} .. {want[-1]}"
    m = (LAT_RE if step.is_lat() else BW_RE).search(out)
    if not m or int(m.group(1)) != step.size or int(m.group(2)) != iters:
        return f"no result line '{step.size} {iters} ...'"
    return ""


class SimNic:
    """solonic_sim with NIC 0 on a UDP socket and its console on pipes."""

    def __init__(self, lport, rport, pcap, max_seconds, fw=FW, sim=SIM):
        self.cmdline = [str(sim), "--fw", str(fw), "--eth0", f"udp:{lport}:{rport}",
                        "--pcap", str(pcap), "--max-seconds", str(int(max_seconds)),
                        "--max-cycles", str(10**12), "--stats"]
        self.err_path = str(pcap) + ".sim.txt"

    def start(self):
        self.err = open(self.err_path, "w")
        self.proc = subprocess.Popen(self.cmdline, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err, bufsize=0, start_new_session=True)
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.con = nicsim.Console("NIC 0", self.proc.stdout.fileno(), self.proc.stdin.fileno(),
                                  self.proc)
        self.con.wait_for(PROMPT, 60)
        return self

    def cmd(self, line, timeout=60.0):
        return self.con.cmd(line, timeout)

    def stop(self):
        if self.proc.poll() is None:
            try:
                self.con.send("exit 0")
                self.proc.wait(timeout=20)
            except (OSError, subprocess.TimeoutExpired):
                os.killpg(self.proc.pid, 9)
                self.proc.wait()
        self.err.close()
        return pathlib.Path(self.err_path).read_text(errors="replace")


def _wait_guest_line(guest, pattern, timeout):
    rx = re.compile(pattern)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if any(rx.search(ln) for ln in list(guest.lines)):
            return True
        if guest.proc.poll() is not None:
            return False
        time.sleep(0.2)
    return False


# what the NIC's console says when the guest's server is not listening yet: the TCP
# exchange refused, or an RDMA CM REQ answered with a REJ
REFUSED_TCP = r"^connect: .*cannot connect to|^qpx: (cannot connect|no answer)"
REFUSED_CM = r"rejected the connection request"


class Session:
    """One simulator and one guest for a run: the simulator (NIC 0 on a UDP socket on
    127.0.0.1, every frame into OUT_DIR/NAME.pcap) and a guest (GUEST_IP, eth0 at `mtu`,
    its -netdev dgram pointed at the simulator) that runs `tests` in order as the
    client role (each retried while the NIC is not listening yet).

        with Session("cm", tests, out_dir) as ss:
            ss.nic.cmd(...); ss.connect_retried(2, "connect --cm 10.0.0.2", REFUSED_CM)
            res = ss.finish()

    finish() waits for the guest (bounded by `timeout`; kill=True ends it first). On the
    way out the guest is killed if still running (an error in the block), the
    simulator stopped (ss.sim_stats: its --stats text) and both consoles saved as
    NAME.nic.txt and NAME.guest.txt. Every wait is bounded."""

    def __init__(self, name, tests, out_dir=OUT, timeout=600.0, test_timeout=240, mtu=1500,
                 accel="auto", wait=60):
        self.name, self.out_dir = name, pathlib.Path(out_dir)
        self.pcap = self.out_dir / f"{name}.pcap"
        self.tests, self.timeout, self.test_timeout = list(tests), timeout, int(test_timeout)
        self.mtu, self.accel, self.wait = mtu, accel, wait
        self.nic = self.guest = self.result = None
        self.sim_stats, self.nic_log = "", ""

    def __enter__(self):
        self.out_dir.mkdir(parents=True, exist_ok=True)
        for suffix in (".pcap", ".json", ".nic.txt", ".guest.txt", ".pcap.sim.txt"):
            (self.out_dir / f"{self.name}{suffix}").unlink(missing_ok=True)
        lport, rport = run_guest.free_udp_ports(2)
        self.nic = SimNic(lport, rport, self.pcap, self.timeout + 60).start()
        try:
            spec = run_guest.GuestSpec(ip=f"{GUEST_IP}/24", peer=NIC_IP, role="client", name="guest",
                                       local_port=rport, remote_port=lport, tests=self.tests,
                                       timeout=self.timeout, test_timeout=self.test_timeout,
                                       wait=self.wait, accel=self.accel, mtu=self.mtu)
            self.guest = run_guest.Guest(spec).start()
        except BaseException:
            self.nic.stop()
            raise
        return self

    def finish(self, kill=False):
        """The guest's result (run_guest.GuestResult) once it has powered off."""
        if self.result is None:
            if kill:
                self.guest.kill()
            self.result = self.guest.wait()
        return self.result

    def connect_retried(self, n, line, refused, timeout=240.0, window=150.0):
        """Once the guest has started its n-th test (at most `timeout` s), send `line` on
        the NIC's console every second while the answer matches `refused` (the guest's
        server is not listening yet), for at most `window` s. The console output of every
        attempt; a note instead when the guest never started that test."""
        if not _wait_guest_line(self.guest, rf"\] RUN {n}: ", timeout):
            return "(the guest never started the test)\n"
        out, end = "", time.monotonic() + window
        while True:
            time.sleep(1.0)
            ans = self.nic.cmd(line, timeout)
            out += ans
            if not re.search(refused, ans, re.M) or time.monotonic() > end:
                return out

    def __exit__(self, exc_type, exc, tb):
        if self.guest is not None and self.result is None:
            self.guest.kill()
            self.result = self.guest.wait()
        self.sim_stats = self.nic.stop()
        self.nic_log = self.nic.con.transcript()
        (self.out_dir / f"{self.name}.nic.txt").write_text(self.nic_log)
        if self.result is not None:
            (self.out_dir / f"{self.name}.guest.txt").write_text(self.result.console)
        return False


def _nic_server(nic, step, idle_ms, timeout):
    tool, xchg = step.nic_cmds(idle_ms)
    out = nic.cmd(tool)
    nic.con.send(xchg)
    out += nic.con.wait_for(PROMPT, timeout)        # listen returns after the exchange
    if re.search(r"^(listen|qpx): .*(RESET|failed|cannot|no client|stopped)", out, re.M):
        return out, ""
    # pingpong: the loop's line; perftest: the end-of-test exchange, then the line
    # (a line end may come as \r\n split over two reads: nicsim leaves the \r then);
    # listen waits while the NIC runs its side of a lat test: the line may be in out
    m = TOOL_LINE_RE.search(out)
    if m:
        return out, m.group(0).strip()
    m_out = nic.con.wait_for(r"^(tool: .*: (ok|FAILED.*)|qpx: .*(RESET|stopped).*)\r?$", timeout)
    out += m_out
    return out, m_out.strip().splitlines()[-1].strip()


def _nic_client(ss, n, step, idle_ms, timeout):
    tool, xchg = step.nic_cmds(idle_ms)
    out = ss.nic.cmd(tool)
    # the guest's n-th test has started; its server needs a moment to listen
    ans = ss.connect_retried(n, xchg, REFUSED_TCP, timeout, timeout)
    out += ans
    nic = ss.nic
    # a perftest client's connect returns after its test and the end-of-test exchange
    m = TOOL_LINE_RE.search(out)
    if m:
        return out, m.group(0).strip()
    if not ("exchange with" in ans and "done" in ans):
        return out, ""
    m_out = nic.con.wait_for(r"^tool: .*: (ok|FAILED.*)\r?$", timeout)
    out += m_out
    return out, m_out.strip().splitlines()[-1].strip()


def run(name, steps, timeout=600.0, step_timeout=240.0, idle_ms=2000, out_dir=OUT, accel="auto",
        client_idle_ms=CLIENT_IDLE_MS, mtu=1500):
    """One simulator and one guest (eth0 at `mtu`); the steps in order. Writes NAME.pcap,
    NAME.json, NAME.nic.txt and NAME.guest.txt into out_dir. idle_ms bounds a NIC server's
    run without progress, client_idle_ms a NIC client's (both simulated time)."""
    t0 = time.monotonic()
    results, why, counters = [], "", {}
    with Session(name, [s.guest_cmd() for s in steps], out_dir, timeout, step_timeout, mtu,
                 accel) as ss:
        for i, step in enumerate(steps, 1):
            r = StepResult(step)
            ts = time.monotonic()
            try:
                if step.role == "server":
                    r.nic_out, r.nic_line = _nic_server(ss.nic, step, idle_ms, step_timeout)
                else:
                    r.nic_out, r.nic_line = _nic_client(ss, i, step, client_idle_ms, step_timeout)
            except nicsim.ConsoleTimeout as e:
                r.nic_out += f"\n{e}\n"
            r.seconds = time.monotonic() - ts
            results.append(r)
            if not r.nic_line.endswith(": ok"):
                why = f"step {i} ({step.label()}): the NIC side did not finish well"
                break
        # no use waiting for the guest's remaining tests after a failed step
        res = ss.finish(kill=bool(why))
        try:                # the transport's counters: rxe's retransmissions show as resp_dup
            txt = ss.nic.cmd("stats", 30)
            counters = {k: int(v) for k, v in re.findall(r"\b([a-z_]+) (\d+)\b",
                        "\n".join(ln for ln in txt.splitlines() if ln.startswith("roce")))}
        except (nicsim.ConsoleTimeout, OSError):
            pass
    link = mtu
    for i, r in enumerate(results):
        link = r.step.link_mtu or link          # a step's `ip link set` lasts
        if i < len(res.tests):
            _, r.guest_rc, r.guest_out = res.tests[i]
            r.figures = _figures(r.step, r.guest_out)
        bad = []
        if r.guest_rc != 0:
            bad.append(f"the guest's tool exited {r.guest_rc}" if r.guest_rc >= 0
                       else "the guest's tool did not run to its end")
        elif _guest_ok(r.step, r.guest_out):
            bad.append(_guest_ok(r.step, r.guest_out))
        if not r.nic_line.endswith(": ok"):
            bad.append("NIC: " + (r.nic_line or "no summary line (" +
                                  (r.nic_out.strip().splitlines() or ["nothing"])[-1] + ")"))
        # the path MTU the NIC programmed (perftest -R: through RDMA CM, no RTS line)
        pm = {int(x) for x in RTS_RE.findall(r.nic_out)}
        want = r.step.expected_pmtu(link)
        r.pmtu = max(pm) if pm else 0
        if pm and pm != {want}:
            bad.append(f"the NIC's QPs got path MTU {sorted(pm)}, expected {want} "
                       f"(the guest's eth0 at MTU {link})")
        elif not pm and not r.step.rdma_cm and r.nic_line:
            bad.append("the NIC printed no QP RTS line (its path MTU)")
        r.ok, r.why = not bad, "; ".join(bad)
    ok = bool(results) and len(results) == len(steps) and all(r.ok for r in results) and res.ok
    if not ok and not why:
        why = next((f"step {i}: {r.why}" for i, r in enumerate(results, 1) if not r.ok), "") \
            or res.reason or "not every step ran"
    rr = RunResult(name, ok, why, results, str(ss.pcap), time.monotonic() - t0,
                   res.ready_seconds, ss.nic_log, res.console, ss.sim_stats, counters)
    (pathlib.Path(out_dir) / f"{name}.json").write_text(json.dumps(_summary(rr), indent=1) + "\n")
    return rr


def _summary(rr):
    return {"name": rr.name, "ok": rr.ok, "why": rr.why, "pcap": rr.pcap,
            "seconds": round(rr.seconds, 1), "boot_seconds": round(rr.boot_seconds, 1),
            "counters": {k: v for k, v in rr.counters.items()
                         if k in ("rx_packets", "tx_packets", "resp_dup", "req_retrans",
                                  "resp_nak_seq", "resp_nak_rnr", "rx_icrc_bad")},
            "steps": [{"tool": "ibv_rc_pingpong" if r.step.test == "pingpong" else f"ib_{r.step.test}",
                       "size": "-a" if r.step.all_sizes else r.step.size, "iters": r.step.iters,
                       "role": f"NIC {r.step.role}", "pmtu": r.pmtu,
                       "ok": r.ok, "why": r.why, "figures": r.figures, "nic": r.nic_line,
                       "guest_rc": r.guest_rc, "seconds": round(r.seconds, 1),
                       "guest_cmd": r.step.guest_cmd().replace("{peer}", NIC_IP)}
                      for r in rr.steps]}


def table(summaries):
    """The summary table of `make interop`."""
    rows = [("run", "tool", "size", "n", "role", "pmtu", "result", "s", "tool's figures / why")]
    for s in summaries:
        for st in s["steps"]:
            # the tool's flags that change what it does: -q, -R, -m
            flags = re.findall(r" (-q \d+|-R|-m \d+)", st.get("guest_cmd", ""))
            rows.append((s["name"], " ".join([st["tool"]] + flags), str(st["size"]), str(st["iters"]), st["role"],
                         str(st.get("pmtu") or "-"), "pass" if st["ok"] else "FAIL",
                         f"{st['seconds']:.0f}", st["figures"] if st["ok"] else st["why"]))
        if not s["steps"]:
            rows.append((s["name"], "", "", "", "", "", "FAIL", "", s["why"]))
    w = [max(len(r[i]) for r in rows) for i in range(8)]
    lines = ["  ".join(c.ljust(w[i]) for i, c in enumerate(r[:8])) + "  " + r[8] for r in rows]
    lines.insert(1, "-" * min(140, max(len(ln) for ln in lines)))
    for s in summaries:
        c = s.get("counters", {})
        lines.append(f"run {s['name']}: {'ok' if s['ok'] else 'FAILED: ' + s['why']}, "
                     f"{s['seconds']:.0f} s (guest ready after {s['boot_seconds']:.0f} s); NIC: "
                     + (", ".join(f"{k} {v}" for k, v in c.items()) or "no counters"))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[2:]))
    sub = ap.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("run", help="one simulator and one guest, steps in order")
    r.add_argument("--name", required=True)
    r.add_argument("--step", action="append", required=True, help=STEP_SPEC)
    r.add_argument("--mtu", type=int, default=1500, help="the guest's eth0 MTU (9000: rxe at 4096)")
    r.add_argument("--timeout", type=float, default=600)
    r.add_argument("--idle-ms", type=int, default=2000,
                   help="a NIC server's idle bound (simulated ms)")
    r.add_argument("--client-idle-ms", type=int, default=CLIENT_IDLE_MS,
                   help="a NIC client's idle bound (simulated ms)")
    r.add_argument("--out", default=str(OUT))
    t = sub.add_parser("table", help="print the summary table of result files")
    t.add_argument("json", nargs="*")
    a = ap.parse_args()
    if a.mode == "table":
        sums = [json.loads(pathlib.Path(f).read_text()) for f in a.json]
        print(table(sums))
        return 0 if sums and all(s["ok"] for s in sums) else 1
    try:
        steps = [Step.parse(s) for s in a.step]
    except ValueError as e:
        ap.error(str(e))
    rr = run(a.name, steps, timeout=a.timeout, idle_ms=a.idle_ms,
             client_idle_ms=a.client_idle_ms, out_dir=a.out, mtu=a.mtu)
    for st in rr.steps:
        print(f"--- {st.step.label()}: {'pass' if st.ok else 'FAIL: ' + st.why}")
        print(st.guest_out.rstrip())
        print("NIC: " + st.nic_line)
    print(f"--- run {rr.name}: {'ok' if rr.ok else 'FAILED: ' + rr.why} in {rr.seconds:.0f} s "
          f"(guest ready after {rr.boot_seconds:.0f} s), capture {rr.pcap}")
    print(table([_summary(rr)]))
    return 0 if rr.ok else 1


if __name__ == "__main__":
    sys.exit(main())
