#include "nic_instance.h"

#include "Vsim_nic.h"
#include "eth_port.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace {
constexpr size_t BEAT_BYTES = 64;  // 512-bit stream
}

NicInstance::NicInstance(VerilatedContext *ctx, const std::string &name, uint8_t id)
    : name_(name), id_(id), m_(std::make_unique<Vsim_nic>(ctx, name.c_str())) {
    m_->clk = 0;
    m_->rst = 1;
    m_->instance_id = id;
    m_->irq_external = 0;
    m_->uart_tx_ready = 1;  // the harness takes a character every cycle
    m_->uart_rxd = 1;
    set_inputs(0);
}

NicInstance::~NicInstance() = default;

void NicInstance::trace(VerilatedFstC *tfp, int levels) { m_->trace(tfp, levels); }

void NicInstance::final() { m_->final(); }

void NicInstance::set_reset(bool on) { m_->rst = on; }

// Inputs for cycle `cycle` from the harness's state (clock low).
void NicInstance::set_inputs(uint64_t cycle) {
    m_->uart_rx_valid = !uart_rx_.empty();
    m_->uart_rx_data = uart_rx_.empty() ? 0 : uart_rx_.front();

    // TX: the link decides at the start of a frame; a started frame goes out whole
    m_->eth_tx_tready = tx_in_frame_ || !port_ || port_->tx_ready(cycle);

    // RX: the front frame's current beat
    if (rx_q_.empty()) {
        m_->eth_rx_tvalid = 0;
        m_->eth_rx_tlast = 0;
        m_->eth_rx_tuser = 0;
        m_->eth_rx_tkeep = 0;
        for (int w = 0; w < 16; w++) m_->eth_rx_tdata[w] = 0;
        return;
    }
    const wire::Frame &f = rx_q_.front();
    size_t off = rx_beat_ * BEAT_BYTES;
    size_t n = std::min(BEAT_BYTES, f.size() - off);
    for (int w = 0; w < 16; w++) {
        uint32_t v = 0;
        for (int b = 0; b < 4; b++) {
            size_t i = size_t(w) * 4 + size_t(b);
            if (i < n) v |= uint32_t(f[off + i]) << (8 * b);
        }
        m_->eth_rx_tdata[w] = v;
    }
    m_->eth_rx_tkeep = n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
    m_->eth_rx_tvalid = 1;
    m_->eth_rx_tlast = off + n == f.size();
    m_->eth_rx_tuser = 0;
}

void NicInstance::sample(uint64_t cycle) {
    m_->eval();
    if (m_->rst) return;
    if (m_->uart_tx_valid && m_->uart_tx_ready && on_uart_tx) on_uart_tx(m_->uart_tx_data);
    if (m_->uart_rx_valid && m_->uart_rx_ready) uart_rx_.pop_front();
    if (m_->retire) retired_++;
    if (m_->exit_valid && !exited_) {
        exited_ = true;
        exit_code_ = m_->exit_code;
        exit_cycle_ = cycle;
    }
    // Ethernet TX: collect the beat; the whole frame goes to the port at tlast
    if (m_->eth_tx_tvalid && m_->eth_tx_tready) {
        tx_in_frame_ = true;
        uint64_t keep = m_->eth_tx_tkeep;
        bool last = m_->eth_tx_tlast;
        // tkeep must be ones from byte 0 up, and all ones but on the last beat
        bool contiguous = keep != 0 && (keep & (keep + 1)) == 0;
        if (!contiguous || (!last && keep != ~uint64_t(0))) tx_bad_keep_++;
        for (size_t i = 0; i < BEAT_BYTES; i++)
            if (keep >> i & 1) tx_frame_.push_back(uint8_t(m_->eth_tx_tdata[i / 4] >> (8 * (i % 4))));
        if (last) {
            tx_in_frame_ = false;
            tx_frames_++;
            if (port_ && !tx_frame_.empty()) port_->tx(cycle, std::move(tx_frame_));
            else tx_discarded_++;
            tx_frame_ = wire::Frame();
        }
    }
    // Ethernet RX: the beat presented this cycle is taken (a MAC cannot wait)
    if (m_->eth_rx_tvalid) {
        if (m_->eth_rx_tlast) {
            rx_q_.pop_front();
            rx_beat_ = 0;
            rx_frames_++;
        } else {
            rx_beat_++;
        }
    }
}

void NicInstance::rise() {
    m_->clk = 1;
    m_->eval();
}

void NicInstance::fall(uint64_t next_cycle) {
    cycles_ = next_cycle;
    m_->clk = 0;
    if (port_) {
        wire::Frame f;
        while (port_->rx(next_cycle, f))
            if (!f.empty()) rx_q_.push_back(std::move(f));
    }
    set_inputs(next_cycle);
}
