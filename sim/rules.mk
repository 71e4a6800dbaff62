# sim/: the Verilator harness build/sim/solonic_sim (docs/DEVELOPING.md,
# "The simulator"): soc_top with rv_core, built once with FST support; the
# firmware image is loaded at run time (--fw).
SIM_DIR   := $(BUILD)/sim
SIM_REGS  := $(addprefix $(BUILD)/gen/rtl/,sysinfo_regs.sv uart_regs.sv timer_regs.sv simctrl_regs.sv)
# the core's packages first (a core package listed in RTL_PKGS, then the rest in name order)
SIM_CORE_PKGS := $(filter rtl/core/%,$(RTL_PKGS))
SIM_RTL   := $(SIM_CORE_PKGS) $(filter-out $(SIM_CORE_PKGS),$(sort $(wildcard rtl/core/*.sv))) \
             $(sort $(wildcard rtl/soc/*.sv)) $(SIM_REGS)
SIM_SRCS  := $(sort $(wildcard sim/*.cpp))
SIM_HDRS  := $(sort $(wildcard sim/*.h))
SIM_HASH  := $(or $(GIT_HASH),00000000)
SIM_VFLAGS := --cc --exe --build --trace-fst --timescale 1ns/1ps --top-module soc_top \
              -GGIT_HASH=32\'h$(SIM_HASH) -CFLAGS -std=c++17 -MAKEFLAGS OPT_FAST=-O2

.PHONY: sim
sim: $(SIM_DIR)/solonic_sim

$(SIM_DIR)/solonic_sim: $(SIM_RTL) $(SIM_SRCS) $(SIM_HDRS) sim/rules.mk
	@mkdir -p $(SIM_DIR)
	$(VERILATOR) $(VFLAGS) $(SIM_VFLAGS) -Mdir $(SIM_DIR)/obj_solonic_sim -o solonic_sim \
	  $(SIM_RTL) $(abspath $(SIM_SRCS)) >$(SIM_DIR)/build.log 2>&1 || { cat $(SIM_DIR)/build.log; false; }
	cp $(SIM_DIR)/obj_solonic_sim/solonic_sim $@
