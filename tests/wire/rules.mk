# tests/wire: unit tests of the Ethernet wire model (sim/wire), a host C++ program.
WIRE_TEST := $(BUILD)/wire/test_eth_wire

$(WIRE_TEST): sim/wire/eth_wire.cpp sim/wire/eth_wire.h tests/wire/test_eth_wire.cpp tests/common/check.h
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror -Isim/wire -Itests/common sim/wire/eth_wire.cpp tests/wire/test_eth_wire.cpp -o $@
