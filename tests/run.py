#!/usr/bin/env python3
"""solonic test runner.

Walks tests/*/group.py (docs/DEVELOPING.md), builds each group's make targets,
runs its cases two at a time, prints build and run seconds per group and ends
with the line `N passed, N failed`. Exits non-zero on any failure.
"""
import argparse
import concurrent.futures as cf
import importlib.util
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent
PY = "/usr/bin/python3"
DEFAULT_TIMEOUT = 300


def load_groups():
    groups = []
    for f in sorted((ROOT / "tests").glob("*/group.py")):
        spec = importlib.util.spec_from_file_location(f"group_{f.parent.name}", f)
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except Exception as e:  # a broken group is a failure, not a crash of the runner
            mod = BrokenGroup(f"{f}: {type(e).__name__}: {e}")
        groups.append((getattr(mod, "ORDER", 50), f.parent.name, mod))
    groups.sort(key=lambda g: (g[0], g[1]))
    return [(name, mod) for _, name, mod in groups]


class BrokenGroup:
    """Stands in for a group.py that could not be loaded or listed: one failing case."""
    ORDER = 0

    def __init__(self, why):
        self.why = why

    def cases(self):
        return [{"name": "group.py", "cmd": [PY, "-c", f"import sys; sys.exit({self.why!r})"]}]


def tail(text, n=40):
    lines = text.rstrip().splitlines()
    return "\n".join(lines[-n:])


def run_cmd_case(group, case):
    """A command case: passes on exit status 0."""
    t0 = time.monotonic()
    env = dict(os.environ, **case.get("env", {}))
    try:
        p = subprocess.run(case["cmd"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace",
                           timeout=case.get("timeout", DEFAULT_TIMEOUT))
        ok, out = p.returncode == 0, p.stdout
        why = "" if ok else f"exit status {p.returncode}"
    except subprocess.TimeoutExpired as e:
        ok, out = False, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        why = f"timed out after {case.get('timeout', DEFAULT_TIMEOUT)} s"
    except OSError as e:
        ok, out, why = False, "", f"could not start: {e}"
    return [(f"{group}/{case['name']}", ok, why, out, time.monotonic() - t0)]


def run_pytest_case(group, case):
    """A pytest case: every test function counts as one result."""
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as td:
        xml = pathlib.Path(td) / "r.xml"
        cmd = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={xml}",
               case["pytest"]] + case.get("args", [])
        env = dict(os.environ, **case.get("env", {}))
        try:
            p = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors="replace",
                               timeout=case.get("timeout", DEFAULT_TIMEOUT))
            out, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired:
            return [(f"{group}/{case['name']}", False,
                     f"timed out after {case.get('timeout', DEFAULT_TIMEOUT)} s", "",
                     time.monotonic() - t0)]
        results = []
        if xml.exists():
            for tc in ET.parse(xml).getroot().iter("testcase"):
                name = f"{group}/{case['name']}::{tc.get('name')}"
                bad = tc.find("failure") if tc.find("failure") is not None else tc.find("error")
                if tc.find("skipped") is not None:
                    # a skipped test is not a pass: count it as a failure so nothing hides
                    results.append((name, False, "skipped: " + (tc.find("skipped").get("message") or ""),
                                    "", float(tc.get("time", 0))))
                elif bad is not None:
                    results.append((name, False, (bad.get("message") or "failed")[:200],
                                    bad.text or "", float(tc.get("time", 0))))
                else:
                    results.append((name, True, "", "", float(tc.get("time", 0))))
        if not results or (rc not in (0, 1) and all(r[1] for r in results)):
            results.append((f"{group}/{case['name']}", False, f"pytest exit status {rc}", out,
                            time.monotonic() - t0))
        return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", dest="pattern", help="run only cases whose group/name contains this")
    ap.add_argument("-j", type=int, default=2, help="cases run at once (default 2)")
    ap.add_argument("-v", action="store_true", help="print the output of passing cases too")
    a = ap.parse_args()

    passed = failed = 0
    summary = []
    t_all = time.monotonic()
    for gname, mod in load_groups():
        try:
            listed = mod.cases()
        except Exception as e:
            mod = BrokenGroup(f"tests/{gname}/group.py: cases() failed: {type(e).__name__}: {e}")
            listed = mod.cases()
        cases = [c for c in listed if not a.pattern or a.pattern in f"{gname}/{c['name']}"]
        if not cases:
            continue
        print(f"== {gname}: building", flush=True)
        t0 = time.monotonic()
        build = getattr(mod, "BUILD", [])
        build_ok = True
        if build:
            p = subprocess.run(["make", "-j2", "--no-print-directory"] + list(build), cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace")
            build_ok = p.returncode == 0
            if not build_ok:
                print(tail(p.stdout, 60))
        t_build = time.monotonic() - t0
        t0 = time.monotonic()
        g_pass = g_fail = 0
        if not build_ok:
            for c in cases:
                print(f"FAIL {gname}/{c['name']}: the group's build failed")
            g_fail = len(cases)
        else:
            with cf.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
                futs = [ex.submit(run_pytest_case if "pytest" in c else run_cmd_case, gname, c)
                        for c in cases]
                for fut in futs:
                    for name, ok, why, out, secs in fut.result():
                        if ok:
                            g_pass += 1
                            print(f"PASS {name} ({secs:.1f} s)", flush=True)
                            if a.v and out:
                                print(tail(out))
                        else:
                            g_fail += 1
                            print(f"FAIL {name} ({secs:.1f} s): {why}", flush=True)
                            if out:
                                print("  | " + tail(out).replace("\n", "\n  | "))
        t_run = time.monotonic() - t0
        summary.append((gname, t_build, t_run, g_pass, g_fail))
        passed += g_pass
        failed += g_fail

    print()
    print(f"{'group':<14} {'build s':>8} {'run s':>8} {'passed':>7} {'failed':>7}")
    for g, tb, tr, gp, gf in summary:
        print(f"{g:<14} {tb:8.1f} {tr:8.1f} {gp:7d} {gf:7d}")
    print(f"total {time.monotonic() - t_all:.1f} s")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
