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
