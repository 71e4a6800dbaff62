// eth_port: see eth_port.h.
#include "eth_port.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

std::string link_stats(const std::string &name, const wire::Link &l) {
    const wire::Stats &s = l.stats();
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "link %s frames_in=%llu bytes_in=%llu frames_out=%llu dropped=%llu duplicated=%llu "
                  "reordered=%llu corrupted=%llu jittered=%llu",
                  name.c_str(), (unsigned long long)s.frames_in, (unsigned long long)s.bytes_in,
                  (unsigned long long)s.frames_out, (unsigned long long)s.dropped,
                  (unsigned long long)s.duplicated, (unsigned long long)s.reordered,
                  (unsigned long long)s.corrupted, (unsigned long long)s.jittered);
    return buf;
}

bool parse_port(const std::string &s, uint16_t &port) {
    if (s.empty() || s.size() > 5 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    unsigned long v = std::strtoul(s.c_str(), nullptr, 10);
    if (v == 0 || v > 65535) return false;
    port = uint16_t(v);
    return true;
}

}  // namespace

bool CablePort::rx(uint64_t now, wire::Frame &f) {
    if (!in_.pop_arrived(now, f)) return false;
    if (pcap_) pcap_->write(now, f);
    return true;
}

std::string CablePort::stats() const { return link_stats(in_name_, in_); }

bool SwitchPort::rx(uint64_t now, wire::Frame &f) {
    while (sw_.down(k_).pop_arrived(now, f)) {
        if (pcap_) pcap_->write(now, f);
        if (port_pcap_) port_pcap_->write(now, f);
        if (!pause_.consume(now, f)) return true;
    }
    return false;
}

std::string SwitchPort::stats() const {
    std::string nic = "nic" + std::to_string(k_), port = "switch:" + std::to_string(k_);
    char buf[128];
    std::snprintf(buf, sizeof buf, "mac %s pauses_received=%llu resumes_received=%llu", nic.c_str(),
                  (unsigned long long)pause_.pauses(), (unsigned long long)pause_.resumes());
    return link_stats(nic + "->" + port, sw_.up(k_)) + "\n" + link_stats(port + "->" + nic, sw_.down(k_)) + "\n" + buf;
}

bool parse_socket_spec(const std::string &s, SocketSpec &spec, std::string &err) {
    spec = SocketSpec{};
    spec.text = s;
    auto c1 = s.find(':');
    std::string kind = s.substr(0, c1);
    auto c2 = c1 == std::string::npos ? std::string::npos : s.find(':', c1 + 1);
    if ((kind != "udp" && kind != "unix") || c2 == std::string::npos) {
        err = "--eth0 wants udp:LPORT:RPORT or unix:PATH:PEERPATH, not '" + s + "'";
        return false;
    }
    std::string a = s.substr(c1 + 1, c2 - c1 - 1), b = s.substr(c2 + 1);
    if (kind == "udp") {
        spec.kind = SocketSpec::Kind::Udp;
        // udp:127.0.0.1:LPORT:RPORT is accepted too (the form QEMU users write); the
        // socket is always on the loopback address
        if (a == "127.0.0.1" || a == "localhost") {
            auto c3 = b.find(':');
            if (c3 == std::string::npos) {
                err = "--eth0 udp:127.0.0.1:LPORT:RPORT needs both ports, not '" + s + "'";
                return false;
            }
            a = b.substr(0, c3);
            b = b.substr(c3 + 1);
        } else if (a.find('.') != std::string::npos) {
            err = "--eth0 udp: the socket is on 127.0.0.1 only, not '" + s + "'";
            return false;
        }
        if (!parse_port(a, spec.lport) || !parse_port(b, spec.rport)) {
            err = "--eth0 udp:LPORT:RPORT: ports are 1..65535, not '" + a + "' and '" + b + "'";
            return false;
        }
        return true;
    }
    spec.kind = SocketSpec::Kind::Unix;
    spec.path = a;
    spec.peer = b;
    if (a.empty() || b.empty() || a == b) {
        err = "--eth0 unix:PATH:PEERPATH wants two different paths, not '" + s + "'";
        return false;
    }
    if (a.size() >= sizeof(sockaddr_un::sun_path) || b.size() >= sizeof(sockaddr_un::sun_path)) {
        err = "--eth0 unix: socket paths must be shorter than " +
              std::to_string(sizeof(sockaddr_un::sun_path)) + " bytes";
        return false;
    }
    return true;
}

uint64_t SocketPort::active_poll = 1;
uint64_t SocketPort::idle_poll = 1024;

SocketPort::SocketPort(const SocketSpec &spec, const wire::Config &cfg, const std::string &nic,
                       wire::PcapWriter *pcap)
    : spec_(spec), nic_(nic), cable_(cfg), pcap_(pcap) {}

SocketPort::~SocketPort() {
    if (fd_ >= 0) ::close(fd_);
    if (bound_path_) ::unlink(spec_.path.c_str());
}

