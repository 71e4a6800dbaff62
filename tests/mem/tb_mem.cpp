// tb_mem: bench of the memory subsystem (tb_mem_top: mem_dma_rd x2,
// mem_dma_wr x2, mem_pattern, mem_axi_arb, mem_axi_ram).
//
// Every read byte is compared with a C++ copy of what the memory holds, every
// written range is compared after the run with a shadow the bench updated
// itself, statuses are checked against the error ranges the bench declared,
// and the pattern engine's memory contents against mem_pattern_ref.h.
// Streams get random idle cycles and back-pressure, the memory random latency
// and stalls. Every run has a cycle limit. A failure prints expected vs got
// and the process exits 1.
//
//   +test=rand|throughput|fairness|errors|pattern|cpl_hold|bandwidth|sparse
//   +seed=N  +stall=PERMILLE (memory)  +idle=PERMILLE (streams)
//   +lat=CYCLES  +jitter=CYCLES  +cmds=N (per engine, rand/errors)
//   +min_rate_permille=N (pattern: required fill/check rate, default 950)
#include "Vtb_mem_top.h"
#include "verilated.h"

#include "mem_model.h"
#include "mem_pattern_ref.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int NRE = 2, NWE = 2;
constexpr unsigned CMDW = 104, CPLW = 10;
constexpr int INST = 0;

int g_fail = 0;
int g_argc;
char **g_argv;
#define FAIL(...)                                                                                  \
    do {                                                                                           \
        if (g_fail < 20) std::printf("FAIL: " __VA_ARGS__);                                        \
        g_fail++;                                                                                  \
    } while (0)

// ------------------------------------------------------------------ random
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x1234567) {}
    uint64_t next() { // splitmix64
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint64_t below(uint64_t n) { return n ? next() % n : 0; }
    bool chance(unsigned permille) { return below(1000) < permille; }
};

// ------------------------------------------------------------------ bit access
template <std::size_t N> void put_bits(VlWide<N> &w, unsigned lo, unsigned n, uint64_t v) {
    for (unsigned i = 0; i < n; i++) {
        unsigned b = lo + i;
        if ((v >> i) & 1)
            w[b / 32] |= 1u << (b % 32);
        else
            w[b / 32] &= ~(1u << (b % 32));
    }
}
template <std::size_t N> uint64_t get_bits(const VlWide<N> &w, unsigned lo, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned b = lo + i;
        v |= uint64_t((w[b / 32] >> (b % 32)) & 1) << i;
    }
    return v;
}
template <typename T> void put_bits(T &w, unsigned lo, unsigned n, uint64_t v) {
    uint64_t m = (n >= 64 ? ~0ull : ((1ull << n) - 1)) << lo;
    w = T((uint64_t(w) & ~m) | ((v << lo) & m));
}
template <typename T> uint64_t get_bits(const T &w, unsigned lo, unsigned n) {
    return (uint64_t(w) >> lo) & (n >= 64 ? ~0ull : ((1ull << n) - 1));
}
template <std::size_t N>
void put_bytes(VlWide<N> &w, unsigned byte_lo, const uint8_t *src, unsigned n) {
    std::memcpy(reinterpret_cast<uint8_t *>(&w[0]) + byte_lo, src, n);
}
template <std::size_t N> const uint8_t *bytes_of(const VlWide<N> &w, unsigned byte_lo) {
    return reinterpret_cast<const uint8_t *>(&w[0]) + byte_lo;
}

// ------------------------------------------------------------------ memory view
struct Region {
    uint64_t base, size;
    std::vector<uint8_t> shadow; // what the memory must hold
};

struct ErrRange {
    uint64_t lo, hi;
    unsigned resp;
};

std::vector<Region> g_regions;
std::vector<ErrRange> g_errs;

Region *region_of(uint64_t addr, uint64_t len) {
    for (auto &r : g_regions)
        if (addr >= r.base && addr + len <= r.base + r.size) return &r;
    return nullptr;
}

// Expected status of a command: the worst response of the 64-byte beats it
// touches (the model answers per beat).
unsigned expected_status(uint64_t addr, uint64_t len) {
    if (len == 0) return 0;
    uint64_t lo = addr & ~63ull, hi = (addr + len + 63) & ~63ull;
    unsigned st = 0;
    for (auto &e : g_errs)
        if (lo < e.hi && e.lo < hi) st = std::max(st, e.resp);
    return st;
}

bool in_err(uint64_t a) {
    for (auto &e : g_errs)
        if (a >= e.lo && a < e.hi) return true;
    return false;
}

struct Cmd {
    uint64_t addr;
    uint32_t len;
    uint8_t tag;
    unsigned status;           // expected
    std::vector<uint8_t> data; // writes: the payload
    uint64_t t_issue = 0, t_done = 0;
};

// ------------------------------------------------------------------ engines
struct ReadAgent {
    int idx;
    unsigned idle = 0, stall = 0; // permille: cmd valid withheld, tready low
    std::deque<Cmd> pending, inflight;
    std::function<bool(Cmd &)> gen; // optional: makes more commands on demand
    bool presenting = false;
    uint64_t off = 0; // bytes of inflight.front() already seen
    uint64_t beats = 0, bytes = 0, cmds_done = 0, first_fire = ~0ull, last_beat = 0;
    unsigned errs_seen = 0;
    std::vector<unsigned> statuses;
};

struct WriteAgent {
    int idx;
    unsigned idle = 0, stall = 0;
    bool hold_cpl = false;      // completions not taken at all (cpl_ready 0)
    std::deque<Cmd *> pending;  // command not yet sent
    std::deque<Cmd *> payload;  // payload not yet fully sent (points into owned)
    std::deque<Cmd *> awaiting; // completion not yet seen
    std::deque<std::unique_ptr<Cmd>> owned;
    std::function<bool(Cmd &)> gen;
    bool presenting = false, pl_presenting = false;
    uint64_t pl_off = 0;
    uint64_t beats = 0, bytes = 0, cmds_done = 0, first_fire = ~0ull, last_cpl = 0;
    std::vector<unsigned> statuses;
};

