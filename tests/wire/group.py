"""The Ethernet wire model (sim/wire): line-rate timing, delay, seeded faults, pcap."""
ORDER = 8
BUILD = ["build/wire/test_eth_wire"]


def cases():
    return [
        {"name": "timing_faults_options", "cmd": ["build/wire/test_eth_wire"]},
        {"name": "pcap_readable_by_scapy", "pytest": "tests/wire/test_pcap.py"},
    ]
