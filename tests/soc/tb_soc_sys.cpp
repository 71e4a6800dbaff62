// Bus-master test bench for soc_sys (the SoC without the core).
//
// The bench plays the core: it drives the instruction fetch port and the sbus
// data port, models a target on the m_ext port (with seeded gnt and response
// delays) and the harness side of the UART character interface (or, in the
// UART_SERIAL=1 build, loops txd back to rxd). Each test checks the SoC
// against expectations written here from docs/DEVELOPING.md and regs/*.toml
// (the ASCII block IDs, the address map), or against a shadow model of the
// memories kept by the bench itself.
//
//   Vsoc_sys_tb TEST [--seed N]     runs one test, exit 0 on pass
//   Vsoc_sys_tb list                prints the test names
//
// Every wait is bounded (BUS_BOUND cycles for a bus response); a failure
// prints what was expected and what came.
#include "Vsoc_sys.h"
#include "verilated.h"

#include <cinttypes>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef SERIAL
#define SERIAL 0
#endif

namespace {

constexpr int BUS_BOUND = 64;  // cycles a bus request may take before the bench gives up
// soc_xbar registers the request and the response: a target sees a request one
// cycle after its grant and its answer reaches the master one cycle late
constexpr int XBAR_LAT = 2;
// a register block (regs/regtool.py) answers two cycles after the request it sees
constexpr int REG_LAT = 2;
// IMEM and DMEM are the decoder's direct targets: the BRAM sees the request in the
// cycle of its grant, the decoder registers the word: rvalid two cycles after the grant
constexpr int MEM_LAT = 2;

// address map (docs/DEVELOPING.md) and register offsets (regs/*.toml)
constexpr uint32_t IMEM_BASE = 0x00000000, IMEM_BYTES = 256 * 1024;
constexpr uint32_t DMEM_BASE = 0x10000000, DMEM_BYTES = 256 * 1024;
constexpr uint32_t SYSINFO = 0x20000000, UART = 0x20001000, TIMER = 0x20002000, SIMCTRL = 0x20003000;
constexpr uint32_t UART_TXDATA = UART + 0x08, UART_RXDATA = UART + 0x0c, UART_STATUS = UART + 0x10,
                   UART_BAUD = UART + 0x14, UART_RXOVF = UART + 0x18, UART_TXOVF = UART + 0x1c;
constexpr uint32_t ST_TX_FULL = 1, ST_TX_EMPTY = 2, ST_RX_VALID = 4, ST_RX_FULL = 8;
constexpr uint32_t MTIME_LO = TIMER + 0x08, MTIME_HI = TIMER + 0x0c, MTIMECMP_LO = TIMER + 0x10,
                   MTIMECMP_HI = TIMER + 0x14;
constexpr uint32_t SIM_EXIT = SIMCTRL + 0x08, SIM_IN_SIM = SIMCTRL + 0x0c;
constexpr uint32_t WDOG = 0x20004000, WDOG_TIMEOUT = WDOG + 0x08, WDOG_KICK = WDOG + 0x0c,
                   WDOG_STOP = WDOG + 0x10, WDOG_ARMED = WDOG + 0x14, WDOG_REMAINING = WDOG + 0x18,
                   WDOG_BITES = WDOG + 0x1c;
constexpr uint32_t WDOG_KICK_KEY = 0x4b49434b, WDOG_STOP_KEY = 0x53544f50;

uint32_t fourcc(const char *s) {
    return (uint32_t(uint8_t(s[0])) << 24) | (uint32_t(uint8_t(s[1])) << 16) |
           (uint32_t(uint8_t(s[2])) << 8) | uint32_t(uint8_t(s[3]));
}

struct Resp {
    bool ok = false;      // a response came within the bound
    bool err = false;
    uint32_t rdata = 0;
    int latency = 0;      // cycles from the request to rvalid
};

class Bench {
  public:
    explicit Bench(const std::vector<std::string> &plusargs, uint32_t seed) : rng_(seed) {
        ctx_ = std::make_unique<VerilatedContext>();
        std::vector<const char *> argv{"Vsoc_sys_tb"};
        for (auto &p : plusargs) argv.push_back(p.c_str());
        ctx_->commandArgs(int(argv.size()), argv.data());
        m_ = std::make_unique<Vsoc_sys>(ctx_.get());
        m_->rst = 1;
        m_->rst_por = 1;
        m_->imem_en = 0;
        m_->dbus_req = 0;
        m_->uart_tx_ready = 1;
        m_->uart_rx_valid = 0;
        m_->uart_rxd = 1;
        m_->m_ext_gnt = 0;
        m_->m_ext_rvalid = 0;
        for (int i = 0; i < 4; i++) tick();
        m_->rst = 0;
        m_->rst_por = 0;
        por_done_ = true;
        settle();
    }
    ~Bench() { m_->final(); }

    Vsoc_sys &m() { return *m_; }
    uint64_t cycle() const { return cycle_; }
    int failures() const { return fails_; }

