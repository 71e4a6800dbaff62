"""What the console tests know of the firmware without asking its console: the ELF's
symbols, the IMEM image the simulator loads, the command table the linker laid out,
the git description the build embeds. The console driver is scripts/nicsim.py."""
import os
import pathlib
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from nicsim import FW, Failure  # noqa: E402

HEX = FW
ELF = str(pathlib.Path(FW).with_suffix(".elf"))
RV_PREFIX = "riscv64-unknown-elf-"

CMD_ENTRY_WORDS = 5  # struct con_cmd in fw/console.h: name, args, help, fn, more


def run_tool(args):
    return subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True,
                          timeout=300).stdout  # bounded; a loaded 2-core machine can stall a process for a while


def symbols():
    """name -> (address, size) from the ELF's symbol table."""
    syms = {}
    for line in run_tool([RV_PREFIX + "nm", "-S", ELF]).splitlines():
        f = line.split()
        if len(f) == 4:
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
        elif len(f) == 3:
            syms[f[2]] = (int(f[0], 16), 0)
    return syms


def image():
    """The IMEM image the simulator loads, as bytes from address 0."""
    out = bytearray()
    with open(HEX) as f:
        for line in f:
            line = line.strip()
            if line:
                out += int(line, 16).to_bytes(4, "little")
    return bytes(out)


def cstring(img, addr):
    end = img.index(b"\0", addr)
    return img[addr:end].decode()


def command_table():
    """[(name, args, help)] as the linker laid out the .con_cmds section."""
    syms, img = symbols(), image()
    start, end = syms["__con_cmds_start"][0], syms["__con_cmds_end"][0]
    size = CMD_ENTRY_WORDS * 4
    if (end - start) % size:
        raise Failure("command table size", f"a multiple of {size}", end - start)
    cmds = []
    for a in range(start, end, size):
        w = [int.from_bytes(img[a + 4 * i:a + 4 * i + 4], "little") for i in range(CMD_ENTRY_WORDS)]
        cmds.append((cstring(img, w[0]), cstring(img, w[1]), cstring(img, w[2])))
    return cmds


def git_describe():
    p = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() if p.returncode == 0 else "unknown"
