# tests/mem: the memory subsystem bench (tb_mem_top + tb_mem.cpp) and lint of rtl/mem.
MEM_DIR  := $(BUILD)/mem
MEM_RTL  := rtl/mem/mem_pkg.sv $(sort $(wildcard rtl/lib/*.sv)) $(filter-out rtl/mem/mem_pkg.sv,$(sort $(wildcard rtl/mem/*.sv)))
MEM_CPP  := rtl/mem/mem_model.cpp
MEM_HDRS := rtl/mem/mem_model.h rtl/mem/mem_pattern_ref.h
MEM_MODS := lib_fifo lib_skid mem_dma_rd mem_dma_wr mem_axi_arb mem_axi_ram mem_pattern

$(MEM_DIR)/Vtb_mem: $(MEM_RTL) $(MEM_CPP) $(MEM_HDRS) tests/mem/tb_mem_top.sv tests/mem/tb_mem.cpp tests/mem/rules.mk
	@mkdir -p $(MEM_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(MEM_DIR)/obj_tb_mem -o ../Vtb_mem \
	  --top-module tb_mem_top -CFLAGS "-I$(abspath rtl/mem)" \
	  $(abspath $(MEM_RTL) tests/mem/tb_mem_top.sv tests/mem/tb_mem.cpp $(MEM_CPP)) >/dev/null

# The same bench with the smallest engines: 2 commands in flight, 64-beat
# buffers, 2 outstanding write bursts (full FIFOs and credit stalls all the time).
$(MEM_DIR)/Vtb_mem_small: $(MEM_RTL) $(MEM_CPP) $(MEM_HDRS) tests/mem/tb_mem_top.sv tests/mem/tb_mem.cpp tests/mem/rules.mk
	@mkdir -p $(MEM_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(MEM_DIR)/obj_tb_mem_small -o ../Vtb_mem_small \
	  --top-module tb_mem_top -GCMD_DEPTH=2 -GRD_BUF=64 -GWR_BUF=64 -GMAX_BURSTS=2 \
	  -CFLAGS "-I$(abspath rtl/mem)" \
	  $(abspath $(MEM_RTL) tests/mem/tb_mem_top.sv tests/mem/tb_mem.cpp $(MEM_CPP)) >/dev/null

# Every rtl/mem module on its own with -Wall (what a user of one block sees).
.PHONY: mem-lint
mem-lint:
	@for m in $(MEM_MODS); do \
	  $(VERILATOR) --lint-only -Wall $(MEM_RTL) --top-module $$m || exit 1; \
	done; echo "mem-lint: $(words $(MEM_MODS)) modules clean"
