`default_nettype none

// Reset synchroniser: asserts rst as soon as arst is high (asynchronously, so a
// domain whose clock is not running yet still holds its reset), releases it
// STAGES clock edges after arst falls, synchronously to clk. The design's
// flops then see the synchronous active-high reset of the house rules.
module board_reset_sync #(
  parameter int STAGES = 4
) (
  input  wire logic clk,
  input  wire logic arst,   // any source, any clock domain, active high
  output logic      rst
);

  if (STAGES < 2) begin : g_bad
    $error("board_reset_sync: STAGES must be at least 2");
  end

  (* ASYNC_REG = "TRUE" *) logic [STAGES-1:0] chain_q;

  always_ff @(posedge clk or posedge arst) begin
    if (arst) chain_q <= '1;
    else      chain_q <= {chain_q[STAGES-2:0], 1'b0};
  end

  assign rst = chain_q[STAGES-1];

endmodule
