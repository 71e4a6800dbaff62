# tests/cc: bench of the congestion-control blocks (rtl/cc). Builds only below $(BUILD)/cc/.
CC_DIR    := $(BUILD)/cc
CC_RP_RTL := rtl/lib/lib_fifo.sv rtl/roce/roce_ram_sdp.sv rtl/cc/cc_rp.sv

$(CC_DIR)/Vcc_rp: $(CC_RP_RTL) tests/cc/tb_cc_rp.cpp tests/cc/rules.mk
	@mkdir -p $(CC_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(CC_DIR)/obj_rp --top-module cc_rp -GNQP=16 \
	  -CFLAGS "-O1 -std=c++17" -o ../Vcc_rp \
	  $(CC_RP_RTL) $(abspath tests/cc/tb_cc_rp.cpp) >$(CC_DIR)/build_rp.log 2>&1 \
	  || (grep -E '%(Error|Warning)|error' -A3 $(CC_DIR)/build_rp.log | head -60; exit 1)

# cc_rp, cc_np and cc_pacer on their own with -Wall, at NQP 256 and 4096.
.PHONY: cc-lint
cc-lint:
	@for n in 256 4096; do \
	  $(VERILATOR) --lint-only -Wall $(CC_RP_RTL) --top-module cc_rp -GNQP=$$n || exit 1; \
	  $(VERILATOR) --lint-only -Wall rtl/lib/lib_fifo.sv rtl/roce/roce_ram_sdp.sv rtl/cc/cc_np.sv \
	    --top-module cc_np -GNQP=$$n || exit 1; \
	  $(VERILATOR) --lint-only -Wall rtl/roce/roce_pkg.sv rtl/roce/roce_ram_sdp.sv rtl/cc/cc_pacer.sv \
	    --top-module cc_pacer -GNQP=$$n || exit 1; \
	done; echo "cc-lint: clean"

# a longer trajectory (30 ms) than make test's
.PHONY: cc-long
cc-long: $(CC_DIR)/Vcc_rp
	$(PY) tests/cc/check_rp.py --end-us 30000

CC_NP_RTL := rtl/lib/lib_fifo.sv rtl/roce/roce_ram_sdp.sv rtl/cc/cc_np.sv

$(CC_DIR)/Vcc_np: $(CC_NP_RTL) tests/cc/tb_cc_np.cpp tests/cc/rules.mk
	@mkdir -p $(CC_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(CC_DIR)/obj_np --top-module cc_np -GNQP=16 \
	  -CFLAGS "-O1 -std=c++17" -o ../Vcc_np \
	  $(CC_NP_RTL) $(abspath tests/cc/tb_cc_np.cpp) >$(CC_DIR)/build_np.log 2>&1 \
	  || (grep -E '%(Error|Warning)|error' -A3 $(CC_DIR)/build_np.log | head -60; exit 1)
