# tests/qpx: the QP exchange (fw/roce/qpx_msg.c) compiled for the host as a
# shared library that the Python tests load with ctypes. Output in $(BUILD)/qpx/.
QPX_DIR := $(BUILD)/qpx
HOST_CC ?= gcc

$(QPX_DIR)/libqpx_msg.so: fw/roce/qpx_msg.c fw/roce/qpx_msg.h
	@mkdir -p $(@D)
	$(HOST_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	  -Wmissing-prototypes -fPIC -shared -Ifw/roce $< -o $@

# the CM MAD codec (fw/roce/cm_mad.c), the same way
$(QPX_DIR)/libcm_mad.so: fw/roce/cm_mad.c fw/roce/cm_mad.h
	@mkdir -p $(@D)
	$(HOST_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	  -Wmissing-prototypes -fPIC -shared -Ifw/roce $< -o $@
