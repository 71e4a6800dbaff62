// Unit tests of the switch model (sim/fabric): learning, forwarding and flooding,
// egress pacing against the 100 GbE arithmetic, tail drop at the buffer's edge,
// RED marking (none below Kmin, all above Kmax, the fraction between against the
// formula), the IPv4 checksum after marking, PFC thresholds and the NIC's hold.
// Each check prints what it expected and what it got.
#include "switch.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>

#include "check.h"
#include <vector>


using fabric::Frame;

static void mac(uint8_t *m, int host) {
    const uint8_t b[6] = {0x02, 0x00, 0x00, 0x00, 0x00, uint8_t(host)};
    std::memcpy(m, b, 6);
}

// An IPv4/UDP frame of `len` bytes from host s to host d, TOS low bits `ecn`, id in the payload.
static Frame ip_frame(int s, int d, size_t len, uint8_t ecn, uint32_t id) {
    Frame f(len, 0);
    mac(&f[0], d);
    mac(&f[6], s);
    if (d == 0xff) std::memset(&f[0], 0xff, 6);
    f[12] = 0x08, f[13] = 0x00;
    uint8_t *ip = &f[14];
    ip[0] = 0x45, ip[1] = uint8_t(0x68 | ecn); // a DSCP with the ECN bits beside it
    uint16_t tot = uint16_t(len - 14);
    ip[2] = uint8_t(tot >> 8), ip[3] = uint8_t(tot);
    ip[8] = 64, ip[9] = 17;
    ip[12] = 10, ip[15] = uint8_t(s + 1), ip[16] = 10, ip[19] = uint8_t(d + 1);
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
        sum += uint32_t(ip[i] << 8 | ip[i + 1]);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    ip[10] = uint8_t(~sum >> 8), ip[11] = uint8_t(~sum);
    std::memcpy(&f[42], &id, 4);
    return f;
}
static uint32_t id_of(const Frame &f) {
    uint32_t id;
    std::memcpy(&id, &f[42], 4);
    return id;
}
static bool ip_checksum_ok(const Frame &f) {
    uint32_t sum = 0;
    for (int i = 0; i < 20; i += 2)
        sum += uint32_t(f[14 + i] << 8 | f[15 + i]);
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return sum == 0xffff;
}

// Run the switch until every link and queue is empty (bounded); frames per port as they arrive at
// the NIC.
static std::vector<std::vector<std::pair<uint64_t, Frame>>> run(fabric::Switch &sw, uint64_t from,
                                                                uint64_t limit) {
    std::vector<std::vector<std::pair<uint64_t, Frame>>> out(size_t(sw.ports()));
    Frame f;
    for (uint64_t t = from; t < limit; t++) {
        sw.tick(t);
        bool idle = true;
        for (int k = 0; k < sw.ports(); k++) {
            while (sw.down(k).pop_arrived(t, f))
                out[size_t(k)].push_back({t, f});
            idle = idle && sw.up(k).idle() && sw.down(k).idle() && sw.queue_bytes(k) == 0;
        }
        if (idle) break;
    }
    return out;
}

