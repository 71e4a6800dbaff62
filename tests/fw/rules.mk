# tests/fw: the firmware's word-wise memcpy/memmove/memset (bsp/string.c) compiled for the
# host under other names, loaded by tests/fw/test_string.py with ctypes.
FW_HOST_DIR := $(BUILD)/fw_host
HOST_CC ?= gcc

$(FW_HOST_DIR)/libfwstring.so: bsp/string.c
	@mkdir -p $(@D)
	$(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -fno-builtin \
	  -fno-tree-loop-distribute-patterns \
	  -Dmemset=fw_memset -Dmemcpy=fw_memcpy -Dmemmove=fw_memmove $< -o $@
