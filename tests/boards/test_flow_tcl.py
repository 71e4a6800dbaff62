"""The board flow's Tcl and XDC without Vivado (tests/boards/tcl_dryrun.tcl runs
them in tclsh with every Vivado command stubbed and recorded), compared with
the board RTL:

- every .tcl and .xdc under boards/ is complete Tcl, and build.tcl (each board,
  each memory option), program.tcl (JTAG, flash) and the XDCs run to the end;
  an unknown MEM is refused by name;
- the IP cores build.tcl creates for a board and MEM are exactly the IP cores
  the board top instantiates with that MEM (Yosys elaboration, the IP stand-ins
  of tests/boards/ip_stubs.sv and cmac_usplus_0.sv as black boxes);
- each memory IP core's widths in its Tcl configuration (data, address, ID,
  AXI3 burst length, enabled HBM ports, DDR4 data pins) agree with its
  stand-in, which Verilator's lint holds to the RTL that connects it;
- every bit of every port of each board top has exactly one package pin in the
  XDC the flow reads, no pin is used twice, and the XDC names no other port."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARDS = os.path.join(ROOT, "boards")
DRYRUN = os.path.join(ROOT, "tests/boards/tcl_dryrun.tcl")
STUBS = ["tests/boards/ip_stubs.sv", "tests/boards/cmac_usplus_0.sv"]
MEMS = {"vcu118": ("ddr4", "uram"), "u55c": ("hbm", "uram")}


def dryrun(tmp_path, *args):
    p = subprocess.run(["tclsh", DRYRUN, *args], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=60)
    recs = [l.split("\t") for l in p.stdout.splitlines() if "\t" in l]
    return p, recs


def build(tmp_path, board, mem):
    p, recs = dryrun(tmp_path, "build", BOARDS, board, mem)
    assert p.returncode == 0, p.stderr
    ips = {r[2]: (r[1], dict(zip(r[3::2], r[4::2]))) for r in recs if r[0] == "ip"}
    return ips, [r[1] for r in recs if r[0] == "xdc"], [r[1] for r in recs if r[0] == "generic"]


def stub_ports(module):
    """{port: width} of a stand-in module (0 = absent ports are simply missing)."""
    for f in STUBS:
        text = open(os.path.join(ROOT, f)).read()
        m = re.search(r"^module\s+" + module + r"\s*\((.*?)\);", text, re.S | re.M)
        if m:
            ports = {}
            for d in re.finditer(r"(?:input|output|inout)\s+(?:wire\s+)?(?:logic\s*)?(?:\[(\d+):(\d+)\])?\s*(\w+)",
                                 re.sub(r"//[^\n]*", "", m.group(1))):
                ports[d.group(3)] = int(d.group(1)) - int(d.group(2)) + 1 if d.group(1) else 1
            return ports
    return None


def top_ports(board):
    text = open(os.path.join(BOARDS, board, "rtl", f"{board}_top.sv")).read()
    head = re.search(r"^module\s+\w+\s*#\(.*?\)\s*\((.*?)\);", text, re.S | re.M).group(1)
    ports = {}
    for d in re.finditer(r"^\s*(?:input|output|inout)\s+(?:wire\s+)?(?:logic\s*)?(?:\[(\d+):(\d+)\])?\s*(\w+)",
                         re.sub(r"//[^\n]*", "", head), re.M):
        ports[d.group(3)] = int(d.group(1)) - int(d.group(2)) + 1 if d.group(1) else 1
    return ports


def nic_rtl():
    sys.path.insert(0, os.path.join(ROOT, "tests/boards"))
    import group  # noqa: E402
    return group.nic_rtl()


def test_every_tcl_and_xdc_file_is_complete_tcl():
    files = [os.path.join(d, f) for d, _, fs in os.walk(BOARDS) for f in fs if f.endswith((".tcl", ".xdc"))]
    files.append(DRYRUN)
    assert len(files) >= 9
    script = "foreach f $argv { set h [open $f]; set t [read $h]; close $h; " \
             "if {![info complete $t]} { puts \"incomplete: $f\"; exit 1 } }"
    p = subprocess.run(["tclsh", "/dev/stdin", *files], input=script, stdout=subprocess.PIPE, text=True)
    assert p.returncode == 0, p.stdout


@pytest.mark.parametrize("board", sorted(MEMS))
def test_build_runs_for_every_memory_and_default_is_the_board_memory(tmp_path, board):
    default = build(tmp_path, board, "default")
    first = build(tmp_path, board, MEMS[board][0])
    assert default == first, "MEM=default must be the board's own memory"
    for mem in MEMS[board]:
        ips, xdcs, generics = build(tmp_path, board, mem)
        assert f'MEM="{mem}"' in [g.replace('\\"', '"') for g in generics]
        assert "cmac_usplus_0" in ips
        assert all(os.path.isfile(x) for x in xdcs) and xdcs
    assert set(build(tmp_path, board, "uram")[0]) == {"cmac_usplus_0"}


@pytest.mark.parametrize("board", sorted(MEMS))
def test_build_refuses_an_unknown_memory_by_name(tmp_path, board):
    p, _ = dryrun(tmp_path, "build", BOARDS, board, "sram")
    assert p.returncode != 0
    assert f"MEM=sram is not a memory of {board}" in p.stderr and MEMS[board][0] in p.stderr


@pytest.mark.parametrize("what", ["jtag", "flash"])
@pytest.mark.parametrize("board", sorted(MEMS))
def test_program_runs_for_jtag_and_flash(tmp_path, board, what):
    p, recs = dryrun(tmp_path, "program", BOARDS, board, what, str(tmp_path / "x.bit"))
    assert p.returncode == 0, p.stderr
    hw = [r[1] for r in recs if r[0] == "hw"]
    assert "program_hw_devices" in hw and hw[-1] == "close_hw_manager"
    assert ("program_hw_cfgmem" in hw) == (what == "flash")


@pytest.mark.parametrize("mem_i", [0, 1])
@pytest.mark.parametrize("board", sorted(MEMS))
def test_ip_cores_created_are_the_ip_cores_the_top_instantiates(tmp_path, board, mem_i):
    mem = MEMS[board][mem_i]
    ips, _, _ = build(tmp_path, board, mem)
    rtl = nic_rtl()
    common = sorted(os.path.join("boards/common/rtl", f) for f in os.listdir(os.path.join(BOARDS, "common/rtl")))
    own = sorted(os.path.join(f"boards/{board}/rtl", f) for f in os.listdir(os.path.join(BOARDS, board, "rtl")))
    stat = tmp_path / "stat.txt"
    p = subprocess.run([sys.executable, "tests/boards/yosys_board.py", "--mem", mem, "--cells", str(stat),
                        "--hierarchy-only",
                        f"{board}_top", *rtl, *common, *own], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=300)
    assert p.returncode == 0, p.stdout
    stub_modules = set()
    for f in STUBS:
        stub_modules |= set(re.findall(r"^module\s+(\w+)", open(os.path.join(ROOT, f)).read(), re.M))
    used = {m for m in re.findall(r"^\s+(\w+)\s+\d+\s*$", stat.read_text(), re.M) if m in stub_modules}
    assert used == set(ips), f"{board} MEM={mem}: the top instantiates {sorted(used)}, the Tcl creates {sorted(ips)}"


def _w(ports, name):
    return ports.get(name, 0)


@pytest.mark.parametrize("board", sorted(MEMS))
def test_ip_configuration_widths_agree_with_the_stand_ins(tmp_path, board):
    ips, xdcs, _ = build(tmp_path, board, MEMS[board][0])
    checked = 0
    for module, (ip, cfg) in ips.items():
        ports = stub_ports(module)
        assert ports is not None, f"no stand-in for {module} in {STUBS}"
        if ip == "axi_clock_converter":
            for side in ("s_axi", "m_axi"):
                assert _w(ports, f"{side}_wdata") == int(cfg["CONFIG.DATA_WIDTH"])
                assert _w(ports, f"{side}_awaddr") == _w(ports, f"{side}_araddr") == int(cfg["CONFIG.ADDR_WIDTH"])
                assert _w(ports, f"{side}_awid") == _w(ports, f"{side}_rid") == int(cfg["CONFIG.ID_WIDTH"])
            assert cfg["CONFIG.ACLK_ASYNC"] == "1" and "m_axi_aclk" in ports
        elif ip == "axi_dwidth_converter":
            assert _w(ports, "s_axi_wdata") == int(cfg["CONFIG.SI_DATA_WIDTH"])
            assert _w(ports, "m_axi_wdata") == int(cfg["CONFIG.MI_DATA_WIDTH"])
            assert _w(ports, "s_axi_awaddr") == _w(ports, "m_axi_awaddr") == int(cfg["CONFIG.ADDR_WIDTH"])
            assert _w(ports, "s_axi_awid") == int(cfg["CONFIG.SI_ID_WIDTH"]) and "m_axi_awid" not in ports
        elif ip == "axi_protocol_converter":
            assert _w(ports, "s_axi_wdata") == _w(ports, "m_axi_wdata") == int(cfg["CONFIG.DATA_WIDTH"])
            assert _w(ports, "m_axi_awaddr") == int(cfg["CONFIG.ADDR_WIDTH"])
            assert _w(ports, "s_axi_awlen") == 8
            assert _w(ports, "m_axi_awlen") == (4 if cfg["CONFIG.MI_PROTOCOL"] == "AXI3" else 8)
            assert _w(ports, "s_axi_awid") == int(cfg["CONFIG.ID_WIDTH"])
        elif ip == "ddr4":
            assert _w(ports, "c0_ddr4_s_axi_wdata") == int(cfg["CONFIG.C0.DDR4_AxiDataWidth"])
            assert _w(ports, "c0_ddr4_s_axi_awaddr") == int(cfg["CONFIG.C0.DDR4_AxiAddressWidth"])
            assert _w(ports, "c0_ddr4_s_axi_awid") == int(cfg["CONFIG.C0.DDR4_AxiIDWidth"])
            dq = int(cfg["CONFIG.C0.DDR4_DataWidth"])
            assert _w(ports, "c0_ddr4_dq") == dq and _w(ports, "c0_ddr4_dqs_t") == dq // 8
            assert cfg["CONFIG.C0.DDR4_Ecc"] == "false" and "c0_ddr4_s_axi_ctrl_awaddr" not in ports
            # 64 data bits at 4:1 make the 512-bit AXI data; 2^address width bytes of memory
            assert int(cfg["CONFIG.C0.DDR4_AxiDataWidth"]) == dq * 8
        elif ip == "hbm":
            enabled = {k[-2:] for k, v in cfg.items() if k.startswith("CONFIG.USER_SAXI_") and v == "true"}
            present = {m for m in re.findall(r"AXI_(\d\d)_ACLK", " ".join(ports))}
            assert enabled == present, (enabled, present)
            assert len({k for k in cfg if k.startswith("CONFIG.USER_SAXI_")}) == 32
            for n in present:
                assert _w(ports, f"AXI_{n}_WDATA") == 256 and _w(ports, f"AXI_{n}_AWLEN") == 4
                assert _w(ports, f"AXI_{n}_AWADDR") == 34   # 16 GiB
            stacks = int(cfg["CONFIG.USER_HBM_STACK"])
            assert cfg["CONFIG.USER_HBM_DENSITY"] == "16GB" and stacks == 2
            assert all(f"apb_complete_{s}" in ports and f"DRAM_{s}_STAT_CATTRIP" in ports for s in range(stacks))
            clocks = {cfg[f"CONFIG.USER_CLK_SEL_LIST{s}"] for s in range(stacks)}
            assert clocks == {f"AXI_{n}_ACLK" for n in present}
        else:
            continue
        checked += 1
    assert checked == len(ips) - 1   # every memory IP core (the CMAC has its own lint)


@pytest.mark.parametrize("board", sorted(MEMS))
def test_every_top_port_bit_has_one_pin_and_the_xdc_names_no_other_port(tmp_path, board):
    _, xdcs, _ = build(tmp_path, board, MEMS[board][0])
    p, recs = dryrun(tmp_path, "xdc", *xdcs)
    assert p.returncode == 0, p.stderr
    ports = top_ports(board)
    bits = {f"{n}[{i}]" if w > 1 else n for n, w in ports.items() for i in range(w)}
    pins = {}
    for _, port, prop, value in (r for r in recs if r[0] == "port"):
        if prop not in ("LOC", "PACKAGE_PIN"):
            continue
        assert port in bits, f"{board}: the XDC places '{port}', which is no port of {board}_top"
        assert port not in pins, f"{board}: '{port}' placed twice"
        pins[port] = value
    missing = sorted(bits - set(pins))
    assert not missing, f"{board}: ports without a pin: {missing[:12]}"
    used = {}
    for port, pin in pins.items():
        assert pin not in used, f"{board}: pin {pin} for both {used[pin]} and {port}"
        used[pin] = port
    # the memory's pins are among them (not vacuous)
    assert any(p.startswith({"vcu118": "ddr4_c1_dq[63]", "u55c": "clk_100mhz_1_p"}[board]) for p in pins)
