// tb_util.h: helpers shared by the RoCE test benches (hex files, wide
// Verilator signals, seeded randomness, +key=value arguments).
#pragma once
#include <verilated.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using Bytes = std::vector<uint8_t>;

static inline int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static inline Bytes hex_to_bytes(const std::string& h) {
  Bytes b;
  if (h == "-") return b;
  for (size_t i = 0; i + 1 < h.size(); i += 2) b.push_back(uint8_t(hexval(h[i]) * 16 + hexval(h[i + 1])));
  return b;
}

static inline std::string bytes_to_hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  s.reserve(2 * n);
  for (size_t i = 0; i < n; i++) {
    s.push_back(d[p[i] >> 4]);
    s.push_back(d[p[i] & 15]);
  }
  return n ? s : std::string("-");
}

// Stream bytes <-> a 512-bit beat (byte i in bits [8i+7:8i]).
template <std::size_t N>
static inline void beat_set(VlWide<N>& w, const uint8_t* p, size_t n, const uint8_t* fill) {
  for (size_t i = 0; i < N; i++) w[i] = 0;
  for (size_t i = 0; i < 4 * N; i++) {
    uint8_t v = i < n ? p[i] : (fill ? fill[i] : 0);
    w[i / 4] |= uint32_t(v) << (8 * (i % 4));
  }
}

template <std::size_t N>
static inline void beat_get(const VlWide<N>& w, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; i++) out[i] = uint8_t(w[i / 4] >> (8 * (i % 4)));
}

// A bit vector written as hex, most significant digit first -> words.
template <std::size_t N>
static inline void vec_from_hex(VlWide<N>& w, const std::string& h) {
  for (size_t i = 0; i < N; i++) w[i] = 0;
  size_t bit = 0;
  for (size_t k = h.size(); k-- > 0; bit += 4) {
    if (bit / 32 < N) w[bit / 32] |= uint32_t(hexval(h[k])) << (bit % 32);
  }
}

template <std::size_t N>
static inline std::string vec_to_hex(const VlWide<N>& w, size_t bits) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t k = (bits + 3) / 4; k-- > 0;) {
    size_t bit = 4 * k;
    s.push_back(d[(w[bit / 32] >> (bit % 32)) & 15]);
  }
  return s;
}

static inline int keep_count(uint64_t keep) {
  int n = 0;
  while (n < 64 && ((keep >> n) & 1)) n++;
  return n;
}

static inline uint64_t keep_first(size_t n) { return n >= 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1); }

struct Args {
  std::map<std::string, std::string> kv;
  Args(int argc, char** argv) {
    for (int i = 1; i < argc; i++) {
      std::string a = argv[i];
      if (a.size() > 1 && a[0] == '+') {
        size_t eq = a.find('=');
        if (eq != std::string::npos) kv[a.substr(1, eq - 1)] = a.substr(eq + 1);
        else kv[a.substr(1)] = "1";
      }
    }
  }
  std::string str(const std::string& k, const std::string& def = "") const {
    auto it = kv.find(k);
    return it == kv.end() ? def : it->second;
  }
  long num(const std::string& k, long def) const {
    auto it = kv.find(k);
    return it == kv.end() ? def : std::strtol(it->second.c_str(), nullptr, 0);
  }
};

struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  bool chance(int pct) { return pct > 0 && int(g() % 100) < pct; }
  uint8_t byte() { return uint8_t(g()); }
};

// Gaps between the first and the last transfer on one stream.
struct LinkStats {
  long first = -1, last = -1, beats = 0, gaps = 0, pending_idle = 0;
  void cycle(long c, bool fire) {
    if (fire) {
      if (first < 0) first = c;
      else gaps += pending_idle;
      pending_idle = 0;
      last = c;
      beats++;
    } else if (first >= 0) {
      pending_idle++;
    }
  }
};
