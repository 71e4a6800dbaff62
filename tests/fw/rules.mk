# tests/fw: the firmware's word-wise memcpy/memmove/memset (bsp/string.c) compiled for the
# host under other names, loaded by tests/fw/test_string.py with ctypes.
FW_HOST_DIR := $(BUILD)/fw_host
HOST_CC ?= gcc

$(FW_HOST_DIR)/libfwstring.so: bsp/string.c
	@mkdir -p $(@D)
	$(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -fno-builtin \
	  -fno-tree-loop-distribute-patterns \
	  -Dmemset=fw_memset -Dmemcpy=fw_memcpy -Dmemmove=fw_memmove $< -o $@

# bsp/udiv64.c (the fast path in front of libgcc's 64-bit division) with host stand-ins for
# libgcc (tests/fw/udiv64_shim.c), loaded by tests/fw/test_udiv64.py
$(FW_HOST_DIR)/libfwudiv64.so: bsp/udiv64.c tests/fw/udiv64_shim.c
	@mkdir -p $(@D)
	$(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared \
	  -D__real___udivdi3=host_real_udiv -D__real___umoddi3=host_real_umod \
	  -D__wrap___udivdi3=fw_udiv64 -D__wrap___umoddi3=fw_umod64 $^ -o $@

# fw/roce/qpx_mem.c's pure part (the pattern word and the seeds that make wanted bytes),
# loaded by tests/fw/test_qpx_mem.py
$(FW_HOST_DIR)/libfwqpxmem.so: fw/roce/qpx_mem.c fw/roce/qpx_mem.h
	@mkdir -p $(@D)
	$(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -DQPX_MEM_HOST $< -o $@
