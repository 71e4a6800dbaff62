#!/usr/bin/env python3
"""solonic test runner.

Walks tests/*/group.py (docs/DEVELOPING.md), builds each group's make targets in
group order and runs the cases of the groups already built, two things at a time,
longest first by tests/case_seconds.txt (class Schedule), prints build and case seconds per group and ends with the line
`N passed, N failed`. Exits non-zero on any failure.

A case marked "full": True (too long for make test's 25 minutes: campaigns, a second
run of what another case covers) runs only with --full (make test-full).
"""
import argparse
import concurrent.futures as cf
import importlib.util
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent
PY = "/usr/bin/python3"
DEFAULT_TIMEOUT = 300
SECONDS_FILE = ROOT / "tests" / "case_seconds.txt"


def load_seconds():
    """Each case's seconds in a past run (`group/name seconds` a line): the order only."""
    secs = {}
    if SECONDS_FILE.exists():
        for line in SECONDS_FILE.read_text().splitlines():
            name, _, val = line.rpartition(" ")
            try:
                secs[name] = float(val)
            except ValueError:
                pass
    return secs


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


class Schedule:
    """Builds and cases over one pool of J slots, so that no core idles at a group's end.

    The groups' builds run one after another, in group order, each in a slot of its own
    (`make -j2`: a build shares the machine with at most J - 1 cases); a free slot goes to
    the build waiting for one first, since it unblocks cases. A group's cases become ready
    when its build has passed and the ready case with the most seconds in
    tests/case_seconds.txt goes first (a case not listed last, then group order), so that
    a long case does not start alone at the end while the other slot idles."""

    def __init__(self, slots, seconds):
        self.seconds = seconds
        self.cv = threading.Condition()
        self.free = slots
        self.build_waiting = False
        self.ready = []          # (group index, case index, group name, case)
        self.builds_done = False

    def take_build_slot(self):
        with self.cv:
            self.build_waiting = True
            self.cv.wait_for(lambda: self.free > 0)
            self.free -= 1
            self.build_waiting = False

    def release(self):
        with self.cv:
            self.free += 1
            self.cv.notify_all()

    def add_ready(self, items):
        with self.cv:
            self.ready.extend(items)
            self.ready.sort(key=lambda r: (-self.seconds.get(f"{r[2]}/{r[3]['name']}", 0.0),
                                           r[0], r[1]))
            self.cv.notify_all()

    def end_builds(self):
        with self.cv:
            self.builds_done = True
            self.cv.notify_all()

    def take_case(self):
        """The next ready case with a slot for it, or None when nothing is left to run."""
        with self.cv:
            self.cv.wait_for(lambda: (self.free > 0 and not self.build_waiting and self.ready)
                             or (self.builds_done and not self.ready))
            if not self.ready:
                return None
            self.free -= 1
            return self.ready.pop(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", dest="pattern", help="run only cases whose group/name contains this")
    ap.add_argument("-j", type=int, default=2, help="builds and cases run at once (default 2)")
    ap.add_argument("-v", action="store_true", help="print the output of passing cases too")
    ap.add_argument("--full", action="store_true", help='also the cases marked "full" (make test-full)')
    ap.add_argument("--save-seconds", action="store_true",
                    help=f"write this run's case seconds to {SECONDS_FILE.relative_to(ROOT)}")
    a = ap.parse_args()

    t_all = time.monotonic()
    plan = []
    left_out = 0
    for gname, mod in load_groups():
        try:
            listed = mod.cases()
        except Exception as e:
            mod = BrokenGroup(f"tests/{gname}/group.py: cases() failed: {type(e).__name__}: {e}")
            listed = mod.cases()
        cases = [c for c in listed if not a.pattern or a.pattern in f"{gname}/{c['name']}"]
        left_out += sum(1 for c in cases if c.get("full") and not a.full)
        cases = [c for c in cases if a.full or not c.get("full")]
        if cases:
            plan.append((gname, mod, cases))

    sched = Schedule(max(1, a.j), load_seconds())
    case_secs = {}
    lock = threading.Lock()
    stats = {g: {"build": 0.0, "run": 0.0, "pass": 0, "fail": 0} for g, _, _ in plan}

    def report(gname, results, case_name=None):
        with lock:
            if case_name is not None:
                case_secs[f"{gname}/{case_name}"] = sum(r[4] for r in results)
            for name, ok, why, out, secs in results:
                stats[gname]["run"] += secs
                if ok:
                    stats[gname]["pass"] += 1
                    print(f"PASS {name} ({secs:.1f} s)", flush=True)
                    if a.v and out:
                        print(tail(out))
                else:
                    stats[gname]["fail"] += 1
                    print(f"FAIL {name} ({secs:.1f} s): {why}", flush=True)
                    if out:
                        print("  | " + tail(out).replace("\n", "\n  | "), flush=True)

    def builder():
        for gi, (gname, mod, cases) in enumerate(plan):
            build = getattr(mod, "BUILD", [])
            ok = True
            if build:
                sched.take_build_slot()
                t0 = time.monotonic()
                with lock:
                    print(f"== {gname}: building", flush=True)
                p = subprocess.run(["make", "-j2", "--no-print-directory"] + list(build), cwd=ROOT,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   errors="replace")
                sched.release()
                stats[gname]["build"] = time.monotonic() - t0
                ok = p.returncode == 0
                if not ok:
                    with lock:
                        print(f"== {gname}: the build failed")
                        print(tail(p.stdout, 60), flush=True)
            if ok:
                sched.add_ready([(gi, ci, gname, c) for ci, c in enumerate(cases)])
            else:
                report(gname, [(f"{gname}/{c['name']}", False, "the group's build failed", "", 0.0)
                               for c in cases])
        sched.end_builds()

    def worker():
        while True:
            item = sched.take_case()
            if item is None:
                return
            _, _, gname, case = item
            try:
                results = (run_pytest_case if "pytest" in case else run_cmd_case)(gname, case)
            except Exception as e:  # a runner fault is a failure of that case, not a crash
                results = [(f"{gname}/{case['name']}", False, f"runner: {type(e).__name__}: {e}", "", 0.0)]
            sched.release()
            report(gname, results, case["name"])

    threads = [threading.Thread(target=builder)] + [threading.Thread(target=worker) for _ in range(max(1, a.j))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    passed = sum(v["pass"] for v in stats.values())
    failed = sum(v["fail"] for v in stats.values())
    print()
    print(f"{'group':<14} {'build s':>8} {'case s':>8} {'passed':>7} {'failed':>7}")
    for g, _, _ in plan:
        v = stats[g]
        print(f"{g:<14} {v['build']:8.1f} {v['run']:8.1f} {v['pass']:7d} {v['fail']:7d}")
    print(f"total {time.monotonic() - t_all:.1f} s (case s: the group's cases added up; {max(1, a.j)} at once)")
    if left_out:
        print(f"{left_out} cases of make test-full not run (tests/run.py --full)")
    print(f"{passed} passed, {failed} failed")
    if a.save_seconds:
        old = {k: v for k, v in load_seconds().items() if k not in case_secs}
        old.update(case_secs)
        SECONDS_FILE.write_text("".join(f"{k} {v:.1f}\n" for k, v in sorted(old.items())))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
