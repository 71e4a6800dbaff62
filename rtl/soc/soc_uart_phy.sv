`default_nettype none

// UART bit engine for a board: 8 data bits, no parity, one stop bit (8N1),
// LSB first, idle high. baud_div is the bit time in clock cycles (0 acts as 1).
// TX takes a character on tx_valid && tx_ready and shifts it out on txd.
// RX synchronises rxd, finds the start bit's falling edge, samples each bit in
// its middle and presents a character for one cycle on rx_valid (a character
// whose stop bit is low is a framing error: dropped, flagged on rx_frame_err,
// and the receiver waits for the line to go high before the next start bit,
// so a break yields nothing).
module soc_uart_phy (
  input  wire logic        clk,
  input  wire logic        rst,
  input  wire logic [15:0] baud_div,
  // characters to send
  input  wire logic        tx_valid,
  input  wire logic [7:0]  tx_data,
  output logic             tx_ready,
  output logic             tx_idle,       // nothing being shifted out
  // characters received
  output logic             rx_valid,
  output logic [7:0]       rx_data,
  output logic             rx_frame_err,  // one-cycle pulse
  // pins
  output logic             txd,
  input  wire logic        rxd
);

  typedef enum logic [0:0] {TX_IDLE, TX_SHIFT} tx_state_e;
  typedef enum logic [2:0] {RX_IDLE, RX_START, RX_DATA, RX_STOP, RX_BREAK} rx_state_e;

  logic [15:0] bit_cycles;     // baud_div, at least 1

  tx_state_e   tx_state_q, tx_state_d;
  logic [9:0]  tx_shift_q, tx_shift_d;   // {stop, data[7:0], start}, bit 0 on the wire
  logic [3:0]  tx_bits_q, tx_bits_d;     // bits left to send
  logic [15:0] tx_cnt_q, tx_cnt_d;       // cycles left in this bit

  logic [1:0]  rx_sync_q, rx_sync_d;     // two-flop synchroniser, [1] is safe
  rx_state_e   rx_state_q, rx_state_d;
  logic [7:0]  rx_shift_q, rx_shift_d;
  logic [2:0]  rx_bit_q, rx_bit_d;
  logic [15:0] rx_cnt_q, rx_cnt_d;
  logic        rx_valid_q, rx_valid_d;
  logic        rx_err_q, rx_err_d;

  always_comb begin
    bit_cycles = (baud_div == 16'd0) ? 16'd1 : baud_div;

    // transmitter
    tx_state_d = tx_state_q;
    tx_shift_d = tx_shift_q;
    tx_bits_d = tx_bits_q;
    tx_cnt_d = tx_cnt_q;
    tx_ready = 1'b0;
    unique case (tx_state_q)
      TX_IDLE: begin
        tx_ready = 1'b1;
        if (tx_valid) begin
          tx_shift_d = {1'b1, tx_data, 1'b0};
          tx_bits_d = 4'd10;
          tx_cnt_d = bit_cycles - 16'd1;
          tx_state_d = TX_SHIFT;
        end
      end
      TX_SHIFT: begin
        if (tx_cnt_q != 16'd0) begin
          tx_cnt_d = tx_cnt_q - 16'd1;
        end else begin
          tx_shift_d = {1'b1, tx_shift_q[9:1]};
          tx_bits_d = tx_bits_q - 4'd1;
          tx_cnt_d = bit_cycles - 16'd1;
          if (tx_bits_q == 4'd1) tx_state_d = TX_IDLE;
        end
      end
      default: tx_state_d = TX_IDLE;
    endcase
    txd = (tx_state_q == TX_SHIFT) ? tx_shift_q[0] : 1'b1;
    tx_idle = (tx_state_q == TX_IDLE);

    // receiver
    rx_sync_d = {rx_sync_q[0], rxd};
    rx_state_d = rx_state_q;
    rx_shift_d = rx_shift_q;
    rx_bit_d = rx_bit_q;
    rx_cnt_d = (rx_cnt_q != 16'd0) ? rx_cnt_q - 16'd1 : 16'd0;
    rx_valid_d = 1'b0;
    rx_err_d = 1'b0;
    unique case (rx_state_q)
      RX_IDLE: begin
        if (!rx_sync_q[1]) begin
          rx_cnt_d = {1'b0, bit_cycles[15:1]};   // to the middle of the start bit
          rx_state_d = RX_START;
        end
      end
      RX_START: begin
        if (rx_cnt_q == 16'd0) begin
          if (!rx_sync_q[1]) begin
            rx_cnt_d = bit_cycles - 16'd1;
            rx_bit_d = 3'd0;
            rx_state_d = RX_DATA;
          end else begin
            rx_state_d = RX_IDLE;                // a glitch, not a start bit
          end
        end
      end
      RX_DATA: begin
        if (rx_cnt_q == 16'd0) begin
          rx_shift_d = {rx_sync_q[1], rx_shift_q[7:1]};
          rx_bit_d = rx_bit_q + 3'd1;
          rx_cnt_d = bit_cycles - 16'd1;
          if (rx_bit_q == 3'd7) rx_state_d = RX_STOP;
        end
      end
      RX_STOP: begin
        if (rx_cnt_q == 16'd0) begin
          rx_valid_d = rx_sync_q[1];
          rx_err_d = !rx_sync_q[1];
          rx_state_d = rx_sync_q[1] ? RX_IDLE : RX_BREAK;
        end
      end
      RX_BREAK: begin
        if (rx_sync_q[1]) rx_state_d = RX_IDLE;   // after a framing error, wait for idle
      end
      default: rx_state_d = RX_IDLE;
    endcase
    rx_valid = rx_valid_q;
    rx_data = rx_shift_q;
    rx_frame_err = rx_err_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      tx_state_q <= TX_IDLE;
      tx_shift_q <= 10'h3ff;
      tx_bits_q <= 4'd0;
      tx_cnt_q <= 16'd0;
      rx_sync_q <= 2'b11;
      rx_state_q <= RX_IDLE;
      rx_shift_q <= 8'd0;
      rx_bit_q <= 3'd0;
      rx_cnt_q <= 16'd0;
      rx_valid_q <= 1'b0;
      rx_err_q <= 1'b0;
    end else begin
      tx_state_q <= tx_state_d;
      tx_shift_q <= tx_shift_d;
      tx_bits_q <= tx_bits_d;
      tx_cnt_q <= tx_cnt_d;
      rx_sync_q <= rx_sync_d;
      rx_state_q <= rx_state_d;
      rx_shift_q <= rx_shift_d;
      rx_bit_q <= rx_bit_d;
      rx_cnt_q <= rx_cnt_d;
      rx_valid_q <= rx_valid_d;
      rx_err_q <= rx_err_d;
    end
  end

endmodule
