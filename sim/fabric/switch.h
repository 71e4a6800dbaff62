// fabric::Switch: a store-and-forward Ethernet switch between simulated NICs
// (sim/README.md, "The switch"; docs/fabric.md).
//
// Each port k has two eth_wire::Links: up(k) carries NIC k -> switch, down(k)
// switch -> NIC k (line rate with 24 B of preamble/FCS/IFG, delay, seeded
// faults). A frame is forwarded once its last bit arrived (store and
// forward) by its destination MAC, learned from the source MACs seen on each
// port; broadcast, multicast and unknown destinations are flooded to every
// other port. Each egress port has one FIFO queue; a frame leaves when the
// down link's serializer is free, so egress runs at the line rate. Queued
// frames share one buffer (bytes of frame, without overhead); a frame that
// does not fit, or would take its egress queue over the per-port cap, is
// dropped (tail drop). ECN: a frame entering an egress queue of depth q bytes
// is marked CE with RED's probability (0 up to Kmin, Pmax at Kmax rising
// linearly, 1 above Kmax), if it is IPv4 with ECT(0) or ECT(1); the IPv4
// header checksum is updated. PFC (802.3x pause, optional): when the frames
// from ingress port k in the buffer exceed Xoff bytes, a pause frame (time
// 0xffff quanta) goes out on down(k) ahead of the queue; when they fall to Xon
// or below, a pause with time 0 (resume). MacPause is the NIC side of it.
// Everything random comes from one seeded generator: a run is repeatable.
#pragma once

