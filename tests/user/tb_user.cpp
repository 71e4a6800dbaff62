// tests/user: the rtl/user examples against this bench, which plays the
// transport (docs/user-logic.md). Each +test= is one case (tests/user/group.py).
//
//   source:  the source's work requests (fields, addresses round the region,
//            wr_ids) with random back-pressure and completion delays, one
//            error completion, payload requests per 4 KiB chunk with random
//            repeats (retransmissions) and random data back-pressure: every
//            byte against mem_pattern_ref.h (mode 0) or the counter (mode 1)
//   stop:    count 0 runs until stop; it drains: done, posted == completed
//   rate:    cfg_rate paces the posts: the interval within 1 % of len*256/rate
//   sink:    chunks of good data, a bad byte, a bad byte outside keep, a gap,
//            an unaligned chunk, counter mode: every counter exact
#include "Vtb_user_top.h"
#include "verilated.h"
#include "mem_pattern_ref.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

static Vtb_user_top *top;
static uint64_t now;
static int fails;

#define CHECK(cond, ...) do { if (!(cond)) { fails++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static void tick() {
    top->clk = 0; top->eval();
    top->clk = 1; top->eval();
    now++;
}

static void reset() {
    top->rst = 1;
    for (int i = 0; i < 4; i++) tick();
    top->rst = 0;
}

// the source's / sink's data word for the 8-byte word at byte address a (8-aligned)
static uint64_t data_word(int mode, uint64_t seed, uint64_t a) {
    return mode ? seed + (a >> 6) : mem_pattern_word(seed, a >> 3);
}

