#!/usr/bin/env python3
"""Console tests: the real firmware in the simulated SoC, driven as a user would.

    test_console.py CASE     run one case (see CASES), exit 0 on pass
    test_console.py --list   the case names
"""
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fw_image import ROOT, command_table, git_describe, image, symbols  # noqa: E402  (puts scripts/ on the path)
from nicsim import PROMPT, Failure, Sim, check, check_true, tail, typed  # noqa: E402

TRAP_EXIT = 70  # SIM_EXIT_TRAP in bsp/sim.h


def parse_hex_dump(out):
    """'mem rd' lines 'AAAAAAAA: w w w w' -> {address: word}."""
    words = {}
    for line in out.splitlines():
        m = re.fullmatch(r"([0-9a-f]{8}):((?: [0-9a-f]{8})+)", line.strip())
        if m:
            base = int(m.group(1), 16)
            for i, w in enumerate(m.group(2).split()):
                words[base + 4 * i] = int(w, 16)
    return words


def free_dmem(syms, words):
    """An aligned DMEM span the firmware does not use: between .bss and the stack reserve."""
    lo = (syms["__heap_end"][0] + 0x100) & ~0xff
    hi = syms["__stack_limit"][0]
    check_true("free DMEM for the test", lo + 4 * words <= hi, f"{4 * words} bytes", f"{hi - lo}")
    return lo


def finish(s, code=0):
    """The run ends with the 'exit' the case typed last: the console survived."""
    rc = s.wait_exit()
    check("exit code at the end of the session", code, rc)


