// Unit tests of the wire model (sim/wire): timing against the 100 GbE arithmetic,
// fault injection statistics and determinism, option parsing. Each check prints
// what it expected and what it got.
#include "eth_wire.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "check.h"


using wire::Frame;

static Frame make(size_t len, uint32_t id) {
    Frame f(len, 0);
    for (size_t i = 0; i < len; i++) f[i] = (uint8_t)(i * 7 + id);
    std::memcpy(f.data(), &id, 4);
    return f;
}
static uint32_t id_of(const Frame &f) { uint32_t id; std::memcpy(&id, f.data(), 4); return id; }

// Drain a link cycle by cycle; returns (cycle, frame) pairs.
static std::vector<std::pair<uint64_t, Frame>> drain(wire::Link &l, uint64_t from, uint64_t limit) {
    std::vector<std::pair<uint64_t, Frame>> out;
    Frame f;
    for (uint64_t t = from; t < limit && !(l.idle()); t++)
        while (l.pop_arrived(t, f)) out.push_back({t, f});
    return out;
}

static void test_line_rate_arrival_times() {
    // 100 GbE at 250 MHz: a frame of L bytes takes (L+24)/50 cycles.
    wire::Config c;
    wire::Link l(c);
    const size_t L = 1098;
    for (uint32_t k = 0; k < 1000; k++) l.send(0, make(L, k));
    auto got = drain(l, 0, 100000);
    CHECK(got.size() == 1000, "expected 1000 frames, got %zu", got.size());
    for (size_t k = 0; k < got.size(); k++) {
        // last bit of frame k at (k+1)*(L+24)/50 cycles, rounded up
        uint64_t num = (uint64_t)(k + 1) * (L + 24), exp = (num + 49) / 50;
        if (got[k].first != exp || id_of(got[k].second) != k) {
            CHECK(false, "frame %zu: expected id %zu at cycle %llu, got id %u at %llu", k, k,
                  (unsigned long long)exp, id_of(got[k].second), (unsigned long long)got[k].first);
            break;
        }
    }
}

static void test_delay_and_idle_gap() {
    wire::Config c;
    c.delay_cycles = 500;
    wire::Link l(c);
    l.send(1000, make(76, 1));  // 100 bytes on the wire = 2 cycles
    auto got = drain(l, 0, 5000);
    CHECK(got.size() == 1 && got[0].first == 1000 + 2 + 500, "expected arrival at 1502, got %llu",
          got.empty() ? 0ull : (unsigned long long)got[0].first);
    // after an idle period the serializer does not owe time: next frame is timed from its send
    l.send(3000, make(76, 2));
    got = drain(l, 0, 10000);
    CHECK(got.size() == 1 && got[0].first == 3502, "expected 3502, got %llu",
          got.empty() ? 0ull : (unsigned long long)got[0].first);
}

static void test_tx_fifo_backpressure() {
    wire::Config c;  // 16 KiB FIFO = 16408/50 cycles of backlog before ready() drops
    wire::Link l(c);
    uint64_t t = 0;
    int sent = 0;
    while (l.ready(t) && sent < 100) { l.send(t, make(4096, sent)); sent++; }
    // the MAC takes frames while the serializer backlog is within the FIFO's wire time
    double fifo = 16384 * 8.0 * 250e6 / 100e9;  // 327.68 cycles
    int expect = 0;
    double backlog = 0;
    while (std::ceil(backlog) <= (uint64_t)fifo && expect < 100) { backlog += (4096 + 24) / 50.0; expect++; }
    CHECK(sent == expect, "expected the MAC to take %d frames at once, took %d", expect, sent);
}

