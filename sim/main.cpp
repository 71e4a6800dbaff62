// solonic_sim: the Verilator harness of the solonic NIC (docs/DEVELOPING.md,
// "The simulator"; sim/README.md for the Ethernet options).
//
//   solonic_sim --fw FILE.hex [--uart-in FILE] [--prompt STR] [--max-cycles N]
//               [--max-seconds S] [--fst FILE] [--quiet] [--stats]
//               [--nics N] [--wire SPEC] [--eth0 udp:LPORT:RPORT | unix:PATH:PEER]
//               [--pcap FILE] [--uart1-in FILE] [--uart1-log FILE] [--uart1-pty]
//
// Exit code: NIC 0's firmware's (written to the simctrl exit register; with
// two NICs NIC 1's when NIC 0 succeeded and NIC 1 failed), 124 when a limit
// stopped the run, 2 on a harness error, 130 when the user quit.
#include "eth_port.h"
#include "nic_instance.h"
#include "uart_console.h"

#include "eth_wire.h"
#include "mem_model.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

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
    std::string fw, uart_in, fst, profile, mem, prompt = "solonic> ";
    uint64_t max_cycles = 0;
    bool max_cycles_set = false;
    double max_seconds = 0;
    bool quiet = false, stats = false;
    int nics = 1;
    int instance = 0;  // instance number of NIC 0 (NIC 1 has the next)
    std::string wire, wire_back, eth0, pcap, uart1_in, uart1_log;
    bool wire_set = false, uart1_pty = false;
    uint64_t eth_poll_idle = 0, eth_poll_active = 0;  // 0: SocketPort's default
};

