# solonic: one Makefile for deps, builds, tests, demos and benchmarks.
# Block-specific rules live in */rules.mk fragments (docs/DEVELOPING.md).

SHELL := /bin/bash
.DEFAULT_GOAL := help

BUILD      := build
PY         := /usr/bin/python3
VERILATOR  := verilator
# Verilator's C++ is compiled with clang: its models simulate 25-40 % faster here than
# with g++ at the same -O (measured: solonic_sim, tests/rc +test=perf; docs/DEVELOPING.md)
VCXX       := clang++-14
VFLAGS     := -Wall --x-assign unique --x-initial unique -O3 --assert -j 2 -MAKEFLAGS "CXX=$(VCXX) LINK=$(VCXX)"
RV_PREFIX  := riscv64-unknown-elf-
RV_CC      := $(RV_PREFIX)gcc
RV_ARCH    := -march=rv32im -misa-spec=2.2 -mabi=ilp32
GIT_HASH   := $(shell git rev-parse --short=8 HEAD 2>/dev/null || echo 00000000)
GIT_DESCRIBE := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# Packages are read before every other RTL file, in dependency order.
RTL_PKGS   := rtl/core/core_pkg.sv rtl/net/net_pkg.sv rtl/roce/roce_pkg.sv rtl/mem/mem_pkg.sv \
              rtl/roce/roce_qp_pkg.sv rtl/roce/roce_req_pkg.sv

# Generated register blocks and header (regs/*.toml -> build/gen).
REGS_DESC  := $(sort $(wildcard regs/*.toml))
REGS_SV_DIR := $(BUILD)/gen/rtl
REGS_HDR   := $(BUILD)/gen/include/solonic_regs.h
REGS_SV    := $(patsubst regs/%.toml,$(REGS_SV_DIR)/%_regs.sv,$(REGS_DESC))

# Every RTL file of the NIC (rtl/top/nic_top.sv), packages first, and the
# generated register blocks: what the simulator and the synthesis flows read.
NIC_RTL    := $(RTL_PKGS) \
              $(filter-out $(RTL_PKGS),$(sort $(wildcard rtl/lib/*.sv rtl/core/*.sv rtl/soc/*.sv rtl/net/*.sv \
                 rtl/roce/*.sv rtl/cc/*.sv rtl/mem/*.sv rtl/user/*.sv rtl/top/*.sv))) \
              $(REGS_SV)

.PHONY: help deps test test-full run run-one console bench fabric regs regs-doc yosys-check clean distclean

help:
	@echo "solonic targets:"
	@echo "  make deps     install everything this project needs (Debian packages, lwIP source)"
	@echo "  make test     build everything and run every test"
	@echo "  make test-full  make test and the cases too long for it (about an hour)"
	@echo "  make run      the demo: two NICs, exchange, WRITE/READ/SEND verified, bench"
	@echo "  make run-one  one NIC's scripted console tour"
	@echo "  make console  the interactive console of a simulated NIC"
	@echo "  make bench    benchmarks (simulation speed, CPI, line rate)"
	@echo "  make fabric   congestion experiments on the simulated switch (incast, victim flow, all-to-all)"
	@echo "  make yosys-check  read and elaborate all RTL with Yosys"

deps:
	bash scripts/deps.sh

regs: $(REGS_HDR) $(REGS_SV)
$(REGS_HDR) $(REGS_SV) &: $(REGS_DESC) regs/regtool.py
	$(PY) regs/regtool.py $(REGS_DESC) --sv-dir $(REGS_SV_DIR) --header $(REGS_HDR)

regs-doc:
	$(PY) regs/regtool.py $(REGS_DESC) --doc docs/registers.md

yosys-check: regs
	$(PY) tests/synth/yosys_check.py

test:
	$(PY) tests/run.py

# make test-full: make test and the cases marked "full" in tests/*/group.py (too long for
# make test: NIC-to-NIC perftest tools, -q 2/16/64 and -R, second runs of what other cases
# cover, the soak's 2,000 operations and cut wire, Yosys over all RTL); about an hour on 2
# cores. make interop, fuzz and soak stay apart.
test-full:
	$(PY) tests/run.py --full

# make run: two NICs on one cable, exchange, WRITE/READ/SEND checked byte for byte, bench
# (scripts/demo_two_nics.py); INTERACTIVE=1: NIC 0's console here, NIC 1's on a pty.
INTERACTIVE ?=
run: $(BUILD)/sim/solonic_sim fw
	$(PY) scripts/demo_two_nics.py $(if $(filter-out 0,$(INTERACTIVE)),--interactive)

run-one: $(BUILD)/sim/solonic_sim fw
	$(PY) scripts/demo_console.py

console: $(BUILD)/sim/solonic_sim fw
	$(BUILD)/sim/solonic_sim --fw $(BUILD)/fw/solonic.hex

bench: $(BUILD)/sim/solonic_sim fw
	$(PY) scripts/bench.py

# make fabric: incast 8 to 1 (tail drop, PFC) with a victim flow, all-to-all among 8 NICs on
# the simulated switch; tables and PNGs under build/fabric/ (docs/fabric.md). FABRIC_ARGS: more
# options of scripts/fabric_experiments.py (--only, --window, --cc dcqcn, ...).
FABRIC_ARGS ?=
fabric: $(BUILD)/sim/solonic_sim fw
	$(PY) scripts/fabric_experiments.py $(FABRIC_ARGS)

clean:
	rm -rf $(BUILD)

distclean: clean
	rm -rf deps

include $(sort $(wildcard sim/rules.mk fw/rules.mk timing/rules.mk tests/*/rules.mk boards/*/rules.mk))