#include "eth_wire.h"

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace fabric {

using wire::Frame;

constexpr int MAX_PORTS = 16;

struct Config {
    uint64_t buffer_bytes = 4u << 20;    // shared buffer
    uint64_t port_cap_bytes = 0;         // per egress queue cap (0: none, only the shared buffer)
    uint64_t kmin = 5000, kmax = 200000; // RED thresholds on the egress queue depth (bytes)
    double pmax = 0.01;                  // marking probability at kmax
    bool ecn = true;                     // RED marking on
    bool pfc = false;
    uint64_t xoff = 0, xon = 0; // PFC thresholds on an ingress port's bytes in the buffer
    uint64_t seed = 1;
};

// Parse "buffer=BYTES,portcap=BYTES,kmin=BYTES,kmax=BYTES,pmax=P,ecn=0|1,seed=N" (--fabric)
// or "xoff=BYTES,xon=BYTES" (--pfc, which sets pfc) on top of cfg. Sizes take a K or M
// suffix (1024, 1048576). False and err on an unknown key or a bad value.
bool parse_config(const std::string &spec, Config &cfg, std::string &err);
bool parse_pfc(const std::string &spec, Config &cfg, std::string &err);
// Consistency (kmin <= kmax, xon < xoff, ...); false and err if not.
bool check_config(const Config &cfg, std::string &err);

struct PortStats {
    uint64_t frames_in = 0, bytes_in = 0;   // arrived from the NIC
    uint64_t frames_out = 0, bytes_out = 0; // sent to the NIC (pause frames not counted)
    uint64_t drops = 0;      // frames dropped at this egress queue (buffer or cap full)
    uint64_t ecn_marked = 0; // frames marked CE at this egress queue
    uint64_t pauses_sent = 0, resumes_sent = 0; // PFC frames sent to the NIC (xoff, xon)
    uint64_t control_in = 0;      // MAC control frames (0x8808) from the NIC, consumed
    uint64_t max_queue_bytes = 0; // egress queue depth high-water mark
};

// The 802.3x quantum is 512 bit times; at rate_bps and clk_hz, pause time Q lasts
// ceil(Q * 512 * clk_hz / rate_bps) cycles.
uint64_t pause_cycles(uint16_t quanta, uint64_t rate_bps, uint64_t clk_hz);
// A PAUSE frame (01:80:c2:00:00:01, ethertype 0x8808, opcode 1) from `src`, 60 bytes.
Frame make_pause(const uint8_t src[6], uint16_t quanta);

// RED's marking probability at egress depth q (bytes).
double red_probability(const Config &cfg, uint64_t q);
// Set CE in an IPv4 frame with ECT(0)/ECT(1) and fix the header checksum:
// returns true if it marked (false: not IPv4, not ECT, or already CE).
bool mark_ce(Frame &f);

class Switch {
  public:
    // link: the wire config of every link (both directions); or up[k] / down[k] per port
    Switch(int ports, const Config &cfg, const wire::Config &link);
    Switch(int ports, const Config &cfg, const std::vector<wire::Config> &up,
           const std::vector<wire::Config> &down);

    int ports() const { return int(ports_.size()); }
    wire::Link &up(int k) { return ports_[size_t(k)]->up; }     // NIC k -> switch
    wire::Link &down(int k) { return ports_[size_t(k)]->down; } // switch -> NIC k
    // Move frames at cycle `now`: take the arrived ones in, start the next frames out.
    void tick(uint64_t now);

    const PortStats &stats(int k) const { return ports_[size_t(k)]->st; }
    uint64_t queue_bytes(int k) const { return ports_[size_t(k)]->q_bytes; }
    uint64_t ingress_bytes(int k) const { return ports_[size_t(k)]->in_buf; }
    uint64_t buffer_used() const { return used_; }
    uint64_t buffer_max() const { return used_max_; }
    bool ingress_paused(int k) const { return ports_[size_t(k)]->pausing; }
    // learned port of a MAC (-1: unknown)
    int lookup(const uint8_t mac[6]) const;
    // frames with a source MAC that is broadcast/multicast: not learned, forwarded
    uint64_t flooded() const { return flooded_; }

    // Per-port frame taps (pcap): called with (port, cycle, frame, to_nic).
    std::function<void(int, uint64_t, const Frame &, bool)> on_frame;
    // Bytes per flow (src MAC -> dst MAC, as "aa:..:ff>bb:..:ff") arriving since the
    // last call, then reset (the CSV time series).
    std::map<std::string, uint64_t> take_flow_bytes();
    bool track_flows = false; // count flow bytes (off: no cost)

    // One line per port for --stats / --fabric-stats.
    std::string stats_text() const;

  private:
    struct Queued {
        Frame f;
        int ingress;
    };
    struct Port {
        Port(const wire::Config &u, const wire::Config &d, uint64_t salt)
            : up(u, salt), down(d, salt ^ 0xffff) {}
        wire::Link up, down;
        std::deque<Queued> q;
        uint64_t q_bytes = 0;
        uint64_t in_buf = 0;       // bytes from this ingress port in the buffer
        bool pausing = false;      // an xoff was sent and no xon since
        std::deque<Frame> control; // pause frames to send ahead of the queue
        uint8_t mac[6];
        PortStats st;
    };
    void ingress(int k, uint64_t now, Frame f);
    void enqueue(int k, int ingress, const Frame &f);
    void pfc_check(int k);

    Config cfg_;
    std::vector<std::unique_ptr<Port>> ports_;
    std::map<std::array<uint8_t, 6>, int> table_;
    std::map<std::string, uint64_t> flow_bytes_;
    std::mt19937_64 rng_;
    uint64_t used_ = 0, used_max_ = 0, flooded_ = 0;
};

// The NIC side of PFC: the harness MAC consumes pause frames (they never reach
// the RTL) and holds the NIC's TX for their time.
class MacPause {
  public:
    MacPause(uint64_t rate_bps, uint64_t clk_hz) : rate_(rate_bps), clk_(clk_hz) {}
    // True if f is a MAC control frame (consumed: a PAUSE sets the hold).
    bool consume(uint64_t now, const Frame &f);
    bool holds(uint64_t now) const { return now < until_; }
    uint64_t pauses() const { return pauses_; }
    uint64_t resumes() const { return resumes_; }

  private:
    uint64_t rate_, clk_;
    uint64_t until_ = 0, pauses_ = 0, resumes_ = 0;
};

} // namespace fabric
