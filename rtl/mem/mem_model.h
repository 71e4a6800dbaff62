// mem_model: the C++ side of mem_axi_ram, a sparse byte memory per instance
// id (the INST parameter of mem_axi_ram) plus the AXI4 slave behaviour.
//
// Link rtl/mem/mem_model.cpp into any Verilator model that contains
// mem_axi_ram. A harness uses this API on the same bytes the RTL sees: preload
// memory, compare results, configure timing and error ranges. Untouched
// memory reads as zero and costs nothing; pages are allocated on first write.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

struct mem_model_cfg {
    unsigned rd_latency = 20;    // cycles from AR to the first R beat (at least)
    unsigned wr_latency = 20;    // cycles from wlast to B (at least)
    unsigned latency_jitter = 0; // each burst waits 0..jitter cycles more (random)
    unsigned stall_permille =
        0;             // chance per cycle that each ready/valid the model drives is withheld
    uint64_t seed = 1; // seed of the stall generator
    unsigned max_outstanding = 64; // bursts accepted per direction before arready/awready drop
    // Bandwidth shared by reads and writes, bytes per cycle: each R beat
    // presented and each W beat taken costs 64 bytes of a budget that grows by
    // bw_bytes a cycle (up to 128, both channels' width); when both want a beat
    // and only one fits, they take turns. 0 = no limit (64 B per channel and cycle).
    unsigned bw_bytes = 0;
};

struct mem_model_stats {
    uint64_t ar_bursts, aw_bursts; // handshakes
    uint64_t r_beats, w_beats;     // data handshakes
    uint64_t b_resps;
    uint64_t err_beats;  // beats answered SLVERR/DECERR
    uint64_t violations; // protocol errors of the master
    uint64_t cycles;     // clock edges seen out of reset
};

// Timing and back-pressure; takes precedence over the mem_axi_ram parameters
// whenever it is called (before or after the model starts).
void mem_model_configure(int inst, const mem_model_cfg &cfg);
mem_model_cfg mem_model_get_config(int inst);
// A harness's option string (mem_model_parse_config's keys) applied on top of the
// mem_axi_ram instance's own parameters when it starts: only the keys it names change.
// Check it with mem_model_parse_config first.
void mem_model_set_overrides(int inst, const std::string &spec);
// A harness's option string "key=value,..." over cfg: rd (rd_latency, cycles), wr
// (wr_latency), jitter, stall (permille), outstanding, bw (bytes per cycle), seed.
// false with err set on an unknown key or a bad value.
bool mem_model_parse_config(const std::string &spec, mem_model_cfg &cfg, std::string &err);

// Direct access to the store (no timing, no error ranges).
void mem_model_write(int inst, uint64_t addr, const void *data, size_t len);
void mem_model_read(int inst, uint64_t addr, void *data, size_t len);
// Forget every byte of an instance (reads as zero again).
void mem_model_clear(int inst);
// Pages of 4 KiB allocated so far.
size_t mem_model_pages(int inst);

// Bytes in [lo, hi) answer with resp (2 = SLVERR, 3 = DECERR): a read beat
// touching the range gets that rresp (and data 0xDE..), a write beat touching
// it stores nothing there and its burst's bresp becomes resp.
void mem_model_add_error_range(int inst, uint64_t lo, uint64_t hi, unsigned resp);
void mem_model_clear_error_ranges(int inst);

mem_model_stats mem_model_get_stats(int inst);
