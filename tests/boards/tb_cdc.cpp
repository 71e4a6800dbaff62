// tb_cdc: the asynchronous FIFO (boards/common/rtl/board_async_fifo.sv) on two
// unrelated clocks with random periods (1.5 .. 9 ns each, seeded), random
// write gaps and random read back-pressure. Every word carries its sequence
// number: the reader checks each one (no loss, no duplicate, no reorder) and
// that all were delivered. The FRAME = 1 FIFO carries frames of 1..12 words
// (the FIFO holds 16) plus, once per run, one longer than the FIFO; the reader
// checks that a frame's words arrive without a gap once its first word is
// out (when it keeps m_ready high), except for the over-long frame, which must
// be published by force (f_forced) rather than lock the FIFO.
//
//   Vtb_cdc +seed=N [+words=N]      exit 0 on success, 1 with a message on failure
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "Vtb_cdc.h"
#include "verilated.h"

static int fail(const char *what, unsigned long long exp, unsigned long long got) {
    std::printf("tb_cdc: FAIL %s: expected %llu, got %llu\n", what, exp, got);
    return 1;
}

int main(int argc, char **argv) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    unsigned seed = 1, words = 20000;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.rfind("+seed=", 0) == 0) seed = (unsigned)std::stoul(a.substr(6));
        if (a.rfind("+words=", 0) == 0) words = (unsigned)std::stoul(a.substr(7));
    }
    std::mt19937 rng(seed);
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto m = std::make_unique<Vtb_cdc>(ctx.get());

    // periods in picoseconds, half periods for the edges
    const uint64_t wper = (uint64_t)uni(1500, 9000), rper = (uint64_t)uni(1500, 9000);
    const int wgap = uni(0, 70), rstall = uni(0, 70);   // percent of cycles idle / not ready
    std::printf("tb_cdc: seed %u: write clock %.3f ns, read clock %.3f ns, write idle %d%%, read stall %d%%\n",
                seed, wper / 1000.0, rper / 1000.0, wgap, rstall);

    uint64_t tw = wper / 2, tr = rper / 2 + (uint64_t)uni(0, 1000);
    m->wclk = 0; m->rclk = 0; m->wrst = 1; m->rrst = 1;
    m->a_s_valid = 0; m->f_s_valid = 0; m->a_m_ready = 0; m->f_m_ready = 0;
    m->eval();

    // writer state
    uint32_t a_next_w = 0, f_next_w = 0;
    uint32_t f_left = 0;                  // words left in the current frame
    bool long_done = false;
    unsigned long long forced_seen = 0;
    // reader state
    uint32_t a_next_r = 0, f_next_r = 0;
    bool f_in_frame = false, f_in_long = false;
    uint32_t f_long_first = 0, f_long_last = 0;
    uint64_t wcyc = 0, rcyc = 0;
    const uint64_t limit = (uint64_t)words * 400 + 100000;   // bounded wait

    while (a_next_r < words || f_next_r < words) {
        bool wedge = tw <= tr;
        // what the coming rising edge samples (the handshakes), before it happens
        bool a_wfire = m->a_s_valid && m->a_s_ready, f_wfire = m->f_s_valid && m->f_s_ready;
        bool a_rfire = m->a_m_valid && m->a_m_ready, f_rfire = m->f_m_valid && m->f_m_ready;
        bool f_valid_pre = m->f_m_valid, forced_pre = m->f_forced;
        uint32_t a_rdata = m->a_m_data;
        uint64_t f_rdata = m->f_m_data;
        if (wedge) { m->wclk = !m->wclk; tw += wper / 2; }
        else       { m->rclk = !m->rclk; tr += rper / 2; }
        m->eval();
        if (wedge && m->wclk) {
            wcyc++;
            if (wcyc > limit) return fail("words through the FIFO before the cycle limit", words, a_next_r);
            // values were sampled at this edge: advance the writer's model
            if (!m->wrst) {
                if (a_wfire) a_next_w++;
                if (f_wfire) { f_next_w++; f_left--; }
                if (forced_pre) forced_seen++;
            }
            if (wcyc == 8) m->wrst = 0;
            // drive the next cycle's inputs (after the edge, as a register would)
            m->a_s_valid = !m->wrst && a_next_w < words && uni(0, 99) >= wgap;
            m->a_s_data = a_next_w;
            if (f_left == 0 && f_next_w < words) {
                if (!long_done && f_next_w > words / 2) { f_left = 40; long_done = true; f_long_first = f_next_w; f_long_last = f_next_w + 39; }
                else f_left = (uint32_t)uni(1, 12);
                if (f_next_w + f_left > words) f_left = words - f_next_w;
            }
            m->f_s_valid = !m->wrst && f_next_w < words && uni(0, 99) >= wgap;
            m->f_s_data = ((uint64_t)(f_left == 1) << 32) | f_next_w;
            m->eval();
        }
        if (!wedge && m->rclk) {
            rcyc++;
            if (!m->rrst) {
                if (a_rfire) {
                    if (a_rdata != a_next_r) return fail("FRAME=0 word sequence number", a_next_r, a_rdata);
                    a_next_r++;
                }
                bool f_gap = f_in_frame && !f_valid_pre && !f_in_long;
                if (f_gap) return fail("FRAME=1: a started frame's next word without a gap (word)", f_next_r, 0);
                if (f_rfire) {
                    uint32_t v = (uint32_t)f_rdata;
                    if (v != f_next_r) return fail("FRAME=1 word sequence number", f_next_r, v);
                    f_in_long = (long_done && v >= f_long_first && v < f_long_last);
                    f_in_frame = !((f_rdata >> 32) & 1);
                    f_next_r++;
                }
            }
            if (rcyc == 8) m->rrst = 0;
            m->a_m_ready = uni(0, 99) >= rstall;
            // the frame reader keeps m_ready high inside a frame (a MAC that must not underflow)
            m->f_m_ready = f_in_frame || uni(0, 99) >= rstall;
            m->eval();
        }
    }
    if (a_next_r != words || f_next_r != words) return fail("words delivered", words, a_next_r);
    if (long_done && forced_seen == 0) return fail("the over-long frame published by force (f_forced pulses)", 1, 0);
    // nothing more may come out (no duplicates)
    for (int i = 0; i < 200; i++) {
        bool wedge = tw <= tr;
        if (wedge) { m->wclk = !m->wclk; tw += wper / 2; }
        else       { m->rclk = !m->rclk; tr += rper / 2; }
        m->a_s_valid = 0; m->f_s_valid = 0; m->a_m_ready = 1; m->f_m_ready = 1;
        m->eval();
        if (!wedge && m->rclk && (m->a_m_valid || m->f_m_valid)) return fail("words after the last one", 0, 1);
    }
    m->final();
    std::printf("tb_cdc: PASS %u words through each FIFO, %llu forced publishes\n", words, forced_seen);
    return 0;
}
