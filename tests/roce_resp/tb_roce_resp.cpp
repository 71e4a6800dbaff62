// tb_roce_resp.cpp: drives tb_roce_resp from a vector file written by
// tests/roce_resp/resp_test.py and prints everything the responder sends.
//
// Vector file, one command per line:
//   ctx QPN HEX        write a QP context (roce_qp_pkg::qp_ctx_t, hex of the vector)
//   mr IDX HEX         write an MR row (mr_entry_t)
//   post QPN HEX       post a receive WQE (rwqe_t)
//   mem ADDR HEX       bytes into the memory model (no timing)
//   pkt HDRHEX PAYHEX  queue a request: rx_hdr_t and its payload bytes ("-": none)
//   gap N              N idle cycles before the next queued request
//   bp PERMILLE        back-pressure: each of tx_hdr_ready, tx_tready, cqe_ready low
//                      with this probability per cycle
//   run N              send the queue; return once it is sent and nothing left the
//                      responder for N cycles
//   dump ADDR LEN      print MEM ADDR HEX (bytes now in memory)
// Output lines: TXH cycle hex / TXP cycle hex (a payload packet) / CQE cycle hex /
// INEND cycle k (request k fully taken: last payload beat, or its header when it
// has no payload) / STALL n (cycles with payload valid and not ready) /
// CNT i value / END cycle. Exit status 2 on a cycle limit (+maxcyc=N).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "Vtb_roce_resp.h"
#include "mem_model.h"
#include "verilated.h"

namespace {

template <typename W>
void set_hex(W &w, int nwords, const std::string &hex) {
    for (int i = 0; i < nwords; i++) w[i] = 0;
    int nib = 0;
    for (int i = (int)hex.size() - 1; i >= 0; i--, nib++) {
        char c = hex[i];
        uint32_t v = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : c - 'A' + 10;
        if (nib / 8 < nwords) w[nib / 8] |= v << (4 * (nib % 8));
    }
}

template <typename W>
std::string get_hex(const W &w, int nbits) {
    int nn = (nbits + 3) / 4;
    std::string s(nn, '0');
    for (int n = 0; n < nn; n++) {
        uint32_t v = (w[n / 8] >> (4 * (n % 8))) & 0xF;
        s[nn - 1 - n] = "0123456789abcdef"[v];
    }
    return s;
}

std::vector<uint8_t> unhex(const std::string &h) {
    std::vector<uint8_t> b;
    if (h == "-") return b;
    for (size_t i = 0; i + 1 < h.size(); i += 2) b.push_back((uint8_t)strtoul(h.substr(i, 2).c_str(), nullptr, 16));
    return b;
}

std::string tohex(const std::vector<uint8_t> &b) {
    static const char *d = "0123456789abcdef";
    std::string s;
    for (uint8_t x : b) { s += d[x >> 4]; s += d[x & 15]; }
    return s;
}

struct Req {
    std::string hdr;
    std::vector<uint8_t> pay;
    int gap = 0;
};

struct Bench {
    std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
    std::unique_ptr<Vtb_roce_resp> top{new Vtb_roce_resp{ctx.get()}};
    uint64_t cyc = 0, maxcyc = 20000000, stalls = 0, wait_act = 0, wait_dma = 0;
    unsigned bp = 0;
    uint64_t rng = 88172645463325252ull;
    std::vector<Req> q;
    size_t hdr_i = 0, pay_i = 0, beat = 0;
    int gap_left = -1;
    std::vector<uint8_t> txp;
    uint64_t last_act = 0;

