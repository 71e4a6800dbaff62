# tests/sim: the harness's Ethernet features (build/sim/solonic_sim with
# --nics, --wire, --eth0, --pcap, --uart1-*). The test program sim_eth moves
# frames through the NIC's management buffers; it borrows the start-up code,
# linker script of the SoC test programs (tests/soc/progs).
SIMT_PROG_DIR := $(BUILD)/sim/progs
SIMT_HEX      := $(SIMT_PROG_DIR)/sim_eth.hex
SIMT_CFLAGS   := $(RV_ARCH) -O2 -g -nostdlib -nostartfiles -ffreestanding -mno-relax -Wall -Wextra \
                 -T tests/soc/progs/prog.ld -I$(dir $(REGS_HDR))

.PHONY: sim-progs
sim-progs: $(SIMT_HEX)

$(SIMT_PROG_DIR)/sim_eth.elf: tests/sim/progs/sim_eth.c tests/soc/progs/crt.S tests/soc/progs/prog.ld $(REGS_HDR)
	@mkdir -p $(@D)
	$(RV_CC) $(SIMT_CFLAGS) tests/soc/progs/crt.S $< -o $@

$(SIMT_HEX): $(SIMT_PROG_DIR)/sim_eth.elf tests/soc/mkhex.py
	$(RV_PREFIX)objcopy -O binary $< $(@:.hex=.bin)
	$(PY) tests/soc/mkhex.py $(@:.hex=.bin) $@
