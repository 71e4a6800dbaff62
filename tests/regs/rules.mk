# tests/regs: the register generator's output, built from a demo description.
REGS_TEST_DIR := $(BUILD)/regs

$(REGS_TEST_DIR)/gen/demo_regs.sv: tests/regs/demo.toml regs/regtool.py
	$(PY) regs/regtool.py tests/regs/demo.toml --sv-dir $(REGS_TEST_DIR)/gen

$(REGS_TEST_DIR)/Vdemo_regs: $(REGS_TEST_DIR)/gen/demo_regs.sv tests/regs/tb_demo_regs.cpp
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(REGS_TEST_DIR)/obj_demo \
	  -o ../Vdemo_regs --top-module demo_regs $(abspath $^) >/dev/null
