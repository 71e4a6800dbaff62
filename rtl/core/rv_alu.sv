`default_nettype none
// rv_alu: the integer ALU (add/sub, shifts, compares, logic), built for few
// LUT levels from registered inputs: every result kind is computed in
// parallel and gated by its own bit of a one-hot class (`cls`, decoded a
// stage ahead and registered by the core), so the result is an OR of the
// gated kinds rather than a mux on the 4-bit op. The shifters are two
// levels of 4:1 muxes here (left and right apart, by shamt[3:0]; the sign
// fill of sra is worked out once): rv_core registers them with shamt[4]
// and the fill and finishes the shift in M (a 2:1 step). No class bit set:
// the result is 0 (ORed with ext, another unit's result gated by the core). The add is a carry select:
// the low half's chain decides between the upper half added with carry in
// 0 and with 1 (both chains run beside it), so that one LUT follows the
// carry chains: the sum's bit or everything else, worked out beside them.
module rv_alu (
  input  wire logic [31:0]     a,
  input  wire logic [31:0]     b,
  input  core_pkg::alu_op_e      op,
  input  wire logic            sub,      // subtract (sub, slt, sltu), decoded a stage ahead
  input  wire logic            slt,      // slt (signed), decoded a stage ahead
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [4:0]      cls,      // one-hot: {logic, slt, shr, shl, add} (shifts: M's)
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [31:0]     ext,      // ORed into the result
  output logic      [31:0]     result,   // add, slt, logic (and ext)
  output logic      [31:0]     sh_l,     // a << shamt[3:0]
  output logic      [31:0]     sh_r,     // a >> shamt[3:0], filled
  output logic                 sh_fill,  // the fill of the right shift
  output logic                 sh_16     // shamt[4]: 16 more to shift (in M)
);

  logic [4:0]  shamt;
  logic        fill;
  logic [31:0] sum, lg, bx, rest;
  logic [16:0] hi0;                      // bit 16: the carry out
  logic        ax31, bx31;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [17:0] lo, hi1;                  // bit 0: the carry in
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] r1, l1;
  logic        lt;

  always_comb begin
    shamt = b[4:0];
    // slt / sltu subtract too (sub); slt with the sign bits flipped (an
    // unsigned compare then), so that the carry out of the chains decides:
    // a < b when a + ~b + 1 carries nothing out
    bx    = sub ? ~b : b;
    ax31  = a[31] ^ slt;
    bx31  = bx[31] ^ slt;
    lo    = {1'b0, a[15:0], 1'b1} + {1'b0, bx[15:0], sub};   // bit 0: the carry in (sub)
    hi0   = {1'b0, ax31, a[30:16]} + {1'b0, bx31, bx[30:16]};
    hi1   = {1'b0, ax31, a[30:16], 1'b1} + {1'b0, bx31, bx[30:16], 1'b1};
    sum   = {lo[17] ? hi1[16:1] : hi0[15:0], lo[16:1]};
    lt    = !(lo[17] ? hi1[17] : hi0[16]);

    unique case (op)
      core_pkg::ALU_XOR: lg = a ^ b;
      core_pkg::ALU_OR:  lg = a | b;
      default:           lg = a & b;
    endcase
  end

  // right shift: by shamt[1:0], then by shamt[3:2] * 4, then by shamt[4] * 16
  always_comb begin
`ifdef SOLONIC_FAULT_INJECT
    // Deliberate fault for the mutation test (tests/core): SRA acts as SRL.
    fill = 1'b0;
`else
    fill = (op == core_pkg::ALU_SRA) && a[31];
`endif
    r1      = 32'({{32{fill}}, a} >> shamt[1:0]);
    sh_r    = 32'({{32{fill}}, r1} >> {shamt[3:2], 2'b00});
    sh_fill = fill;
    sh_16   = shamt[4];
  end

  // left shift, the same two steps
  always_comb begin
    l1   = a << shamt[1:0];
    sh_l = l1 << {shamt[3:2], 2'b00};
  end

  always_comb begin
    // (the classes are one-hot: add or the rest, then slt's bit, which
    // comes from the carry out, ORed in last)
    rest   = ({32{cls[4]}} & lg) | ext;
    result = (cls[0] ? sum : rest) | {31'b0, cls[3] && lt};
  end

endmodule
