// Bench of the management buffers (tb_mgmt.sv: net_mgmt_rx, net_mgmt_tx,
// mgmt_regs behind soc_xbar). The bench plays three parties at once:
//   - the RX demux: sends frames on s_axis_mgmt with random idle beats;
//   - the firmware: 32-bit sbus accesses to the registers and the windows,
//     exactly as fw/net's driver does (read rx_head, read the slot, pop;
//     read tx_status, fill the slot with byte-enabled writes, tx_send);
//   - the TX arbiter: takes m_axis_mgmt with random back-pressure.
// Expectations come from the bench's own model of the documented behaviour
// (regs/mgmt.toml, the headers of rtl/net/net_mgmt_*.sv), never from the RTL.
//
//   Vtb_mgmt +test=NAME [+seed=N] [+idle=PCT] [+ready=PCT] [+frames=N]
// Exit 0 and "PASSED NAME" on success; "FAIL: ..." with expected and got.
#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <solonic_regs.h>

#include "Vtb_mgmt.h"
#include "verilated.h"

using Bytes = std::vector<uint8_t>;

// The geometry tb_mgmt is built with (its defaults), its instance number, and the SoC map.
static const unsigned RX_SLOTS = 8, TX_SLOTS = 4, SLOT_BYTES = 2048, INSTANCE = 3;
static const uint32_t RX_WIN = 0x40000000u, TX_WIN = 0x40010000u;
static const uint64_t BUS_LIMIT = 100;  // cycles a bus access may take

static std::string test_name = "?";

[[noreturn]] static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::printf("FAIL: %s: ", test_name.c_str());
    std::vprintf(fmt, ap);
    std::printf("\n");
    va_end(ap);
    std::exit(1);
}

static void expect_eq(const char *what, uint64_t exp, uint64_t got) {
    if (exp != got)
        fail("%s: expected %llu (0x%llx), got %llu (0x%llx)", what, (unsigned long long)exp,
             (unsigned long long)exp, (unsigned long long)got, (unsigned long long)got);
}

static std::string hex(const Bytes &b, size_t from, size_t n) {
    std::string s;
    char t[4];
    for (size_t i = from; i < b.size() && i < from + n; i++) {
        std::snprintf(t, sizeof t, "%02x", b[i]);
        s += t;
    }
    return s;
}

static void expect_bytes(const char *what, const Bytes &exp, const Bytes &got) {
    if (exp == got) return;
    size_t i = 0;
    while (i < exp.size() && i < got.size() && exp[i] == got[i]) i++;
    size_t from = i > 8 ? i - 8 : 0;
    fail("%s: length expected %zu got %zu, first difference at byte %zu\n    expected [%zu..] %s\n"
         "    got      [%zu..] %s",
         what, exp.size(), got.size(), i, from, hex(exp, from, 32).c_str(), from, hex(got, from, 32).c_str());
}

struct RxFrame {
    Bytes data;
    bool bad;  // tuser on tlast
};

enum Verdict { STORED, DROP_FULL, DROP_LONG, DROP_BAD };

