// roce_ram_sdp: simple dual-port RAM (one write port, one read port), read
// data registered (one cycle of latency), the block-RAM template. No reset:
// contents are undefined until written.
`default_nettype none

module roce_ram_sdp #(
  parameter int WIDTH = 8,
  parameter int DEPTH = 256,
  parameter int AW    = $clog2(DEPTH)
) (
  input  wire logic             clk,
  input  wire logic             wr_en,
  input  wire logic [AW-1:0]    wr_addr,
  input  wire logic [WIDTH-1:0] wr_data,
  input  wire logic             rd_en,
  input  wire logic [AW-1:0]    rd_addr,
  output logic      [WIDTH-1:0] rd_data
);
  logic [WIDTH-1:0] mem [DEPTH];

  // Memory write and registered read: the inference template of a block RAM
  // (the one place where an always_ff holds an enable; there is no x_d of a
  // whole memory).
  always_ff @(posedge clk) begin
    if (wr_en) mem[wr_addr] <= wr_data;
    if (rd_en) rd_data <= mem[rd_addr];
  end

endmodule
