// tb_board: the VCU118 board top in simulation (tests/boards/tb_board.sv),
// with two independent clocks, the CMAC's line side in C++ and the console on
// the board's UART pins. Options as solonic_sim's where they overlap, so the
// Scapy peer of tests/mgmt (nicpeer.py, SOLONIC_NIC_SIM) can drive it:
//
//   Vtb_board --fw FILE.hex [--eth0 udp:HOST:LPORT:RPORT] [--instance N]
//             [--max-cycles N] [--max-seconds S] [--quiet]
//             [--baud-div N] [--sys-ppm P] [--mac-ppm P] [--tready-every N]
//
// Clocks: the NIC clock at 250 MHz and the CMAC stream clock at 322.265625 MHz,
// each off by its --*-ppm, stepped edge by edge on a femtosecond time line.
// UART: stdin is typed on uart_rxd (8N1), one line at a time after the
// console's prompt; uart_txd is decoded to stdout. The bit time is --baud-div
// NIC cycles: the board's 115200 Bd is 2170 (the register's reset value, used
// as is); any other value is a test baud rate, written into the UART's divisor
// register right after reset (as firmware could), default 16.
// Ethernet: the CMAC model (DPI functions below) paces received frames at
// 100 Gb/s (preamble, FCS and gap counted), never waits for the board (the
// CMAC has no RX back-pressure), drops tx_axis_tready for one cycle in every
// --tready-every cycles, and checks every transmitted frame: no gap between a
// frame's beats (a CMAC TX underflow), contiguous tkeep, at least 60 bytes.
// At the end a line "tb_board: stats ..." goes to stderr.
// Exit code: the firmware's (simctrl), 124 on a limit, 2 on a harness error,
// 3 when the CMAC model saw a rule broken.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vtb_board.h"
#include "Vtb_board___024root.h"
#include "Vtb_board__Dpi.h"
#include "svdpi.h"
#include "verilated.h"

using Bytes = std::vector<uint8_t>;

// ------------------------------------------------------------- CMAC model
struct CmacModel {
    std::string path;
    std::deque<Bytes> rx_q;          // frames from the line, not yet presented
    size_t rx_off = 0;               // bytes of rx_q.front() presented
    double credit = 0;               // line bytes available (100 Gb/s)
    double bytes_per_cycle = 0;      // line bytes per stream-clock cycle
    std::deque<Bytes> tx_out;        // frames sent by the board
    Bytes tx_cur;
    bool tx_in_frame = false;
    uint64_t cycle = 0, tready_every = 32;
    uint64_t rx_frames = 0, tx_frames = 0, underflows = 0, runts = 0, bad_keep = 0;
};

static std::vector<CmacModel> g_cmacs;
static double g_mac_period_s = 1.0 / 322265625.0;
static uint64_t g_tready_every = 32;

extern "C" int cmac_sim_open(const char *path, svBit rsfec) {
    (void)rsfec;
    CmacModel m;
    m.path = path;
    m.bytes_per_cycle = 100e9 / 8 * g_mac_period_s;
    m.tready_every = g_tready_every;
    g_cmacs.push_back(m);
    return (int)g_cmacs.size() - 1;
}

extern "C" void cmac_sim_rx(int h, svBit *valid, svBitVecVal *data, svBitVecVal *keep, svBit *last,
                            svBit *user) {
    CmacModel &m = g_cmacs[h];
    for (int w = 0; w < 16; w++) data[w] = 0;
    keep[0] = keep[1] = 0;
    *valid = 0;
    *last = 0;
    *user = 0;
    m.credit = std::min(m.credit + m.bytes_per_cycle, 256.0);
    if (m.rx_q.empty()) return;
    const Bytes &f = m.rx_q.front();
    size_t nb = std::min<size_t>(64, f.size() - m.rx_off);
    double need = nb + (m.rx_off == 0 ? 8 : 0) + (m.rx_off + nb >= f.size() ? 4 + 12 : 0);
    if (m.credit < need) return;      // the line has not delivered these bytes yet
    m.credit -= need;
    for (size_t i = 0; i < nb; i++) data[i / 4] |= (uint32_t)f[m.rx_off + i] << (8 * (i % 4));
    uint64_t k = nb >= 64 ? ~0ull : ((1ull << nb) - 1);
    keep[0] = (uint32_t)k;
    keep[1] = (uint32_t)(k >> 32);
    *valid = 1;
    m.rx_off += nb;
    if (m.rx_off >= f.size()) {
        *last = 1;
        m.rx_q.pop_front();
        m.rx_off = 0;
        m.rx_frames++;
    }
}

