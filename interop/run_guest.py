#!/usr/bin/env python3
"""Run interop guests (Linux with rdma_rxe) under QEMU, joined by UDP datagram sockets.

A guest's only NIC is a QEMU datagram socket on 127.0.0.1 (one Ethernet frame
per datagram, no FCS, no length prefix): its peer is another guest, or the
simulated NIC's harness listening on the same kind of socket. The guest's init
(interop/guest/init) configures eth0 and rxe0 from the kernel command line,
runs the test commands and frames their output on the serial console.

    run_guest.py guest --ip 10.0.0.2/24 --peer 10.0.0.1 --role client \\
        --local-port 47001 --remote-port 47000 --test 'ibv_rc_pingpong -g 1 {peer}'
    run_guest.py pair --server-test 'ibv_rc_pingpong -g 1' \\
        --client-test 'ibv_rc_pingpong -g 1 {peer}' --pcap-dir build/interop/run
    run_guest.py accel          # print the accelerator verdict (kvm or tcg)

In a test command, {peer} stands for the peer's IPv4 address. Exit status: 0
when every test exited 0; the first failing test's exit status; 2 when the
guest failed before or around its tests (no rxe0, peer unreachable, ...);
124 when a guest did not finish within its time bound (QEMU is then killed).

As a module: run_guest(GuestSpec(...)) -> GuestResult, run_pair(...).
"""
import argparse
import dataclasses
import fcntl
import json
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
IMAGE = REPO / "build" / "interop"
QEMU = "qemu-system-x86_64"
KVM_PROBE_SECONDS = 15

BEGIN_RE = re.compile(r"^===SOLONIC-TEST-BEGIN (\d+)===\s*$")
END_RE = re.compile(r"^===SOLONIC-TEST-END (\d+) rc=(\d+)===\s*$")
FAIL_RE = re.compile(r"===SOLONIC-FAIL (.*)===")
CAPSTAT_RE = re.compile(r"^(\d+) packets? captured\s*\n(\d+) packets? received by filter\s*\n"
                        r"(\d+) packets? dropped by kernel", re.M)
ANSI_RE = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[A-Za-z])")   # SeaBIOS clears the screen


@dataclasses.dataclass
class GuestSpec:
    ip: str                       # "10.0.0.2/24"
    local_port: int               # UDP port of this guest's socket on 127.0.0.1
    remote_port: int              # UDP port its frames go to
    tests: list                   # shell commands, run in order; {peer} is replaced
    peer: str = ""                # "10.0.0.1"
    role: str = "server"          # "client": wait for the peer, retry while it is not listening
    name: str = ""
    mac: str = ""                 # default 52:54:00:00:00:<last octet of ip>
    mtu: int = 1500
    timeout: float = 240.0        # wall-time bound of the whole guest run, seconds
    test_timeout: int = 60        # per test, enforced inside the guest
    wait: int = 30                # bound for rxe0 and the peer, inside the guest
    pcap: str = ""                # write the guest's tcpdump of eth0 here
    console: str = ""             # copy of the serial console
    accel: str = "auto"           # auto, kvm, tcg
    memory_mb: int = 512
    shell: bool = False           # interactive: shell after the tests, console on the terminal


@dataclasses.dataclass
class GuestResult:
    name: str
    ok: bool                      # every test ran and exited 0, the guest finished cleanly
    status: int                   # exit status as described in the module doc
    reason: str                   # why it failed ("" when ok)
    tests: list                   # [(command, rc, output)]
    console: str
    seconds: float
    ready_seconds: float          # when ===SOLONIC-READY=== appeared (-1: never)
    accel: str
    pcap: str = ""


def default_mac(ip):
    last = int(ip.split("/")[0].split(".")[-1])
    return "52:54:00:00:00:%02x" % last


def free_udp_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def image_files():
    k, i = IMAGE / "vmlinuz", IMAGE / "initrd.img"
    if not (k.exists() and i.exists()):
        raise SystemExit(f"run_guest: no guest image in {IMAGE}: run `make interop-image`")
    return k, i


def kernel_args(extra):
    return " ".join(["console=ttyS0", "quiet", "loglevel=3", "panic=-1"] + extra)


# ---------------------------------------------------------------- accelerator