struct Bench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vtb_mgmt> m;
    std::mt19937_64 rng;
    uint64_t cycle = 0;
    int idle_pct = 0, ready_pct = 100;

    // RX demux side
    std::deque<RxFrame> rx_todo;
    std::function<bool(const RxFrame &)> rx_may_start = [](const RxFrame &) { return true; };
    std::function<void(const RxFrame &)> rx_started = [](const RxFrame &) {};
    bool rx_in_frame = false, rx_presenting = false;
    size_t rx_off = 0;
    uint64_t rx_not_ready = 0;  // cycles a presented beat was refused

    // TX arbiter side
    bool tx_ready_now = true, tx_hold = false, tx_stalled = false;
    std::vector<Bytes> tx_got;
    Bytes tx_cur;
    uint32_t tx_hold_words[16];
    uint64_t tx_hold_keep = 0;
    bool tx_hold_last = false;
    uint64_t tx_first_valid = 0, tx_last_beat = 0, tx_beats = 0;
    bool tx_seen_valid = false;

    Bench(int argc, char **argv, uint64_t seed) : ctx(new VerilatedContext), rng(seed) {
        ctx->commandArgs(argc, argv);
        m.reset(new Vtb_mgmt(ctx.get()));
        m->rst = 1;
        m->instance_id = INSTANCE;
        m->req = 0;
        m->s_axis_mgmt_tvalid = 0;
        m->m_axis_mgmt_tready = 0;
        for (int i = 0; i < 4; i++) tick();
        m->rst = 0;
        m->eval();
    }
    ~Bench() { m->final(); }

    bool pct(int p) { return (int)(rng() % 100) < p; }

    void drive_rx() {
        if (rx_presenting) return;  // hold the beat until taken
        if (!rx_in_frame) {
            if (rx_todo.empty() || !rx_may_start(rx_todo.front())) {
                m->s_axis_mgmt_tvalid = 0;
                return;
            }
        }
        if (pct(idle_pct)) {
            m->s_axis_mgmt_tvalid = 0;
            return;
        }
        if (!rx_in_frame) {
            rx_in_frame = true;
            rx_off = 0;
            rx_started(rx_todo.front());
        }
        const RxFrame &f = rx_todo.front();
        size_t n = std::min<size_t>(64, f.data.size() - rx_off);
        for (int w = 0; w < 16; w++) {
            uint32_t v = 0;
            for (int j = 0; j < 4; j++) {
                size_t k = rx_off + 4 * w + j;
                // bytes beyond the frame carry garbage: tkeep says they are not there
                v |= (uint32_t)(k < f.data.size() ? f.data[k] : (uint8_t)rng()) << (8 * j);
            }
            m->s_axis_mgmt_tdata[w] = v;
        }
        m->s_axis_mgmt_tkeep = n >= 64 ? ~0ull : ((1ull << n) - 1);
        m->s_axis_mgmt_tlast = rx_off + n >= f.data.size();
        m->s_axis_mgmt_tuser = m->s_axis_mgmt_tlast ? f.bad : (rng() & 1);  // tuser counts only on tlast
        m->s_axis_mgmt_tvalid = 1;
        rx_presenting = true;
    }

    void tick() {
        if (!m->rst) {
            drive_rx();
            tx_ready_now = pct(ready_pct) && !tx_stalled;
            m->m_axis_mgmt_tready = tx_ready_now;
        }
        m->clk = 0;
        m->eval();
        bool rx_x = m->s_axis_mgmt_tvalid && m->s_axis_mgmt_tready;
        if (m->s_axis_mgmt_tvalid && !m->s_axis_mgmt_tready) rx_not_ready++;
        bool tx_v = m->m_axis_mgmt_tvalid, tx_x = tx_v && m->m_axis_mgmt_tready;
        if (!m->rst) check_tx_beat(tx_v, tx_x);
        m->clk = 1;
        m->eval();
        ctx->timeInc(1);
        cycle++;
        if (rx_x) {
            rx_presenting = false;
            const RxFrame &f = rx_todo.front();
            rx_off += 64;
            if (rx_off >= f.data.size()) {
                rx_in_frame = false;
                rx_todo.pop_front();
            }
        }
    }

    void check_tx_beat(bool v, bool x) {
        if (tx_hold) {  // the beat presented last cycle was not taken: it must stay
            if (!v) fail("m_axis_mgmt: tvalid dropped at cycle %llu before the beat was taken", (unsigned long long)cycle);
            for (int w = 0; w < 16; w++)
                if (m->m_axis_mgmt_tdata[w] != tx_hold_words[w])
                    fail("m_axis_mgmt: tdata changed while stalled at cycle %llu", (unsigned long long)cycle);
            if (m->m_axis_mgmt_tkeep != tx_hold_keep || (bool)m->m_axis_mgmt_tlast != tx_hold_last)
                fail("m_axis_mgmt: tkeep/tlast changed while stalled at cycle %llu", (unsigned long long)cycle);
        }
        tx_hold = v && !x;
        if (v) {
            for (int w = 0; w < 16; w++) tx_hold_words[w] = m->m_axis_mgmt_tdata[w];
            tx_hold_keep = m->m_axis_mgmt_tkeep;
            tx_hold_last = m->m_axis_mgmt_tlast;
            if (!tx_seen_valid) tx_first_valid = cycle;
            tx_seen_valid = true;
        }
        if (!x) return;
        uint64_t keep = m->m_axis_mgmt_tkeep;
        bool last = m->m_axis_mgmt_tlast;
        if (m->m_axis_mgmt_tuser) fail("m_axis_mgmt: tuser set on a beat (frames are never marked bad)");
        if (!last && keep != ~0ull)
            fail("m_axis_mgmt: a beat before tlast has tkeep %016llx, expected all ones", (unsigned long long)keep);
        if (keep == 0 || (keep & (keep + 1)) != 0)
            fail("m_axis_mgmt: tkeep %016llx is not a contiguous run from byte 0", (unsigned long long)keep);
        for (int k = 0; k < 64; k++)
            if ((keep >> k) & 1) tx_cur.push_back((uint8_t)(m->m_axis_mgmt_tdata[k / 4] >> (8 * (k % 4))));
        tx_beats++;
        tx_last_beat = cycle;
        if (last) {
            tx_got.push_back(tx_cur);
            tx_cur.clear();
        }
    }

    // ---- the firmware's bus accesses (one outstanding, as the core does)
    uint32_t access(bool w, uint32_t addr, uint32_t data, uint8_t be, bool *err) {
        m->req = 1;
        m->we = w;
        m->addr = addr;
        m->wdata = data;
        m->be = be;
        uint64_t t0 = cycle;
        for (;;) {
            m->eval();
            bool g = m->gnt;
            tick();
            if (g) break;
            if (cycle - t0 > BUS_LIMIT) fail("sbus: no gnt for 0x%08x within %llu cycles", addr, (unsigned long long)BUS_LIMIT);
        }
        m->req = 0;
        for (;;) {
            m->eval();
            if (m->rvalid) break;
            tick();
            if (cycle - t0 > BUS_LIMIT) fail("sbus: no rvalid for 0x%08x within %llu cycles", addr, (unsigned long long)BUS_LIMIT);
        }
        uint32_t v = m->rdata;
        bool e = m->err;
        tick();  // the response cycle
        if (err)
            *err = e;
        else if (e)
            fail("sbus: %s 0x%08x answered with err", w ? "write to" : "read of", addr);
        return v;
    }
    uint32_t rd(uint32_t a, bool *err = nullptr) { return access(false, a, 0, 0xf, err); }
    void wr(uint32_t a, uint32_t v, uint8_t be = 0xf, bool *err = nullptr) { access(true, a, v, be, err); }

    void idle(uint64_t n) {
        for (uint64_t i = 0; i < n; i++) tick();
    }
    // Run until the RX side has sent everything (bounded).
    void drain_rx(uint64_t limit) {
        uint64_t t0 = cycle;
        while (!rx_todo.empty()) {
            tick();
            if (cycle - t0 > limit) fail("RX: %zu frames still unsent after %llu cycles", rx_todo.size(), (unsigned long long)limit);
        }
        idle(4);
    }
};

