"""The simulator's Ethernet features (sim/: --nics 2 with the wire model,
--eth0 udp:/unix: sockets, --pcap, --wire faults, --uart1-*, --stats), with
the test program tests/sim/progs/sim_eth.c in the NICs and Scapy / Python
sockets on 127.0.0.1 as the peer."""
import subprocess

ORDER = 35
BUILD = ["build/sim/solonic_sim", "sim-progs"]
PY = "/usr/bin/python3"
SCRIPT = "tests/sim/test_eth.py"


def cases():
    names = subprocess.run([PY, SCRIPT, "--list"], stdout=subprocess.PIPE, text=True,
                           check=True).stdout.split()
    # the wire model's faults are tested in tests/wire and used by tests/rc; applied on a UDP
    # port, seeded, they are checked again in make test-full only
    full = {"udp_wire_faults_seeded"}
    return [{"name": n, "cmd": [PY, SCRIPT, n], "timeout": 240, "full": n in full} for n in names]
