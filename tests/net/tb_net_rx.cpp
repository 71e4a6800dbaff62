// Test bench of net_rx (Verilator top). Drives the frames of a vector file
// written by gen_vectors.py (Scapy frames, verdicts from netmodel.py) into the
// MAC side, with seeded idle cycles on the input and seeded back-pressure on
// both outputs and on the header channel, and checks:
//  - every good frame leaves on the expected output, byte for byte, in order;
//  - each RoCE frame's header on the sideband equals the frame's first 42 bytes;
//  - frames that leave with tuser = 1 (late drop marker) are counted, never
//    taken for good ones (any good frame missing or extra fails);
//  - at every `sync` line, every counter equals the model's count;
//  - in line-rate blocks (inputs back to back, outputs always ready) the
//    outputs carry a beat every cycle from the block's first to its last beat.
// Plusargs: +vec=FILE +seed=N +idle=PCT +ready=PCT +maxcycles=N
#include <memory>

#include "Vnet_rx.h"
#include "tb_common.h"

static const char *CNT_NAMES[10] = {"rx_roce",      "rx_mgmt",      "drop_bad_csum",   "drop_trunc",
                                    "drop_bad_hdr", "drop_malformed", "drop_mac_err", "drop_not_for_us",
                                    "drop_roce_full", "drop_mgmt_full"};

