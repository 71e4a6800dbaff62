"""boards/common/mmi.py: the MMI for updatemem from the placed design's BRAM cells."""
import csv
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "boards/common"))
import mmi  # noqa: E402


def cells_1bit():
    """256 KiB as Vivado maps it by default: 64 RAMB36 of 32K x 1 (two halves)."""
    rows = []
    for half in range(2):
        for bit in range(32):
            rows.append({"cell": f"imem/mem_reg_{half}_{bit}", "site": f"RAMB36_X{bit % 8}Y{half * 4 + bit // 8}",
                         "bram_addr_begin": half * 32768, "bram_addr_end": half * 32768 + 32767,
                         "bram_slice_begin": bit, "bram_slice_end": bit})
    return rows


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def test_mmi_covers_every_bit_of_every_word_once(tmp_path):
    write_csv(tmp_path / "c.csv", cells_1bit())
    subprocess.run([sys.executable, os.path.join(ROOT, "boards/common/mmi.py"), str(tmp_path / "c.csv"),
                    "--out", str(tmp_path / "x.mmi"), "--part", "xcvu9p-flga2104-2L-e"], check=True)
    root = ET.parse(tmp_path / "x.mmi").getroot()
    space = root.find("Processor/AddressSpace")
    assert (space.get("Begin"), space.get("End")) == ("0", str(262144 - 1))
    assert root.find("Processor").get("InstPath") == "solonic/imem"
    blocks = space.findall("BusBlock")
    assert len(blocks) == 2
    for b in blocks:
        lanes = b.findall("BitLane")
        msbs = [int(l.find("DataWidth").get("MSB")) for l in lanes]
        assert msbs == list(range(31, -1, -1)), "lanes MSB first, one per bit"
        assert all(l.find("AddressRange").get("End") == "32767" for l in lanes)
    # the second half's lanes are the cells of the second address range
    assert blocks[1].findall("BitLane")[31].get("Placement") == "X0Y4"


def test_mmi_refuses_a_missing_bit_and_an_overlap():
    rows = [dict(r, bram_addr_begin=int(r["bram_addr_begin"]), bram_addr_end=int(r["bram_addr_end"]))
            for r in cells_1bit()]
    conv = lambda rs: [{"cell": r["cell"], "type": "RAMB36", "xy": "X0Y0", "a0": r["bram_addr_begin"],
                        "a1": r["bram_addr_end"], "s0": r["bram_slice_begin"], "s1": r["bram_slice_end"]}
                       for r in rs]
    for broken, why in ((rows[:5] + rows[6:], "bit 5 missing"),
                        (rows + [rows[3]], "held twice"),
                        (rows[:32], "hold words 0..32767")):
        try:
            mmi.build(conv(broken), 262144)
        except ValueError as e:
            assert why.split()[-1] in str(e), (why, str(e))
        else:
            raise AssertionError(f"no error for: {why}")