static void set_wide(VlWide<16> &w, const uint8_t *b) {
    for (int i = 0; i < 16; i++) w[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
                                        (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
}
static uint64_t wide_word(const VlWide<16> &w, int i) { return (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32; }

// ------------------------------------------------------------------ source
struct Wr { uint64_t addr; uint64_t due; unsigned chunks_left; bool err; };
struct Req { uint64_t addr; uint32_t len; unsigned wr; };

static int run_source(int mode, uint32_t count, bool stop_test, uint16_t rate, std::vector<uint64_t> *post_times) {
    std::mt19937_64 rng(mode * 7 + count + rate);
    const uint64_t base = 0x123400000040ull;     // 64-aligned
    const uint32_t len = rate ? 4096 : 9 * 1024 + 64, region = rate ? 1 << 20 : 5 * len + 100, mtu = 4096;
    const uint64_t seed = 0xfeedface12345678ull;
    const unsigned err_wr = 7;
    top->cfg_qpn = 0x23; top->cfg_lkey = 0x111; top->cfg_rkey = 0x222; top->cfg_addr = base;
    top->cfg_region = region; top->cfg_len = len; top->cfg_count = count; top->cfg_rate = rate;
    top->cfg_mode = mode; top->cfg_seed = seed;
    top->m_wr_ready = 0; top->s_cpl_valid = 0; top->s_utx_req_valid = 0; top->m_utx_ready = 0;
    tick();
    top->start = 1; tick(); top->start = 0;
    std::vector<Wr> wrs;
    std::deque<Req> reqs, inflight;   // requests to present / answered in order
    std::deque<unsigned> cpl_order;   // completions in order of the WRs
    uint64_t off = 0, beats_checked = 0, repeats = 0, bad = 0;
    unsigned beat_in_req = 0, cpl_taken = 0;
    bool stopped = false, cpl_presented = false;
    uint64_t limit = now + 2000000;
    while (now < limit) {
        bool rand_rdy = rate ? true : (rng() % 10) < 7;
        unsigned outstanding = wrs.size() - cpl_taken;
        top->m_wr_ready = rand_rdy && outstanding < 16;
        top->m_utx_ready = rate ? 1 : (rng() % 10) < 8;
        top->eval();
        // sample outputs before the edge
        bool wr_fire = top->m_wr_valid && top->m_wr_ready;
        if (wr_fire) {
            unsigned i = wrs.size();
            CHECK(top->m_wr_opcode == 0 && top->m_wr_qpn == 0x23 && top->m_wr_lkey == 0x111 &&
                  top->m_wr_rkey == 0x222 && top->m_wr_len == len && top->m_wr_signaled == 1,
                  "WR %u fields", i);
            CHECK(top->m_wr_wr_id == i, "WR %u: wr_id %llu", i, (unsigned long long)top->m_wr_wr_id);
            CHECK(top->m_wr_laddr == base + off && top->m_wr_raddr == base + off,
                  "WR %u: addr %llx, expected %llx", i, (unsigned long long)top->m_wr_laddr,
                  (unsigned long long)(base + off));
            uint64_t a = base + off;
            off += len;
            if (off + len > region) off = 0;
            unsigned nch = (len + mtu - 1) / mtu;
            wrs.push_back({a, now + 50 + rng() % 250, 0, i == err_wr});
            cpl_order.push_back(i);
            if (post_times) post_times->push_back(now);
            for (unsigned c = 0; c < nch; c++) {
                uint32_t l = std::min<uint32_t>(mtu, len - c * mtu);
                reqs.push_back({a + c * mtu, l, i});
                wrs[i].chunks_left++;
                // a retransmission asks again (before the completion, as a transport does)
                if (rng() % 10 == 0) { reqs.push_back({a + c * mtu, l, i}); wrs[i].chunks_left++; repeats++; }
            }
        }
        bool req_fire = top->s_utx_req_valid && top->s_utx_req_ready;
        if (req_fire) { inflight.push_back(reqs.front()); reqs.pop_front(); }
        bool data_fire = top->m_utx_valid && top->m_utx_ready;
        if (data_fire) {
            if (inflight.empty()) { CHECK(false, "data beat with no request"); break; }
            Req &r = inflight.front();
            unsigned nbeats = (r.len + 63) / 64;
            uint64_t a = r.addr + 64ull * beat_in_req;
            for (int w = 0; w < 8; w++) {
                uint64_t got = wide_word(top->m_utx_data, w), exp = data_word(mode, seed, a + 8 * w);
                if (64ull * beat_in_req + 8 * w < r.len && got != exp) {
                    if (bad++ < 5) CHECK(false, "data at %llx: %016llx, expected %016llx",
                                         (unsigned long long)(a + 8 * w), (unsigned long long)got,
                                         (unsigned long long)exp);
                }
            }
            bool last = beat_in_req + 1 == nbeats;
            CHECK(top->m_utx_last == last, "last flag at beat %u of %u", beat_in_req, nbeats);
            beats_checked++;
            if (last) {
                wrs[r.wr].chunks_left--;
                inflight.pop_front();
                beat_in_req = 0;
            } else beat_in_req++;
        }
        bool cpl_fire = cpl_presented && top->s_cpl_ready;
        if (cpl_fire) { cpl_order.pop_front(); cpl_taken++; }
        bool is_done = top->done && !top->busy;
        tick();
        // drive inputs for the next cycle
        cpl_presented = false;
        top->s_cpl_valid = 0;
        if (!cpl_order.empty()) {
            Wr &w = wrs[cpl_order.front()];
            if (w.chunks_left == 0 && now >= w.due) {
                top->s_cpl_valid = 1;
                top->s_cpl_status = w.err ? 12 : 0;
                cpl_presented = true;
            }
        }
        if (!req_fire && top->s_utx_req_valid) {
            // hold
        } else if (!reqs.empty() && (rate || rng() % 4)) {
            top->s_utx_req_valid = 1; top->s_utx_req_addr = reqs.front().addr; top->s_utx_req_len = reqs.front().len;
        } else top->s_utx_req_valid = 0;
        if (stop_test && !stopped && wrs.size() >= 12) { top->stop = 1; stopped = true; }
        else top->stop = 0;
        if (is_done) break;
    }
    CHECK(now < limit, "source not done within the cycle limit");
    unsigned n = wrs.size();
    if (!stop_test) CHECK(n == count, "posted %u, expected %u", n, count);
    else CHECK(n >= 12 && n <= 14, "stop after 12 posts: %u posted", n);
    CHECK(top->posted == n && top->completed == n, "posted %u completed %u, bench saw %u", top->posted,
          top->completed, n);
    CHECK(cpl_taken == n && reqs.empty() && inflight.empty(), "everything answered");
    unsigned exp_err = n > err_wr ? 1 : 0;
    CHECK(top->errors == exp_err && top->first_err_valid == exp_err, "errors %u", top->errors);
    if (exp_err) CHECK(top->first_err_status == 12, "first error status %u", top->first_err_status);
    CHECK(top->unaligned == 0, "unaligned %u", top->unaligned);
    CHECK(bad == 0, "%llu bad words", (unsigned long long)bad);
    printf("source mode %d: %u WRs, %llu beats checked (%llu repeated requests), %u cycles, done at %llu\n",
           mode, n, (unsigned long long)beats_checked, (unsigned long long)repeats, top->cycles,
           (unsigned long long)now);
    return 0;
}

static void test_rate() {
    std::vector<uint64_t> t;
    const uint16_t rate = 12800;   // 50 bytes a cycle: 100 Gb/s at 250 MHz
    run_source(0, 40, false, rate, &t);
    double ideal = 4096.0 * 256 / rate, got = double(t.back() - t.front()) / (t.size() - 1);
    printf("rate %u/256 B/cycle, 4096 B messages: %.2f cycles between posts (ideal %.2f)\n", rate, got, ideal);
    CHECK(got > ideal * 0.99 && got < ideal * 1.01, "interval %.2f, ideal %.2f", got, ideal);
}

// -------------------------------------------------------------------- sink
static void sink_beat(bool valid, const uint8_t *data, uint64_t keep, bool last, uint64_t addr, uint32_t len,
                      bool first, bool msg_last) {
    top->s_urx_valid = valid;
    set_wide(top->s_urx_data, data);
    top->s_urx_keep = keep;
    top->s_urx_last = last; top->s_urx_addr = addr; top->s_urx_len = len;
    top->s_urx_first = first; top->s_urx_msg_last = msg_last;
    CHECK(top->s_urx_ready == 1, "sink not ready");
    tick();
    top->s_urx_valid = 0;
}

// one chunk; corrupt: byte offset to flip (or -1); idle cycles between beats
static void sink_chunk(int mode, uint64_t seed, uint64_t addr, uint32_t len, bool first, bool msg_last,
                       long corrupt, int idle) {
    unsigned nb = (len + 63) / 64;
    for (unsigned b = 0; b < nb; b++) {
        uint8_t d[64];
        for (int w = 0; w < 8; w++) {
            uint64_t v = data_word(mode, seed, (addr & ~63ull) + 64 * b + 8 * w);
            memcpy(d + 8 * w, &v, 8);
        }
        for (int i = 0; i < 64; i++)
            if (corrupt == (long)(64 * b + i)) d[i] ^= 0x40;
        unsigned kept = std::min<uint32_t>(64, len - 64 * b);
        uint64_t keep = kept == 64 ? ~0ull : ((1ull << kept) - 1);
        sink_beat(true, d, keep, b + 1 == nb, addr, len, first, msg_last);
        for (int i = 0; i < idle; i++) tick();
    }
}

static void settle() { for (int i = 0; i < 8; i++) tick(); }

static void test_sink() {
    const uint64_t seed = 0x0123456789abcdefull, a = 0x4000000000ull;
    top->k_mode = 0; top->k_seed = seed; top->k_clear = 1; tick(); top->k_clear = 0;
    uint64_t t0 = now;
    sink_chunk(0, seed, a, 4096, true, false, -1, 0);
    sink_chunk(0, seed, a + 4096, 4096, false, false, -1, 1);
    sink_chunk(0, seed, a + 8192, 100, false, true, -1, 0);
    uint64_t t1 = now - 1;
    settle();
    CHECK(top->k_chunks == 3 && top->k_messages == 1 && top->k_bytes == 8292, "good message: %u chunks %u msgs %llu bytes",
          top->k_chunks, top->k_messages, (unsigned long long)top->k_bytes);
    CHECK(top->k_bad_beats == 0 && top->k_gaps == 0 && top->k_unaligned == 0 && !top->k_first_bad_valid,
          "good message: bad %u gaps %u unaligned %u", top->k_bad_beats, top->k_gaps, top->k_unaligned);
    CHECK(top->k_cycles == t1 - t0, "cycles %u, expected %llu", top->k_cycles, (unsigned long long)(t1 - t0));
    // a bad byte in beat 2 of a chunk; a bad byte past the chunk's end (not kept)
    sink_chunk(0, seed, a + 0x10000, 300, true, true, 130, 0);
    sink_chunk(0, seed, a + 0x20000, 100, true, true, 120, 0);
    settle();
    CHECK(top->k_bad_beats == 1 && top->k_first_bad_valid && top->k_first_bad_addr == a + 0x10000 + 128,
          "bad byte: %u bad beats, first at %llx", top->k_bad_beats, (unsigned long long)top->k_first_bad_addr);
    // a gap inside a message; an unaligned chunk (not compared)
    sink_chunk(0, seed, a + 0x30000, 4096, true, false, -1, 0);
    sink_chunk(0, seed, a + 0x30000 + 8192, 64, false, true, -1, 0);
    sink_chunk(0, seed + 1, a + 0x40008, 256, true, true, -1, 0);
    settle();
    CHECK(top->k_gaps == 1 && top->k_unaligned == 1 && top->k_bad_beats == 1, "gap %u unaligned %u bad %u",
          top->k_gaps, top->k_unaligned, top->k_bad_beats);
    CHECK(top->k_chunks == 8 && top->k_messages == 5, "chunks %u messages %u", top->k_chunks, top->k_messages);
    // counter mode, after clear
    top->k_mode = 1; top->k_clear = 1; tick(); top->k_clear = 0;
    sink_chunk(1, seed, a, 4096, true, false, -1, 2);
    sink_chunk(1, seed, a + 4096, 4096, false, true, -1, 0);
    sink_chunk(1, seed, a + 0x100000, 64, true, true, 8, 0);
    settle();
    CHECK(top->k_chunks == 3 && top->k_messages == 2 && top->k_bad_beats == 1 &&
          top->k_first_bad_addr == a + 0x100000 && top->k_gaps == 0, "counter mode: chunks %u bad %u",
          top->k_chunks, top->k_bad_beats);
    printf("sink: counters checked\n");
}

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    top = new Vtb_user_top;
    const char *t = Verilated::commandArgsPlusMatch("test=");
    std::string test = t && *t ? std::string(t).substr(6) : "";
    reset();
    if (test == "source") run_source(0, 23, false, 0, nullptr);
    else if (test == "source_counter") run_source(1, 23, false, 0, nullptr);
    else if (test == "stop") run_source(0, 0, true, 0, nullptr);
    else if (test == "rate") test_rate();
    else if (test == "sink") test_sink();
    else { fprintf(stderr, "unknown +test=%s\n", test.c_str()); return 2; }
    top->final();
    delete top;
    printf("%s: %s\n", test.c_str(), fails ? "FAILED" : "passed");
    return fails ? 1 : 0;
}
