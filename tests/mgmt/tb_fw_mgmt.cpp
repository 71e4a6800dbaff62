// tb_fw_mgmt: the firmware with its management port, the port bridged to a
// UDP socket on 127.0.0.1 (one Ethernet frame without FCS per datagram, the
// format of QEMU's -netdev socket,udp=...). A stand-in for the NIC top and the
// harness's --eth0 option until they exist; same options as solonic_sim:
//
//   Vtb_fw_mgmt --fw FILE.hex [--eth0 udp:127.0.0.1:LOCALPORT:REMOTEPORT]
//               [--instance N] [--no-mgmt-port] [--uart-in FILE] [--max-cycles N] [--max-seconds S] [--quiet]
//
// UART: stdin/stdout (sim/uart_console). Exit code: the firmware's, 124 on a
// limit, 2 on a harness error.
#include <arpa/inet.h>
#include <netinet/in.h>
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

#include "Vtb_fw_mgmt.h"
#include "uart_console.h"
#include "verilated.h"

using Bytes = std::vector<uint8_t>;

static const size_t RX_QUEUE_MAX = 64;     // frames waiting for the RX stream
static const uint64_t POLL_CYCLES = 256;   // socket and console poll interval

static int usage(const char *msg) {
    std::fprintf(stderr, "tb_fw_mgmt: %s\nusage: Vtb_fw_mgmt --fw FILE.hex [--eth0 udp:127.0.0.1:LPORT:RPORT] "
                 "[--instance N] [--no-mgmt-port] [--uart-in FILE] [--max-cycles N] [--max-seconds S] [--quiet]\n", msg);
    return 2;
}