// ---------------------------------------------------------------- frames
static Bytes random_bytes(std::mt19937_64 &g, size_t n) {
    Bytes b(n);
    for (auto &x : b) x = (uint8_t)g();
    return b;
}

static size_t random_len(std::mt19937_64 &g) {
    static const size_t special[] = {1, 14, 42, 60, 63, 64, 65, 127, 128, 129, 1514, 1518, 2047, 2048};
    switch (g() % 4) {
    case 0: return special[g() % (sizeof special / sizeof special[0])];
    case 1: return 14 + g() % 100;
    default: return 1 + g() % SLOT_BYTES;
    }
}

// ---------------------------------------------------------------- firmware side
struct Counters {
    uint32_t frames = 0, full = 0, too_long = 0, bad = 0;
};

static void expect_counters(Bench &b, const char *when, const Counters &c) {
    char w[160];
    std::snprintf(w, sizeof w, "%s: rx_frames", when);
    expect_eq(w, c.frames, b.rd(MGMT_RX_FRAMES));
    std::snprintf(w, sizeof w, "%s: rx_drop_full", when);
    expect_eq(w, c.full, b.rd(MGMT_RX_DROP_FULL));
    std::snprintf(w, sizeof w, "%s: rx_drop_too_long", when);
    expect_eq(w, c.too_long, b.rd(MGMT_RX_DROP_TOO_LONG));
    std::snprintf(w, sizeof w, "%s: rx_drop_bad", when);
    expect_eq(w, c.bad, b.rd(MGMT_RX_DROP_BAD));
}

