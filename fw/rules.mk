# Firmware: bsp/ (start-up, trap, drivers, picolibc hooks), fw/ (console) and
# fw/net/ (the lwIP port, compiled with lwIP 2.1.3 from deps/lwip, which
# 'make deps' unpacks) linked with linker/solonic.ld into build/fw/solonic.elf
# and its IMEM image build/fw/solonic.hex ($readmemh, one 32-bit word per line
# from address 0).
#
#   make fw            the ELF, the image, a map file and a listing
#   make fw-size       text/data/bss of the ELF

FW_DIR      := $(BUILD)/fw
FW_ELF      := $(FW_DIR)/solonic.elf
FW_HEX      := $(FW_DIR)/solonic.hex
FW_LD       := linker/solonic.ld
REGS_HDR    ?= $(BUILD)/gen/include/solonic_regs.h
LWIP_DIR    := deps/lwip
FW_DESCRIBE := $(or $(GIT_DESCRIBE),$(shell git describe --always --dirty 2>/dev/null || echo unknown))

FW_CFLAGS   := $(RV_ARCH) --specs=picolibc.specs -Os -g -std=gnu11 -Wall -Wextra \
               -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror=implicit-function-declaration \
               -ffunction-sections -fdata-sections -fno-common \
               -I$(dir $(REGS_HDR)) -Ibsp -Ifw -I$(FW_DIR) -Ifw/net -I$(LWIP_DIR)/src/include
# --wrap: bsp/udiv64.c's 32-bit fast path in front of libgcc's 64-bit division (printf's digits)
FW_LDFLAGS  := $(RV_ARCH) --specs=picolibc.specs -nostartfiles -T $(FW_LD) \
               -Wl,--gc-sections -Wl,-Map=$(FW_DIR)/solonic.map \
               -Wl,--wrap=__udivdi3 -Wl,--wrap=__umoddi3

# lwIP: the core, IPv4 and the Ethernet layer (lwipopts.h turns off what is not used)
LWIP_SRCS   := $(addprefix $(LWIP_DIR)/src/core/,init.c def.c inet_chksum.c ip.c mem.c memp.c \
                 netif.c pbuf.c raw.c stats.c tcp.c tcp_in.c tcp_out.c timeouts.c udp.c) \
               $(addprefix $(LWIP_DIR)/src/core/ipv4/,etharp.c icmp.c ip4.c ip4_addr.c) \
               $(LWIP_DIR)/src/netif/ethernet.c
# lwIP's own code is built with our flags (2.1.3 builds warning-free with them);
# a warning of lwIP's code to silence goes here and applies to its files only
LWIP_CFLAGS :=
LWIP_OBJS   := $(patsubst $(LWIP_DIR)/src/%.c,$(FW_DIR)/lwip/%.o,$(LWIP_SRCS))
FW_NET_HDRS := fw/net/lwipopts.h fw/net/arch/cc.h

FW_SRCS     := bsp/start.S $(sort $(wildcard bsp/*.c)) $(filter-out fw/version.c,$(sort $(wildcard fw/*.c))) \
               $(sort $(wildcard fw/net/*.c)) $(sort $(wildcard fw/roce/*.c))
FW_OBJS     := $(patsubst %,$(FW_DIR)/%.o,$(basename $(FW_SRCS))) $(LWIP_OBJS)
FW_VER_OBJ  := $(FW_DIR)/fw/version.o

.PHONY: fw fw-size fw-version-check

fw: $(FW_ELF) $(FW_HEX) $(FW_DIR)/solonic.lst

fw-size: $(FW_ELF)
	$(RV_PREFIX)size $(FW_ELF)

# bsp/string.c is memcpy/memset: GCC must not turn its loops back into calls to them
$(FW_DIR)/bsp/string.o: FW_CFLAGS += -fno-tree-loop-distribute-patterns

$(FW_DIR)/%.o: %.c $(REGS_HDR)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -MMD -MP -c $< -o $@

$(FW_DIR)/lwip/%.o: $(LWIP_DIR)/src/%.c $(FW_NET_HDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) $(LWIP_CFLAGS) -MMD -MP -c $< -o $@

# Without 'make deps' there is no lwIP source: say so before compiling anything.
ifeq ($(wildcard $(LWIP_DIR)/src/core/init.c),)
$(FW_OBJS) $(FW_VER_OBJ): fw-lwip-missing
.PHONY: fw-lwip-missing
fw-lwip-missing:
	@echo "fw: the lwIP source is missing ($(LWIP_DIR)/src): run 'make deps' first" >&2; exit 1
endif

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
