// solonic_sim: the Verilator harness of the solonic SoC (docs/DEVELOPING.md,
// "The simulator").
//
//   solonic_sim --fw FILE.hex [--uart-in FILE] [--prompt STR] [--max-cycles N]
//               [--max-seconds S] [--fst FILE] [--quiet] [--stats]
//
// Exit code: the firmware's (written to the simctrl exit register), 124 when
// a limit stopped the run, 2 on a harness error, 130 when the user quit.
#include "soc_instance.h"
#include "uart_console.h"

#include "verilated.h"
#include "verilated_fst_c.h"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

constexpr uint64_t CLK_HZ = 250'000'000;
constexpr uint64_t HALF_PERIOD_PS = 1'000'000'000'000ull / CLK_HZ / 2;  // 2000 ps
constexpr uint64_t DEFAULT_MAX_CYCLES = 200'000'000;                   // when not interactive
constexpr uint32_t IMEM_WORDS = 256 * 1024 / 4;
constexpr int RESET_CYCLES = 8;
constexpr uint64_t POLL_EVERY = 1024;   // cycles between UART input polls
constexpr uint64_t CLOCK_EVERY = 16384; // cycles between wall-clock checks

enum : int { EXIT_LIMIT = 124, EXIT_HARNESS = 2, EXIT_QUIT = 130 };

volatile sig_atomic_t g_signal = 0;
void on_signal(int sig) { g_signal = sig; }

struct Options {
    std::string fw, uart_in, fst, prompt = "solonic> ";
    uint64_t max_cycles = 0;
    bool max_cycles_set = false;
    double max_seconds = 0;
    bool quiet = false, stats = false;
};

void usage(FILE *f) {
    std::fprintf(f,
                 "usage: solonic_sim --fw FILE.hex [options]\n"
                 "  --fw FILE.hex     firmware image for the instruction BRAM ($readmemh, one word per line)\n"
                 "  --uart-in FILE    feed FILE to the UART, one line after each prompt; the run ends\n"
                 "                    with exit code 0 at the prompt after the last line\n"
                 "  --prompt STR      the console prompt to wait for (default \"solonic> \")\n"
                 "  --max-cycles N    stop with exit code 124 after N cycles\n"
                 "                    (default: no limit on a terminal, %llu otherwise)\n"
                 "  --max-seconds S   stop with exit code 124 after S seconds of wall time\n"
                 "  --fst FILE        write FST waveforms\n"
                 "  --quiet           no harness messages on stderr\n"
                 "  --stats           print cycles, instructions, wall time, cycles/s at exit\n"
                 "On a terminal, Ctrl-] ends the run (exit code 130); Ctrl-C goes to the firmware.\n",
                 (unsigned long long)DEFAULT_MAX_CYCLES);
}

bool parse_u64(const char *s, uint64_t &v) {
    if (!s || !*s || !std::isdigit(uint8_t(*s))) return false;
    char *end;
    errno = 0;
    v = std::strtoull(s, &end, 0);
    return !errno && !*end;
}

// returns -1 to go on, else the exit code
int parse(int argc, char **argv, Options &o) {
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&](const char *name) -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "solonic_sim: %s needs a value\n", name);
                return nullptr;
            }
            return argv[++i];
        };
        const char *v = nullptr;
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else if (a == "--quiet") {
            o.quiet = true;
        } else if (a == "--stats") {
            o.stats = true;
        } else if (a == "--fw" || a == "--uart-in" || a == "--fst" || a == "--prompt") {
            if (!(v = value(a.c_str()))) return EXIT_HARNESS;
            (a == "--fw" ? o.fw : a == "--uart-in" ? o.uart_in : a == "--fst" ? o.fst : o.prompt) = v;
        } else if (a == "--max-cycles") {
            if (!(v = value("--max-cycles"))) return EXIT_HARNESS;
            if (!parse_u64(v, o.max_cycles) || o.max_cycles == 0) {
                std::fprintf(stderr, "solonic_sim: --max-cycles wants a positive number, not '%s'\n", v);
                return EXIT_HARNESS;
            }
            o.max_cycles_set = true;
        } else if (a == "--max-seconds") {
            if (!(v = value("--max-seconds"))) return EXIT_HARNESS;
            char *end;
            o.max_seconds = std::strtod(v, &end);
            if (*end || !(o.max_seconds > 0)) {
                std::fprintf(stderr, "solonic_sim: --max-seconds wants a positive number, not '%s'\n", v);
                return EXIT_HARNESS;
            }
        } else {
            std::fprintf(stderr, "solonic_sim: unknown option '%s' (see --help)\n", a.c_str());
            return EXIT_HARNESS;
        }
    }
    if (o.fw.empty()) {
        std::fprintf(stderr, "solonic_sim: --fw FILE.hex is required (see --help)\n");
        return EXIT_HARNESS;
    }
    if (o.prompt.empty()) {
        std::fprintf(stderr, "solonic_sim: --prompt must not be empty\n");
        return EXIT_HARNESS;
    }
    return -1;
}

