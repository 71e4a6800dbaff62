#!/usr/bin/env python3
"""make run: boot one simulated NIC, drive its console as a person would, check what it
answers, print the session and exit 0 only if every answer was right."""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIM = ROOT / "build/sim/solonic_sim"
FW = ROOT / "build/fw/solonic.hex"

# (line typed, pattern the answer must match)
SESSION = [
    ("version", r"solonic \S+\nbuilt .*\nbitstream [0-9a-f]{8}, core clock 250000000 Hz"),
    ("uptime", r"uptime \d+ ms, \d+ cycles at 250000000 Hz"),
    ("mem wr 0x10030000 0xc0ffee42", r"^$"),
    ("mem rd 0x10030000 1", r"10030000: c0ffee42"),
    ("mem rd 0x50000000", r"mem: address 0x50000000 is not mapped"),
    ("mem rd 0x10030002", r"mem: address 0x10030002 is not word aligned|aligned"),
    ("frobnicate", r"unknown command 'frobnicate'; type 'help'"),
    ("cpi 8", r"cpi crc32 .* cpi \d\.\d{3}\ncpi copy .* cpi \d\.\d{3}"),
]


def main():
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(line + "\n" for line, _ in SESSION))
        script = f.name
    p = subprocess.run([str(SIM), "--fw", str(FW), "--uart-in", script, "--max-seconds", "120"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    pathlib.Path(script).unlink()
    out = p.stdout.replace("\r\n", "\n")
    print(out)
    parts = out.split("solonic> ")
    answers = [a.rstrip("\n") for a in parts[1:]]
    bad = 0
    if p.returncode != 0:
        print(f"demo: the simulator exited with {p.returncode}: {p.stderr.strip()}")
        bad += 1
    for i, (line, pat) in enumerate(SESSION):
        got = answers[i] if i < len(answers) else "<no answer>"
        echoed, _, body = got.partition("\n")  # the console echoes the typed line first
        if echoed != line or not re.search(pat, body, re.M):
            print(f"demo: '{line}': expected an answer matching /{pat}/, got {body!r}")
            bad += 1
    print(f"demo: {len(SESSION) - bad} of {len(SESSION)} console answers as expected")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