// What the documented rules say happens to a frame that begins while `stored` slots are taken.
static Verdict verdict(const RxFrame &f, unsigned stored) {
    if (f.bad) return DROP_BAD;  // marked frames first: the demux counted them already
    if (stored >= RX_SLOTS) return DROP_FULL;
    if (f.data.size() > SLOT_BYTES) return DROP_LONG;
    return STORED;
}

static void count(Counters &c, Verdict v) {
    if (v == STORED) c.frames++;
    if (v == DROP_FULL) c.full++;
    if (v == DROP_LONG) c.too_long++;
    if (v == DROP_BAD) c.bad++;
}

// Read the head frame as the firmware does; check it against exp and pop it.
static void fw_read_frame(Bench &b, const Bytes &exp, unsigned exp_slot, unsigned nth) {
    uint32_t head = b.rd(MGMT_RX_HEAD);
    char w[96];
    std::snprintf(w, sizeof w, "frame %u: rx_head.valid", nth);
    expect_eq(w, 1, (head & MGMT_RX_HEAD_VALID_MASK) >> MGMT_RX_HEAD_VALID_SHIFT);
    std::snprintf(w, sizeof w, "frame %u: rx_head.slot", nth);
    expect_eq(w, exp_slot, (head & MGMT_RX_HEAD_SLOT_MASK) >> MGMT_RX_HEAD_SLOT_SHIFT);
    uint32_t len = (head & MGMT_RX_HEAD_LEN_MASK) >> MGMT_RX_HEAD_LEN_SHIFT;
    std::snprintf(w, sizeof w, "frame %u: rx_head.len", nth);
    expect_eq(w, exp.size(), len);
    Bytes got;
    uint32_t base = RX_WIN + exp_slot * SLOT_BYTES;
    for (uint32_t off = 0; off < len; off += 4) {
        uint32_t v = b.rd(base + off);
        for (uint32_t j = 0; j < 4 && off + j < len; j++) got.push_back((uint8_t)(v >> (8 * j)));
    }
    std::snprintf(w, sizeof w, "frame %u read through the RX window", nth);
    expect_bytes(w, exp, got);
    b.wr(MGMT_RX_POP, 1);
}

