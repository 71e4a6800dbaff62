# tests/roce_req: bench of the send side of the RC transport (send queue,
# requester, completer, timers, CQ, TX mux). Builds only below $(BUILD)/roce_req/.
RREQ_DIR  := $(BUILD)/roce_req
# roce_req_pkg is read after the packages of RTL_PKGS (it is not in that list yet)
RREQ_PKGS := rtl/net/net_pkg.sv rtl/roce/roce_pkg.sv rtl/mem/mem_pkg.sv rtl/roce/roce_qp_pkg.sv \
             rtl/roce/roce_req_pkg.sv
RREQ_OWN  := $(addprefix rtl/roce/,roce_sq.sv roce_req.sv roce_comp.sv roce_rsp_merge.sv roce_comp_timer.sv \
               roce_tx_mux.sv roce_cq_merge.sv roce_cq.sv)
RREQ_RTL  := $(addprefix rtl/roce/,roce_fifo.sv roce_ram_sdp.sv roce_tx_build.sv roce_rx_parse.sv) \
             $(wildcard rtl/roce/roce_axis_assert.sv) rtl/roce/roce_qp_table.sv rtl/roce/roce_mr_table.sv \
             $(RREQ_OWN) \
             rtl/lib/lib_fifo.sv rtl/lib/lib_skid.sv $(addprefix rtl/mem/,mem_dma_rd.sv mem_dma_wr.sv mem_axi_arb.sv mem_axi_ram.sv)
RREQ_CPP  := rtl/mem/mem_model.cpp
RREQ_TB   := tests/roce_req/tb_roce_req.sv tests/roce_req/tb_roce_req.cpp
RREQ_DEPS := $(RREQ_PKGS) $(RREQ_RTL) $(RREQ_CPP) $(RREQ_TB) rtl/mem/mem_model.h tests/roce_req/rules.mk

$(RREQ_DIR)/Vtb_roce_req: $(RREQ_DEPS)
	@mkdir -p $(RREQ_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(RREQ_DIR)/obj --top-module tb_roce_req \
	  -CFLAGS "-O1 -std=c++17 -I$(abspath rtl/mem)" -o ../Vtb_roce_req \
	  $(RREQ_PKGS) $(RREQ_RTL) tests/roce_req/tb_roce_req.sv \
	  $(abspath tests/roce_req/tb_roce_req.cpp $(RREQ_CPP)) >$(RREQ_DIR)/build.log 2>&1 \
	  || (grep -E '%(Error|Warning)' -A3 $(RREQ_DIR)/build.log | head -60; exit 1)

# Each of this block's modules on its own with -Wall, at NQP 256 and 4096.
.PHONY: roce-req-lint
roce-req-lint:
	@for m in $(basename $(notdir $(RREQ_OWN))); do \
	  $(VERILATOR) --lint-only -Wall $(RREQ_PKGS) $(RREQ_RTL) --top-module $$m || exit 1; \
	  case $$m in roce_sq|roce_req|roce_comp|roce_comp_timer) \
	    $(VERILATOR) --lint-only -Wall $(RREQ_PKGS) $(RREQ_RTL) --top-module $$m -GNQP=4096 || exit 1;; esac; \
	done; echo "roce-req-lint: clean"
