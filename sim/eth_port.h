// What a simulated NIC's Ethernet port is plugged into.
//
// Every port carries frames through the wire model (sim/wire/eth_wire.h): line
// rate with preamble, FCS and inter-frame gap, one-way delay, seeded faults.
//   CablePort   one end of an eth_wire::Cable between two NICs in this process.
//   SwitchPort  NIC k's end of its two links to the switch (sim/fabric/switch.h);
//               its MAC consumes 802.3x pause frames and holds TX for their time.
//   SocketPort  a datagram socket, one Ethernet frame per datagram, no FCS, no
//               length prefix (QEMU's -netdev dgram / -netdev socket,udp=):
//               udp:LPORT:RPORT   bind 127.0.0.1:LPORT, send to 127.0.0.1:RPORT
//               unix:PATH:PEER    bind PATH, send to PEER; lossless: a frame the
//                                 socket would block on is kept and retried, and
//                                 the NIC's TX is held (tready 0) meanwhile.
//               Both directions pass through a Cable with the --wire config
//               (NIC -> socket is link "out", socket -> NIC is link "in").
// Frames are written to the pcap (if any) when they arrive at the far end of
// a link: the receiver's view, after faults, stamped with the arrival cycle.
#pragma once

#include "eth_wire.h"
#include "switch.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <sys/socket.h>

class EthPort {
  public:
    virtual ~EthPort() = default;
    // Can the NIC start a frame at cycle `now`?
    virtual bool tx_ready(uint64_t now) = 0;
    // A whole frame from the NIC, its last beat taken at cycle `now`.
    virtual void tx(uint64_t now, wire::Frame f) = 0;
    // A frame for the NIC that has arrived by cycle `now` (false: none).
    virtual bool rx(uint64_t now, wire::Frame &f) = 0;
    // Called once per cycle: outside I/O (sockets). Cheap when nothing happens.
    virtual void tick(uint64_t now) { (void)now; }
    // One line per link for --stats.
    virtual std::string stats() const = 0;
};

// One end of a cable: sends on `out`, receives from `in`.
class CablePort : public EthPort {
  public:
    CablePort(wire::Link &out, wire::Link &in, const std::string &in_name, wire::PcapWriter *pcap)
        : out_(out), in_(in), in_name_(in_name), pcap_(pcap) {}
    bool tx_ready(uint64_t now) override { return out_.ready(now); }
    void tx(uint64_t now, wire::Frame f) override { out_.send(now, std::move(f)); }
    bool rx(uint64_t now, wire::Frame &f) override;
    std::string stats() const override;

  private:
    wire::Link &out_, &in_;
    std::string in_name_;  // "nic0->nic1": the link this end receives from
    wire::PcapWriter *pcap_;
};

// NIC k's end of its links to the switch: sends on up(k), receives from down(k).
// Pause frames from the switch are consumed here (they never reach the RTL) and
// hold tx_ready() at 0 for their time (from the next frame on: a frame under way
// finishes). port_pcap: this port's frames both ways (--pcap-port), or nullptr.
class SwitchPort : public EthPort {
  public:
    SwitchPort(fabric::Switch &sw, int k, wire::PcapWriter *pcap, wire::PcapWriter *port_pcap,
               const wire::Config &link)
        : sw_(sw), k_(k), pcap_(pcap), port_pcap_(port_pcap), pause_(link.rate_bps, link.clk_hz) {}
    bool tx_ready(uint64_t now) override { return !pause_.holds(now) && sw_.up(k_).ready(now); }
    void tx(uint64_t now, wire::Frame f) override { sw_.up(k_).send(now, std::move(f)); }
    bool rx(uint64_t now, wire::Frame &f) override;
    std::string stats() const override;
    const fabric::MacPause &pause() const { return pause_; }

  private:
    fabric::Switch &sw_;
    int k_;
    wire::PcapWriter *pcap_, *port_pcap_;
    fabric::MacPause pause_;
};

// "udp:LPORT:RPORT" or "unix:PATH:PEERPATH"
struct SocketSpec {
    enum class Kind { Udp, Unix } kind = Kind::Udp;
    uint16_t lport = 0, rport = 0;
    std::string path, peer;
    std::string text;  // as given
};
bool parse_socket_spec(const std::string &s, SocketSpec &spec, std::string &err);

class SocketPort : public EthPort {
  public:
    SocketPort(const SocketSpec &spec, const wire::Config &cfg, const std::string &nic,
               wire::PcapWriter *pcap);
    ~SocketPort() override;
    // bind the socket; false and a message on failure
    bool open(std::string &err);

    bool tx_ready(uint64_t now) override;
    void tx(uint64_t now, wire::Frame f) override { cable_.ab.send(now, std::move(f)); }
    bool rx(uint64_t now, wire::Frame &f) override;
    void tick(uint64_t now) override;
    std::string stats() const override;
    // what went wrong with the socket, for a message at the end ("" if nothing)
    std::string problems() const;
    uint64_t polls() const { return polls_; }

    // Polling cadence: every active_poll cycles (default 1) while frames flow,
    // every idle_poll cycles (default 1024) after ACTIVE_WINDOW quiet cycles.
    // A recv system call costs about half a simulated cycle of one NIC:
    // polling every cycle slows the run by about 30%, every 1024 by ~1%.
    static uint64_t active_poll, idle_poll;
    static constexpr uint64_t ACTIVE_WINDOW = 20000;
    // Frames waiting for the socket beyond which the NIC's TX is held.
    static constexpr size_t MAX_PENDING = 64;

  private:
    void poll_socket(uint64_t now);
    void flush_pending(uint64_t now);

    SocketSpec spec_;
    std::string nic_;
    wire::Cable cable_;  // ab: NIC -> socket, ba: socket -> NIC
    wire::PcapWriter *pcap_;
    int fd_ = -1;
    sockaddr_storage peer_{};
    socklen_t peer_len_ = 0;
    bool bound_path_ = false;  // unix: PATH was created by us (unlinked at the end)
    std::deque<wire::Frame> pending_;  // arrived at the far end, not yet accepted by the socket
    uint64_t next_poll_ = 0, last_activity_ = 0;
    bool send_blocked_ = false;
    uint64_t sent_ = 0, received_ = 0, blocked_ = 0, send_errors_ = 0, polls_ = 0;
    int last_errno_ = 0;
};
