// mem_model: sparse memory store and AXI4 slave behaviour of mem_axi_ram
// (see mem_model.h for the harness API, mem_axi_ram.sv for the RTL side).
#include "mem_model.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "svdpi.h"

namespace {

constexpr uint64_t kPage = 4096;
constexpr unsigned kBeat = 64;

struct Burst {
    uint64_t addr; // address of the first beat (aligned down to 64 bytes)
    unsigned beats;
    unsigned id;
    uint64_t due;      // cycle from which its first response may be presented
    unsigned done = 0; // beats handled
    unsigned resp = 0; // worst response so far (writes)
};

struct ErrRange {
    uint64_t lo, hi;
    unsigned resp;
};

struct Instance {
    std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages;
    mem_model_cfg cfg;
    bool user_cfg = false;
    std::string overrides;  // mem_model_set_overrides: keys over the RTL's parameters
    std::vector<ErrRange> errs;
    mem_model_stats st{};
    uint64_t rng = 1;
    uint64_t cycle = 0;
    int64_t credit = 0;     // bandwidth budget in bytes (cfg.bw_bytes != 0)
    bool w_turn = false;    // a write beat goes first when only one fits the budget
    std::deque<Burst> rq, awq, bq;
    // outputs driven in the current cycle
    bool arready = false, rvalid = false, rlast = false, awready = false, wready = false,
         bvalid = false;
    uint32_t rdata[16] = {};
    unsigned rresp = 0, rid = 0, bresp = 0, bid = 0;

    uint8_t *page(uint64_t a, bool create) {
        auto it = pages.find(a / kPage);
        if (it != pages.end()) return it->second.get();
        if (!create) return nullptr;
        auto p = std::make_unique<uint8_t[]>(kPage);
        std::memset(p.get(), 0, kPage);
        uint8_t *raw = p.get();
        pages.emplace(a / kPage, std::move(p));
        return raw;
    }
    void write(uint64_t a, const uint8_t *d, size_t n) {
        while (n) {
            size_t chunk = std::min<uint64_t>(n, kPage - a % kPage);
            std::memcpy(page(a, true) + a % kPage, d, chunk);
            a += chunk, d += chunk, n -= chunk;
        }
    }
    void read(uint64_t a, uint8_t *d, size_t n) {
        while (n) {
            size_t chunk = std::min<uint64_t>(n, kPage - a % kPage);
            const uint8_t *p = page(a, false);
            if (p)
                std::memcpy(d, p + a % kPage, chunk);
            else
                std::memset(d, 0, chunk);
            a += chunk, d += chunk, n -= chunk;
        }
    }
    unsigned err_resp(uint64_t lo, uint64_t hi) const { // [lo, hi)
        unsigned r = 0;
        for (const auto &e : errs)
            if (lo < e.hi && e.lo < hi && e.resp > r) r = e.resp;
        return r;
    }
    bool in_err(uint64_t a) const {
        for (const auto &e : errs)
            if (a >= e.lo && a < e.hi) return true;
        return false;
    }
    uint64_t next_rand() { // xorshift64*
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        return rng * 0x2545F4914F6CDD1Dull;
    }
    uint64_t jitter() { return cfg.latency_jitter ? next_rand() % (cfg.latency_jitter + 1) : 0; }
    bool stall() { return cfg.stall_permille && next_rand() % 1000 < cfg.stall_permille; }
    void violation(const char *what, uint64_t addr) {
        st.violations++;
        if (st.violations <= 10)
            std::fprintf(stderr, "mem_model: protocol error: %s (addr 0x%llx)\n", what,
                         (unsigned long long)addr);
    }
    void check_burst(uint64_t addr, unsigned len, unsigned size, unsigned burst) {
        if (size != 6) violation("burst size is not 64 bytes", addr);
        if (burst != 1) violation("burst type is not INCR", addr);
        uint64_t first = addr & ~uint64_t(kBeat - 1);
        if (first / kPage != (first + uint64_t(len + 1) * kBeat - 1) / kPage)
            violation("burst crosses a 4 KiB boundary", addr);
    }
};

std::map<int, Instance> g_inst;

Instance &inst_of(int inst) {
    auto it = g_inst.find(inst);
    if (it == g_inst.end()) {
        it = g_inst.emplace(inst, Instance{}).first;
        it->second.rng = it->second.cfg.seed | 1;
    }
    return it->second;
}

} // namespace

void mem_model_configure(int inst, const mem_model_cfg &cfg) {
    Instance &m = inst_of(inst);
    m.cfg = cfg;
    m.user_cfg = true;
    m.rng = cfg.seed * 0x9E3779B97F4A7C15ull | 1;
}