// ---------------------------------------------------------------- tests
// Frames of every size class, some bad, some too long, with a firmware reader
// running at the same time; the sender starts a frame only when a slot is
// surely free (so no frame may be dropped for lack of room). Every stored
// frame must be read back byte-exact, in order, from the slot the ring says.
static void test_rx_stream(Bench &b, int nframes) {
    std::deque<Bytes> expect;  // frames that must be stored, in order
    Counters c;
    unsigned popped = 0, started_stored = 0;
    for (int i = 0; i < nframes; i++) {
        RxFrame f;
        unsigned kind = b.rng() % 10;
        size_t len = kind == 0 ? SLOT_BYTES + 1 + b.rng() % (9018 - SLOT_BYTES) : random_len(b.rng);
        f.data = random_bytes(b.rng, len);
        f.bad = kind == 1;
        b.rx_todo.push_back(f);
        Verdict v = verdict(f, 0);
        count(c, v);
        if (v == STORED) expect.push_back(f.data);
    }
    b.rx_may_start = [&](const RxFrame &) { return started_stored - popped < RX_SLOTS; };
    b.rx_started = [&](const RxFrame &f) {
        if (verdict(f, 0) == STORED) started_stored++;
    };
    unsigned nth = 0;
    uint64_t t0 = b.cycle, limit = 4000ull * nframes + 100000;
    while (!expect.empty()) {
        if (b.cycle - t0 > limit) fail("RX: %zu frames not seen after %llu cycles", expect.size(), (unsigned long long)limit);
        uint32_t head = b.rd(MGMT_RX_HEAD);
        if (!(head & MGMT_RX_HEAD_VALID_MASK)) {
            b.idle(b.rng() % 20);
            continue;
        }
        fw_read_frame(b, expect.front(), popped % RX_SLOTS, nth++);
        expect.pop_front();
        popped++;
        if (b.rng() % 4 == 0) b.idle(b.rng() % 200);  // a slow firmware now and then
    }
    b.drain_rx(100000);
    expect_eq("rx_head after the last frame was read (empty ring)", 0, b.rd(MGMT_RX_HEAD));
    expect_eq("rx_count after the last frame was read", 0, b.rd(MGMT_RX_COUNT));
    expect_counters(b, "after the stream", c);
    if (b.rx_not_ready) fail("s_axis_mgmt: tready was low for %llu cycles (it must never stall)", (unsigned long long)b.rx_not_ready);
    std::printf("rx_stream: %d frames sent, %u stored and read back, %u too long, %u bad\n", nframes, c.frames, c.too_long, c.bad);
}

// No reader: the first RX_SLOTS frames that are good are stored, everything
// arriving after that is dropped whole as full (counted once per frame);
// after the firmware reads and pops, the ring takes frames again.
static void test_rx_full(Bench &b) {
    Counters c;
    std::vector<Bytes> stored;
    unsigned taken = 0;
    for (int round = 0; round < 2; round++) {
        unsigned nframes = RX_SLOTS + 6;
        for (unsigned i = 0; i < nframes; i++) {
            RxFrame f;
            size_t len = (i == 2) ? SLOT_BYTES + 64 : (i == RX_SLOTS + 1 ? 1514 : random_len(b.rng));
            f.data = random_bytes(b.rng, len);
            f.bad = (i == 4);
            Verdict v = verdict(f, taken);
            count(c, v);
            if (v == STORED) {
                stored.push_back(f.data);
                taken++;
            }
            b.rx_todo.push_back(f);
        }
        b.drain_rx(200000);
        char w[64];
        std::snprintf(w, sizeof w, "round %d: rx_count with the ring full", round);
        expect_eq(w, RX_SLOTS, b.rd(MGMT_RX_COUNT));
        std::snprintf(w, sizeof w, "round %d", round);
        expect_counters(b, w, c);
        // read everything back: the ring kept the first RX_SLOTS good frames
        for (unsigned i = 0; i < RX_SLOTS; i++)
            fw_read_frame(b, stored[round * RX_SLOTS + i], (round * RX_SLOTS + i) % RX_SLOTS, round * RX_SLOTS + i);
        taken = 0;
        std::snprintf(w, sizeof w, "round %d: rx_count after reading everything", round);
        expect_eq(w, 0, b.rd(MGMT_RX_COUNT));
        b.wr(MGMT_RX_POP, 1);  // a pop on the empty ring does nothing
        expect_eq("rx_count after a pop on the empty ring", 0, b.rd(MGMT_RX_COUNT));
    }
    std::printf("rx_full: %u stored, %u dropped full, %u too long, %u bad\n", c.frames, c.full, c.too_long, c.bad);
}