static void test_learning_and_flooding() {
    wire::Config w;
    fabric::Switch sw(3, fabric::Config{}, w);
    sw.up(0).send(0, ip_frame(0, 1, 100, 0, 1)); // 1 unknown: flooded to 1 and 2
    auto o = run(sw, 0, 10000);
    CHECK(o[1].size() == 1 && o[2].size() == 1 && o[0].empty(),
          "unknown dst: expected a copy on ports 1 and 2, got %zu %zu %zu", o[0].size(),
          o[1].size(), o[2].size());
    sw.up(1).send(100, ip_frame(1, 0, 100, 0, 2)); // 0 was learned on port 0
    o = run(sw, 100, 10000);
    CHECK(o[0].size() == 1 && o[1].empty() && o[2].empty(),
          "learned dst: expected port 0 only, got %zu %zu %zu", o[0].size(), o[1].size(),
          o[2].size());
    sw.up(0).send(200, ip_frame(0, 1, 100, 0, 3)); // now 1 is known too
    o = run(sw, 200, 10000);
    CHECK(o[1].size() == 1 && o[2].empty(),
          "learned dst 1: expected port 1 only, got %zu on port 2", o[2].size());
    sw.up(2).send(300, ip_frame(2, 0xff, 100, 0, 4)); // broadcast
    o = run(sw, 300, 10000);
    CHECK(o[0].size() == 1 && o[1].size() == 1 && o[2].empty(),
          "broadcast: expected ports 0 and 1, got %zu %zu %zu", o[0].size(), o[1].size(),
          o[2].size());
    uint8_t m[6];
    mac(m, 2);
    CHECK(sw.lookup(m) == 2, "host 2 learned on port %d, expected 2", sw.lookup(m));
    CHECK(sw.flooded() == 2, "flooded %llu frames, expected 2", (unsigned long long)sw.flooded());
    CHECK(sw.stats(0).frames_in == 2 && sw.stats(1).frames_out == 3 && sw.stats(0).frames_out == 2,
          "counters: port0 in %llu out %llu, port1 out %llu (expected 2, 2, 3)",
          (unsigned long long)sw.stats(0).frames_in, (unsigned long long)sw.stats(0).frames_out,
          (unsigned long long)sw.stats(1).frames_out);
}

static void test_egress_pacing() {
    // Two NICs send N frames of L bytes each at line rate to a third: the egress runs
    // back to back at 100 Gb/s from the first frame's arrival: its j-th frame's last bit
    // reaches NIC 2 at 23 + (j+1) * (L+24)/50 cycles, rounded up (250 MHz: 50 B a cycle).
    wire::Config w;
    fabric::Switch sw(3, fabric::Config{}, w);
    const size_t L = 1098; // 1122 bytes on the wire: 22.44 cycles, not a whole number
    sw.up(2).send(0, ip_frame(2, 0xff, 60, 0, 0)); // let the switch learn host 2
    run(sw, 0, 1000);
    const int N = 200;
    for (int k = 0; k < N; k++) {
        sw.up(0).send(1000, ip_frame(0, 2, L, 0, uint32_t(k)));
        sw.up(1).send(1000, ip_frame(1, 2, L, 0, uint32_t(1000 + k)));
    }
    auto o = run(sw, 1000, 100000);
    CHECK(o[2].size() == 2 * N, "expected %d frames at NIC 2, got %zu", 2 * N, o[2].size());
    uint64_t first = 1000 + (L + 24 + 49) / 50; // the first frame's arrival at the switch
    for (size_t j = 0; j < o[2].size(); j++) {
        uint64_t exp = (first * 50 + (j + 1) * (L + 24) + 49) / 50;
        if (o[2][j].first != exp) {
            CHECK(false, "egress frame %zu at cycle %llu, expected %llu", j,
                  (unsigned long long)o[2][j].first, (unsigned long long)exp);
            break;
        }
    }
    std::printf("pacing: %d frames of %zu B in %llu cycles (expected %llu)\n", 2 * N, L,
                (unsigned long long)(o[2].back().first - first),
                (unsigned long long)((2 * N * (L + 24) + 49) / 50));
    CHECK(sw.stats(2).max_queue_bytes >= (N - 2) * L,
          "the queue should have held about N frames, max %llu",
          (unsigned long long)sw.stats(2).max_queue_bytes);
}

