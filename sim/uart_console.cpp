#include "uart_console.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

namespace {

constexpr uint8_t QUIT_CHAR = 0x1d;  // Ctrl-]
constexpr size_t PTY_BACKLOG = 1 << 16;  // output kept for a pty nobody reads

// write all of s to a blocking fd
void write_all(int fd, const std::string &s) {
    size_t done = 0;
    while (done < s.size()) {
        ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // a closed pipe: nothing to be done
        done += size_t(n);
    }
}

// the terminal settings to restore, reachable from a signal handler and atexit
struct termios g_saved;
volatile sig_atomic_t g_raw_active = 0;

void restore_raw() {
    if (g_raw_active) {
        tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
        g_raw_active = 0;
    }
}

}  // namespace

UartConsole::~UartConsole() {
    flush();
    restore_terminal();
    if (log_) std::fclose(log_);
    if (pty_slave_ >= 0) ::close(pty_slave_);
    if (pty_ >= 0) ::close(pty_);
}

void UartConsole::restore_terminal() { restore_raw(); }

bool UartConsole::open_script(const std::string &path, std::string &err) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        err = "cannot read the UART script " + path + ": " + std::strerror(errno);
        return false;
    }
    std::string line;
    while (std::getline(f, line)) lines_.push_back(line + "\n");
    script_ = true;
    return true;
}

bool UartConsole::open_log(const std::string &path, std::string &err) {
    log_ = std::fopen(path.c_str(), "wb");
    if (!log_) {
        err = "cannot write " + path + ": " + std::strerror(errno);
        return false;
    }
    to_stdout_ = false;
    return true;
}

bool UartConsole::open_pty(std::string &path, std::string &err) {
    pty_ = ::posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (pty_ < 0 || ::grantpt(pty_) != 0 || ::unlockpt(pty_) != 0) {
        err = std::string("cannot create a pseudo-terminal: ") + std::strerror(errno);
        return false;
    }
    const char *name = ::ptsname(pty_);
    if (!name) {
        err = std::string("cannot name the pseudo-terminal: ") + std::strerror(errno);
        return false;
    }
    path = name;
    // our own slave descriptor: the master reads EAGAIN (not EIO) while nobody
    // is attached; raw, so the line discipline neither echoes the firmware's
    // output back as input nor translates characters
    pty_slave_ = ::open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (pty_slave_ < 0) {
        err = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    struct termios t;
    if (tcgetattr(pty_slave_, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(pty_slave_, TCSANOW, &t);
    }
    to_stdout_ = false;
    return true;
}

void UartConsole::open_stdin() {
    stdin_ = true;
    if (!isatty(STDIN_FILENO)) return;
    if (tcgetattr(STDIN_FILENO, &g_saved) != 0) return;
    struct termios raw = g_saved;
    // characters as typed, no echo (the firmware echoes), no signals from
    // Ctrl-C / Ctrl-Z (they go to the firmware), no CR/LF translation on input
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN);
    raw.c_iflag &= ~tcflag_t(ICRNL | INLCR | IGNCR | IXON);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0) return;
    g_raw_active = 1;
    raw_ = true;
    std::atexit(restore_raw);
}

void UartConsole::tx(uint8_t c) {
    out_.push_back(char(c));
    if (c == '\n' || c == '\r') {
        line_.clear();
        line_matched_ = false;
        if (c == '\n') flush();  // a write per line, not per character
        return;
    }
    if (line_matched_ || line_.size() >= prompt_.size()) return;
    line_.push_back(char(c));
    if (line_ == prompt_) {
        line_matched_ = true;  // this prompt counts once
        flush();               // a reader waits for it
        if (script_ && pending_.empty()) {
            if (next_line_ < lines_.size()) pending_ = lines_[next_line_++];
            else done_ = true;
        }
    }
}

void UartConsole::poll(std::deque<uint8_t> &to_soc) {
    if (script_) {
        // hand over the current line; the NIC takes it as fast as it can
        for (char c : pending_) to_soc.push_back(uint8_t(c));
        pending_.clear();
        return;
    }
    flush();  // partial lines too (what the firmware echoes), so a reader sees them in time
    if (pty_ >= 0) {
        uint8_t buf[256];
        ssize_t n = ::read(pty_, buf, sizeof buf);
        for (ssize_t i = 0; i < n; i++) to_soc.push_back(buf[i]);
        return;
    }
    if (!stdin_ || stdin_eof_) return;
    struct pollfd p = {STDIN_FILENO, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP))) return;
    uint8_t buf[256];
    ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n == 0 && !raw_) stdin_eof_ = true;
    for (ssize_t i = 0; i < n; i++) {
        if (raw_ && buf[i] == QUIT_CHAR) {
            quit_ = true;
            return;
        }
        to_soc.push_back(buf[i]);
    }
}

void UartConsole::flush() {
    if (out_.empty() && pty_out_.empty()) return;
    flushes_++;
    if (to_stdout_) write_all(STDOUT_FILENO, out_);
    if (log_) {
        std::fwrite(out_.data(), 1, out_.size(), log_);
        std::fflush(log_);
    }
    if (pty_ >= 0) {
        // nobody may be reading: keep the newest PTY_BACKLOG bytes, never block
        pty_out_ += out_;
        if (pty_out_.size() > PTY_BACKLOG) pty_out_.erase(0, pty_out_.size() - PTY_BACKLOG);
        while (!pty_out_.empty()) {
            ssize_t n = ::write(pty_, pty_out_.data(), pty_out_.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            pty_out_.erase(0, size_t(n));
        }
    }
    out_.clear();
}
