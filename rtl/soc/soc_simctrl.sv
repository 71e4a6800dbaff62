`default_nettype none

// Simulation control: the simctrl register block (regs/simctrl.toml). A write
// to `exit` raises exit_valid (and keeps it high) with the written exit_code;
// the simulator ends the run on it. in_sim reads 1 in simulation and 0 in a
// SYNTHESIS build, where exit_valid/exit_code lead nowhere.
module soc_simctrl (
  input  wire logic        clk,
  input  wire logic        rst,
  // sbus target
  input  wire logic        req,
  input  wire logic        we,
  input  wire logic [11:0] addr,
  input  wire logic [3:0]  be,
  input  wire logic [31:0] wdata,
  output logic             gnt,
  output logic             rvalid,
  output logic [31:0]      rdata,
  output logic             err,
  output logic             exit_valid,
  output logic [31:0]      exit_code
);

`ifdef SYNTHESIS
  localparam logic IN_SIM = 1'b0;
`else
  localparam logic IN_SIM = 1'b1;
`endif

  logic [31:0] exit_wdata;
  logic        exit_we;
  logic        valid_q, valid_d;
  logic [31:0] code_q, code_d;

  simctrl_regs u_regs (
    .clk, .rst,
    .req, .we, .addr, .be, .wdata, .gnt, .rvalid, .rdata, .err,
    .exit_wdata, .exit_we,
    .in_sim_i(IN_SIM)
  );

  always_comb begin
    valid_d = valid_q || exit_we;
    code_d = exit_we ? exit_wdata : code_q;
    exit_valid = valid_q;
    exit_code = code_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      valid_q <= 1'b0;
      code_q <= 32'd0;
    end else begin
      valid_q <= valid_d;
      code_q <= code_d;
    end
  end

endmodule