static void test_tail_drop(uint64_t buffer, uint64_t portcap) {
    // NIC 0 sends to NIC 1 at 100 Gb/s, port 1 egresses at 10 Gb/s: the shared buffer
    // (or the port's cap) fills; a frame is dropped exactly when it does not fit in what is left.
    fabric::Config c;
    c.buffer_bytes = buffer;
    c.port_cap_bytes = portcap;
    wire::Config w;
    std::vector<wire::Config> up(2, w), down(2, w);
    down[1].rate_bps = 10000000000ull;
    fabric::Switch sw(2, c, up, down);
    sw.up(1).send(0, ip_frame(1, 0xff, 60, 0, 0));
    run(sw, 0, 1000);
    std::mt19937 rng(7);
    const int N = 400;
    for (int k = 0; k < N; k++)
        sw.up(0).send(1000, ip_frame(0, 1, 64 + rng() % 1400, 0, uint32_t(k)));
    // the ingress tap sees each frame just before it is queued (at most one a cycle here)
    uint64_t used_at = 0, len_at = 0, q_at = 0, arrivals = 0;
    sw.on_frame = [&](int port, uint64_t, const Frame &f, bool) {
        if (port != 0) return;
        used_at = sw.buffer_used(), len_at = f.size(), q_at = sw.queue_bytes(1);
        arrivals++;
    };
    uint64_t wrong = 0, drops = 0, kept = 0;
    std::vector<uint32_t> got;
    Frame f;
    for (uint64_t t = 1000; t < 2000000; t++) {
        uint64_t d0 = sw.stats(1).drops, a0 = arrivals;
        sw.tick(t);
        if (arrivals != a0) {
            bool dropped = sw.stats(1).drops != d0, fits = used_at + len_at <= c.buffer_bytes &&
                                                           (!portcap || q_at + len_at <= portcap);
            if (dropped == fits) {
                if (!wrong++)
                    CHECK(false, "cycle %llu: %llu B used, a %llu B frame %s",
                          (unsigned long long)t, (unsigned long long)used_at,
                          (unsigned long long)len_at, dropped ? "dropped" : "kept");
            }
            drops += dropped, kept += !dropped;
        }
        CHECK(sw.buffer_used() <= c.buffer_bytes, "buffer over its size: %llu",
              (unsigned long long)sw.buffer_used());
        while (sw.down(1).pop_arrived(t, f))
            got.push_back(id_of(f));
        if (sw.up(0).idle() && sw.down(1).idle() && sw.queue_bytes(1) == 0) break;
    }
    CHECK(arrivals == N && drops > 0 && kept == got.size() && drops == sw.stats(1).drops,
          "arrivals %llu (expected %d), drops %llu (counter %llu), kept %llu, delivered %zu",
          (unsigned long long)arrivals, N, (unsigned long long)drops,
          (unsigned long long)sw.stats(1).drops, (unsigned long long)kept, got.size());
    bool in_order = true;
    for (size_t i = 1; i < got.size(); i++)
        in_order = in_order && got[i] > got[i - 1];
    CHECK(in_order, "the kept frames left out of order");
    uint64_t limit = portcap ? portcap : c.buffer_bytes;
    CHECK(sw.buffer_max() + 1500 > limit && sw.buffer_max() <= limit,
          "the buffer never filled to %llu: max %llu", (unsigned long long)limit,
          (unsigned long long)sw.buffer_max());
    std::printf("tail drop: %d frames into a %llu B buffer (port cap %llu): %llu dropped, %llu "
                "delivered, max used "
                "%llu B\n",
                N, (unsigned long long)c.buffer_bytes, (unsigned long long)portcap,
                (unsigned long long)drops, (unsigned long long)kept,
                (unsigned long long)sw.buffer_max());
}

static void test_tail_drop_edge() {
    // 10 frames of 1000 B at once into a 5000 B buffer, egress at 1 Gb/s: the first leaves at
    // once, the next five fill the buffer to exactly 5000 B (a frame that just fits is kept),
    // the last four are dropped.
    fabric::Config c;
    c.buffer_bytes = 5000;
    wire::Config w;
    std::vector<wire::Config> up(2, w), down(2, w);
    down[1].rate_bps = 1000000000ull;
    fabric::Switch sw(2, c, up, down);
    sw.up(1).send(0, ip_frame(1, 0xff, 60, 0, 0));
    run(sw, 0, 1000);
    for (uint32_t k = 0; k < 10; k++)
        sw.up(0).send(1000, ip_frame(0, 1, 1000, 0, k));
    auto o = run(sw, 1000, 1000000);
    CHECK(o[1].size() == 6 && sw.stats(1).drops == 4 && sw.buffer_max() == 5000,
          "expected 6 delivered, 4 dropped, 5000 B used at most; got %zu, %llu, %llu", o[1].size(),
          (unsigned long long)sw.stats(1).drops, (unsigned long long)sw.buffer_max());
    for (size_t i = 0; i < o[1].size(); i++)
        CHECK(id_of(o[1][i].second) == i, "frame %zu is id %u", i, id_of(o[1][i].second));
}