struct Bench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vtb_mem_top> m;
    Rng rng;
    uint64_t cycle = 0;
    ReadAgent rd[NRE];
    WriteAgent wr[NWE];

    explicit Bench(uint64_t seed) : ctx(new VerilatedContext), rng(seed) {
        ctx->commandArgs(g_argc, g_argv);
        m.reset(new Vtb_mem_top(ctx.get()));
        for (int i = 0; i < NRE; i++)
            rd[i].idx = i;
        for (int i = 0; i < NWE; i++)
            wr[i].idx = i;
        m->rst = 1;
        m->clk = 0;
        m->pat_start = 0;
        m->rd_cmd_valid = 0;
        m->wr_cmd_valid = 0;
        m->wr_tvalid = 0;
        m->rd_tready = 0;
        m->wr_cpl_ready = 0;
        for (int i = 0; i < 4; i++)
            edge();
        m->rst = 0;
    }
    ~Bench() { m->final(); }

    void edge() {
        m->clk = 0;
        m->eval();
        m->clk = 1;
        m->eval();
        ctx->timeInc(1);
        cycle++;
    }

    // ---- one clock cycle: drive, sample handshakes, clock
    void step() {
        // read engines
        for (auto &a : rd) {
            if (a.pending.empty() && a.gen) {
                Cmd c;
                if (a.gen(c)) a.pending.push_back(std::move(c));
            }
            if (!a.presenting && !a.pending.empty()) a.presenting = !rng.chance(a.idle);
            put_bits(m->rd_cmd_valid, a.idx, 1, a.presenting);
            if (a.presenting) {
                const Cmd &c = a.pending.front();
                unsigned b = a.idx * CMDW;
                put_bits(m->rd_cmd, b, 8, c.tag);
                put_bits(m->rd_cmd, b + 8, 32, c.len);
                put_bits(m->rd_cmd, b + 40, 64, c.addr);
            }
            put_bits(m->rd_tready, a.idx, 1, !rng.chance(a.stall));
        }
        // write engines
        for (auto &a : wr) {
            if (a.pending.empty() && a.gen) {
                Cmd c;
                if (a.gen(c)) queue_write(a, std::move(c));
            }
            if (!a.presenting && !a.pending.empty()) a.presenting = !rng.chance(a.idle);
            put_bits(m->wr_cmd_valid, a.idx, 1, a.presenting);
            if (a.presenting) {
                const Cmd &c = *a.pending.front();
                unsigned b = a.idx * CMDW;
                put_bits(m->wr_cmd, b, 8, c.tag);
                put_bits(m->wr_cmd, b + 8, 32, c.len);
                put_bits(m->wr_cmd, b + 40, 64, c.addr);
            }
            if (!a.pl_presenting && !a.payload.empty()) a.pl_presenting = !rng.chance(a.idle);
            put_bits(m->wr_tvalid, a.idx, 1, a.pl_presenting);
            if (a.pl_presenting) {
                const Cmd &c = *a.payload.front();
                unsigned n = unsigned(std::min<uint64_t>(64, c.len - a.pl_off));
                uint8_t beat[64];
                std::memset(beat, 0xA5, 64); // bytes past the end are junk
                if (n) std::memcpy(beat, c.data.data() + a.pl_off, n);
                put_bytes(m->wr_tdata, a.idx * 64, beat, 64);
                put_bits(m->wr_tkeep, a.idx * 64, 64, n == 64 ? ~0ull : ((1ull << n) - 1));
                put_bits(m->wr_tlast, a.idx, 1, a.pl_off + n == c.len);
            }
            put_bits(m->wr_cpl_ready, a.idx, 1, !a.hold_cpl && !rng.chance(a.stall));
        }

        m->clk = 0;
        m->eval();

        for (auto &a : rd)
            sample_read(a);
        for (auto &a : wr)
            sample_write(a);

        m->clk = 1;
        m->eval();
        ctx->timeInc(1);
        cycle++;
    }

    void sample_read(ReadAgent &a) {
        if (a.presenting && get_bits(m->rd_cmd_ready, a.idx, 1)) {
            Cmd c = std::move(a.pending.front());
            a.pending.pop_front();
            c.t_issue = cycle;
            a.first_fire = std::min(a.first_fire, cycle);
            a.inflight.push_back(std::move(c));
            a.presenting = false;
        }
        if (!(get_bits(m->rd_tvalid, a.idx, 1) && get_bits(m->rd_tready, a.idx, 1))) return;
        a.beats++;
        a.last_beat = cycle;
        if (a.inflight.empty()) {
            FAIL("rd%d: a beat with no command outstanding (cycle %" PRIu64 ")\n", a.idx, cycle);
            return;
        }
        Cmd &c = a.inflight.front();
        unsigned n = unsigned(std::min<uint64_t>(64, c.len - a.off));
        uint64_t keep = get_bits(m->rd_tkeep, a.idx * 64, 64);
        uint64_t want_keep = n == 64 ? ~0ull : ((1ull << n) - 1);
        bool last = get_bits(m->rd_tlast, a.idx, 1);
        unsigned user = unsigned(get_bits(m->rd_tuser, a.idx * CPLW, CPLW));
        unsigned tag = user >> 2, st = user & 3;
        bool want_last = a.off + n == c.len;
        if (keep != want_keep || last != want_last || tag != c.tag) {
            FAIL("rd%d: cmd addr=0x%" PRIx64 " len=%u tag=%u at byte %" PRIu64
                 ": expected tkeep=%016" PRIx64 " tlast=%d tag=%u, got tkeep=%016" PRIx64
                 " tlast=%d tag=%u\n",
                 a.idx, c.addr, c.len, c.tag, a.off, want_keep, want_last, c.tag, keep, last, tag);
        }
        if (c.status == 0 && n) {
            const uint8_t *got = bytes_of(m->rd_tdata, a.idx * 64);
            Region *r = region_of(c.addr, c.len);
            const uint8_t *want = r->shadow.data() + (c.addr - r->base) + a.off;
            if (std::memcmp(got, want, n) != 0) {
                for (unsigned i = 0; i < n; i++) {
                    if (got[i] != want[i]) {
                        FAIL("rd%d: cmd addr=0x%" PRIx64 " len=%u: byte at 0x%" PRIx64
                             " expected %02x got %02x\n",
                             a.idx, c.addr, c.len, c.addr + a.off + i, want[i], got[i]);
                        break;
                    }
                }
            }
        }
        a.off += n;
        a.bytes += n;
        if (last || want_last) {
            if (st != c.status)
                FAIL("rd%d: cmd addr=0x%" PRIx64 " len=%u: expected status %u got %u\n", a.idx,
                     c.addr, c.len, c.status, st);
            a.statuses.push_back(st);
            if (st) a.errs_seen++;
            a.cmds_done++;
            a.inflight.pop_front();
            a.off = 0;
        }
    }

    void sample_write(WriteAgent &a) {
        if (a.presenting && get_bits(m->wr_cmd_ready, a.idx, 1)) {
            Cmd *c = a.pending.front();
            c->t_issue = cycle;
            a.first_fire = std::min(a.first_fire, cycle);
            a.awaiting.push_back(c);
            a.pending.pop_front();
            a.presenting = false;
        }
        if (a.pl_presenting && get_bits(m->wr_tready, a.idx, 1)) {
            const Cmd &c = *a.payload.front();
            unsigned n = unsigned(std::min<uint64_t>(64, c.len - a.pl_off));
            a.pl_off += n;
            a.beats++;
            a.bytes += n;
            if (a.pl_off == c.len) {
                a.payload.pop_front();
                a.pl_off = 0;
            }
            a.pl_presenting = false;
        }
        if (get_bits(m->wr_cpl_valid, a.idx, 1) && get_bits(m->wr_cpl_ready, a.idx, 1)) {
            unsigned cpl = unsigned(get_bits(m->wr_cpl, a.idx * CPLW, CPLW));
            unsigned tag = cpl >> 2, st = cpl & 3;
            if (a.awaiting.empty()) {
                FAIL("wr%d: completion tag=%u with no command outstanding\n", a.idx, tag);
                return;
            }
            Cmd *c = a.awaiting.front();
            a.awaiting.pop_front();
            if (tag != c->tag || st != c->status)
                FAIL("wr%d: cmd addr=0x%" PRIx64 " len=%u: expected completion tag=%u status=%u,"
                     " got tag=%u status=%u\n",
                     a.idx, c->addr, c->len, c->tag, c->status, tag, st);
            c->t_done = cycle;
            a.statuses.push_back(st);
            a.cmds_done++;
            a.last_cpl = cycle;
            // a finished command's payload is no longer needed
            while (!a.owned.empty() && a.owned.front()->t_done)
                a.owned.pop_front();
        }
    }

    bool idle_all() const {
        for (auto &a : rd)
            if (!a.pending.empty() || !a.inflight.empty()) return false;
        for (auto &a : wr)
            if (!a.pending.empty() || !a.payload.empty() || !a.awaiting.empty()) return false;
        return true;
    }

    // Run until every queue is empty; false (and a message) on the cycle limit.
    bool run_until_idle(uint64_t limit, const char *what) {
        uint64_t end = cycle + limit;
        while (!idle_all()) {
            if (cycle >= end) {
                FAIL("%s: not finished after %" PRIu64 " cycles (rd pending %zu/%zu inflight "
                     "%zu/%zu, wr pending %zu/%zu payload %zu/%zu awaiting %zu/%zu)\n",
                     what, limit, rd[0].pending.size(), rd[1].pending.size(), rd[0].inflight.size(),
                     rd[1].inflight.size(), wr[0].pending.size(), wr[1].pending.size(),
                     wr[0].payload.size(), wr[1].payload.size(), wr[0].awaiting.size(),
                     wr[1].awaiting.size());
                return false;
            }
            step();
        }
        return true;
    }

    void queue_write(WriteAgent &a, Cmd c) {
        a.owned.emplace_back(new Cmd(std::move(c)));
        a.pending.push_back(a.owned.back().get());
        a.payload.push_back(a.owned.back().get());
    }
};

