# Firmware: bsp/ (start-up, trap, drivers, picolibc hooks) and fw/ (console)
# linked with linker/solonic.ld into build/fw/solonic.elf and its IMEM image
# build/fw/solonic.hex ($readmemh, one 32-bit word per line from address 0).
#
#   make fw            the ELF, the image, a map file and a listing
#   make fw-size       text/data/bss of the ELF

FW_DIR      := $(BUILD)/fw
FW_ELF      := $(FW_DIR)/solonic.elf
FW_HEX      := $(FW_DIR)/solonic.hex
FW_LD       := linker/solonic.ld
REGS_HDR    ?= $(BUILD)/gen/include/solonic_regs.h
FW_DESCRIBE := $(or $(GIT_DESCRIBE),$(shell git describe --always --dirty 2>/dev/null || echo unknown))

FW_CFLAGS   := $(RV_ARCH) --specs=picolibc.specs -Os -g -std=gnu11 -Wall -Wextra \
               -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror=implicit-function-declaration \
               -ffunction-sections -fdata-sections -fno-common \
               -I$(dir $(REGS_HDR)) -Ibsp -Ifw -I$(FW_DIR)
FW_LDFLAGS  := $(RV_ARCH) --specs=picolibc.specs -nostartfiles -T $(FW_LD) \
               -Wl,--gc-sections -Wl,-Map=$(FW_DIR)/solonic.map

FW_SRCS     := bsp/start.S $(sort $(wildcard bsp/*.c)) $(filter-out fw/version.c,$(sort $(wildcard fw/*.c)))
FW_OBJS     := $(patsubst %,$(FW_DIR)/%.o,$(basename $(FW_SRCS)))
FW_VER_OBJ  := $(FW_DIR)/fw/version.o

.PHONY: fw fw-size fw-version-check

fw: $(FW_ELF) $(FW_HEX) $(FW_DIR)/solonic.lst

fw-size: $(FW_ELF)
	$(RV_PREFIX)size $(FW_ELF)

$(FW_DIR)/%.o: %.c $(REGS_HDR)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(FW_DIR)/%.o: %.S $(REGS_HDR)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

# version.h changes only when git describe does; version.o (with the build
# date) is rebuilt whenever anything else in the image is.
$(FW_DIR)/version.h: fw-version-check
	@:
fw-version-check:
	@mkdir -p $(FW_DIR)
	@echo '#define FW_GIT_DESCRIBE "$(FW_DESCRIBE)"' > $(FW_DIR)/version.h.tmp
	@cmp -s $(FW_DIR)/version.h.tmp $(FW_DIR)/version.h && rm -f $(FW_DIR)/version.h.tmp \
	  || mv $(FW_DIR)/version.h.tmp $(FW_DIR)/version.h

$(FW_VER_OBJ): fw/version.c $(FW_DIR)/version.h $(FW_OBJS) $(FW_LD) $(REGS_HDR)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -MMD -MP \
	  -DFW_BUILD_DATE='"$(shell date -u $${SOURCE_DATE_EPOCH:+-d @$$SOURCE_DATE_EPOCH} '+%Y-%m-%d %H:%M:%S UTC')"' \
	  -c $< -o $@

$(FW_ELF): $(FW_OBJS) $(FW_VER_OBJ) $(FW_LD)
	$(RV_CC) $(FW_LDFLAGS) $(FW_OBJS) $(FW_VER_OBJ) -o $@
	$(RV_PREFIX)size $@

$(FW_DIR)/solonic.bin: $(FW_ELF)
	$(RV_PREFIX)objcopy -O binary $< $@

$(FW_HEX): $(FW_DIR)/solonic.bin $(FW_ELF) fw/bin2hex.py
	$(PY) fw/bin2hex.py $< $@ --max-bytes 0x$$($(RV_PREFIX)nm $(FW_ELF) | awk '$$3 == "__imem_bytes" { print $$1 }')

$(FW_DIR)/solonic.lst: $(FW_ELF)
	$(RV_PREFIX)objdump -d -S $< > $@

-include $(FW_OBJS:.o=.d) $(FW_VER_OBJ:.o=.d)
