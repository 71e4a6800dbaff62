# tests/fabric: unit tests of the switch model (sim/fabric), a host C++ program.
FABRIC_TEST := $(BUILD)/fabric/test_switch

$(FABRIC_TEST): sim/fabric/switch.cpp sim/fabric/switch.h sim/wire/eth_wire.cpp sim/wire/eth_wire.h tests/fabric/test_switch.cpp tests/common/check.h
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O2 -Wall -Wextra -Werror -Isim/wire -Itests/common -Isim/fabric sim/wire/eth_wire.cpp sim/fabric/switch.cpp tests/fabric/test_switch.cpp -o $@