// ------------------------------------------------------------------ helpers
uint64_t arg_u64(const char *name, uint64_t dflt) {
    const char *v = Verilated::commandArgsPlusMatch(name);
    std::string s(v ? v : "");
    std::string key = std::string("+") + name + "=";
    if (s.rfind(key, 0) != 0) return dflt;
    return std::strtoull(s.c_str() + key.size(), nullptr, 0);
}

std::string arg_str(const char *name, const char *dflt) {
    const char *v = Verilated::commandArgsPlusMatch(name);
    std::string s(v ? v : "");
    std::string key = std::string("+") + name + "=";
    if (s.rfind(key, 0) != 0) return dflt;
    return s.substr(key.size());
}

void add_region(Rng &rng, uint64_t base, uint64_t size) {
    Region r{base, size, std::vector<uint8_t>(size)};
    for (uint64_t i = 0; i < size; i += 8) {
        uint64_t v = rng.next();
        std::memcpy(&r.shadow[i], &v, std::min<uint64_t>(8, size - i));
    }
    mem_model_write(INST, base, r.shadow.data(), size);
    g_regions.push_back(std::move(r));
}

// A random command inside a region: lengths 0..64 KiB with a bias to short
// ones and to starts just before a 4 KiB boundary.
Cmd random_cmd(Rng &rng, const Region &r, uint32_t max_len) {
    Cmd c{};
    unsigned k = unsigned(rng.below(100));
    uint64_t len;
    if (k < 8)
        len = rng.below(4);
    else if (k < 35)
        len = 1 + rng.below(256);
    else if (k < 70)
        len = 1 + rng.below(8192);
    else
        len = 1 + rng.below(65536);
    len = std::min<uint64_t>(len, max_len);
    uint64_t span = r.size - len;
    uint64_t off = rng.below(span + 1);
    if (rng.chance(300)) { // near a 4 KiB boundary
        uint64_t page = (off & ~4095ull) + 4096;
        uint64_t o2 = page - rng.below(129);
        if (o2 <= span) off = o2;
    }
    c.addr = r.base + off;
    c.len = uint32_t(len);
    c.tag = uint8_t(rng.next());
    return c;
}

void make_write(Rng &rng, Region &r, Cmd &c) {
    c.data.resize(c.len);
    for (auto &b : c.data)
        b = uint8_t(rng.next());
    c.status = expected_status(c.addr, c.len);
    // the memory must end up holding this, except bytes the model refuses
    for (uint64_t i = 0; i < c.len; i++)
        if (!in_err(c.addr + i)) r.shadow[c.addr - r.base + i] = c.data[i];
}

bool compare_region(const Region &r, const char *name) {
    std::vector<uint8_t> got(r.size);
    mem_model_read(INST, r.base, got.data(), r.size);
    if (std::memcmp(got.data(), r.shadow.data(), r.size) == 0) return true;
    unsigned shown = 0;
    for (uint64_t i = 0; i < r.size && shown < 5; i++) {
        if (got[i] != r.shadow[i]) {
            FAIL("%s: memory at 0x%" PRIx64 " expected %02x got %02x\n", name, r.base + i,
                 r.shadow[i], got[i]);
            shown++;
        }
    }
    return false;
}

void config_memory(unsigned lat, unsigned jitter, unsigned stall, uint64_t seed,
                   unsigned max_outstanding = 64, unsigned bw_bytes = 0) {
    mem_model_cfg cfg;
    cfg.bw_bytes = bw_bytes;
    cfg.max_outstanding = max_outstanding;
    cfg.rd_latency = lat;
    cfg.wr_latency = lat;
    cfg.latency_jitter = jitter;
    cfg.stall_permille = stall;
    cfg.seed = seed;
    mem_model_configure(INST, cfg);
}

bool check_protocol() {
    mem_model_stats s = mem_model_get_stats(INST);
    if (s.violations) {
        FAIL("memory model saw %" PRIu64 " AXI protocol errors\n", s.violations);
        return false;
    }
    return true;
}

