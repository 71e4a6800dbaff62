# tests/core/rules.mk: models and programs of the core group (rv_core ISA
# tests). Everything is built below $(BUILD)/core/.
#
#   $(BUILD)/core/Vtb_core          bench model of rv_core
#   $(BUILD)/core/Vtb_core_fault    same with SOLONIC_FAULT_INJECT (mutation test)
#   $(BUILD)/core/progs/<p>.core.hex / .core.elf   program linked for the bench
#   $(BUILD)/core/progs/<p>.qemu.elf               same program linked for QEMU virt
#   core-all                        all of the above

CORE_BUILD   := $(BUILD)/core
CORE_RTL     := $(sort $(wildcard rtl/core/*.sv))
CORE_TB_SV   := tests/core/tb/tb_core.sv
CORE_TB_CPP  := tests/core/tb/tb_core_main.cpp
CORE_PDIR    := tests/core/progs
CORE_PSRCS   := $(filter-out $(CORE_PDIR)/crt.S,$(wildcard $(CORE_PDIR)/*.S $(CORE_PDIR)/*.c))
CORE_PROGS   := $(sort $(basename $(notdir $(CORE_PSRCS))))
CORE_PENV    := $(CORE_PDIR)/crt.S $(CORE_PDIR)/env.h
CORE_PCFLAGS := $(RV_ARCH) -O2 -g -nostdlib -nostartfiles -ffreestanding -mno-relax \
                -ffixed-x26 -ffixed-x27 -ffixed-x31 -Wall -I$(CORE_PDIR)
CORE_VFLAGS  := --cc --exe --build -j 2 --assert --top-module tb_core -CFLAGS -O1

CORE_HEX     := $(foreach p,$(CORE_PROGS),$(CORE_BUILD)/progs/$(p).core.hex)
CORE_QELF    := $(foreach p,$(CORE_PROGS),$(CORE_BUILD)/progs/$(p).qemu.elf)

.PHONY: core-all core-progs
.SECONDARY: $(CORE_HEX:.hex=.elf)
core-all: $(CORE_BUILD)/Vtb_core $(CORE_BUILD)/Vtb_core_fault core-progs
core-progs: $(CORE_HEX) $(CORE_QELF)

$(CORE_BUILD)/Vtb_core: $(CORE_RTL) $(CORE_TB_SV) $(CORE_TB_CPP)
	@mkdir -p $(CORE_BUILD)
	$(VERILATOR) $(VFLAGS) $(CORE_VFLAGS) -Mdir $(CORE_BUILD)/obj_tb_core \
	    $(CORE_RTL) $(CORE_TB_SV) $(abspath $(CORE_TB_CPP)) -o Vtb_core >$(CORE_BUILD)/obj_tb_core.log 2>&1 \
	    || { cat $(CORE_BUILD)/obj_tb_core.log; false; }
	cp $(CORE_BUILD)/obj_tb_core/Vtb_core $@

$(CORE_BUILD)/Vtb_core_fault: $(CORE_RTL) $(CORE_TB_SV) $(CORE_TB_CPP)
	@mkdir -p $(CORE_BUILD)
	$(VERILATOR) $(VFLAGS) $(CORE_VFLAGS) +define+SOLONIC_FAULT_INJECT -Mdir $(CORE_BUILD)/obj_tb_core_fault \
	    $(CORE_RTL) $(CORE_TB_SV) $(abspath $(CORE_TB_CPP)) -o Vtb_core >$(CORE_BUILD)/obj_tb_core_fault.log 2>&1 \
	    || { cat $(CORE_BUILD)/obj_tb_core_fault.log; false; }
	cp $(CORE_BUILD)/obj_tb_core_fault/Vtb_core $@

# One source, two links: TARGET_CORE at 0 (bench), TARGET_QEMU at 0x80000000.
$(CORE_BUILD)/progs/%.core.elf: $(CORE_PDIR)/%.* $(CORE_PENV) $(CORE_PDIR)/core.ld
	@mkdir -p $(dir $@)
	$(RV_CC) $(CORE_PCFLAGS) -DTARGET_CORE -T $(CORE_PDIR)/core.ld -o $@ $(CORE_PDIR)/crt.S $(filter %.S %.c,$(filter-out $(CORE_PDIR)/crt.S,$^)) -lgcc

$(CORE_BUILD)/progs/%.qemu.elf: $(CORE_PDIR)/%.* $(CORE_PENV) $(CORE_PDIR)/qemu.ld
	@mkdir -p $(dir $@)
	$(RV_CC) $(CORE_PCFLAGS) -DTARGET_QEMU -T $(CORE_PDIR)/qemu.ld -o $@ $(CORE_PDIR)/crt.S $(filter %.S %.c,$(filter-out $(CORE_PDIR)/crt.S,$^)) -lgcc

# $readmemh image: one little-endian 32-bit word per line from address 0.
$(CORE_BUILD)/progs/%.core.hex: $(CORE_BUILD)/progs/%.core.elf
	$(RV_PREFIX)objcopy -O binary $< $(@:.hex=.bin)
	od -An -v -tx4 -w4 $(@:.hex=.bin) | tr -d ' ' >$@
