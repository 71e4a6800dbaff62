# tests/soak: the whole-NIC soak (tests/soak/soak.py, fw/cmd_soak.c). `make test` runs
# 200 operations (tests/soak/group.py); `make soak` runs SOAK_OPS (100,000) with
# SOAK_SEED on the wire SOAK_WIRE (and SOAK_WIRE_BACK for NIC 1 -> NIC 0, empty: the
# same), sizes 1..SOAK_MAX_SIZE, within SOAK_MAX_SECONDS of wall time, and prints the
# table of operations and bytes by kind, retransmissions and NAKs by kind, wall time
# and operations per wall second.
SOAK_OPS         ?= 100000
SOAK_SEED        ?= 1
SOAK_WIRE        ?= drop=0.005,dup=0.002,reorder=0.01,depth=32,corrupt=0.002,jitter=400,inorder=1,port=4791,seed=$(SOAK_SEED)
SOAK_WIRE_BACK   ?=
SOAK_QPS         ?= 16
SOAK_MAX_SIZE    ?= 1048576
SOAK_MAX_SECONDS ?= 14400
# the QPs' local ACK timeout, 4.096 us x 2^T (200 operations of up to 1 MiB on the default
# wire pass with 10: fw/README.md "soak")
SOAK_ACK_TIMEOUT ?= 10

.PHONY: soak
soak: $(BUILD)/sim/solonic_sim fw
	$(PY) tests/soak/soak.py --ops $(SOAK_OPS) --seed $(SOAK_SEED) --wire '$(SOAK_WIRE)' \
	  --wire-back '$(SOAK_WIRE_BACK)' --qps $(SOAK_QPS) --max-size $(SOAK_MAX_SIZE) \
	  --max-seconds $(SOAK_MAX_SECONDS) --ack-timeout $(SOAK_ACK_TIMEOUT) --progress