    // ---- checks
    void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3))) {
        va_list ap;
        va_start(ap, fmt);
        std::printf("FAIL (cycle %" PRIu64 "): ", cycle_);
        std::vprintf(fmt, ap);
        std::printf("\n");
        va_end(ap);
        fails_++;
    }
    bool expect(const char *what, uint64_t expected, uint64_t got) {
        if (expected == got) return true;
        fail("%s: expected 0x%" PRIx64 ", got 0x%" PRIx64, what, expected, got);
        return false;
    }

    // ---- clocking: inputs of the bench's models are settled before each edge
    void settle() {
        m_->eval();
        // soc_top: the watchdog's bite resets everything here but the watchdog
        if (por_done_) m_->rst = m_->wdog_bite;
        m_->eval();
        // m_ext target model: gnt after a delay, response after a delay
        m_->m_ext_gnt = m_->m_ext_req && ext_wait_ >= ext_gnt_delay_;
        m_->m_ext_rvalid = ext_pending_ && ext_resp_wait_ == 0;
        m_->m_ext_rdata = m_->m_ext_rvalid ? ext_resp_data_ : 0xdeadbeef;
        m_->m_ext_err = m_->m_ext_rvalid && ext_resp_err_;
        // UART character interface, harness side
        while (!rx_timed_.empty() && rx_timed_.front().first <= cycle_) {
            rx_queue_.push_back(rx_timed_.front().second);
            rx_timed_.pop_front();
        }
        m_->uart_rx_valid = !SERIAL && !rx_queue_.empty();
        m_->uart_rx_data = rx_queue_.empty() ? 0 : rx_queue_.front();
        if (SERIAL) m_->uart_rxd = loopback_ ? m_->uart_txd : rxd_drive_;
        m_->eval();
    }
    void tick() {
        settle();
        // what happens at this edge
        bool ext_acc = m_->m_ext_req && m_->m_ext_gnt;
        bool ext_resp = m_->m_ext_rvalid;
        if (!SERIAL && m_->uart_tx_valid && m_->uart_tx_ready) tx_seen.push_back(m_->uart_tx_data);
        if (!SERIAL && m_->uart_rx_valid && m_->uart_rx_ready) rx_queue_.pop_front();
        if (SERIAL) txd_trace.push_back(m_->uart_txd);
        if (ext_resp) ext_pending_ = false;
        if (ext_acc) {
            if (ext_pending_) fail("m_ext: request granted while a response is outstanding");
            ext_log.push_back({m_->m_ext_addr, m_->m_ext_we ? 1u : 0u, m_->m_ext_be, m_->m_ext_wdata});
            ext_pending_ = true;
            ext_resp_wait_ = ext_resp_delay >= 0 ? ext_resp_delay : ext_rand_ ? int(rng_() % 4) : 0;
            ext_resp_data_ = ~m_->m_ext_addr;
            ext_resp_err_ = (m_->m_ext_addr & 0xfff) == 0xffc;
            ext_wait_ = 0;
            ext_gnt_delay_ = ext_rand_ ? int(rng_() % 4) : 0;
        } else if (m_->m_ext_req) {
            ext_wait_++;
        }
        if (ext_pending_ && !ext_acc && ext_resp_wait_ > 0) ext_resp_wait_--;
        m_->clk = 1;
        m_->eval();
        m_->clk = 0;
        m_->eval();
        cycle_++;
        ctx_->timeInc(1);
    }
    void idle(int n) {
        for (int i = 0; i < n; i++) tick();
    }

    // ---- the core's data port: one access, bounded
    Resp access(uint32_t addr, bool we, uint32_t be, uint32_t wdata) {
        Resp r;
        uint64_t t0 = cycle_;
        m_->dbus_req = 1;
        m_->dbus_addr = addr;
        m_->dbus_we = we;
        m_->dbus_be = be;
        m_->dbus_wdata = wdata;
        bool gnt = false;
        for (int n = 0; n < BUS_BOUND && !gnt; n++) {
            settle();
            gnt = m_->dbus_gnt;
            if (n > 0 && m_->dbus_rvalid) fail("rvalid without an outstanding request (addr 0x%08x)", addr);
            tick();
        }
        m_->dbus_req = 0;
        m_->dbus_we = 0;
        if (!gnt) {
            fail("no gnt within %d cycles for %s 0x%08x", BUS_BOUND, we ? "write" : "read", addr);
            return r;
        }
        for (int n = 0; n < BUS_BOUND; n++) {
            settle();
            if (m_->dbus_rvalid) {
                r.ok = true;
                r.err = m_->dbus_err;
                r.rdata = m_->dbus_rdata;
                r.latency = int(cycle_ - t0);
                return r;  // the next request may start in this very cycle
            }
            tick();
        }
        fail("no rvalid within %d cycles for %s 0x%08x", BUS_BOUND, we ? "write" : "read", addr);
        return r;
    }
    uint32_t rd(uint32_t addr) {
        Resp r = access(addr, false, 0xf, 0);
        if (r.ok && r.err) fail("read 0x%08x: expected no err, got err", addr);
        return r.rdata;
    }
    void wr(uint32_t addr, uint32_t data, uint32_t be = 0xf) {
        Resp r = access(addr, true, be, data);
        if (r.ok && r.err) fail("write 0x%08x: expected no err, got err", addr);
    }
    // store of 1, 2 or 4 bytes the way the core puts it on the bus
    void store(uint32_t addr, uint32_t val, int size) {
        uint32_t lane = addr & 3;
        uint32_t be = (size == 1 ? 0x1u : size == 2 ? 0x3u : 0xfu) << lane;
        wr(addr & ~3u, val << (8 * lane), be);
    }

    // ---- instruction fetch port: read one word (one cycle latency)
    uint32_t fetch(uint32_t addr) {
        m_->imem_en = 1;
        m_->imem_addr = addr;
        tick();
        m_->imem_en = 0;
        settle();
        return m_->imem_rdata;
    }

    std::mt19937 &rng() { return rng_; }

    // harness side of the UART
    std::deque<uint8_t> rx_queue_;
    std::deque<std::pair<uint64_t, uint8_t>> rx_timed_;  // (cycle, character): offered from that cycle on
    std::vector<uint8_t> tx_seen;
    std::vector<uint8_t> txd_trace;
    bool loopback_ = true;
    bool por_done_ = false;    // after the power-on reset: rst follows the watchdog (soc_top)
    uint8_t rxd_drive_ = 1;

    struct ExtReq { uint32_t addr, we, be, wdata; };
    std::vector<ExtReq> ext_log;
    bool ext_rand_ = false;
    int ext_resp_delay = -1;  // fixed m_ext response delay (cycles after gnt), -1: see ext_rand_

  private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vsoc_sys> m_;
    std::mt19937 rng_;
    uint64_t cycle_ = 0;
    int fails_ = 0;
    // m_ext model
    int ext_wait_ = 0, ext_gnt_delay_ = 0, ext_resp_wait_ = 0;
    bool ext_pending_ = false, ext_resp_err_ = false;
    uint32_t ext_resp_data_ = 0;
};