// Check the image the way $readmemh will read it, so that a bad file is a
// clear harness error rather than a simulator abort: hex words of up to 32
// bits, // and /* */ comments, @address lines, all inside the IMEM.
bool check_image(const std::string &path, std::string &err, uint32_t &words) {
    std::ifstream f(path);
    if (!f) {
        err = "cannot read firmware image " + path + ": " + std::strerror(errno);
        return false;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    std::string s = ss.str();
    uint64_t addr = 0;
    words = 0;
    size_t i = 0, line = 1;
    while (i < s.size()) {
        char c = s[i];
        if (c == '\n') { line++; i++; continue; }
        if (std::isspace(uint8_t(c))) { i++; continue; }
        if (s.compare(i, 2, "//") == 0) { while (i < s.size() && s[i] != '\n') i++; continue; }
        if (s.compare(i, 2, "/*") == 0) {
            size_t e = s.find("*/", i + 2);
            if (e == std::string::npos) { err = path + ": unterminated comment"; return false; }
            for (size_t k = i; k < e; k++) line += s[k] == '\n';
            i = e + 2;
            continue;
        }
        bool at = c == '@';
        size_t j = i + (at ? 1 : 0), start = j;
        while (j < s.size() && (std::isxdigit(uint8_t(s[j])) || s[j] == '_')) j++;
        std::string tok = s.substr(start, j - start);
        if (tok.empty() || (j < s.size() && !std::isspace(uint8_t(s[j])) && s[j] != '/')) {
            err = path + ":" + std::to_string(line) + ": not a hex word";
            return false;
        }
        tok.erase(std::remove(tok.begin(), tok.end(), '_'), tok.end());
        uint64_t v = std::strtoull(tok.c_str(), nullptr, 16);
        if (at) {
            addr = v;
        } else {
            if (tok.size() > 8) {
                err = path + ":" + std::to_string(line) + ": word wider than 32 bits";
                return false;
            }
            if (addr >= IMEM_WORDS) {
                err = path + ":" + std::to_string(line) + ": image larger than the instruction BRAM (" +
                      std::to_string(IMEM_WORDS) + " words)";
                return false;
            }
            addr++;
            words++;
        }
        i = j;
    }
    if (words == 0) {
        err = path + ": no words in the image";
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    Options o;
    int rc = parse(argc, argv, o);
    if (rc >= 0) return rc;
    std::string err;
    uint32_t fw_words = 0;
    if (!check_image(o.fw, err, fw_words)) {
        std::fprintf(stderr, "solonic_sim: %s\n", err.c_str());
        return EXIT_HARNESS;
    }

    UartConsole console;
    console.set_prompt(o.prompt);
    if (!o.uart_in.empty()) {
        if (!console.open_script(o.uart_in, err)) {
            std::fprintf(stderr, "solonic_sim: %s\n", err.c_str());
            return EXIT_HARNESS;
        }
    } else {
        console.open_stdin();
    }
    uint64_t max_cycles = o.max_cycles_set ? o.max_cycles : console.interactive() ? 0 : DEFAULT_MAX_CYCLES;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGHUP, on_signal);

    auto ctx = std::make_unique<VerilatedContext>();
    std::string fw_arg = "+fw=" + o.fw;
    const char *vargs[] = {"solonic_sim", fw_arg.c_str()};
    ctx->commandArgs(2, vargs);
    ctx->fatalOnError(false);  // an RTL $error ends the loop instead of aborting
    std::unique_ptr<VerilatedFstC> tfp;
    if (!o.fst.empty()) ctx->traceEverOn(true);

    auto soc = std::make_unique<SocInstance>(ctx.get(), "soc", HALF_PERIOD_PS);
    soc->on_uart_tx = [&console](uint8_t c) { console.tx(c); };
    if (!o.fst.empty()) {
        tfp = std::make_unique<VerilatedFstC>();
        soc->trace(tfp.get(), 99);
        tfp->open(o.fst.c_str());
        if (!tfp->isOpen()) {
            std::fprintf(stderr, "solonic_sim: cannot write %s\n", o.fst.c_str());
            return EXIT_HARNESS;
        }
    }
    if (!o.quiet) {
        std::fprintf(stderr, "solonic_sim: %s (%u words)%s\n", o.fw.c_str(), fw_words,
                     console.interactive() ? ", Ctrl-] quits" : "");
    }

    auto t0 = std::chrono::steady_clock::now();
    auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    soc->reset(RESET_CYCLES);

    enum class Stop { None, Exit, Script, MaxCycles, MaxSeconds, Quit, Signal, Finish };
    Stop stop = Stop::None;
    std::deque<uint8_t> to_soc;
    while (stop == Stop::None) {
        soc->step();
        uint64_t cyc = soc->cycles();
        if (soc->exited()) stop = Stop::Exit;
        else if (console.done()) stop = Stop::Script;
        else if (ctx->gotFinish()) stop = Stop::Finish;
        else if (max_cycles && cyc >= max_cycles) stop = Stop::MaxCycles;
        else if (g_signal) stop = Stop::Signal;
        // a script line goes out as soon as its prompt appeared; a terminal
        // or pipe is polled now and then (a system call per cycle would
        // cost more than the simulation)
        if (!o.uart_in.empty() || cyc % POLL_EVERY == 0) {
            console.poll(to_soc);
            while (!to_soc.empty()) {
                soc->uart_rx_push(to_soc.front());
                to_soc.pop_front();
            }
            if (console.quit_requested()) stop = Stop::Quit;
        }
        if (o.max_seconds > 0 && cyc % CLOCK_EVERY == 0 && wall() >= o.max_seconds) stop = Stop::MaxSeconds;
    }
    double secs = wall();
    console.flush();
    console.restore_terminal();
    if (tfp) tfp->close();
    soc->final();

    switch (stop) {
    case Stop::Exit: {
        uint32_t code = soc->exit_code();
        rc = int(code & 0xff);
        if (code != 0 && rc == 0) rc = 1;  // a failure must not look like success
        if (!o.quiet && code != 0)
            std::fprintf(stderr, "solonic_sim: firmware exit code %u at cycle %llu\n", code,
                         (unsigned long long)soc->cycles());
        break;
    }
    case Stop::Script:
        rc = 0;
        if (!o.quiet) std::fprintf(stderr, "\nsolonic_sim: end of %s\n", o.uart_in.c_str());
        break;
    case Stop::MaxCycles:
        rc = EXIT_LIMIT;
        if (!o.quiet)
            std::fprintf(stderr, "\nsolonic_sim: stopped by the cycle limit (--max-cycles %llu)\n",
                         (unsigned long long)max_cycles);
        break;
    case Stop::MaxSeconds:
        rc = EXIT_LIMIT;
        if (!o.quiet)
            std::fprintf(stderr, "\nsolonic_sim: stopped by the wall-time limit (--max-seconds %g) at cycle %llu\n",
                         o.max_seconds, (unsigned long long)soc->cycles());
        break;
    case Stop::Quit:
        rc = EXIT_QUIT;
        if (!o.quiet) std::fprintf(stderr, "\r\nsolonic_sim: quit (Ctrl-])\n");
        break;
    case Stop::Signal:
        rc = 128 + g_signal;
        if (!o.quiet) std::fprintf(stderr, "\nsolonic_sim: stopped by signal %d\n", int(g_signal));
        break;
    case Stop::Finish:
        rc = ctx->gotError() ? EXIT_HARNESS : 0;
        if (!o.quiet || rc)
            std::fprintf(stderr, "\nsolonic_sim: the RTL %s at cycle %llu\n",
                         ctx->gotError() ? "reported an error" : "called $finish",
                         (unsigned long long)soc->cycles());
        break;
    case Stop::None:
        break;
    }
    if (o.stats) {
        double cps = secs > 0 ? double(soc->cycles()) / secs : 0;
        std::fprintf(stderr, "solonic_sim: stats cycles=%llu instret=%llu wall_s=%.3f cycles_per_s=%.0f\n",
                     (unsigned long long)soc->cycles(), (unsigned long long)soc->retired(), secs, cps);
    }
    return rc;
}
