// tb_cc_rp: drives cc_rp (NQP 16) with a fixed CNP schedule on a few QPs and with
// transmitted-byte events paced at each QP's current rate (read through the block's
// rate port), and prints every event and a rate sample of each QP every SAMPLE
// cycles. tests/cc/check_rp.py replays the events through tests/cc/dcqcn_model.py
// and compares.
//
// Output lines:  P <parameters>   C <cycle> <qpn>   U <cycle> <qpn> (a CNP for an unknown QP)
//                T <cycle> <qpn> <bytes>
//                S <cycle> <qpn> <rate Mb/s>   K <handled> <ignored> <decreases> <dropped>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "Vcc_rp.h"
#include "verilated.h"

namespace {

constexpr uint64_t kUs = 250;  // cycles per microsecond
constexpr uint32_t kPkt = 4096;
constexpr uint64_t kSample = 997;

struct Qp {
    uint32_t qpn;
    std::vector<uint64_t> cnp_us;  // CNP times
    uint32_t rate = 0;             // last rate read, Mb/s
    uint64_t next_tx = 0;          // cycle of the next packet
};

std::vector<uint64_t> every(uint64_t from, uint64_t step, uint64_t to) {
    std::vector<uint64_t> v;
    for (uint64_t t = from; t <= to; t += step) v.push_back(t);
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    uint64_t end_us = 3000;
    const char* a = ctx->commandArgsPlusMatch("end_us=");
    if (a && *a) end_us = strtoull(strchr(a, '=') + 1, nullptr, 10);
    auto m = std::make_unique<Vcc_rp>(ctx.get());

    m->cfg_line_mbps = 100000;
    m->cfg_min_mbps = 1;
    m->cfg_ai_mbps = 5;
    m->cfg_hai_mbps = 50;
    m->cfg_g = 1019;
    m->cfg_alpha_init = 1024;
    m->cfg_f = 5;
    m->cfg_dec_cyc = 4 * kUs;
    m->cfg_alpha_cyc = 55 * kUs;
    m->cfg_rai_cyc = 300 * kUs;
    m->cfg_b_bytes = 64 * 1024;  // 10 MB by default: smaller here so that byte stages happen in 3 ms
    printf("P %u %u %u %u %u %u %u %u %u %u %u\n", m->cfg_line_mbps, m->cfg_min_mbps, m->cfg_ai_mbps,
           m->cfg_hai_mbps, m->cfg_g, m->cfg_alpha_init, m->cfg_f, m->cfg_dec_cyc, m->cfg_alpha_cyc,
           m->cfg_rai_cyc, m->cfg_b_bytes);

    std::vector<Qp> qps = {
        {0, every(10, 20, 200)},                  // a burst of CNPs, then recovery
        {1, every(50, 3, 110)},                   // CNPs 3 us apart: inside the 4 us interval
        {2, {100, 1500}},                         // two lone CNPs
        {3, every(10, 5, 30)},                    // five CNPs: down to ~3 Gb/s, then to hyper increase
        {5, every(40, 60, 2000)},                 // CNPs 60 us apart: alpha timer in between
        {9, {}},                                  // no CNP: line rate throughout
    };
    const std::vector<uint64_t> unknown_us = {30, 31, 700};  // QPN 1000 >= NQP
    for (auto& q : qps) q.rate = 100000;

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
    // the block's cycle counter starts at 0 in the first cycle out of reset; an
    // event driven before edge k is registered at k and stamped k (the block's count)
    const uint64_t end = end_us * kUs;
    size_t rd_slot = 0, rd_prev = 0;
    std::deque<uint32_t> cnp_wait;
    for (uint64_t c = 0; c < end; c++) {
        m->cnp_valid = 0;
        m->tx_valid = 0;
        // CNPs due this cycle wait in a queue: one enters the block a cycle
        for (auto& q : qps)
            for (uint64_t t : q.cnp_us)
                if (t * kUs == c) cnp_wait.push_back(q.qpn);
        for (uint64_t t : unknown_us)
            if (t * kUs == c) cnp_wait.push_back(1000);
        bool cnp = !cnp_wait.empty();
        if (cnp) {
            m->cnp_valid = 1;
            m->cnp_qpn = cnp_wait.front();
            printf("%c %llu %u\n", cnp_wait.front() < 16 ? 'C' : 'U', (unsigned long long)c, cnp_wait.front());
            cnp_wait.pop_front();
        }
        if (!cnp) {
            for (auto& q : qps) {
                if (c >= q.next_tx && c > 0) {
                    m->tx_valid = 1;
                    m->tx_qpn = q.qpn;
                    m->tx_bytes = kPkt;
                    printf("T %llu %u %u\n", (unsigned long long)c, q.qpn, kPkt);
                    // next packet after kPkt bytes at the current rate
                    q.next_tx = c + (uint64_t)kPkt * 8 * kUs / q.rate;
                    break;
                }
            }
        }
        // rate port: one QP a cycle; the address of edge k is answered at edge k+1
        m->rate_rd_qpn = qps[rd_slot].qpn;
        tick();
        if (c >= 1) qps[rd_prev].rate = m->rate_rd_mbps;
        rd_prev = rd_slot;
        rd_slot = (rd_slot + 1) % qps.size();
        if (c % kSample == 0)
            for (auto& q : qps) printf("S %llu %u %u\n", (unsigned long long)c, q.qpn, q.rate);
    }
    printf("K %u %u %u %u\n", m->cnt_cnp_handled, m->cnt_cnp_ignored, m->cnt_rate_dec, m->cnt_ev_dropped);
    m->final();
    return 0;
}
