r"""make synth's reader (boards/common/synth.py) on a small real Yosys run.

lib_fifo with its parameters set by chparam (as make synth sets NQP=4096 on
roce_transport): the rows must be read, with flip-flops, LUTs and a path; a
second call must come from the cache; --collect must read a finished run's
netlists again without Yosys and give the same figures. With roce_transport
(not with lib_fifo) Yosys names the chparam'd top $paramod\roce_transport\...:
top_name() finds it (test_top_name, on a netlist of that shape; make synth's
4096-QP run once failed there after 35 minutes of Yosys).
"""
import json
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "boards/common"))
import synth  # noqa: E402

FILES = ["rtl/lib/lib_fifo.sv"]
PARAMS = {"WIDTH": 12, "DEPTH": 32}


@pytest.fixture()
def out(tmp_path, monkeypatch):
    monkeypatch.setattr(synth, "OUT", tmp_path)
    monkeypatch.setattr(synth, "ROWS", [("fifo", "fifo", "", "test")])
    return tmp_path


def test_a_chparam_top_is_read_and_cached(out):
    res = synth.run("fifo", "lib_fifo", PARAMS, True, FILES)
    r = res["fifo"]
    assert "error" not in r, r
    # pointers of log2(32)+1 bits each, a count: some flip-flops; logic in LUTs; a path
    assert r["FF"] >= 10 and r["LUT"] > 0 and r["levels"] > 0, r
    assert r["params"] == PARAMS and r["cached"] is False
    again = synth.run("fifo", "lib_fifo", PARAMS, True, FILES)["fifo"]
    assert again["cached"] is True
    assert {k: again[k] for k in synth.FIG} == {k: r[k] for k in synth.FIG}


def test_collect_reads_the_netlists_a_run_left(out):
    res = synth.run("fifo", "lib_fifo", PARAMS, True, FILES)["fifo"]
    # a run whose reading failed leaves hier.json / flat.json and its log: make them again
    work = out / "runs" / "fifo"
    script = synth.yosys_script(synth.closure(FILES, "lib_fifo"), "lib_fifo", PARAMS, True, str(work))
    subprocess.run(["yosys", "-q", "-l", str(work / "yosys.log"), "-p", script], cwd=ROOT, check=True)
    shutil.rmtree(out / "cache")
    again = synth.run("fifo", "lib_fifo", PARAMS, True, FILES, collect_only=True)["fifo"]
    assert {k: again[k] for k in synth.FIG} == {k: res[k] for k in synth.FIG}
    assert str(again["seconds"]).endswith("CPU"), again["seconds"]
    assert not (work / "flat.json").exists()
    assert json.loads(next((out / "cache").glob("fifo-*.json")).read_text())["fifo"]["LUT"] == res["LUT"]


def test_collect_without_netlists_says_so(out):
    r = synth.run("fifo", "lib_fifo", PARAMS, True, FILES, collect_only=True)["fifo"]
    assert r["error"].startswith("--collect: no netlists in"), r


def test_top_name():
    nl = {"modules": {"$paramod\\x\\N=1": {"attributes": {"top": "00000000000000000000000000000001"}},
                      "y": {"attributes": {}}}}
    assert synth.top_name(nl, "x") == "$paramod\\x\\N=1"
    assert synth.top_name({"modules": {"x": {}}}, "x") == "x"
    with pytest.raises(KeyError):
        synth.top_name({"modules": {"y": {}}}, "x")
