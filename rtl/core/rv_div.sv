`default_nettype none
// rv_div: iterative radix-2 restoring divider for DIV/DIVU/REM/REMU.
// Works on magnitudes: start registers the operands as they are, one cycle
// (DIV_ABS) takes their magnitudes, one quotient bit per cycle follows, then
// one cycle (DIV_SIGN) registers the result with its sign: 34 cycles from
// start to ready, no carry chain behind the operand inputs or in front of
// the result. Division by zero and INT_MIN / -1 give the results the ISA fixes
// (quotient all ones / remainder = dividend; quotient INT_MIN / remainder 0).
// Protocol: start (in IDLE) latches the operands; ready stays high with the
// result until ack (or kill) returns the unit to IDLE.
module rv_div (
  input  wire logic        clk,
  input  wire logic        rst,
  input  wire logic        start,
  input  wire logic        ack,
  input  wire logic        kill,
  input  wire logic [1:0]  op,  // core_pkg::DIV_*
  input  wire logic [31:0] a,
  input  wire logic [31:0] b,
  output logic             ready,
  output logic      [31:0] result
);

  typedef enum logic [2:0] {
    DIV_IDLE,
    DIV_ABS,
    DIV_RUN,
    DIV_SIGN,
    DIV_DONE
  } div_state_e;

  div_state_e      state_q, state_d;
  logic [31:0]     rem_q, rem_d;
  logic [31:0]     quo_q, quo_d;
  logic [31:0]     dsr_q, dsr_d;
  logic [4:0]      cnt_q, cnt_d;
  logic            neg_quo_q, neg_quo_d;
  logic            neg_rem_q, neg_rem_d;
  logic            want_rem_q, want_rem_d;
  logic            sgn_q, sgn_d;     // a signed divide (DIV_ABS)
  logic [31:0]     res_q, res_d;

  logic            op_signed;
  logic [32:0]     shifted;
  // One guard bit: with a zero divisor shifted uses all 33 bits. Bit 32 of
  // the difference is never needed (a kept difference is below the divisor).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [33:0]     diff;
  /* verilator lint_on UNUSEDSIGNAL */

  always_comb begin
    state_d    = state_q;
    rem_d      = rem_q;
    quo_d      = quo_q;
    dsr_d      = dsr_q;
    cnt_d      = cnt_q;
    neg_quo_d  = neg_quo_q;
    neg_rem_d  = neg_rem_q;
    want_rem_d = want_rem_q;
    sgn_d      = sgn_q;
    if (want_rem_q) begin
      res_d = neg_rem_q ? (~rem_q + 32'd1) : rem_q;
    end else begin
      res_d = neg_quo_q ? (~quo_q + 32'd1) : quo_q;
    end

    op_signed = (op == core_pkg::DIV_DIV) || (op == core_pkg::DIV_REM);
    shifted   = {rem_q, quo_q[31]};
    diff      = {1'b0, shifted} - {2'b0, dsr_q};

    unique case (state_q)
      DIV_IDLE: begin
        if (start) begin
          state_d    = DIV_ABS;
          rem_d      = '0;
          quo_d      = a;
          dsr_d      = b;
          sgn_d      = op_signed;
          cnt_d      = 5'd31;
          // The quotient of a division by zero is all ones whatever the signs.
          neg_quo_d  = op_signed && (a[31] ^ b[31]) && (|b);
          neg_rem_d  = op_signed && a[31];
          want_rem_d = (op == core_pkg::DIV_REM) || (op == core_pkg::DIV_REMU);
        end
      end
      DIV_ABS: begin
        quo_d   = (sgn_q && quo_q[31]) ? (~quo_q + 32'd1) : quo_q;
        dsr_d   = (sgn_q && dsr_q[31]) ? (~dsr_q + 32'd1) : dsr_q;
        state_d = DIV_RUN;
      end
      DIV_RUN: begin
        if (!diff[33]) begin
          rem_d = diff[31:0];
          quo_d = {quo_q[30:0], 1'b1};
        end else begin
          rem_d = shifted[31:0];
          quo_d = {quo_q[30:0], 1'b0};
        end
        cnt_d = cnt_q - 5'd1;
        if (cnt_q == 5'd0) begin
          state_d = DIV_SIGN;
        end
      end
      DIV_SIGN: begin
        state_d = DIV_DONE;
      end
      default: begin // DIV_DONE
        if (ack) begin
          state_d = DIV_IDLE;
        end
      end
    endcase

    if (kill) begin
      state_d = DIV_IDLE;
    end

    ready  = (state_q == DIV_DONE);
    result = res_q;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      state_q <= DIV_IDLE;
    end else begin
      state_q <= state_d;
    end
    rem_q      <= rem_d;
    quo_q      <= quo_d;
    dsr_q      <= dsr_d;
    cnt_q      <= cnt_d;
    neg_quo_q  <= neg_quo_d;
    neg_rem_q  <= neg_rem_d;
    want_rem_q <= want_rem_d;
    sgn_q      <= sgn_d;
    res_q      <= res_d;
  end

endmodule