// The firmware fills TX slots while earlier ones go out under random
// back-pressure; every frame must come out byte-exact and in order.
static void fill_slot(Bench &b, unsigned slot, const Bytes &f) {
    uint32_t base = TX_WIN + slot * SLOT_BYTES;
    unsigned nwords = (unsigned)((f.size() + 3) / 4);
    std::vector<unsigned> order(nwords);
    for (unsigned i = 0; i < nwords; i++) order[i] = i;
    if (b.rng() % 2) std::shuffle(order.begin(), order.end(), b.rng);
    auto word = [&](unsigned i) {
        uint32_t v = 0;
        for (unsigned j = 0; j < 4; j++) v |= (uint32_t)(4 * i + j < f.size() ? f[4 * i + j] : (uint8_t)b.rng()) << (8 * j);
        return v;
    };
    for (unsigned i : order) {
        uint32_t v = word(i);
        if (b.rng() % 4) {
            b.wr(base + 4 * i, v, 0xf);
        } else {
            // pieces: garbage first with all lanes, then the lanes in random groups
            b.wr(base + 4 * i, ~v, 0xf);
            uint8_t left = 0xf;
            while (left) {
                uint8_t be = (uint8_t)(b.rng() & left);
                if (!be) continue;
                uint32_t noise = (uint32_t)b.rng();
                uint32_t mask = 0;
                for (int j = 0; j < 4; j++)
                    if (be >> j & 1) mask |= 0xffu << (8 * j);
                b.wr(base + 4 * i, (v & mask) | (noise & ~mask), be);  // lanes outside be carry noise
                left &= (uint8_t)~be;
            }
        }
    }
}

static unsigned tx_free(uint32_t st) { return (st & MGMT_TX_STATUS_FREE_MASK) >> MGMT_TX_STATUS_FREE_SHIFT; }
static unsigned tx_slot(uint32_t st) { return (st & MGMT_TX_STATUS_SLOT_MASK) >> MGMT_TX_STATUS_SLOT_SHIFT; }

static void wait_tx(Bench &b, size_t nframes, uint64_t limit) {
    uint64_t t0 = b.cycle;
    while (b.tx_got.size() < nframes) {
        b.tick();
        if (b.cycle - t0 > limit) fail("TX: %zu of %zu frames out after %llu cycles", b.tx_got.size(), nframes, (unsigned long long)limit);
    }
    b.idle(10);
}

static void test_tx_stream(Bench &b, int nframes) {
    std::vector<Bytes> sent;
    unsigned tail = 0;
    uint64_t t0 = b.cycle;
    while ((int)sent.size() < nframes) {
        if (b.cycle - t0 > 20000ull * nframes) fail("TX: firmware stuck with %zu frames handed over", sent.size());
        // frames handed over and not yet taken, before and after the status read
        unsigned before = (unsigned)(sent.size() - b.tx_got.size());
        uint32_t st = b.rd(MGMT_TX_STATUS);
        unsigned after = (unsigned)(sent.size() - b.tx_got.size());
        // a slot is free once its last beat left the RAM: at most one more than the frames not yet taken say
        if (tx_free(st) > TX_SLOTS || tx_free(st) + before < TX_SLOTS || tx_free(st) + after > TX_SLOTS + 1)
            fail("tx_status.free %u with %u..%u frames handed over and not yet taken (expected %u..%u)", tx_free(st),
                 after, before, TX_SLOTS - before, TX_SLOTS - after + 1);
        expect_eq("tx_status.slot (the slot to fill next)", tail, tx_slot(st));
        if (tx_free(st) == 0) {
            b.idle(b.rng() % 30);
            continue;
        }
        Bytes f = random_bytes(b.rng, random_len(b.rng));
        fill_slot(b, tail, f);
        b.wr(MGMT_TX_SEND, (uint32_t)f.size() | ((uint32_t)b.rng() << 16 & 0xffff0000u));  // upper bits ignored
        sent.push_back(f);
        tail = (tail + 1) % TX_SLOTS;
    }
    wait_tx(b, sent.size(), 200000);
    expect_eq("frames out of m_axis_mgmt", sent.size(), b.tx_got.size());
    for (size_t i = 0; i < sent.size(); i++) {
        char w[64];
        std::snprintf(w, sizeof w, "TX frame %zu", i);
        expect_bytes(w, sent[i], b.tx_got[i]);
    }
    expect_eq("tx_frames", sent.size(), b.rd(MGMT_TX_FRAMES));
    expect_eq("tx_err", 0, b.rd(MGMT_TX_ERR));
    uint32_t st = b.rd(MGMT_TX_STATUS);
    expect_eq("tx_status.free when everything went out", TX_SLOTS, tx_free(st));
    expect_eq("tx_status.busy when everything went out", 0, (st & MGMT_TX_STATUS_BUSY_MASK) >> MGMT_TX_STATUS_BUSY_SHIFT);
    std::printf("tx_stream: %zu frames byte-exact, %llu beats\n", sent.size(), (unsigned long long)b.tx_beats);
}