static std::map<std::string, uint64_t> fault_run(uint64_t seed, double p, int n, std::vector<uint32_t> *order) {
    wire::Config c;
    c.seed = seed;
    c.faults.drop = p; c.faults.duplicate = p; c.faults.reorder = p; c.faults.corrupt = p;
    c.faults.skip_bytes = 14;
    wire::Link l(c);
    std::map<uint32_t, Frame> sent;
    for (int k = 0; k < n; k++) {
        Frame f = make(200, k);
        sent[k] = f;
        l.send((uint64_t)k * 10, f);
    }
    auto got = drain(l, 0, (uint64_t)n * 10 + 100000);
    uint64_t corrupted_seen = 0, bad = 0;
    for (auto &g : got) {
        uint32_t id = id_of(g.second);  // corruption spares the first 14 bytes, so the id survives
        if (order) order->push_back(id);
        auto &s = sent[id];
        int bits = 0;
        for (size_t i = 0; i < s.size(); i++) bits += __builtin_popcount((unsigned)(s[i] ^ g.second[i]));
        if (bits == 1) corrupted_seen++;
        else if (bits != 0) bad++;
    }
    auto st = l.stats();
    return {{"got", got.size()}, {"dropped", st.dropped}, {"dup", st.duplicated}, {"reord", st.reordered},
            {"corr", st.corrupted}, {"corr_seen", corrupted_seen}, {"bad", bad}};
}

static void test_faults_statistics_and_determinism() {
    const int n = 100000;
    const double p = 0.05;
    std::vector<uint32_t> o1, o2, o3;
    auto a = fault_run(7, p, n, &o1);
    auto b = fault_run(7, p, n, &o2);
    auto c = fault_run(8, p, n, &o3);
    CHECK(o1 == o2, "the same seed must give the same arrivals");
    CHECK(o1 != o3, "another seed must give other arrivals");
    double sigma = std::sqrt(n * p * (1 - p));
    for (const char *k : {"dropped", "dup", "reord", "corr"}) {
        // reorder/dup/corrupt apply to frames not dropped: about n*(1-p)*p
        double exp = std::string(k) == "dropped" ? n * p : n * (1 - p) * p;
        CHECK(std::fabs((double)a[k] - exp) < 5 * sigma, "%s: expected about %.0f, got %llu", k, exp,
              (unsigned long long)a[k]);
    }
    CHECK(a["got"] == (uint64_t)n - a["dropped"] + a["dup"], "frames out: expected %llu, got %llu",
          (unsigned long long)(n - a["dropped"] + a["dup"]), (unsigned long long)a["got"]);
    CHECK(a["bad"] == 0, "a frame arrived with more than one flipped bit (%llu)", (unsigned long long)a["bad"]);
    CHECK(a["corr_seen"] >= a["corr"], "corrupted frames seen %llu < injected %llu",
          (unsigned long long)a["corr_seen"], (unsigned long long)a["corr"]);
    // reordering: some frame arrives after a higher id
    int inversions = 0;
    for (size_t i = 1; i < o1.size(); i++) inversions += o1[i] < o1[i - 1];
    CHECK(inversions > 0, "reorder=%.2f produced no out-of-order arrival", p);
    (void)b; (void)c;
}

// Frames sent 10 cycles apart (closer than their wire time: back to back), only reorder on.
static std::vector<uint32_t> reorder_run(uint64_t seed, double p, uint32_t depth, int n) {
    wire::Config c;
    c.seed = seed;
    c.faults.reorder = p;
    c.faults.reorder_depth = depth;
    wire::Link l(c);
    for (int k = 0; k < n; k++) l.send((uint64_t)k * 10, make(200, k));
    std::vector<uint32_t> ids;
    for (auto &g : drain(l, 0, (uint64_t)n * 10 + 1000000)) ids.push_back(id_of(g.second));
    return ids;
}

// How many frames of a higher id arrived before each frame: the largest such count.
static size_t max_passed(const std::vector<uint32_t> &ids) {
    size_t worst = 0;
    for (size_t i = 0; i < ids.size(); i++) {
        size_t n = 0;
        for (size_t j = i >= 64 ? i - 64 : 0; j < i; j++) n += ids[j] > ids[i];
        worst = std::max(worst, n);
    }
    return worst;
}