bool SocketPort::open(std::string &err) {
    const int bufsize = 4 << 20;  // room for a burst of frames between two polls
    if (spec_.kind == SocketSpec::Kind::Udp) {
        fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd_ < 0) {
            err = std::string("cannot create a UDP socket: ") + std::strerror(errno);
            return false;
        }
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof bufsize);
        ::setsockopt(fd_, SOL_SOCKET, SO_SNDBUF, &bufsize, sizeof bufsize);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(spec_.lport);
        if (::bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
            err = "--eth0 " + spec_.text + ": cannot bind 127.0.0.1:" + std::to_string(spec_.lport) + ": " +
                  std::strerror(errno);
            return false;
        }
        a.sin_port = htons(spec_.rport);
        std::memcpy(&peer_, &a, sizeof a);
        peer_len_ = sizeof a;
        return true;
    }
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd_ < 0) {
        err = std::string("cannot create a unix datagram socket: ") + std::strerror(errno);
        return false;
    }
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &bufsize, sizeof bufsize);
    struct stat st;
    if (::lstat(spec_.path.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            err = "--eth0 " + spec_.text + ": " + spec_.path + " exists and is not a socket";
            return false;
        }
        ::unlink(spec_.path.c_str());  // a socket left by an earlier run
    }
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, spec_.path.c_str(), sizeof a.sun_path - 1);
    if (::bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        err = "--eth0 " + spec_.text + ": cannot bind " + spec_.path + ": " + std::strerror(errno);
        return false;
    }
    bound_path_ = true;
    std::strncpy(a.sun_path, spec_.peer.c_str(), sizeof a.sun_path - 1);
    std::memcpy(&peer_, &a, sizeof a);
    peer_len_ = sizeof a;
    return true;
}

bool SocketPort::tx_ready(uint64_t now) { return cable_.ab.ready(now) && pending_.size() < MAX_PENDING; }

bool SocketPort::rx(uint64_t now, wire::Frame &f) {
    if (!cable_.ba.pop_arrived(now, f)) return false;
    if (pcap_) pcap_->write(now, f);
    return true;
}

// Hand the frames that reached the far end to the socket, in order. A frame
// the socket would block on stays first in line and is retried later.
void SocketPort::flush_pending(uint64_t now) {
    while (!pending_.empty()) {
        const wire::Frame &f = pending_.front();
        ssize_t n = ::sendto(fd_, f.data(), f.size(), MSG_DONTWAIT, reinterpret_cast<sockaddr *>(&peer_),
                             peer_len_);
        if (n >= 0) {
            sent_++;
            pending_.pop_front();
            last_activity_ = now;
            continue;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS) {
            blocked_++;
            send_blocked_ = true;
            return;
        }
        // no peer (unix: no socket at PEERPATH; udp: port unreachable) or a
        // frame too long for a datagram: lost, as on an unplugged cable
        send_errors_++;
        last_errno_ = errno;
        pending_.pop_front();
    }
}

void SocketPort::poll_socket(uint64_t now) {
    static thread_local uint8_t buf[65536];
    polls_++;
    for (int i = 0; i < 64; i++) {
        // unix: read only what the line can take now, so a faster sender is
        // held back by its blocking socket instead of queueing without bound
        if (spec_.kind == SocketSpec::Kind::Unix && !cable_.ba.ready(now)) break;
        ssize_t n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR) continue;
            break;  // EAGAIN: nothing more now; ECONNREFUSED (ICMP): ignored
        }
        if (n == 0) continue;  // an empty datagram carries no frame
        received_++;
        last_activity_ = now;
        cable_.ba.send(now, wire::Frame(buf, buf + n));
    }
}

void SocketPort::tick(uint64_t now) {
    wire::Frame f;
    while (cable_.ab.pop_arrived(now, f)) {
        if (pcap_) pcap_->write(now, f);
        pending_.push_back(std::move(f));
        last_activity_ = now;
    }
    // a socket that would block is tried again at the next poll, not every cycle
    if (!pending_.empty() && !send_blocked_) flush_pending(now);
    if (now < next_poll_) return;
    send_blocked_ = false;
    if (!pending_.empty()) flush_pending(now);
    poll_socket(now);
    bool active = now - last_activity_ < ACTIVE_WINDOW || !pending_.empty();
    next_poll_ = now + (active ? active_poll : idle_poll);
}

std::string SocketPort::stats() const {
    std::string far = spec_.kind == SocketSpec::Kind::Udp ? "udp:127.0.0.1:" + std::to_string(spec_.rport)
                                                          : "unix:" + spec_.peer;
    std::string near = spec_.kind == SocketSpec::Kind::Udp ? "udp:127.0.0.1:" + std::to_string(spec_.lport)
                                                           : "unix:" + spec_.path;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "socket %s datagrams_sent=%llu datagrams_received=%llu send_blocked=%llu send_errors=%llu%s%s",
                  spec_.text.c_str(), (unsigned long long)sent_, (unsigned long long)received_,
                  (unsigned long long)blocked_, (unsigned long long)send_errors_, last_errno_ ? " last_error=" : "",
                  last_errno_ ? std::strerror(last_errno_) : "");
    return link_stats(nic_ + "->" + far, cable_.ab) + "\n" + link_stats(near + "->" + nic_, cable_.ba) + "\n" +
           buf;
}

std::string SocketPort::problems() const {
    if (!send_errors_) return "";
    return "--eth0 " + spec_.text + ": " + std::to_string(send_errors_) + " frame(s) could not be sent (" +
           std::strerror(last_errno_) + ")";
}
