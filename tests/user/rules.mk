# tests/user: the rtl/user examples (user_source, user_sink) against tb_user.cpp.
USER_DIR := $(BUILD)/user
USER_RTL := rtl/mem/mem_pkg.sv $(sort $(wildcard rtl/user/*.sv))

$(USER_DIR)/Vtb_user: $(USER_RTL) tests/user/tb_user_top.sv tests/user/tb_user.cpp rtl/mem/mem_pattern_ref.h tests/user/rules.mk
	@mkdir -p $(USER_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(USER_DIR)/obj --top-module tb_user_top \
	  -CFLAGS "-O2 -std=c++17 -I$(abspath rtl/mem)" -o ../Vtb_user \
	  $(abspath $(USER_RTL) tests/user/tb_user_top.sv tests/user/tb_user.cpp) >/dev/null
