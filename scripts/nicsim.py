"""The one driver of the simulated NICs' consoles, for the scripts and the tests.

    with NicPair() as (a, b):           # solonic_sim --nics 2: NIC 0 on pipes, NIC 1 on a pty
    with NicSet(3) as (a, b, c):        # 3 NICs through the switch
        a.cmd("ping 10.0.0.2 1")        # type a line, wait for the next prompt, return the answer
        a.stats("rx_packets")           # {"rx_packets": N}: `stats NAME ...` parsed

    with Sim(typed("help")) as s:       # one NIC, its keystrokes typed ahead (tests/fw)
        s.boot(); s.reply("help")

A Console is one NIC's UART: it keeps everything the NIC printed (CR LF as LF) and a
position up to which a caller has read it; expect() waits for a pattern after that
position and moves past the match. Every wait is bounded: a console that does not
answer in time raises ConsoleTimeout (a Failure) naming the NIC, what was awaited and
the last output, with the simulator's exit status and stderr when it ended.
Simulator starts build/sim/solonic_sim (or $SOLONIC_SIM) with N NICs, NIC 0 on pipes
and NICs 1..N-1 on ptys, its stderr in a file; close() ends it ("exit 0" on NIC 0, then
terminate and kill, each bounded) and leaves no process behind.
"""
import os
import pathlib
import re
import select
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIM = os.environ.get("SOLONIC_SIM", str(ROOT / "build/sim/solonic_sim"))
FW = os.environ.get("SOLONIC_FW", str(ROOT / "build/fw/solonic.hex"))
PROMPT = "solonic> "
STATS_RE = r"\b([a-z_]\w*) (\d+)"  # a counter in `stats NAME ...`'s answer: "roce    name value name value"


class Failure(Exception):
    """A check that did not hold: what was checked, what was expected, what came."""

    def __init__(self, what, expected, got):
        super().__init__(f"{what}\n  expected: {expected}\n  got:      {got}")


def check(what, expected, got):
    if expected != got:
        raise Failure(what, repr(expected), repr(got))


def check_true(what, cond, expected, got):
    if not cond:
        raise Failure(what, expected, got)


class ConsoleTimeout(Failure):
    """A console did not print what was awaited in time, or its simulator ended."""


def tail(s, n=1200):
    return s if len(s) <= n else "..." + s[-n:]


class Console:
    """One NIC's UART: read from fd_in (made non-blocking), write to fd_out.
    `proc` is the simulator's process; `owner`, when given, adds its stderr to errors."""

    def __init__(self, name, fd_in, fd_out, proc, timeout=60.0, owner=None):
        self.name, self.fd_in, self.fd_out, self.proc = name, fd_in, fd_out, proc
        self.timeout = timeout  # default bound of a wait, seconds of wall time
        self.owner = owner
        os.set_blocking(fd_in, False)
        self.raw = b""
        self._text = ""   # decoded, CR LF as LF
        self._cr = False  # the last chunk ended in CR (its LF may start the next one)
        self.pos = 0      # text before pos has been read by expect()

    @property
    def text(self):
        return self._text + "\r" if self._cr else self._text

    def _read(self, timeout):
        """Take what the UART has within timeout seconds; False once the output has ended."""
        if self.fd_in is None:
            return False
        r, _, _ = select.select([self.fd_in], [], [], max(0.0, timeout))
        if not r:
            return True
        try:
            chunk = os.read(self.fd_in, 65536)
        except BlockingIOError:
            return True
        except OSError:  # a pty whose simulator has ended
            chunk = b""
        if not chunk:
            return False
        self.raw += chunk
        t = ("\r" if self._cr else "") + chunk.decode("latin-1")
        self._cr = t.endswith("\r")
        if self._cr:
            t = t[:-1]
        self._text += t.replace("\r\n", "\n")
        return True

    def note(self):
        """The simulator's state for an error message: its exit status and stderr when it ended."""
        rc = self.proc.poll()
        s = "" if rc is None else f"\n  the simulator ended (exit {rc})"
        return s + (self.owner.stderr_note() if self.owner else "")

    def _await(self, find, pattern, timeout, what):
        """Read until find() gives a match (returned) or timeout seconds pass (ConsoleTimeout)."""
        timeout = timeout or self.timeout
        deadline = time.monotonic() + timeout
        alive = True
        while True:
            m = find()
            if m:
                return m
            left = deadline - time.monotonic()
            if left <= 0 or not alive:
                raise ConsoleTimeout(f"{self.name}: {what or 'console output'}", f"/{pattern}/ within {timeout:.0f} s",
                                     repr(tail(self.text[self.pos:], 600)) + self.note())
            alive = self._read(min(left, 0.5))
            if not alive and self.proc.poll() is None:  # the pipe closed first: the exit status follows
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass

    def expect(self, pattern, timeout=None, what=None):
        """Wait for the regex pattern (. matches a line end) after the part already read; move
        past it and return the match."""
        rx = re.compile(pattern, re.S)
        # a pattern that begins with a lazy "anything" matches at pos or nowhere: match() says
        # so in one pass, where search() would try again from every later position
        find = rx.match if pattern.startswith("(.*?)") else rx.search
        m = self._await(lambda: find(self.text, self.pos), pattern, timeout, what)
        self.pos = m.end()
        return m

    def wait_for(self, pattern, timeout=None, what=None):
        """Wait for the pattern (^ and $ at line ends, ^ also where the unread part starts) in the
        unread part; move past it and return that part up to the match's end."""
        rx = re.compile(pattern, re.M)
        start = self.pos
        m = self._await(lambda: rx.search(self._text[start:]), pattern, timeout, what or f"/{pattern}/")
        out = self._text[start:start + m.end()]
        self.pos = start + m.end()
        return out

    def write(self, data):
        """Type these keystrokes (str or bytes) as they are."""
        if not data:
            return
        if isinstance(data, str):
            data = data.encode("latin-1")
        if self.fd_out is None:
            raise ConsoleTimeout(f"{self.name}: typing {tail(data.decode('latin-1'), 80)!r}",
                                 "an open console", "its input is closed" + self.note())
        try:
            os.write(self.fd_out, data)
        except OSError:
            raise ConsoleTimeout(f"{self.name}: typing {tail(data.decode('latin-1'), 80)!r}",
                                 "a running simulator", repr(tail(self.text, 600)) + self.note()) from None

    def send(self, line):
        """Type a line and Enter."""
        self.write(line + "\n")

    def cmd(self, line, timeout=None):
        """Type a line and return the answer (without the echo and the next prompt)."""
        self.send(line)
        out = self.wait_for(re.escape(PROMPT), timeout, f"the prompt after {line!r}")[: -len(PROMPT)]
        first, _, rest = out.partition("\n")
        return rest if first.strip() == line.strip() else out

    def stats(self, *names, timeout=None):
        """`stats NAME ...`: {name: value} of the named counters; a missing one is a Failure."""
        line = "stats " + " ".join(names)
        out = self.cmd(line, timeout).replace("\r", "")
        got = {k: int(v) for k, v in re.findall(STATS_RE, out) if k in names}
        if len(got) != len(names):
            raise Failure(f"{self.name}: {line}", " ".join(f"{n} N" for n in names), repr(out))
        return got

    def transcript(self):
        return self.text


