"""The wire model's pcap output is read back by Scapy (an independent reader) with the
frames and nanosecond timestamps that were written."""
import pathlib
import subprocess

from scapy.utils import rdpcap

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_pcap_frames_and_timestamps(tmp_path):
    pcap = tmp_path / "w.pcap"
    subprocess.run([str(ROOT / "build/wire/test_eth_wire"), str(pcap)], check=True, capture_output=True)
    pkts = rdpcap(str(pcap))
    assert [len(p) for p in pkts] == [60, 1098]
    for p, ident in zip(pkts, (1, 2)):
        raw = bytes(p)
        assert int.from_bytes(raw[:4], "little") == ident
        assert all(raw[i] == (i * 7 + ident) & 0xFF for i in range(4, len(raw)))
    assert float(pkts[1].time - pkts[0].time) == 1e-6  # 250 cycles at 250 MHz
