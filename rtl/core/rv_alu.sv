`default_nettype none
// rv_alu: the integer ALU (add/sub, shifts, compares, logic), built for few
// LUT levels from registered inputs: every result kind is computed in
// parallel and gated by its own bit of a one-hot class (`cls`, decoded a
// stage ahead and registered by the core), so the result is an OR of the
// gated kinds rather than a mux on the 4-bit op. The shifters are three
// levels of 4:1 / 4:1 / 2:1 muxes (left and right apart), the sign fill of
// sra is worked out once. No class bit set: the result is 0 (ORed with
// ext, another unit's result gated by the core). The add is a carry select:
// the low half's chain decides between the upper half added with carry in
// 0 and with 1 (both chains run beside it), so that one LUT follows the
// carry chains: the sum's bit or everything else, worked out beside them.
module rv_alu (
  input  wire logic [31:0]     a,
  input  wire logic [31:0]     b,
  input  core_pkg::alu_op_e      op,
  input  wire logic [4:0]      cls,      // one-hot: {logic, slt, shr, shl, add}
  input  wire logic [31:0]     ext,      // ORed into the result
  output logic      [31:0]     result
);

  logic [4:0]  shamt;
  logic        sub, fill;
  logic [31:0] sum, lg, shl, shr, bx, rest;
  logic [15:0] hi0;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [17:0] lo, hi1;                  // bit 0: the carry in
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] r1, r2, l1, l2;
  logic        lt;

  always_comb begin
    shamt = b[4:0];
    sub   = (op == core_pkg::ALU_SUB);
    bx    = sub ? ~b : b;
    lo    = {1'b0, a[15:0], 1'b1} + {1'b0, bx[15:0], sub};   // bit 0: the carry in (sub)
    hi0   = a[31:16] + bx[31:16];
    hi1   = {1'b0, a[31:16], 1'b1} + {1'b0, bx[31:16], 1'b1};
    sum   = {lo[17] ? hi1[16:1] : hi0, lo[16:1]};

    unique case (op)
      core_pkg::ALU_XOR: lg = a ^ b;
      core_pkg::ALU_OR:  lg = a | b;
      default:           lg = a & b;
    endcase

    lt = (op == core_pkg::ALU_SLT) ? ($signed(a) < $signed(b)) : (a < b);
  end

  // right shift: by shamt[1:0], then by shamt[3:2] * 4, then by shamt[4] * 16
  always_comb begin
`ifdef SOLONIC_FAULT_INJECT
    // Deliberate fault for the mutation test (tests/core): SRA acts as SRL.
    fill = 1'b0;
`else
    fill = (op == core_pkg::ALU_SRA) && a[31];
`endif
    r1  = 32'({{32{fill}}, a} >> shamt[1:0]);
    r2  = 32'({{32{fill}}, r1} >> {shamt[3:2], 2'b00});
    shr = shamt[4] ? {{16{fill}}, r2[31:16]} : r2;
  end

  // left shift, the same three steps
  always_comb begin
    l1  = a << shamt[1:0];
    l2  = l1 << {shamt[3:2], 2'b00};
    shl = shamt[4] ? {l2[15:0], 16'b0} : l2;
  end

  always_comb begin
    rest   = ({32{cls[1]}} & shl) | ({32{cls[2]}} & shr) | {31'b0, cls[3] && lt} |
             ({32{cls[4]}} & lg) | ext;
    result = ({32{cls[0]}} & sum) | rest;
  end

endmodule
