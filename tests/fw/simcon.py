"""Drive the simulated NIC's UART console the way a person at a terminal would.

Sim starts build/sim/solonic_sim with the firmware image and types into its
stdin through a pipe: everything a case types is written at the start (type-
ahead, as from a fast typist; the console handles it in order) and stdin is
closed, because the harness hands a pipe's output over when the run ends.
The case then reads the transcript piece by piece with expect()/reply().
Every wait has a deadline; a failure raises Failure with what was expected
and what came.  The firmware's ELF and image give the expectations that do
not come from the console (command table, memory layout).
"""
import os
import re
import select
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.environ.get("SOLONIC_SIM", os.path.join(ROOT, "build/sim/solonic_sim"))
FW_DIR = os.environ.get("SOLONIC_FW_DIR", os.path.join(ROOT, "build/fw"))
ELF = os.path.join(FW_DIR, "solonic.elf")
HEX = os.path.join(FW_DIR, "solonic.hex")
RV_PREFIX = "riscv64-unknown-elf-"
PROMPT = "solonic> "

CMD_ENTRY_WORDS = 5  # struct con_cmd in fw/console.h: name, args, help, fn, more


class Failure(Exception):
    def __init__(self, what, expected, got):
        super().__init__(f"{what}\n  expected: {expected}\n  got:      {got}")


def check(what, expected, got):
    if expected != got:
        raise Failure(what, repr(expected), repr(got))


def check_true(what, cond, expected, got):
    if not cond:
        raise Failure(what, expected, got)


def tail(s, n=1200):
    return s if len(s) <= n else "..." + s[-n:]


def typed(*lines, end="\r", exit_code=0):
    """Keystrokes for these command lines, each ended by end, then 'exit N'."""
    keys = "".join(line + end for line in lines)
    return keys + (f"exit {exit_code}\r" if exit_code is not None else "")


class Sim:
    """One simulation run; output is kept with CRLF turned into LF."""

    def __init__(self, keys="", max_cycles=100_000_000, max_seconds=90, extra=(), keep_stdin=False):
        self.err = tempfile.TemporaryFile()
        self.cmdline = [SIM, "--fw", HEX, "--max-cycles", str(max_cycles),
                        "--max-seconds", str(max_seconds), *extra]
        self.p = subprocess.Popen(self.cmdline, cwd=ROOT, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err)
        self.raw = b""
        self._text = ""     # raw decoded, CR LF as LF: kept up to date by _read (no re-decoding)
        self._cr = False    # the last chunk ended in CR (its LF may start the next one)
        self.pos = 0  # text before pos has been consumed by expect()
        self.timeout = max_seconds + 30
        self.send(keys)
        if not keep_stdin:  # otherwise the test types more with send() and the run ends at stop()
            self.p.stdin.close()

    @property
    def text(self):
        return self._text + "\r" if self._cr else self._text

    def _read(self, timeout):
        r, _, _ = select.select([self.p.stdout], [], [], max(0.0, timeout))
        if not r:
            return True
        chunk = os.read(self.p.stdout.fileno(), 65536)
        if not chunk:
            return False  # EOF: the simulator ended
        self.raw += chunk
        t = ("\r" if self._cr else "") + chunk.decode("latin-1")
        self._cr = t.endswith("\r")
        if self._cr:
            t = t[:-1]
        self._text += t.replace("\r\n", "\n")
        return True

    def expect(self, pattern, timeout=None, what=None):
        """Wait for regex pattern after the consumed part; return the match."""
        rx = re.compile(pattern, re.S)
        # a pattern that begins with a lazy "anything" matches at pos or nowhere: match() says
        # so in one pass, where search() would try again from every later position
        find = rx.match if pattern.startswith("(.*?)") else rx.search
        timeout = timeout or self.timeout
        deadline = time.monotonic() + timeout
        alive = True
        while True:
            m = find(self.text, self.pos)
            if m:
                self.pos = m.end()
                return m
            left = deadline - time.monotonic()
            if left <= 0 or not alive:
                self.stop()
                raise Failure(what or "console output", f"/{pattern}/ within {timeout} s",
                              ("simulator ended (exit %s): " % self.p.returncode if not alive else "")
                              + repr(tail(self.text[self.pos:])) + self.stderr_note())
            alive = self._read(min(left, 0.5))

    def stderr_note(self):
        self.err.seek(0)
        e = self.err.read().decode(errors="replace").strip()
        return f"\n  simulator stderr: {tail(e, 600)}" if e else ""

    def send(self, data):
        if not data:
            return
        if isinstance(data, str):
            data = data.encode("latin-1")
        try:
            self.p.stdin.write(data)
            self.p.stdin.flush()
        except BrokenPipeError:
            raise Failure("sending to the console", "a running simulator",
                          f"exit {self.p.poll()}, output {tail(self.text)!r}")

    def boot(self):
        """Wait for the banner's prompt; return the banner text."""
        m = self.expect(r"(.*?)" + re.escape(PROMPT), what="banner and first prompt")
        return m.group(1)

    def reply(self, line):
        """The echo of a typed line, then what the command printed before the next prompt."""
        self.expect(re.escape(line) + r"\n", what=f"echo of {line!r}")
        m = self.expect(r"(.*?)" + re.escape(PROMPT), what=f"output of {line!r}")
        return m.group(1)

    def upto_prompt(self, what):
        """Everything up to the next prompt."""
        return self.expect(r"(.*?)" + re.escape(PROMPT), what=what).group(1)

    def wait_exit(self, timeout=None, what="simulator exit"):
        """Wait for the simulator to end; return its exit code."""
        timeout = timeout or self.timeout
        deadline = time.monotonic() + timeout
        while self.p.poll() is None and time.monotonic() < deadline:
            if not self._read(min(0.5, deadline - time.monotonic())):
                break
        try:
            rc = self.p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.stop()
            raise Failure(what, f"an exit within {timeout} s",
                          "still running; output " + repr(tail(self.text[self.pos:])))
        while self._read(0):
            pass
        return rc

    def stop(self):
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def run_tool(args):
    return subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True,
                          timeout=300).stdout  # bounded; a loaded 2-core machine can stall a process for a while


def symbols():
    """name -> (address, size) from the ELF's symbol table."""
    syms = {}
    for line in run_tool([RV_PREFIX + "nm", "-S", ELF]).splitlines():
        f = line.split()
        if len(f) == 4:
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
        elif len(f) == 3:
            syms[f[2]] = (int(f[0], 16), 0)
    return syms


def image():
    """The IMEM image the simulator loads, as bytes from address 0."""
    out = bytearray()
    with open(HEX) as f:
        for line in f:
            line = line.strip()
            if line:
                out += int(line, 16).to_bytes(4, "little")
    return bytes(out)


def cstring(img, addr):
    end = img.index(b"\0", addr)
    return img[addr:end].decode()


def command_table():
    """[(name, args, help)] as the linker laid out the .con_cmds section."""
    syms, img = symbols(), image()
    start, end = syms["__con_cmds_start"][0], syms["__con_cmds_end"][0]
    size = CMD_ENTRY_WORDS * 4
    if (end - start) % size:
        raise Failure("command table size", f"a multiple of {size}", end - start)
    cmds = []
    for a in range(start, end, size):
        w = [int.from_bytes(img[a + 4 * i:a + 4 * i + 4], "little") for i in range(CMD_ENTRY_WORDS)]
        cmds.append((cstring(img, w[0]), cstring(img, w[1]), cstring(img, w[2])))
    return cmds


def git_describe():
    p = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() if p.returncode == 0 else "unknown"
