"""qpx: the QP exchange of the firmware (fw/roce/qpx*.c, fw/cmd_qpx.c, fw/cmd_roce.c).

- test_qpx_msg.py: the message codec compiled for the host (ctypes) against the
  exact bytes of ibv_rc_pingpong's and perftest 4.5's exchanges in tests/data
  (*.decode.txt, with *.run.txt for the decoded values), every malformed
  variant rejected with its reason, rxe's UDP source port rule against the
  ports the captures used.
- test_cm_mad.py: the RDMA CM MAD codec (fw/roce/cm_mad.c) compiled for the host
  against two rxe <-> rxe RDMA CM captures (tests/data/cm_*.pcap: rdma_client and
  rdma_server, a REJ for a port nobody listens on, rping): every CM field as tshark
  decodes it, byte-identical rebuilds, malformed frames refused with their reason;
  the builder's REQ/REP/REJ/RTU/MRA/DREQ/DREP frames pass check_pcap's own ICRC and
  tshark's decode.
- test_cm_system.py: the firmware's RDMA CM passive side (fw/roce/cm.c) on the real
  NIC against a Scapy peer sending rdma_client's captured MADs (patched at the IBTA
  offsets): REJ for an unlistened port, UC and UD refused, REQ/REP/RTU/DREQ/DREP with
  duplicates answered, the REP resent, an RC SEND and (RTU lost) an RDMA WRITE taken as
  RTU, REJ (timeout) after
  the retries, counters; listen --cm's argument checks; a second perftest -R session
  refused while one runs.
- test_qpx_console.py: the RoCE and exchange commands in the simulated SoC:
  argument checking, "no RoCE transport" on an SoC without the transport, and
  the exchange itself (--dry: no QP) against a Scapy TCP peer on the NIC's
  --eth0 udp port speaking the reference bytes, and garbage, truncation, an
  unsupported version, a peer that disconnects or never answers.
- test_qpx_system.py: build/sim/solonic_sim with the transport: two NICs
  (the exchange, WRITE/READ/SEND both ways with every byte
  verified, bench tables parsed and bounded, Ctrl-C, a silent peer; with `make
  test-full` also NIC 0 as the listener, bench --depth 3, both NICs as perftest's
  peers (atomic_bw with FETCH_AND_ADD and CMP_AND_SWAP, write_lat, send_lat,
  read_lat, atomic_lat, write_bw and write_bw -q 2, -q 16 and -q 64, perftest -R)), every
  wrong input of bench, and a Scapy peer that abandons the exchange halfway,
  sends garbage or never answers (the real QP and MR are undone); two sessions
  at once on two ports (pair_two_sessions: data on both, a third client refused,
  one aborted while the other goes on, a silent one ending by its idle bound).
"""
import subprocess

ORDER = 48
LIB = "build/qpx/libqpx_msg.so"
CM_LIB = "build/qpx/libcm_mad.so"
BUILD = [LIB, CM_LIB, "build/sim/solonic_sim", "build/mgmt/Vtb_fw_mgmt", "build/fw/solonic.elf", "build/fw/solonic.hex"]
PY = "/usr/bin/python3"
CONSOLE = "tests/qpx/test_qpx_console.py"
SYSTEM = "tests/qpx/test_qpx_system.py"


def cases():
    c = [{"name": "msg_codec", "pytest": "tests/qpx/test_qpx_msg.py", "timeout": 120},
         {"name": "cm_codec", "pytest": "tests/qpx/test_cm_mad.py", "timeout": 120},
         {"name": "cm_system", "pytest": "tests/qpx/test_cm_system.py", "timeout": 900}]
    names = subprocess.run([PY, CONSOLE, "--list"], stdout=subprocess.PIPE, text=True,
                           check=True).stdout.split()
    c += [{"name": n, "cmd": [PY, CONSOLE, n], "timeout": 600} for n in names]
    listed = subprocess.run([PY, SYSTEM, "--list"], stdout=subprocess.PIPE, text=True,
                            check=True).stdout.splitlines()
    system = []
    for line in listed:
        name, _, mark = line.partition(" ")
        system.append({"name": "system_" + name, "cmd": [PY, SYSTEM, name], "timeout": 1500 if mark else 600,
                       "full": mark == "full"})
    return system + c