    bool rnd(unsigned permille) {
        rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
        return (rng % 1000) < permille;
    }
    void fail_limit() {
        printf("FAIL: cycle limit %llu reached\n", (unsigned long long)maxcyc);
        top->final();
        exit(2);
    }
    // one clock cycle: inputs were set before; sample handshakes at the edge
    void tick() {
        top->clk = 0;
        top->eval();
        // handshakes seen at this edge
        bool h_hs = top->hdr_valid && top->hdr_ready;
        bool p_hs = top->pay_tvalid && top->pay_tready;
        if (top->pay_tvalid && !top->pay_tready) stalls++;
        wait_act += top->dbg_wait_act;
        wait_dma += top->dbg_wait_dma;
        if (top->tx_hdr_valid && top->tx_hdr_ready) {
            printf("TXH %llu %s\n", (unsigned long long)cyc, get_hex(top->tx_hdr, 752).c_str());
            last_act = cyc;
        }
        if (top->tx_tvalid && top->tx_tready) {
            for (int i = 0; i < 64; i++) {
                bool k = (top->tx_tkeep >> i) & 1;
                if (k) txp.push_back((top->tx_tdata[i / 4] >> (8 * (i % 4))) & 0xFF);
            }
            if (top->tx_tlast) {
                printf("TXP %llu %s\n", (unsigned long long)cyc, tohex(txp).c_str());
                txp.clear();
            }
            last_act = cyc;
        }
        if (top->cqe_valid && top->cqe_ready) {
            printf("CQE %llu %s\n", (unsigned long long)cyc, get_hex(top->cqe, 167).c_str());
            last_act = cyc;
        }
        top->clk = 1;
        top->eval();
        cyc++;
        if (cyc > maxcyc) fail_limit();
        // advance the request queue
        if (h_hs) {
            if (q[hdr_i].pay.empty()) {
                printf("INEND %llu %zu\n", (unsigned long long)cyc - 1, hdr_i);
            }
            hdr_i++;
            last_act = cyc;
        }
        if (p_hs) {
            beat++;
            last_act = cyc;
            if (beat * 64 >= q[pay_i].pay.size()) {
                printf("INEND %llu %zu\n", (unsigned long long)cyc - 1, pay_i);
                pay_i++;
                beat = 0;
                gap_left = -1;
            }
        }
        drive();
    }
    // inputs for the next cycle
    void drive() {
        top->tx_hdr_ready = !rnd(bp);
        top->tx_tready = !rnd(bp);
        top->cqe_ready = !rnd(bp);
        // skip packets without payload once their header is taken
        while (pay_i < q.size() && q[pay_i].pay.empty() && hdr_i > pay_i) pay_i++;
        bool can = pay_i < q.size();
        if (can && beat == 0) {
            if (gap_left < 0) gap_left = q[pay_i].gap;
            if (gap_left > 0) { gap_left--; can = false; }
        }
        // header k goes with (not before) its payload's first beat; at most 4
        // headers waiting ahead of their payload (roce_rx_parse's FIFO)
        top->hdr_valid = 0;
        if (hdr_i < q.size() && hdr_i <= pay_i && !(hdr_i == pay_i && beat == 0 && gap_left != 0 && !can)) {
            if (!(hdr_i == pay_i && beat == 0 && !can)) {
                top->hdr_valid = 1;
                set_hex(top->hdr, 25, q[hdr_i].hdr);
            }
        }
        top->pay_tvalid = 0;
        if (can && !q[pay_i].pay.empty() && pay_i < hdr_i + 4) {
            const auto &p = q[pay_i].pay;
            size_t off = beat * 64, n = std::min<size_t>(64, p.size() - off);
            for (int i = 0; i < 16; i++) top->pay_tdata[i] = 0;
            for (size_t i = 0; i < n; i++) top->pay_tdata[i / 4] |= (uint32_t)p[off + i] << (8 * (i % 4));
            top->pay_tkeep = (n == 64) ? ~0ull : ((1ull << n) - 1);
            top->pay_tlast = off + n >= p.size();
            top->pay_tvalid = 1;
        }
    }
    template <typename F>
    void write_port(F set_valid_ready) {
        // set_valid_ready(true) raises valid and returns ready
        for (uint64_t n = 0;; n++) {
            top->clk = 0;
            top->eval();
            bool rdy = set_valid_ready(true);
            top->clk = 1;
            top->eval();
            cyc++;
            if (rdy) break;
            if (n > 100000) fail_limit();
        }
        set_valid_ready(false);
    }
};

}  // namespace

int main(int argc, char **argv) {
    Bench b;
    b.ctx->commandArgs(argc, argv);
    std::string vec;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.rfind("+vec=", 0) == 0) vec = a.substr(5);
        if (a.rfind("+maxcyc=", 0) == 0) b.maxcyc = strtoull(a.c_str() + 8, nullptr, 0);
    }
    std::ifstream in(vec);
    if (!in) { printf("FAIL: cannot read vector file '%s'\n", vec.c_str()); return 2; }
    auto *t = b.top.get();
    t->rst = 1;
    t->clk = 0;
    for (int i = 0; i < 4; i++) { t->clk = 0; t->eval(); t->clk = 1; t->eval(); }
    t->rst = 0;
    while (!t->init_done) {
        t->clk = 0; t->eval(); t->clk = 1; t->eval();
        if (++b.cyc > 100000) b.fail_limit();
    }
    std::string line;
    int pending_gap = 0;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string cmd;
        ls >> cmd;
        if (cmd == "ctx") {
            unsigned qpn; std::string h; ls >> std::hex >> qpn >> h;
            b.write_port([&](bool v) { t->ctx_wr_valid = v; t->ctx_wr_qpn = qpn; set_hex(t->ctx_wr, 7, h); return (bool)t->ctx_wr_ready; });
        } else if (cmd == "mr") {
            unsigned idx; std::string h; ls >> std::hex >> idx >> h;
            b.write_port([&](bool v) { t->mr_wr_valid = v; t->mr_wr_idx = idx; set_hex(t->mr_wr, 6, h); return (bool)t->mr_wr_ready; });
        } else if (cmd == "post") {
            unsigned qpn; std::string h; ls >> std::hex >> qpn >> h;
            b.write_port([&](bool v) { t->post_valid = v; t->post_qpn = qpn; set_hex(t->post_wqe, 6, h); return (bool)t->post_ready; });
        } else if (cmd == "mem") {
            unsigned long long a; std::string h; ls >> std::hex >> a >> h;
            auto bytes = unhex(h);
            mem_model_write(0, a, bytes.data(), bytes.size());
        } else if (cmd == "pkt") {
            Req r; std::string p; ls >> r.hdr >> p;
            r.pay = unhex(p);
            r.gap = pending_gap;
            pending_gap = 0;
            b.q.push_back(r);
        } else if (cmd == "gap") {
            ls >> std::dec >> pending_gap;
        } else if (cmd == "bp") {
            ls >> std::dec >> b.bp;
        } else if (cmd == "run") {
            uint64_t quiet; ls >> std::dec >> quiet;
            b.drive();
            while (b.hdr_i < b.q.size() || b.pay_i < b.q.size() || b.cyc - b.last_act < quiet) b.tick();
        } else if (cmd == "dump") {
            unsigned long long a, n; ls >> std::hex >> a >> n;
            std::vector<uint8_t> buf(n);
            mem_model_read(0, a, buf.data(), n);
            printf("MEM %llx %s\n", a, tohex(buf).c_str());
        }
    }
    printf("STALL %llu\n", (unsigned long long)b.stalls);
    printf("WAIT act %llu dma %llu\n", (unsigned long long)b.wait_act, (unsigned long long)b.wait_dma);
    for (int i = 0; i < 26; i++) printf("CNT %d %u\n", i, t->counters[i]);
    printf("END %llu\n", (unsigned long long)b.cyc);
    t->final();
    return 0;
}
