"""The register generator: generated RTL behaves as the description says, the C header
and docs/registers.md agree with it, and bad descriptions are refused with a reason.

The expectations come from the description's documented semantics (regs/regtool.py
docstring), modelled here in Python, not from the generator's code."""
import pathlib
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TB = ROOT / "build/regs/Vdemo_regs"
DESC = tomllib.loads((ROOT / "tests/regs/demo.toml").read_text())
OFF = {"id": 0, "version": 4}
_nxt = 8
for _r in DESC["reg"]:
    OFF[_r["name"]] = _r.get("offset", _nxt)
    _nxt = max(_nxt, OFF[_r["name"]] + 4)


def bus(*cmds):
    p = subprocess.run([str(TB)], input="\n".join(cmds) + "\n", capture_output=True, text=True,
                       timeout=30, check=True)
    return p.stdout.splitlines()


def fields(line):
    return {k: int(v, 16) if k in ("data", "cmd", "ctrl", "irq", "full") else int(v)
            for k, v in (t.split("=") for t in line.split()[1:])}


def test_id_and_version_words():
    r = bus(f"R {OFF['id']:x}", f"R {OFF['version']:x}")
    assert fields(r[0])["data"] == int.from_bytes(b"DEMO", "big"), r
    assert fields(r[1])["data"] == DESC["block"]["version"], r


def test_rw_reset_write_mask_and_byte_enables():
    r = bus("Q", f"W {OFF['ctrl']:x} ffffffff f", "Q", f"W {OFF['ctrl']:x} 00000012 1", "Q",
            f"W {OFF['ctrl']:x} 00000300 2", "Q", f"R {OFF['ctrl']:x}")
    assert fields(r[0])["ctrl"] == 0xABC
    assert fields(r[1])["we_pulse"] == 1 and fields(r[1])["err"] == 0
    assert fields(r[2])["ctrl"] == 0xFFF            # 12 bits wide
    assert fields(r[4])["ctrl"] == 0xF12            # byte 0 only
    assert fields(r[6])["ctrl"] == 0x312            # byte 1 only, 4 bits of it exist
    assert fields(r[7])["data"] == 0x312


def test_ro_reads_hardware_and_strobes_on_read():
    r = bus("RO 12345678", f"R {OFF['stat']:x}", f"R {OFF['ctrl']:x}")
    assert fields(r[0]) == {"data": 0x12345678, "err": 0, "re": 1}
    assert fields(r[1])["re"] == 0


def test_wo_strobes_value_and_reads_zero():
    r = bus(f"W {OFF['cmd']:x} abcd1234 f", f"R {OFF['cmd']:x}", f"W {OFF['ctrl']:x} 1 f")
    assert fields(r[0])["cmd_we"] == 1 and fields(r[0])["cmd"] == 0x1234
    assert fields(r[1]) == {"data": 0, "err": 0, "re": 0}
    assert fields(r[2])["cmd_we"] == 0


def test_w1c_sets_from_hardware_and_clears_on_write_one():
    r = bus("SET a5", "Q", f"W {OFF['irq']:x} 00000081 f", "Q", "SET 02", "Q")
    assert fields(r[0])["irq"] == 0xA5
    assert fields(r[1])["err"] == 0
    assert fields(r[2])["irq"] == 0x24
    assert fields(r[3])["irq"] == 0x26


def test_unmapped_offsets_answer_err_and_change_nothing():
    r = bus("W 20 ffffffff f", "R 20", "R ffc", "Q", f"R {OFF['full']:x}")
    assert fields(r[0])["err"] == 1
    assert fields(r[1])["err"] == 1 and fields(r[2])["err"] == 1
    assert fields(r[3])["ctrl"] == 0xABC
    assert fields(r[4])["err"] == 0       # an explicit offset past a gap is mapped


def test_docs_registers_md_is_up_to_date():
    descs = sorted(str(p) for p in (ROOT / "regs").glob("*.toml"))
    p = subprocess.run([sys.executable, "regs/regtool.py", *descs, "--check-doc", "docs/registers.md"],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_c_header_addresses_match_description(tmp_path):
    descs = sorted(str(p) for p in (ROOT / "regs").glob("*.toml"))
    hdr = tmp_path / "r.h"
    subprocess.run([sys.executable, "regs/regtool.py", *descs, "--header", str(hdr)], cwd=ROOT, check=True)
    prog = tmp_path / "p.c"
    lines = ['#include "r.h"', "#include <stdio.h>", "int main(void){"]
    expect = []
    for d in descs:
        t = tomllib.loads(pathlib.Path(d).read_text())
        b, nxt = t["block"], 8
        for r in t.get("reg", []):
            off = r.get("offset", nxt)
            nxt = max(nxt, off + 4)
            lines.append(f'printf("%x\\n", (unsigned)({b["name"].upper()}_{r["name"].upper()}));')
            expect.append(b["base"] + off)
    lines.append("return 0;}")
    prog.write_text("\n".join(lines))
    subprocess.run(["gcc", "-Wall", "-Werror", "-o", str(tmp_path / "p"), str(prog)], check=True)
    got = subprocess.run([str(tmp_path / "p")], capture_output=True, text=True, check=True).stdout.split()
    assert [int(x, 16) for x in got] == expect


@pytest.mark.parametrize("bad, why", [
    ('[block]\nname="x"\nbase=0x100\n[[reg]]\nname="a"\noffset=8\n[[reg]]\nname="b"\noffset=8\n', "used twice"),
    ('[block]\nname="x"\nbase=0x100\n[[reg]]\nname="a"\naccess="rx"\n', "access must be"),
    ('[block]\nname="x"\nbase=0x100\n[[reg]]\nname="a"\noffset=6\n', "word aligned"),
    ('[block]\nname="x"\nbase=0x100\n[[reg]]\nname="a"\nwidth=40\n', "width"),
    ('[block]\nname="x"\n', "needs a [block]"),
])
def test_bad_descriptions_are_refused_with_a_reason(tmp_path, bad, why):
    f = tmp_path / "bad.toml"
    f.write_text(bad)
    p = subprocess.run([sys.executable, "regs/regtool.py", str(f), "--sv-dir", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode != 0 and why in p.stderr, p.stderr
