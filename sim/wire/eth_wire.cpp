// eth_wire: see eth_wire.h.
#include "eth_wire.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace wire {

namespace {
// A reordered frame waits at most this long for a successor before it is released.
constexpr uint64_t kHoldLimitCycles = 20000;

uint64_t ceil_div(unsigned __int128 a, uint64_t b) { return (uint64_t)((a + b - 1) / b); }
}  // namespace

Link::Link(const Config &cfg, uint64_t seed_salt) : cfg_(cfg), rng_(cfg.seed * 0x9E3779B97F4A7C15ull ^ seed_salt) {}

uint64_t Link::free_at() const { return ceil_div(busy_num_, cfg_.rate_bps); }

bool Link::ready(uint64_t now) const {
    // The MAC's TX FIFO takes a frame while the bytes waiting for the serializer fit in it.
    uint64_t fifo_cycles = (uint64_t)wire_cycles(cfg_.tx_fifo_bytes);
    return free_at() <= now + fifo_cycles;
}

double Link::wire_cycles(size_t len) const {
    return (double)(len + cfg_.overhead_bytes) * 8.0 * (double)cfg_.clk_hz / (double)cfg_.rate_bps;
}

void Link::deliver(uint64_t arrive, Frame f) {
    // keep in_flight_ sorted by arrival; equal times keep insertion order
    auto it = in_flight_.end();
    while (it != in_flight_.begin() && std::prev(it)->arrive > arrive) --it;
    in_flight_.insert(it, InFlight{arrive, std::move(f)});
    stats_.frames_out++;
}

bool Link::faulty(const Frame &f) const {
    if (cfg_.faults.udp_port == 0) return true;
    // Ethernet II, IPv4, UDP: the destination port after the IP header
    if (f.size() < 14 + 20 + 8 || f[12] != 0x08 || f[13] != 0x00 || f[14 + 9] != 17) return false;
    size_t udp = 14 + 4u * (f[14] & 0xfu);
    if (f.size() < udp + 8) return false;
    return (uint16_t)(f[udp + 2] << 8 | f[udp + 3]) == cfg_.faults.udp_port;
}

void Link::send(uint64_t now, Frame f) {
    stats_.frames_in++;
    stats_.bytes_in += f.size();
    unsigned __int128 start = (unsigned __int128)now * cfg_.rate_bps;
    if (busy_num_ > start) start = busy_num_;
    unsigned __int128 dur = (unsigned __int128)(f.size() + cfg_.overhead_bytes) * 8u * cfg_.clk_hz;
    busy_num_ = start + dur;
    uint64_t arrive = ceil_div(busy_num_, cfg_.rate_bps) + cfg_.delay_cycles;

    std::uniform_real_distribution<double> u(0.0, 1.0);
    const Faults &fl = cfg_.faults;
    // Draw every decision each time so the random stream does not depend on which faults fire
    // (the draws of depth and jitter only when they are on: older specs keep their streams).
    double r_drop = u(rng_), r_dup = u(rng_), r_reord = u(rng_), r_corr = u(rng_);
    uint64_t r_pos = rng_();
    uint64_t r_depth = fl.reorder_depth > 1 ? rng_() : 0, r_jit = fl.jitter_cycles ? rng_() : 0;
    bool hit = faulty(f);
    if (!hit) r_drop = r_dup = r_reord = r_corr = 1.0, r_jit = 0;
    if (r_drop < fl.drop) {
        stats_.dropped++;
        return;
    }
    if (r_corr < fl.corrupt && f.size() > fl.skip_bytes) {
        size_t span = f.size() - fl.skip_bytes;
        size_t bit = (size_t)(r_pos % (span * 8));
        f[fl.skip_bytes + bit / 8] ^= (uint8_t)(1u << (bit % 8));
        stats_.corrupted++;
    }
    if (fl.jitter_cycles && hit) {
        uint64_t j = r_jit % (fl.jitter_cycles + 1);
        arrive += j;
        if (j) stats_.jittered++;
        if (fl.jitter_inorder) {
            arrive = std::max(arrive, last_jittered_);
            last_jittered_ = arrive;
        }
    }
    uint64_t gap = (uint64_t)wire_cycles(f.size()) + 1;
    // this frame passes the held ones: those it was the last to pass go behind it
    std::vector<Frame> released;
    for (auto it = held_.begin(); it != held_.end();) {
        if (--it->left == 0) {
            released.push_back(std::move(it->f.frame));
            it = held_.erase(it);
        } else {
            ++it;
        }
    }
    if (released.empty() && r_reord < fl.reorder) {
        // (a frame that releases held ones is not held itself)
        uint32_t left = fl.reorder_depth > 1 ? 1u + (uint32_t)(r_depth % fl.reorder_depth) : 1u;
        held_.push_back(Held{InFlight{arrive, std::move(f)}, left});
        stats_.reordered++;
        return;
    }
    bool dup = r_dup < fl.duplicate;
    if (dup) stats_.duplicated++;
    Frame copy;
    if (dup) copy = f;
    deliver(arrive, std::move(f));
    uint64_t t = arrive;
    for (auto &h : released) deliver(t += gap, std::move(h));
    if (dup) deliver(t + gap, std::move(copy));
}