constexpr uint64_t RD_BASE = 0xFFFF'FF00'0000'0000ull; // exercises the high address bits
constexpr uint64_t WR0_BASE = 0x0000'0002'0000'0000ull;
constexpr uint64_t WR1_BASE = 0x0000'0003'0000'0ff0ull; // not page aligned
constexpr uint64_t REGION = 16ull << 20;

// ------------------------------------------------------------------ tests
// Random commands on all four engines at once, back-pressure everywhere.
int test_rand(uint64_t seed) {
    unsigned stall = unsigned(arg_u64("stall", 100)), idle = unsigned(arg_u64("idle", 200));
    unsigned lat = unsigned(arg_u64("lat", 30)), jitter = unsigned(arg_u64("jitter", 40));
    unsigned ncmd = unsigned(arg_u64("cmds", 250));
    config_memory(lat, jitter, stall, seed);
    Rng rng(seed);
    add_region(rng, RD_BASE, REGION);
    add_region(rng, WR0_BASE, REGION);
    add_region(rng, WR1_BASE, REGION);
    Bench b(seed);
    for (int i = 0; i < NRE; i++) {
        b.rd[i].idle = idle;
        b.rd[i].stall = stall;
        for (unsigned k = 0; k < ncmd; k++) {
            Cmd c = random_cmd(rng, g_regions[0], 1u << 31);
            if (k == ncmd / 3 || k == 2 * ncmd / 3) { // a few of several MiB
                c.len = uint32_t((1u << 20) + rng.below(3u << 20));
                c.addr = RD_BASE + rng.below(REGION - c.len);
            }
            c.status = 0;
            b.rd[i].pending.push_back(std::move(c));
        }
    }
    uint64_t wbytes = 0, rbytes = 0;
    for (int i = 0; i < NWE; i++) {
        b.wr[i].idle = idle;
        b.wr[i].stall = stall;
        Region &r = g_regions[1 + i];
        for (unsigned k = 0; k < ncmd; k++) {
            Cmd c = random_cmd(rng, r, 1u << 31);
            if (k == ncmd / 2) {
                c.len = uint32_t((1u << 20) + rng.below(3u << 20));
                c.addr = r.base + rng.below(REGION - c.len);
            }
            make_write(rng, r, c);
            wbytes += c.len;
            b.queue_write(b.wr[i], std::move(c));
        }
    }
    for (auto &a : b.rd)
        for (auto &c : a.pending)
            rbytes += c.len;
    b.run_until_idle(20'000'000, "rand");
    compare_region(g_regions[1], "wr0 region");
    compare_region(g_regions[2], "wr1 region");
    check_protocol();
    std::printf("rand: %u commands per engine, %" PRIu64 " bytes read, %" PRIu64
                " bytes written, %" PRIu64 " cycles (memory latency %u+0..%u, stall %u/1000, "
                "stream idle/stall %u/1000)\n",
                ncmd, rbytes, wbytes, b.cycle, lat, jitter, stall, idle);
    return g_fail;
}

