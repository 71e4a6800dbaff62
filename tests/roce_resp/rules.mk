# tests/roce_resp: the responder bench (tb_roce_resp.sv + tb_roce_resp.cpp,
# driven by resp_test.py). Everything goes to $(BUILD)/roce_resp/.
RESP_DIR  := $(BUILD)/roce_resp
RESP_PKGS := rtl/roce/roce_pkg.sv rtl/mem/mem_pkg.sv rtl/roce/roce_qp_pkg.sv
RESP_RTL  := rtl/roce/roce_ram_sdp.sv rtl/roce/roce_fifo.sv rtl/roce/roce_qp_table.sv \
             rtl/roce/roce_mr_table.sv rtl/roce/roce_rq.sv rtl/roce/roce_rq_flush.sv rtl/roce/roce_resp_check.sv \
             rtl/roce/roce_resp_tx.sv rtl/roce/roce_resp.sv rtl/roce/roce_rx_split.sv \
             rtl/lib/lib_fifo.sv rtl/lib/lib_skid.sv
RESP_MEM  := rtl/mem/mem_dma_rd.sv rtl/mem/mem_dma_wr.sv \
             rtl/mem/mem_axi_arb.sv rtl/mem/mem_axi_ram.sv

$(RESP_DIR)/Vtb_roce_resp: $(RESP_PKGS) $(RESP_RTL) $(RESP_MEM) rtl/mem/mem_model.cpp rtl/mem/mem_model.h \
                           tests/roce_resp/tb_roce_resp.sv tests/roce_resp/tb_roce_resp.cpp tests/roce_resp/rules.mk
	@mkdir -p $(RESP_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(RESP_DIR)/obj_tb -o ../Vtb_roce_resp \
	  --top-module tb_roce_resp -CFLAGS "-O1 -std=c++17 -I$(abspath rtl/mem)" \
	  $(abspath $(RESP_PKGS) $(RESP_RTL) $(RESP_MEM) tests/roce_resp/tb_roce_resp.sv \
	  tests/roce_resp/tb_roce_resp.cpp rtl/mem/mem_model.cpp) >$(RESP_DIR)/build.log 2>&1 \
	  || (tail -40 $(RESP_DIR)/build.log; exit 1)

# Lint of every responder-side module on its own, at NQP 256 and 4096.
.PHONY: roce-resp-lint
roce-resp-lint:
	@for m in roce_qp_table roce_mr_table roce_rq roce_resp roce_rx_split; do \
	  for n in 256 4096; do \
	    p=""; case $$m in roce_qp_table|roce_rq|roce_resp) p="-GNQP=$$n";; esac; \
	    $(VERILATOR) --lint-only -Wall $(RESP_PKGS) $(RESP_RTL) --top-module $$m $$p || exit 1; \
	  done; \
	done; echo "roce-resp-lint: clean at NQP 256 and 4096"
