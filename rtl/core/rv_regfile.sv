`default_nettype none
// rv_regfile: 31 x 32-bit integer registers (x0 reads zero), two
// asynchronous read ports and one write port (distributed RAM on an FPGA).
module rv_regfile (
  input  wire logic        clk,
  input  wire logic [4:0]  raddr1,
  output logic      [31:0] rdata1,
  input  wire logic [4:0]  raddr2,
  output logic      [31:0] rdata2,
  input  wire logic        we,
  input  wire logic [4:0]  waddr,
  input  wire logic [31:0] wdata
);

  logic [31:0] regs_q [1:31];

  always_comb begin
    rdata1 = (raddr1 == 5'd0) ? 32'b0 : regs_q[raddr1];
    rdata2 = (raddr2 == 5'd0) ? 32'b0 : regs_q[raddr2];
  end

  // A RAM write port: the one place the enable sits in always_ff, so that
  // synthesis infers a memory instead of 992 flip-flops with a mux tree.
  always_ff @(posedge clk) begin
    if (we && (waddr != 5'd0)) begin
      regs_q[waddr] <= wdata;
    end
  end

endmodule
