// tb_cc_np: drives cc_np (NQP 16) with received packets, some CE-marked, on a few QPs
// (and a QP number >= NQP), with back-pressure on the CNP output, and checks the CNP
// requests against the rule (a marked packet of QP q at cycle t asks for a CNP iff
// no CNP was asked for q in (t - interval, t]) computed here, and the counters.
//
//   +test=paced   marked packets at least 4 cycles apart: nothing may be lost
//   +test=burst   back-to-back marked packets: the queue overflows; every marked
//                 packet is either decided or counted as dropped
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "Vcc_np.h"
#include "verilated.h"

int main(int argc, char** argv) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    const char* ta = ctx->commandArgsPlusMatch("test=");
    std::string test = (ta && *ta) ? std::string(strchr(ta, '=') + 1) : "paced";
    const bool burst = test == "burst";
    auto m = std::make_unique<Vcc_np>(ctx.get());
    const uint32_t interval = 1000;  // 4 us
    m->cfg_int_cyc = interval;
    std::mt19937 rng(7);

    auto tick = [&] {
        m->clk = 0;
        m->eval();
        ctx->timeInc(1);
        m->clk = 1;
        m->eval();
        ctx->timeInc(1);
    };
    m->rst = 1;
    for (int i = 0; i < 4; i++) tick();
    m->rst = 0;

    const uint32_t qps[] = {0, 1, 3, 7, 15, 100};  // 100 >= NQP
    std::map<uint32_t, int64_t> next_ok;            // the rule, per QP: earliest next CNP
    std::deque<uint32_t> expect;                    // CNP requests expected, in order
    uint64_t marked = 0, unknown = 0, got = 0, bad = 0, gap = 0;
    const uint64_t cycles = 200000;
    for (uint64_t c = 0; c < cycles + 200; c++) {
        m->pkt_valid = 0;
        m->pkt_ce = 0;
        bool can = c < cycles && (burst || gap == 0);
        if (gap) gap--;
        if (can && (burst || rng() % 3 == 0)) {
            uint32_t q = qps[rng() % 6];
            bool ce = burst ? rng() % 4 != 0 : rng() % 2;
            m->pkt_valid = 1;
            m->pkt_ce = ce;
            m->pkt_qpn = q;
            if (ce) {
                marked++;
                gap = 4;
                if (q >= 16) {
                    unknown++;
                } else if (!burst) {
                    auto it = next_ok.find(q);
                    if (it == next_ok.end() || (int64_t)c >= it->second) {
                        next_ok[q] = (int64_t)c + interval;
                        expect.push_back(q);
                    }
                }
            }
        }
        m->m_cnp_ready = (rng() % 4) != 0;  // back-pressure a quarter of the cycles
        bool take = m->m_cnp_valid && m->m_cnp_ready;
        uint32_t q = m->m_cnp_qpn;
        tick();
        if (take) {
            got++;
            if (!burst) {
                if (expect.empty() || expect.front() != q) {
                    if (bad++ < 5)
                        printf("cycle %llu: CNP for QP %u, expected %s%u\n", (unsigned long long)c, q,
                               expect.empty() ? "none " : "", expect.empty() ? 0 : expect.front());
                } else {
                    expect.pop_front();
                }
            }
        }
    }
    printf("%s: marked %llu (unknown QP %llu), CNPs %llu; counters marked %u sent %u dropped %u\n", test.c_str(),
           (unsigned long long)marked, (unsigned long long)unknown, (unsigned long long)got, m->cnt_ecn_marked,
           m->cnt_cnp_sent, m->cnt_dropped);
    bool ok = bad == 0 && m->cnt_ecn_marked == marked && m->cnt_cnp_sent == got;
    if (!burst) {
        ok = ok && expect.empty() && m->cnt_dropped == unknown;
        if (!expect.empty()) printf("%zu expected CNPs never came\n", expect.size());
    } else {
        // every marked packet either decided or dropped; some must have been dropped
        ok = ok && m->cnt_dropped > unknown && got > 0 && got <= marked - m->cnt_dropped;
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    m->final();
    return ok ? 0 : 1;
}
