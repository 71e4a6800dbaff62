`default_nettype none

// RISC-V machine timer: the timer register block (regs/timer.toml), mtime
// counting every clock cycle from reset, and irq_timer, high while
// mtime >= mtimecmp (registered: it rises one cycle after mtime reaches
// mtimecmp and falls one cycle after a write moves mtimecmp past mtime).
module soc_timer (
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
  output logic             irq_timer
);

  logic [63:0] mtime_q, mtime_d;
  logic [31:0] mtimecmp_lo_q, mtimecmp_hi_q;
  logic        irq_q, irq_d;

  timer_regs u_regs (
    .clk, .rst,
    .req, .we, .addr, .be, .wdata, .gnt, .rvalid, .rdata, .err,
    .mtime_lo_i(mtime_q[31:0]),
    .mtime_hi_i(mtime_q[63:32]),
    .mtimecmp_lo_q,
    .mtimecmp_hi_q
  );

  always_comb begin
    mtime_d = mtime_q + 64'd1;
    irq_d = (mtime_q >= {mtimecmp_hi_q, mtimecmp_lo_q});
    irq_timer = irq_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      mtime_q <= 64'd0;
      irq_q <= 1'b0;
    end else begin
      mtime_q <= mtime_d;
      irq_q <= irq_d;
    end
  end

endmodule