// ---------------------------------------------------------------- tests

// Every register block answers its ID and VERSION words; sysinfo reports
// the build parameters; scratch is read/write with byte enables.
int t_reg_ids(Bench &b) {
    struct { uint32_t base; const char *id; } blocks[] = {
        {SYSINFO, "SLNC"}, {UART, "UART"}, {TIMER, "TIMR"}, {SIMCTRL, "SIMC"}};
    for (auto &blk : blocks) {
        char what[64];
        std::snprintf(what, sizeof what, "%s ID at 0x%08x", blk.id, blk.base);
        b.expect(what, fourcc(blk.id), b.rd(blk.base));
        std::snprintf(what, sizeof what, "%s VERSION at 0x%08x", blk.id, blk.base + 4);
        b.expect(what, 1, b.rd(blk.base + 4));
    }
    b.expect("sysinfo git_hash (built with GIT_HASH=32'h5011c0de)", 0x5011c0de, b.rd(SYSINFO + 0x08));
    b.expect("sysinfo clk_hz", 250000000, b.rd(SYSINFO + 0x0c));
    b.expect("sysinfo imem_bytes", IMEM_BYTES, b.rd(SYSINFO + 0x10));
    b.expect("sysinfo dmem_bytes", DMEM_BYTES, b.rd(SYSINFO + 0x14));
    b.expect("sysinfo scratch after reset", 0, b.rd(SYSINFO + 0x18));
    b.wr(SYSINFO + 0x18, 0x11223344);
    b.wr(SYSINFO + 0x18, 0xaabbccdd, 0x5);  // bytes 0 and 2 only
    b.expect("sysinfo scratch after a byte-enable write", 0x11bb33dd, b.rd(SYSINFO + 0x18));
    b.wr(SYSINFO + 0x00, 0xffffffff);       // ID is read-only
    b.expect("sysinfo ID after a write to it", fourcc("SLNC"), b.rd(SYSINFO));
    b.expect("simctrl in_sim", 1, b.rd(SIM_IN_SIM));
    b.expect("uart baud_div reset value", 2170, b.rd(UART_BAUD));
    b.expect("timer mtimecmp_lo reset value", 0xffffffff, b.rd(MTIMECMP_LO));
    b.expect("timer mtimecmp_hi reset value", 0xffffffff, b.rd(MTIMECMP_HI));
    return b.failures();
}

