"""Drive simulated NICs' consoles from Python (the demo and the system tests).

    with NicPair() as (a, b):          # solonic_sim --nics 2: NIC 0 on pipes, NIC 1 on a pty
    with NicSet(3) as (a, b, c):       # 3 NICs through the switch
        a.cmd("ping 10.0.0.2 1")       # type a line, wait for the next prompt, return the answer

Every wait is bounded: a console that does not answer in time raises
ConsoleTimeout with what it printed so far.
"""
import os
import pathlib
import re
import select
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIM = os.environ.get("SOLONIC_SIM", str(ROOT / "build/sim/solonic_sim"))
FW = os.environ.get("SOLONIC_FW", str(ROOT / "build/fw/solonic.hex"))
PROMPT = "solonic> "


class ConsoleTimeout(Exception):
    pass


class Console:
    """One NIC's UART: write to fd_out, read from fd_in (non-blocking)."""

    def __init__(self, name, fd_in, fd_out, proc):
        self.name, self.fd_in, self.fd_out, self.proc = name, fd_in, fd_out, proc
        self.buf = ""
        self.pending_cr = ""
        self.log = []

    def _read(self, timeout):
        r, _, _ = select.select([self.fd_in], [], [], timeout)
        if not r:
            return False
        try:
            data = os.read(self.fd_in, 65536)
        except OSError:
            data = b""
        if not data:
            if self.proc.poll() is not None:
                raise ConsoleTimeout(f"{self.name}: the simulator ended (exit {self.proc.returncode}); "
                                     f"last output: {self.buf[-400:]!r}")
            return False
        text = self.pending_cr + data.decode(errors="replace")
        # a CRLF may be split across two reads: hold a trailing CR for the next one
        self.pending_cr = "\r" if text.endswith("\r") else ""
        text = (text[:-1] if self.pending_cr else text).replace("\r\n", "\n")
        self.buf += text
        self.log.append(text)
        return True

    def wait_for(self, pattern, timeout=60.0):
        """Wait until the output since the last call matches; return the text up to the match."""
        end = time.monotonic() + timeout
        rx = re.compile(pattern, re.M)
        while True:
            m = rx.search(self.buf)
            if m:
                out, self.buf = self.buf[:m.end()], self.buf[m.end():]
                return out
            left = end - time.monotonic()
            if left <= 0:
                raise ConsoleTimeout(f"{self.name}: no /{pattern}/ within {timeout:.0f} s; got {self.buf[-600:]!r}")
            self._read(min(left, 0.5))

    def send(self, line):
        os.write(self.fd_out, (line + "\n").encode())

    def cmd(self, line, timeout=60.0):
        """Type a line and return the answer (without the echo and the next prompt)."""
        self.send(line)
        out = self.wait_for(re.escape(PROMPT), timeout)
        out = out[: -len(PROMPT)]
        first, _, rest = out.partition("\n")
        return rest if first.strip() == line.strip() else out

    def transcript(self):
        return "".join(self.log)


class NicSet:
    """N simulated NICs in one solonic_sim (--nics N): NIC 0 on pipes, NICs 1..N-1 on ptys.
    With N >= 3 (or --switch in `args`) they are joined by the switch (sim/README.md).
    `with NicSet(3) as nics:` gives the list of Consoles; `stderr` holds the simulator's
    messages (and --stats) after the block."""

    def __init__(self, n, args=(), fw=FW, sim=SIM, max_seconds=600):
        self.n = n
        ptys = [f"--uart{k}-pty" for k in range(1, n)]
        self.cmdline = [sim, "--fw", fw, "--nics", str(n), *ptys, "--max-seconds", str(max_seconds), *args]
        self.ptys = []

    def __enter__(self):
        self.proc = subprocess.Popen(self.cmdline, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0)
        # the ptys' paths come on stderr, one line per NIC
        paths, err = {}, b""
        end = time.monotonic() + 30
        while len(paths) < self.n - 1 and time.monotonic() < end:
            r, _, _ = select.select([self.proc.stderr], [], [], 0.5)
            if r:
                chunk = os.read(self.proc.stderr.fileno(), 4096)
                if not chunk and self.proc.poll() is not None:
                    break
                err += chunk
                for m in re.finditer(rb"NIC (\d+)'s UART is on (/dev/pts/\d+)", err):
                    paths[int(m.group(1))] = m.group(2).decode()
        if len(paths) < self.n - 1:
            self.proc.kill()
            self.proc.wait()
            raise ConsoleTimeout(f"the simulator did not open the NICs' ptys: {err.decode(errors='replace')}")
        self.early_stderr = err.decode(errors="replace")
        os.set_blocking(self.proc.stdout.fileno(), False)
        self.consoles = [Console("NIC 0", self.proc.stdout.fileno(), self.proc.stdin.fileno(), self.proc)]
        for k in range(1, self.n):
            fd = os.open(paths[k], os.O_RDWR | os.O_NOCTTY)
            os.set_blocking(fd, False)
            self.ptys.append(fd)
            self.consoles.append(Console(f"NIC {k}", fd, fd, self.proc))
        # the ptys echo nothing themselves (the harness puts them in raw mode); wait for every banner
        for c in self.consoles:
            c.wait_for(re.escape(PROMPT), 60)
        return self.consoles

    def __exit__(self, *exc):
        try:
            self.consoles[0].send("exit 0")
        except OSError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in self.ptys:
            os.close(fd)
        self.stderr = self.early_stderr + self.proc.stderr.read().decode(errors="replace")
        return False


class NicPair(NicSet):
    """Two NICs joined by the wire model (extra harness options in `args`)."""

    def __init__(self, args=(), fw=FW, sim=SIM, max_seconds=600):
        super().__init__(2, args, fw, sim, max_seconds)

    def __enter__(self):
        self.a, self.b = super().__enter__()
        return self.a, self.b
