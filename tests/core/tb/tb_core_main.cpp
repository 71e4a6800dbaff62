// tb_core_main: Verilator driver of tb_core (tests/core). Clocks the bench
// until the program writes the sim-control EXIT register or +max_cycles
// (default 5,000,000) runs out. Exit status: 0 when the program exited with
// code 0 and no self-check failed, 1 otherwise, 2 on timeout.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "Vtb_core.h"
#include "verilated.h"

int main(int argc, char **argv) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    auto tb = std::make_unique<Vtb_core>(ctx.get(), "tb");

    uint64_t max_cycles = 5000000;
    const char *arg = ctx->commandArgsPlusMatch("max_cycles=");
    if (arg && arg[0]) {
        max_cycles = std::strtoull(arg + std::string("+max_cycles=").size(), nullptr, 0);
    }

    tb->clk = 0;
    tb->rst = 1;
    uint64_t n = 0;
    bool timeout = false;
    while (!ctx->gotFinish()) {
        if (n == 5) tb->rst = 0;
        tb->clk = 0;
        tb->eval();
        ctx->timeInc(1);
        tb->clk = 1;
        tb->eval();
        ctx->timeInc(1);
        n++;
        if (tb->done) break;
        if (n >= max_cycles) {
            timeout = true;
            break;
        }
    }
    tb->final();

    int rc;
    if (timeout) {
        std::printf("TB TIMEOUT after %" PRIu64 " cycles (instret %" PRIu64 ")\n", n,
                    (uint64_t)tb->instret);
        rc = 2;
    } else {
        std::printf("TB exit=%u cycles=%" PRIu64 " instret=%" PRIu64 " checks=%s\n",
                    (unsigned)tb->exit_code, (uint64_t)tb->cycles, (uint64_t)tb->instret,
                    tb->check_failed ? "FAILED" : "ok");
        rc = (tb->exit_code == 0 && !tb->check_failed) ? 0 : 1;
    }
    return rc;
}
