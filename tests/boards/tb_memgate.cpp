// tb_memgate: board_nic's memory gate (MEM_EXT = 1), with the nic_top stand-in
// (tests/boards/nic_stand_in.py) and an AXI RAM on the memory port
// (tests/boards/tb_memgate.sv). NIC clock 4 ns, MAC clock 3.103 ns.
//   1. board reset released, mem_ready low for 3000 NIC cycles: the NIC stays
//      in reset, nothing on the memory port, while the heartbeat counter runs;
//   2. mem_ready rises: the NIC leaves reset within 8 cycles (the count is
//      printed) and its write + read-back through the port completes, right;
//   3. mem_ready falls: the NIC is in reset at once (asynchronous assertion);
//   4. mem_ready rises again: the exercise runs again and completes.
//   Vtb_memgate            exit 0 on success, 1 with a message on failure
#include <cstdio>
#include <memory>

#include "Vtb_memgate.h"
#include "verilated.h"

namespace {

struct Bench {
    std::unique_ptr<VerilatedContext> ctx = std::make_unique<VerilatedContext>();
    std::unique_ptr<Vtb_memgate> m;
    uint64_t t = 0, tn = 2000, tm = 1551;   // ps: next NIC / MAC edge
    uint64_t cycles = 0;                    // NIC rising edges

    Bench(int argc, char **argv) {
        ctx->commandArgs(argc, argv);
        m = std::make_unique<Vtb_memgate>(ctx.get());
        m->clk = 0; m->mac_clk = 0; m->arst = 1; m->mem_ready = 0;
        m->eval();
    }
    // advance to the next NIC rising edge (MAC edges in between)
    void cycle() {
        for (;;) {
            if (tm < tn) {
                t = tm; m->mac_clk = !m->mac_clk; tm += 1551; m->eval();
                continue;
            }
            t = tn; m->clk = !m->clk; tn += 2000; m->eval();
            if (m->clk) { cycles++; return; }
        }
    }
};

int fail(const char *what) {
    std::printf("tb_memgate: FAIL %s\n", what);
    return 1;
}

}  // namespace

int main(int argc, char **argv) {
    Bench b(argc, argv);
    for (int i = 0; i < 20; i++) b.cycle();
    b.m->arst = 0;

    // 1. waiting for the memory
    const uint32_t beat0 = b.m->beat;
    for (int i = 0; i < 3000; i++) {
        b.cycle();
        if (!b.m->nic_rst) return fail("the NIC left reset while mem_ready was low");
        if (b.m->axi_busy) return fail("memory traffic while mem_ready was low");
    }
    if (b.m->beat == beat0) return fail("the heartbeat counter stood still while the NIC waited for the memory");

    // 2. memory ready: released within a bound, the traffic passes
    b.m->mem_ready = 1;
    int release = -1;
    for (int i = 1; i <= 8; i++) {
        b.cycle();
        if (!b.m->nic_rst) { release = i; break; }
    }
    if (release < 0) return fail("the NIC still in reset 8 cycles after mem_ready rose");
    int done1 = -1;
    for (int i = 1; i <= 2000 && done1 < 0; i++) {
        b.cycle();
        if (b.m->x_err) return fail("the NIC's write/read-back through the memory port came back wrong");
        if (b.m->x_done) done1 = i;
    }
    if (done1 < 0) return fail("the NIC's write/read-back did not complete within 2000 cycles");

    // 3. memory lost: reset at once
    b.m->mem_ready = 0;
    b.m->eval();
    if (!b.m->nic_rst) return fail("the NIC not in reset right after mem_ready fell");
    for (int i = 0; i < 100; i++) {
        b.cycle();
        if (!b.m->nic_rst || b.m->x_done) return fail("the NIC ran while mem_ready was low again");
    }

    // 4. back: the exercise runs again from reset
    b.m->mem_ready = 1;
    int done2 = -1;
    for (int i = 1; i <= 2000 && done2 < 0; i++) {
        b.cycle();
        if (b.m->x_err) return fail("the second write/read-back came back wrong");
        if (b.m->x_done) done2 = i;
    }
    if (done2 < 0) return fail("the second write/read-back did not complete within 2000 cycles");

    std::printf("tb_memgate: PASS held in reset 3000 cycles without memory; released %d cycles after "
                "mem_ready; write+read-back of 4 beats done %d cycles after release; reset again at once "
                "when mem_ready fell; second run done %d cycles after mem_ready\n",
                release, done1, done2);
    b.m->final();
    return 0;
}
