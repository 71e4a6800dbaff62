// fabric::Switch: see switch.h.
#include "switch.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fabric {

namespace {

bool parse_size(const std::string &v, uint64_t &out) {
    if (v.empty() || !std::isdigit(uint8_t(v[0]))) return false;
    char *end;
    errno = 0;
    unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    uint64_t mul = 1;
    if (*end == 'K' || *end == 'k')
        mul = 1024, end++;
    else if (*end == 'M' || *end == 'm')
        mul = 1024 * 1024, end++;
    if (*end || errno) return false;
    out = n * mul;
    return true;
}

// key=value,... into f(key, value) (false from f: the error is set by f, or a generic one)
template <class F> bool each_key(const std::string &spec, std::string &err, F f) {
    std::string bad;
    bool ok = wire::each_key_value(spec, bad, [&](const std::string &k, const std::string &v) {
        if (f(k, v)) return true;
        if (err.empty()) err = "bad value '" + v + "' for " + k;
        return false;
    });
    if (!ok && !bad.empty()) err = "'" + bad + "' is not key=value";
    return ok;
}

bool is_multicast(const uint8_t *mac) {
    return mac[0] & 1;
}

std::string mac_text(const uint8_t *m) {
    char b[18];
    std::snprintf(b, sizeof b, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
    return b;
}

} // namespace

bool parse_config(const std::string &spec, Config &cfg, std::string &err) {
    err.clear();
    return each_key(spec, err, [&](const std::string &k, const std::string &v) {
        if (k == "buffer") return parse_size(v, cfg.buffer_bytes) && cfg.buffer_bytes > 0;
        if (k == "portcap") return parse_size(v, cfg.port_cap_bytes);
        if (k == "kmin") return parse_size(v, cfg.kmin);
        if (k == "kmax") return parse_size(v, cfg.kmax);
        if (k == "seed") return parse_size(v, cfg.seed);
        if (k == "ecn") {
            if (v != "0" && v != "1") return false;
            cfg.ecn = v == "1";
            return true;
        }
        if (k == "pmax") {
            char *end;
            cfg.pmax = std::strtod(v.c_str(), &end);
            return !v.empty() && !*end && cfg.pmax >= 0 && cfg.pmax <= 1;
        }
        err = "unknown key '" + k + "' (buffer, portcap, kmin, kmax, pmax, ecn, seed)";
        return false;
    });
}

bool parse_pfc(const std::string &spec, Config &cfg, std::string &err) {
    err.clear();
    bool xoff = false, xon = false;
    bool ok = each_key(spec, err, [&](const std::string &k, const std::string &v) {
        if (k == "xoff") return xoff = parse_size(v, cfg.xoff);
        if (k == "xon") return xon = parse_size(v, cfg.xon);
        err = "unknown key '" + k + "' (xoff, xon)";
        return false;
    });
    if (!ok) return false;
    if (!xoff || !xon) {
        err = "needs both xoff=BYTES and xon=BYTES";
        return false;
    }
    cfg.pfc = true;
    return true;
}

bool check_config(const Config &cfg, std::string &err) {
    if (cfg.kmin > cfg.kmax)
        err = "kmin must not exceed kmax";
    else if (cfg.pfc && cfg.xon >= cfg.xoff)
        err = "xon must be below xoff";
    else if (cfg.pfc && cfg.xoff >= cfg.buffer_bytes)
        err = "xoff must be below the buffer size";
    else
        return true;
    return false;
}

uint64_t pause_cycles(uint16_t quanta, uint64_t rate_bps, uint64_t clk_hz) {
    unsigned __int128 num = (unsigned __int128)quanta * 512 * clk_hz;
    return uint64_t((num + rate_bps - 1) / rate_bps);
}

Frame make_pause(const uint8_t src[6], uint16_t quanta) {
    Frame f(60, 0);
    const uint8_t dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
    std::memcpy(&f[0], dst, 6);
    std::memcpy(&f[6], src, 6);
    f[12] = 0x88, f[13] = 0x08; // MAC control
    f[14] = 0x00, f[15] = 0x01; // PAUSE
    f[16] = uint8_t(quanta >> 8), f[17] = uint8_t(quanta);
    return f;
}

double red_probability(const Config &cfg, uint64_t q) {
    if (q <= cfg.kmin) return 0;
    if (q > cfg.kmax) return 1;
    if (cfg.kmax == cfg.kmin) return 1;
    return cfg.pmax * double(q - cfg.kmin) / double(cfg.kmax - cfg.kmin);
}

bool mark_ce(Frame &f) {
    if (f.size() < 34 || f[12] != 0x08 || f[13] != 0x00) return false; // IPv4, untagged
    uint8_t *ip = &f[14];
    size_t ihl = size_t(ip[0] & 0xf) * 4;
    if ((ip[0] >> 4) != 4 || ihl < 20 || f.size() < 14 + ihl) return false;
    uint8_t ecn = ip[1] & 3;
    if (ecn == 0 || ecn == 3) return false; // not ECT, or already CE
    // RFC 1624: HC' = ~(~HC + ~m + m') over the 16-bit word holding the TOS
    uint16_t old_word = uint16_t(ip[0] << 8 | ip[1]);
    ip[1] |= 3;
    uint16_t new_word = uint16_t(ip[0] << 8 | ip[1]);
    uint32_t hc = uint16_t(ip[10] << 8 | ip[11]);
    uint32_t sum = (~hc & 0xffff) + (~old_word & 0xffff) + new_word;
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    uint16_t nc = uint16_t(~sum);
    ip[10] = uint8_t(nc >> 8), ip[11] = uint8_t(nc);
    return true;
}

Switch::Switch(int ports, const Config &cfg, const wire::Config &link)
    : Switch(ports, cfg, std::vector<wire::Config>(size_t(ports), link),
             std::vector<wire::Config>(size_t(ports), link)) {}

Switch::Switch(int ports, const Config &cfg, const std::vector<wire::Config> &up,
               const std::vector<wire::Config> &down)
    : cfg_(cfg), rng_(cfg.seed * 0x9e3779b97f4a7c15ull + 0x5717c4) {
    for (int k = 0; k < ports; k++) {
        ports_.push_back(
            std::make_unique<Port>(up[size_t(k)], down[size_t(k)], 0x1000 + uint64_t(k) * 0x10001));
        // a locally administered MAC per port: the source of its pause frames
        const uint8_t mac[6] = {0x02, 0x5e, 0x00, 0x00, 0xff, uint8_t(k)};
        std::memcpy(ports_.back()->mac, mac, 6);
    }
}

int Switch::lookup(const uint8_t mac[6]) const {
    std::array<uint8_t, 6> key;
    std::memcpy(key.data(), mac, 6);
    auto it = table_.find(key);
    return it == table_.end() ? -1 : it->second;
}

std::map<std::string, uint64_t> Switch::take_flow_bytes() {
    std::map<std::string, uint64_t> out;
    out.swap(flow_bytes_);
    return out;
}

void Switch::enqueue(int k, int in, const Frame &f) {
    Port &p = *ports_[size_t(k)];
    uint64_t len = f.size();
    if (used_ + len > cfg_.buffer_bytes ||
        (cfg_.port_cap_bytes && p.q_bytes + len > cfg_.port_cap_bytes)) {
        p.st.drops++;
        return;
    }
    Frame copy = f;
    if (cfg_.ecn) {
        double prob = red_probability(cfg_, p.q_bytes);
        // a draw for every ECT candidate between the thresholds only: the stream
        // does not depend on unmarkable traffic
        if (prob > 0 &&
            (copy.size() >= 16 && copy[12] == 0x08 && copy[13] == 0x00 && (copy[15] & 3) != 0)) {
            bool hit = prob >= 1 || std::uniform_real_distribution<double>(0, 1)(rng_) < prob;
            if (hit && mark_ce(copy)) p.st.ecn_marked++;
        }
    }
    p.q.push_back({std::move(copy), in});
    p.q_bytes += len;
    if (p.q_bytes > p.st.max_queue_bytes) p.st.max_queue_bytes = p.q_bytes;
    used_ += len;
    if (used_ > used_max_) used_max_ = used_;
    ports_[size_t(in)]->in_buf += len;
}

void Switch::pfc_check(int k) {
    if (!cfg_.pfc) return;
    Port &p = *ports_[size_t(k)];
    if (!p.pausing && p.in_buf > cfg_.xoff) {
        p.pausing = true;
        p.control.push_back(make_pause(p.mac, 0xffff));
        p.st.pauses_sent++;
    } else if (p.pausing && p.in_buf <= cfg_.xon) {
        p.pausing = false;
        p.control.push_back(make_pause(p.mac, 0));
        p.st.resumes_sent++;
    }
}

void Switch::ingress(int k, uint64_t now, Frame f) {
    Port &p = *ports_[size_t(k)];
    if (on_frame) on_frame(k, now, f, false);
    if (f.size() < 14) { // a runt: no header to forward by
        p.st.drops++;
        return;
    }
    if (f[12] == 0x88 && f[13] == 0x08) { // MAC control is for this hop only
        p.st.control_in++;
        return;
    }
    p.st.frames_in++;
    p.st.bytes_in += f.size();
    const uint8_t *dst = &f[0], *src = &f[6];
    if (track_flows) flow_bytes_[mac_text(src) + ">" + mac_text(dst)] += f.size();
    if (!is_multicast(src)) {
        std::array<uint8_t, 6> key;
        std::memcpy(key.data(), src, 6);
        table_[key] = k;
    }
    int out = is_multicast(dst) ? -1 : lookup(dst);
    if (out == k) return; // the destination is behind the port it came from: filtered
    if (out >= 0) {
        enqueue(out, k, f);
    } else {
        flooded_++;
        for (int e = 0; e < ports(); e++)
            if (e != k) enqueue(e, k, f);
    }
    pfc_check(k);
}

void Switch::tick(uint64_t now) {
    Frame f;
    for (int k = 0; k < ports(); k++)
        while (ports_[size_t(k)]->up.pop_arrived(now, f))
            ingress(k, now, std::move(f));
    for (int k = 0; k < ports(); k++) {
        Port &p = *ports_[size_t(k)];
        // the next frame is handed over in the cycle in which the serializer frees, so
        // that it starts at the exact (fractional) end of the previous one
        if (p.down.free_at() > now + 1) continue;
        if (!p.control.empty()) {
            p.down.send(now, std::move(p.control.front()));
            p.control.pop_front();
            continue;
        }
        if (p.q.empty()) continue;
        Queued &h = p.q.front();
        uint64_t len = h.f.size();
        int in = h.ingress;
        p.st.frames_out++;
        p.st.bytes_out += len;
        p.down.send(now, std::move(h.f));
        p.q.pop_front();
        p.q_bytes -= len;
        used_ -= len;
        ports_[size_t(in)]->in_buf -= len;
        pfc_check(in);
    }
}

std::string Switch::stats_text() const {
    std::string out;
    char buf[400];
    for (int k = 0; k < ports(); k++) {
        const PortStats &s = ports_[size_t(k)]->st;
        std::snprintf(
            buf, sizeof buf,
            "switch port%d frames_in=%llu bytes_in=%llu frames_out=%llu bytes_out=%llu drops=%llu "
            "ecn_marked=%llu pauses_sent=%llu resumes_sent=%llu control_in=%llu "
            "max_queue_bytes=%llu\n",
            k, (unsigned long long)s.frames_in, (unsigned long long)s.bytes_in,
            (unsigned long long)s.frames_out, (unsigned long long)s.bytes_out,
            (unsigned long long)s.drops, (unsigned long long)s.ecn_marked,
            (unsigned long long)s.pauses_sent, (unsigned long long)s.resumes_sent,
            (unsigned long long)s.control_in, (unsigned long long)s.max_queue_bytes);
        out += buf;
    }
    std::snprintf(buf, sizeof buf,
                  "switch buffer_bytes=%llu buffer_max_used=%llu flooded=%llu learned=%zu\n",
                  (unsigned long long)cfg_.buffer_bytes, (unsigned long long)used_max_,
                  (unsigned long long)flooded_, table_.size());
    out += buf;
    return out;
}

bool MacPause::consume(uint64_t now, const Frame &f) {
    if (f.size() < 14 || f[12] != 0x88 || f[13] != 0x08) return false;
    if (f.size() >= 18 && f[14] == 0x00 && f[15] == 0x01) {
        uint16_t q = uint16_t(f[16] << 8 | f[17]);
        if (q) {
            pauses_++;
            until_ = now + pause_cycles(q, rate_, clk_);
        } else {
            resumes_++;
            until_ = now;
        }
    }
    return true;
}

} // namespace fabric