extern "C" svBit cmac_sim_tx(int h, svBit valid, svBit ready, const svBitVecVal *data, const svBitVecVal *keep,
                             svBit last, svBit user) {
    CmacModel &m = g_cmacs[h];
    (void)user;
    if (m.tx_in_frame && !valid) m.underflows++;   // a gap inside a frame
    if (valid && ready) {
        uint64_t k = keep[0] | ((uint64_t)keep[1] << 32);
        int n = __builtin_popcountll(k);
        if (k != (n >= 64 ? ~0ull : ((1ull << n) - 1)) || n == 0 || (!last && n != 64)) m.bad_keep++;
        for (int i = 0; i < n; i++) m.tx_cur.push_back((uint8_t)(data[i / 4] >> (8 * (i % 4))));
        m.tx_in_frame = !last;
        if (last) {
            if (m.tx_cur.size() < 60) m.runts++;
            m.tx_out.push_back(m.tx_cur);
            m.tx_cur.clear();
            m.tx_frames++;
        }
    }
    m.cycle++;
    return !(m.tready_every && m.cycle % m.tready_every == 0);
}

// ------------------------------------------------------------------ UART
struct UartTx {   // bench -> board
    std::deque<uint8_t> q;
    uint32_t div = 2170, cnt = 0;
    int bit = -1;                    // -1 idle, 0 start, 1..8 data, 9 stop
    uint8_t cur = 0;
    int line() const { return bit == 0 ? 0 : (bit >= 1 && bit <= 8) ? ((cur >> (bit - 1)) & 1) : 1; }
    void tick() {
        if (bit < 0) {
            if (q.empty()) return;
            cur = q.front();
            q.pop_front();
            bit = 0;
            cnt = 0;
            return;
        }
        if (++cnt >= div) {
            cnt = 0;
            if (++bit > 9) bit = -1;
        }
    }
};

struct UartRx {   // board -> bench
    uint32_t div = 2170, cnt = 0;
    int bit = -1;
    uint8_t cur = 0;
    int prev = 1;
    uint64_t framing_errors = 0;
    bool tick(int line, uint8_t &out) {
        bool got = false;
        if (bit < 0) {
            if (prev == 1 && line == 0) { bit = 0; cnt = div / 2; }
        } else if (cnt == 0) {
            if (bit == 0) {
                if (line != 0) bit = -1;          // a glitch
                else { bit = 1; cnt = div; cur = 0; }
            } else if (bit <= 8) {
                cur |= (uint8_t)(line << (bit - 1));
                bit++;
                cnt = div;
            } else {
                if (line == 1) { out = cur; got = true; }
                else framing_errors++;
                bit = -1;
            }
        }
        if (cnt) cnt--;
        prev = line;
        return got;
    }
};

static int usage(const char *msg) {
    std::fprintf(stderr, "tb_board: %s\nusage: Vtb_board --fw FILE.hex [--eth0 udp:HOST:LPORT:RPORT] [--instance N] "
                 "[--max-cycles N] [--max-seconds S] [--quiet] [--baud-div N] [--sys-ppm P] [--mac-ppm P] "
                 "[--tready-every N]\n", msg);
    return 2;
}