void mem_model_set_overrides(int inst, const std::string &spec) {
    inst_of(inst).overrides = spec;
}

mem_model_cfg mem_model_get_config(int inst) {
    return inst_of(inst).cfg;
}

void mem_model_write(int inst, uint64_t addr, const void *data, size_t len) {
    inst_of(inst).write(addr, static_cast<const uint8_t *>(data), len);
}

void mem_model_read(int inst, uint64_t addr, void *data, size_t len) {
    inst_of(inst).read(addr, static_cast<uint8_t *>(data), len);
}

void mem_model_clear(int inst) {
    inst_of(inst).pages.clear();
}

size_t mem_model_pages(int inst) {
    return inst_of(inst).pages.size();
}

void mem_model_add_error_range(int inst, uint64_t lo, uint64_t hi, unsigned resp) {
    inst_of(inst).errs.push_back({lo, hi, resp & 3});
}

void mem_model_clear_error_ranges(int inst) {
    inst_of(inst).errs.clear();
}

mem_model_stats mem_model_get_stats(int inst) {
    return inst_of(inst).st;
}

// ------------------------------------------------------------------ DPI side
extern "C" void mem_model_axi_params(int inst, int rd_latency, int wr_latency, int stall_permille,
                                     long long seed) {
    Instance &m = inst_of(inst);
    if (m.user_cfg) return; // the harness configured this instance: it wins
    m.cfg.rd_latency = unsigned(rd_latency);
    m.cfg.wr_latency = unsigned(wr_latency);
    m.cfg.stall_permille = unsigned(stall_permille);
    m.cfg.seed = uint64_t(seed);
    if (!m.overrides.empty()) {
        std::string err;  // (checked when the harness set it)
        mem_model_parse_config(m.overrides, m.cfg, err);
    }
    m.rng = m.cfg.seed * 0x9E3779B97F4A7C15ull | 1;
}

