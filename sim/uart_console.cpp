#include "uart_console.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

namespace {

constexpr uint8_t QUIT_CHAR = 0x1d;  // Ctrl-]

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
}

void UartConsole::restore_terminal() { restore_raw(); }

bool UartConsole::open_script(const std::string &path, std::string &err) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        err = "cannot read --uart-in file " + path + ": " + std::strerror(errno);
        return false;
    }
    std::string line;
    while (std::getline(f, line)) lines_.push_back(line + "\n");
    script_ = true;
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
        if (script_ && pending_.empty()) {
            if (next_line_ < lines_.size()) pending_ = lines_[next_line_++];
            else done_ = true;
        }
    }
}

void UartConsole::poll(std::deque<uint8_t> &to_soc) {
    if (script_) {
        // hand over the current line; the SoC takes it as fast as it can
        for (char c : pending_) to_soc.push_back(uint8_t(c));
        pending_.clear();
        return;
    }
    flush();  // partial lines too (a prompt), so a reader sees them in time
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
    if (out_.empty()) return;
    std::fwrite(out_.data(), 1, out_.size(), stdout);
    std::fflush(stdout);
    out_.clear();
}
