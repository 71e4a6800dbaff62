"""net: Ethernet/IPv4/UDP layer (rtl/net). Benches tb_net_rx.cpp / tb_net_tx.cpp
driven by vectors from gen_vectors.py (Scapy frames, expectations from
netmodel.py and Scapy, never from the RTL)."""
ORDER = 40
RX, TX, V = "build/net/Vnet_rx", "build/net/Vnet_tx", "build/net/vec/"
BUILD = [RX, TX, V + ".stamp"]

NET_RTL = ["rtl/net/net_pkg.sv", "rtl/lib/lib_fifo.sv", "rtl/lib/lib_skid.sv", "rtl/net/net_axis_skid.sv",
           "rtl/net/net_rx_parse.sv", "rtl/net/net_rx_demux.sv", "rtl/net/net_rx.sv",
           "rtl/net/net_tx_build.sv", "rtl/net/net_tx_arbiter.sv", "rtl/net/net_tx.sv"]

# (input idle %, consumer ready %): consumers always faster than the input so
# no frame may be dropped for lack of room (that case has its own test)
PRESSURE = [(30, 80), (10, 95), (60, 70), (0, 100)]


def cases():
    c = []
    for i, (idle, ready) in enumerate(PRESSURE):
        a = [f"+seed={i + 1}", f"+idle={idle}", f"+ready={ready}"]
        c.append({"name": f"rx_random_frames_idle{idle}_ready{ready}", "cmd": [RX, f"+vec={V}rx_random.vec"] + a})
        c.append({"name": f"tx_random_frames_idle{idle}_ready{ready}", "cmd": [TX, f"+vec={V}tx_random.vec"] + a})
    c.append({"name": "rx_random_frames_set2", "cmd": [RX, f"+vec={V}rx_random2.vec", "+seed=7"]})
    c.append({"name": "tx_random_frames_set2", "cmd": [TX, f"+vec={V}tx_random2.vec", "+seed=7"]})
    c += [
        {"name": "rx_bad_inputs_dropped_counted_next_passes", "cmd": [RX, f"+vec={V}rx_bad.vec"]},
        {"name": "rx_bad_inputs_no_idle_full_ready", "cmd": [RX, f"+vec={V}rx_bad.vec", "+idle=0", "+ready=100"]},
        {"name": "rx_consumer_full_drops_whole_frames", "cmd": [RX, f"+vec={V}rx_full.vec"]},
        {"name": "rx_reference_pcaps", "cmd": [RX, f"+vec={V}rx_pcap.vec"]},
        {"name": "rx_line_rate_no_bubble", "cmd": [RX, f"+vec={V}rx_linerate.vec"]},
        {"name": "tx_rebuilds_reference_pcaps", "cmd": [TX, f"+vec={V}tx_pcap.vec"]},
        {"name": "tx_line_rate_no_bubble_round_robin", "cmd": [TX, f"+vec={V}tx_linerate.vec"]},
        {"name": "lint_rx", "cmd": ["verilator", "--lint-only", "-Wall", "--top-module", "net_rx"] + NET_RTL},
        {"name": "lint_tx", "cmd": ["verilator", "--lint-only", "-Wall", "--top-module", "net_tx"] + NET_RTL},
        {"name": "yosys_elaborates_net", "cmd": ["yosys", "-q", "-p",
            "read_verilog -sv " + " ".join(NET_RTL) + "; hierarchy -check -top net_rx; proc; "
            "design -reset; read_verilog -sv " + " ".join(NET_RTL) + "; hierarchy -check -top net_tx; proc"]},
    ]
    return c
