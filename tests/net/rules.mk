# tests/net: models and vectors of the net block (rtl/net). Everything goes
# to $(BUILD)/net/.
NET_RTL      := rtl/net/net_pkg.sv rtl/lib/lib_fifo.sv rtl/lib/lib_skid.sv rtl/net/net_axis_skid.sv \
                rtl/net/net_rx_parse.sv rtl/net/net_rx_demux.sv rtl/net/net_rx.sv \
                rtl/net/net_tx_build.sv rtl/net/net_tx_arbiter.sv rtl/net/net_tx.sv
NET_PCAPS    := tests/data/rc_pingpong.pcap tests/data/write_bw.pcap tests/data/read_bw.pcap \
                tests/data/write_bw_2qp.pcap
# queue sizes of the RX model; the vector generator predicts drops from them
NET_RX_PARAMS := -GROCE_DEPTH=256 -GMGMT_DEPTH=256 -GHDR_DEPTH=32
NET_VEC      := $(BUILD)/net/vec/.stamp
NET_TB_HDR   := tests/net/tb_common.h

$(BUILD)/net/Vnet_rx: $(NET_RTL) tests/net/tb_net_rx.cpp $(NET_TB_HDR)
	@mkdir -p $(BUILD)/net
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(BUILD)/net/obj_rx --top-module net_rx \
	  $(NET_RX_PARAMS) -CFLAGS "-O1 -std=c++17" -o ../Vnet_rx \
	  $(filter %.sv,$^) $(abspath tests/net/tb_net_rx.cpp) >$(BUILD)/net/build_rx.log 2>&1 \
	  || (tail -40 $(BUILD)/net/build_rx.log; exit 1)

$(BUILD)/net/Vnet_tx: $(NET_RTL) tests/net/tb_net_tx.cpp $(NET_TB_HDR)
	@mkdir -p $(BUILD)/net
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(BUILD)/net/obj_tx --top-module net_tx \
	  -CFLAGS "-O1 -std=c++17" -o ../Vnet_tx \
	  $(filter %.sv,$^) $(abspath tests/net/tb_net_tx.cpp) >$(BUILD)/net/build_tx.log 2>&1 \
	  || (tail -40 $(BUILD)/net/build_tx.log; exit 1)

$(NET_VEC): tests/net/gen_vectors.py tests/net/netmodel.py $(NET_PCAPS)
	@mkdir -p $(BUILD)/net/vec
	$(PY) tests/net/gen_vectors.py $(BUILD)/net/vec --pcaps $(NET_PCAPS) \
	  --roce-depth 256 --mgmt-depth 256 --hdr-depth 32
	@touch $@

.PHONY: net-models net-bench
net-models: $(BUILD)/net/Vnet_rx $(BUILD)/net/Vnet_tx $(NET_VEC)

# Line-rate figures (also asserted by the tests rx_line_rate / tx_line_rate).
net-bench: net-models
	$(BUILD)/net/Vnet_rx +vec=$(BUILD)/net/vec/rx_linerate.vec | grep -E '^(bench|PASSED|FAILED|FAIL)'
	$(BUILD)/net/Vnet_tx +vec=$(BUILD)/net/vec/tx_linerate.vec | grep -E '^(bench|PASSED|FAILED|FAIL)'