static void test_reorder_depth() {
    const int n = 20000;
    auto d1 = reorder_run(3, 0.05, 1, n);
    auto d8 = reorder_run(3, 0.05, 8, n);
    auto d8b = reorder_run(3, 0.05, 8, n);
    for (auto *v : {&d1, &d8}) {
        std::vector<uint32_t> sorted = *v;
        std::sort(sorted.begin(), sorted.end());
        bool all = sorted.size() == (size_t)n;
        for (size_t i = 0; all && i < sorted.size(); i++) all = sorted[i] == i;
        CHECK(all, "reorder alone must deliver every frame once (%zu of %d)", sorted.size(), n);
    }
    CHECK(d8 == d8b, "the same seed must give the same order");
    // depth 1: a held frame goes behind the next one only (the model before depth= existed)
    CHECK(max_passed(d1) == 1, "depth=1: a frame passed by %zu later frames, expected 1", max_passed(d1));
    // depth 8: held behind 1..8 later frames; with several held at once a frame may also be
    // passed by held frames released before it, rarely more than the depth again
    size_t m8 = max_passed(d8);
    CHECK(m8 >= 6 && m8 <= 16, "depth=8: the deepest reorder passed %zu frames, expected 6..16", m8);
}

static void test_jitter_and_port() {
    // jitter: frames far apart (no queueing), each arrives 0..J cycles late, spread over most of J
    wire::Config c;
    c.seed = 5;
    c.faults.jitter_cycles = 1000;
    wire::Link l(c);
    const int n = 2000;
    for (int k = 0; k < n; k++) l.send((uint64_t)k * 100000, make(100, k));
    auto got = drain(l, 0, (uint64_t)n * 100000 + 10000);
    CHECK(got.size() == (size_t)n, "jitter: %zu of %d frames", got.size(), n);
    uint64_t lo = ~0ull, hi = 0;
    for (auto &g : got) {
        uint64_t base = (uint64_t)id_of(g.second) * 100000 + (uint64_t)l.wire_cycles(100);
        uint64_t late = g.first - base;
        lo = std::min(lo, late), hi = std::max(hi, late);
    }
    CHECK(hi <= 1001 && hi >= 900 && lo <= 100, "jitter=1000: lateness %llu..%llu, expected 0..1001 spread",
          (unsigned long long)lo, (unsigned long long)hi);
    CHECK(l.stats().jittered > (uint64_t)n * 9 / 10, "jittered %llu of %d", (unsigned long long)l.stats().jittered, n);
    // port=4791: only IPv4 UDP frames to that port suffer the faults (drop=1: every one lost)
    wire::Config pc;
    std::string err;
    CHECK(wire::parse_config("drop=1,port=4791", pc, err), "%s", err.c_str());
    wire::Link pl(pc);
    auto udp = [](uint16_t dport, uint8_t proto, uint32_t id) {
        Frame f = make(100, id);
        f[12] = 0x08, f[13] = 0x00, f[14] = 0x45, f[14 + 9] = proto;
        f[14 + 20 + 2] = (uint8_t)(dport >> 8), f[14 + 20 + 3] = (uint8_t)dport;
        return f;
    };
    for (uint32_t k = 0; k < 30; k++)
        pl.send(k * 1000, k % 3 == 0 ? udp(4791, 17, k) : k % 3 == 1 ? udp(4791, 6, k) : udp(4792, 17, k));
    auto pg = drain(pl, 0, 100000);
    bool only_others = pg.size() == 20;
    for (auto &g : pg) only_others = only_others && id_of(g.second) % 3 != 0;
    CHECK(only_others, "port=4791 drop=1: expected the 20 frames not UDP to 4791, got %zu", pg.size());
}

