// The person (or script) at the other end of the UART.
//
// Output: every character from the SoC goes to stdout.
// Input, one of:
//   - a script (--uart-in FILE): each line is sent after the prompt appears
//     at the start of a line of output; when the script is used up and the
//     prompt appears once more, the console reports done().
//   - a terminal on stdin: raw mode (no echo, no line buffering, Ctrl-C goes
//     to the firmware as 0x03), restored when the console is destroyed or
//     the process is killed. Ctrl-] ends the run (quit_requested()).
//   - a pipe or file on stdin: characters as they come, nothing at EOF.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

class UartConsole {
  public:
    UartConsole() = default;
    ~UartConsole();
    UartConsole(const UartConsole &) = delete;
    UartConsole &operator=(const UartConsole &) = delete;

    // false and a message in err on failure
    bool open_script(const std::string &path, std::string &err);
    void open_stdin();  // raw mode when stdin is a terminal
    bool interactive() const { return raw_; }
    void set_prompt(const std::string &p) { prompt_ = p; }

    // a character from the SoC
    void tx(uint8_t c);
    // characters for the SoC, polled now and then (non-blocking)
    void poll(std::deque<uint8_t> &to_soc);
    void flush();

    bool done() const { return done_; }
    bool quit_requested() const { return quit_; }
    void restore_terminal();

  private:
    std::string out_;         // not yet written to stdout
    std::string line_;        // output since the last line start (for the prompt)
    bool line_matched_ = false;
    std::string prompt_ = "solonic> ";
    // script
    bool script_ = false;
    std::vector<std::string> lines_;
    size_t next_line_ = 0;
    std::string pending_;     // the line being sent
    bool done_ = false;
    // stdin
    bool stdin_ = false;
    bool stdin_eof_ = false;
    bool raw_ = false;
    bool quit_ = false;
};
