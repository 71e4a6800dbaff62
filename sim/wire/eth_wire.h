// eth_wire: a simulated Ethernet cable between two ports, in simulated clock cycles.
//
// Each direction is a serializer at a fixed bit rate (100 Gb/s by default), counting
// every frame's preamble + SFD (8 B), FCS (4 B) and inter-frame gap (12 B) beside
// its bytes, followed by a fixed one-way delay. Faults are injected by a seeded
// generator, so a run is exactly repeatable: drop, duplicate, reorder (a frame is
// held back and delivered after the next 1..reorder_depth frames), corrupt (one bit
// flipped), delay jitter (0..jitter extra cycles, which reorders frames closer than
// that too, unless inorder=1: then a frame's jitter never takes it past an earlier
// frame's arrival, as queueing delay on one path behaves); optionally only frames to one UDP port suffer them (RoCEv2's 4791: the
// TCP exchange before the test goes through clean).
//
// Frames are byte vectors without FCS, as the MAC's AXI4-Stream carries them.
// Time is in cycles of the datapath clock; rates are kept as exact fractions
// (bytes per cycle = rate_bps / 8 / clk_hz), so no rounding drifts over a long run.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace wire {

using Frame = std::vector<uint8_t>;

struct Faults {
    double drop = 0;       // probability that a frame is lost
    double duplicate = 0;  // probability that a frame arrives twice
    double reorder = 0;    // probability that a frame is held back behind the next one
    double corrupt = 0;    // probability that one bit of a frame is flipped
    uint32_t skip_bytes = 0;  // corruption spares the first skip_bytes bytes (e.g. 14: keep the MAC header)
    uint32_t reorder_depth = 1;  // a held frame is delivered after 1..reorder_depth later frames (uniform)
    uint64_t jitter_cycles = 0;  // each frame's delay grows by 0..jitter_cycles (uniform)
    bool jitter_inorder = false; // jitter keeps the frames' order (arrival >= the last jittered arrival)
    uint16_t udp_port = 0;       // nonzero: only IPv4 UDP frames to this destination port suffer faults
};

struct Config {
    uint64_t clk_hz = 250000000;     // datapath clock
    uint64_t rate_bps = 100000000000ull;  // line rate
    uint64_t delay_cycles = 0;       // one-way propagation delay
    uint32_t overhead_bytes = 24;    // preamble+SFD 8, FCS 4, IFG 12
    uint32_t tx_fifo_bytes = 16384;  // MAC TX FIFO: frames wait here for the serializer
    uint64_t seed = 1;
    Faults faults;
};

struct Stats {
    uint64_t frames_in = 0, frames_out = 0, bytes_in = 0;
    uint64_t dropped = 0, duplicated = 0, reordered = 0, corrupted = 0, jittered = 0;
};

// One direction of the cable.
class Link {
  public:
    explicit Link(const Config &cfg, uint64_t seed_salt = 0);

    // Time at which the serializer can start another frame (cycles, rounded up).
    uint64_t free_at() const;
    // True if the MAC can take another frame at cycle `now` (its TX FIFO has room).
    bool ready(uint64_t now) const;
    // Send a frame whose last byte the MAC handed over at cycle `now`. The frame
    // occupies the wire from max(now, free_at) for its wire time.
    void send(uint64_t now, Frame f);
    // Frames whose last bit has arrived by cycle `now`, in arrival order.
    bool pop_arrived(uint64_t now, Frame &out);
    // Cycles the wire needs for a frame of `len` bytes (exact fraction, as double).
    double wire_cycles(size_t len) const;
    bool idle() const { return in_flight_.empty() && held_.empty(); }
    const Stats &stats() const { return stats_; }

  private:
    struct InFlight {
        uint64_t arrive;
        Frame frame;
    };
    struct Held {
        InFlight f;
        uint32_t left;  // later frames still to pass it
    };
    void deliver(uint64_t arrive, Frame f);
    bool faulty(const Frame &f) const;

    Config cfg_;
    std::mt19937_64 rng_;
    // When the serializer frees, as an exact fraction: busy_num_ / rate_bps cycles.
    unsigned __int128 busy_num_ = 0;
    uint64_t last_jittered_ = 0;  // inorder jitter: the latest arrival given to a jittered frame
    std::deque<InFlight> in_flight_;
    std::deque<Held> held_;  // oldest first
    Stats stats_;
};

// A cable: two links, A->B and B->A, with independent fault streams.
class Cable {
  public:
    explicit Cable(const Config &cfg) : ab(cfg, 0x5a5a), ba(cfg, 0xa5a5) {}
    Cable(const Config &cfg_ab, const Config &cfg_ba) : ab(cfg_ab, 0x5a5a), ba(cfg_ba, 0xa5a5) {}
    Link ab, ba;
};

// Split "k1=v1,k2=v2" at the commas (empty items skipped) and call f(key, value) for each
// item: false when an item has no '=' (bad = that item) or when f returns false (bad empty;
// f sets its own message). The options of the wire (below) and of the switch (sim/fabric).
template <class F> bool each_key_value(const std::string &spec, std::string &bad, F f) {
    size_t at = 0;
    while (at <= spec.size()) {
        size_t comma = spec.find(',', at);
        if (comma == std::string::npos) comma = spec.size();
        std::string item = spec.substr(at, comma - at);
        at = comma + 1;
        if (item.empty()) continue;
        size_t eq = item.find('=');
        if (eq == std::string::npos) {
            bad = item;
            return false;
        }
        if (!f(item.substr(0, eq), item.substr(eq + 1))) return false;
    }
    return true;
}

// Parse "drop=0.01,dup=0.001,reorder=0.01,depth=8,corrupt=0.001,jitter=100,inorder=1,port=4791,
// delay=500,seed=7,rate=100e9" into a Config, on top of what cfg holds (unknown keys are
// an error: returns false and sets err).
bool parse_config(const std::string &spec, Config &cfg, std::string &err);

// Append frames to a pcap file (LINKTYPE_ETHERNET), timestamps from cycles.
class PcapWriter {
  public:
    PcapWriter() = default;
    ~PcapWriter();
    bool open(const std::string &path, uint64_t clk_hz, std::string &err);
    void write(uint64_t cycle, const Frame &f);
    bool is_open() const { return fp_ != nullptr; }

  private:
    FILE *fp_ = nullptr;
    uint64_t clk_hz_ = 250000000;
};

}  // namespace wire
