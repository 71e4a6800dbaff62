`default_nettype none

// UART: the uart register block (generated from regs/uart.toml) with a TX and
// an RX FIFO behind it.
//   SERIAL = 0 (simulation): the FIFOs face a character interface, one
//     character per cycle: tx_valid/tx_data/tx_ready out of the TX FIFO,
//     rx_valid/rx_data/rx_ready into the RX FIFO (rx_ready low while full).
//   SERIAL = 1 (board): soc_uart_phy serialises at baud_div cycles per bit on
//     txd/rxd; the character ports are idle (tx_valid 0, rx_ready 0).
// A character the bit engine receives while the RX FIFO is full is lost and
// counts in rx_overflow (the character interface waits instead); a
// txdata write into a full TX FIFO is dropped and counts in tx_overflow.
module soc_uart #(
  parameter int SERIAL = 0,
  parameter int FIFO_DEPTH = 64
) (
  input  wire logic        clk,
  input  wire logic        rst,
  // sbus target
  input  wire logic        req,
  input  wire logic        we,
  input  wire logic [11:0] addr,
  input  wire logic [3:0]  be,
  input  wire logic [31:0] wdata,
  output logic             gnt,
  output logic             rvalid,
  output logic [31:0]      rdata,
  output logic             err,
  // character interface (SERIAL = 0)
  output logic             tx_valid,
  output logic [7:0]       tx_data,
  input  wire logic        tx_ready,
  input  wire logic        rx_valid,
  input  wire logic [7:0]  rx_data,
  output logic             rx_ready,
  // pins (SERIAL = 1)
  output logic             txd,
  input  wire logic        rxd
);

  if (SERIAL != 0 && SERIAL != 1) begin : g_bad_serial
    $error("soc_uart: SERIAL must be 0 or 1");
  end

  localparam int CW = $clog2(FIFO_DEPTH) + 1;

  // register block side
  logic [7:0]  txdata_wdata;
  logic        txdata_we;
  logic [8:0]  rxdata_i;
  logic        rxdata_re;
  logic [3:0]  status_i;
  logic [15:0] baud_div_q;

  // FIFOs
  logic          txf_pop, txf_empty, txf_full;
  logic [7:0]    txf_dout;
  logic [CW-1:0] txf_count;
  logic          rxf_push, rxf_pop, rxf_empty, rxf_full;
  logic [7:0]    rxf_din, rxf_dout;
  logic [CW-1:0] rxf_count;

  // the side facing the line (character interface or bit engine)
  logic        line_tx_ready, line_tx_idle;
  logic        line_rx_valid;
  logic [7:0]  line_rx_data;

  logic        rx_seen_q;  // the RX FIFO was not empty last cycle (what a read's rxdata_re acts on)
  logic [31:0] rx_overflow_q, rx_overflow_d;
  logic [31:0] tx_overflow_q, tx_overflow_d;
  logic        unused;

  uart_regs u_regs (
    .clk, .rst,
    .req, .we, .addr, .be, .wdata, .gnt, .rvalid, .rdata, .err,
    .txdata_wdata, .txdata_we,
    .rxdata_i, .rxdata_re,
    .status_i,
    .baud_div_q,
    .rx_overflow_i(rx_overflow_q),
    .tx_overflow_i(tx_overflow_q)
  );

  soc_fifo #(.WIDTH(8), .DEPTH(FIFO_DEPTH)) u_txf (
    .clk, .rst,
    .push(txdata_we), .din(txdata_wdata),
    .pop(txf_pop), .dout(txf_dout),
    .empty(txf_empty), .full(txf_full), .count(txf_count)
  );

  soc_fifo #(.WIDTH(8), .DEPTH(FIFO_DEPTH)) u_rxf (
    .clk, .rst,
    .push(rxf_push), .din(rxf_din),
    .pop(rxf_pop), .dout(rxf_dout),
    .empty(rxf_empty), .full(rxf_full), .count(rxf_count)
  );

  if (SERIAL == 1) begin : g_phy
    logic phy_frame_err;
    logic unused_phy;
    soc_uart_phy u_phy (
      .clk, .rst,
      .baud_div(baud_div_q),
      .tx_valid(!txf_empty), .tx_data(txf_dout), .tx_ready(line_tx_ready), .tx_idle(line_tx_idle),
      .rx_valid(line_rx_valid), .rx_data(line_rx_data), .rx_frame_err(phy_frame_err),
      .txd, .rxd
    );
    always_comb begin
      tx_valid = 1'b0;
      tx_data = 8'd0;
      rx_ready = 1'b0;
      unused_phy = ^{tx_ready, rx_valid, rx_data, phy_frame_err};  // no character interface on a board
    end
  end else begin : g_direct
    logic unused_direct;
    always_comb begin
      tx_valid = !txf_empty;
      tx_data = txf_dout;
      line_tx_ready = tx_ready;
      line_tx_idle = 1'b1;            // a character leaves in the cycle it is popped
      line_rx_valid = rx_valid && !rxf_full;   // a valid/ready handshake: nothing is lost
      line_rx_data = rx_data;
      rx_ready = !rxf_full;
      txd = 1'b1;
      unused_direct = ^{rxd, baud_div_q};  // no pins in simulation
    end
  end

  always_comb begin
    txf_pop = !txf_empty && line_tx_ready;
    rxf_push = line_rx_valid;
    // rxdata_re comes the cycle after the read sampled rxdata_i: pop only if
    // that read saw a character, never one pushed while the pulse was on its way
    rxf_pop = rxdata_re && rx_seen_q;
    rxf_din = line_rx_data;
  end

  always_comb begin
    rxdata_i = {!rxf_empty, rxf_dout};
    status_i = {rxf_full, !rxf_empty, txf_empty && line_tx_idle, txf_full};
    rx_overflow_d = rx_overflow_q + 32'(line_rx_valid && rxf_full);
    tx_overflow_d = tx_overflow_q + 32'(txdata_we && txf_full);
    unused = ^{txf_count, rxf_count};
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      rx_seen_q <= 1'b0;
      rx_overflow_q <= 32'd0;
      tx_overflow_q <= 32'd0;
    end else begin
      rx_seen_q <= !rxf_empty;
      rx_overflow_q <= rx_overflow_d;
      tx_overflow_q <= tx_overflow_d;
    end
  end

endmodule