extern "C" void mem_model_axi_tick(int inst, svBit rst, svBit arvalid, long long araddr, int arlen,
                                   int arsize, int arburst, int arid, svBit rready, svBit awvalid,
                                   long long awaddr, int awlen, int awsize, int awburst, int awid,
                                   svBit wvalid, const svBitVecVal *wdata, long long wstrb,
                                   svBit wlast, svBit bready, svBit *arready_o, svBit *rvalid_o,
                                   svBitVecVal *rdata_o, int *rresp_o, svBit *rlast_o, int *rid_o,
                                   svBit *awready_o, svBit *wready_o, svBit *bvalid_o, int *bresp_o,
                                   int *bid_o) {
    Instance &m = inst_of(inst);
    if (rst) {
        m.rq.clear();
        m.awq.clear();
        m.bq.clear();
        m.arready = m.rvalid = m.rlast = m.awready = m.wready = m.bvalid = false;
        m.credit = 0;
    } else {
        m.st.cycles++;
        // ---- handshakes of the cycle that ends
        if (arvalid && m.arready) {
            uint64_t a = uint64_t(araddr);
            m.check_burst(a, unsigned(arlen), unsigned(arsize), unsigned(arburst));
            m.rq.push_back({a & ~uint64_t(kBeat - 1), unsigned(arlen) + 1, unsigned(arid),
                            m.cycle + m.cfg.rd_latency + m.jitter()});
            m.st.ar_bursts++;
        }
        if (m.rvalid && rready) {
            m.rvalid = false;
            m.st.r_beats++;
        }
        if (awvalid && m.awready) {
            uint64_t a = uint64_t(awaddr);
            m.check_burst(a, unsigned(awlen), unsigned(awsize), unsigned(awburst));
            m.awq.push_back({a & ~uint64_t(kBeat - 1), unsigned(awlen) + 1, unsigned(awid), 0});
            m.st.aw_bursts++;
        }
        if (wvalid && m.wready) {
            if (m.cfg.bw_bytes) m.credit -= kBeat, m.w_turn = false;
            Burst &b = m.awq.front();
            uint64_t a = b.addr + uint64_t(b.done) * kBeat;
            uint8_t bytes[kBeat];
            std::memcpy(bytes, wdata, kBeat); // svBitVecVal words are little endian
            uint64_t strb = uint64_t(wstrb);
            unsigned resp = m.err_resp(a, a + kBeat);
            if (resp) m.st.err_beats++;
            for (unsigned i = 0; i < kBeat; i++) {
                if (!((strb >> i) & 1)) continue;
                if (resp && m.in_err(a + i)) continue;
                m.page(a + i, true)[(a + i) % kPage] = bytes[i];
            }
            if (resp > b.resp) b.resp = resp;
            b.done++;
            bool last = b.done == b.beats;
            if (bool(wlast) != last) m.violation(last ? "wlast missing" : "early wlast", a);
            m.st.w_beats++;
            if (last) {
                b.due = m.cycle + m.cfg.wr_latency + m.jitter();
                m.bq.push_back(b);
                m.awq.pop_front();
            }
        }
        if (m.bvalid && bready) {
            m.bvalid = false;
            m.st.b_resps++;
        }

        // ---- outputs of the cycle that starts
        bool r_can = !m.rvalid && !m.rq.empty() && m.rq.front().due <= m.cycle && !m.stall();
        bool w_can = !m.awq.empty() && !m.stall();
        if (m.cfg.bw_bytes) {
            m.credit = std::min<int64_t>(m.credit + m.cfg.bw_bytes, 2 * kBeat);
            if (r_can && w_can && m.credit < 2 * kBeat) {
                if (m.w_turn)
                    r_can = false;
                else
                    w_can = false;
            }
            if (r_can && m.credit < kBeat) r_can = false;
            if (r_can) m.credit -= kBeat, m.w_turn = true;
            if (w_can && m.credit < kBeat) w_can = false; // paid when the beat is taken
        }
        if (r_can) {
            Burst &b = m.rq.front();
            uint64_t a = b.addr + uint64_t(b.done) * kBeat;
            uint8_t bytes[kBeat];
            unsigned resp = m.err_resp(a, a + kBeat);
            if (resp) {
                std::memset(bytes, 0xDE, kBeat);
                m.st.err_beats++;
            } else {
                m.read(a, bytes, kBeat);
            }
            std::memcpy(m.rdata, bytes, kBeat);
            m.rvalid = true;
            m.rresp = resp;
            m.rid = b.id;
            b.done++;
            m.rlast = b.done == b.beats;
            if (m.rlast) m.rq.pop_front();
        }
        if (!m.bvalid && !m.bq.empty() && m.bq.front().due <= m.cycle && !m.stall()) {
            m.bvalid = true;
            m.bresp = m.bq.front().resp;
            m.bid = m.bq.front().id;
            m.bq.pop_front();
        }
        m.arready = m.rq.size() < m.cfg.max_outstanding && !m.stall();
        m.awready = m.awq.size() + m.bq.size() < m.cfg.max_outstanding && !m.stall();
        m.wready = w_can;
        m.cycle++;
    }
    *arready_o = m.arready;
    *rvalid_o = m.rvalid;
    std::memcpy(rdata_o, m.rdata, kBeat);
    *rresp_o = int(m.rresp);
    *rlast_o = m.rlast;
    *rid_o = int(m.rid);
    *awready_o = m.awready;
    *wready_o = m.wready;
    *bvalid_o = m.bvalid;
    *bresp_o = int(m.bresp);
    *bid_o = int(m.bid);
}

bool mem_model_parse_config(const std::string &spec, mem_model_cfg &cfg, std::string &err) {
    std::stringstream ss(spec);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty()) continue;
        size_t eq = item.find('=');
        std::string k = item.substr(0, eq), v = eq == std::string::npos ? "" : item.substr(eq + 1);
        char *end = nullptr;
        unsigned long long n = v.empty() ? 0 : std::strtoull(v.c_str(), &end, 0);
        if (v.empty() || *end != '\0' || v[0] == '-') {
            err = "memory option '" + k + "' needs a non-negative integer (key=value), got '" + item + "'";
            return false;
        }
        if (k != "seed" && n > 1000000) {
            err = "memory option '" + k + "': " + v + " is out of range (at most 1000000)";
            return false;
        }
        if (k == "rd") cfg.rd_latency = (unsigned)n;
        else if (k == "wr") cfg.wr_latency = (unsigned)n;
        else if (k == "jitter") cfg.latency_jitter = (unsigned)n;
        else if (k == "stall" && n <= 1000) cfg.stall_permille = (unsigned)n;
        else if (k == "outstanding" && n >= 1) cfg.max_outstanding = (unsigned)n;
        else if (k == "bw") cfg.bw_bytes = (unsigned)n;
        else if (k == "seed") cfg.seed = n;
        else {
            err = (k == "stall" || k == "outstanding")
                      ? "memory option '" + k + "': " + v + " is out of range (stall 0..1000, outstanding >= 1)"
                      : "unknown memory option '" + k + "' (rd, wr, jitter, stall, outstanding, bw, seed)";
            return false;
        }
    }
    return true;
}
