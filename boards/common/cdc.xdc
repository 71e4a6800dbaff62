# Clock crossings of board_nic (boards/common/rtl), for every board.
# The NIC clock (MMCM CLKOUT0) and the CMAC's stream clock (gt_txusrclk2) are
# unrelated. What crosses between them, each into a two-flop synchroniser
# (ASYNC_REG cells meta_q/sync_q): the Gray-coded FIFO pointers (FRAME = 0), the
# whole-frame FIFO's published pointer held in xptr_q with its req/ack toggle
# bits (FRAME = 1), and the Gray-coded counters; nothing else (the FIFO RAM's
# ports each stay in their own domain). The buses must arrive within one period
# of the faster clock.
set clk_nic [get_clocks -of_objects [get_pins -hierarchical -filter {NAME =~ *u_mmcm/CLKOUT0}]]
set clk_mac [get_clocks -of_objects [get_pins -hierarchical -filter {NAME =~ *u_cmac/gt_txusrclk2}]]
set_max_delay -datapath_only -from $clk_nic -to $clk_mac 3.000
set_max_delay -datapath_only -from $clk_mac -to $clk_nic 3.000
set_bus_skew -from $clk_nic -to $clk_mac 3.000
set_bus_skew -from $clk_mac -to $clk_nic 3.000

# reset synchronisers: asynchronous assertion (PRE pins), synchronous release
set_false_path -to [get_pins -hierarchical -filter {NAME =~ *chain_q_reg*/PRE}]