struct Bench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vnet_rx> top;
    Rng rng;
    int idle_pct, ready_pct;
    uint64_t cyc = 0, max_cycles;
    bool stall = false, block = false;
    int errors = 0;
    long frames_in = 0, good_out = 0, marked = 0;

    std::deque<Bytes> exp_roce, exp_mgmt;
    uint32_t exp_cnt[10] = {0};
    Bytes cur_roce, cur_mgmt;
    std::deque<std::pair<Bytes, bool>> roce_done;
    std::deque<Bytes> hdrs;
    int quiet = 0;

    // line-rate block statistics
    std::string blk_name;
    long blk_beats = 0, blk_frames = 0;
    int64_t blk_first = -1, blk_last = -1, blk_in_first = -1;
    size_t blk_L = 0;
    bool blk_uniform = true;

    Bench(int argc, char **argv, uint64_t seed, int idle, int ready, uint64_t maxc)
        : ctx(new VerilatedContext), rng(seed), idle_pct(idle), ready_pct(ready), max_cycles(maxc) {
        ctx->commandArgs(argc, argv);
        top.reset(new Vnet_rx(ctx.get()));
    }

    void fail(const std::string &m) {
        errors++;
        printf("FAIL (cycle %lu): %s\n", (unsigned long)cyc, m.c_str());
        if (errors >= 5) {
            printf("too many failures, stopping\n");
            finish();
        }
    }

    [[noreturn]] void finish() {
        top->final();
        printf("%s: %ld frames in, %ld good frames out, %ld marked bad, %lu cycles\n", errors ? "FAILED" : "PASSED",
               frames_in, good_out, marked, (unsigned long)cyc);
        exit(errors ? 1 : 0);
    }

    void check_roce() {
        while (!roce_done.empty() && !hdrs.empty()) {
            auto fr = roce_done.front();
            Bytes h = hdrs.front();
            roce_done.pop_front();
            hdrs.pop_front();
            if (fr.second) { marked++; continue; }
            if (exp_roce.empty()) { fail("RoCE output: a frame came that no one expected: " + bytes_hex(fr.first)); continue; }
            std::string d = diff(exp_roce.front(), fr.first);
            if (!d.empty()) fail("RoCE output frame differs: " + d);
            Bytes h42(fr.first.begin(), fr.first.begin() + std::min<size_t>(42, fr.first.size()));
            std::string dh = diff(h42, h);
            if (!dh.empty()) fail("RoCE header sideband is not the frame's first 42 bytes: " + dh);
            exp_roce.pop_front();
            good_out++;
        }
    }

    void tick(bool v, const Bytes *f = nullptr, size_t off = 0, uint64_t keep = 0, bool last = false, bool user = false) {
        if (block && v && blk_in_first < 0) blk_in_first = (int64_t)cyc;
        top->s_axis_rx_tvalid = v;
        if (v) put_beat(top->s_axis_rx_tdata, *f, off);
        top->s_axis_rx_tkeep = v ? keep : 0;
        top->s_axis_rx_tlast = v && last;
        top->s_axis_rx_tuser = v && user;
        top->m_axis_roce_tready = !stall && (block || rng.pct(ready_pct));
        top->m_axis_mgmt_tready = !stall && (block || rng.pct(ready_pct));
        top->m_roce_hdr_ready = !stall && (block || rng.pct(ready_pct));
        top->clk = 0;
        top->eval();
        bool any = false;
        if (top->m_axis_roce_tvalid && top->m_axis_roce_tready) {
            any = true;
            get_beat(top->m_axis_roce_tdata, top->m_axis_roce_tkeep, cur_roce);
            if (top->m_axis_roce_tuser && !top->m_axis_roce_tlast) fail("RoCE output: tuser set on a beat that is not tlast");
            if (top->m_axis_roce_tlast) {
                roce_done.push_back({cur_roce, (bool)top->m_axis_roce_tuser});
                cur_roce.clear();
                if (block) blk_frames++;
            }
        }
        if (top->m_axis_mgmt_tvalid && top->m_axis_mgmt_tready) {
            any = true;
            get_beat(top->m_axis_mgmt_tdata, top->m_axis_mgmt_tkeep, cur_mgmt);
            if (top->m_axis_mgmt_tuser && !top->m_axis_mgmt_tlast) fail("mgmt output: tuser set on a beat that is not tlast");
            if (top->m_axis_mgmt_tlast) {
                if (top->m_axis_mgmt_tuser) marked++;
                else if (exp_mgmt.empty()) fail("mgmt output: a frame came that no one expected: " + bytes_hex(cur_mgmt));
                else {
                    std::string d = diff(exp_mgmt.front(), cur_mgmt);
                    if (!d.empty()) fail("mgmt output frame differs: " + d);
                    exp_mgmt.pop_front();
                    good_out++;
                }
                cur_mgmt.clear();
                if (block) blk_frames++;
            }
        }
        if (top->m_roce_hdr_valid && top->m_roce_hdr_ready) {
            Bytes h;
            for (int i = 0; i < 42; i++) {
                int lo = 328 - 8 * i;
                h.push_back((uint8_t)(top->m_roce_hdr[lo / 32] >> (lo % 32)));
            }
            hdrs.push_back(h);
        }
        if (block && any) {
            if (top->m_axis_roce_tvalid && top->m_axis_roce_tready && top->m_axis_mgmt_tvalid && top->m_axis_mgmt_tready)
                blk_beats++;  // both outputs at once: count both
            blk_beats++;
            if (blk_first < 0) blk_first = (int64_t)cyc;
            blk_last = (int64_t)cyc;
        }
        quiet = (any || top->m_axis_roce_tvalid || top->m_axis_mgmt_tvalid || v) ? 0 : quiet + 1;
        check_roce();
        top->clk = 1;
        top->eval();
        cyc++;
        if (cyc >= max_cycles) {
            fail("cycle limit reached");
            finish();
        }
    }

    void drive(const Bytes &f, int kov_beat, uint64_t kov, bool mac_err) {
        size_t nb = (f.size() + 63) / 64;
        for (size_t i = 0; i < nb; i++) {
            if (!block)
                while (rng.pct(idle_pct)) tick(false);
            uint64_t keep = keep_n(f.size() - 64 * i);
            if ((int)i == kov_beat) keep = kov;
            bool last = i == nb - 1;
            tick(true, &f, 64 * i, keep, last, last && mac_err);
        }
        frames_in++;
    }

    bool drained() {
        return exp_roce.empty() && exp_mgmt.empty() && roce_done.empty() && cur_roce.empty() && cur_mgmt.empty() && quiet > 16;
    }

    void sync() {
        for (int i = 0; i < 50000 && !drained(); i++) tick(false);
        if (!drained()) {
            fail("sync: still waiting for " + std::to_string(exp_roce.size()) + " RoCE and " +
                 std::to_string(exp_mgmt.size()) + " mgmt frames");
            while (!exp_roce.empty()) { fail("  missing RoCE frame " + bytes_hex(exp_roce.front())); exp_roce.pop_front(); }
            while (!exp_mgmt.empty()) { fail("  missing mgmt frame " + bytes_hex(exp_mgmt.front())); exp_mgmt.pop_front(); }
        }
        uint32_t got[10] = {top->cnt_rx_roce,        top->cnt_rx_mgmt,      top->cnt_drop_bad_csum,
                            top->cnt_drop_trunc,     top->cnt_drop_bad_hdr, top->cnt_drop_malformed,
                            top->cnt_drop_mac_err,   top->cnt_drop_not_for_us, top->cnt_drop_roce_full,
                            top->cnt_drop_mgmt_full};
        for (int i = 0; i < 10; i++)
            if (got[i] != exp_cnt[i])
                fail(std::string("counter ") + CNT_NAMES[i] + ": expected " + std::to_string(exp_cnt[i]) + " got " +
                     std::to_string(got[i]));
    }

    void run(const std::string &path) {
        std::ifstream in(path);
        if (!in) { fail("cannot open " + path); finish(); }
        top->rst = 1;
        for (int i = 0; i < 5; i++) tick(false);
        top->rst = 0;
        for (int i = 0; i < 5; i++) tick(false);
        std::string line;
        while (std::getline(in, line)) {
            auto t = split(line);
            if (t.empty()) continue;
            if (t[0] == "cfg") {
                top->our_mac = std::stoull(t[1], nullptr, 16);
                top->our_ip = (uint32_t)std::stoul(t[2], nullptr, 16);
            } else if (t[0] == "frame") {
                Bytes f = hex_bytes(t[1]);
                int kb = -1;
                uint64_t kov = 0;
                if (t[2] != "-") {
                    size_t c = t[2].find(':');
                    kb = std::stoi(t[2].substr(0, c));
                    kov = std::stoull(t[2].substr(c + 1), nullptr, 16);
                }
                int ci = -1;
                for (int i = 0; i < 10; i++) if (t[4] == CNT_NAMES[i]) ci = i;
                if (ci < 0) { fail("bad verdict in vector file: " + t[4]); finish(); }
                exp_cnt[ci]++;
                if (ci == 0) exp_roce.push_back(hex_bytes(t[5]));
                if (ci == 1) exp_mgmt.push_back(hex_bytes(t[5]));
                if (block) {
                    if (blk_L == 0) blk_L = f.size();
                    else if (blk_L != f.size()) blk_uniform = false;
                }
                drive(f, kb, kov, t[3] == "1");
            } else if (t[0] == "stall") {
                // frames already driven reach the queues (5 cycles) before
                // the consumers resume, so the model's space count holds
                if (t[1] == "0")
                    for (int i = 0; i < 10; i++) tick(false);
                stall = t[1] == "1";
            } else if (t[0] == "sync") {
                sync();
            } else if (t[0] == "block") {
                sync();
                block = true;
                blk_name = t[1];
                blk_beats = blk_frames = 0;
                blk_first = blk_last = blk_in_first = -1;
                blk_L = 0;
                blk_uniform = true;
            } else if (t[0] == "endblock") {
                for (int i = 0; i < 50000 && !drained(); i++) tick(false);
                block = false;
                long cycles = blk_last - blk_first + 1;
                report_block(blk_name, blk_uniform ? blk_L : 0, blk_frames, blk_beats, cycles);
                // documented latency (rtl/net/README.md): a beat leaves 5 cycles after it entered
                if (blk_first - blk_in_first != 5)
                    fail("block " + blk_name + ": latency expected 5 cycles, got " +
                         std::to_string(blk_first - blk_in_first));
                if (cycles != blk_beats)
                    fail("block " + blk_name + ": inputs back to back but the outputs had " +
                         std::to_string(cycles - blk_beats) + " bubble cycle(s) (" + std::to_string(blk_beats) +
                         " beats over " + std::to_string(cycles) + " cycles)");
            }
        }
        sync();
        if (!hdrs.empty()) fail(std::to_string(hdrs.size()) + " RoCE headers without a frame");
    }
};

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    std::string vec = plusarg("vec", "");
    uint64_t seed = std::stoull(plusarg("seed", "1"));
    int idle = std::stoi(plusarg("idle", "30"));
    int ready = std::stoi(plusarg("ready", "80"));
    uint64_t maxc = std::stoull(plusarg("maxcycles", "20000000"));
    Bench b(argc, argv, seed, idle, ready, maxc);
    printf("tb_net_rx: %s seed %lu idle %d%% ready %d%%\n", vec.c_str(), (unsigned long)seed, idle, ready);
    b.run(vec);
    b.finish();
}
