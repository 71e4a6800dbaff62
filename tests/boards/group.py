"""boards: the board wrappers and their clock crossings (docs/boards.md).

- tb_cdc: the asynchronous FIFO (boards/common/rtl/board_async_fifo.sv), plain
  and whole-frame, on two clocks with random periods, gaps and back-pressure;
  every word numbered and checked.
- tb_board: the VCU118 board top with the CMAC stand-in (322.265625 MHz, its
  own clock) and the NIC at 250 MHz: boot over the UART pins, ARP and ICMP
  with a Scapy peer through the crossings (test_board.py); the QP exchange
  and RDMA WRITE, READ and SEND, every byte verified, against the plain
  simulated NIC on a UDP socket pair (test_board_pair.py).
- tb_memgate: board_nic with its memory outside (MEM_EXT = 1) and a nic_top
  stand-in made from nic_top's own header: the NIC held in reset until
  mem_ready, released within 8 cycles, reset again when it falls, its AXI
  traffic through the memory port to a RAM and back.
- lint and Yosys elaboration of the board RTL (Xilinx primitives, the CMAC
  and the memory IP cores as black boxes for Yosys), with each board's own
  memory (DDR4, HBM) and with MEM = "uram"; the MMI writer for updatemem, and
  the Vivado-less messages of 'make bitstream'.
- the flow's Tcl and XDC run in tclsh with Vivado's commands stubbed
  (test_flow_tcl.py): IP cores created = IP cores instantiated, per board and
  memory; their widths against the stand-ins; every top port bit on one pin.
`make boards-test` runs this group alone."""
import glob

ORDER = 90
TB_CDC = "build/boards/Vtb_cdc"
TB_BOARD = "build/boards/Vtb_board"
TB_MEMGATE = "build/boards/Vtb_memgate"
BUILD = [TB_CDC, TB_BOARD, TB_MEMGATE, "build/sim/solonic_sim", "build/fw/solonic.hex"]

COMMON = sorted(glob.glob("boards/common/rtl/*.sv"))


def nic_rtl():
    import subprocess
    out = subprocess.run(["make", "-s", "-f", "Makefile", "-f", "-", "boards-print-NIC_RTL"],
                         input="boards-print-%: ; @echo $($*)\n", stdout=subprocess.PIPE, text=True)
    return out.stdout.split()


def cases():
    c = [{"name": f"async_fifo_random_clocks_seed{s}", "cmd": [TB_CDC, f"+seed={s}"]} for s in range(1, 9)]
    c.append({"name": "board_nic_held_in_reset_until_memory_ready", "cmd": [TB_MEMGATE]})
    c.append({"name": "vcu118_board_boot_arp_ping_through_cmac_cdc", "pytest": "tests/boards/test_board.py",
               "timeout": 400})
    c.append({"name": "vcu118_board_exchange_write_read_send_with_a_nic",
              "cmd": ["/usr/bin/python3", "tests/boards/test_board_pair.py"], "timeout": 600})
    rtl = nic_rtl()
    for board in ("vcu118", "u55c"):
        top, files = f"{board}_top", COMMON + sorted(glob.glob(f"boards/{board}/rtl/*.sv"))
        c.append({"name": f"lint_{top}", "cmd": ["verilator", "--lint-only", "-Wall", "--top-module", top,
                                                  "tests/boards/sim_prims.sv", "tests/boards/cmac_usplus_0.sv",
                                                  "tests/boards/ip_stubs.sv", *rtl, *files]})
        if board != "vcu118":   # vcu118_top with MEM="uram" is built with -Wall for tb_board already
            c.append({"name": f"lint_{top}_mem_uram", "cmd": ["verilator", "--lint-only", "-Wall", "--top-module",
                                                               top, '-GMEM="uram"', "tests/boards/sim_prims.sv",
                                                               "tests/boards/cmac_usplus_0.sv", *rtl, *files]})
        c.append({"name": f"yosys_elaborates_{top}", "cmd": ["/usr/bin/python3", "tests/boards/yosys_board.py",
                                                              top, *rtl, *files], "timeout": 600})
    # the on-chip RAM path (board_nic's board_axi_ram) once: both boards share it; make
    # test-full only (about a minute of Yosys; make test lints the same top with Verilator)
    c.append({"name": "yosys_elaborates_vcu118_top_mem_uram", "full": True,
              "cmd": ["/usr/bin/python3", "tests/boards/yosys_board.py", "--mem", "uram", "vcu118_top", *rtl,
                      *COMMON, *sorted(glob.glob("boards/vcu118/rtl/*.sv"))], "timeout": 600})
    c += [
        {"name": "mmi_writer", "pytest": "tests/boards/test_mmi.py"},
        {"name": "bitstream_without_vivado_says_so", "pytest": "tests/boards/test_flow_msgs.py"},
        {"name": "flow_tcl_dry_run_ips_ports_pins", "pytest": "tests/boards/test_flow_tcl.py", "timeout": 600},
    ]
    return c
