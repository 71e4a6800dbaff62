"""fuzz: the whole NIC under mutated frames, and the RX accounting (issue 15 items 2 and 6).

- test_accounting.py: a known mix of frames (good RoCE to an RTS QP, ARP/ICMP/TCP/QP 1 for
  the firmware, one frame per drop reason of the packet layer and the RoCE parse, the
  responder's drops, a burst that overflows the management ring) at build/sim/solonic_sim;
  every counter `stats` prints for them moves by exactly what the mix says, and the
  identity of fw/README.md ("every frame in one counter") holds with the peer's count.
- fuzz.py: 10,000 mutated frames (seed 1) at the NIC's RTS QP as responder and requester,
  the invariants after every batch (ping, accounting, memory outside the writable MR,
  a fresh QP's WRITE + READ). `make fuzz` runs 1,000,000 (tests/fuzz/rules.mk).
"""
ORDER = 49
BUILD = ["build/sim/solonic_sim", "build/fw/solonic.elf", "build/fw/solonic.hex"]
PY = "/usr/bin/python3"


def cases():
    return [
        {"name": "accounting_known_mix_every_counter_exact", "cmd": [PY, "tests/fuzz/test_accounting.py"],
         "timeout": 600},
        {"name": "fuzz_10k_frames_seed1_invariants_every_batch",
         "cmd": [PY, "tests/fuzz/fuzz.py", "--frames", "10000", "--seed", "1", "--batch", "5000"],
         "timeout": 900},
    ]
