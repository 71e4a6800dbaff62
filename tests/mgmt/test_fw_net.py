#!/usr/bin/env python3
"""The network commands in a SoC where nothing answers at the management port
(build/mgmt/Vtb_fw_mgmt --no-mgmt-port, as the single-SoC harness was): the firmware must boot, say
there is no port, and every network command must check its arguments and
report the missing port instead of faulting.

    test_fw_net.py CASE     run one case, exit 0 on pass
    test_fw_net.py --list   the case names
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fw"))
from fw_image import ROOT, command_table  # noqa: E402  (puts scripts/ on the path)
import nicsim  # noqa: E402
from nicsim import Failure, check, check_true, typed  # noqa: E402

MGMT_SIM = os.path.join(ROOT, "build/mgmt/Vtb_fw_mgmt")


def Sim(keys):
    return nicsim.Sim(keys, extra=["--no-mgmt-port"], sim=MGMT_SIM)

NO_PORT = "no management port (nothing answers at the mgmt register block)"


def case_boot_without_port():
    with Sim(typed("version")) as s:
        banner = s.boot()
        check_true("boot line about the missing port", f"net: {NO_PORT}; networking is off" in banner,
                   f"'net: {NO_PORT}; networking is off'", banner)
        check_true("the console works after it", s.reply("version").startswith("solonic "), "'solonic ...'", "")
        check("exit code", 0, s.wait_exit())


def case_commands_report_missing_port():
    cmds = ["ip", "ip 10.0.0.9/24", "mac", "mac 02:00:00:00:00:09", "arp", "ping 10.0.0.2", "stats", "tcp",
            "tcp idle 5"]
    with Sim(typed(*cmds)) as s:
        s.boot()
        for c in cmds:
            check(f"'{c}' without a port", f"{c.split()[0]}: {NO_PORT}\n", s.reply(c))
        check("exit code (no fault)", 0, s.wait_exit())


def case_argument_errors():
    cases = [
        ("ip 10.0.0.9", "ip: expected ADDR/PREFIX like 10.0.0.1/24, got '10.0.0.9'\n"),
        ("ip 10.0.0/24", "ip: ADDR: expected a dotted IPv4 address like 10.0.0.2, got '10.0.0'\n"),
        ("ip 10.0.0.256/24", "ip: ADDR: expected a dotted IPv4 address like 10.0.0.2, got '10.0.0.256'\n"),
        ("ip 10.0.0.9/33", "ip: PREFIX: expected 1..30, got 33\n"),
        ("ip 10.0.0.9/x", "ip: PREFIX: expected a number (decimal or 0x hex), got 'x'\n"),
        ("ip 10.0.0.0/24", "ip: ADDR: 10.0.0.0 is not a host address in a /24 network\n"),
        ("ip 224.0.0.1/24", "ip: ADDR: 224.0.0.1 is not a host address in a /24 network\n"),
        ("ip 10.0.0.9/24 10.0.1.1", "ip: GW: 10.0.1.1 is not another host in 10.0.0.9/24\n"),
        ("ip 10.0.0.9/24 1.2.3.4 x", "ip: too many arguments (see 'help ip')\n"),
        ("mac 02:00:00:00:00", "mac: expected six hex bytes like 02:00:00:00:00:01, got '02:00:00:00:00'\n"),
        ("mac 01:00:5e:00:00:01", "mac: 01:00:5e:00:00:01 is a multicast address (bit 0 of the first byte is set)\n"),
        ("mac 00:00:00:00:00:00", "mac: 00:00:00:00:00:00 is not a station address\n"),
        ("arp x", "arp: takes no arguments\n"),
        ("ping", "ping: expected ADDR [COUNT [TIMEOUT_MS]]\n"),
        ("ping 10.0.0.2.1", "ping: ADDR: expected a dotted IPv4 address like 10.0.0.2, got '10.0.0.2.1'\n"),
        ("ping 10.0.0.2 0", "ping: COUNT: expected 1..1000, got 0\n"),
        ("ping 10.0.0.2 1001", "ping: COUNT: expected 1..1000, got 1001\n"),
        ("ping 10.0.0.2 1 0", "ping: TIMEOUT_MS: expected 1..10000, got 0\n"),
        # this firmware runs without the transport: named counters are the transport's
        ("stats x", "stats: no RoCE transport (nothing answers at the roce register block)\n"),
        ("tcp x", "tcp: expected no arguments or 'idle MS' (see 'help tcp')\n"),
        ("tcp idle", "tcp: expected no arguments or 'idle MS' (see 'help tcp')\n"),
        ("tcp wait 5", "tcp: expected 'idle MS', got 'wait'\n"),
        ("tcp idle x", "tcp: MS: expected a number (decimal or 0x hex), got 'x'\n"),
        ("tcp idle 0", "tcp: MS: expected 1..600000, got 0\n"),
        ("tcp idle 600001", "tcp: MS: expected 1..600000, got 600001\n"),
    ]
    with Sim(typed(*[c for c, _ in cases])) as s:
        s.boot()
        for c, want in cases:
            check(f"reply to '{c}'", want, s.reply(c))
        check("exit code", 0, s.wait_exit())


def case_help_lists_network_commands():
    table = {name: (args, text) for name, args, text in command_table()}
    want = {"ip": "[ADDR/PREFIX [GW]]", "mac": "[XX:XX:XX:XX:XX:XX]", "arp": "",
            "ping": "ADDR [COUNT [TIMEOUT_MS]]", "stats": "[COUNTER ...]", "tcp": "[idle MS]"}
    for name, args in want.items():
        check_true(f"'{name}' in the command table", name in table, name, sorted(table))
        check(f"'{name}' synopsis", args, table[name][0])
    with Sim(typed("help", "help ping")) as s:
        s.boot()
        out = s.reply("help")
        for name in want:
            check_true(f"'help' lists {name}", f"\n  {name} " in "\n" + out or f"\n  {name}\n" in out,
                       name, out)
        out = s.reply("help ping")
        check_true("'help ping' explains Ctrl-C and the timeout", "Ctrl-C" in out and "TIMEOUT_MS" in out,
                   "Ctrl-C, TIMEOUT_MS", out)
        check("exit code", 0, s.wait_exit())


CASES = {n[5:]: f for n, f in sorted(globals().items()) if n.startswith("case_")}

if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        sys.exit(0)
    if len(sys.argv) != 2 or sys.argv[1] not in CASES:
        sys.exit(f"usage: {sys.argv[0]} --list | CASE (one of {', '.join(CASES)})")
    try:
        CASES[sys.argv[1]]()
    except Failure as e:
        print(f"FAIL {sys.argv[1]}: {e}")
        sys.exit(1)
    print(f"PASS {sys.argv[1]}")
