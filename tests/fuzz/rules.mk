# tests/fuzz: the whole-NIC fuzz campaign (tests/fuzz/fuzz.py). `make test` runs 10,000
# frames (tests/fuzz/group.py); `make fuzz` runs FUZZ_FRAMES (1,000,000) with FUZZ_SEED,
# prints the table of frames by kind, drops by counter, NAKs by kind, the share of RoCE
# frames that reached a live QP (a pool of 64 QPs that `qp rearm` brings back from ERROR)
# and the rate, and on a failure the seed and a pcap of the failing batch (build/fuzz/).
# FUZZ_SHARDS runs at once (seeds FUZZ_SEED, FUZZ_SEED + 1, ..., the frames split).
FUZZ_FRAMES ?= 1000000
FUZZ_SHARDS ?= 2
FUZZ_SEED   ?= 1
FUZZ_BATCH  ?= 20000

.PHONY: fuzz
fuzz: $(BUILD)/sim/solonic_sim fw
	$(PY) tests/fuzz/fuzz.py --frames $(FUZZ_FRAMES) --seed $(FUZZ_SEED) --batch $(FUZZ_BATCH) --shards $(FUZZ_SHARDS) --out $(BUILD)/fuzz
