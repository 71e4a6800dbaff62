// Test bench of net_tx (net_tx_build + net_tx_arbiter; Verilator top).
// RoCE packets go in as header fields + payload, management frames whole; the
// expected frames were built by Scapy (gen_vectors.py) with rxe's header
// choices, or are the reference captures' own frames. Checks:
//  - every output frame is, byte for byte (and tuser), the next expected frame
//    of one of the two sources, whole frames, nothing missing or extra;
//  - roce_len_err pulses exactly for the frames whose header length is wrong;
//  - line-rate blocks (sources always valid, output always ready): an output
//    beat every cycle from the first to the last, and with both sources busy
//    the frames alternate RoCE / mgmt (round robin).
// Seeded idle cycles on all three input channels and back-pressure on the
// output elsewhere. Plusargs: +vec=FILE +seed=N +idle=PCT +ready=PCT +maxcycles=N
#include <memory>

#include "Vnet_tx.h"
#include "tb_common.h"

struct RoceItem {
    Bytes hdr;  // tx_hdr_t, 28 bytes, most significant first
    Bytes payload, frame;
    bool len_err;
};
struct MgmtItem {
    Bytes frame;
    bool user;
};

struct Bench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vnet_tx> top;
    Rng rng;
    int idle_pct, ready_pct;
    uint64_t cyc = 0, max_cycles;
    bool block = false;
    int errors = 0;
    long frames_out = 0;

    std::vector<RoceItem> roce;
    std::vector<MgmtItem> mgmt;
    size_t hi = 0, pi = 0, pb = 0, mi = 0, mb = 0;  // next header, payload frame/beat, mgmt frame/beat
    bool hdr_on = false, pay_on = false, mgmt_on = false;
    std::deque<Bytes> exp_roce;
    std::deque<MgmtItem> exp_mgmt;
    Bytes cur;
    long exp_len_err = 0, got_len_err = 0;

    std::string blk_name;
    long blk_beats = 0, blk_frames = 0, blk_alt_err = 0;
    int64_t blk_first = -1, blk_last = -1;
    int last_src = -1;
    size_t blk_L = 0;

    Bench(int argc, char **argv, uint64_t seed, int idle, int ready, uint64_t maxc)
        : ctx(new VerilatedContext), rng(seed), idle_pct(idle), ready_pct(ready), max_cycles(maxc) {
        ctx->commandArgs(argc, argv);
        top.reset(new Vnet_tx(ctx.get()));
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
        printf("%s: %ld frames out, %ld length errors flagged, %lu cycles\n", errors ? "FAILED" : "PASSED",
               frames_out, got_len_err, (unsigned long)cyc);
        exit(errors ? 1 : 0);
    }

    void frame_done(const Bytes &f, bool user) {
        frames_out++;
        int src = -1;
        if (!exp_roce.empty() && exp_roce.front() == f && !user) {
            src = 0;
            exp_roce.pop_front();
        } else if (!exp_mgmt.empty() && exp_mgmt.front().frame == f && exp_mgmt.front().user == user) {
            src = 1;
            exp_mgmt.pop_front();
        } else {
            std::string m = "output frame (tuser " + std::to_string(user) + ") is neither source's next frame";
            if (!exp_roce.empty()) m += "\n  vs next RoCE frame: " + diff(exp_roce.front(), f);
            if (!exp_mgmt.empty()) m += "\n  vs next mgmt frame (tuser " + std::to_string(exp_mgmt.front().user) + "): " + diff(exp_mgmt.front().frame, f);
            if (exp_roce.empty() && exp_mgmt.empty()) m += ": none expected, got " + bytes_hex(f);
            fail(m);
        }
        if (block) {
            blk_frames++;
            // round robin: a source may follow itself only at the start (the
            // RoCE path is one cycle longer, so mgmt can be valid first) or
            // when the other source has nothing left
            bool other_left = src == 0 ? !exp_mgmt.empty() : !exp_roce.empty();
            if (blk_name.rfind("tx_both", 0) == 0 && blk_frames > 2 && src == last_src && other_left) blk_alt_err++;
        }
        last_src = src;
    }

    void tick() {
        // present new beats (a presented beat stays until taken)
        if (!hdr_on && hi < roce.size() && (block || !rng.pct(idle_pct))) hdr_on = true;
        if (!pay_on && pi < roce.size() && (block || !rng.pct(idle_pct))) pay_on = true;
        if (!mgmt_on && mi < mgmt.size() && (block || !rng.pct(idle_pct))) mgmt_on = true;
        top->s_roce_hdr_valid = hdr_on;
        if (hdr_on) {
            const Bytes &h = roce[hi].hdr;
            for (int w = 0; w < 7; w++) top->s_roce_hdr[w] = 0;
            for (int i = 0; i < 28; i++) {
                int lo = 216 - 8 * i;
                top->s_roce_hdr[lo / 32] |= (uint32_t)h[i] << (lo % 32);
            }
        }
        top->s_axis_roce_tvalid = pay_on;
        if (pay_on) {
            const Bytes &p = roce[pi].payload;
            put_beat(top->s_axis_roce_tdata, p, 64 * pb);
            top->s_axis_roce_tkeep = keep_n(p.size() - 64 * pb);
            top->s_axis_roce_tlast = 64 * (pb + 1) >= p.size();
        }
        top->s_axis_mgmt_tvalid = mgmt_on;
        if (mgmt_on) {
            const MgmtItem &m = mgmt[mi];
            put_beat(top->s_axis_mgmt_tdata, m.frame, 64 * mb);
            top->s_axis_mgmt_tkeep = keep_n(m.frame.size() - 64 * mb);
            bool last = 64 * (mb + 1) >= m.frame.size();
            top->s_axis_mgmt_tlast = last;
            top->s_axis_mgmt_tuser = last && m.user;
        }
        top->m_axis_tx_tready = block || rng.pct(ready_pct);
        top->clk = 0;
        top->eval();
        // handshakes of this cycle
        if (hdr_on && top->s_roce_hdr_ready) { hdr_on = false; hi++; }
        if (pay_on && top->s_axis_roce_tready) {
            pay_on = false;
            if (top->s_axis_roce_tlast) { pi++; pb = 0; } else pb++;
        }
        if (mgmt_on && top->s_axis_mgmt_tready) {
            mgmt_on = false;
            if (top->s_axis_mgmt_tlast) { mi++; mb = 0; } else mb++;
        }
        if (top->m_axis_tx_tvalid && top->m_axis_tx_tready) {
            get_beat(top->m_axis_tx_tdata, top->m_axis_tx_tkeep, cur);
            if (top->m_axis_tx_tuser && !top->m_axis_tx_tlast) fail("tuser set on a beat that is not tlast");
            if (block) {
                blk_beats++;
                if (blk_first < 0) blk_first = (int64_t)cyc;
                blk_last = (int64_t)cyc;
            }
            if (top->m_axis_tx_tlast) {
                frame_done(cur, top->m_axis_tx_tuser);
                cur.clear();
            }
        }
        got_len_err += top->roce_len_err;
        top->clk = 1;
        top->eval();
        cyc++;
        if (cyc >= max_cycles) {
            fail("cycle limit reached");
            finish();
        }
    }

    // Drive everything loaded, wait for all of it, then compare.
    void sync() {
        long budget = 100000;
        for (auto &r : roce) budget += 20 * (r.payload.size() / 64 + 2);
        for (auto &m : mgmt) budget += 20 * (m.frame.size() / 64 + 2);
        for (long i = 0; i < budget && (pi < roce.size() || mi < mgmt.size() || !exp_roce.empty() || !exp_mgmt.empty()); i++)
            tick();
        for (int i = 0; i < 8; i++) tick();
        if (!exp_roce.empty() || !exp_mgmt.empty())
            fail("sync: still waiting for " + std::to_string(exp_roce.size()) + " RoCE and " +
                 std::to_string(exp_mgmt.size()) + " mgmt frames");
        if (got_len_err != exp_len_err)
            fail("roce_len_err pulses: expected " + std::to_string(exp_len_err) + " got " + std::to_string(got_len_err));
        roce.clear();
        mgmt.clear();
        hi = pi = pb = mi = mb = 0;
        exp_roce.clear();
        exp_mgmt.clear();
    }

    void run(const std::string &path) {
        std::ifstream in(path);
        if (!in) { fail("cannot open " + path); finish(); }
        top->rst = 1;
        for (int i = 0; i < 5; i++) tick();
        top->rst = 0;
        std::string line;
        while (std::getline(in, line)) {
            auto t = split(line);
            if (t.empty()) continue;
            if (t[0] == "roce") {
                RoceItem r;
                std::string h = t[1] + t[2] + t[3] + t[4] + t[5] + t[6] + t[7] + t[8];
                r.hdr = hex_bytes(h);
                r.payload = hex_bytes(t[9]);
                r.frame = hex_bytes(t[10]);
                r.len_err = t[11] == "1";
                exp_len_err += r.len_err;
                exp_roce.push_back(r.frame);
                if (block && blk_L == 0) blk_L = r.frame.size();
                roce.push_back(r);
            } else if (t[0] == "mgmt") {
                MgmtItem m{hex_bytes(t[1]), t[2] == "1"};
                exp_mgmt.push_back(m);
                mgmt.push_back(m);
            } else if (t[0] == "sync") {
                sync();
            } else if (t[0] == "block") {
                sync();
                block = true;
                blk_name = t[1];
                blk_beats = blk_frames = blk_alt_err = 0;
                blk_first = blk_last = -1;
                blk_L = 0;
                last_src = -1;
            } else if (t[0] == "endblock") {
                sync();
                block = false;
                long cycles = blk_last - blk_first + 1;
                report_block(blk_name, blk_L, blk_frames, blk_beats, cycles);
                if (cycles != blk_beats)
                    fail("block " + blk_name + ": sources always valid but the output had " +
                         std::to_string(cycles - blk_beats) + " bubble cycle(s) (" + std::to_string(blk_beats) +
                         " beats over " + std::to_string(cycles) + " cycles)");
                if (blk_alt_err)
                    fail("block " + blk_name + ": both sources busy but " + std::to_string(blk_alt_err) +
                         " frame(s) followed one from the same source (round robin expected)");
            }
        }
        sync();
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
    printf("tb_net_tx: %s seed %lu idle %d%% ready %d%%\n", vec.c_str(), (unsigned long)seed, idle, ready);
    b.run(vec);
    b.finish();
}
