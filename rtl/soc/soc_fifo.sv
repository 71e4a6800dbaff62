`default_nettype none

// Synchronous FIFO: DEPTH entries (a power of two) of WIDTH bits, first-word
// fall-through (dout shows the oldest entry while !empty). A push when full
// or a pop when empty is ignored. Push and pop in one cycle are both done.
module soc_fifo #(
  parameter int WIDTH = 8,
  parameter int DEPTH = 64
) (
  input  wire logic             clk,
  input  wire logic             rst,
  input  wire logic             push,
  input  wire logic [WIDTH-1:0] din,
  input  wire logic             pop,
  output logic      [WIDTH-1:0] dout,
  output logic                  empty,
  output logic                  full,
  output logic [$clog2(DEPTH):0] count
);

  localparam int AW = $clog2(DEPTH);

  if (DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0) begin : g_bad_depth
    $error("soc_fifo: DEPTH must be a power of two of at least 2");
  end

  logic [WIDTH-1:0] mem [DEPTH];
  logic [AW-1:0]    wptr_q, wptr_d, rptr_q, rptr_d;
  logic [AW:0]      count_q, count_d;
  logic             do_push, do_pop;

  // outputs depend on the state only (a separate block, so that a caller may
  // compute push/pop from empty/full without a combinational loop)
  always_comb begin
    empty = (count_q == '0);
    full = (count_q == (AW+1)'(DEPTH));
    count = count_q;
    dout = mem[rptr_q];
  end

  always_comb begin
    do_push = push && !full;
    do_pop = pop && !empty;
    wptr_d = do_push ? wptr_q + 1'b1 : wptr_q;
    rptr_d = do_pop ? rptr_q + 1'b1 : rptr_q;
    count_d = count_q + (AW+1)'(do_push) - (AW+1)'(do_pop);
  end

  // storage: a small memory (LUT RAM), written in place rather than as x_q <= x_d
  always_ff @(posedge clk) begin
    if (do_push) mem[wptr_q] <= din;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      wptr_q <= '0;
      rptr_q <= '0;
      count_q <= '0;
    end else begin
      wptr_q <= wptr_d;
      rptr_q <= rptr_d;
      count_q <= count_d;
    end
  end

endmodule
