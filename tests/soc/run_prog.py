#!/usr/bin/env python3
"""SoC test programs (tests/soc/progs) on the simulator build/sim/solonic_sim.

Each case runs one program with some harness options and checks the exit
code, the UART output (stdout) and the harness's messages (stderr) against
what the program and docs/DEVELOPING.md ("The simulator") say must happen.

    run_prog.py --list      the case names
    run_prog.py CASE        run one case; exit 0 on pass, 1 with expected/got on failure
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIM = os.path.join(ROOT, "build/sim/solonic_sim")
PROGS = os.path.join(ROOT, "build/soc/progs")
TIMEOUT = 120  # seconds of wall time for one run (a bound, never an assertion)


class Failure(Exception):
    pass


def run(prog, *opts, stdin=b"", script=None, hexfile=None):
    args = [SIM, "--fw", hexfile or os.path.join(PROGS, prog + ".hex")]
    tmp = None
    if script is not None:
        tmp = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        tmp.write(script)
        tmp.close()
        args += ["--uart-in", tmp.name]
    args += list(opts)
    try:
        p = subprocess.run(args, cwd=ROOT, input=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    finally:
        if tmp:
            os.unlink(tmp.name)
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode("latin-1")


def expect(what, expected, got):
    if expected != got:
        raise Failure(f"{what}\n  expected: {expected!r}\n  got:      {got!r}")


def expect_re(what, pattern, text):
    if not re.search(pattern, text):
        raise Failure(f"{what}\n  expected to match: {pattern!r}\n  got: {text!r}")


def self_check(prog, out):
    def case():
        rc, so, se = run(prog, "--max-cycles", "2000000")
        expect(f"{prog}: UART output", out, so)
        expect(f"{prog}: exit code (stderr: {se.strip()!r})", 0, rc)
    return case


def exit_code_reaches_process():
    rc, so, se = run("soc_exit3", "--max-cycles", "100000")
    expect("exit code of a program writing 3 to simctrl.exit", 3, rc)
    expect("UART output", "", so)
    expect_re("stderr names the firmware's exit code", r"firmware exit code 3\b", se)


def uart_script():
    script = "hello\nMixed Case 123\n"
    rc, so, se = run("soc_echo", "--max-cycles", "2000000", script=script)
    expect("UART output of the script session",
           "soc_echo ready\nsolonic> HELLO\nsolonic> MIXED CASE 123\nsolonic> ", so)
    expect("exit code at the prompt after the last line", 0, rc)


def uart_script_firmware_exit():
    # the program exits on "quit": its code wins, later lines are never sent
    rc, so, se = run("soc_echo", "--max-cycles", "2000000", script="abc\nquit\nnever sent\n")
    expect("UART output", "soc_echo ready\nsolonic> ABC\nsolonic> ", so)
    expect("exit code (the program's, on quit)", 5, rc)


def uart_script_prompt_start_of_line():
    # "> " appears only in the middle of "solonic> ": never at a line start,
    # so nothing is sent and the run ends at the cycle limit
    rc, so, se = run("soc_echo", "--prompt", "> ", "--max-cycles", "300000", script="abc\n")
    expect("UART output (no line sent)", "soc_echo ready\nsolonic> ", so)
    expect("exit code", 124, rc)
    # a prompt given with --prompt that does start the line is honoured; the
    # run ends the moment it has appeared (before the program's trailing space)
    rc, so, se = run("soc_echo", "--prompt", "solonic>", "--max-cycles", "2000000", script="xyz\n")
    expect("UART output with --prompt solonic>", "soc_echo ready\nsolonic> XYZ\nsolonic>", so)
    expect("exit code", 0, rc)


def uart_stdin_pipe():
    rc, so, se = run("soc_echo", "--max-cycles", "5000000", stdin=b"pipe\nquit\n")
    expect("UART output from a piped stdin", "soc_echo ready\nsolonic> PIPE\nsolonic> ", so)
    expect("exit code", 5, rc)


def max_cycles_limit():
    rc, so, se = run("soc_hang", "--max-cycles", "10000", "--stats")
    expect("exit code at --max-cycles", 124, rc)
    expect("UART output", "h", so)
    expect_re("stderr says which limit", r"cycle limit \(--max-cycles 10000\)", se)
    expect_re("--stats line with the cycle count", r"stats cycles=10000 instret=\d+ wall_s=[\d.]+ cycles_per_s=\d+", se)


def max_seconds_limit():
    rc, so, se = run("soc_hang", "--max-seconds", "0.5")
    expect("exit code at --max-seconds", 124, rc)
    expect_re("stderr says which limit", r"wall-time limit \(--max-seconds 0\.5\)", se)


def quiet():
    rc, so, se = run("soc_hang", "--max-cycles", "5000", "--quiet")
    expect("exit code", 124, rc)
    expect("stderr with --quiet", "", se)


def bad_image():
    rc, so, se = run(None, hexfile="/nonexistent/fw.hex")
    expect("exit code for a missing image", 2, rc)
    expect_re("stderr names the file", r"/nonexistent/fw\.hex", se)
    with tempfile.NamedTemporaryFile("w", suffix=".hex", delete=False) as f:
        f.write("00000013\nnot-hex\n")
    try:
        rc, so, se = run(None, hexfile=f.name)
    finally:
        os.unlink(f.name)
    expect("exit code for a malformed image", 2, rc)
    expect_re("stderr names the line", r":2: not a hex word", se)
    rc, so, se = run("soc_exit3", "--max-cycles", "nope")
    expect("exit code for a bad option value", 2, rc)


def fst_waveform():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "w.fst")
        rc, so, se = run("soc_exit3", "--fst", path, "--max-cycles", "100000")
        expect("exit code with --fst", 3, rc)
        expect("FST file written", True, os.path.exists(path) and os.path.getsize(path) > 0)
        rc, so, se = run("soc_exit3", "--max-cycles", "100000")
        expect("no FST file without --fst", [], os.listdir(d)[1:])


CASES = {
    "prog_ids": self_check("soc_ids", "soc_ids: ok\n"),
    "prog_unmapped_load_store_fault": self_check("soc_unmapped", "soc_unmapped: ok\n"),
    "prog_mem_byte_half_word": self_check("soc_mem", "DMEM\nDMEM top\nIMEM\nIMEM top\nsoc_mem: ok\n"),
    "prog_timer_irq": self_check("soc_timer", "soc_timer: ok\n"),
    "exit_code_reaches_process": exit_code_reaches_process,
    "uart_script_lines_after_prompt": uart_script,
    "uart_script_firmware_exit_wins": uart_script_firmware_exit,
    "uart_script_prompt_at_line_start": uart_script_prompt_start_of_line,
    "uart_stdin_pipe": uart_stdin_pipe,
    "limit_max_cycles_124": max_cycles_limit,
    "limit_max_seconds_124": max_seconds_limit,
    "quiet_no_stderr": quiet,
    "harness_error_2": bad_image,
    "fst_only_when_asked": fst_waveform,
}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: run_prog.py --list | CASE")
    if sys.argv[1] == "--list":
        print("\n".join(CASES))
        return 0
    try:
        CASES[sys.argv[1]]()
    except KeyError:
        sys.exit(f"run_prog.py: no case {sys.argv[1]!r}")
    except Failure as e:
        print(f"FAIL {sys.argv[1]}: {e}")
        return 1
    except subprocess.TimeoutExpired as e:
        print(f"FAIL {sys.argv[1]}: the simulator ran longer than {TIMEOUT} s: {e.cmd}")
        return 1
    print(f"{sys.argv[1]}: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