// Bad tx_send writes are ignored and counted; with the arbiter stalled the
// slots fill up and a further send is refused; then everything queued goes
// out back to back, one beat per cycle (no bubble inside or between frames).
static void test_tx_errors_and_line_rate(Bench &b) {
    b.tx_stalled = true;
    uint32_t errs = 0;
    b.wr(MGMT_TX_SEND, 0);
    errs++;
    b.wr(MGMT_TX_SEND, SLOT_BYTES + 1);
    errs++;
    expect_eq("tx_err after LEN 0 and LEN slot_bytes+1", errs, b.rd(MGMT_TX_ERR));
    expect_eq("tx_status.free after refused sends", TX_SLOTS, tx_free(b.rd(MGMT_TX_STATUS)));
    std::vector<Bytes> sent;
    size_t beats = 0;
    const size_t lens[] = {SLOT_BYTES, 60, 65, 1514, 64, 129};
    for (unsigned i = 0; i < TX_SLOTS; i++) {
        Bytes f = random_bytes(b.rng, lens[i % 6]);
        fill_slot(b, i, f);
        b.wr(MGMT_TX_SEND, (uint32_t)f.size());
        sent.push_back(f);
        beats += (f.size() + 63) / 64;
    }
    expect_eq("tx_status.free with every slot queued", 0, tx_free(b.rd(MGMT_TX_STATUS)));
    b.wr(MGMT_TX_SEND, 100);
    errs++;
    expect_eq("tx_err after a send with no free slot", errs, b.rd(MGMT_TX_ERR));
    b.idle(20);
    expect_eq("frames out while the arbiter stalls", 0, b.tx_got.size());
    b.tx_seen_valid = false;
    b.tx_stalled = false;
    b.ready_pct = 100;
    uint64_t start = b.cycle;
    wait_tx(b, sent.size(), 10000);
    for (size_t i = 0; i < sent.size(); i++) {
        char w[64];
        std::snprintf(w, sizeof w, "TX frame %zu", i);
        expect_bytes(w, sent[i], b.tx_got[i]);
    }
    expect_eq("frames out: no extra frame from the refused sends", sent.size(), b.tx_got.size());
    uint64_t took = b.tx_last_beat - start + 1;
    expect_eq("cycles to send the queued frames with tready high (= beats: no bubble)", beats, took);
    expect_eq("tx_frames", sent.size(), b.rd(MGMT_TX_FRAMES));
    std::printf("tx_line_rate: %zu frames, %zu beats in %llu cycles\n", sent.size(), beats, (unsigned long long)took);
}

