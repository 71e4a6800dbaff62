`default_nettype none

// sim_nic: the simulator's top: one NIC (rtl/top/nic_top) as the harness
// drives it (sim/nic_instance.cpp). The harness creates one model instance per
// simulated NIC; instance_id tells them apart. Later the on-board memory model
// (rtl/mem, behind the NIC's AXI4 port) lives here too.
module sim_nic #(
  parameter logic [31:0] GIT_HASH = 32'h0
) (
  input  wire logic          clk,
  input  wire logic          rst,
  input  wire logic [7:0]    instance_id,
  output logic               uart_tx_valid,
  output logic [7:0]         uart_tx_data,
  input  wire logic          uart_tx_ready,
  input  wire logic          uart_rx_valid,
  input  wire logic [7:0]    uart_rx_data,
  output logic               uart_rx_ready,
  output logic               uart_txd,
  input  wire logic          uart_rxd,
  output logic               exit_valid,
  output logic [31:0]        exit_code,
  output logic               retire,
  input  wire logic          irq_external,
  output logic [511:0]       eth_tx_tdata,
  output logic [63:0]        eth_tx_tkeep,
  output logic               eth_tx_tvalid,
  input  wire logic          eth_tx_tready,
  output logic               eth_tx_tlast,
  input  wire logic [511:0]  eth_rx_tdata,
  input  wire logic [63:0]   eth_rx_tkeep,
  input  wire logic          eth_rx_tvalid,
  input  wire logic          eth_rx_tlast,
  input  wire logic          eth_rx_tuser
);

  nic_top #(.GIT_HASH(GIT_HASH)) u_nic (
    .clk, .rst, .instance_id,
    .uart_tx_valid, .uart_tx_data, .uart_tx_ready,
    .uart_rx_valid, .uart_rx_data, .uart_rx_ready,
    .uart_txd, .uart_rxd,
    .exit_valid, .exit_code, .retire, .irq_external,
    .eth_tx_tdata, .eth_tx_tkeep, .eth_tx_tvalid, .eth_tx_tready, .eth_tx_tlast,
    .eth_rx_tdata, .eth_rx_tkeep, .eth_rx_tvalid, .eth_rx_tlast, .eth_rx_tuser
  );

endmodule