int main(int argc, char **argv) {
    std::string fw, eth0;
    uint64_t max_cycles = 400000000ull;
    double max_seconds = 0, sys_ppm = 0, mac_ppm = 0;
    unsigned instance = 0, baud_div = 16;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) { std::fprintf(stderr, "tb_board: %s needs a value\n", a.c_str()); std::exit(2); }
            return argv[++i];
        };
        if (a == "--fw") fw = val();
        else if (a == "--eth0") eth0 = val();
        else if (a == "--instance") instance = (unsigned)std::stoul(val());
        else if (a == "--max-cycles") max_cycles = std::stoull(val());
        else if (a == "--max-seconds") max_seconds = std::stod(val());
        else if (a == "--quiet") quiet = true;
        else if (a == "--baud-div") baud_div = (unsigned)std::stoul(val());
        else if (a == "--sys-ppm") sys_ppm = std::stod(val());
        else if (a == "--mac-ppm") mac_ppm = std::stod(val());
        else if (a == "--tready-every") g_tready_every = std::stoull(val());
        else return usage(("unknown option " + a).c_str());
    }
    if (fw.empty()) return usage("--fw is required");
    if (instance > 15) return usage("--instance is 0..15 (the DIP switches)");

    int sock = -1;
    sockaddr_in peer{};
    if (!eth0.empty()) {
        unsigned lport = 0, rport = 0;
        char host[64] = {0};
        if (std::sscanf(eth0.c_str(), "udp:%63[^:]:%u:%u", host, &lport, &rport) != 3 || !lport || !rport)
            return usage("--eth0 expects udp:HOST:LOCALPORT:REMOTEPORT");
        sock = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
        sockaddr_in me{};
        me.sin_family = AF_INET;
        me.sin_port = htons((uint16_t)lport);
        peer.sin_family = AF_INET;
        peer.sin_port = htons((uint16_t)rport);
        if (sock < 0 || inet_pton(AF_INET, host, &me.sin_addr) != 1 || inet_pton(AF_INET, host, &peer.sin_addr) != 1 ||
            bind(sock, (sockaddr *)&me, sizeof me) != 0) {
            std::fprintf(stderr, "tb_board: cannot open %s: %s\n", eth0.c_str(), std::strerror(errno));
            return 2;
        }
    }

    // time line in femtoseconds; half periods
    const uint64_t sys_half = (uint64_t)(2.0e6 * (1.0 + sys_ppm * 1e-6));            // 250 MHz
    const uint64_t mac_half = (uint64_t)(1e15 / 322265625.0 / 2 * (1.0 + mac_ppm * 1e-6));
    g_mac_period_s = 2.0 * mac_half * 1e-15;

    auto ctx = std::make_unique<VerilatedContext>();
    std::string plus = "+fw=" + fw;
    const char *vargs[] = {argv[0], plus.c_str()};
    ctx->commandArgs(2, vargs);
    auto m = std::make_unique<Vtb_board>(ctx.get());
    m->sw = instance;
    m->btnc = 1;
    m->uart_rxd = 1;
    m->clk_sys = 0;
    m->clk_mac = 0;
    m->eval();
    if (g_cmacs.size() != 1) { std::fprintf(stderr, "tb_board: expected one CMAC, found %zu\n", g_cmacs.size()); return 2; }
    CmacModel &cmac = g_cmacs[0];

    UartTx utx;
    UartRx urx;
    utx.div = urx.div = baud_div;
    std::string stdin_buf, out_line;
    bool stdin_open = true, prompt_seen = false, baud_set = false;
    const std::string prompt = "solonic> ";
    std::string recent;      // the last characters from the board, to spot the prompt

    uint64_t t_sys = sys_half, t_mac = mac_half, sys_cycles = 0, mac_cycles = 0;
    auto t_start = std::chrono::steady_clock::now();
    int rc = -1;
    while (rc < 0) {
        bool sys_edge = t_sys <= t_mac;
        if (sys_edge) {
            m->clk_sys = !m->clk_sys;
            t_sys += sys_half;
        } else {
            m->clk_mac = !m->clk_mac;
            t_mac += mac_half;
        }
        m->eval();
        if (!sys_edge) {
            if (m->clk_mac) mac_cycles++;
            continue;
        }
        if (!m->clk_sys) continue;
        // ---- once per NIC cycle, after its rising edge
        sys_cycles++;
        if (sys_cycles == 20) m->btnc = 0;
        if (!baud_set && sys_cycles > 20 && !m->nic_rst) {
            if (baud_div != 2170)
                m->rootp->tb_board__DOT__u_board__DOT__u_nic__DOT__u_nic__DOT__u_soc__DOT__u_sys__DOT__u_uart__DOT__u_regs__DOT__baud_div_q = (uint16_t)baud_div;
            baud_set = true;
        }
        uint8_t c;
        if (urx.tick(m->uart_txd, c)) {
            if (c != '\r') std::fputc(c, stdout);
            recent += (char)c;
            if (recent.size() > 64) recent.erase(0, recent.size() - 64);
            if (c == '\n') std::fflush(stdout);
            if (recent.size() >= prompt.size() && recent.compare(recent.size() - prompt.size(), prompt.size(), prompt) == 0) {
                prompt_seen = true;
                std::fflush(stdout);
            }
        }
        utx.tick();
        m->uart_rxd = utx.line();
        if (m->exit_valid) { rc = (int)m->exit_code; break; }
        if ((sys_cycles & 1023) == 0) {
            // console input: a whole line once the prompt has appeared
            if (stdin_open) {
                pollfd p{0, POLLIN, 0};
                while (poll(&p, 1, 0) > 0) {
                    char b[4096];
                    ssize_t n = read(0, b, sizeof b);
                    if (n <= 0) { stdin_open = false; break; }
                    stdin_buf.append(b, (size_t)n);
                }
            }
            if (prompt_seen && utx.q.empty() && utx.bit < 0) {
                size_t e = stdin_buf.find_first_of("\r\n");
                if (e != std::string::npos) {
                    for (size_t i = 0; i < e; i++) utx.q.push_back((uint8_t)stdin_buf[i]);
                    utx.q.push_back('\r');
                    size_t skip = e + 1;
                    if (stdin_buf[e] == '\r' && skip < stdin_buf.size() && stdin_buf[skip] == '\n') skip++;
                    stdin_buf.erase(0, skip);
                    prompt_seen = false;
                }
            }
            // Ethernet: frames in from the socket, frames out to it
            if (sock >= 0) {
                uint8_t buf[16384];
                ssize_t n;
                while ((n = recv(sock, buf, sizeof buf, 0)) > 0) {
                    if (cmac.rx_q.size() < 256) cmac.rx_q.emplace_back(buf, buf + n);
                }
            }
            while (!cmac.tx_out.empty()) {
                if (sock >= 0) sendto(sock, cmac.tx_out.front().data(), cmac.tx_out.front().size(), 0,
                                      (sockaddr *)&peer, sizeof peer);
                cmac.tx_out.pop_front();
            }
            if (sys_cycles >= max_cycles) {
                if (!quiet) std::fprintf(stderr, "tb_board: --max-cycles %llu reached\n", (unsigned long long)max_cycles);
                rc = 124;
            } else if (max_seconds > 0 && (sys_cycles & 65535) == 0 &&
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count() > max_seconds) {
                if (!quiet) std::fprintf(stderr, "tb_board: --max-seconds %.0f reached\n", max_seconds);
                rc = 124;
            }
        }
    }
    std::fflush(stdout);
    m->final();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
    std::fprintf(stderr,
                 "tb_board: stats sys_cycles=%llu mac_cycles=%llu wall_s=%.1f line_rx_frames=%llu line_tx_frames=%llu "
                 "tx_underflows=%llu tx_runts=%llu tx_bad_keep=%llu uart_framing_errors=%llu "
                 "cdc_rx_frames=%u cdc_rx_drop_full=%u cdc_rx_cut_long=%u cdc_rx_cut_link=%u cdc_tx_frames=%u "
                 "cdc_tx_drop_link=%u\n",
                 (unsigned long long)sys_cycles, (unsigned long long)mac_cycles, wall,
                 (unsigned long long)cmac.rx_frames, (unsigned long long)cmac.tx_frames,
                 (unsigned long long)cmac.underflows, (unsigned long long)cmac.runts,
                 (unsigned long long)cmac.bad_keep, (unsigned long long)urx.framing_errors,
                 m->cnt_rx_frames, m->cnt_rx_drop_full, m->cnt_rx_cut_long, m->cnt_rx_cut_link,
                 m->cnt_tx_frames, m->cnt_tx_drop_link);
    if (rc == 0 && (cmac.underflows || cmac.runts || cmac.bad_keep)) {
        std::fprintf(stderr, "tb_board: the CMAC model saw its rules broken (underflow, runt or tkeep)\n");
        rc = 3;
    }
    if (sock >= 0) close(sock);
    return rc;
}