bool Link::pop_arrived(uint64_t now, Frame &out) {
    while (!held_.empty() && now >= held_.front().f.arrive + kHoldLimitCycles) {
        deliver(now, std::move(held_.front().f.frame));
        held_.pop_front();
    }
    if (in_flight_.empty() || in_flight_.front().arrive > now) return false;
    out = std::move(in_flight_.front().frame);
    in_flight_.pop_front();
    return true;
}

bool parse_config(const std::string &spec, Config &cfg, std::string &err) {
    std::string bad;
    bool ok = each_key_value(spec, bad, [&](const std::string &k, const std::string &v) {
        char *end = nullptr;
        errno = 0;
        double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end != '\0' || errno != 0 || d < 0) {
            err = "wire option '" + k + "': '" + v + "' is not a non-negative number";
            return false;
        }
        auto prob = [&](double &dst) {
            if (d > 1) {
                err = "wire option '" + k + "' is a probability: 0..1";
                return false;
            }
            dst = d;
            return true;
        };
        if (k == "drop") { if (!prob(cfg.faults.drop)) return false; }
        else if (k == "dup") { if (!prob(cfg.faults.duplicate)) return false; }
        else if (k == "reorder") { if (!prob(cfg.faults.reorder)) return false; }
        else if (k == "corrupt") { if (!prob(cfg.faults.corrupt)) return false; }
        else if (k == "skip") cfg.faults.skip_bytes = (uint32_t)d;
        else if (k == "depth") {
            if (d < 1 || d > 1000) { err = "wire option 'depth' is the reorder depth in frames: 1..1000"; return false; }
            cfg.faults.reorder_depth = (uint32_t)d;
        } else if (k == "jitter") cfg.faults.jitter_cycles = (uint64_t)d;
        else if (k == "inorder") {
            if (d != 0 && d != 1) { err = "wire option 'inorder' is 0 or 1 (jitter keeps the frames' order)"; return false; }
            cfg.faults.jitter_inorder = d == 1;
        }
        else if (k == "port") {
            if (d > 65535) { err = "wire option 'port' is a UDP port: 0..65535"; return false; }
            cfg.faults.udp_port = (uint16_t)d;
        }
        else if (k == "delay") cfg.delay_cycles = (uint64_t)d;
        else if (k == "seed") cfg.seed = (uint64_t)d;
        else if (k == "rate") {
            if (d < 1e6) { err = "wire option 'rate' is in bits per second (e.g. 100e9)"; return false; }
            cfg.rate_bps = (uint64_t)d;
        } else if (k == "clk") {
            if (d < 1e3) { err = "wire option 'clk' is in Hz"; return false; }
            cfg.clk_hz = (uint64_t)d;
        } else {
            err = "unknown wire option '" + k + "' (drop, dup, reorder, depth, corrupt, jitter, inorder, port, skip, delay, seed, rate, clk)";
            return false;
        }
        return true;
    });
    if (!ok && !bad.empty()) err = "wire option '" + bad + "' needs a value (key=value)";
    return ok;
}

PcapWriter::~PcapWriter() {
    if (fp_) std::fclose(fp_);
}

bool PcapWriter::open(const std::string &path, uint64_t clk_hz, std::string &err) {
    fp_ = std::fopen(path.c_str(), "wb");
    if (!fp_) {
        err = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    clk_hz_ = clk_hz;
    // pcap with nanosecond timestamps (magic a1b23c4d): frames are tens of ns apart.
    // Version 2.4, no zone, no sigfigs, snaplen 65535, LINKTYPE_ETHERNET; host order (little-endian).
    const uint32_t hdr[6] = {0xa1b23c4d, 0x00040002, 0, 0, 65535, 1};
    std::fwrite(hdr, 4, 6, fp_);
    return true;
}

void PcapWriter::write(uint64_t cycle, const Frame &f) {
    if (!fp_) return;
    unsigned __int128 ns = (unsigned __int128)cycle * 1000000000u / clk_hz_;
    uint32_t rec[4] = {(uint32_t)(ns / 1000000000u), (uint32_t)(ns % 1000000000u), (uint32_t)f.size(),
                       (uint32_t)f.size()};
    std::fwrite(rec, 4, 4, fp_);
    std::fwrite(f.data(), 1, f.size(), fp_);
    std::fflush(fp_);
}

}  // namespace wire
