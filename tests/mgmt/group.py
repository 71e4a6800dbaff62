"""mgmt: the management path.

- The RTL buffers (rtl/net/net_mgmt_rx.sv, net_mgmt_tx.sv, regs/mgmt.toml) in
  the bench tb_mgmt (C++ model of the documented behaviour).
- The firmware's network commands in the single-SoC simulator, where the
  management port is absent (test_fw_net.py).
- lwIP end to end (test_lwip_*.py): Scapy talks ARP, ICMP, TCP and UDP to the
  firmware of the real NIC (build/sim/solonic_sim --eth0 udp:...), through its
  packet layer and management buffers. SOLONIC_NIC_SIM picks another simulator
  with the same options (build/mgmt/Vtb_fw_mgmt: the SoC and the buffers only).
- The port under abuse (test_mgmt_abuse.py): SYN floods, silent connections, garbage,
  RST storms and oversized frames against ports 7 and 18515, each followed by a real
  exchange; lwIP's pools and connections back at their idle values."""
import subprocess

ORDER = 45
TB = "build/mgmt/Vtb_mgmt"
FW_TB = "build/mgmt/Vtb_fw_mgmt"
BUILD = [TB, FW_TB, "build/sim/solonic_sim", "build/fw/solonic.elf", "build/fw/solonic.hex"]
PY = "/usr/bin/python3"
FW_SCRIPT = "tests/mgmt/test_fw_net.py"

RTL = ["rtl/net/net_pkg.sv", "rtl/net/net_mgmt_rx.sv", "rtl/net/net_mgmt_tx.sv"]
TB_RTL = RTL + ["rtl/soc/soc_xbar.sv", "build/gen/rtl/mgmt_regs.sv", "tests/mgmt/tb_mgmt.sv"]

# (RX idle %, TX tready %)
PRESSURE = [(20, 70), (0, 100), (60, 30), (90, 95)]


def cases():
    c = [{"name": "regs_identity_and_window_errors", "cmd": [TB, "+test=regs_bus"]}]
    for i, (idle, ready) in enumerate(PRESSURE):
        a = [f"+seed={i + 1}", f"+idle={idle}", f"+ready={ready}"]
        c.append({"name": f"rx_frames_read_back_byte_exact_idle{idle}",
                  "cmd": [TB, "+test=rx_stream", "+frames=300"] + a})
        c.append({"name": f"tx_frames_out_byte_exact_ready{ready}",
                  "cmd": [TB, "+test=tx_stream", "+frames=200"] + a})
    c += [
        {"name": "rx_full_and_too_long_dropped_whole_and_counted", "cmd": [TB, "+test=rx_full", "+seed=5"]},
        {"name": "rx_full_no_idle", "cmd": [TB, "+test=rx_full", "+seed=6", "+idle=0"]},
        {"name": "tx_bad_sends_counted_and_queued_frames_at_line_rate",
         "cmd": [TB, "+test=tx_errors_line_rate", "+seed=7"]},
        {"name": "lint_net_mgmt_rx", "cmd": ["verilator", "--lint-only", "-Wall", "--top-module", "net_mgmt_rx"] + RTL},
        {"name": "lint_net_mgmt_tx", "cmd": ["verilator", "--lint-only", "-Wall", "--top-module", "net_mgmt_tx"] + RTL},
        {"name": "lint_tb_wiring", "cmd": ["verilator", "--lint-only", "-Wall", "--top-module", "tb_mgmt"] + TB_RTL},
        {"name": "yosys_elaborates_mgmt", "cmd": ["yosys", "-q", "-p",
            "read_verilog -sv " + " ".join(TB_RTL[:-1]) + "; hierarchy -check; proc; check -assert"]},
    ]
    names = subprocess.run([PY, FW_SCRIPT, "--list"], stdout=subprocess.PIPE, text=True,
                           check=True).stdout.split()
    c += [{"name": "fw_" + n, "cmd": [PY, FW_SCRIPT, n], "timeout": 240} for n in names]
    for t in ("arp", "icmp", "tcp"):
        c.append({"name": f"lwip_{t}", "pytest": f"tests/mgmt/test_lwip_{t}.py", "timeout": 900})
    # the port under abuse: every attack, then echo and a real exchange, in one run
    c.append({"name": "abuse", "pytest": "tests/mgmt/test_mgmt_abuse.py", "timeout": 900})
    # through the real NIC (its packet layer routes QP 1 to the firmware)
    c.append({"name": "gsi_qp1", "pytest": "tests/mgmt/test_gsi.py", "timeout": 300})
    return c
