// eth_wire: see eth_wire.h.
#include "eth_wire.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

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
    // Draw every decision each time so the random stream does not depend on which faults fire.
    double r_drop = u(rng_), r_dup = u(rng_), r_reord = u(rng_), r_corr = u(rng_);
    uint64_t r_pos = rng_();
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
    uint64_t gap = (uint64_t)wire_cycles(f.size()) + 1;
    if (held_) {
        // the held frame goes behind this one
        held_ = false;
        Frame dup = f;
        deliver(arrive, std::move(f));
        deliver(arrive + gap, std::move(held_frame_.frame));
        if (r_dup < fl.duplicate) {
            stats_.duplicated++;
            deliver(arrive + 2 * gap, std::move(dup));
        }
        return;
    }
    if (r_reord < fl.reorder) {
        held_ = true;
        held_frame_ = InFlight{arrive, std::move(f)};
        stats_.reordered++;
        return;
    }
    if (r_dup < fl.duplicate) {
        stats_.duplicated++;
        deliver(arrive + gap, f);
    }
    deliver(arrive, std::move(f));
}

bool Link::pop_arrived(uint64_t now, Frame &out) {
    if (held_ && now >= held_frame_.arrive + kHoldLimitCycles) {
        held_ = false;
        deliver(now, std::move(held_frame_.frame));
    }
    if (in_flight_.empty() || in_flight_.front().arrive > now) return false;
    out = std::move(in_flight_.front().frame);
    in_flight_.pop_front();
    return true;
}

bool parse_config(const std::string &spec, Config &cfg, std::string &err) {
    std::stringstream ss(spec);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty()) continue;
        auto eq = item.find('=');
        if (eq == std::string::npos) {
            err = "wire option '" + item + "' needs a value (key=value)";
            return false;
        }
        std::string k = item.substr(0, eq), v = item.substr(eq + 1);
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
        else if (k == "delay") cfg.delay_cycles = (uint64_t)d;
        else if (k == "seed") cfg.seed = (uint64_t)d;
        else if (k == "rate") {
            if (d < 1e6) { err = "wire option 'rate' is in bits per second (e.g. 100e9)"; return false; }
            cfg.rate_bps = (uint64_t)d;
        } else if (k == "clk") {
            if (d < 1e3) { err = "wire option 'clk' is in Hz"; return false; }
            cfg.clk_hz = (uint64_t)d;
        } else {
            err = "unknown wire option '" + k + "' (drop, dup, reorder, corrupt, skip, delay, seed, rate, clk)";
            return false;
        }
    }
    return true;
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