void usage(FILE *f) {
    std::fprintf(f,
                 "usage: solonic_sim --fw FILE.hex [options]\n"
                 "  --fw FILE.hex     firmware image for the instruction BRAM ($readmemh, one word per line);\n"
                 "                    every NIC runs it (the firmware tells them apart by mgmt.instance)\n"
                 "  --uart-in FILE    feed FILE to NIC 0's UART, one line after each prompt; the run ends\n"
                 "                    with exit code 0 at the prompt after the last line\n"
                 "  --prompt STR      the console prompt to wait for (default \"solonic> \")\n"
                 "  --max-cycles N    stop with exit code 124 after N cycles\n"
                 "                    (default: no limit on a terminal, %llu otherwise)\n"
                 "  --max-seconds S   stop with exit code 124 after S seconds of wall time\n"
                 "  --fst FILE        write FST waveforms (every NIC)\n"
                 "  --mem SPEC        each NIC's on-board memory: rd=CYCLES (first read beat after AR,\n"
                 "                    default 40), wr=CYCLES (write response after wlast, default 20),\n"
                 "                    jitter=CYCLES, stall=PERMILLE, outstanding=N (bursts per direction,\n"
                 "                    default 64), bw=BYTES per cycle shared by reads and writes (0: none)\n"
                 "  --profile PREFIX  firmware profile: cycles per instruction address at the core's\n"
                 "                    last stage, written at exit to PREFIX.nicN.txt (scripts/fw_profile.py\n"
                 "                    sums them by function)\n"
                 "  --quiet           no harness messages on stderr\n"
                 "  --stats           print per NIC cycles and instructions, per link frames, bytes\n"
                 "                    and faults, wall time and cycles/s at exit\n"
                 "Ethernet (frames without FCS; every link runs the wire model sim/wire):\n"
                 "  --nics N          1 or 2 NICs (default 1); with 2, NIC 0 and NIC 1 are joined by a cable\n"
                 "  --instance N      NIC 0's instance number 0..14 (default 0; NIC 1 has N+1): the firmware's\n"
                 "                    default MAC and IP follow it, as the DIP switches set it on a board\n"
                 "  --wire SPEC       the cable's (or --eth0's) wire model: drop=P,dup=P,reorder=P,corrupt=P,\n"
                 "                    depth=FRAMES,jitter=CYCLES,port=UDP,skip=BYTES,delay=CYCLES,seed=N,rate=BPS\n"
                 "                    (default: 100e9, no delay, no faults; sim/README.md)\n"
                 "  --wire-back SPEC  with --nics 2: the direction NIC 1 -> NIC 0 takes these keys over --wire's\n"
                 "  --eth0 udp:LPORT:RPORT   NIC 0's port on a UDP socket: bind 127.0.0.1:LPORT, send to\n"
                 "                    127.0.0.1:RPORT, one frame per datagram (QEMU -netdev dgram / socket,udp=)\n"
                 "  --eth0 unix:PATH:PEER    the same on unix datagram sockets (bind PATH, send to PEER),\n"
                 "                    lossless: when PEER's queue is full the NIC's TX waits\n"
                 "  --pcap FILE       every frame on every link, both directions, when it arrives at the far\n"
                 "                    end (after faults), with its arrival cycle as the timestamp\n"
                 "  --eth-poll-active N  cycles between socket polls while frames flow (default %llu)\n"
                 "  --eth-poll-idle N    the same when no frame moved for a while (default %llu)\n"
                 "NIC 1's console (with --nics 2; without these its output is discarded):\n"
                 "  --uart1-in FILE   feed FILE to NIC 1's UART, one line after each prompt\n"
                 "  --uart1-log FILE  write NIC 1's UART output to FILE\n"
                 "  --uart1-pty       NIC 1's UART on a pseudo-terminal (its path is printed on stderr)\n"
                 "With 2 NICs the run ends when NIC 0 exits or its script ends; NIC 1's exit code is\n"
                 "reported on stderr and becomes the process's if NIC 1 failed and NIC 0 did not.\n"
                 "On a terminal, Ctrl-] ends the run (exit code 130); Ctrl-C goes to the firmware.\n",
                 (unsigned long long)DEFAULT_MAX_CYCLES, (unsigned long long)SocketPort::active_poll,
                 (unsigned long long)SocketPort::idle_poll);
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
        std::string *str = a == "--fw"          ? &o.fw
                           : a == "--uart-in"   ? &o.uart_in
                           : a == "--fst"       ? &o.fst
                           : a == "--profile"   ? &o.profile
                           : a == "--mem"       ? &o.mem
                           : a == "--prompt"    ? &o.prompt
                           : a == "--wire"      ? &o.wire
                           : a == "--wire-back" ? &o.wire_back
                           : a == "--eth0"      ? &o.eth0
                           : a == "--pcap"      ? &o.pcap
                           : a == "--uart1-in"  ? &o.uart1_in
                           : a == "--uart1-log" ? &o.uart1_log
                                                : nullptr;
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else if (a == "--quiet") {
            o.quiet = true;
        } else if (a == "--stats") {
            o.stats = true;
        } else if (a == "--uart1-pty") {
            o.uart1_pty = true;
        } else if (str) {
            if (!(v = value(a.c_str()))) return EXIT_HARNESS;
            *str = v;
            if (a == "--wire") o.wire_set = true;
        } else if (a == "--nics") {
            if (!(v = value("--nics"))) return EXIT_HARNESS;
            if (std::strcmp(v, "1") && std::strcmp(v, "2")) {
                std::fprintf(stderr, "solonic_sim: --nics is 1 or 2, not '%s'\n", v);
                return EXIT_HARNESS;
            }
            o.nics = std::atoi(v);
        } else if (a == "--instance") {
            if (!(v = value("--instance"))) return EXIT_HARNESS;
            uint64_t n;
            if (!parse_u64(v, n) || n > 14) {
                std::fprintf(stderr, "solonic_sim: --instance is 0..14, not '%s'\n", v);
                return EXIT_HARNESS;
            }
            o.instance = int(n);
        } else if (a == "--max-cycles" || a == "--eth-poll-idle" || a == "--eth-poll-active") {
            if (!(v = value(a.c_str()))) return EXIT_HARNESS;
            uint64_t &dst = a == "--max-cycles"      ? o.max_cycles
                            : a == "--eth-poll-idle" ? o.eth_poll_idle
                                                     : o.eth_poll_active;
            if (!parse_u64(v, dst) || dst == 0) {
                std::fprintf(stderr, "solonic_sim: %s wants a positive number, not '%s'\n", a.c_str(), v);
                return EXIT_HARNESS;
            }
            if (a == "--max-cycles") o.max_cycles_set = true;
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
    auto fail = [](const char *msg) {
        std::fprintf(stderr, "solonic_sim: %s (see --help)\n", msg);
        return EXIT_HARNESS;
    };
    if (o.fw.empty()) return fail("--fw FILE.hex is required");
    if (o.prompt.empty()) return fail("--prompt must not be empty");
    bool uart1 = !o.uart1_in.empty() || !o.uart1_log.empty() || o.uart1_pty;
    if (uart1 && o.nics < 2) return fail("--uart1-in, --uart1-log and --uart1-pty need --nics 2");
    if (o.uart1_pty && !o.uart1_in.empty()) return fail("--uart1-pty and --uart1-in exclude each other");
    if (o.nics == 2 && !o.eth0.empty())
        return fail("--eth0 needs --nics 1: with 2 NICs, NIC 0's port is on the cable to NIC 1");
    if (o.wire_set && o.nics < 2 && o.eth0.empty()) return fail("--wire needs --nics 2 or --eth0");
    if (!o.wire_back.empty() && o.nics < 2) return fail("--wire-back needs --nics 2");
    if ((o.eth_poll_idle || o.eth_poll_active) && o.eth0.empty())
        return fail("--eth-poll-idle and --eth-poll-active need --eth0");
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

// NIC 1's console from the --uart1-* options
bool open_console1(const Options &o, UartConsole &c, std::string &err) {
    c.set_prompt(o.prompt);
    if (!o.uart1_log.empty() && !c.open_log(o.uart1_log, err)) return false;
    if (o.uart1_pty) {
        std::string path;
        if (!c.open_pty(path, err)) return false;
        // printed even with --quiet: it is what the user asked for
        std::fprintf(stderr, "solonic_sim: NIC 1's UART is on %s\n", path.c_str());
        return true;
    }
    if (!o.uart1_in.empty()) return c.open_script(o.uart1_in, err);
    if (o.uart1_log.empty()) c.discard_output();
    return true;
}

// the process exit code for a firmware exit code: a failure must not look like success
int exit_rc(uint32_t code) {
    int rc = int(code & 0xff);
    return code != 0 && rc == 0 ? 1 : rc;
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
    auto harness_error = [&](const std::string &msg) {
        std::fprintf(stderr, "solonic_sim: %s\n", msg.c_str());
        return EXIT_HARNESS;
    };

    // --- the wire and the Ethernet attachments
    wire::Config wcfg;
    wcfg.clk_hz = CLK_HZ;
    if (!wire::parse_config(o.wire, wcfg, err)) return harness_error("--wire: " + err);
    wire::Config wback = wcfg;  // NIC 1 -> NIC 0: --wire, then --wire-back's keys
    if (!wire::parse_config(o.wire_back, wback, err)) return harness_error("--wire-back: " + err);
    SocketSpec sspec;
    if (!o.eth0.empty() && !parse_socket_spec(o.eth0, sspec, err)) return harness_error(err);
    if (o.eth_poll_idle) SocketPort::idle_poll = o.eth_poll_idle;
    if (o.eth_poll_active) SocketPort::active_poll = o.eth_poll_active;
    std::unique_ptr<wire::PcapWriter> pcap;
    if (!o.pcap.empty()) {
        pcap = std::make_unique<wire::PcapWriter>();
        if (!pcap->open(o.pcap, CLK_HZ, err)) return harness_error("--pcap: " + err);
    }

    // --- consoles
    std::vector<std::unique_ptr<UartConsole>> consoles;
    consoles.push_back(std::make_unique<UartConsole>());
    UartConsole &console = *consoles[0];
    console.set_prompt(o.prompt);
    if (!o.uart_in.empty()) {
        if (!console.open_script(o.uart_in, err)) return harness_error(err);
    } else {
        console.open_stdin();
    }
    if (o.nics == 2) {
        consoles.push_back(std::make_unique<UartConsole>());
        if (!open_console1(o, *consoles[1], err)) return harness_error(err);
    }
    uint64_t max_cycles = o.max_cycles_set ? o.max_cycles : console.interactive() ? 0 : DEFAULT_MAX_CYCLES;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::signal(SIGHUP, on_signal);

    // --- the models
    auto ctx = std::make_unique<VerilatedContext>();
    std::string fw_arg = "+fw=" + o.fw, prof_arg = "+profile=" + o.profile;
    const char *vargs[] = {"solonic_sim", fw_arg.c_str(), prof_arg.c_str()};
    ctx->commandArgs(o.profile.empty() ? 2 : 3, vargs);
    ctx->fatalOnError(false);  // an RTL $error ends the loop instead of aborting
    if (!o.fst.empty()) ctx->traceEverOn(true);

    std::vector<std::unique_ptr<NicInstance>> nics;
    for (int i = 0; i < o.nics; i++) {
        if (!o.mem.empty()) {  // sim_nic's memory is keyed by the instance number
            mem_model_cfg check;
            if (!mem_model_parse_config(o.mem, check, err)) return harness_error("--mem: " + err);
            mem_model_set_overrides(o.instance + i, o.mem);  // over sim_nic's mem_axi_ram parameters
        }
        nics.push_back(std::make_unique<NicInstance>(ctx.get(), "nic" + std::to_string(i), uint8_t(o.instance + i)));
        UartConsole *c = consoles[size_t(i)].get();
        nics[size_t(i)]->on_uart_tx = [c](uint8_t ch) { c->tx(ch); };
    }
    std::unique_ptr<wire::Cable> cable;
    std::unique_ptr<SocketPort> socket_port;
    std::vector<std::unique_ptr<EthPort>> ports;  // the cable's two ends
    std::vector<EthPort *> ticking;               // ports with outside I/O
    if (o.nics == 2) {
        cable = std::make_unique<wire::Cable>(wcfg, wback);
        ports.push_back(std::make_unique<CablePort>(cable->ab, cable->ba, "nic1->nic0", pcap.get()));
        ports.push_back(std::make_unique<CablePort>(cable->ba, cable->ab, "nic0->nic1", pcap.get()));
        nics[0]->plug(ports[0].get());
        nics[1]->plug(ports[1].get());
    } else if (!o.eth0.empty()) {
        socket_port = std::make_unique<SocketPort>(sspec, wcfg, "nic0", pcap.get());
        if (!socket_port->open(err)) return harness_error(err);
        nics[0]->plug(socket_port.get());
        ticking.push_back(socket_port.get());
    }

    std::unique_ptr<VerilatedFstC> tfp;
    if (!o.fst.empty()) {
        tfp = std::make_unique<VerilatedFstC>();
        for (auto &n : nics) n->trace(tfp.get(), 99);
        tfp->open(o.fst.c_str());
        if (!tfp->isOpen()) return harness_error("cannot write " + o.fst);
    }
    if (!o.quiet) {
        std::fprintf(stderr, "solonic_sim: %s (%u words)%s%s%s\n", o.fw.c_str(), fw_words,
                     o.nics == 2 ? ", 2 NICs" : "", o.eth0.empty() ? "" : (", eth0 " + o.eth0).c_str(),
                     console.interactive() ? ", Ctrl-] quits" : "");
    }

    // --- one clock cycle of every NIC: the handshakes of the coming edge
    // are taken everywhere first, then every model sees the edge, then the
    // links move frames and the next cycle's inputs are set
    uint64_t cycle = 0;
    auto step = [&] {
        for (auto &n : nics) n->sample(cycle);
        if (tfp) tfp->dump(ctx->time());
        ctx->timeInc(HALF_PERIOD_PS);
        for (auto &n : nics) n->rise();
        if (tfp) tfp->dump(ctx->time());
        ctx->timeInc(HALF_PERIOD_PS);
        cycle++;
        for (EthPort *p : ticking) p->tick(cycle);
        for (auto &n : nics) n->fall(cycle);
    };

    auto t0 = std::chrono::steady_clock::now();
    auto wall = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    for (auto &n : nics) n->set_reset(true);
    for (int i = 0; i < RESET_CYCLES; i++) step();
    for (auto &n : nics) n->set_reset(false);

    enum class Stop { None, Exit, Script, MaxCycles, MaxSeconds, Quit, Signal, Finish };
    Stop stop = Stop::None;
    std::deque<uint8_t> to_nic;
    while (stop == Stop::None) {
        step();
        if (nics[0]->exited()) stop = Stop::Exit;
        else if (console.done()) stop = Stop::Script;
        else if (ctx->gotFinish()) stop = Stop::Finish;
        else if (max_cycles && cycle >= max_cycles) stop = Stop::MaxCycles;
        else if (g_signal) stop = Stop::Signal;
        // a script line goes out as soon as its prompt appeared; a terminal,
        // pipe or pty is polled now and then (a system call per cycle would
        // cost more than the simulation)
        for (size_t i = 0; i < consoles.size(); i++) {
            UartConsole &c = *consoles[i];
            if (!c.scripted() && cycle % POLL_EVERY != 0) continue;
            c.poll(to_nic);
            while (!to_nic.empty()) {
                nics[i]->uart_rx_push(to_nic.front());
                to_nic.pop_front();
            }
            if (c.quit_requested()) stop = Stop::Quit;
        }
        if (o.max_seconds > 0 && cycle % CLOCK_EVERY == 0 && wall() >= o.max_seconds) stop = Stop::MaxSeconds;
    }
    double secs = wall();
    for (auto &c : consoles) c->flush();
    console.restore_terminal();
    if (tfp) tfp->close();
    for (auto &n : nics) n->final();

    switch (stop) {
    case Stop::Exit: {
        uint32_t code = nics[0]->exit_code();
        rc = exit_rc(code);
        if (!o.quiet && code != 0)
            std::fprintf(stderr, "solonic_sim: firmware exit code %u at cycle %llu\n", code,
                         (unsigned long long)nics[0]->exit_cycle());
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
                         o.max_seconds, (unsigned long long)cycle);
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
                         ctx->gotError() ? "reported an error" : "called $finish", (unsigned long long)cycle);
        break;
    case Stop::None:
        break;
    }
    // NIC 1: its exit code on stderr; its failure is the run's unless NIC 0 failed first
    if (nics.size() > 1) {
        NicInstance &n1 = *nics[1];
        if (n1.exited()) {
            if (!o.quiet)
                std::fprintf(stderr, "solonic_sim: NIC 1 firmware exit code %u at cycle %llu\n", n1.exit_code(),
                             (unsigned long long)n1.exit_cycle());
            if (rc == 0 && n1.exit_code() != 0) rc = exit_rc(n1.exit_code());
        } else if (!o.quiet) {
            std::fprintf(stderr, "solonic_sim: NIC 1 was still running\n");
        }
    }
    for (auto &n : nics) {
        if (n->tx_bad_keep() && !o.quiet)
            std::fprintf(stderr, "solonic_sim: %s sent %llu TX beats with a bad tkeep\n", n->name().c_str(),
                         (unsigned long long)n->tx_bad_keep());
    }
    if (socket_port && !o.quiet && !socket_port->problems().empty())
        std::fprintf(stderr, "solonic_sim: %s\n", socket_port->problems().c_str());
    if (o.stats) {
        double cps = secs > 0 ? double(cycle) / secs : 0;
        std::fprintf(stderr, "solonic_sim: stats cycles=%llu instret=%llu wall_s=%.3f cycles_per_s=%.0f\n",
                     (unsigned long long)cycle, (unsigned long long)nics[0]->retired(), secs, cps);
        for (auto &n : nics)
            std::fprintf(stderr,
                         "solonic_sim: stats %s cycles=%llu instret=%llu tx_frames=%llu rx_frames=%llu"
                         " tx_discarded=%llu\n",
                         n->name().c_str(), (unsigned long long)n->cycles(), (unsigned long long)n->retired(),
                         (unsigned long long)n->tx_frames(), (unsigned long long)n->rx_frames(),
                         (unsigned long long)n->tx_discarded());
        std::vector<std::string> lines;
        for (auto &p : ports) lines.push_back(p->stats());
        if (socket_port) lines.push_back(socket_port->stats());
        for (const std::string &l : lines) {
            std::stringstream ss(l);
            std::string one;
            while (std::getline(ss, one)) std::fprintf(stderr, "solonic_sim: stats %s\n", one.c_str());
        }
    }
    return rc;
}
