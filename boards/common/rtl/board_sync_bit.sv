`default_nettype none

// Two-flop synchroniser for a level (or a Gray-coded bus whose value changes by
// at most one bit per source clock). The first flop may go metastable; the
// second one is what the destination domain uses. ASYNC_REG keeps the two
// flops together in one slice and tells the timing tools what they are.
module board_sync_bit #(
  parameter int           W     = 1,
  parameter logic [W-1:0] RESET = '0
) (
  input  wire logic         clk,      // destination clock
  input  wire logic         rst,      // destination reset (synchronous)
  input  wire logic [W-1:0] d,        // from another clock domain
  output logic      [W-1:0] q
);

  (* ASYNC_REG = "TRUE" *) logic [W-1:0] meta_q;
  (* ASYNC_REG = "TRUE" *) logic [W-1:0] sync_q;

  always_ff @(posedge clk) begin
    if (rst) begin
      meta_q <= RESET;
      sync_q <= RESET;
    end else begin
      meta_q <= d;
      sync_q <= meta_q;
    end
  end

  assign q = sync_q;

endmodule