// Identity registers and bus errors of the windows.
static void test_regs_and_bus(Bench &b) {
    expect_eq("mgmt id", MGMT_ID_VALUE, b.rd(MGMT_ID));
    expect_eq("mgmt version", MGMT_VERSION_VALUE, b.rd(MGMT_VERSION));
    expect_eq("mgmt instance (tb parameter)", INSTANCE, b.rd(MGMT_INSTANCE));
    uint32_t cfg = b.rd(MGMT_CONFIG);
    expect_eq("config.rx_slots", RX_SLOTS, (cfg & MGMT_CONFIG_RX_SLOTS_MASK) >> MGMT_CONFIG_RX_SLOTS_SHIFT);
    expect_eq("config.tx_slots", TX_SLOTS, (cfg & MGMT_CONFIG_TX_SLOTS_MASK) >> MGMT_CONFIG_TX_SLOTS_SHIFT);
    expect_eq("config.slot_bytes", SLOT_BYTES, (cfg & MGMT_CONFIG_SLOT_BYTES_MASK) >> MGMT_CONFIG_SLOT_BYTES_SHIFT);
    expect_eq("rx_head after reset", 0, b.rd(MGMT_RX_HEAD));
    uint32_t st = b.rd(MGMT_TX_STATUS);
    expect_eq("tx_status after reset", TX_SLOTS, st);
    bool err;
    b.wr(RX_WIN, 0x12345678, 0xf, &err);
    expect_eq("err for a write to the RX window", 1, err);
    b.rd(RX_WIN + RX_SLOTS * SLOT_BYTES, &err);
    expect_eq("err for a read past the RX slots", 1, err);
    b.rd(RX_WIN + RX_SLOTS * SLOT_BYTES - 4, &err);
    expect_eq("err for a read of the last RX word", 0, err);
    b.rd(TX_WIN, &err);
    expect_eq("err for a read of the TX window", 1, err);
    b.wr(TX_WIN + TX_SLOTS * SLOT_BYTES, 0, 0xf, &err);
    expect_eq("err for a write past the TX slots", 1, err);
    b.wr(TX_WIN + TX_SLOTS * SLOT_BYTES - 4, 0, 0xf, &err);
    expect_eq("err for a write of the last TX word", 0, err);
    expect_eq("tx_err (window errors are bus errors, not send errors)", 0, b.rd(MGMT_TX_ERR));
    expect_eq("frames out after window accesses", 0, b.tx_got.size());
    // the RX side's frames appear only whole: a frame stalled in the middle is not visible
    RxFrame f{random_bytes(b.rng, 300), false};
    b.rx_todo.push_back(f);
    for (uint64_t t0 = b.cycle; b.rx_off < 128 || !b.rx_in_frame;) {  // two beats in
        b.tick();
        if (b.cycle - t0 > 1000) fail("RX: two beats not sent within 1000 cycles");
    }
    b.idle_pct = 100;                                    // the demux pauses mid-frame
    b.idle(50);
    expect_eq("rx_head while a frame is half in", 0, b.rd(MGMT_RX_HEAD));
    expect_eq("rx_count while a frame is half in", 0, b.rd(MGMT_RX_COUNT));
    b.idle_pct = 0;
    b.drain_rx(1000);
    fw_read_frame(b, f.data, 0, 0);
}

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    auto arg = [&](const char *name, const char *def) {
        std::string key = std::string("+") + name + "=";
        for (int i = 1; i < argc; i++)
            if (std::string(argv[i]).rfind(key, 0) == 0) return std::string(argv[i] + key.size());
        return std::string(def);
    };
    test_name = arg("test", "");
    uint64_t seed = std::stoull(arg("seed", "1"));
    Bench b(argc, argv, seed);
    b.idle_pct = std::stoi(arg("idle", "20"));
    b.ready_pct = std::stoi(arg("ready", "70"));
    int nframes = std::stoi(arg("frames", "200"));
    if (test_name == "rx_stream")
        test_rx_stream(b, nframes);
    else if (test_name == "rx_full")
        test_rx_full(b);
    else if (test_name == "tx_stream")
        test_tx_stream(b, nframes);
    else if (test_name == "tx_errors_line_rate")
        test_tx_errors_and_line_rate(b);
    else if (test_name == "regs_bus")
        test_regs_and_bus(b);
    else {
        std::printf("FAIL: unknown +test=%s (rx_stream rx_full tx_stream tx_errors_line_rate regs_bus)\n", test_name.c_str());
        return 2;
    }
    std::printf("PASSED %s (seed %llu, %llu cycles)\n", test_name.c_str(), (unsigned long long)seed, (unsigned long long)b.cycle);
    return 0;
}