class Simulator:
    """One solonic_sim with `nics` NICs: NIC 0 on pipes, NICs 1.. on ptys (the harness's
    --uartK-pty; the paths come on its stderr). start() runs it and types `keys` ahead on
    NIC 0; with close_stdin its stdin is closed after them (the run then ends on the
    firmware's `exit`)."""

    def __init__(self, nics=1, args=(), fw=FW, sim=SIM, max_cycles=None, max_seconds=600, keys="",
                 close_stdin=False, timeout=60.0, cwd=None):
        self.n, self.keys, self.close_stdin, self.wait, self.cwd = nics, keys, close_stdin, timeout, cwd
        multi = ["--nics", str(nics), *(f"--uart{k}-pty" for k in range(1, nics))] if nics > 1 else []
        cycles = ["--max-cycles", str(max_cycles)] if max_cycles is not None else []
        self.cmdline = [str(sim), "--fw", str(fw), *multi, *cycles, "--max-seconds", str(max_seconds), *args]
        self.ptys = []
        self.consoles = []

    def start(self):
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(self.cmdline, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.err, bufsize=0)
        try:
            paths = self._pty_paths() if self.n > 1 else {}
            self.consoles = [Console("NIC 0", self.proc.stdout.fileno(), self.proc.stdin.fileno(), self.proc,
                                     self.wait, self)]
            for k in range(1, self.n):
                fd = os.open(paths[k], os.O_RDWR | os.O_NOCTTY)
                self.ptys.append(fd)
                self.consoles.append(Console(f"NIC {k}", fd, fd, self.proc, self.wait, self))
            self.consoles[0].write(self.keys)
            if self.close_stdin:
                self.consoles[0].fd_out = None
                self.proc.stdin.close()
        except BaseException:
            self.stop()
            raise
        return self

    def _pty_paths(self, timeout=30.0):
        """NIC k -> /dev/pts/N from the harness's stderr, one line per NIC."""
        deadline = time.monotonic() + timeout
        while True:
            err = self.stderr
            paths = {int(m.group(1)): m.group(2) for m in re.finditer(r"NIC (\d+)'s UART is on (/dev/pts/\d+)", err)}
            if len(paths) >= self.n - 1:
                return paths
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise ConsoleTimeout("the simulator's NIC ptys", f"{self.n - 1} 'NIC k's UART is on' lines "
                                     f"within {timeout:.0f} s", repr(tail(err, 600)) +
                                     ("" if self.proc.poll() is None else f" (exit {self.proc.returncode})"))
            time.sleep(0.05)

    @property
    def stderr(self):
        """Everything the simulator wrote on stderr so far (messages, --stats)."""
        self.err.seek(0)
        return self.err.read().decode(errors="replace")

    def stderr_note(self):
        e = self.stderr.strip()
        return f"\n  simulator stderr: {tail(e, 600)}" if e else ""

    def boot(self, timeout=60.0):
        """Wait for every NIC's banner and prompt (the ptys echo nothing themselves)."""
        for c in self.consoles:
            c.expect(re.escape(PROMPT), timeout, "banner and first prompt")
        return self.consoles

    def wait_exit(self, timeout=None, what="simulator exit"):
        """Wait for the simulator to end (reading NIC 0's output meanwhile); return its exit code."""
        con = self.consoles[0]
        timeout = timeout or con.timeout
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            if not con._read(min(0.5, deadline - time.monotonic())):
                break
        try:
            rc = self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.stop()
            raise ConsoleTimeout(what, f"an exit within {timeout:.0f} s",
                                 "still running; output " + repr(tail(con.text[con.pos:]))) from None
        while con._read(0):
            pass
        return rc

    def stop(self):
        """End the simulator now (terminate, then kill; bounded) and close the ptys."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for c in self.consoles[1:]:
            c.fd_in = c.fd_out = None
        for fd in self.ptys:
            os.close(fd)
        self.ptys = []

    def close(self, code=0, timeout=30.0):
        """End the run as a user would (`exit CODE` on NIC 0), then stop() if it does not within timeout."""
        if self.proc.poll() is None:
            try:
                self.consoles[0].send(f"exit {code}")
                self.proc.wait(timeout=timeout)
            except (ConsoleTimeout, subprocess.TimeoutExpired):
                pass
        self.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


class NicSet(Simulator):
    """N NICs in one solonic_sim (--nics N); with N >= 3 (or --switch in `args`) they are
    joined by the switch (sim/README.md). `with NicSet(3) as nics:` starts them, waits for
    every banner and gives the list of Consoles; after the block the run has ended with
    `exit 0` and `stderr` holds the simulator's messages (and --stats)."""

    def __init__(self, n, args=(), fw=FW, sim=SIM, max_seconds=600):
        super().__init__(n, args, fw, sim, max_seconds=max_seconds)

    def __enter__(self):
        self.start()
        try:
            return self.boot()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc):
        self.close()
        return False


