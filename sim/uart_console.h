// The person (or script) at the other end of a NIC's UART.
//
// Output: every character from the NIC goes to the output (stdout by default,
// or a log file, or a pseudo-terminal), written whenever a line completes or
// the prompt appears, so a reader at the other end of a pipe can react to it
// while the simulation runs.
// Input, one of:
//   - a script (open_script): each line is sent after the prompt appears at
//     the start of a line of output; when the script is used up and the
//     prompt appears once more, the console reports done().
//   - a terminal on stdin: raw mode (no echo, no line buffering, Ctrl-C goes
//     to the firmware as 0x03), restored when the console is destroyed or
//     the process is killed. Ctrl-] ends the run (quit_requested()).
//   - a pipe or file on stdin: characters as they come, nothing at EOF.
//   - a pseudo-terminal (open_pty): input and output; its path is printed
//     by the caller; a person attaches with e.g. `picocom PATH` or `screen PATH`.
//   - nothing (open_none): the NIC gets no input.
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

class UartConsole {
  public:
    UartConsole() = default;
    ~UartConsole();
    UartConsole(const UartConsole &) = delete;
    UartConsole &operator=(const UartConsole &) = delete;

    // Input. false and a message in err on failure.
    bool open_script(const std::string &path, std::string &err);
    void open_stdin();  // raw mode when stdin is a terminal
    bool open_pty(std::string &path, std::string &err);  // input and output
    bool interactive() const { return raw_; }
    bool scripted() const { return script_; }
    void set_prompt(const std::string &p) { prompt_ = p; }

    // Output: stdout unless one of these is called (the pty is an output too)
    bool open_log(const std::string &path, std::string &err);
    void discard_output() { to_stdout_ = false; }

    // a character from the NIC
    void tx(uint8_t c);
    // characters for the NIC, polled now and then (non-blocking)
    void poll(std::deque<uint8_t> &to_nic);
    void flush();

    bool done() const { return done_; }
    bool quit_requested() const { return quit_; }
    void restore_terminal();
    uint64_t flushes() const { return flushes_; }

  private:
    std::string out_;         // not yet written
    std::string line_;        // output since the last line start (for the prompt)
    bool line_matched_ = false;
    std::string prompt_ = "solonic> ";
    bool to_stdout_ = true;
    FILE *log_ = nullptr;
    uint64_t flushes_ = 0;
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
    // pty: master (ours) and a slave kept open so the master never sees a hangup
    int pty_ = -1, pty_slave_ = -1;
    std::string pty_out_;     // output the pty could not take yet
};
