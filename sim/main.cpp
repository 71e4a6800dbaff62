// solonic_sim: the Verilator harness of the solonic NIC (docs/DEVELOPING.md,
// "The simulator"; sim/README.md for the Ethernet options).
//
//   solonic_sim --fw FILE.hex [--uart-in FILE] [--prompt STR] [--max-cycles N]
//               [--max-seconds S] [--fst FILE] [--quiet] [--stats]
//               [--nics N] [--wire SPEC] [--eth0 udp:LPORT:RPORT | unix:PATH:PEER]
//               [--pcap FILE] [--uartK-in FILE] [--uartK-log FILE] [--uartK-pty]
//               [--switch] [--link K:SPEC] [--fabric SPEC] [--pfc SPEC] [--fabric-stats FILE]
//               [--pcap-port K:FILE] [--fabric-csv FILE] [--fabric-sample CYCLES]
//
// Exit code: NIC 0's firmware's (written to the simctrl exit register; when NIC 0
// succeeded, the first failed NIC's of 1..N-1 in order), 124 when a limit
// stopped the run, 2 on a harness error, 130 when the user quit.
#include "eth_port.h"
#include "nic_instance.h"
#include "uart_console.h"

#include "eth_wire.h"
#include "mem_model.h"
#include "switch.h"
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
#include <map>
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
    int instance = 0;  // instance number of NIC 0 (NIC k has instance + k)
    std::string wire, wire_back, eth0, pcap;
    bool wire_set = false;
    // consoles of NICs 1..15 (index k; 0 unused: NIC 0 has --uart-in / stdin)
    std::string uart_in_k[fabric::MAX_PORTS], uart_log_k[fabric::MAX_PORTS];
    bool uart_pty_k[fabric::MAX_PORTS] = {};
    // the fabric
    bool use_switch = false;
    std::map<int, std::string> link_spec, pcap_port;  // by NIC
    std::string fabric, pfc, fabric_stats, fabric_csv;
    uint64_t fabric_sample = 0;
    bool switched() const { return nics >= 3 || (nics == 2 && use_switch); }
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
                 "  --nics N          1 to 16 NICs (default 1); with 2, NIC 0 and NIC 1 are joined by a cable,\n"
                 "                    with 3 or more every NIC is joined to a port of one switch\n"
                 "  --instance N      NIC 0's instance number (default 0; NIC k has N+k, at most 15): the\n"
                 "                    firmware's default MAC and IP follow it, as the DIP switches set it on a board\n"
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
                 "The switch (--nics 3..16, or --nics 2 --switch; sim/README.md \"The switch\"):\n"
                 "  --switch          with --nics 2: join the two NICs through the switch, not a cable\n"
                 "  --link K:SPEC     NIC K's two links to the switch take SPEC's --wire keys over --wire's\n"
                 "  --fabric SPEC     buffer=BYTES (shared, default 4M), portcap=BYTES (per egress queue, 0: none),\n"
                 "                    kmin=BYTES,kmax=BYTES,pmax=P (RED ECN marking, default 5000,200000,0.01),\n"
                 "                    ecn=0|1 (default 1), seed=N; sizes take K or M\n"
                 "  --pfc xoff=BYTES,xon=BYTES  802.3x pause to a NIC whose frames in the buffer exceed xoff,\n"
                 "                    resume when they fall to xon\n"
                 "  --fabric-stats FILE   the switch's per-port counters at exit to FILE (--stats: on stderr)\n"
                 "  --pcap-port K:FILE    the frames on NIC K's links, both ways, as they arrive\n"
                 "  --fabric-csv FILE     every --fabric-sample cycles (default 25000 = 100 us): queue depth\n"
                 "                    per port and bytes per flow (src MAC>dst MAC) that entered the switch\n"
                 "Consoles of NICs 1..N-1 (without these their output is discarded), K = 1..15:\n"
                 "  --uartK-in FILE   feed FILE to NIC K's UART, one line after each prompt\n"
                 "  --uartK-log FILE  write NIC K's UART output to FILE\n"
                 "  --uartK-pty       NIC K's UART on a pseudo-terminal (its path is printed on stderr)\n"
                 "The run ends when NIC 0 exits or its script ends; the other NICs' exit codes are\n"
                 "reported on stderr, and the first failed one's (by K) becomes the process's if NIC 0's is 0.\n"
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
                           : a == "--fabric"    ? &o.fabric
                           : a == "--pfc"       ? &o.pfc
                           : a == "--fabric-stats" ? &o.fabric_stats
                           : a == "--fabric-csv"   ? &o.fabric_csv
                                                : nullptr;
        // --uartK-in / --uartK-log / --uartK-pty, K = 1..15
        int uk = 0;
        std::string ukind;
        if (a.compare(0, 6, "--uart") == 0 && a.size() > 6 && std::isdigit(uint8_t(a[6]))) {
            size_t d = 6;
            while (d < a.size() && std::isdigit(uint8_t(a[d]))) d++;
            uk = std::atoi(a.substr(6, d - 6).c_str());
            ukind = a.substr(d);
            if (uk < 1 || uk >= fabric::MAX_PORTS || (ukind != "-in" && ukind != "-log" && ukind != "-pty")) {
                std::fprintf(stderr, "solonic_sim: unknown option '%s' (--uartK-in/-log/-pty, K = 1..15)\n",
                             a.c_str());
                return EXIT_HARNESS;
            }
            if (ukind == "-in") str = &o.uart_in_k[uk];
            if (ukind == "-log") str = &o.uart_log_k[uk];
        }
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else if (a == "--quiet") {
            o.quiet = true;
        } else if (a == "--stats") {
            o.stats = true;
        } else if (uk && ukind == "-pty") {
            o.uart_pty_k[uk] = true;
        } else if (a == "--switch") {
            o.use_switch = true;
        } else if (a == "--link" || a == "--pcap-port") {
            if (!(v = value(a.c_str()))) return EXIT_HARNESS;
            const char *colon = std::strchr(v, ':');
            uint64_t k;
            if (!colon || !parse_u64(std::string(v, colon).c_str(), k) || k >= uint64_t(fabric::MAX_PORTS) ||
                !colon[1]) {
                std::fprintf(stderr, "solonic_sim: %s wants K:%s with K = 0..15, not '%s'\n", a.c_str(),
                             a == "--link" ? "SPEC" : "FILE", v);
                return EXIT_HARNESS;
            }
            (a == "--link" ? o.link_spec : o.pcap_port)[int(k)] = colon + 1;
        } else if (a == "--fabric-sample") {
            if (!(v = value(a.c_str()))) return EXIT_HARNESS;
            if (!parse_u64(v, o.fabric_sample) || o.fabric_sample == 0) {
                std::fprintf(stderr, "solonic_sim: --fabric-sample wants a positive number, not '%s'\n", v);
                return EXIT_HARNESS;
            }
        } else if (str) {
            if (!(v = value(a.c_str()))) return EXIT_HARNESS;
            *str = v;
            if (a == "--wire") o.wire_set = true;
        } else if (a == "--nics") {
            if (!(v = value("--nics"))) return EXIT_HARNESS;
            uint64_t n;
            if (!parse_u64(v, n) || n < 1 || n > uint64_t(fabric::MAX_PORTS)) {
                std::fprintf(stderr, "solonic_sim: --nics is 1 to %d, not '%s'\n", fabric::MAX_PORTS, v);
                return EXIT_HARNESS;
            }
            o.nics = int(n);
        } else if (a == "--instance") {
            if (!(v = value("--instance"))) return EXIT_HARNESS;
            uint64_t n;
            if (!parse_u64(v, n) || n > 15) {
                std::fprintf(stderr, "solonic_sim: --instance is 0..15, not '%s'\n", v);
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
    for (int k = 1; k < fabric::MAX_PORTS; k++) {
        bool used = !o.uart_in_k[k].empty() || !o.uart_log_k[k].empty() || o.uart_pty_k[k];
        std::string K = std::to_string(k);
        if (used && k >= o.nics) {
            std::fprintf(stderr, "solonic_sim: --uart%s-in, -log and -pty need --nics %d or more (see --help)\n",
                         K.c_str(), k + 1);
            return EXIT_HARNESS;
        }
        if (o.uart_pty_k[k] && !o.uart_in_k[k].empty()) {
            std::fprintf(stderr, "solonic_sim: --uart%s-pty and --uart%s-in exclude each other (see --help)\n",
                         K.c_str(), K.c_str());
            return EXIT_HARNESS;
        }
    }
    if (o.instance + o.nics - 1 > 15) return fail("--instance plus the number of NICs goes past instance 15");
    if (o.use_switch && o.nics < 2) return fail("--switch needs --nics 2 or more");
    if (o.nics >= 2 && !o.eth0.empty())
        return fail("--eth0 needs --nics 1: with 2 or more NICs, NIC 0's port is on the cable or the switch");
    if (o.wire_set && o.nics < 2 && o.eth0.empty()) return fail("--wire needs --nics 2 or more, or --eth0");
    if (!o.wire_back.empty() && (o.nics != 2 || o.switched()))
        return fail("--wire-back needs --nics 2 without --switch (with the switch: --link K:SPEC)");
    bool fabric_opt = !o.link_spec.empty() || !o.pcap_port.empty() || !o.fabric.empty() || !o.pfc.empty() ||
                      !o.fabric_stats.empty() || !o.fabric_csv.empty() || o.fabric_sample;
    if (fabric_opt && !o.switched())
        return fail("--link, --fabric, --pfc, --fabric-stats, --fabric-csv, --fabric-sample and --pcap-port need "
                    "the switch (--nics 3 or more, or --nics 2 --switch)");
    for (auto &m : {o.link_spec, o.pcap_port})
        for (auto &kv : m)
            if (kv.first >= o.nics) return fail("--link / --pcap-port: no such NIC");
    if (o.fabric_sample && o.fabric_csv.empty()) return fail("--fabric-sample needs --fabric-csv");
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

// NIC k's console (k >= 1) from the --uartK-* options
bool open_console(const Options &o, int k, UartConsole &c, std::string &err) {
    c.set_prompt(o.prompt);
    if (!o.uart_log_k[k].empty() && !c.open_log(o.uart_log_k[k], err)) return false;
    if (o.uart_pty_k[k]) {
        std::string path;
        if (!c.open_pty(path, err)) return false;
        // printed even with --quiet: it is what the user asked for
        std::fprintf(stderr, "solonic_sim: NIC %d's UART is on %s\n", k, path.c_str());
        return true;
    }
    if (!o.uart_in_k[k].empty()) return c.open_script(o.uart_in_k[k], err);
    if (o.uart_log_k[k].empty()) c.discard_output();
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
    fabric::Config fcfg;
    std::vector<wire::Config> link_up(size_t(o.nics), wcfg), link_down(size_t(o.nics), wcfg);
    std::map<int, std::unique_ptr<wire::PcapWriter>> port_pcaps;
    std::FILE *csv = nullptr;
    if (o.switched()) {
        if (!fabric::parse_config(o.fabric, fcfg, err)) return harness_error("--fabric: " + err);
        if (!o.pfc.empty() && !fabric::parse_pfc(o.pfc, fcfg, err)) return harness_error("--pfc: " + err);
        if (!fabric::check_config(fcfg, err)) return harness_error("--fabric/--pfc: " + err);
        for (auto &kv : o.link_spec) {
            // each direction its own fault stream: the seeds differ by the link's salt
            if (!wire::parse_config(kv.second, link_up[size_t(kv.first)], err) ||
                !wire::parse_config(kv.second, link_down[size_t(kv.first)], err))
                return harness_error("--link " + std::to_string(kv.first) + ": " + err);
        }
        for (auto &kv : o.pcap_port) {
            auto w = std::make_unique<wire::PcapWriter>();
            if (!w->open(kv.second, CLK_HZ, err)) return harness_error("--pcap-port: " + err);
            port_pcaps[kv.first] = std::move(w);
        }
        if (!o.fabric_csv.empty()) {
            csv = std::fopen(o.fabric_csv.c_str(), "w");
            if (!csv) return harness_error("--fabric-csv: cannot write " + o.fabric_csv + ": " + std::strerror(errno));
            std::fprintf(csv, "cycle,kind,name,value\n");
        }
    }
    const uint64_t fabric_sample = o.fabric_sample ? o.fabric_sample : 25000;

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
    for (int k = 1; k < o.nics; k++) {
        consoles.push_back(std::make_unique<UartConsole>());
        if (!open_console(o, k, *consoles[size_t(k)], err)) return harness_error(err);
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
    std::unique_ptr<fabric::Switch> sw;
    std::unique_ptr<SocketPort> socket_port;
    std::vector<std::unique_ptr<EthPort>> ports;  // the cable's two ends, or the NICs' switch ports
    std::vector<EthPort *> ticking;               // ports with outside I/O
    if (o.switched()) {
        sw = std::make_unique<fabric::Switch>(o.nics, fcfg, link_up, link_down);
        sw->track_flows = csv != nullptr;
        wire::PcapWriter *all = pcap.get();
        sw->on_frame = [all, &port_pcaps](int k, uint64_t now, const wire::Frame &f, bool) {
            if (all) all->write(now, f);
            auto it = port_pcaps.find(k);
            if (it != port_pcaps.end()) it->second->write(now, f);
        };
        for (int k = 0; k < o.nics; k++) {
            auto it = port_pcaps.find(k);
            ports.push_back(std::make_unique<SwitchPort>(*sw, k, pcap.get(),
                                                         it == port_pcaps.end() ? nullptr : it->second.get(),
                                                         link_down[size_t(k)]));
            nics[size_t(k)]->plug(ports.back().get());
        }
    } else if (o.nics == 2) {
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
                     o.nics >= 2 ? (", " + std::to_string(o.nics) + " NICs" + (o.switched() ? " on a switch" : "")).c_str() : "", o.eth0.empty() ? "" : (", eth0 " + o.eth0).c_str(),
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
        if (sw) sw->tick(cycle);
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
        if (csv && cycle % fabric_sample == 0) {
            for (int k = 0; k < sw->ports(); k++)
                std::fprintf(csv, "%llu,queue,port%d,%llu\n", (unsigned long long)cycle, k,
                             (unsigned long long)sw->queue_bytes(k));
            for (auto &fb : sw->take_flow_bytes())
                std::fprintf(csv, "%llu,flow,%s,%llu\n", (unsigned long long)cycle, fb.first.c_str(),
                             (unsigned long long)fb.second);
        }
    }
    if (csv) std::fclose(csv);
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
    // NICs 1..N-1: their exit codes on stderr; the first failure (by K) is the run's
    // unless NIC 0 failed first
    for (size_t k = 1; k < nics.size(); k++) {
        NicInstance &n = *nics[k];
        if (n.exited()) {
            if (!o.quiet)
                std::fprintf(stderr, "solonic_sim: NIC %zu firmware exit code %u at cycle %llu\n", k, n.exit_code(),
                             (unsigned long long)n.exit_cycle());
            if (rc == 0 && n.exit_code() != 0) rc = exit_rc(n.exit_code());
        } else if (!o.quiet) {
            std::fprintf(stderr, "solonic_sim: NIC %zu was still running\n", k);
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
        if (sw) lines.push_back(sw->stats_text());
        for (const std::string &l : lines) {
            std::stringstream ss(l);
            std::string one;
            while (std::getline(ss, one)) std::fprintf(stderr, "solonic_sim: stats %s\n", one.c_str());
        }
    }
    if (sw && !o.fabric_stats.empty()) {
        std::FILE *f = std::fopen(o.fabric_stats.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "solonic_sim: --fabric-stats: cannot write %s: %s\n", o.fabric_stats.c_str(),
                         std::strerror(errno));
            if (rc == 0) rc = EXIT_HARNESS;
        } else {
            std::fputs(sw->stats_text().c_str(), f);
            for (auto &p : ports) std::fprintf(f, "%s\n", p->stats().c_str());
            std::fclose(f);
        }
    }
    return rc;
}
