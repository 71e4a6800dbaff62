# tests/boards: the board-level bench (one VCU118 board top with the CMAC
# stand-in, two clocks) and the clock-crossing benches. Outputs in $(BUILD)/boards/.
TB_BOARDS_DIR  := $(BUILD)/boards
TB_BOARD_RTL   := tests/boards/tb_board.vlt $(NIC_RTL) $(sort $(wildcard boards/common/rtl/*.sv)) boards/vcu118/rtl/vcu118_top.sv \
                  tests/boards/sim_prims.sv tests/boards/cmac_usplus_0.sv tests/boards/tb_board.sv
TB_CDC_RTL     := boards/common/rtl/board_sync_bit.sv boards/common/rtl/board_async_fifo.sv tests/boards/tb_cdc.sv

# -O1: a whole NIC that two short cases run (~25 s), so compiling it costs more than
# simulating it (-O2: about 45 s more of compile for a fifth less run time)
$(TB_BOARDS_DIR)/Vtb_board: $(TB_BOARD_RTL) tests/boards/tb_board.cpp tests/boards/rules.mk
	@mkdir -p $(TB_BOARDS_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build --timescale 1ns/1ps -Mdir $(TB_BOARDS_DIR)/obj_board \
	  --top-module tb_board -CFLAGS "-O1 -std=c++17" -MAKEFLAGS OPT_FAST=-O1 -o ../Vtb_board \
	  $(TB_BOARD_RTL) $(abspath tests/boards/tb_board.cpp) >$(TB_BOARDS_DIR)/build_board.log 2>&1 \
	  || (tail -40 $(TB_BOARDS_DIR)/build_board.log; exit 1)

$(TB_BOARDS_DIR)/Vtb_cdc: $(TB_CDC_RTL) tests/boards/tb_cdc.cpp tests/boards/rules.mk
	@mkdir -p $(TB_BOARDS_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build --timescale 1ns/1ps -Mdir $(TB_BOARDS_DIR)/obj_cdc \
	  --top-module tb_cdc -CFLAGS "-O2 -std=c++17" -o ../Vtb_cdc \
	  $(TB_CDC_RTL) $(abspath tests/boards/tb_cdc.cpp) >$(TB_BOARDS_DIR)/build_cdc.log 2>&1 \
	  || (tail -40 $(TB_BOARDS_DIR)/build_cdc.log; exit 1)

# board_nic's memory gate with a nic_top stand-in generated from nic_top's own header
TB_MEMGATE_RTL := boards/common/rtl/board_nic.sv boards/common/rtl/board_async_fifo.sv \
                  boards/common/rtl/board_mac_rx_cdc.sv boards/common/rtl/board_mac_tx_cdc.sv \
                  boards/common/rtl/board_sync_bit.sv boards/common/rtl/board_reset_sync.sv \
                  boards/common/rtl/board_count_sync.sv boards/common/rtl/board_axi_ram.sv \
                  rtl/lib/lib_skid.sv rtl/net/net_pkg.sv rtl/roce/roce_ustream_null.sv \
                  $(TB_BOARDS_DIR)/nic_top_stand_in.sv \
                  tests/boards/tb_memgate.sv

$(TB_BOARDS_DIR)/nic_top_stand_in.sv: rtl/top/nic_top.sv tests/boards/nic_stand_in.py tests/boards/nic_stand_in_body.sv
	@mkdir -p $(TB_BOARDS_DIR)
	$(PY) tests/boards/nic_stand_in.py $@

$(TB_BOARDS_DIR)/Vtb_memgate: $(TB_MEMGATE_RTL) tests/boards/tb_memgate.cpp tests/boards/rules.mk
	@mkdir -p $(TB_BOARDS_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build --timescale 1ns/1ps -Mdir $(TB_BOARDS_DIR)/obj_memgate \
	  --top-module tb_memgate -CFLAGS "-O2 -std=c++17" -o ../Vtb_memgate \
	  $(TB_MEMGATE_RTL) $(abspath tests/boards/tb_memgate.cpp) >$(TB_BOARDS_DIR)/build_memgate.log 2>&1 \
	  || (tail -40 $(TB_BOARDS_DIR)/build_memgate.log; exit 1)

.PHONY: boards-models
boards-models: $(TB_BOARDS_DIR)/Vtb_board $(TB_BOARDS_DIR)/Vtb_cdc $(TB_BOARDS_DIR)/Vtb_memgate

# Everything of the board flow that runs here (the tests/boards group of make test).
.PHONY: boards-test
boards-test:
	$(PY) tests/run.py -k boards/