class NicPair(NicSet):
    """Two NICs joined by the wire model (extra harness options in `args`)."""

    def __init__(self, args=(), fw=FW, sim=SIM, max_seconds=600):
        super().__init__(2, args, fw, sim, max_seconds)

    def __enter__(self):
        self.a, self.b = super().__enter__()
        return self.a, self.b


def typed(*lines, end="\r", exit_code=0):
    """Keystrokes for these command lines, each ended by end, then 'exit N'."""
    keys = "".join(line + end for line in lines)
    return keys + (f"exit {exit_code}\r" if exit_code is not None else "")


class Sim(Simulator):
    """One NIC whose keystrokes are typed ahead, as from a fast typist (the console takes
    them in order), read piece by piece with expect()/reply(). Unless keep_stdin, stdin is
    closed after them and the run ends on their `exit`; otherwise the caller types more with
    send() and the run ends at stop(). A failed wait stops the simulator."""

    def __init__(self, keys="", max_cycles=100_000_000, max_seconds=90, extra=(), keep_stdin=False, sim=None,
                 fw=FW):
        super().__init__(1, extra, fw, sim or SIM, max_cycles, max_seconds, keys, not keep_stdin,
                         max_seconds + 30, ROOT)
        self.start()
        self.con = self.consoles[0]
        self.p = self.proc

    @property
    def timeout(self):
        return self.con.timeout

    @timeout.setter
    def timeout(self, seconds):
        self.con.timeout = seconds

    @property
    def text(self):
        return self.con.text

    @property
    def raw(self):
        return self.con.raw

    @property
    def pos(self):
        return self.con.pos

    def _read(self, timeout):
        return self.con._read(timeout)

    def expect(self, pattern, timeout=None, what=None):
        """Wait for the regex pattern after the part already read; return the match."""
        try:
            return self.con.expect(pattern, timeout, what)
        except ConsoleTimeout:
            self.stop()
            raise

    def send(self, data):
        """Type these keystrokes as they are (a line needs its own end)."""
        self.con.write(data)

    def boot(self):
        """Wait for the banner's prompt; return the banner text."""
        return self.expect(r"(.*?)" + re.escape(PROMPT), what="banner and first prompt").group(1)

    def reply(self, line):
        """The echo of a typed line, then what the command printed before the next prompt."""
        self.expect(re.escape(line) + r"\n", what=f"echo of {line!r}")
        return self.upto_prompt(f"output of {line!r}")

    def upto_prompt(self, what):
        """Everything up to the next prompt."""
        return self.expect(r"(.*?)" + re.escape(PROMPT), what=what).group(1)
