// One simulated SoC (Vsoc_top) and the harness side of its ports.
//
// The class owns the Verilated model and drives it one clock cycle at a time.
// What the SoC's ports lead to is outside: UART characters go to a callback
// and come from a queue; the m_ext port (datapath registers and management
// buffers) is answered here with err until a datapath is attached. Later
// issues add more instances (and Ethernet ports) by creating more of these
// and stepping them together with the same VerilatedContext.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

class VerilatedContext;
class VerilatedFstC;
class Vsoc_top;

class SocInstance {
  public:
    // name: the instance's scope in waveforms; half_period: time units of
    // the context per half clock cycle
    SocInstance(VerilatedContext *ctx, const std::string &name, uint64_t half_period);
    ~SocInstance();
    SocInstance(const SocInstance &) = delete;
    SocInstance &operator=(const SocInstance &) = delete;

    // Hold reset for this many cycles (the first call also runs the RTL's
    // initial blocks, which load the firmware image from +fw=).
    void reset(int cycles);

    // One clock cycle: the handshakes of the coming rising edge are taken
    // (UART characters, m_ext requests, retired instructions), then the edge.
    // Advances the context's time by one period.
    void step();

    // UART: characters from the SoC, characters to it.
    std::function<void(uint8_t)> on_uart_tx;
    void uart_rx_push(uint8_t c) { rx_queue_.push_back(c); }
    size_t uart_rx_pending() const { return rx_queue_.size(); }

    bool exited() const { return exited_; }
    uint32_t exit_code() const { return exit_code_; }
    uint64_t cycles() const { return cycles_; }
    uint64_t retired() const { return retired_; }

    // FST waveforms of this instance (call once, before the first step).
    void trace(VerilatedFstC *tfp, int levels);
    void final();

  private:
    void set_inputs();
    void dump();

    VerilatedContext *ctx_;
    uint64_t half_period_;
    std::unique_ptr<Vsoc_top> m_;
    VerilatedFstC *tfp_ = nullptr;
    std::deque<uint8_t> rx_queue_;
    bool ext_pending_ = false;  // an m_ext request was accepted last cycle: answer it
    bool exited_ = false;
    uint32_t exit_code_ = 0;
    uint64_t cycles_ = 0;
    uint64_t retired_ = 0;
};
