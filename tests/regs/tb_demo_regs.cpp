// Drives the generated demo_regs block from commands on stdin and prints what the
// bus and the hardware side saw. The expectations live in test_regtool.py.
//   W OFF VALUE BE   bus write          -> "W err=E we_pulse=P cmd_we=C cmd=V"
//   R OFF            bus read           -> "R data=D err=E re=P"
//   RO VALUE         drive stat_i
//   SET BITS         pulse irq_set for one cycle
//   Q                print ctrl_q irq_q full_q
#include "Vdemo_regs.h"
#include "verilated.h"
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

int main(int argc, char **argv) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->commandArgs(argc, argv);
    auto m = std::make_unique<Vdemo_regs>(ctx.get());
    auto tick = [&] { m->clk = 0; m->eval(); m->clk = 1; m->eval(); };
    m->rst = 1; m->req = 0; m->irq_set = 0; m->stat_i = 0;
    tick(); tick();
    m->rst = 0;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string op;
        in >> op;
        if (op == "W" || op == "R") {
            unsigned off = 0, val = 0, be = 0xf;
            in >> std::hex >> off;
            if (op == "W") in >> std::hex >> val >> be;
            m->req = 1; m->we = op == "W"; m->addr = off; m->wdata = val; m->be = be;
            m->eval();
            unsigned gnt = m->gnt;
            tick();
            m->req = 0; m->eval();
            // the pulses come the cycle after the request
            unsigned wep = m->ctrl_we, cwe = m->cmd_we, cmd = m->cmd_wdata, re = m->stat_re;
            // the answer comes two cycles after the request (the read mux's two stages)
            for (int n = 0; n < 1 && gnt && !m->rvalid; n++) tick();
            if (!gnt || !m->rvalid) { std::printf("BUS gnt=%u rvalid=%u\n", gnt, (unsigned)m->rvalid); continue; }
            if (op == "W") std::printf("W err=%u we_pulse=%u cmd_we=%u cmd=%x\n", (unsigned)m->err, wep, cwe, cwe ? cmd : 0);
            else std::printf("R data=%x err=%u re=%u\n", (unsigned)m->rdata, (unsigned)m->err, re);
            tick();  // idle cycle: rvalid must drop
            if (m->rvalid) std::printf("BUS rvalid stuck\n");
        } else if (op == "RO") {
            unsigned v; in >> std::hex >> v; m->stat_i = v;
        } else if (op == "SET") {
            unsigned v; in >> std::hex >> v; m->irq_set = v; tick(); m->irq_set = 0; m->eval();
        } else if (op == "Q") {
            std::printf("Q ctrl=%x irq=%x full=%x\n", (unsigned)m->ctrl_q, (unsigned)m->irq_q, (unsigned)m->full_q);
        }
        std::fflush(stdout);
    }
    m->final();
    return 0;
}
