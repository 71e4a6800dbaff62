# sim/: the Verilator harness build/sim/solonic_sim (docs/DEVELOPING.md,
# "The simulator"): sim/sim_nic.sv (one NIC, rtl/top/nic_top.sv) built once
# with FST support; the harness creates one model instance per simulated NIC.
# The firmware image is loaded at run time (--fw).
SIM_DIR   := $(BUILD)/sim

# NIC_RTL (every RTL file of the NIC, in read order) comes from the top Makefile.

SIM_RTL   := $(NIC_RTL) sim/sim_nic.sv
SIM_SRCS  := $(sort $(wildcard sim/*.cpp)) sim/wire/eth_wire.cpp sim/fabric/switch.cpp rtl/mem/mem_model.cpp
SIM_HDRS  := $(sort $(wildcard sim/*.h)) sim/wire/eth_wire.h sim/fabric/switch.h rtl/mem/mem_model.h
SIM_HASH  := $(or $(GIT_HASH),00000000)
SIM_VFLAGS := --cc --exe --build --trace-fst --timescale 1ns/1ps --top-module sim_nic \
              -GGIT_HASH=32\'h$(SIM_HASH) -CFLAGS "-std=c++17 -I$(abspath sim/wire) -I$(abspath sim/fabric) -I$(abspath rtl/mem)" \
              -MAKEFLAGS OPT_FAST=-O2

.PHONY: sim
sim: $(SIM_DIR)/solonic_sim

$(SIM_DIR)/solonic_sim: $(SIM_RTL) $(SIM_SRCS) $(SIM_HDRS) sim/rules.mk
	@mkdir -p $(SIM_DIR)
	@# the harness's own objects are rebuilt every time (seconds): their .d files
	@# may name headers that no longer exist, which would stop the make
	rm -f $(foreach s,$(SIM_SRCS),$(SIM_DIR)/obj_solonic_sim/$(basename $(notdir $(s))).[od])
	$(VERILATOR) $(VFLAGS) $(SIM_VFLAGS) -Mdir $(SIM_DIR)/obj_solonic_sim -o solonic_sim \
	  $(SIM_RTL) $(abspath $(SIM_SRCS)) >$(SIM_DIR)/build.log 2>&1 || { cat $(SIM_DIR)/build.log; false; }
	@# a new file renamed over the old one: a simulator still running keeps its copy
	cp $(SIM_DIR)/obj_solonic_sim/solonic_sim $@.new && mv -f $@.new $@