// One RED run: NIC 0 -> NIC 1 at 100 Gb/s into a 10 Gb/s egress; frame k is ECT(0), ECT(1)
// or not ECT by k % 3. Returns, per frame id, the egress depth at its enqueue; `out`: the
// frames as NIC 1 received them.
static std::map<uint32_t, uint64_t> red_run(const fabric::Config &c, int n,
                                            std::vector<Frame> &out) {
    wire::Config w;
    std::vector<wire::Config> up(2, w), down(2, w);
    down[1].rate_bps = 10000000000ull;
    fabric::Switch sw(2, c, up, down);
    sw.up(1).send(0, ip_frame(1, 0xff, 60, 0, 0));
    run(sw, 0, 1000);
    for (int k = 0; k < n; k++) {
        uint8_t ecn = uint8_t(k % 3 == 0 ? 2 : k % 3 == 1 ? 1 : 0);
        sw.up(0).send(1000, ip_frame(0, 1, 1000, ecn, uint32_t(k)));
    }
    std::map<uint32_t, uint64_t> depth;
    sw.on_frame = [&](int port, uint64_t, const Frame &f, bool) {
        if (port == 0) depth[id_of(f)] = sw.queue_bytes(1);
    };
    auto o = run(sw, 1000, 10000000);
    out.clear();
    for (auto &p : o[1])
        out.push_back(p.second);
    return depth;
}

static void test_red() {
    // Kmin 5 KB, Kmax 200 KB as the defaults; Pmax 0.2 so that the band gives enough marks to
    // measure. The marks between the thresholds over 20 seeds are a sum of independent
    // Bernoulli draws: within 4 standard deviations of sum(p).
    fabric::Config c;
    c.pmax = 0.2;
    const int N = 400; // the queue reaches ~360 KB: past Kmax
    double expect = 0, var = 0;
    uint64_t marked_band = 0, below = 0, below_marked = 0, above = 0, above_marked = 0, nonect = 0,
             nonect_marked = 0, bad_sum = 0, in_band = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        c.seed = seed;
        std::vector<Frame> out;
        auto depth = red_run(c, N, out);
        CHECK(out.size() == N, "seed %llu: %zu of %d frames delivered", (unsigned long long)seed,
              out.size(), N);
        for (const Frame &f : out) {
            uint32_t id = id_of(f);
            uint64_t q = depth[id];
            bool ce = (f[15] & 3) == 3;
            bad_sum += !ip_checksum_ok(f);
            CHECK((f[15] & 0xfc) == 0x68, "the DSCP changed: TOS %02x", f[15]);
            if (id % 3 == 2) {
                nonect++, nonect_marked += ce || (f[15] & 3) != 0;
                continue;
            }
            if (q <= c.kmin)
                below++, below_marked += ce;
            else if (q > c.kmax)
                above++, above_marked += ce;
            else {
                double p = fabric::red_probability(c, q);
                CHECK(std::fabs(p - c.pmax * double(q - c.kmin) / double(c.kmax - c.kmin)) < 1e-12,
                      "red p");
                in_band++, marked_band += ce, expect += p, var += p * (1 - p);
            }
        }
    }
    double bound = 4 * std::sqrt(var);
    std::printf("RED: below Kmin %llu frames, %llu marked; above Kmax %llu, %llu marked; between "
                "%llu frames, %llu "
                "marked, expected %.1f +- %.1f (4 sd); non-ECT %llu, %llu changed\n",
                (unsigned long long)below, (unsigned long long)below_marked,
                (unsigned long long)above, (unsigned long long)above_marked,
                (unsigned long long)in_band, (unsigned long long)marked_band, expect, bound,
                (unsigned long long)nonect, (unsigned long long)nonect_marked);
    CHECK(below > 0 && below_marked == 0, "below Kmin: %llu of %llu marked",
          (unsigned long long)below_marked, (unsigned long long)below);
    CHECK(above > 0 && above_marked == above, "above Kmax: %llu of %llu marked",
          (unsigned long long)above_marked, (unsigned long long)above);
    CHECK(in_band > 1000 && std::fabs(double(marked_band) - expect) <= bound,
          "between: %llu marked, expected %.1f +- %.1f", (unsigned long long)marked_band, expect,
          bound);
    CHECK(nonect > 0 && nonect_marked == 0, "non-ECT: %llu of %llu changed",
          (unsigned long long)nonect_marked, (unsigned long long)nonect);
    CHECK(bad_sum == 0, "%llu frames with a bad IPv4 header checksum", (unsigned long long)bad_sum);
    // the same seed gives the same marks
    std::vector<Frame> a, b;
    c.seed = 3;
    red_run(c, N, a);
    red_run(c, N, b);
    CHECK(a == b, "two runs with seed 3 differ");
    // with ecn=0 nothing is marked
    c.ecn = false;
    red_run(c, N, a);
    uint64_t m = 0;
    for (const Frame &f : a)
        m += (f[15] & 3) == 3;
    CHECK(m == 0, "ecn=0: %llu frames marked", (unsigned long long)m);
}

