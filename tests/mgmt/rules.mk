# tests/mgmt: the management buffers (rtl/net/net_mgmt_rx.sv, net_mgmt_tx.sv)
# and their register block in the bench tb_mgmt. Everything goes to $(BUILD)/mgmt/.
MGMT_RTL    := rtl/net/net_pkg.sv rtl/soc/soc_xbar.sv rtl/net/net_mgmt_rx.sv rtl/net/net_mgmt_tx.sv \
               $(REGS_SV_DIR)/mgmt_regs.sv tests/mgmt/tb_mgmt.sv
MGMT_TB     := $(BUILD)/mgmt/Vtb_mgmt

$(MGMT_TB): $(MGMT_RTL) tests/mgmt/tb_mgmt.cpp $(REGS_HDR) tests/mgmt/rules.mk
	@mkdir -p $(BUILD)/mgmt
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(BUILD)/mgmt/obj_tb --top-module tb_mgmt \
	  -CFLAGS "-O1 -std=c++17 -I$(abspath $(dir $(REGS_HDR)))" -o ../Vtb_mgmt \
	  $(MGMT_RTL) $(abspath tests/mgmt/tb_mgmt.cpp) >$(BUILD)/mgmt/build_tb.log 2>&1 \
	  || (tail -40 $(BUILD)/mgmt/build_tb.log; exit 1)

.PHONY: mgmt-models
mgmt-models: $(MGMT_TB)

# tb_fw_mgmt: the SoC with the firmware and the management buffers, the port
# bridged to a UDP socket (a stand-in for the NIC top and the harness's --eth0).
MGMT_CORE_PKGS := $(filter rtl/core/%,$(RTL_PKGS))
MGMT_SOC_RTL   := $(MGMT_CORE_PKGS) $(filter-out $(MGMT_CORE_PKGS),$(sort $(wildcard rtl/core/*.sv))) \
                  $(sort $(wildcard rtl/soc/*.sv)) \
                  $(addprefix $(REGS_SV_DIR)/,sysinfo_regs.sv uart_regs.sv timer_regs.sv simctrl_regs.sv wdog_regs.sv)
MGMT_FW_RTL    := $(MGMT_SOC_RTL) $(filter-out rtl/soc/soc_xbar.sv,$(MGMT_RTL)) tests/mgmt/tb_fw_mgmt.sv
MGMT_FW_TB     := $(BUILD)/mgmt/Vtb_fw_mgmt

$(MGMT_FW_TB): $(MGMT_FW_RTL) tests/mgmt/tb_fw_mgmt.cpp sim/uart_console.cpp sim/uart_console.h tests/mgmt/rules.mk
	@mkdir -p $(BUILD)/mgmt
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(BUILD)/mgmt/obj_fw --top-module tb_fw_mgmt \
	  -CFLAGS "-O2 -std=c++17 -I$(abspath sim)" -MAKEFLAGS OPT_FAST=-O2 -o ../Vtb_fw_mgmt \
	  $(MGMT_FW_RTL) $(abspath tests/mgmt/tb_fw_mgmt.cpp sim/uart_console.cpp) >$(BUILD)/mgmt/build_fw.log 2>&1 \
	  || (tail -40 $(BUILD)/mgmt/build_fw.log; exit 1)

mgmt-models: $(MGMT_FW_TB)
