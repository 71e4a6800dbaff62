"""Memory subsystem (rtl/mem): DMA read/write engines, AXI arbiter, pattern engine,
against the C++ memory model (mem_axi_ram + mem_model.cpp). See tests/mem/tb_mem.cpp."""
ORDER = 30
BUILD = ["build/mem/Vtb_mem", "build/mem/Vtb_mem_small"]

TB = "build/mem/Vtb_mem"
TB_SMALL = "build/mem/Vtb_mem_small"   # minimum FIFO and buffer sizes


def cases():
    return [
        {"name": "lint_rtl_mem", "cmd": ["make", "--no-print-directory", "mem-lint"]},
        # random commands on 2 read + 2 write engines, every byte checked
        {"name": "rand_dma_backpressure", "cmd": [TB, "+test=rand", "+seed=1"]},
        {"name": "rand_dma_heavy_stall", "cmd": [TB, "+test=rand", "+seed=2", "+stall=400",
                                                 "+idle=400", "+lat=5", "+jitter=100", "+cmds=150"]},
        {"name": "rand_dma_no_stall", "cmd": [TB, "+test=rand", "+seed=3", "+stall=0", "+idle=0",
                                              "+lat=0", "+jitter=0"]},
        {"name": "rand_dma_small_buffers", "cmd": [TB_SMALL, "+test=rand", "+seed=8", "+cmds=150"]},
        {"name": "rand_dma_small_buffers_no_stall", "cmd": [TB_SMALL, "+test=rand", "+seed=9",
                                                            "+stall=0", "+idle=0", "+lat=3", "+jitter=0",
                                                            "+cmds=150"]},
        {"name": "dma_error_status_small_buffers", "cmd": [TB_SMALL, "+test=errors", "+seed=10"]},
        # 64-beat buffers cannot hide 30 cycles of latency: a lower rate is required
        {"name": "pattern_fill_check_small_buffers", "cmd": [TB_SMALL, "+test=pattern", "+seed=11",
                                                             "+min_rate_permille=600"]},
        {"name": "throughput_64k_reads_writes", "cmd": [TB, "+test=throughput", "+seed=4"]},
        {"name": "arbiter_fairness", "cmd": [TB, "+test=fairness", "+seed=5"]},
        {"name": "dma_error_status", "cmd": [TB, "+test=errors", "+seed=6"]},
        {"name": "pattern_fill_check", "cmd": [TB, "+test=pattern", "+seed=7"]},
        # a write client that takes no completions stalls nobody else (bready never waits for it)
        {"name": "wr_completions_held_others_proceed", "cmd": [TB, "+test=cpl_hold", "+seed=12"]},
        # a memory of 16/32/48 bytes per cycle gives exactly that to a streaming engine
        {"name": "bandwidth_limit_64k", "cmd": [TB, "+test=bandwidth", "+seed=15"]},
        # untouched memory costs nothing; a page written at 2^40, 2^63, 2^64-1 costs one each
        {"name": "sparse_64bit_pages", "cmd": [TB, "+test=sparse", "+seed=14"]},
        {"name": "wr_completions_held_small_buffers", "cmd": [TB_SMALL, "+test=cpl_hold", "+seed=13"]},
    ]
