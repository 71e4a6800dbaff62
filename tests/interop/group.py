"""tests/interop: Linux soft-RoCE (rdma_rxe) guests under QEMU, built from Debian
packages (interop/), against the simulated NIC and against each other.

- nic: the NIC (build/sim/solonic_sim, NIC 0 on a UDP socket) as the server of
  ibv_rc_pingpong --chk, ib_write_bw and ib_write_lat and the client of ib_write_bw
  in a guest, then of ib_read_bw after the guest's eth0 went to MTU 9000 (path MTU
  4096 without flags), the capture checked (tshark, ICRC, the pingpong echo byte
  for byte, each message's path MTU); interop/nic_peer.py runs it.
- cm: RDMA CM (tests/interop/test_cm.py): the guest's unmodified rdma_client against the
  NIC's `listen --cm` (a REJ for a port nobody listens on, then REQ/REP/RTU, the SEND
  echoed, DREQ/DREP), the NIC's `connect --cm` against the guest's rdma_server, udaddy
  (UD) refused; the capture checked (ICRC, tshark, the CM messages in order).
- rping: rping's protocol over RDMA CM, the NIC as server (`listen --cm --tool rping`)
  and as client (`connect --cm ... --tool rping`) of the guest's rping -v -C 3 -S 64:
  the guest checks every ping, the NIC its own, the capture checked.
- user_source: the NIC's user-logic source (rtl/user) streams 32 x 64 KiB WRITEs into the
  buffer of the guest's ib_write_bw server; every WRITE in the capture carries exactly the
  seeded pattern of its addresses, every one completed with rxe's ACK, the tool exits 0.
- runner: run_guest.py's time bound, the console parser, the pcap checker (1-byte
  SENDs are not malformed), nic_peer.py's step checks.
- with SOLONIC_INTEROP_FULL=1 (`make interop`): nic_sweep (pingpong with the NIC as
  server and client, the bw tools at 64 B, 4 KiB, 64 KiB and the lat tools, both roles;
  atomics, -R, -q, 8 MiB, -a; write/read/send bw at path MTU 4096 against a guest at
  eth MTU 9000) and
  pair (two guests against each other: the reference behaviour of rxe).
"""
import os

ORDER = 90
# the guest image is cached: rebuilt only when interop/'s inputs change
BUILD = ["interop-image", "build/sim/solonic_sim", "build/fw/solonic.hex"]


def cases():
    c = [
        # one guest boot (about 7 s of CPU under TCG) and the simulator: about a minute
        {"name": "nic", "pytest": "tests/interop/test_nic.py", "timeout": 420},
        {"name": "cm", "pytest": "tests/interop/test_cm.py", "timeout": 600},
        {"name": "rping", "pytest": "tests/interop/test_rping.py", "timeout": 600},
        {"name": "runner", "pytest": "tests/interop/test_runner.py", "timeout": 180},
        {"name": "user_source", "pytest": "tests/interop/test_user.py", "timeout": 600},
    ]
    if os.environ.get("SOLONIC_INTEROP_FULL") == "1":
        c += [
            {"name": "nic_sweep", "pytest": "tests/interop/test_nic_sweep.py", "timeout": 2000},
            {"name": "pair", "pytest": "tests/interop/test_pair.py", "timeout": 420},
        ]
    return c
