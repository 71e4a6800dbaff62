#include "soc_instance.h"

#include "Vsoc_top.h"
#include "verilated.h"
#include "verilated_fst_c.h"

SocInstance::SocInstance(VerilatedContext *ctx, const std::string &name, uint64_t half_period)
    : ctx_(ctx), half_period_(half_period), m_(std::make_unique<Vsoc_top>(ctx, name.c_str())) {
    m_->clk = 0;
    m_->rst = 1;
    m_->irq_external = 0;
    m_->uart_tx_ready = 1;  // the harness takes a character every cycle
    m_->uart_rxd = 1;
    set_inputs();
}

SocInstance::~SocInstance() = default;

void SocInstance::trace(VerilatedFstC *tfp, int levels) {
    tfp_ = tfp;
    m_->trace(tfp, levels);
}

void SocInstance::final() { m_->final(); }

// Inputs for the current cycle from the harness's state (clock low).
void SocInstance::set_inputs() {
    m_->uart_rx_valid = !rx_queue_.empty();
    m_->uart_rx_data = rx_queue_.empty() ? 0 : rx_queue_.front();
    // m_ext: no datapath yet. Every request is granted at once and answered
    // with err one cycle later, so firmware touching it takes an access fault.
    m_->m_ext_gnt = 1;
    m_->m_ext_rvalid = ext_pending_;
    m_->m_ext_err = ext_pending_;
    m_->m_ext_rdata = 0;
}

void SocInstance::dump() {
    if (tfp_) tfp_->dump(ctx_->time());
}

void SocInstance::reset(int cycles) {
    m_->rst = 1;
    for (int i = 0; i < cycles; i++) step();
    m_->rst = 0;
    set_inputs();
    m_->eval();
}

void SocInstance::step() {
    // clock low, inputs settled: what the rising edge will take
    m_->eval();
    if (!m_->rst) {
        if (m_->uart_tx_valid && m_->uart_tx_ready && on_uart_tx) on_uart_tx(m_->uart_tx_data);
        if (m_->uart_rx_valid && m_->uart_rx_ready) rx_queue_.pop_front();
        if (m_->retire) retired_++;
        if (m_->exit_valid && !exited_) {
            exited_ = true;
            exit_code_ = m_->exit_code;
        }
    }
    bool ext_accept = m_->m_ext_req && m_->m_ext_gnt;
    dump();
    // rising edge
    ctx_->timeInc(half_period_);
    m_->clk = 1;
    m_->eval();
    dump();
    // falling edge with the next cycle's inputs
    ctx_->timeInc(half_period_);
    ext_pending_ = ext_accept;
    m_->clk = 0;
    set_inputs();
    cycles_++;
}
