`default_nettype none

// tb_cdc: board_async_fifo twice, FRAME = 0 and FRAME = 1, on two clocks the
// C++ bench (tb_cdc.cpp) drives with random periods; the bench writes numbered
// words with random gaps and reads them with random back-pressure.
module tb_cdc (
  input  wire logic        wclk,
  input  wire logic        rclk,
  input  wire logic        wrst,
  input  wire logic        rrst,
  // FRAME = 0
  input  wire logic        a_s_valid,
  output logic             a_s_ready,
  input  wire logic [31:0] a_s_data,
  output logic             a_m_valid,
  input  wire logic        a_m_ready,
  output logic [31:0]      a_m_data,
  // FRAME = 1: bit 32 of the word is the frame's last
  input  wire logic        f_s_valid,
  output logic             f_s_ready,
  input  wire logic [32:0] f_s_data,
  output logic             f_m_valid,
  input  wire logic        f_m_ready,
  output logic [32:0]      f_m_data,
  output logic             f_forced
);

  logic [4:0] a_free, a_used, f_free, f_used;
  logic       a_forced;

  board_async_fifo #(.W(32), .DEPTH(16), .FRAME(0)) u_a (
    .wclk, .wrst, .s_valid(a_s_valid), .s_ready(a_s_ready), .s_data(a_s_data), .s_last(1'b0),
    .w_free(a_free), .s_forced(a_forced),
    .rclk, .rrst, .m_valid(a_m_valid), .m_ready(a_m_ready), .m_data(a_m_data), .r_used(a_used)
  );

  board_async_fifo #(.W(33), .DEPTH(16), .FRAME(1)) u_f (
    .wclk, .wrst, .s_valid(f_s_valid), .s_ready(f_s_ready), .s_data(f_s_data), .s_last(f_s_data[32]),
    .w_free(f_free), .s_forced(f_forced),
    .rclk, .rrst, .m_valid(f_m_valid), .m_ready(f_m_ready), .m_data(f_m_data), .r_used(f_used)
  );

  logic unused;
  assign unused = ^{a_free, a_used, f_free, f_used, a_forced};

endmodule
