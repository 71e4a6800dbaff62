# tests/rc: two complete RC transports (roce_transport + mem_axi_arb +
# mem_axi_ram each) joined by the wire model, driven through their registers
# from C++ (tb_rc.cpp). Builds only below $(BUILD)/rc/.
RC_DIR   := $(BUILD)/rc
RC_PKGS  := rtl/net/net_pkg.sv rtl/roce/roce_pkg.sv rtl/mem/mem_pkg.sv rtl/roce/roce_qp_pkg.sv \
            rtl/roce/roce_req_pkg.sv
RC_RTL   := $(filter-out $(RC_PKGS),$(sort $(wildcard rtl/roce/*.sv))) rtl/cc/cc_np.sv rtl/cc/cc_rp.sv rtl/cc/cc_pacer.sv \
            rtl/lib/lib_fifo.sv rtl/lib/lib_skid.sv $(addprefix rtl/mem/,mem_dma_rd.sv mem_dma_wr.sv mem_axi_arb.sv mem_axi_ram.sv) \
            rtl/net/net_axis_skid.sv $(REGS_SV_DIR)/roce_regs.sv
RC_CPP   := tests/rc/tb_rc.cpp sim/wire/eth_wire.cpp rtl/mem/mem_model.cpp
RC_DEPS  := $(RC_PKGS) $(RC_RTL) $(RC_CPP) tests/rc/tests.inc tests/rc/ustream.inc tests/rc/tb_rc_side.sv sim/wire/eth_wire.h rtl/mem/mem_model.h \
            $(REGS_HDR) tests/rc/rules.mk

$(RC_DIR)/Vtb_rc: $(RC_DEPS)
	@mkdir -p $(RC_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(RC_DIR)/obj --top-module tb_rc_side \
	  -CFLAGS "-O2 -std=c++17 -I$(abspath rtl/mem) -I$(abspath sim/wire) -I$(abspath $(BUILD)/gen/include) -I$(abspath tests/rc)" \
	  -o ../Vtb_rc $(RC_PKGS) $(RC_RTL) tests/rc/tb_rc_side.sv $(abspath $(RC_CPP)) \
	  >$(RC_DIR)/build.log 2>&1 || (grep -E '%(Error|Warning)' -A3 $(RC_DIR)/build.log | head -60; tail -20 $(RC_DIR)/build.log; exit 1)

# the longer seeded campaign (not in make test)
.PHONY: rc-soak transport-bench
rc-soak: $(RC_DIR)/Vtb_rc
	$(PY) tests/rc/soak.py

# perftest-style figures of the two-transport bench (make bench calls it)
transport-bench: $(RC_DIR)/Vtb_rc
	$(RC_DIR)/Vtb_rc +test=bench

# The same bench at NQP 4096 (the transport's largest table), not in make test
# (a second model build): smoke and QPNs 4092..4095.
.PHONY: rc-nqp4096
$(RC_DIR)/Vtb_rc_nqp4096: $(RC_DEPS)
	@mkdir -p $(RC_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(RC_DIR)/obj_nqp4096 --top-module tb_rc_side -GNQP=4096 \
	  -CFLAGS "-O2 -std=c++17 -I$(abspath rtl/mem) -I$(abspath sim/wire) -I$(abspath $(BUILD)/gen/include) -I$(abspath tests/rc)" \
	  -o ../Vtb_rc_nqp4096 $(RC_PKGS) $(RC_RTL) tests/rc/tb_rc_side.sv $(abspath $(RC_CPP)) \
	  >$(RC_DIR)/build_nqp4096.log 2>&1 || (grep -E '%(Error|Warning)' -A3 $(RC_DIR)/build_nqp4096.log | head -60; exit 1)
rc-nqp4096: $(RC_DIR)/Vtb_rc_nqp4096
	$(RC_DIR)/Vtb_rc_nqp4096 +test=smoke && $(RC_DIR)/Vtb_rc_nqp4096 +test=high_qpn

# One 64 B WRITE traced handshake by handshake (tb_rc_side.sv's LAT_TRACE
# lines "LT side cycle event"), not in make test (a second model build)
.PHONY: rc-lat-trace
$(RC_DIR)/Vtb_rc_lat_trace: $(RC_DEPS)
	@mkdir -p $(RC_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(RC_DIR)/obj_lat_trace --top-module tb_rc_side -DLAT_TRACE \
	  -CFLAGS "-O2 -std=c++17 -I$(abspath rtl/mem) -I$(abspath sim/wire) -I$(abspath $(BUILD)/gen/include) -I$(abspath tests/rc)" \
	  -o ../Vtb_rc_lat_trace $(RC_PKGS) $(RC_RTL) tests/rc/tb_rc_side.sv $(abspath $(RC_CPP)) \
	  >$(RC_DIR)/build_lat_trace.log 2>&1 || (grep -E '%(Error|Warning)' -A3 $(RC_DIR)/build_lat_trace.log | head -60; exit 1)
rc-lat-trace: $(RC_DIR)/Vtb_rc_lat_trace
	RC_LAT_N=1 $(RC_DIR)/Vtb_rc_lat_trace +test=lat | \
	  awk '/^LT/ { if ($$4 == "wrgen" && $$5 == "post") t0 = $$3; if (t0 != "") { $$1 = ""; printf "+%-4d side %s:", $$3 - t0, $$2; $$2 = $$3 = ""; print } next } { print }'
