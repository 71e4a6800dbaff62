`default_nettype none

// A block made to be measured by tests/timing: a chain of DEPTH multiplexers, each
// selected by the one before it (x[k+1] = x[k] ? a[k] : b[k]), between a register at
// the input and one at the output, so its depth grows with DEPTH and no rebalancing
// flattens it; with COMB_OUT = 1 the output port is also driven straight from an input.
module timing_probe #(
  parameter int DEPTH    = 4,
  parameter int COMB_OUT = 0
) (
  input  wire logic             clk,
  input  wire logic             sel,
  input  wire logic [DEPTH-1:0] a,
  input  wire logic [DEPTH-1:0] b,
  output logic                  y,
  output logic                  z
);
  logic [DEPTH:0]   x;
  logic [DEPTH-1:0] a_q, b_q;
  logic             sel_q, y_q;

  always_comb begin
    x[0] = sel_q;
    for (int k = 0; k < DEPTH; k++) x[k + 1] = x[k] ? a_q[k] : b_q[k];
  end

  always_ff @(posedge clk) begin
    sel_q <= sel;
    a_q   <= a;
    b_q   <= b;
    y_q   <= x[DEPTH];
  end

  assign y = y_q;
  assign z = (COMB_OUT != 0) ? (sel & a[0]) : y_q;
endmodule