def case_banner():
    syms = symbols()
    with Sim(typed("mem rd 0x2000000c 3")) as s:
        banner = s.boot()
        ver = git_describe()
        check_true("banner names the firmware and its version", f"solonic {ver} (built " in banner,
                   f"'solonic {ver} (built ...'", banner)
        m = re.search(r"built (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC)", banner)
        check_true("banner has the build date", m is not None, "built YYYY-MM-DD hh:mm:ss UTC", banner)
        m = re.search(r"core clock (\d+)\.(\d{3}) MHz, IMEM (\d+) KiB, DMEM (\d+) KiB", banner)
        check_true("banner has clock and memory sizes", m is not None,
                   "core clock N.NNN MHz, IMEM N KiB, DMEM N KiB", banner)
        check_true("no size warning in the banner", "warning" not in banner, "no warning", banner)
        # the same facts read as raw registers through another path (mem rd)
        regs = parse_hex_dump(s.reply("mem rd 0x2000000c 3"))
        check("clock in the banner vs SYSINFO_CLK_HZ",
              f"{regs[0x2000000c] // 1000000}.{regs[0x2000000c] % 1000000 // 1000:03d}",
              f"{m.group(1)}.{m.group(2)}")
        check("IMEM KiB in the banner vs SYSINFO_IMEM_BYTES", regs[0x20000010] // 1024, int(m.group(3)))
        check("DMEM KiB in the banner vs SYSINFO_DMEM_BYTES", regs[0x20000014] // 1024, int(m.group(4)))
        # and what the firmware was linked for (linker/solonic.ld)
        check("IMEM bytes: SoC vs linker script", syms["__imem_bytes"][0], regs[0x20000010])
        check("DMEM bytes: SoC vs linker script", syms["__dmem_bytes"][0], regs[0x20000014])
        finish(s)


def case_version():
    with Sim(typed("version", "version extra")) as s:
        s.boot()
        out = s.reply("version")
        check("first line of 'version'", f"solonic {git_describe()}", out.splitlines()[0])
        check_true("'version' names the build", re.search(r"^built \d{4}-\d\d-\d\d ", out, re.M),
                   "a line 'built YYYY-MM-DD ...'", out)
        check("'version' with an argument", "version: takes no arguments\n", s.reply("version extra"))
        finish(s)


def case_help():
    table = command_table()
    names = [c[0] for c in table]
    for must in ("help", "version", "uptime", "mem", "exit"):
        check_true(f"command table holds '{must}'", must in names, must, names)
    with Sim(typed("help", "help mem", "help nosuch", "help a b")) as s:
        s.boot()
        out = s.reply("help")
        lines = [l for l in out.splitlines() if l.startswith("  ")]
        listed = [l.split()[0] for l in lines]
        check("commands listed by 'help' (sorted) vs the ELF's command table", sorted(names), listed)
        for (name, args, text), line in zip(sorted(table), lines):
            want = f"{name} {args}".strip()
            check_true(f"'help' line for {name}",
                       line.strip().startswith(want) and line.rstrip().endswith(text),
                       f"'{want} ... {text}'", line)
        out = s.reply("help mem")
        mem = {c[0]: c for c in table}["mem"]
        check_true("'help mem' shows the usage", f"usage: mem {mem[1]}\n" in out, f"usage: mem {mem[1]}", out)
        check_true("'help mem' shows the map", "0x10000000..0x1003ffff  DMEM" in out, "the DMEM range", out)
        check("'help' of an unknown command", "help: no command 'nosuch'; type 'help'\n",
              s.reply("help nosuch"))
        check("'help' with two arguments", "help: too many arguments\n", s.reply("help a b"))
        finish(s)


def case_unknown_command():
    many = "a b c d e f g h i j k l m n o p q r s t u v w x y"   # 25 words
    with Sim(typed("xyz", "frob 1 2", "   ", many, "version")) as s:
        s.boot()
        check("unknown command", "unknown command 'xyz'; type 'help'\n", s.reply("xyz"))
        check("unknown command with arguments", "unknown command 'frob'; type 'help'\n", s.reply("frob 1 2"))
        check("blank line", "", s.reply("   "))
        check("too many words", "error: too many words (at most 24); line ignored\n", s.reply(many))
        check("first line of 'version' after the errors", f"solonic {git_describe()}",
              s.reply("version").splitlines()[0])
        finish(s)


def case_cc():
    """The cc command: ECT(0) marking, the notification point's interval (range checked:
    1..250000000 cycles, a wrong value changes nothing) and its counters, all 0 on a NIC
    that received nothing; the reaction point's parameters at their defaults (docs/cc.md),
    `cc set` of each kind (rates, gain, cycles, the pacer's burst) with range and name
    errors that change nothing, `cc qp` of an idle QP (line rate, not under rate control)
    and its range; `stats` names the same counters."""
    cmds = ("cc", "cc np-interval 0", "cc np-interval 250000001", "cc np-interval x", "cc np-interval",
            "cc np-interval 0x1f4", "cc ect on", "cc frob",
            "stats np_ecn_marked_roce_packets np_cnp_sent np_cnp_dropped rp_cnp_received rp_cnp_dropped",
            "cc set min_mbps 0", "cc set min_mbps 131072", "cc set g 1024", "cc set alpha_init 1025",
            "cc set f 8", "cc set rai_cyc 250000001", "cc set burst 262144", "cc set nosuch 1", "cc set g",
            "cc set ai_mbps x",
            "cc set min_mbps 10", "cc set g 1020", "cc set rai_cyc 0x3a98", "cc set burst 4096",
            "cc qp 3", "cc qp 256", "cc qp", "cc",
            "stats rp_cnp_handled rp_cnp_ignored rp_rate_dec rp_ev_dropped rp_paced")
    counters = ("cc: np_ecn_marked_roce_packets 0 np_cnp_sent 0 np_cnp_dropped 0 rp_cnp_received 0 "
                "rp_cnp_dropped 0\n")
    def rp(min_mbps=1, g=1019, rai=75000, burst=16384):
        return (f"cc: reaction point (DCQCN): line_mbps 100000 min_mbps {min_mbps} ai_mbps 5 hai_mbps 50 g {g} "
                f"alpha_init 1024 f 5 dec_cyc 1000 alpha_cyc 13750 rai_cyc {rai} b_bytes 10485760 burst {burst}\n"
                "cc: rp_cnp_handled 0 rp_cnp_ignored 0 rp_rate_dec 0 rp_ev_dropped 0 rp_paced 0\n")
    with Sim(typed(*cmds)) as s:
        s.boot()
        check("cc at reset", "cc: ECT(0) marking off (RoCE packets leave with ECN 0, as rxe sends)\n"
              "cc: notification point: a CNP per CE-marked QP at most every 1000 cycles (4000 ns)\n" + counters + rp(),
              s.reply(cmds[0]))
        check("cc np-interval 0", "cc: np-interval: 0 out of range 1..250000000 cycles\n", s.reply(cmds[1]))
        check("cc np-interval 250000001", "cc: np-interval: 250000001 out of range 1..250000000 cycles\n",
              s.reply(cmds[2]))
        check("cc np-interval x", "cc: np-interval: expected a number (decimal or 0x hex), got 'x'\n",
              s.reply(cmds[3]))
        check("cc np-interval without N", "cc: np-interval: expected a number of cycles\n", s.reply(cmds[4]))
        check("cc np-interval 0x1f4", "cc: ECT(0) marking off (RoCE packets leave with ECN 0, as rxe sends)\n"
              "cc: notification point: a CNP per CE-marked QP at most every 500 cycles (2000 ns)\n" + counters + rp(),
              s.reply(cmds[5]))
        check("cc ect on", "cc: ECT(0) marking on (RoCE packets leave with ECN 2'b10, ECN-capable)\n"
              "cc: notification point: a CNP per CE-marked QP at most every 500 cycles (2000 ns)\n" + counters + rp(),
              s.reply(cmds[6]))
        check("cc frob", "cc: unknown argument 'frob' (cc, cc ect on|off, cc np-interval N, cc set NAME VALUE, "
              "or cc qp N)\n", s.reply(cmds[7]))
        check("stats of the cc counters",
              "roce    np_ecn_marked_roce_packets 0 np_cnp_sent 0 np_cnp_dropped 0 rp_cnp_received 0 rp_cnp_dropped 0\n",
              s.reply(cmds[8]))
        check("cc set min_mbps 0", "cc: set: min_mbps 0 out of range 1..131071 Mb/s\n", s.reply(cmds[9]))
        check("cc set min_mbps 131072", "cc: set: min_mbps 131072 out of range 1..131071 Mb/s\n", s.reply(cmds[10]))
        check("cc set g 1024", "cc: set: g 1024 out of range 0..1023 /1024\n", s.reply(cmds[11]))
        check("cc set alpha_init 1025", "cc: set: alpha_init 1025 out of range 0..1024 /1024\n", s.reply(cmds[12]))
        check("cc set f 8", "cc: set: f 8 out of range 0..7 stages\n", s.reply(cmds[13]))
        check("cc set rai_cyc 250000001", "cc: set: rai_cyc 250000001 out of range 1..250000000 cycles\n",
              s.reply(cmds[14]))
        check("cc set burst 262144", "cc: set: burst 262144 out of range 0..262143 bytes\n", s.reply(cmds[15]))
        check("cc set nosuch 1", "cc: set: unknown parameter 'nosuch' (line_mbps min_mbps ai_mbps hai_mbps g "
              "alpha_init f dec_cyc alpha_cyc rai_cyc b_bytes burst)\n", s.reply(cmds[16]))
        check("cc set g without a value", "cc: set: expected NAME VALUE\n", s.reply(cmds[17]))
        check("cc set ai_mbps x", "cc: ai_mbps: expected a number (decimal or 0x hex), got 'x'\n", s.reply(cmds[18]))
        check("cc set min_mbps 10", "cc: min_mbps 10 Mb/s\n", s.reply(cmds[19]))
        check("cc set g 1020", "cc: g 1020 /1024\n", s.reply(cmds[20]))
        check("cc set rai_cyc 0x3a98", "cc: rai_cyc 15000 cycles\n", s.reply(cmds[21]))
        check("cc set burst 4096", "cc: burst 4096 bytes\n", s.reply(cmds[22]))
        check("cc qp 3", "cc: qp 3: rate 100000 Mb/s (line), not under rate control\n", s.reply(cmds[23]))
        nqp = 256
        check("cc qp 256", f"cc: qp: {nqp} out of range 0..{nqp - 1}\n", s.reply(cmds[24]))
        check("cc qp without N", "cc: qp: expected a QP number\n", s.reply(cmds[25]))
        check("cc after the sets (the refused ones changed nothing)",
              "cc: ECT(0) marking on (RoCE packets leave with ECN 2'b10, ECN-capable)\n"
              "cc: notification point: a CNP per CE-marked QP at most every 500 cycles (2000 ns)\n" + counters +
              rp(min_mbps=10, g=1020, rai=15000, burst=4096), s.reply(cmds[26]))
        check("stats of the reaction point's counters",
              "roce    rp_cnp_handled 0 rp_cnp_ignored 0 rp_rate_dec 0 rp_ev_dropped 0 rp_paced 0\n", s.reply(cmds[27]))
        finish(s)


def case_mem_roundtrip():
    syms = symbols()
    rnd = random.Random(4791)
    n = 9
    base = free_dmem(syms, n)
    vals = [rnd.getrandbits(32) for _ in range(n)]
    # alternate decimal and hex to exercise both number forms
    writes = [f"mem wr 0x{base + 4 * i:08x} {f'0x{v:x}' if i % 2 else v}" for i, v in enumerate(vals)]
    dmem_last = syms["__dmem_base"][0] + syms["__dmem_bytes"][0] - 4
    reads = [f"mem rd 0x{base:08x} {n}", "mem rd 0 8", "mem rd 0x20000000", f"mem rd {dmem_last:#x} 1"]
    with Sim(typed(*writes, *reads)) as s:
        s.boot()
        for w in writes:
            check(f"'{w}'", "", s.reply(w))
        out = s.reply(reads[0])
        want = {base + 4 * i: v for i, v in enumerate(vals)}
        check(f"mem rd of what mem wr wrote ({out!r})", want, parse_hex_dump(out))
        check("mem rd line count (4 words per line)", (n + 3) // 4, len(out.splitlines()))
        # IMEM through the data port: compare with the image file
        img = image()
        want = {a: int.from_bytes(img[a:a + 4], "little") for a in range(0, 32, 4)}
        check("mem rd of IMEM vs build/fw/solonic.hex", want, parse_hex_dump(s.reply(reads[1])))
        # a register block: the sysinfo ID word is ASCII 'SLNC'
        check("mem rd of the sysinfo ID", {0x20000000: 0x534C4E43}, parse_hex_dump(s.reply(reads[2])))
        # the last word of DMEM is readable (the bound is inclusive)
        got = parse_hex_dump(s.reply(reads[3]))
        check("mem rd of the last DMEM word", [dmem_last], list(got))
        finish(s)


def case_mem_errors():
    syms = symbols()
    dmem_end = syms["__dmem_base"][0] + syms["__dmem_bytes"][0]
    expect_fmt = "mem rd: ADDR: expected a number (decimal or 0x hex), got '{}'\n"
    cases = [
        ("mem rd 0x50000000", "mem: address 0x50000000 is not mapped (see 'help mem')\n"),
        ("mem wr 0x50000000 1", "mem: address 0x50000000 is not mapped (see 'help mem')\n"),
        (f"mem rd {dmem_end:#x}", f"mem: address 0x{dmem_end:08x} is not mapped (see 'help mem')\n"),
        ("mem rd 0x10000002", "mem: address 0x10000002 is not word aligned (a multiple of 4)\n"),
        ("mem wr 0x10000001 5", "mem: address 0x10000001 is not word aligned (a multiple of 4)\n"),
        (f"mem rd {dmem_end - 8:#x} 3",
         f"mem: 3 words from 0x{dmem_end - 8:08x} run past the end of DMEM "
         f"(0x10000000..0x{dmem_end - 1:08x}): at most 2\n"),
        ("mem rd 0x1000zz", expect_fmt.format("0x1000zz")),
        ("mem rd 12abc", expect_fmt.format("12abc")),
        ("mem rd -4", expect_fmt.format("-4")),
        ("mem rd +4", expect_fmt.format("+4")),
        ("mem rd 0x", expect_fmt.format("0x")),
        ("mem rd 0x100000000", "mem rd: ADDR: 0x100000000 does not fit in 32 bits\n"),
        ("mem rd 0x10000000 0", "mem rd: N: expected 1..256 words, got 0\n"),
        ("mem rd 0x10000000 257", "mem rd: N: expected 1..256 words, got 257\n"),
        ("mem rd 0x10000000 4x", "mem rd: N: expected a number (decimal or 0x hex), got '4x'\n"),
        ("mem wr 0x10000000 1q", "mem wr: VALUE: expected a number (decimal or 0x hex), got '1q'\n"),
        ("mem rd", "mem rd: expected ADDR [N]\n"),
        ("mem wr 0x10000000", "mem wr: expected ADDR VALUE\n"),
        ("mem", "mem: expected 'rd' or 'wr' (see 'help mem')\n"),
        ("mem peek 0", "mem: expected 'rd' or 'wr', got 'peek' (see 'help mem')\n"),
        # inside the sysinfo block, past its registers: the bus answers err,
        # the console reports the access fault and keeps running
        ("mem rd 0x20000ff0", "20000ff0:\nmem: reading 0x20000ff0 failed: load access fault\n"),
        ("mem wr 0x20000ff0 1", "mem: writing 0x20000ff0 failed: store access fault\n"),
    ]
    lines = [c[0] for c in cases] + ["mem rd 0x20000000"]
    with Sim(typed(*lines)) as s:
        s.boot()
        for line, want in cases:
            check(f"'{line}'", want, s.reply(line))
        check("mem rd of the sysinfo ID after the errors", {0x20000000: 0x534C4E43},
              parse_hex_dump(s.reply("mem rd 0x20000000")))
        finish(s)


def case_backspace():
    # DEL (0x7f) and BS (0x08) erase one character each: "versx<DEL>iom<BS>n" -> "version";
    # backspace on an empty line erases nothing (and echoes nothing)
    with Sim("versx\x7fiom\x08n\r" + "\x7f\x08xyz\r" + typed()) as s:
        s.boot()
        echo = s.expect(r"(.*?)\n", what="echo of the edited line").group(1)
        check("echo of 'versx<DEL>iom<BS>n'", "versx\b \biom\b \bn", echo)
        out = s.upto_prompt("output of the edited line")
        check("the edited line runs 'version'", f"solonic {git_describe()}", out.splitlines()[0])
        out = s.upto_prompt("output after backspaces on an empty line")
        check("backspace at the start of a line", "xyz\nunknown command 'xyz'; type 'help'\n", out)
        finish(s)


def case_ctrl_c_and_ctrl_u():
    with Sim("mem rd 0x50000000\x03" + "garbage\x15" + typed("version")) as s:
        s.boot()
        out = s.upto_prompt("prompt after Ctrl-C")
        check("Ctrl-C cancels the line", "mem rd 0x50000000^C\n", out)
        s.expect(re.escape("garbage" + "\b \b" * 7), what="Ctrl-U erasing 'garbage'")
        out = s.reply("version")
        check("the command after Ctrl-U runs alone", f"solonic {git_describe()}", out.splitlines()[0])
        finish(s)


def case_overlong_line():
    with Sim("x" * 200 + "\r" + typed("x" * 127, "version")) as s:
        s.boot()
        out = s.upto_prompt("prompt after an overlong line")
        check("overlong line: echo stops at 127 characters, then the refusal",
              "x" * 127 + "\a\nerror: line too long (more than 127 characters); ignored\n", out)
        check("a line of exactly 127 characters is accepted", f"unknown command '{'x' * 127}'; type 'help'\n",
              s.reply("x" * 127))
        check("console after an overlong line", f"solonic {git_describe()}",
              s.reply("version").splitlines()[0])
        finish(s)


def case_random_bytes():
    """Issue 15 item 7: seeded random bytes on the UART never stop the console. 80 lines of
    random bytes (every value but CR/LF; half of them behind the name of a harmless command,
    so its argument parsing sees them), each ended by CR, then Ctrl-C and Ctrl-U, then 'version'
    must answer exactly and the run end with 'exit 0'."""
    rnd = random.Random(15_7)
    safe = ["help", "version", "uptime", "mem rd", "qp show", "mr list", "dump", "stats", "arp"]
    lines = []
    for i in range(80):
        junk = bytes(b for b in rnd.randbytes(rnd.randrange(1, 100)) if b not in (10, 13))
        lines.append((safe[i % len(safe)].encode() + b" " if i % 2 else b"") + junk)
    keys = b"".join(line + b"\r" for line in lines) + b"\x03\x15" + typed("version").encode()
    with Sim(keys.decode("latin-1"), max_seconds=240) as s:
        s.boot()
        s.expect(re.escape(PROMPT + "version\n") + re.escape(f"solonic {git_describe()}\n"),
                 what="'version' after 80 lines of random bytes")
        finish(s)


def case_line_endings():
    keys = "xyz\r\n" + "xyz\n" + "xyz\r" + "version\r\n" + "\r\r" + typed()
    with Sim(keys) as s:
        s.boot()
        for name in ("CRLF", "LF", "CR"):
            out = s.upto_prompt(f"output after {name}")
            check(f"'xyz' ended by {name}", "xyz\nunknown command 'xyz'; type 'help'\n", out)
        # CRLF is one line end: no empty command (and no extra prompt) follows
        out = s.upto_prompt("output of 'version' ended by CRLF")
        check("'version' CRLF runs once", f"version\nsolonic {git_describe()}", "\n".join(out.splitlines()[:2]))
        check("CR CR: a prompt for each empty line", "\n", s.upto_prompt("first empty line"))
        check("CR CR: a prompt for each empty line", "\n", s.upto_prompt("second empty line"))
        finish(s)


def case_uptime_and_timer_irq():
    rx = r"uptime (\d+) ms, (\d+) cycles at (\d+) Hz, (\d+) timer ticks of (\d+) ms\n"
    rounds = 2  # each 'mem rd ... 256' takes about 1.7 simulated ms (420 k cycles)
    lines = ["uptime"]
    for _ in range(rounds):
        lines += ["mem rd 0x10000000 256", "uptime"]
    # about 1 M simulated cycles: under half a minute of wall time on an idle 2-core machine; the
    # wall bound only catches a hang (the cycle counts are what is checked)
    with Sim(typed(*lines), max_seconds=400) as s:
        s.boot()
        samples = []
        for line in lines:
            out = s.reply(line)
            if line == "uptime":
                m = re.fullmatch(rx, out)
                check_true("'uptime' output", m is not None, rx, out)
                samples.append([int(x) for x in m.groups()])
        for ms, c, hz, t, p in samples:
            check("ms vs cycles / clock", c * 1000 // hz, ms)
            # one timer interrupt every p ms since the tick started at boot (< 1 ms)
            check_true(f"timer ticks ({t}) vs uptime ({ms} ms, period {p} ms)",
                       ms // p - 2 <= t <= ms // p, f"{ms // p - 2}..{ms // p}", t)
        check_true("uptime reached 3 ms", samples[-1][0] >= 3, ">= 3 ms", samples[-1][0])
        cycles = [x[1] for x in samples]
        check("cycles increase from one uptime to the next", sorted(set(cycles)), cycles)
        finish(s)


def case_watchdog():
    """A hung firmware is restarted by the watchdog: the SoC is reset (sysinfo scratch back to
    0), the datapath is not (on-board memory filled before still verifies), the restart is
    counted and said, and the console serves again."""
    first = ["watchdog", "watchdog 0", "watchdog off", "watchdog", "mem wr 0x20000018 0x5ca1ab1e",
             "fill 0x1000 4096 77", "watchdog 1"]
    after = ["watchdog", "mem rd 0x20000018 1", "verify 0x1000 4096 77", "mem rd 0x2000401c 1"]
    on = r"watchdog: on, timeout (\d+) ms, (\d+) ms left, (\d+) restart\(s\) since power-on\n"
    with Sim(typed(*first, "fault hang", exit_code=None), keep_stdin=True, max_seconds=300) as s:
        s.boot()
        m = re.fullmatch(on, s.reply("watchdog"))
        check_true("'watchdog' after boot", m is not None, on, m)
        check("timeout armed at boot (ms)", "1000", m.group(1))
        check_true("ms left within the timeout", int(m.group(2)) <= 1000, "<= 1000", m.group(2))
        check("restarts after power-on", "0", m.group(3))
        check("'watchdog 0'", "watchdog: MS: expected 1..10000, got 0\n", s.reply("watchdog 0"))
        check("'watchdog off'", "watchdog: off, 0 restart(s) since power-on\n", s.reply("watchdog off"))
        check("'watchdog' when off", "watchdog: off, 0 restart(s) since power-on\n", s.reply("watchdog"))
        check("'mem wr' of sysinfo scratch", "", s.reply(first[4]))
        check_true("'fill'", "error" not in s.reply(first[5]).lower(), "a fill", "")
        m = re.fullmatch(on, s.reply("watchdog 1"))
        check_true("'watchdog 1'", m is not None and m.group(1) == "1", "on, timeout 1 ms", m)
        s.expect(re.escape("fault hang\nfault: provoking 'hang'\n") + re.escape(
            "fault: spinning with interrupts off; the watchdog restarts the firmware in 1 ms\n"),
            what="fault hang")
        banner = s.expect(r"(.*?)" + re.escape(PROMPT), what="the banner after the restart").group(1)
        check_true("banner after the restart", f"solonic {git_describe()} (built " in banner,
                   "the banner", banner)
        want = ("watchdog: the firmware stopped for more than 1 ms and was restarted (restart 1 since "
                "power-on); the datapath kept running\n")
        check_true("the restart is said", want in banner, want, banner)
        s.send(typed(*after))
        m = re.fullmatch(on, s.reply("watchdog"))
        check_true("'watchdog' after the restart", m is not None, on, m)
        check("timeout armed again at boot (ms), restarts", ("1000", "1"), (m.group(1), m.group(3)))
        check("sysinfo scratch after the restart (SoC reset)", {0x20000018: 0},
              parse_hex_dump(s.reply(after[1])))
        out = s.reply(after[2])
        check_true("on-board memory after the restart (datapath kept)", "all bytes match" in out,
                   "verify: ... all bytes match", out)
        check("wdog bites register", {0x2000401c: 1}, parse_hex_dump(s.reply(after[3])))
        finish(s)


def case_exit_codes():
    with Sim(typed("exit 256", "exit x", "exit 1 2", exit_code=42)) as s:
        s.boot()
        check("exit code out of range", "exit: CODE: expected 0..255, got 256\n", s.reply("exit 256"))
        check("exit code not a number", "exit: CODE: expected a number (decimal or 0x hex), got 'x'\n",
              s.reply("exit x"))
        check("exit with two arguments", "exit: too many arguments\n", s.reply("exit 1 2"))
        s.expect(re.escape("exit 42\nexit: ending the simulation with code 42\n"), what="exit message")
        check("process exit code after 'exit 42'", 42, s.wait_exit())
    with Sim("exit\r") as s:
        s.boot()
        check("process exit code after 'exit'", 0, s.wait_exit())
    with Sim("exit 0x0b\r") as s:
        s.boot()
        check("process exit code after 'exit 0x0b'", 11, s.wait_exit())


def case_trap_reports():
    syms = symbols()
    # the faulting instruction is in cmd_fault or, for the loads, fault_load if not inlined
    ranges = [syms[f] for f in ("cmd_fault", "fault_load") if f in syms]
    for kind, cause, name in (("illegal", 2, "illegal instruction"), ("load", 5, "load access fault"),
                              ("misaligned", 4, "load address misaligned"), ("ebreak", 3, "breakpoint"),
                              ("ecall", 11, "environment call from M-mode")):
        with Sim(f"fault {kind}\r") as s:
            s.boot()
            rc = s.wait_exit(what=f"simulator exit after 'fault {kind}'")
            check(f"exit code after 'fault {kind}'", TRAP_EXIT, rc)
            m = re.search(r"\*\*\* unexpected exception: (.*)\n\*\*\* mcause=0x([0-9a-f]{8}) "
                          r"mepc=0x([0-9a-f]{8}) mtval=0x([0-9a-f]{8})", s.text)
            check_true(f"trap report after 'fault {kind}'", m is not None, "*** unexpected exception: ...",
                       tail(s.text, 600))
            check(f"cause name ({kind})", name, m.group(1))
            check(f"mcause ({kind})", cause, int(m.group(2), 16))
            mepc = int(m.group(3), 16)
            check_true(f"mepc ({kind}) inside cmd_fault", any(lo <= mepc < lo + n for lo, n in ranges),
                       " or ".join(f"0x{lo:x}..0x{lo + n:x}" for lo, n in ranges), hex(mepc))
            if kind in ("load", "misaligned"):  # the faulting address, as the core reports it
                check(f"mtval of the {kind} load", {"load": 0x50000000, "misaligned": 0x10000002}[kind],
                      int(m.group(4), 16))
            check_true("register dump", re.search(r"\s+ra=0x[0-9a-f]{8}\s+sp=0x[0-9a-f]{8}", s.text),
                       "ra=... sp=...", tail(s.text, 600))


def case_uart_in_script():
    """The scripted form (--uart-in): each line goes in after the prompt."""
    syms = symbols()
    base = free_dmem(syms, 1)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(f"version\nmem wr 0x{base:08x} 0xcafe4791\nmem rd 0x{base:08x}\nexit 3\n")
        script = f.name
    try:
        with Sim(extra=("--uart-in", script)) as s:
            rc = s.wait_exit()
            check("exit code of the script ('exit 3')", 3, rc)
            text = s.text
            check_true("script: version", f"solonic {git_describe()}\n" in text, "the version line",
                       tail(text, 600))
            check_true("script: mem rd of mem wr", f"{base:08x}: cafe4791\n" in text,
                       f"{base:08x}: cafe4791", tail(text, 600))
    finally:
        os.unlink(script)


def case_profile():
    """solonic_sim --profile against the core's own counter: the cycles the histogram puts
    in cpi's code (scripts/fw_profile.py, by function) are at least what the firmware
    measured with mcycle around its CRC and copy kernels and at most 15% more (the buffer's
    fill), and the histogram holds one count per simulated cycle of the run (--stats)."""
    with tempfile.TemporaryDirectory() as td:
        script = os.path.join(td, "in.txt")
        with open(script, "w") as f:
            f.write("cpi 4\nexit 0\n")
        prefix = os.path.join(td, "prof")
        with Sim(extra=("--uart-in", script, "--profile", prefix, "--stats")) as s:
            check("exit code", 0, s.wait_exit())
            text = s.text
            s.err.seek(0)
            err = s.err.read().decode(errors="replace")
        runs = {m[1]: int(m[2]) for m in re.finditer(r"cpi (\S+) +cycles (\d+) instructions", text)}
        check("cpi printed its two kernels", ["copy", "crc32"], sorted(runs))
        m = re.search(r"stats nic0 cycles=(\d+)", err)
        check_true("--stats printed NIC 0's cycles", m is not None, "stats nic0 cycles=N", err)
        path = prefix + ".nic0.txt"
        check_true("the profile was written", os.path.exists(path), path, os.listdir(td))
        total = sum(int(line.split()[1]) for line in open(path))
        cycles = int(m.group(1))
        check_true("one count per cycle out of reset", cycles - 64 <= total <= cycles, f"{cycles} - reset", total)
        p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/fw_profile.py"), path, "--top", "400"],
                           stdout=subprocess.PIPE, text=True, check=True)
        by_fn = {m[2]: int(m[1]) for m in re.finditer(r"^ *(\d+) +[\d.]+%  (\S+)$", p.stdout, re.M)}
        # -Os inlines the kernels into cmd_cpi; the rest of cmd_cpi is the 4 KiB buffer's
        # fill before them (about 10% of the kernels' cycles)
        fns = ("cmd_cpi", "measure_crc", "crc32_bitwise", "measure_copy", "copy_sum")
        got = sum(by_fn.get(f, 0) for f in fns)
        want = runs["crc32"] + runs["copy"]
        check_true(f"the profile's cycles in cpi's code against mcycle's {want} around its kernels",
                   want <= got <= 1.15 * want, f"{want} .. {1.15 * want:.0f}", got)


def case_mem_option():
    """solonic_sim --mem against arithmetic: the fill/check engine's 1 MiB verify runs at the
    bandwidth limit (bw=16: 16 bytes a cycle, 32 Gb/s at 250 MHz) and, with one burst
    outstanding and 400 cycles of read latency, takes about 256 bursts x (400 + 64 beats);
    a key it does not name keeps sim_nic's own parameter (a SPEC of the default outstanding
    count takes exactly the cycles of no --mem); a bad SPEC is refused with its reason (exit 2)."""
    def verify_cycles(spec):
        with Sim(typed("fill 0x100000 0x100000 5", "verify 0x100000 0x100000 5"),
                 extra=("--mem", spec) if spec else ()) as s:
            s.boot()
            s.reply("fill 0x100000 0x100000 5")
            out = s.reply("verify 0x100000 0x100000 5")
            finish(s)
        m = re.search(r"all bytes match; 1048576 bytes in (\d+) cycles", out)
        check_true(f"--mem {spec}: verify's line", m is not None, "all bytes match; 1048576 bytes in N cycles", out)
        return int(m.group(1))
    check("--mem outstanding=64 (the default) vs no --mem: verify's cycles", verify_cycles(None),
          verify_cycles("outstanding=64"))
    c = verify_cycles("bw=16")
    want = (1 << 20) // 16
    check_true("bw=16: 1 MiB at 16 bytes a cycle", want <= c <= want * 1.01, f"{want} .. +1%", c)
    c = verify_cycles("rd=400,outstanding=1")
    want = 256 * (400 + 64)
    check_true("rd=400,outstanding=1: 256 bursts of 4 KiB one after another", abs(c - want) <= 0.03 * want,
               f"{want} +- 3%", c)
    for spec, why in (("bogus=1", "unknown memory option 'bogus'"), ("rd=x", "memory option 'rd' needs")):
        with Sim("", extra=("--mem", spec)) as s:
            rc = s.wait_exit()
            check(f"--mem {spec}: harness error", 2, rc)
            check_true(f"--mem {spec}: says why", why in s.stderr_note(), why, s.stderr_note())


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        print("\n".join(CASES))
        return 0
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        CASES[sys.argv[1]]()
    except Failure as e:
        print(f"FAIL {sys.argv[1]}: {e}")
        return 1
    print(f"PASS {sys.argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