int main(int argc, char **argv) {
    std::string fw, eth0, uart_in;
    uint64_t max_cycles = 200000000ull;
    double max_seconds = 0;
    unsigned instance = 0;
    bool quiet = false, no_port = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto val = [&]() -> std::string {
            if (i + 1 >= argc) { std::fprintf(stderr, "tb_fw_mgmt: %s needs a value\n", a.c_str()); std::exit(2); }
            return argv[++i];
        };
        if (a == "--fw") fw = val();
        else if (a == "--eth0") eth0 = val();
        else if (a == "--uart-in") uart_in = val();
        else if (a == "--instance") instance = (unsigned)std::stoul(val());
        else if (a == "--max-cycles") max_cycles = std::stoull(val());
        else if (a == "--max-seconds") max_seconds = std::stod(val());
        else if (a == "--quiet") quiet = true;
        else if (a == "--no-mgmt-port") no_port = true;
        else return usage(("unknown option " + a).c_str());
    }
    if (fw.empty()) return usage("--fw is required");

    // --eth0 udp:127.0.0.1:LPORT:RPORT
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
            std::fprintf(stderr, "tb_fw_mgmt: cannot open %s: %s\n", eth0.c_str(), std::strerror(errno));
            return 2;
        }
    }

    UartConsole con;
    if (!uart_in.empty()) {
        std::string err;
        if (!con.open_script(uart_in, err)) { std::fprintf(stderr, "tb_fw_mgmt: %s\n", err.c_str()); return 2; }
    } else {
        con.open_stdin();
    }

    auto ctx = std::make_unique<VerilatedContext>();
    std::string plus = "+fw=" + fw;
    const char *vargs[] = {argv[0], plus.c_str()};
    ctx->commandArgs(2, vargs);
    auto m = std::make_unique<Vtb_fw_mgmt>(ctx.get());
    m->instance_id = instance;
    m->mgmt_absent = no_port;
    m->uart_tx_ready = 1;
    m->m_axis_mgmt_tready = 1;
    m->s_axis_mgmt_tvalid = 0;
    m->uart_rx_valid = 0;

    std::deque<uint8_t> to_soc;
    std::deque<Bytes> rx_frames;
    size_t rx_off = 0;
    Bytes tx_cur;
    uint64_t frames_in = 0, frames_out = 0, frames_dropped = 0;
    auto t_start = std::chrono::steady_clock::now();
    int rc = -1;

    m->rst = 1;
    for (int i = 0; i < 10; i++) { m->clk = 0; m->eval(); m->clk = 1; m->eval(); }
    m->rst = 0;
    uint64_t cycle = 0;
    while (rc < 0) {
        if (cycle % POLL_CYCLES == 0) {
            con.poll(to_soc);
            if (con.done() || con.quit_requested()) { rc = 0; break; }
            uint8_t buf[16384];
            ssize_t n;
            while (sock >= 0 && (n = recv(sock, buf, sizeof buf, 0)) > 0) {
                if (rx_frames.size() >= RX_QUEUE_MAX) { frames_dropped++; continue; }
                rx_frames.emplace_back(buf, buf + n);
            }
            if (max_seconds > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count() > max_seconds) {
                if (!quiet) std::fprintf(stderr, "tb_fw_mgmt: --max-seconds %.0f reached\n", max_seconds);
                rc = 124;
                break;
            }
        }
        // inputs for this cycle
        m->uart_rx_valid = !to_soc.empty();
        m->uart_rx_data = to_soc.empty() ? 0 : to_soc.front();
        if (!rx_frames.empty()) {
            const Bytes &f = rx_frames.front();
            size_t nb = std::min<size_t>(64, f.size() - rx_off);
            for (int w = 0; w < 16; w++) {
                uint32_t v = 0;
                for (int j = 0; j < 4; j++) {
                    size_t k = rx_off + 4 * w + j;
                    if (k < f.size()) v |= (uint32_t)f[k] << (8 * j);
                }
                m->s_axis_mgmt_tdata[w] = v;
            }
            m->s_axis_mgmt_tkeep = nb >= 64 ? ~0ull : ((1ull << nb) - 1);
            m->s_axis_mgmt_tlast = rx_off + nb >= f.size();
            m->s_axis_mgmt_tuser = 0;
            m->s_axis_mgmt_tvalid = 1;
        } else {
            m->s_axis_mgmt_tvalid = 0;
        }
        m->clk = 0;
        m->eval();
        // what the rising edge takes
        if (m->uart_tx_valid) con.tx(m->uart_tx_data);
        if (m->uart_rx_valid && m->uart_rx_ready) to_soc.pop_front();
        if (m->s_axis_mgmt_tvalid && m->s_axis_mgmt_tready) {
            rx_off += 64;
            if (m->s_axis_mgmt_tlast) {
                rx_frames.pop_front();
                rx_off = 0;
                frames_in++;
            }
        }
        if (m->m_axis_mgmt_tvalid) {
            uint64_t keep = m->m_axis_mgmt_tkeep;
            for (int k = 0; k < 64; k++)
                if ((keep >> k) & 1) tx_cur.push_back((uint8_t)(m->m_axis_mgmt_tdata[k / 4] >> (8 * (k % 4))));
            if (m->m_axis_mgmt_tlast) {
                if (sock >= 0) sendto(sock, tx_cur.data(), tx_cur.size(), 0, (sockaddr *)&peer, sizeof peer);
                tx_cur.clear();
                frames_out++;
            }
        }
        bool exiting = m->exit_valid;
        uint32_t code = m->exit_code;
        m->clk = 1;
        m->eval();
        cycle++;
        if (exiting) rc = (int)(code & 0xff);
        else if (cycle >= max_cycles) {
            if (!quiet) std::fprintf(stderr, "tb_fw_mgmt: --max-cycles %llu reached\n", (unsigned long long)max_cycles);
            rc = 124;
        }
    }
    con.flush();
    m->final();
    if (sock >= 0) close(sock);
    if (!quiet)
        std::fprintf(stderr, "tb_fw_mgmt: %llu cycles, %llu frames in, %llu out, %llu dropped (queue full), exit %d\n",
                     (unsigned long long)cycle, (unsigned long long)frames_in, (unsigned long long)frames_out,
                     (unsigned long long)frames_dropped, rc);
    return rc;
}
