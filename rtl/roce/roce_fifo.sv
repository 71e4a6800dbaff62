// roce_fifo: small synchronous FIFO in registers, first-word fall-through
// (out_data is the oldest entry whenever out_valid). DEPTH a power of two.
`default_nettype none

module roce_fifo #(
  parameter int WIDTH = 8,
  parameter int DEPTH = 4,
  parameter int AW    = $clog2(DEPTH)
) (
  input  wire logic             clk,
  input  wire logic             rst,
  input  wire logic             in_valid,
  output logic                  in_ready,
  input  wire logic [WIDTH-1:0] in_data,
  output logic                  out_valid,
  input  wire logic             out_ready,
  output logic      [WIDTH-1:0] out_data,
  output logic      [AW:0]      count       // entries held
);
  logic [WIDTH-1:0] mem [DEPTH];
  logic [AW:0]      wr_q, wr_d, rd_q, rd_d;
  logic             push, pop;

  // separate assignments: out_ready may depend on out_valid outside
  assign count     = wr_q - rd_q;
  assign in_ready  = count != (AW+1)'(DEPTH);
  assign out_valid = count != '0;
  assign out_data  = mem[rd_q[AW-1:0]];
  assign push      = in_valid && in_ready;
  assign pop       = out_valid && out_ready;
  assign wr_d      = wr_q + (AW+1)'(push);
  assign rd_d      = rd_q + (AW+1)'(pop);

  always_ff @(posedge clk) begin
    if (rst) begin
      wr_q <= '0;
      rd_q <= '0;
    end else begin
      wr_q <= wr_d;
      rd_q <= rd_d;
    end
  end

  // Storage: the memory template (see roce_ram_sdp).
  always_ff @(posedge clk) begin
    if (push) mem[wr_q[AW-1:0]] <= in_data;
  end

`ifndef SYNTHESIS
  initial begin
    if (DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0) $error("roce_fifo: DEPTH %0d is not a power of two >= 2", DEPTH);
  end
`endif

endmodule