static void test_jitter_inorder() {
    // frames back to back (1 KB: about 21 cycles apart at 100G) with jitter=400: without
    // inorder most are overtaken; with inorder=1 they arrive in the order sent, each still
    // 0..400 cycles (plus the queue of earlier late frames) after its undisturbed arrival
    const int n = 3000;
    for (int inorder = 0; inorder < 2; inorder++) {
        wire::Config c;
        std::string err;
        CHECK(wire::parse_config(inorder ? "jitter=400,inorder=1,seed=3" : "jitter=400,seed=3", c, err), "%s",
              err.c_str());
        wire::Link l(c);
        for (int k = 0; k < n; k++) l.send(0, make(1000, k));
        auto got = drain(l, 0, 1000000);
        CHECK(got.size() == (size_t)n, "inorder=%d: %zu of %d frames", inorder, got.size(), n);
        size_t overtaken = 0, late_max = 0;
        for (size_t i = 0; i < got.size(); i++) {
            if (i > 0 && id_of(got[i].second) < id_of(got[i - 1].second)) overtaken++;
            uint64_t base = (uint64_t)((id_of(got[i].second) + 1) * l.wire_cycles(1000));
            late_max = std::max(late_max, (size_t)(got[i].first > base ? got[i].first - base : 0));
        }
        if (inorder) {
            CHECK(overtaken == 0, "inorder=1: %zu frames arrived before an earlier one", overtaken);
            CHECK(late_max >= 350 && late_max <= 402, "inorder=1: latest %zu cycles, expected about 400", late_max);
        } else {
            CHECK(overtaken > (size_t)n / 4, "jitter=400 without inorder: only %zu of %d frames reordered", overtaken, n);
        }
    }
    wire::Config c;
    std::string err;
    CHECK(!wire::parse_config("inorder=2", c, err) && err.find("0 or 1") != std::string::npos, "inorder=2: %s",
          err.c_str());
}

static void test_parse_config() {
    wire::Config c;
    std::string err;
    CHECK(wire::parse_config("drop=0.01,dup=0.002,reorder=0.01,corrupt=0.001,delay=250,seed=9,rate=100e9", c, err),
          "valid spec refused: %s", err.c_str());
    CHECK(c.faults.drop == 0.01 && c.delay_cycles == 250 && c.seed == 9 && c.rate_bps == 100000000000ull,
          "values not taken");
    CHECK(!wire::parse_config("drop=2", c, err) && err.find("probability") != std::string::npos, "drop=2: %s", err.c_str());
    CHECK(!wire::parse_config("wobble=1", c, err) && err.find("unknown wire option") != std::string::npos, "%s", err.c_str());
    CHECK(wire::parse_config("reorder=0.1,depth=32,jitter=200,port=4791", c, err) && c.faults.reorder_depth == 32 &&
              c.faults.jitter_cycles == 200 && c.faults.udp_port == 4791 && c.faults.drop == 0.01,
          "depth/jitter/port not taken, or earlier keys lost: %s", err.c_str());
    CHECK(!wire::parse_config("depth=0", c, err) && err.find("reorder depth") != std::string::npos, "%s", err.c_str());
    CHECK(!wire::parse_config("port=70000", c, err) && err.find("UDP port") != std::string::npos, "%s", err.c_str());
    CHECK(!wire::parse_config("delay=abc", c, err) && err.find("not a non-negative number") != std::string::npos, "%s", err.c_str());
    CHECK(!wire::parse_config("drop", c, err) && err.find("needs a value") != std::string::npos, "%s", err.c_str());
}

static void test_pcap(const char *path) {
    wire::PcapWriter w;
    std::string err;
    CHECK(w.open(path, 250000000, err), "pcap open: %s", err.c_str());
    w.write(0, make(60, 1));
    w.write(250, make(1098, 2));  // 1 us later
}

int main(int argc, char **argv) {
    test_line_rate_arrival_times();
    test_delay_and_idle_gap();
    test_tx_fifo_backpressure();
    test_faults_statistics_and_determinism();
    test_reorder_depth();
    test_jitter_and_port();
    test_jitter_inorder();
    test_parse_config();
    if (argc > 1) test_pcap(argv[1]);
    std::printf("%s (%d failures)\n", failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
