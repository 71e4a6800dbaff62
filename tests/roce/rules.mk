# tests/roce: Verilator models of the RoCE header layer test benches.
# Builds only below $(BUILD)/roce/.

ROCE_PKG     := rtl/roce/roce_pkg.sv
# the header layer only (the transport's files in rtl/roce are not needed here)
ROCE_RTL     := rtl/lib/lib_skid.sv rtl/lib/lib_fifo.sv $(addprefix rtl/roce/,roce_axis_assert.sv roce_fifo.sv roce_ram_sdp.sv roce_icrc_engine.sv \
                  roce_icrc_check.sv roce_icrc_insert.sv roce_rx_parse.sv roce_tx_build.sv)
ROCE_TB_DEPS := $(ROCE_PKG) $(ROCE_RTL) tests/roce/tb_util.h tests/roce/rules.mk

$(BUILD)/roce/Vtb_roce_rx: $(ROCE_TB_DEPS) tests/roce/tb_roce_rx.sv tests/roce/tb_roce_rx.cpp
	@mkdir -p $(BUILD)/roce
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(BUILD)/roce/obj_rx --top-module tb_roce_rx \
	  -CFLAGS "-O1 -I$(abspath tests/roce)" -o Vtb_roce_rx \
	  $(ROCE_PKG) $(ROCE_RTL) tests/roce/tb_roce_rx.sv $(abspath tests/roce/tb_roce_rx.cpp)
	cp $(BUILD)/roce/obj_rx/Vtb_roce_rx $@

$(BUILD)/roce/Vtb_roce_tx: $(ROCE_TB_DEPS) tests/roce/tb_roce_tx.sv tests/roce/tb_roce_tx.cpp
	@mkdir -p $(BUILD)/roce
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(BUILD)/roce/obj_tx --top-module tb_roce_tx \
	  -CFLAGS "-O1 -I$(abspath tests/roce)" -o Vtb_roce_tx \
	  $(ROCE_PKG) $(ROCE_RTL) tests/roce/tb_roce_tx.sv $(abspath tests/roce/tb_roce_tx.cpp)
	cp $(BUILD)/roce/obj_tx/Vtb_roce_tx $@

.PHONY: roce-models
roce-models: $(BUILD)/roce/Vtb_roce_rx $(BUILD)/roce/Vtb_roce_tx
