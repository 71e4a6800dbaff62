"""tests/interop: Linux soft-RoCE (rdma_rxe) guests under QEMU, built from Debian
packages (interop/). Two guests joined by a datagram socket pair on 127.0.0.1
run ibv_rc_pingpong and ib_write_bw against each other; the capture is checked
(ICRC of every packet, tshark decode); the runner's time bound is proven.
Later: a guest against the simulated NIC."""
ORDER = 90
BUILD = ["interop-image"]   # cached: rebuilt only when interop/'s inputs change


def cases():
    return [
        # boots two guests (about 7 s of CPU each under TCG), then two tools
        {"name": "pair", "pytest": "tests/interop/test_pair.py", "timeout": 420},
        {"name": "runner", "pytest": "tests/interop/test_runner.py", "timeout": 180},
    ]