static void test_mark_ce() {
    for (uint8_t ecn = 0; ecn < 4; ecn++) {
        for (uint32_t id = 0; id < 50; id++) {
            Frame f = ip_frame(int(id % 7), int(id % 5), 60 + id * 29, ecn, id * 2654435761u),
                  g = f;
            bool m = fabric::mark_ce(g);
            CHECK(m == (ecn == 1 || ecn == 2), "ECN %u: mark_ce returned %d", ecn, m);
            CHECK((g[15] & 3) == (ecn == 0 ? 0 : 3), "ECN %u: TOS after %02x", ecn, g[15]);
            CHECK(ip_checksum_ok(g), "ECN %u id %u: bad checksum after marking", ecn, id);
            g[15] = f[15], g[24] = f[24], g[25] = f[25];
            CHECK(g == f, "ECN %u: bytes other than TOS and checksum changed", ecn);
        }
    }
    Frame arp(60, 0);
    arp[12] = 0x08, arp[13] = 0x06;
    CHECK(!fabric::mark_ce(arp), "an ARP frame was marked");
}

static void test_pfc() {
    // NIC 0 sends 1000 B frames to NIC 1 (10 Gb/s egress) while its MAC lets it: xoff is
    // sent in the cycle the frames from port 0 in the buffer first exceed Xoff, the NIC
    // holds its TX, xon in the cycle they fall to Xon or below.
    fabric::Config c;
    std::string err;
    CHECK(fabric::parse_pfc("xoff=40K,xon=20K", c, err) && c.xoff == 40960 && c.xon == 20480 &&
              c.pfc,
          "parse_pfc: %s", err.c_str());
    CHECK(fabric::check_config(c, err), "check_config: %s", err.c_str());
    wire::Config w;
    std::vector<wire::Config> up(2, w), down(2, w);
    down[1].rate_bps = 10000000000ull;
    fabric::Switch sw(2, c, up, down);
    fabric::MacPause mac0(w.rate_bps, w.clk_hz);
    sw.up(1).send(0, ip_frame(1, 0xff, 60, 0, 0));
    run(sw, 0, 1000);
    uint64_t sent = 0, bad = 0, xoff_at = 0, xon_at = 0, consumed = 0;
    uint64_t prev = 0;
    Frame f;
    for (uint64_t t = 1000; t < 400000; t++) {
        // the NIC: a frame whenever its MAC is not held and the link takes one
        if (sent < 600 && !mac0.holds(t) && sw.up(0).ready(t)) {
            sw.up(0).send(t, ip_frame(0, 1, 1000, 0, uint32_t(sent)));
            sent++;
        }
        uint64_t p0 = sw.stats(0).pauses_sent, r0 = sw.stats(0).resumes_sent;
        sw.tick(t);
        uint64_t now_in = sw.ingress_bytes(0);
        if (sw.stats(0).pauses_sent != p0) {
            if (!xoff_at) xoff_at = t;
            bad += !(now_in > c.xoff && prev <= c.xoff);
        }
        if (sw.stats(0).resumes_sent != r0) {
            if (!xon_at) xon_at = t;
            bad += !(now_in <= c.xon && prev > c.xon);
        }
        if (sw.ingress_paused(0) !=
            (xoff_at && (!xon_at || sw.stats(0).pauses_sent > sw.stats(0).resumes_sent)))
            bad++;
        prev = now_in;
        while (sw.down(0).pop_arrived(t, f)) {
            CHECK(mac0.consume(t, f), "a frame other than a pause reached NIC 0");
            consumed++;
        }
        while (sw.down(1).pop_arrived(t, f)) {
        }
        if (sent == 600 && sw.up(0).idle() && sw.down(1).idle() && sw.queue_bytes(1) == 0 &&
            sw.down(0).idle())
            break;
    }
    std::printf("PFC: xoff at cycle %llu, xon at %llu, pauses %llu, resumes %llu, NIC 0 consumed "
                "%llu pause frames\n",
                (unsigned long long)xoff_at, (unsigned long long)xon_at,
                (unsigned long long)sw.stats(0).pauses_sent,
                (unsigned long long)sw.stats(0).resumes_sent, (unsigned long long)consumed);
    CHECK(bad == 0, "%llu pause/resume events not at their thresholds", (unsigned long long)bad);
    CHECK(xoff_at && xon_at > xoff_at && sw.stats(0).pauses_sent >= 2 &&
              sw.stats(0).pauses_sent == sw.stats(0).resumes_sent,
          "pauses %llu, resumes %llu", (unsigned long long)sw.stats(0).pauses_sent,
          (unsigned long long)sw.stats(0).resumes_sent);
    CHECK(mac0.pauses() == sw.stats(0).pauses_sent && mac0.resumes() == sw.stats(0).resumes_sent,
          "NIC 0's MAC saw %llu pauses and %llu resumes", (unsigned long long)mac0.pauses(),
          (unsigned long long)mac0.resumes());
    CHECK(sw.stats(1).drops == 0 && sw.stats(1).frames_out == 600,
          "lossless: %llu drops, %llu delivered", (unsigned long long)sw.stats(1).drops,
          (unsigned long long)sw.stats(1).frames_out);
    // what a pause holds: 0xffff quanta of 512 bit times at 100 Gb/s, 250 MHz
    uint64_t pc = fabric::pause_cycles(0xffff, w.rate_bps, w.clk_hz);
    CHECK(pc == (65535ull * 512 * 250 + 99999) / 100000, "pause_cycles %llu",
          (unsigned long long)pc);
    fabric::MacPause m(w.rate_bps, w.clk_hz);
    const uint8_t src[6] = {2, 0, 0, 0, 0, 9};
    m.consume(100, fabric::make_pause(src, 10));
    CHECK(m.holds(100 + 12) && !m.holds(100 + 13), "10 quanta hold 12.8 -> 13 cycles");
    m.consume(105, fabric::make_pause(src, 0));
    CHECK(!m.holds(105), "a zero pause resumes at once");
}

