# tests/soc: the SoC without the core (soc_sys) under a bus-master bench, and
# test programs for the whole SoC run on the simulator (build/sim/solonic_sim).
SOC_TB_DIR  := $(BUILD)/soc
SOC_TB_REGS := $(addprefix $(BUILD)/gen/rtl/,sysinfo_regs.sv uart_regs.sv timer_regs.sv simctrl_regs.sv wdog_regs.sv)
SOC_TB_RTL  := $(filter-out rtl/soc/soc_top.sv,$(wildcard rtl/soc/*.sv)) $(SOC_TB_REGS)
# soc_sys uses no package, so RTL_PKGS is not read (unused package items would
# trip -Wall). What the bench expects sysinfo.git_hash to read
SOC_TB_VFLAGS := --top-module soc_sys -GGIT_HASH=32\'h5011c0de

$(SOC_TB_DIR)/Vsoc_sys_tb: $(SOC_TB_RTL) tests/soc/tb_soc_sys.cpp tests/soc/rules.mk
	@mkdir -p $(SOC_TB_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(SOC_TB_DIR)/obj_soc_sys \
	  -o ../Vsoc_sys_tb $(SOC_TB_VFLAGS) $(SOC_TB_RTL) $(abspath tests/soc/tb_soc_sys.cpp) >/dev/null

$(SOC_TB_DIR)/Vsoc_sys_serial_tb: $(SOC_TB_RTL) tests/soc/tb_soc_sys.cpp tests/soc/rules.mk
	@mkdir -p $(SOC_TB_DIR)
	$(VERILATOR) $(VFLAGS) --cc --exe --build -Mdir $(SOC_TB_DIR)/obj_soc_sys_serial \
	  -o ../Vsoc_sys_serial_tb $(SOC_TB_VFLAGS) -GUART_SERIAL=1 -CFLAGS -DSERIAL=1 \
	  $(SOC_TB_RTL) $(abspath tests/soc/tb_soc_sys.cpp) >/dev/null

# Test programs: C programs link with progs/crt.S, assembly programs
# (soc_*.S) stand alone. Each becomes $(SOC_TB_DIR)/progs/<name>.hex.
SOC_PROG_DIR := $(SOC_TB_DIR)/progs
SOC_PROG_C   := $(sort $(basename $(notdir $(wildcard tests/soc/progs/soc_*.c))))
SOC_PROG_S   := $(sort $(basename $(notdir $(wildcard tests/soc/progs/soc_*.S))))
SOC_PROG_HEX := $(foreach p,$(SOC_PROG_C) $(SOC_PROG_S),$(SOC_PROG_DIR)/$(p).hex)
SOC_PROG_CFLAGS := $(RV_ARCH) -O2 -g -nostdlib -nostartfiles -ffreestanding -mno-relax -Wall -Wextra \
                   -T tests/soc/progs/prog.ld -Itests/soc/progs

.PHONY: soc-progs
soc-progs: $(SOC_PROG_HEX)

$(foreach p,$(SOC_PROG_C),$(SOC_PROG_DIR)/$(p).elf): $(SOC_PROG_DIR)/%.elf: tests/soc/progs/%.c \
    tests/soc/progs/crt.S tests/soc/progs/soc_test.h tests/soc/progs/prog.ld
	@mkdir -p $(@D)
	$(RV_CC) $(SOC_PROG_CFLAGS) tests/soc/progs/crt.S $< -o $@

$(foreach p,$(SOC_PROG_S),$(SOC_PROG_DIR)/$(p).elf): $(SOC_PROG_DIR)/%.elf: tests/soc/progs/%.S \
    tests/soc/progs/prog.ld
	@mkdir -p $(@D)
	$(RV_CC) $(SOC_PROG_CFLAGS) $< -o $@

$(SOC_PROG_DIR)/%.hex: $(SOC_PROG_DIR)/%.elf tests/soc/mkhex.py
	$(RV_PREFIX)objcopy -O binary $< $(@:.hex=.bin)
	$(PY) tests/soc/mkhex.py $(@:.hex=.bin) $@
