#!/usr/bin/env python3
"""make rc-soak: the seeded two-transport campaign over more seeds and more ops
than make test runs (RC_SOAK_SEEDS, RC_SOAK_OPS override). Exit 1 on any failure."""
import os
import subprocess
import sys
import time

TB = "build/rc/Vtb_rc"
seeds = [int(s) for s in os.environ.get("RC_SOAK_SEEDS", "2 3 4 5 6 7 8 9").split()]
nops = int(os.environ.get("RC_SOAK_OPS", "10000"))
bad = 0
for s in seeds:
    t0 = time.monotonic()
    p = subprocess.run([TB, "+test=campaign", f"+seed={s}", f"+ops={nops}", "+maxcyc=400000000"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    ok = p.returncode == 0
    bad += not ok
    summary = [l for l in p.stdout.splitlines() if l.startswith("test ") or l.startswith("FAIL")][:6]
    print(f"seed {s}: {'PASS' if ok else 'FAIL'} ({time.monotonic() - t0:.0f} s)")
    for l in summary:
        print("   ", l)
    sys.stdout.flush()
print(f"rc-soak: {len(seeds) - bad} of {len(seeds)} seeds passed ({nops} ops each)")
sys.exit(1 if bad else 0)