// Back-to-back commands on one engine, memory with latency and no
// back-pressure, stream ends always ready. Bytes / 64 per cycle, from the
// first command accepted to the last beat out (reads) or the last completion
// (writes).
double measure(uint64_t seed, bool write, uint64_t base, uint64_t rsize, unsigned n, uint32_t len,
               bool aligned, Rng &rng) {
    Bench b(seed);
    uint64_t bytes = 0;
    Region *r = region_of(base, rsize);
    for (unsigned k = 0; k < n; k++) {
        Cmd c{};
        c.len = len;
        uint64_t off = rng.below(rsize - len - 64);
        off = aligned ? (off & ~4095ull) : (off | 1) + rng.below(62);
        c.addr = base + off;
        c.tag = uint8_t(k);
        bytes += c.len;
        if (write) {
            make_write(rng, *r, c);
            b.queue_write(b.wr[0], std::move(c));
        } else {
            b.rd[0].pending.push_back(std::move(c));
        }
    }
    b.run_until_idle(bytes / 16 + 100'000, write ? "throughput write" : "throughput read");
    uint64_t last = write ? b.wr[0].last_cpl : b.rd[0].last_beat;
    uint64_t first = write ? b.wr[0].first_fire : b.rd[0].first_fire;
    double beats = double(bytes) / 64.0, cyc = double(last - first + 1);
    return beats / cyc;
}

int test_throughput(uint64_t seed) {
    unsigned lat = unsigned(arg_u64("lat", 40));
    config_memory(lat, 0, 0, seed);
    Rng rng(seed);
    const uint64_t BIG = 48ull << 20;
    add_region(rng, RD_BASE, BIG);
    add_region(rng, WR0_BASE, BIG);
    struct Case {
        const char *what;
        unsigned n;
        uint32_t len;
        bool aligned;
        double need; // beats per cycle
    };
    const Case cases[] = {
        {"64 KiB, 4 KiB aligned", 24, 64u << 10, true, 0.95},
        {"64 KiB, unaligned", 24, 64u << 10, false, 0.90},
        {"40 MiB, unaligned", 1, 40u << 20, false, 0.95},
        {"4 KiB, 4 KiB aligned", 200, 4096, true, 0.95},
        {"1 KiB, unaligned", 400, 1024, false, 0.90}, // at most 16/17: one extra memory beat
        {"256 B, unaligned", 800, 256, false, 0.75},  // at most 4/5
    };
    for (const Case &c : cases) {
        for (int write = 0; write < 2; write++) {
            double got =
                measure(seed, write, write ? WR0_BASE : RD_BASE, BIG, c.n, c.len, c.aligned, rng);
            std::printf("throughput: %-5s %3u x %-22s %.4f beats/cycle (%5.1f Gb/s at 250 MHz),"
                        " required >= %.2f\n",
                        write ? "write" : "read", c.n, c.what, got, got * 128.0, c.need);
            if (got < c.need)
                FAIL("throughput %s %s: expected >= %.2f beats/cycle, got %.4f\n",
                     write ? "write" : "read", c.what, c.need, got);
        }
    }
    compare_region(g_regions[1], "wr0 region");
    check_protocol();
    return g_fail;
}

// A memory limited to bw bytes per cycle: one engine streaming 64 KiB
// commands gets bw/64 beats per cycle, no more (the budget holds at most two
// beats) and not much less (the engines keep enough bursts in flight).
int test_bandwidth(uint64_t seed) {
    unsigned lat = unsigned(arg_u64("lat", 50));
    Rng rng(seed);
    const uint64_t BIG = 4ull << 20;
    add_region(rng, RD_BASE, BIG);
    add_region(rng, WR0_BASE, BIG);
    for (unsigned bw : {16u, 32u, 48u}) {
        config_memory(lat, 0, 0, seed, 64, bw);
        for (int write = 0; write < 2; write++) {
            double got =
                measure(seed, write, write ? WR0_BASE : RD_BASE, BIG, 24, 64u << 10, true, rng);
            double lim = bw / 64.0;
            std::printf("bandwidth: limit %2u B/cycle (%.4f beats/cycle): %-5s 24 x 64 KiB "
                        "%.4f beats/cycle\n",
                        bw, lim, write ? "write" : "read", got);
            if (got > lim + 0.001 || got < 0.95 * lim)
                FAIL("bandwidth %u B/cycle %s: expected %.4f..%.4f beats/cycle, got %.4f\n", bw,
                     write ? "write" : "read", 0.95 * lim, lim + 0.001, got);
        }
    }
    compare_region(g_regions[1], "wr0 region");
    check_protocol();
    return g_fail;
}

// The store is sparse over all 64 address bits: reading never-written memory
// (zeros) allocates nothing, each 4 KiB page written costs one page wherever
// it lies (2^40, either side of 2^63, the top of the address space).
int test_sparse(uint64_t seed) {
    config_memory(50, 0, 0, seed);
    mem_model_clear(INST);
    Rng rng(seed);
    auto expect_pages = [](size_t want, const char *when) {
        size_t got = mem_model_pages(INST);
        std::printf("sparse: %zu page(s) %s\n", got, when);
        if (got != want) FAIL("sparse: %s: expected %zu pages, got %zu\n", when, want, got);
    };
    const uint64_t ZERO_BASE = 1ull << 62, HI = (1ull << 63) - 4096, T40 = 1ull << 40;
    // shadows start zero like the memory; nothing is preloaded
    g_regions.push_back({ZERO_BASE, 1u << 20, std::vector<uint8_t>(1u << 20)});
    g_regions.push_back({HI, 8192, std::vector<uint8_t>(8192)});
    g_regions.push_back({T40, 4096, std::vector<uint8_t>(4096)});
    Region &rz = g_regions[0], &rhi = g_regions[1], &r40 = g_regions[2];
    {
        Bench b(seed);
        for (unsigned k = 0; k < 16; k++) {
            Cmd c{};
            c.addr = ZERO_BASE + uint64_t(k) * (64u << 10);
            c.len = 64u << 10;
            c.tag = uint8_t(k);
            b.rd[k % 2].pending.push_back(std::move(c));
        }
        b.run_until_idle(2'000'000, "sparse zero reads");
    }
    expect_pages(0, "after reading 1 MiB never written at 2^62");
    {
        Bench b(seed + 1);
        Cmd c{};
        c.addr = HI;
        c.len = 8192; // the last page below 2^63 and the first above
        c.tag = 1;
        make_write(rng, rhi, c);
        b.queue_write(b.wr[0], std::move(c));
        Cmd d{};
        d.addr = T40 + 100;
        d.len = 300;
        d.tag = 2;
        make_write(rng, r40, d);
        b.queue_write(b.wr[1], std::move(d));
        b.run_until_idle(2'000'000, "sparse writes");
    }
    expect_pages(3, "after writing 8 KiB across 2^63 and 300 bytes at 2^40");
    {
        Bench b(seed + 2);
        Cmd c{};
        c.addr = HI + 1;
        c.len = 8190;
        c.tag = 3;
        b.rd[0].pending.push_back(std::move(c));
        Cmd d{};
        d.addr = T40;
        d.len = 4096;
        d.tag = 4;
        b.rd[1].pending.push_back(std::move(d));
        b.run_until_idle(2'000'000, "sparse read back");
    }
    expect_pages(3, "after reading them back");
    uint8_t top = 0xA5, back = 0;
    mem_model_write(INST, ~0ull, &top, 1);
    mem_model_read(INST, ~0ull, &back, 1);
    if (back != top) FAIL("sparse: byte at 2^64-1: expected %02x got %02x\n", top, back);
    expect_pages(4, "after one byte at 2^64-1");
    compare_region(rz, "2^62 region");
    compare_region(rhi, "2^63 region");
    compare_region(r40, "2^40 region");
    check_protocol();
    return g_fail;
}

// Both read engines and both write engines loaded without pause: each must
// get its share of the bus; a client of small commands next to a client of
// big ones must still progress at the round-robin rate. The memory takes
// only two bursts per direction at a time, so address slots are what the
// clients compete for (with many slots the engines' own buffer limits would
// share the bus evenly whatever the arbiter did).
int test_fairness(uint64_t seed) {
    config_memory(8, 0, 0, seed, 2);
    Rng rng(seed);
    add_region(rng, RD_BASE, REGION);
    add_region(rng, WR0_BASE, REGION);
    add_region(rng, WR1_BASE, REGION);
    const uint64_t WINDOW = 40'000;
    for (int mixed = 0; mixed < 2; mixed++) {
        Bench b(seed + mixed);
        bool open = true;
        for (int i = 0; i < NRE; i++) {
            b.rd[i].gen = [&, i](Cmd &c) {
                if (!open) return false;
                // equal: 16 KiB each; mixed: client 0 single beats, client 1 64 KiB
                uint32_t len = mixed ? (i == 0 ? 64u : 65536u) : 16384u;
                c = Cmd{};
                c.len = len;
                c.addr = (RD_BASE + rng.below(REGION - len)) & ~63ull;
                c.tag = uint8_t(rng.next());
                return true;
            };
        }
        for (int i = 0; i < NWE; i++) {
            b.wr[i].gen = [&, i](Cmd &c) {
                if (!open) return false;
                uint32_t len = mixed ? (i == 0 ? 64u : 65536u) : 16384u;
                Region &r = g_regions[1 + i];
                c = Cmd{};
                c.len = len;
                c.addr = (r.base + rng.below(REGION - len)) & ~63ull;
                if (c.addr < r.base) c.addr += 64;
                c.tag = uint8_t(rng.next());
                make_write(rng, r, c);
                return true;
            };
        }
        for (int k = 0; k < 2000; k++)
            b.step(); // reach steady state
        uint64_t r0[NRE], w0[NWE], rc0[NRE], wc0[NWE];
        for (int i = 0; i < NRE; i++)
            r0[i] = b.rd[i].beats, rc0[i] = b.rd[i].cmds_done;
        for (int i = 0; i < NWE; i++)
            w0[i] = b.wr[i].beats, wc0[i] = b.wr[i].cmds_done;
        for (uint64_t k = 0; k < WINDOW; k++)
            b.step();
        open = false;
        uint64_t rb[NRE], wb[NWE], rc[NRE], wc[NWE], rt = 0, wt = 0;
        for (int i = 0; i < NRE; i++)
            rb[i] = b.rd[i].beats - r0[i], rc[i] = b.rd[i].cmds_done - rc0[i], rt += rb[i];
        for (int i = 0; i < NWE; i++)
            wb[i] = b.wr[i].beats - w0[i], wc[i] = b.wr[i].cmds_done - wc0[i], wt += wb[i];
        b.run_until_idle(2'000'000, "fairness drain");
        std::printf(
            "fairness (%s): in %" PRIu64 " cycles: read beats %" PRIu64 " / %" PRIu64
            " (commands %" PRIu64 " / %" PRIu64 "), write beats %" PRIu64 " / %" PRIu64
            " (commands %" PRIu64 " / %" PRIu64 "); bus %.3f read, %.3f write beats/cycle\n",
            mixed ? "64 B next to 64 KiB commands" : "equal 16 KiB commands", WINDOW, rb[0], rb[1],
            rc[0], rc[1], wb[0], wb[1], wc[0], wc[1], double(rt) / WINDOW, double(wt) / WINDOW);
        // equal load: the bus is saturated, so full load really is full
        if (!mixed && (double(rt) / WINDOW < 0.95 || double(wt) / WINDOW < 0.95))
            FAIL("fairness: expected the bus saturated (>= 0.95 beats/cycle), got read %.3f "
                 "write %.3f\n",
                 double(rt) / WINDOW, double(wt) / WINDOW);
        if (!mixed) {
            for (int i = 0; i < NRE; i++)
                if (rb[i] < rt * 45 / 100)
                    FAIL("fairness: read client %d expected >= 45%% of %" PRIu64
                         " beats, got %" PRIu64 "\n",
                         i, rt, rb[i]);
            for (int i = 0; i < NWE; i++)
                if (wb[i] < wt * 45 / 100)
                    FAIL("fairness: write client %d expected >= 45%% of %" PRIu64
                         " beats, got %" PRIu64 "\n",
                         i, wt, wb[i]);
        } else {
            // round robin per burst: the single-beat client gets a burst at
            // least once per 64-beat burst of the other one
            uint64_t need = WINDOW / 65 * 8 / 10;
            if (rc[0] < need)
                FAIL("fairness: small read client expected >= %" PRIu64 " commands, got %" PRIu64
                     "\n",
                     need, rc[0]);
            if (wc[0] < need)
                FAIL("fairness: small write client expected >= %" PRIu64 " commands, got %" PRIu64
                     "\n",
                     need, wc[0]);
            // and the big client keeps most of the bus
            if (rb[1] < WINDOW / 2 || wb[1] < WINDOW / 2)
                FAIL("fairness: big clients expected >= %" PRIu64 " beats, got read %" PRIu64
                     " write %" PRIu64 "\n",
                     WINDOW / 2, rb[1], wb[1]);
        }
    }
    compare_region(g_regions[1], "wr0 region");
    compare_region(g_regions[2], "wr1 region");
    check_protocol();
    return g_fail;
}

// Address ranges the memory answers with SLVERR / DECERR.
int test_errors(uint64_t seed) {
    config_memory(25, 20, 50, seed);
    Rng rng(seed);
    add_region(rng, RD_BASE, 1 << 20);
    add_region(rng, WR0_BASE, 1 << 20);
    add_region(rng, WR1_BASE, 1 << 20);
    // bytes, not beats: the model answers for any beat that touches a range
    g_errs.push_back({RD_BASE + 0x40010, RD_BASE + 0x42010, 2});
    g_errs.push_back({RD_BASE + 0x80000, RD_BASE + 0x80001, 3});
    g_errs.push_back({WR0_BASE + 0x20020, WR0_BASE + 0x21000, 2});
    g_errs.push_back({WR1_BASE + 0x30000, WR1_BASE + 0x30100, 3});
    for (auto &e : g_errs)
        mem_model_add_error_range(INST, e.lo, e.hi, e.resp);
    Bench b(seed);
    unsigned ncmd = unsigned(arg_u64("cmds", 150));
    auto near = [&](uint64_t base, uint64_t center, uint64_t rsize) {
        Cmd c{};
        c.len = uint32_t(rng.below(rng.chance(500) ? 300 : 20000));
        int64_t off = int64_t(center - base) - int64_t(rng.below(c.len + 200)) + 100;
        off = std::max<int64_t>(0, std::min<int64_t>(off, int64_t(rsize - c.len)));
        c.addr = base + uint64_t(off);
        c.tag = uint8_t(rng.next());
        return c;
    };
    for (int i = 0; i < NRE; i++) {
        b.rd[i].stall = 100;
        b.rd[i].idle = 100;
        for (unsigned k = 0; k < ncmd; k++) {
            Cmd c = k % 3 == 0 ? random_cmd(rng, g_regions[0], 1 << 16)
                               : near(RD_BASE, k % 3 == 1 ? RD_BASE + 0x41000 : RD_BASE + 0x80000,
                                      1 << 20);
            c.status = expected_status(c.addr, c.len);
            b.rd[i].pending.push_back(std::move(c));
        }
    }
    for (int i = 0; i < NWE; i++) {
        b.wr[i].stall = 100;
        b.wr[i].idle = 100;
        Region &r = g_regions[1 + i];
        for (unsigned k = 0; k < ncmd; k++) {
            Cmd c = k % 2 ? random_cmd(rng, r, 1 << 16)
                          : near(r.base, i == 0 ? r.base + 0x20800 : r.base + 0x30080, 1 << 20);
            make_write(rng, r, c);
            b.queue_write(b.wr[i], std::move(c));
        }
    }
    b.run_until_idle(5'000'000, "errors");
    unsigned cnt[4] = {};
    for (auto &a : b.rd)
        for (unsigned s : a.statuses)
            cnt[s]++;
    for (auto &a : b.wr)
        for (unsigned s : a.statuses)
            cnt[s]++;
    std::printf("errors: completions OK %u, SLVERR %u, DECERR %u\n", cnt[0], cnt[2], cnt[3]);
    if (cnt[0] < 20 || cnt[2] < 20 || cnt[3] < 20)
        FAIL("errors: expected at least 20 completions of each status, got OK %u SLVERR %u "
             "DECERR %u\n",
             cnt[0], cnt[2], cnt[3]);
    compare_region(g_regions[1], "wr0 region");
    compare_region(g_regions[2], "wr1 region");
    check_protocol();
    return g_fail;
}

// ---- pattern engine
struct PatResult {
    uint32_t errs, cycles;
    bool fbv;
    uint64_t fba;
    unsigned status;
    uint8_t peek[16];
};

bool pat_run(Bench &b, bool check, uint64_t addr, uint32_t len, uint64_t seed, PatResult &r) {
    b.m->pat_check = check;
    b.m->pat_addr = addr;
    b.m->pat_len = len;
    b.m->pat_seed = seed;
    b.m->pat_start = 1;
    b.edge();
    b.m->pat_start = 0;
    uint64_t limit = b.cycle + 100'000 + uint64_t(len) / 16;
    while (true) {
        b.m->clk = 0;
        b.m->eval();
        if (!b.m->pat_busy && b.m->pat_done) break;
        if (b.cycle >= limit) {
            FAIL("pattern %s at 0x%" PRIx64 " len %u: not done by the cycle limit\n",
                 check ? "check" : "fill", addr, len);
            return false;
        }
        b.edge();
    }
    r.errs = b.m->pat_err_count;
    r.cycles = b.m->pat_cycles;
    r.fbv = b.m->pat_first_bad_valid;
    r.fba = b.m->pat_first_bad_addr;
    r.status = b.m->pat_dma_status;
    for (int i = 0; i < 16; i++) r.peek[i] = uint8_t(b.m->pat_peek[i / 4] >> (8 * (i % 4)));
    return true;
}

int test_pattern(uint64_t seed) {
    config_memory(30, 0, 0, seed);
    Rng rng(seed);
    Bench b(seed);
    const uint64_t A = 0x0000'0040'0000'0000ull;
    const uint32_t L = 1u << 20;
    const uint64_t S = rng.next();
    // surround the range with known bytes to catch writes outside it
    std::vector<uint8_t> guard(4096, 0x3C);
    mem_model_write(INST, A - 4096, guard.data(), 4096);
    mem_model_write(INST, A + L, guard.data(), 4096);

    // the rate the 1 MiB fill and check must reach (lower for the small-buffer build)
    double need = double(arg_u64("min_rate_permille", 950)) / 1000.0;
    PatResult r{};
    if (!pat_run(b, false, A, L, S, r)) return g_fail;
    double bpc = (L / 64.0) / r.cycles;
    std::printf("pattern: fill 1 MiB: %u cycles, %.4f beats/cycle (%.1f Gb/s at 250 MHz), "
                "status %u\n",
                r.cycles, bpc, bpc * 128.0, r.status);
    if (bpc < need) FAIL("pattern fill: expected >= %.3f beats/cycle, got %.4f\n", need, bpc);
    if (r.status) FAIL("pattern fill: expected status 0, got %u\n", r.status);
    {
        std::vector<uint8_t> got(L + 8192), want(L);
        mem_model_read(INST, A - 4096, got.data(), got.size());
        mem_pattern_fill(S, A, want.data(), L);
        for (uint32_t i = 0; i < L; i++)
            if (got[4096 + i] != want[i]) {
                FAIL("pattern fill: byte at 0x%" PRIx64 " expected %02x (mem_pattern_ref) got "
                     "%02x\n",
                     A + i, want[i], got[4096 + i]);
                break;
            }
        for (uint32_t i = 0; i < 4096; i++)
            if (got[i] != 0x3C || got[4096 + L + i] != 0x3C) {
                FAIL("pattern fill: wrote outside its range near 0x%" PRIx64 "\n", A);
                break;
            }
    }
    if (!pat_run(b, true, A, L, S, r)) return g_fail;
    bpc = (L / 64.0) / r.cycles;
    std::printf("pattern: check 1 MiB: %u cycles, %.4f beats/cycle, %u errors\n", r.cycles, bpc,
                r.errs);
    if (bpc < need) FAIL("pattern check: expected >= %.3f beats/cycle, got %.4f\n", need, bpc);
    if (r.errs || r.fbv || r.status)
        FAIL("pattern check of a clean fill: expected 0 errors, got %u (first bad valid %d, "
             "status %u)\n",
             r.errs, r.fbv, r.status);

    // a sub-range at odd addresses checks on its own
    uint64_t sa = A + 12345;
    uint32_t sl = 100001;
    if (!pat_run(b, true, sa, sl, S, r)) return g_fail;
    if (r.errs || r.fbv) FAIL("pattern check of a sub-range: expected 0 errors, got %u\n", r.errs);

    // corrupt one byte, then a second one after it
    uint64_t bad1 = A + 4096 + rng.below(L - 8192), bad2 = bad1 + 1 + rng.below(3000);
    uint8_t v;
    mem_model_read(INST, bad1, &v, 1);
    v ^= 0x10;
    mem_model_write(INST, bad1, &v, 1);
    if (!pat_run(b, true, A, L, S, r)) return g_fail;
    std::printf("pattern: one byte corrupted at 0x%" PRIx64 ": check found %u error(s), first at "
                "0x%" PRIx64 "\n",
                bad1, r.errs, r.fba);
    if (r.errs != 1 || !r.fbv || r.fba != bad1)
        FAIL("pattern check: expected 1 error at 0x%" PRIx64 ", got %u (first bad valid %d at "
             "0x%" PRIx64 ")\n",
             bad1, r.errs, r.fbv, r.fba);
    mem_model_read(INST, bad2, &v, 1);
    v = uint8_t(~v);
    mem_model_write(INST, bad2, &v, 1);
    if (!pat_run(b, true, A, L, S, r)) return g_fail;
    if (r.errs != 2 || r.fba != bad1)
        FAIL("pattern check: expected 2 errors, first at 0x%" PRIx64 ", got %u, first at 0x%" PRIx64
             "\n",
             bad1, r.errs, r.fba);
    // a range that starts after the first bad byte sees only the second
    if (!pat_run(b, true, bad1 + 1, uint32_t(bad2 - bad1 + 77), S, r)) return g_fail;
    if (r.errs != 1 || r.fba != bad2)
        FAIL("pattern check from 0x%" PRIx64 ": expected 1 error at 0x%" PRIx64
             ", got %u at 0x%" PRIx64 "\n",
             bad1 + 1, bad2, r.errs, r.fba);

    // wrong seed: nearly every byte differs (1/256 match by chance)
    if (!pat_run(b, true, A, 65536, S ^ 1, r)) return g_fail;
    std::vector<uint8_t> cur(65536), ref(65536);
    mem_model_read(INST, A, cur.data(), cur.size());
    mem_pattern_fill(S ^ 1, A, ref.data(), ref.size());
    uint32_t want_errs = 0;
    uint64_t want_first = 0;
    for (uint32_t i = 0; i < 65536; i++)
        if (cur[i] != ref[i]) {
            if (!want_errs) want_first = A + i;
            want_errs++;
        }
    if (r.errs != want_errs || r.fba != want_first)
        FAIL("pattern check with another seed: expected %u errors, first at 0x%" PRIx64
             ", got %u, first at 0x%" PRIx64 "\n",
             want_errs, want_first, r.errs, r.fba);

    // unaligned fill of a sub-range with another seed: bytes around it keep the old pattern
    uint64_t ua = A + 200003;
    uint32_t ul = 70001;
    uint64_t S2 = rng.next();
    if (!pat_run(b, false, ua, ul, S2, r)) return g_fail;
    {
        std::vector<uint8_t> got(ul + 256);
        mem_model_read(INST, ua - 128, got.data(), got.size());
        for (uint32_t i = 0; i < got.size(); i++) {
            uint64_t a = ua - 128 + i;
            bool inside = a >= ua && a < ua + ul;
            uint8_t want = inside ? mem_pattern_byte(S2, a) : mem_pattern_byte(S, a);
            if (got[i] != want) {
                FAIL("pattern unaligned fill: byte at 0x%" PRIx64 " (%s) expected %02x got %02x\n",
                     a, inside ? "inside" : "outside", want, got[i]);
                break;
            }
        }
    }
    if (!pat_run(b, true, ua, ul, S2, r)) return g_fail;
    if (r.errs) FAIL("pattern check of the unaligned fill: expected 0 errors, got %u\n", r.errs);

    // zero length: done, nothing touched
    if (!pat_run(b, false, A, 0, S2, r)) return g_fail;
    if (!pat_run(b, true, A, 0, S2, r)) return g_fail;
    if (r.errs || r.fbv) FAIL("pattern zero-length check: expected 0 errors, got %u\n", r.errs);
    for (uint8_t p : r.peek)
        if (p) {
            FAIL("pattern zero-length check: expected peek all zero\n");
            break;
        }

    // peek: a check's first 16 bytes as the memory holds them, zero past len
    // (random bytes, any alignment, lengths 1..16 and longer)
    for (int k = 0; k < 40; k++) {
        uint64_t pa = A + rng.below(L - 64);
        uint32_t pl = k < 16 ? uint32_t(k + 1) : uint32_t(17 + rng.below(200));
        std::vector<uint8_t> bytes(16);
        for (auto &x : bytes) x = uint8_t(rng.next());
        mem_model_write(INST, pa, bytes.data(), 16);
        if (!pat_run(b, true, pa, pl, rng.next(), r)) return g_fail;
        for (uint32_t i = 0; i < 16; i++) {
            uint8_t want = i < pl ? bytes[i] : 0;
            if (r.peek[i] != want) {
                FAIL("pattern peek at 0x%" PRIx64 " len %u: byte %u expected %02x got %02x\n", pa,
                     pl, i, want, r.peek[i]);
                break;
            }
        }
    }
    check_protocol();
    return g_fail;
}

// Write engine 0's completion consumer holds off (cpl_ready 0) while it has
// more commands than the engine may have uncompleted: engine 0 must stop
// taking commands, and nothing else may stall: write engine 1 and both read
// engines finish everything (the shared B channel keeps moving), every byte
// checked. Then engine 0's consumer takes its completions and it finishes too.
int test_cpl_hold(uint64_t seed) {
    config_memory(20, 10, 0, seed);
    Rng rng(seed);
    add_region(rng, RD_BASE, REGION);
    add_region(rng, WR0_BASE, REGION);
    add_region(rng, WR1_BASE, REGION);
    Bench b(seed);
    const unsigned N0 = 100, N1 = 300, NR = 150;
    for (int i = 0; i < NRE; i++)
        for (unsigned k = 0; k < NR; k++) {
            Cmd c = random_cmd(rng, g_regions[0], 8192);
            c.status = 0;
            b.rd[i].pending.push_back(std::move(c));
        }
    for (int i = 0; i < NWE; i++) {
        Region &r = g_regions[1 + i];
        for (unsigned k = 0; k < (i ? N1 : N0); k++) {
            Cmd c = random_cmd(rng, r, 8192);
            make_write(rng, r, c);
            b.queue_write(b.wr[i], std::move(c));
        }
    }
    b.wr[0].hold_cpl = true;
    const uint64_t LIMIT = 2'000'000;
    uint64_t end = b.cycle + LIMIT;
    auto others_busy = [&] {
        for (auto &a : b.rd)
            if (!a.pending.empty() || !a.inflight.empty()) return true;
        return !b.wr[1].pending.empty() || !b.wr[1].payload.empty() || !b.wr[1].awaiting.empty();
    };
    while (others_busy()) {
        if (b.cycle >= end) {
            FAIL("cpl_hold: with engine 0's completions held, the other engines did not finish in %" PRIu64
                 " cycles (wr1 done %" PRIu64 " of %u, rd0 %" PRIu64 ", rd1 %" PRIu64 " of %u)\n",
                 LIMIT, b.wr[1].cmds_done, N1, b.rd[0].cmds_done, b.rd[1].cmds_done, NR);
            return g_fail;
        }
        b.step();
    }
    uint64_t t_others = b.cycle;
    for (int k = 0; k < 2000; k++) b.step();   // engine 0 stays stopped
    size_t acc = b.wr[0].awaiting.size();
    std::printf("cpl_hold: others done @%" PRIu64 " while engine 0 held %zu uncompleted commands (%zu more "
                "waiting to be accepted)\n", t_others, acc, b.wr[0].pending.size());
    if (b.wr[0].cmds_done != 0) FAIL("cpl_hold: engine 0 delivered a completion while cpl_ready was 0\n");
    if (acc == 0 || acc >= N0 || b.wr[0].pending.empty())
        FAIL("cpl_hold: engine 0 accepted %zu of %u commands (expected it to stop: completion credits)\n", acc, N0);
    b.wr[0].hold_cpl = false;
    if (!b.run_until_idle(LIMIT, "cpl_hold release")) return g_fail;
    if (b.wr[0].cmds_done != N0) FAIL("cpl_hold: engine 0 completed %" PRIu64 " of %u\n", b.wr[0].cmds_done, N0);
    compare_region(g_regions[1], "wr0 region");
    compare_region(g_regions[2], "wr1 region");
    check_protocol();
    return g_fail;
}

} // namespace

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    g_argc = argc;
    g_argv = argv;
    std::string test = arg_str("test", "rand");
    uint64_t seed = arg_u64("seed", 1);
    int rc;
    if (test == "rand")
        rc = test_rand(seed);
    else if (test == "throughput")
        rc = test_throughput(seed);
    else if (test == "fairness")
        rc = test_fairness(seed);
    else if (test == "errors")
        rc = test_errors(seed);
    else if (test == "pattern")
        rc = test_pattern(seed);
    else if (test == "cpl_hold")
        rc = test_cpl_hold(seed);
    else if (test == "bandwidth")
        rc = test_bandwidth(seed);
    else if (test == "sparse")
        rc = test_sparse(seed);
    else {
        std::printf("unknown +test=%s\n", test.c_str());
        return 2;
    }
    if (g_fail)
        std::printf("%s: %d check(s) failed (seed %" PRIu64 ")\n", test.c_str(), g_fail, seed);
    else
        std::printf("%s: PASS (seed %" PRIu64 ")\n", test.c_str(), seed);
    return rc ? 1 : 0;
}