static void test_options() {
    fabric::Config c;
    std::string err;
    CHECK(fabric::parse_config("buffer=1M,portcap=64K,kmin=10K,kmax=100K,pmax=0.05,ecn=1,seed=9", c,
                               err) &&
              c.buffer_bytes == 1048576 && c.port_cap_bytes == 65536 && c.kmin == 10240 &&
              c.kmax == 102400 && c.pmax == 0.05 && c.seed == 9,
          "parse_config: %s", err.c_str());
    CHECK(!fabric::parse_config("bufer=1", c, err) && err.find("unknown key") != std::string::npos,
          "typo: %s", err.c_str());
    CHECK(!fabric::parse_config("pmax=2", c, err), "pmax=2 accepted");
    CHECK(!fabric::parse_pfc("xoff=10", c, err), "xoff without xon accepted");
    c = fabric::Config{};
    c.kmin = 10, c.kmax = 5;
    CHECK(!fabric::check_config(c, err), "kmin > kmax accepted");
}

int main() {
    test_learning_and_flooding();
    test_egress_pacing();
    test_tail_drop_edge();
    test_tail_drop(50000, 0);
    test_tail_drop(200000, 30000);
    test_red();
    test_mark_ce();
    test_pfc();
    test_options();
    if (failures) {
        std::printf("%d check(s) failed\n", failures);
        return 1;
    }
    std::printf("all switch checks passed\n");
    return 0;
}
