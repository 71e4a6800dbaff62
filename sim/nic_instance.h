// One simulated NIC (Vsim_nic: rtl/top/nic_top.sv in sim/sim_nic.sv) and the
// harness side of its ports.
//
// The class owns the Verilated model. Several instances share one
// VerilatedContext and are stepped together, one clock cycle in three phases
// (sample, rise, fall: see step_cycle() in main.cpp), so that every model sees
// the same edge at the same simulated time.
//
// UART: characters from the NIC go to a callback, characters to it come from
// a queue. Ethernet: the port is plugged into an EthPort (sim/eth_port.h):
//   - TX (frames from the NIC): the beats of a frame are collected and the
//     whole frame goes to the port at its tlast cycle. tready is the port's
//     tx_ready(now) at the start of a frame and stays 1 until its tlast.
//   - RX (frames to the NIC): frames the port says have arrived are presented
//     one beat per cycle from their arrival cycle on, back to back when
//     several wait (a MAC has no tready). tuser is 0 (the FCS was good).
#pragma once

#include "eth_wire.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

class VerilatedContext;
class VerilatedFstC;
class Vsim_nic;
class EthPort;

class NicInstance {
  public:
    // name: the instance's scope in waveforms; id: the instance_id input
    NicInstance(VerilatedContext *ctx, const std::string &name, uint8_t id);
    ~NicInstance();
    NicInstance(const NicInstance &) = delete;
    NicInstance &operator=(const NicInstance &) = delete;

    const std::string &name() const { return name_; }
    uint8_t id() const { return id_; }

    void set_reset(bool on);
    // The three phases of clock cycle `cycle` (clock low, inputs settled on entry):
    // sample: evaluate and take the handshakes of the coming rising edge;
    // rise: the rising edge; fall: clock low again with the next cycle's inputs.
    void sample(uint64_t cycle);
    void rise();
    void fall(uint64_t next_cycle);

    // UART: characters from the NIC, characters to it.
    std::function<void(uint8_t)> on_uart_tx;
    void uart_rx_push(uint8_t c) { uart_rx_.push_back(c); }

    // Ethernet: what the port is plugged into (not owned; nullptr: unplugged,
    // frames from the NIC are taken and discarded, as by a MAC with no link).
    void plug(EthPort *port) { port_ = port; }

    bool exited() const { return exited_; }
    uint32_t exit_code() const { return exit_code_; }
    uint64_t exit_cycle() const { return exit_cycle_; }
    uint64_t cycles() const { return cycles_; }
    uint64_t retired() const { return retired_; }
    uint64_t tx_frames() const { return tx_frames_; }
    uint64_t rx_frames() const { return rx_frames_; }
    uint64_t tx_discarded() const { return tx_discarded_; }
    uint64_t tx_bad_keep() const { return tx_bad_keep_; }
    size_t rx_backlog() const { return rx_q_.size(); }

    // FST waveforms of this instance (call once, before the first cycle).
    void trace(VerilatedFstC *tfp, int levels);
    void final();

  private:
    void set_inputs(uint64_t cycle);

    std::string name_;
    uint8_t id_;
    std::unique_ptr<Vsim_nic> m_;
    EthPort *port_ = nullptr;
    std::deque<uint8_t> uart_rx_;
    // Ethernet TX: the frame being collected; in_frame_: its first beat was taken
    wire::Frame tx_frame_;
    bool tx_in_frame_ = false;
    // Ethernet RX: frames waiting, the beat of the front one being presented
    std::deque<wire::Frame> rx_q_;
    size_t rx_beat_ = 0;
    bool exited_ = false;
    uint32_t exit_code_ = 0;
    uint64_t exit_cycle_ = 0;
    uint64_t cycles_ = 0;
    uint64_t retired_ = 0;
    uint64_t tx_frames_ = 0, rx_frames_ = 0, tx_discarded_ = 0, tx_bad_keep_ = 0;
};
