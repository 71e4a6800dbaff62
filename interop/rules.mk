# interop/: Linux soft-RoCE guests (rdma_rxe) under QEMU for interoperability tests.
# See interop/README.md. Included by the top Makefile (and by tests/interop/rules.mk;
# the guard makes a second include harmless).
ifndef SOLONIC_INTEROP_RULES
SOLONIC_INTEROP_RULES := 1

INTEROP_DIR    := $(BUILD)/interop
INTEROP_INPUTS := interop/build_image.py interop/guest/init interop/guest/packages.list scripts/apt_sources.py

.PHONY: interop-image interop

# The guest kernel and initramfs. build_image.py keeps a hash of its inputs in
# $(INTEROP_DIR)/image.stamp and does nothing when they are unchanged.
interop-image: $(INTEROP_DIR)/initrd.img
$(INTEROP_DIR)/initrd.img $(INTEROP_DIR)/vmlinuz &: $(INTEROP_INPUTS)
	$(PY) interop/build_image.py --out $(INTEROP_DIR)

# The whole interop group: the short set of `make test` plus the sweep against the
# simulated NIC and the two-guest run (SOLONIC_INTEROP_FULL=1), then the summary table
# of every run against the NIC (build/interop/nic/*.json, one row per tool run).
interop: interop-image
	rm -f $(INTEROP_DIR)/nic/*.json
	SOLONIC_INTEROP_FULL=1 $(PY) tests/run.py -k interop/; st=$$?; \
	  echo; echo "interop against the simulated NIC (build/interop/nic/):"; \
	  $(PY) interop/nic_peer.py table $(INTEROP_DIR)/nic/*.json || st=1; exit $$st

endif
