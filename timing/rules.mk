# timing/: the per-block timing budget (docs/timing.md).
#
#   make timing                 every block alone in Yosys -> build/timing/report.md; exit 1 over budget
#   make timing ONLY=b1,b2      some blocks
TIMING_RTL := $(NIC_RTL) boards/common/rtl/board_async_fifo.sv boards/common/rtl/board_mac_rx_cdc.sv \
              boards/common/rtl/board_mac_tx_cdc.sv boards/common/rtl/board_sync_bit.sv \
              boards/common/rtl/board_count_sync.sv boards/common/rtl/board_reset_sync.sv
ONLY ?=

.PHONY: timing
timing: regs
	$(PY) timing/timing.py $(if $(ONLY),--only $(ONLY)) $(TIMING_RTL)

# make test's check (tests/timing): over the debt line of budget.toml (or over the budget
# for a block without one) fails; unchanged blocks come from timing/cache, changed ones are
# synthesised into build/timing/cache (the tree is left as it was: the firmware's version
# string says -dirty otherwise).
.PHONY: timing-check
timing-check: regs
	$(PY) timing/timing.py --ratchet --write-cache $(BUILD)/timing/cache $(TIMING_RTL) > $(BUILD)/timing-check.log || { cat $(BUILD)/timing-check.log; exit 1; }

.PHONY: print-timing-rtl
print-timing-rtl:
	@echo $(TIMING_RTL)
