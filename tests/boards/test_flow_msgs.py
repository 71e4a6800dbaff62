"""The Vivado targets where Vivado is not installed: one clear line, a non-zero
exit, no stack trace; an unknown board or memory is refused."""
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def make(*args):
    env = dict(os.environ, PATH="/usr/bin:/bin")   # no Vivado tools on this PATH
    for k in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS"):  # as a user runs it, not as a sub-make of make test
        env.pop(k, None)
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120)


def test_bitstream_without_vivado_says_so_in_one_line():
    p = make("bitstream", "BOARD=vcu118", "VIVADO=vivado-not-installed-here")
    assert p.returncode != 0
    lines = [l for l in p.stdout.splitlines() if l.strip() and not re.match(r"make(\[\d+\])?: \*\*\*", l)]
    assert len(lines) == 1, p.stdout
    assert "Vivado" in lines[0] and "not installed" in lines[0], lines[0]
    assert "Traceback" not in p.stdout


def test_update_fw_without_updatemem_says_so():
    p = make("update-fw", "BOARD=u55c", "UPDATEMEM=updatemem-not-installed-here")
    assert p.returncode != 0
    assert "not installed" in p.stdout and "Traceback" not in p.stdout


def test_unknown_memory_refused_before_vivado():
    p = make("bitstream", "BOARD=vcu118", "MEM=hbm", "VIVADO=vivado-not-installed-here")
    assert p.returncode != 0
    assert "MEM=hbm is not a memory of vcu118 (one of: ddr4 uram)" in p.stdout, p.stdout
    assert "Vivado" not in p.stdout


def test_unknown_board_refused():
    p = make("bitstream", "BOARD=zcu102")
    assert p.returncode != 0 and "not a board of solonic" in p.stdout
