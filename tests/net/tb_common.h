// Shared helpers of the net test benches: vector file parsing, 512-bit beat
// access on Verilator's wide signals, seeded randomness, printing.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <verilated.h>

using Bytes = std::vector<uint8_t>;

static inline Bytes hex_bytes(const std::string &h) {
    Bytes b;
    if (h == "-") return b;
    b.reserve(h.size() / 2);
    for (size_t i = 0; i + 1 < h.size(); i += 2) b.push_back((uint8_t)std::stoul(h.substr(i, 2), nullptr, 16));
    return b;
}

static inline std::string bytes_hex(const Bytes &b, size_t from = 0, size_t n = 48) {
    std::string s;
    char t[4];
    for (size_t i = from; i < b.size() && i < from + n; i++) {
        snprintf(t, sizeof t, "%02x", b[i]);
        s += t;
    }
    if (from + n < b.size()) s += "...";
    return s;
}

// Says where two byte strings differ, or "" when equal.
static inline std::string diff(const Bytes &exp, const Bytes &got) {
    if (exp == got) return "";
    size_t i = 0;
    while (i < exp.size() && i < got.size() && exp[i] == got[i]) i++;
    size_t from = i > 8 ? i - 8 : 0;
    std::ostringstream o;
    o << "length expected " << exp.size() << " got " << got.size() << ", first difference at byte " << i
      << "\n    expected [" << from << "..] " << bytes_hex(exp, from, 32) << "\n    got      [" << from << "..] "
      << bytes_hex(got, from, 32);
    return o.str();
}

// A 512-bit beat <-> Verilator wide signal (16 x 32-bit words, word 0 = bits 31:0).
template <class W> static inline void put_beat(W &w, const Bytes &f, size_t off) {
    for (int i = 0; i < 16; i++) {
        uint32_t v = 0;
        for (int j = 0; j < 4; j++) {
            size_t k = off + 4 * i + j;
            if (k < f.size()) v |= (uint32_t)f[k] << (8 * j);
        }
        w[i] = v;
    }
}

template <class W> static inline void get_beat(const W &w, uint64_t keep, Bytes &out) {
    for (int k = 0; k < 64; k++)
        if ((keep >> k) & 1) out.push_back((uint8_t)(w[k / 4] >> (8 * (k % 4))));
}

static inline uint64_t keep_n(size_t n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }

struct Rng {
    std::mt19937_64 g;
    explicit Rng(uint64_t seed) : g(seed) {}
    bool pct(int p) { return (int)(g() % 100) < p; }
};

static inline std::vector<std::string> split(const std::string &l) {
    std::istringstream is(l);
    std::vector<std::string> v;
    std::string t;
    while (is >> t) v.push_back(t);
    return v;
}

// Block report for the line-rate benches: L = frame bytes (0: mixed sizes).
static inline void report_block(const std::string &name, size_t L, long frames, long beats, long cycles) {
    double bpc = cycles ? (double)beats / cycles : 0.0;
    double fpc = cycles ? (double)frames / cycles : 0.0;
    if (L) {
        double gbps = fpc * L * 8 * 0.25;              // 250 MHz: 4 ns a cycle
        double wire_fpc = 50.0 / (double)(L + 24);     // 100 GbE: (L+24)/50 cycles a frame
        double wire_gbps = 100.0 * L / (L + 24);
        const char *st = fpc + 1e-9 >= wire_fpc ? "line rate" : "BUS-LIMITED (2 beats < 2 cycles of wire time)";
        printf("bench %-18s %5zu B: %4ld frames %6ld beats %6ld cycles  %.3f beats/cycle  %.3f frames/cycle"
               "  %6.2f Gb/s  (100GbE wire: %.3f frames/cycle %6.2f Gb/s) %s\n",
               name.c_str(), L, frames, beats, cycles, bpc, fpc, gbps, wire_fpc, wire_gbps, st);
    } else {
        printf("bench %-18s mixed : %4ld frames %6ld beats %6ld cycles  %.3f beats/cycle\n", name.c_str(), frames,
               beats, cycles, bpc);
    }
}

static inline std::string plusarg(const char *name, const std::string &def) {
    const char *v = Verilated::commandArgsPlusMatch(name);
    std::string s = v ? v : "";
    std::string key = std::string("+") + name + "=";
    if (s.compare(0, key.size(), key) == 0) return s.substr(key.size());
    return def;
}