def _probe_kvm(kernel, initrd):
    """Boot the guest under KVM with solonic.probe=1; True if it reaches its init."""
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False, "/dev/kvm not usable"
    cmd = ["timeout", "-k", "2", str(KVM_PROBE_SECONDS), QEMU, "-nodefaults", "-nographic",
           "-no-reboot", "-accel", "kvm", "-m", "256", "-kernel", str(kernel),
           "-initrd", str(initrd), "-append", kernel_args(["solonic.probe=1"]),
           "-serial", "stdio"]
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=KVM_PROBE_SECONDS + 10)
    except subprocess.TimeoutExpired:
        return False, "KVM probe did not finish"
    out = p.stdout.decode(errors="replace")
    if "===SOLONIC-PROBE-OK===" in out:
        return True, "KVM probe booted"
    last = [ln for ln in out.splitlines() if ln.strip()][-1:] or ["no output"]
    return False, f"KVM probe failed (exit {p.returncode}: {last[0][:120]})"


def choose_accel(want="auto"):
    """kvm or tcg. auto: probe KVM once (a stock kernel may not boot on a paravirtual
    KVM), cache the verdict in build/interop/accel.json for this host boot."""
    want = os.environ.get("SOLONIC_INTEROP_ACCEL", want) or "auto"
    if want in ("kvm", "tcg"):
        return want
    kernel, initrd = image_files()
    try:
        boot_id = open("/proc/sys/kernel/random/boot_id").read().strip()
    except OSError:
        boot_id = "?"
    try:
        image = (IMAGE / "image.stamp").read_text().strip()
    except OSError:
        image = "?"
    key = {"boot_id": boot_id, "image": image}
    cache = IMAGE / "accel.json"
    with open(IMAGE / "accel.lock", "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)     # two guests starting together probe once
        try:
            c = json.loads(cache.read_text())
            if c.get("key") == key:
                return c["accel"]
        except (OSError, ValueError, KeyError):
            pass
        ok, why = _probe_kvm(kernel, initrd)
        accel = "kvm" if ok else "tcg"
        cache.write_text(json.dumps({"key": key, "accel": accel, "why": why}) + "\n")
        print(f"run_guest: accelerator {accel} ({why})", file=sys.stderr, flush=True)
        return accel


# ---------------------------------------------------------------- one guest

class Guest:
    """A running guest; start() returns at once, wait() collects the result."""

    def __init__(self, spec):
        self.spec = spec
        self.name = spec.name or spec.ip.split("/")[0]
        self.lines = []
        self.ready = threading.Event()
        self.ready_at = -1.0
        self.proc = None
        self.tmp = None
        self.accel = ""
        self.disk = ""

    def command(self, accel, kernel, initrd, disk):
        s = self.spec
        peer = s.peer.split("/")[0]
        args = [f"solonic.ip={s.ip}", f"solonic.role={s.role}", f"solonic.mtu={s.mtu}",
                f"solonic.timeout={s.test_timeout}", f"solonic.wait={s.wait}"]
        if peer:
            args.append(f"solonic.peer={peer}")
        for t in s.tests:
            t = t.replace("{peer}", peer)
            if any(c in t for c in '"\n'):
                raise ValueError(f"a test command may not contain a double quote or newline: {t!r}")
            args.append(f'solonic.test="{t}"')
        if disk:
            args.append("solonic.pcap=1")
        if s.shell:
            args.append("solonic.shell=1")
        mac = s.mac or default_mac(s.ip)
        net = (f"dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port={s.local_port},"
               f"remote.type=inet,remote.host=127.0.0.1,remote.port={s.remote_port}")
        cmd = [QEMU, "-nodefaults", "-nographic", "-no-reboot", "-accel", accel,
               "-m", str(s.memory_mb), "-smp", "1",
               "-kernel", str(kernel), "-initrd", str(initrd), "-append", kernel_args(args),
               "-serial", "mon:stdio" if s.shell else "stdio",
               "-netdev", net, "-device", f"virtio-net-pci,netdev=n0,mac={mac},romfile="]
        if disk:
            cmd += ["-drive", f"file={disk},format=raw,if=virtio"]
        if not s.shell:
            # a second bound, outside Python: QEMU never outlives its budget
            cmd = ["timeout", "-k", "5", str(int(s.timeout) + 10)] + cmd
        return cmd

    def start(self, accel=None):
        s = self.spec
        kernel, initrd = image_files()
        self.accel = accel or choose_accel(s.accel)
        self.tmp = tempfile.TemporaryDirectory(prefix="solonic-guest-")
        self.disk = ""
        if s.pcap:
            self.disk = os.path.join(self.tmp.name, "capture.img")
            with open(self.disk, "wb") as f:
                f.truncate(64 << 20)
        cmd = self.command(self.accel, kernel, initrd, self.disk)
        self.t0 = time.monotonic()
        if s.shell:
            self.proc = subprocess.Popen(cmd)
            return self
        # its own process group: `timeout` and QEMU are killed together
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        return self

    def _read(self):
        for raw in self.proc.stdout:
            ln = ANSI_RE.sub("", raw.decode(errors="replace")).rstrip("\r\n")
            self.lines.append(ln)
            if "===SOLONIC-READY===" in ln and not self.ready.is_set():
                self.ready_at = time.monotonic() - self.t0
                self.ready.set()

    def kill(self):
        """Kill QEMU and the `timeout` around it (the group this guest started)."""
        if self.proc and self.proc.poll() is None and not self.spec.shell:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        elif self.proc and self.proc.poll() is None:
            self.proc.kill()

    def wait(self):
        s = self.spec
        if s.shell:
            rc = self.proc.wait()
            return GuestResult(self.name, rc == 0, rc, "", [], "", time.monotonic() - self.t0,
                               -1, self.accel)
        timed_out = False
        try:
            self.proc.wait(timeout=max(0.0, s.timeout - (time.monotonic() - self.t0)))
        except subprocess.TimeoutExpired:
            timed_out = True
            self.kill()
            self.proc.wait()
        self.reader.join(timeout=5)
        seconds = time.monotonic() - self.t0
        console = "\n".join(self.lines) + "\n"
        if s.console:
            pathlib.Path(s.console).write_text(console)
        res = self._parse(console, timed_out, seconds)
        self.tmp.cleanup()
        return res

    def _parse(self, console, timed_out, seconds):
        s = self.spec
        tests, cur, buf = [], None, []
        for ln in console.splitlines():
            m = BEGIN_RE.match(ln)
            if m:
                cur, buf = int(m.group(1)), []
                continue
            m = END_RE.match(ln)
            if m and cur == int(m.group(1)):
                cmd = s.tests[cur - 1].replace("{peer}", s.peer.split("/")[0]) \
                    if cur <= len(s.tests) else "?"
                tests.append((cmd, int(m.group(2)), "\n".join(buf)))
                cur = None
                continue
            if cur is not None:
                buf.append(ln)
        fails = FAIL_RE.findall(console)
        done = "===SOLONIC-DONE===" in console
        pcap = ""
        reason, status = "", 0
        if timed_out:
            status = 124
            reason = (f"guest {self.name} did not finish within {s.timeout:.0f} s "
                      f"({len(tests)} of {len(s.tests)} tests done"
                      + (", rxe0 never became ready" if self.ready_at < 0 else "") + ")")
        elif fails:
            status, reason = 2, f"guest {self.name}: {fails[0]}"
        elif not done or len(tests) != len(s.tests):
            status = 2
            reason = (f"guest {self.name} stopped before finishing (QEMU exit "
                      f"{self.proc.returncode}, {len(tests)} of {len(s.tests)} tests done)")
        else:
            bad = [t for t in tests if t[1] != 0]
            if bad:
                status = bad[0][1]
                reason = f"guest {self.name}: `{bad[0][0]}` exited with {bad[0][1]}"
        if s.pcap and not timed_out and self.disk and not reason:
            m = CAPSTAT_RE.search(console)
            if not m:
                status, reason = 2, f"guest {self.name}: tcpdump printed no statistics"
            elif int(m.group(3)) or m.group(1) != m.group(2):
                status = 2
                reason = (f"guest {self.name}: capture incomplete ({m.group(1)} captured, "
                          f"{m.group(2)} received, {m.group(3)} dropped)")
        if s.pcap and not timed_out and self.disk:
            try:
                with tarfile.open(self.disk) as tf:
                    data = tf.extractfile("cap.pcap").read()
                pathlib.Path(s.pcap).write_bytes(data)
                pcap = s.pcap
            except (OSError, KeyError, tarfile.TarError) as e:
                if not reason:
                    status, reason = 2, f"guest {self.name}: no capture on the disk ({e})"
        return GuestResult(self.name, status == 0, status, reason, tests, console, seconds,
                           self.ready_at, self.accel, pcap)


def run_guest(spec):
    return Guest(spec).start().wait()


def run_pair(server_tests, client_tests, server_ip="10.0.0.1/24", client_ip="10.0.0.2/24",
             timeout=240.0, pcap_dir="", console_dir="", test_timeout=60, accel="auto"):
    """Two guests joined by a datagram socket pair on 127.0.0.1, started together.
    Returns (server_result, client_result)."""
    ps, pc = free_udp_ports(2)
    acc = choose_accel(accel)
    common = dict(timeout=timeout, test_timeout=test_timeout, accel=acc)
    def path(d, n):
        return os.path.join(d, n) if d else ""
    srv = GuestSpec(ip=server_ip, peer=client_ip.split("/")[0], role="server", name="server",
                    local_port=ps, remote_port=pc, tests=server_tests,
                    pcap=path(pcap_dir, "server.pcap"), console=path(console_dir, "server.console"),
                    **common)
    cli = GuestSpec(ip=client_ip, peer=server_ip.split("/")[0], role="client", name="client",
                    local_port=pc, remote_port=ps, tests=client_tests,
                    pcap=path(pcap_dir, "client.pcap"), console=path(console_dir, "client.console"),
                    **common)
    gs, gc = Guest(srv).start(acc), Guest(cli).start(acc)
    try:
        return gs.wait(), gc.wait()
    finally:
        gs.kill()
        gc.kill()


# ---------------------------------------------------------------- command line

def report(res, verbose):
    for i, (cmd, rc, out) in enumerate(res.tests, 1):
        print(f"--- {res.name} test {i}: {cmd} (rc={rc})")
        print(out)
    ready = f"{res.ready_seconds:.1f} s" if res.ready_seconds >= 0 else "never"
    print(f"--- {res.name}: {'ok' if res.ok else 'FAILED'} in {res.seconds:.1f} s "
          f"(accel {res.accel}, ready {ready})" + (f", capture {res.pcap}" if res.pcap else ""))
    if not res.ok:
        print(f"run_guest: {res.reason}", file=sys.stderr)
        if verbose or not res.tests:
            tail = res.console.rstrip().splitlines()[-25:]
            print(f"--- last lines of {res.name}'s console:\n" + "\n".join(tail), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[8:18]))
    sub = ap.add_subparsers(dest="mode", required=True)
    g = sub.add_parser("guest", help="one guest")
    g.add_argument("--ip", required=True, help="address/prefix of eth0, e.g. 10.0.0.2/24")
    g.add_argument("--peer", default="", help="the other end's IPv4 address")
    g.add_argument("--role", choices=["server", "client"], default="server")
    g.add_argument("--local-port", type=int, required=True)
    g.add_argument("--remote-port", type=int, required=True)
    g.add_argument("--test", action="append", default=[], help="test command (repeatable)")
    g.add_argument("--mac", default="")
    g.add_argument("--mtu", type=int, default=1500)
    g.add_argument("--name", default="")
    g.add_argument("--pcap", default="", help="write the guest's capture of eth0 here")
    g.add_argument("--console", default="", help="write the serial console here")
    g.add_argument("--shell", action="store_true",
                   help="interactive: console on this terminal, a shell after the tests")
    p = sub.add_parser("pair", help="two guests joined by a datagram socket pair")
    p.add_argument("--server-test", action="append", default=[])
    p.add_argument("--client-test", action="append", default=[])
    p.add_argument("--pcap-dir", default="")
    p.add_argument("--console-dir", default="")
    for q in (g, p):
        q.add_argument("--timeout", type=float, default=240.0, help="wall-time bound (s)")
        q.add_argument("--test-timeout", type=int, default=60, help="per test, in the guest")
        q.add_argument("--accel", choices=["auto", "kvm", "tcg"], default="auto")
        q.add_argument("-v", action="store_true", help="print the console tail on failure")
    sub.add_parser("accel", help="print the accelerator verdict")
    a = ap.parse_args()

    if a.mode == "accel":
        print(choose_accel("auto"))
        return 0
    if a.mode == "guest":
        spec = GuestSpec(ip=a.ip, peer=a.peer, role=a.role, local_port=a.local_port,
                         remote_port=a.remote_port, tests=a.test, mac=a.mac, mtu=a.mtu,
                         name=a.name, pcap=a.pcap, console=a.console, timeout=a.timeout,
                         test_timeout=a.test_timeout, accel=a.accel, shell=a.shell)
        res = run_guest(spec)
        if not a.shell:
            report(res, a.v)
        return res.status
    for d in (a.pcap_dir, a.console_dir):
        if d:
            os.makedirs(d, exist_ok=True)
    rs, rc = run_pair(a.server_test, a.client_test, timeout=a.timeout, pcap_dir=a.pcap_dir,
                      console_dir=a.console_dir, test_timeout=a.test_timeout, accel=a.accel)
    report(rs, a.v)
    report(rc, a.v)
    return rs.status or rc.status


if __name__ == "__main__":
    sys.exit(main())
