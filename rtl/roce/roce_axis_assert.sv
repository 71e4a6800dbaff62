// roce_axis_assert: simulation check of the valid/ready rule on one stream or
// channel: once valid is high without ready, valid stays high and the payload
// (data, keep, last, ... concatenated) stays the same until ready. Empty in
// synthesis. The instance name says which stream.
`default_nettype none

module roce_axis_assert #(
  parameter int W = 1       // payload bits
) (
  input wire logic         clk,
  input wire logic         rst,
  input wire logic         valid,
  input wire logic         ready,
  input wire logic [W-1:0] payload
);
`ifndef SYNTHESIS
  logic         stalled_q;
  logic [W-1:0] held_q;
  always_ff @(posedge clk) begin
    stalled_q <= !rst && valid && !ready;
    held_q    <= payload;
    if (stalled_q && !valid) $error("%m: valid dropped before ready");
    if (stalled_q && valid && payload != held_q) $error("%m: payload changed while stalled");
  end
`else
  // nothing to build
  logic unused;
  assign unused = ^{clk, rst, valid, ready, payload};
`endif

endmodule