// Unmapped addresses answer err within a bound (never hang); mapped ones do not.
int t_unmapped_err(Bench &b) {
    const uint32_t bad[] = {
        IMEM_BASE + IMEM_BYTES,        // just past the instruction BRAM
        0x0fff'fffc,                   // end of the IMEM window
        DMEM_BASE + DMEM_BYTES,        // just past the data BRAM
        0x2000'5000,                   // the first unused register block
        0x2fff'fffc,
        0x2000'0ffc,                   // inside sysinfo, past its registers
        0x2000'1020,                   // inside uart, past its registers
        0x5000'0000, 0x8000'0000, 0xffff'fffc,
    };
    for (uint32_t a : bad) {
        for (int we = 0; we < 2; we++) {
            Resp r = b.access(a, we, 0xf, 0x12345678);
            char what[96];
            std::snprintf(what, sizeof what, "err for %s of unmapped 0x%08x", we ? "write" : "read", a);
            if (!r.ok) continue;  // access() reported the timeout
            b.expect(what, 1, r.err);
            std::snprintf(what, sizeof what, "response latency for unmapped 0x%08x (cycles)", a);
            // an address inside a register block is answered by the block
            bool in_block = (a & 0xffff'c000u) == 0x2000'0000u;
            b.expect(what, in_block ? REG_LAT + XBAR_LAT : 1, r.latency);
        }
    }
    // a write to an unmapped address must not land anywhere: IMEM/DMEM word 0 unchanged
    b.wr(IMEM_BASE, 0x0badf00d);
    b.wr(DMEM_BASE, 0x0badf00d);
    b.access(IMEM_BASE + IMEM_BYTES, true, 0xf, 0xffffffff);
    b.access(DMEM_BASE + DMEM_BYTES, true, 0xf, 0xffffffff);
    b.expect("IMEM word 0 after a write past IMEM", 0x0badf00d, b.rd(IMEM_BASE));
    b.expect("DMEM word 0 after a write past DMEM", 0x0badf00d, b.rd(DMEM_BASE));
    // a mapped access right after an err still works
    Resp r = b.access(0x7000'0000, false, 0xf, 0);
    b.expect("err for 0x70000000", 1, r.err);
    b.expect("sysinfo ID right after an err", fourcc("SLNC"), b.rd(SYSINFO));
    return b.failures();
}

// Byte, halfword and word stores to IMEM and DMEM against a shadow model;
// also their latency: gnt at once, rvalid MEM_LAT cycles later.
int t_mem_bytes(Bench &b) {
    struct Region { const char *name; uint32_t base, bytes; };
    for (Region rg : {Region{"IMEM", IMEM_BASE, IMEM_BYTES}, Region{"DMEM", DMEM_BASE, DMEM_BYTES}}) {
        std::map<uint32_t, uint8_t> shadow;  // byte address -> value; others 0
        auto shadow_word = [&](uint32_t a) {
            uint32_t w = 0;
            for (int i = 0; i < 4; i++) {
                auto it = shadow.find(a + i);
                w |= uint32_t(it == shadow.end() ? 0 : it->second) << (8 * i);
            }
            return w;
        };
        std::vector<uint32_t> touched;
        for (int n = 0; n < 600; n++) {
            int size = 1 << (b.rng()() % 3);
            uint32_t off;
            if (n < 8) off = (n < 4 ? 0 : rg.bytes - 4) + (n % 4);  // both ends
            else off = b.rng()() % 64 + (n % 3 == 0 ? 0 : b.rng()() % rg.bytes);
            off %= rg.bytes;
            off &= ~uint32_t(size - 1);
            uint32_t val = b.rng()();
            b.store(rg.base + off, val, size);
            for (int i = 0; i < size; i++) shadow[off + i] = uint8_t(val >> (8 * i));
            touched.push_back(off & ~3u);
        }
        for (uint32_t w : touched) {
            char what[64];
            std::snprintf(what, sizeof what, "%s word at 0x%08x", rg.name, rg.base + w);
            if (!b.expect(what, shadow_word(w), b.rd(rg.base + w))) break;
        }
        // latency of one read, one write
        Resp r = b.access(rg.base + 8, false, 0xf, 0);
        b.expect("memory read latency (cycles)", MEM_LAT, r.latency);
        r = b.access(rg.base + 8, true, 0xf, 0);
        b.expect("memory write latency (cycles)", MEM_LAT, r.latency);
    }
    // IMEM port A (fetch) sees what the data port wrote
    for (uint32_t a : {0u, 4u, 0x100u, IMEM_BYTES - 4}) {
        uint32_t v = 0xc0de0000u ^ a;
        b.wr(IMEM_BASE + a, v);
        char what[64];
        std::snprintf(what, sizeof what, "fetch port word at 0x%08x", a);
        b.expect(what, v, b.fetch(a));
    }
    for (uint32_t a : {SYSINFO, UART, TIMER, SIMCTRL}) {
        Resp r = b.access(a, false, 0xf, 0);
        b.expect("register block read latency (cycles)", REG_LAT + XBAR_LAT, r.latency);
    }
    return b.failures();
}

// Firmware image loading: +fw=FILE (the run-time path the simulator uses).
int t_fw_load(Bench &b, const std::vector<uint32_t> &image) {
    for (size_t i = 0; i < image.size(); i++) {
        char what[64];
        std::snprintf(what, sizeof what, "loaded word %zu via the data port", i);
        if (!b.expect(what, image[i], b.rd(IMEM_BASE + 4 * i))) break;
        std::snprintf(what, sizeof what, "loaded word %zu via the fetch port", i);
        if (!b.expect(what, image[i], b.fetch(4 * i))) break;
    }
    b.expect("word past the image", 0, b.rd(IMEM_BASE + 4 * image.size()));
    b.expect("last IMEM word", 0, b.rd(IMEM_BASE + IMEM_BYTES - 4));
    return b.failures();
}

// Back-to-back requests (each presented in the cycle the previous rvalid
// arrives) alternating between all kinds of targets, plus the m_ext port with
// seeded gnt and response delays.
int t_ext_port(Bench &b) {
    b.ext_rand_ = true;
    std::vector<Bench::ExtReq> want;
    for (int n = 0; n < 200; n++) {
        uint32_t a = (n & 1 ? 0x4000'0000 : 0x3000'0000) | ((b.rng()() % 0x0fff'ffff) & ~3u);
        if (n % 17 == 0) a = (a & ~0xfffu) | 0xffc;  // the model answers these with err
        bool we = b.rng()() & 1;
        uint32_t be = we ? (1u + b.rng()() % 15) : 0xf;
        uint32_t wd = b.rng()();
        Resp r = b.access(a, we, be, wd);
        want.push_back({a, we, be, wd});
        char what[80];
        std::snprintf(what, sizeof what, "ext err for 0x%08x", a);
        b.expect(what, (a & 0xfff) == 0xffc, r.err);
        if (!we && !r.err) {
            std::snprintf(what, sizeof what, "ext read data from 0x%08x", a);
            b.expect(what, ~a, r.rdata);
        }
        // interleave with a local target
        b.expect("DMEM write between ext accesses", 0, b.access(DMEM_BASE + 4 * n, true, 0xf, n).err);
        if (b.failures()) break;
    }
    b.expect("ext requests seen", want.size(), b.ext_log.size());
    for (size_t i = 0; i < want.size() && i < b.ext_log.size(); i++) {
        auto &w = want[i], &g = b.ext_log[i];
        if (w.addr != g.addr || w.we != g.we || w.be != g.be || (w.we && w.wdata != g.wdata)) {
            b.fail("ext request %zu: expected addr 0x%08x we %u be %x wdata 0x%08x, got addr 0x%08x we %u be %x wdata 0x%08x",
                   i, w.addr, w.we, w.be, w.wdata, g.addr, g.we, g.be, g.wdata);
            break;
        }
    }
    for (int n = 0; n < 200; n++) {
        if (!b.expect("DMEM word written between ext accesses", n, b.rd(DMEM_BASE + 4 * n))) break;
    }
    return b.failures();
}

// A request presented while another is still outstanding (earlier than sbus
// allows) is held: gnt comes in the cycle the outstanding response arrives,
// not before, and both complete correctly.
int t_early_request(Bench &b) {
    b.wr(DMEM_BASE, 0x600df00d);
    b.ext_resp_delay = 4;
    auto &m = b.m();
    m.dbus_req = 1;  // A: ext read, answered late
    m.dbus_we = 0;
    m.dbus_be = 0xf;
    m.dbus_addr = 0x3000'0040;
    b.settle();
    b.expect("gnt of the ext read", 1, m.dbus_gnt);
    b.tick();
    m.dbus_addr = DMEM_BASE;  // B: DMEM read, presented at once
    int a_resp = -1, b_gnt = -1, b_resp = -1;
    for (int n = 0; n < 20 && b_resp < 0; n++) {
        b.settle();
        if (m.dbus_rvalid && a_resp < 0) {
            a_resp = n;
            b.expect("ext read data", ~0x3000'0040u, m.dbus_rdata);
        } else if (m.dbus_rvalid && b_gnt >= 0) {
            b_resp = n;
            b.expect("DMEM read data", 0x600df00d, m.dbus_rdata);
        }
        bool granted = m.dbus_gnt && b_gnt < 0;
        if (granted) b_gnt = n;
        b.tick();
        if (granted) m.dbus_req = 0;
    }
    b.expect("cycle of B's gnt (the cycle A's response arrives)", a_resp, b_gnt);
    b.expect("cycle of B's response", a_resp + MEM_LAT, b_resp);
    return b.failures();
}

// UART, character interface: TX order, FIFO depth, overflow counting, status
// bits; RX order, rx_ready back-pressure at 64, pop on read, empty reads.
int t_uart_chars(Bench &b) {
    const char *msg = "hello, solonic\n";
    for (const char *p = msg; *p; p++) b.wr(UART_TXDATA, uint8_t(*p));
    b.idle(4);
    b.expect("TX characters out", std::strlen(msg), b.tx_seen.size());
    b.expect("TX text", 1, std::string(b.tx_seen.begin(), b.tx_seen.end()) == msg);
    b.expect("status after TX drained (tx_empty)", ST_TX_EMPTY, b.rd(UART_STATUS));
    // hold the harness side: the FIFO fills at 64
    b.tx_seen.clear();
    b.m().uart_tx_ready = 0;
    for (int i = 0; i < 64; i++) b.wr(UART_TXDATA, 0x20 + i);
    b.expect("status with 64 characters queued (tx_full)", ST_TX_FULL, b.rd(UART_STATUS));
    b.wr(UART_TXDATA, '!');  // dropped
    b.wr(UART_TXDATA, '?');  // dropped
    b.expect("tx_overflow after two writes into a full FIFO", 2, b.rd(UART_TXOVF));
    b.m().uart_tx_ready = 1;
    b.idle(70);
    b.expect("TX characters after release", 64, b.tx_seen.size());
    for (int i = 0; i < 64 && i < int(b.tx_seen.size()); i++) {
        if (!b.expect("TX FIFO order", 0x20 + i, b.tx_seen[i])) break;
    }
    // RX
    b.expect("rxdata when empty (valid bit 0)", 0, b.rd(UART_RXDATA) & 0x100);
    for (int i = 0; i < 70; i++) b.rx_queue_.push_back(uint8_t('A' + i % 26));
    b.idle(80);
    b.expect("characters the harness could not deliver (rx_ready low at 64)", 6, b.rx_queue_.size());
    b.expect("status with 64 received (rx_full, rx_valid, tx_empty)", ST_RX_FULL | ST_RX_VALID | ST_TX_EMPTY,
             b.rd(UART_STATUS));
    b.expect("rx_overflow (the harness waits for rx_ready)", 0, b.rd(UART_RXOVF));
    for (int i = 0; i < 70; i++) {
        uint32_t v = b.rd(UART_RXDATA);
        if (!b.expect("rxdata (valid bit and character)", 0x100u | uint8_t('A' + i % 26), v)) break;
    }
    b.expect("rxdata after all read (valid bit 0)", 0, b.rd(UART_RXDATA) & 0x100);
    // a character arriving while a read of the empty FIFO is on its way is
    // kept for the next read (the read's pop acts on what the read saw)
    std::string got;
    for (int d = 0; d < 6; d++) {
        b.rx_timed_.push_back({b.cycle() + d, uint8_t('a' + d)});
        for (int n = 0; n < 4; n++) {
            uint32_t v = b.rd(UART_RXDATA);
            if (v & 0x100) got += char(v & 0xff);
        }
    }
    b.expect("characters arriving around a read of the empty FIFO, none lost", 1, got == "abcdef");
    if (got != "abcdef") std::printf("  got %s\n", got.c_str());
    b.expect("status at the end", ST_TX_EMPTY, b.rd(UART_STATUS));
    return b.failures();
}

// UART bit engine (UART_SERIAL=1 build): 8N1 frames at baud_div cycles per
// bit on txd, looped back to rxd; a frame without its stop bit is dropped.
int t_uart_serial(Bench &b) {
    const uint32_t div = 13;
    b.wr(UART_BAUD, div);
    b.txd_trace.clear();
    const uint8_t chars[] = {0x55, 0x00, 0xff, 0xa5, 'x'};
    for (uint8_t c : chars) b.wr(UART_TXDATA, c);
    // wait for the line to go quiet: 5 frames of 10 bits
    for (int n = 0; n < 20 * 10 * int(div) && !(b.rd(UART_STATUS) & ST_TX_EMPTY); n++) b.idle(1);
    b.expect("tx_empty after the frames left", ST_TX_EMPTY, b.rd(UART_STATUS) & ST_TX_EMPTY);
    // decode txd independently: find start bits, sample mid-bit
    std::vector<uint8_t> &t = b.txd_trace;
    std::vector<uint8_t> got;
    size_t i = 1;
    while (i < t.size()) {
        if (t[i - 1] == 1 && t[i] == 0) {
            // bit k occupies [i + k*div, i + (k+1)*div)
            bool steady = true;
            for (uint32_t k = 0; k < 10 && steady; k++)
                for (uint32_t c = 0; c < div; c++)
                    if (i + k * div + c < t.size() && t[i + k * div + c] != t[i + k * div]) steady = false;
            if (!steady) { b.fail("txd: a bit is not held for baud_div=%u cycles", div); break; }
            uint8_t v = 0;
            for (int k = 0; k < 8; k++) v |= uint8_t(t[i + (k + 1) * div] << k);
            if (i + 9 * div >= t.size() || t[i + 9 * div] != 1) { b.fail("txd: stop bit missing"); break; }
            got.push_back(v);
            i += 10 * div;
        } else {
            i++;
        }
    }
    b.expect("frames seen on txd", sizeof chars, got.size());
    for (size_t k = 0; k < got.size() && k < sizeof chars; k++) b.expect("character on txd", chars[k], got[k]);
    // loopback: the receiver got them all
    for (uint8_t c : chars) b.expect("rxdata from the loopback", 0x100u | c, b.rd(UART_RXDATA));
    b.expect("rxdata after the loopback characters", 0, b.rd(UART_RXDATA) & 0x100);
    // framing error: drive a break (0 for 12 bit times), nothing may arrive
    b.loopback_ = false;
    b.rxd_drive_ = 0;
    b.idle(12 * div);
    b.rxd_drive_ = 1;
    b.idle(4 * div);
    b.expect("rxdata after a break (frame without stop bit dropped)", 0, b.rd(UART_RXDATA) & 0x100);
    // a glitch shorter than half a bit is no start bit
    b.rxd_drive_ = 0;
    b.idle(3);
    b.rxd_drive_ = 1;
    b.idle(12 * div);
    b.expect("rxdata after a 3-cycle glitch", 0, b.rd(UART_RXDATA) & 0x100);
    b.loopback_ = true;
    b.wr(UART_TXDATA, 'k');
    b.idle(12 * div);
    b.expect("rxdata after the errors", 0x100u | 'k', b.rd(UART_RXDATA));
    return b.failures();
}

// Timer: mtime counts cycles; irq_timer rises exactly one cycle after mtime
// reaches mtimecmp and falls when mtimecmp moves past mtime.
int t_timer(Bench &b) {
    uint64_t c0 = b.cycle();
    uint32_t t0 = b.rd(MTIME_LO);
    uint64_t c1 = b.cycle();
    uint32_t t1 = b.rd(MTIME_LO);
    b.expect("mtime advance between two reads equals the cycles between them", c1 - c0, t1 - t0);
    b.expect("mtime_hi early after reset", 0, b.rd(MTIME_HI));
    b.expect("irq_timer with mtimecmp at reset value", 0, b.m().irq_timer);
    // mtime value at cycle c is t0 + (c - c0) - 0 (t0 was sampled at the edge ending cycle c0)
    // Program mtimecmp = now + 200 (hi first, so it never passes through a small value).
    b.wr(MTIMECMP_HI, 0);
    uint64_t now = t0 + (b.cycle() - c0);
    uint64_t cmp = now + 200;
    b.wr(MTIMECMP_LO, uint32_t(cmp));
    // mtime at the start of cycle c + 1 (the value a read granted in c returns:
    // the timer sees the request one cycle after the decoder's grant) is
    // t0 + (c - c0); irq is registered, so it is seen in the cycle after mtime == cmp
    uint64_t rise = c0 + 1 + (cmp - t0) + 1;
    int seen_early = 0;
    while (b.cycle() < rise + 10) {
        b.settle();
        bool irq = b.m().irq_timer;
        if (b.cycle() < rise && irq) seen_early++;
        if (b.cycle() >= rise && !irq) { b.fail("irq_timer low at cycle %" PRIu64 " (expected high from %" PRIu64 ")", b.cycle(), rise); break; }
        b.tick();
    }
    b.expect("cycles irq_timer was high before mtime reached mtimecmp", 0, seen_early);
    // move mtimecmp far away: irq drops
    b.wr(MTIMECMP_LO, 0xffffffff);
    b.wr(MTIMECMP_HI, 0xffffffff);
    b.idle(2);
    b.settle();
    b.expect("irq_timer after mtimecmp moved to the maximum", 0, b.m().irq_timer);
    // a compare in the upper word: mtimecmp_hi = 1 keeps it low
    b.wr(MTIMECMP_LO, 0);
    b.wr(MTIMECMP_HI, 1);
    b.idle(2);
    b.settle();
    b.expect("irq_timer with mtimecmp = 2^32", 0, b.m().irq_timer);
    b.wr(MTIMECMP_HI, 0);
    b.idle(2);
    b.settle();
    b.expect("irq_timer with mtimecmp = 0", 1, b.m().irq_timer);
    return b.failures();
}

// Simulation control: a write to exit raises exit_valid with the code.
int t_simctrl(Bench &b) {
    b.settle();
    b.expect("exit_valid after reset", 0, b.m().exit_valid);
    b.expect("exit register reads 0 (write-only)", 0, b.rd(SIM_EXIT));
    b.wr(SIM_EXIT, 3);
    b.settle();
    b.expect("exit_valid after the write", 1, b.m().exit_valid);
    b.expect("exit_code", 3, b.m().exit_code);
    b.idle(5);
    b.expect("exit_valid stays high", 1, b.m().exit_valid);
    return b.failures();
}

// Watchdog: keys, the count, kicks that keep it quiet, and a bite that resets
// the rest of soc_sys for 16 cycles, is counted, and disarms.
int t_wdog(Bench &b) {
    b.expect("wdog id", fourcc("WDOG"), b.rd(WDOG));
    b.expect("wdog timeout at power-on (1 s at 250 MHz)", 250000000, b.rd(WDOG_TIMEOUT));
    b.expect("wdog armed at power-on", 0, b.rd(WDOG_ARMED));
    b.expect("wdog bites at power-on", 0, b.rd(WDOG_BITES));
    const uint32_t T = 300;
    b.wr(WDOG_TIMEOUT, T);
    b.wr(WDOG_KICK, WDOG_KICK_KEY + 1);
    b.idle(3);
    b.expect("wdog armed after a kick with the wrong key", 0, b.rd(WDOG_ARMED));
    b.wr(WDOG_KICK, WDOG_KICK_KEY);
    b.idle(3);
    b.expect("wdog armed after the kick", 1, b.rd(WDOG_ARMED));
    uint64_t c0 = b.cycle();
    uint32_t r0 = b.rd(WDOG_REMAINING);
    uint64_t c1 = b.cycle();
    uint32_t r1 = b.rd(WDOG_REMAINING);
    b.expect("wdog count falls one a cycle", c1 - c0, r0 - r1);
    b.wr(WDOG_STOP, 0);
    b.idle(3);
    b.expect("wdog armed after a stop with the wrong key", 1, b.rd(WDOG_ARMED));
    b.wr(WDOG_STOP, WDOG_STOP_KEY);
    b.idle(3);
    uint32_t held = b.rd(WDOG_REMAINING);
    b.idle(20);
    b.expect("wdog armed after the stop", 0, b.rd(WDOG_ARMED));
    b.expect("wdog count holds while disarmed", held, b.rd(WDOG_REMAINING));
    // kicks every ~200 cycles (under T) for 3000 cycles: no bite
    b.wr(WDOG_KICK, WDOG_KICK_KEY);
    uint64_t end = b.cycle() + 3000;
    int bite_cycles = 0;
    while (b.cycle() < end) {
        for (int i = 0; i < 200; i++) {
            b.settle();
            bite_cycles += b.m().wdog_bite;
            b.tick();
        }
        b.wr(WDOG_KICK, WDOG_KICK_KEY);
    }
    b.expect("bite cycles while kicked in time", 0, bite_cycles);
    // a value the bite must reset (sysinfo scratch), then no more kicks
    b.wr(SYSINFO + 0x18, 0x5ca1ab1e);
    uint64_t last_kick = b.cycle();
    b.wr(WDOG_KICK, WDOG_KICK_KEY);
    uint64_t rise = 0;
    for (uint64_t n = 0; n < 2u * T && !rise; n++) {
        b.settle();
        if (b.m().wdog_bite) rise = b.cycle();
        else b.tick();
    }
    if (!rise) {
        b.fail("no bite within %u cycles of the last kick", 2 * T);
        return b.failures();
    }
    // the write is seen 1 cycle after its grant (xbar), lands 1 later (regs), the key is
    // registered (1), the count loads (1), then T + 1 decrements to pass zero, then the bite flop
    uint64_t lag = rise - last_kick;
    if (lag < T + 1 || lag > T + 8) b.fail("bite %" PRIu64 " cycles after the kick, expected %u..%u", lag, T + 1, T + 8);
    int high = 0;
    while (b.m().wdog_bite && high < 100) {
        high++;
        b.tick();
        b.settle();
    }
    b.expect("cycles the bite (the SoC's reset) is held", 16, high);
    b.expect("sysinfo scratch after the bite (reset)", 0, b.rd(SYSINFO + 0x18));
    b.expect("wdog bites after the bite", 1, b.rd(WDOG_BITES));
    b.expect("wdog armed after the bite", 0, b.rd(WDOG_ARMED));
    b.expect("wdog timeout survives the bite", T, b.rd(WDOG_TIMEOUT));
    b.idle(2 * T);
    b.settle();
    b.expect("no second bite while disarmed", 0, b.m().wdog_bite);
    return b.failures();
}

}  // namespace

int main(int argc, char **argv) {
    std::map<std::string, std::function<int(Bench &)>> tests;
#if SERIAL
    tests["uart_serial"] = t_uart_serial;
    tests["reg_ids"] = t_reg_ids;
#else
    tests["reg_ids"] = t_reg_ids;
    tests["unmapped_err"] = t_unmapped_err;
    tests["mem_bytes"] = t_mem_bytes;
    tests["ext_port"] = t_ext_port;
    tests["early_request"] = t_early_request;
    tests["uart_chars"] = t_uart_chars;
    tests["timer"] = t_timer;
    tests["simctrl"] = t_simctrl;
    tests["wdog"] = t_wdog;
#endif
    std::string name = argc > 1 ? argv[1] : "";
    uint32_t seed = 1;
    for (int i = 2; i + 1 < argc; i++)
        if (!std::strcmp(argv[i], "--seed")) seed = uint32_t(std::strtoul(argv[i + 1], nullptr, 0));
    if (name == "list") {
        for (auto &t : tests) std::printf("%s\n", t.first.c_str());
        std::printf("fw_load\n");
        return 0;
    }
    int fails;
    if (name == "fw_load") {
        // write an image of seeded words, load it with +fw=, check it
        std::mt19937 rng(seed);
        std::vector<uint32_t> image(1000);
        for (auto &w : image) w = rng();
        char path[] = "/tmp/soc_fw_load_XXXXXX";
        int fd = mkstemp(path);
        if (fd < 0) { std::perror("mkstemp"); return 2; }
        FILE *f = fdopen(fd, "w");
        std::fprintf(f, "// test image\n");
        for (auto w : image) std::fprintf(f, "%08x\n", w);
        std::fclose(f);
        {
            Bench b({std::string("+fw=") + path}, seed);
            fails = t_fw_load(b, image);
        }
        unlink(path);
    } else {
        auto it = tests.find(name);
        if (it == tests.end()) {
            std::fprintf(stderr, "usage: %s TEST [--seed N]  (TEST from '%s list')\n", argv[0], argv[0]);
            return 2;
        }
        Bench b({}, seed);
        fails = it->second(b);
    }
    std::printf("%s: %s\n", name.c_str(), fails ? "FAILED" : "passed");
    return fails ? 1 : 0;
}
