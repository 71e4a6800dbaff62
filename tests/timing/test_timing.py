"""make timing's measuring tool (timing/timing.py) on blocks whose depth is known.

timing_probe.sv is a chain of DEPTH multiplexers each selected by the one before it,
between registers: Yosys cannot make it shallower than about DEPTH / 2.5 LUTs, so a
short chain must pass the budget and a long one must fail it with its path named;
COMB_OUT = 1 drives an output straight from an input, which the output rule must flag.
The netlist walk is also checked on a netlist written by hand, and the checked-in cache
against a fresh Yosys run of two small real blocks.
"""
import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "timing"))
import timing  # noqa: E402

PY = "/usr/bin/python3"
PROBE = "tests/timing/timing_probe.sv"
BUDGET = """
[budget]
lut_levels = 6
sta_ns = 2.5
[budget.cmac]
lut_levels = 5
sta_ns = 2.0
[block.short]
top = "timing_probe"
params = { DEPTH = 4 }
[block.long]
top = "timing_probe"
params = { DEPTH = 30 }
[block.comb_out]
top = "timing_probe"
params = { DEPTH = 2, COMB_OUT = 1 }
[debt]
"""


def run(tmp, budget, *args, files=(PROBE,)):
    (tmp / "budget.toml").write_text(budget)
    return subprocess.run([PY, "timing/timing.py", "--budget", str(tmp / "budget.toml"), "--out",
                           str(tmp / "out"), "--cache", str(tmp / "cache"), *args, *files],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("probe")
    p = run(tmp, BUDGET)
    res = json.loads((tmp / "out" / "results.json").read_text())
    return tmp, p, res


def test_a_short_chain_is_within_budget(probe):
    _, _, res = probe
    r = res["short"]
    assert 1 <= r["levels"] <= 6, r
    assert r["comb_outputs"] == [], r
    assert r["path"][0] == "start sel_q" and r["path"][-1].startswith("end FDRE y"), r["path"]


def test_a_deepened_path_fails_the_budget_and_is_named(probe):
    _, p, res = probe
    r = res["long"]
    assert r["levels"] > 6, r
    assert r["levels"] > res["short"]["levels"] + 4, (r["levels"], res["short"]["levels"])
    assert p.returncode == 1, p.stdout
    assert f"timing: long: {r['levels']} LUT levels > 6" in p.stdout, p.stdout
    assert "start sel_q ... end FDRE y .D" in p.stdout, p.stdout


def test_an_output_driven_from_an_input_is_flagged(probe):
    _, p, res = probe
    assert res["comb_out"]["comb_outputs"] == ["z: combinational from an input"]
    assert "timing: comb_out: 1 outputs not registered" in p.stdout, p.stdout
    assert "timing: short" not in p.stdout.split("blocks in")[1], p.stdout


def test_ratchet_passes_at_the_debt_line_and_fails_above_it(probe):
    tmp, _, res = probe
    lv, ns = res["long"]["levels"], res["long"]["sta_ns"]
    debt = f"long = {{ lut_levels = {lv}, sta_ns = {ns} }}\ncomb_out = {{ comb_outputs = 1 }}\n"
    ok = run(tmp, BUDGET + debt, "--ratchet")   # cached: no Yosys run
    assert ok.returncode == 0, ok.stdout
    assert "(cached)" in (tmp / "out" / "report.md").read_text()
    tight = f"long = {{ lut_levels = {lv - 1}, sta_ns = {ns} }}\ncomb_out = {{ comb_outputs = 1 }}\n"
    bad = run(tmp, BUDGET + tight, "--ratchet")
    assert bad.returncode == 1, bad.stdout
    assert f"timing: long: {lv} LUT levels > {lv - 1}" in bad.stdout, bad.stdout
    strict = run(tmp, BUDGET + debt)            # without --ratchet the budget itself counts
    assert strict.returncode == 1 and "timing: long:" in strict.stdout, strict.stdout


def cell(t, ins, outs):
    pd = {p: "input" for p in ins} | {p: "output" for p in outs}
    return {"type": t, "port_directions": pd, "connections": {**ins, **outs}}


def test_walk_counts_luts_lutram_reads_and_not_muxf():
    # in(2) -> FD(q=3) -> LUT(4) -> MUXF7(5) -> RAM64X1D read A0 (6) -> LUT(7) -> FD d ; LUT(8) from in -> out port
    mod = {"ports": {"clk": {"direction": "input", "bits": [1]}, "i": {"direction": "input", "bits": [2]},
                     "o": {"direction": "output", "bits": [8]}, "r": {"direction": "output", "bits": [10]}},
           "netnames": {"q": {"hide_name": 0, "bits": [3]}, "m": {"hide_name": 0, "bits": [7]},
                        "r": {"hide_name": 0, "bits": [10]}},
           "cells": {"ff1": cell("FDRE", {"C": [1], "D": [2]}, {"Q": [3]}),
                     "l1": cell("LUT2", {"I0": [3], "I1": [2]}, {"O": [4]}),
                     "mx": cell("MUXF7", {"I0": [4], "I1": [3], "S": [2]}, {"O": [5]}),
                     "ram": cell("RAM64X1D", {"A0": [5], "D": [4], "WE": [2], "WCLK": [1], "DPRA0": [3]},
                                 {"SPO": [6], "DPO": [11]}),
                     "l2": cell("LUT1", {"I0": [6]}, {"O": [7]}),
                     "ff2": cell("FDRE", {"C": [1], "D": [7]}, {"Q": [10]}),
                     "l3": cell("LUT1", {"I0": [2]}, {"O": [8]})}}
    r = timing.walk(mod, set())
    assert r["levels"] == 3, r                       # l1, the LUTRAM read, l2
    assert r["path"][0] == "start q" and r["path"][-1] == "end FDRE r .D", r["path"]
    assert r["comb_outputs"] == ["o: combinational from an input"], r


def test_cache_entries_match_a_fresh_yosys_run(tmp_path):
    """The checked-in figures of two small blocks are what Yosys gives today."""
    files = subprocess.run(["make", "-s", "--no-print-directory", "print-timing-rtl"], cwd=ROOT,
                           stdout=subprocess.PIPE, text=True, check=True).stdout.split()
    p = subprocess.run([PY, "timing/timing.py", "--no-cache", "--only", "soc_timer,soc_simctrl", "--out",
                        str(tmp_path), *files], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    fresh = json.loads((tmp_path / "results.json").read_text())
    for b in ("soc_timer", "soc_simctrl"):
        cached = json.loads((ROOT / "timing" / "cache" / f"{b}.json").read_text())
        if cached["key"] != fresh[b]["key"]:
            pytest.skip(f"{b}'s RTL changed since the cache was written (the budget check re-runs it)")
        for k in ("levels", "carry", "sta_ns", "LUT", "FF", "comb_outputs"):
            assert fresh[b][k] == cached[k], (b, k, fresh[b][k], cached[k], p.stdout[-2000:])
